"""One voice-latency lever moved, then `voice_latency.py` as usual, so a lever's figure can be
reproduced without editing the code.

Run: .venv/bin/python benchmarks/voice_levers.py LEVER VALUE [calls]

LEVER is one of:
- pause: the user-turn pause after the VAD stop (voice_agent/session.py USER_PAUSE_SECS, 0.4 s;
  only with CALLWRIGHT_TURN_END=fixed, since by default voice_agent/turn_end.py decides it)
- vad: the VAD's silence window that ends a stretch of speech (VAD_STOP_SECS, 0.3 s)
- trigger: the quiet that starts a speculative transcription (voice_agent/services.py
  SPECULATE_AFTER_SECS, 0.12 s)
"""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

from callwright.voice_agent import services, session

LEVERS = {
    "pause": (session, "USER_PAUSE_SECS"),
    "vad": (session, "VAD_STOP_SECS"),
    "trigger": (services, "SPECULATE_AFTER_SECS"),
}

if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] not in LEVERS:
        sys.exit(__doc__)
    module, name = LEVERS[sys.argv[1]]
    print(f"{module.__name__}.{name}: {getattr(module, name)} -> {float(sys.argv[2])}")
    setattr(module, name, float(sys.argv[2]))
    sys.argv = ["voice_latency.py", *sys.argv[3:4]]
    runpy.run_path(str(Path(__file__).with_name("voice_latency.py")), run_name="__main__")
