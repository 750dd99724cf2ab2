"""The voice agent: the only package that imports Pipecat (except contract.py, which is plain)."""

import os

# Pipecat logs through loguru, at DEBUG and with a banner at import; keep it to warnings
# (read by loguru when it is first imported, so before Pipecat is).
os.environ.setdefault("LOGURU_LEVEL", "WARNING")
