"""Flows the tests run, as JSON files beside this one (the flows' storage is FLOWS-API's)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from callwright.voice_agent.flow_graph import FlowGraph

FOLDER = Path(__file__).parent / "flows"


def flow_json(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FOLDER / f"{name}.json").read_text())
    return data


def flow(name: str) -> FlowGraph:
    """`flows/<name>.json` as a graph: `appointment` is the appointment confirmation with
    its reschedule branch, a transfer to the front desk, wrong person, voicemail and the
    globals (person, opt-out, busy, robot)."""
    return FlowGraph.model_validate(flow_json(name))
