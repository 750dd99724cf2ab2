"""Record the landing page's "How it works" demo: one real sandbox call, played back with its
transcript appearing in time.

Run: PYTHONPATH=src .venv/bin/python scripts/record_demo_call.py

It starts the app on the embedded default in a temporary folder (SQLite, the sandbox network,
the offline speech engines and the offline demo brain), places one call at real time to a
talking sandbox callee (+15551230003: interested, asks who is calling, agrees), waits for the
call to end, and writes two files beside the landing page:

- `frontend/src/features/site/demo/demo-call.mp3`: the call's recording (agent on the left,
  callee on the right in the app) mixed down to mono, so both sides are heard in both ears;
- `frontend/src/features/site/demo/demo-call.json`: the transcript as the call kept it, each
  line with the second of the recording where it starts.

A line's start is the time the call stamped on it (its first caption) less the moment the callee
answered (when the recording starts), moved to where that side's audio really begins (the first
20 ms frame over -40 dBFS on its own channel, looked for from 0.3 s before the stamp to 3 s
after): the stamp of an agent line is taken when its speech is produced, a little before it is
heard. The script prints both, so the adjustment can be checked.
"""

from __future__ import annotations

import asyncio
import io
import json
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import soundfile
from alembic import command

from callwright.calls import repository as calls
from callwright.calls.service import CallOrder
from callwright.cli import _alembic_config
from callwright.config import REPO_ROOT, Settings
from callwright.kit.serving import free_port, serving
from callwright.main import create_app
from callwright.speech import tts
from callwright.speech.audio import mp3_bytes

NUMBER = "+15551230003"
VOICE = "joe"
PROMPT = (
    "Your name is Mike and you work for Acme Solar. Call homeowners to offer a free solar "
    "assessment. The assessment takes about twenty minutes. Would they like to book one this week?"
)
OUT = REPO_ROOT / "frontend" / "src" / "features" / "site" / "demo"
FRAME_S = 0.02
ONSET_DBFS = -40.0
SEARCH_BEFORE_S = 0.3
SEARCH_AFTER_S = 3.0


def onset(channel: np.ndarray, rate: int, stamp: float) -> float | None:
    """The start of the first 20 ms frame over ONSET_DBFS near `stamp` (seconds), or None."""
    size = int(FRAME_S * rate)
    first = max(0, int((stamp - SEARCH_BEFORE_S) / FRAME_S))
    last = min(len(channel) // size, int((stamp + SEARCH_AFTER_S) / FRAME_S))
    for index in range(first, last):
        frame = channel[index * size : (index + 1) * size].astype(np.float64) / 32768.0
        rms = float(np.sqrt(np.mean(frame**2))) if len(frame) else 0.0
        if rms > 0 and 20 * np.log10(rms) > ONSET_DBFS:
            return round(index * FRAME_S, 2)
    return None


async def record(settings: Settings) -> dict[str, Any]:
    app = create_app(settings)

    async def quiet(room: str, event: str, data: dict[str, Any]) -> None:
        return None

    app.state.calls.events.publish = quiet
    async with serving(app, settings.port):
        print("loading the speech models...")
        await asyncio.to_thread(app.state.voice_engines.transcriber.load)
        await asyncio.to_thread(tts.warm_up, tts.find(VOICE) or tts.default_voice())
        print(f"calling {NUMBER} on the sandbox network (real time)...")
        async for session in app.state.db.session():
            row = await app.state.calls.service.place(
                session,
                CallOrder(kind="cli", to_number=NUMBER, prompt=PROMPT, voice=VOICE, max_duration=2),
            )
            call_id = row.id
        call = await app.state.calls.flows.wait_finalized(call_id)
        async for session in app.state.db.session():
            lines = await calls.transcript(session, call_id)
        if not call.recording_path or call.answered_at is None:
            raise SystemExit(f"the call did not record ({call.status}, {call.error})")
        recording = app.state.calls.media.recordings / call.recording_path
        return {
            "status": call.status,
            "duration": call.duration_seconds,
            "answered_at": call.answered_at,
            "lines": [(e.speaker, e.text, e.created_at) for e in lines],
            "mp3": recording.read_bytes(),
        }


def write(result: dict[str, Any]) -> None:
    stereo, rate = soundfile.read(io.BytesIO(result["mp3"]), dtype="int16", always_2d=True)
    left, right = stereo[:, 0], stereo[:, 1]  # the agent, the callee
    mono = ((left.astype(np.int32) + right.astype(np.int32)) // 2).astype(np.int16)
    length = len(mono) / rate
    timed = []
    for speaker, text, created_at in result["lines"]:
        stamp = (created_at - result["answered_at"]).total_seconds()
        heard = onset(left if speaker == "assistant" else right, rate, stamp)
        at = heard if heard is not None else round(max(stamp, 0.0), 2)
        print(f"  {stamp:6.2f} s stamped, {at:6.2f} s heard  {speaker:9}  {text}")
        timed.append(
            {"speaker": "agent" if speaker == "assistant" else "callee", "text": text, "at": at}
        )
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "demo-call.mp3").write_bytes(mp3_bytes(mono, rate, 1, kbps=32))
    meta = {
        "about": "A real call on the sandbox network, recorded by scripts/record_demo_call.py",
        "recorded": datetime.now(UTC).strftime("%Y-%m-%d"),
        "number": NUMBER,
        "voice": VOICE,
        "brain": "offline demo policy",
        "prompt": PROMPT,
        "status": result["status"],
        "seconds": round(length, 2),
        "lines": timed,
    }
    (OUT / "demo-call.json").write_text(json.dumps(meta, indent=2) + "\n")
    print(f"wrote {OUT / 'demo-call.mp3'} ({length:.1f} s) and {OUT / 'demo-call.json'}")


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        settings = Settings(
            env="test",
            data_dir=Path(tmp),
            app_url=f"http://127.0.0.1:{port}",
            port=port,
            secret_key="demo-recording-secret-key-0123456789abcdef",  # noqa: S106 - a throwaway install
            sandbox_speed=1.0,
            warm_up_voice=False,
            frontend_dist=Path(tmp) / "none",
        )
        command.upgrade(_alembic_config(settings), "head")
        result = asyncio.run(record(settings))
    write(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
