"""Pipecat logs through loguru at DEBUG by default; send its warnings and errors to the
standard logging tree instead, like the rest of the app."""

from __future__ import annotations

import logging

from loguru import logger

_configured = False


def quiet_pipecat(level: str = "WARNING") -> None:
    global _configured
    if _configured:
        return
    _configured = True
    logger.remove()

    def forward(message: object) -> None:
        record = message.record  # type: ignore[attr-defined]
        logging.getLogger(record["name"] or "pipecat").log(
            logging.getLevelName(record["level"].name)
            if record["level"].name != "WARNING"
            else logging.WARNING,
            record["message"],
        )

    logger.add(forward, level=level)
