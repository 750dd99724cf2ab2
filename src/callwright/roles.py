"""The voice and sandbox roles (ARCHITECTURE.md section 1), each a small ASGI app of its own.

`callwright voice` serves only the carriers' media websockets and runs the calls' pipelines:
its jobs go to the Redis broker and its realtime events through Redis to the API processes'
sockets, like a worker's. `callwright sandbox` serves only the sandbox network, so a voice
process's cost is the agent alone, as with a real carrier. The API processes are told not to
host either (`CALLWRIGHT_HOST_CALLS`, `CALLWRIGHT_HOST_SANDBOX`)."""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import numpy as np
from fastapi import FastAPI
from fastapi.responses import JSONResponse

from callwright import __version__
from callwright.config import Settings, get_settings
from callwright.core import Core
from callwright.kit.db import Database
from callwright.realtime.server import redis_publisher
from callwright.sandbox.network import SandboxNetwork
from callwright.sandbox.network import install_error_handler as install_sandbox_errors
from callwright.sandbox.persona_llm import PersonaLLM, transcriber_ears
from callwright.speech import tts
from callwright.speech.stt import Transcriber
from callwright.voice_agent import turn_end
from callwright.voice_agent.media import router as media_router
from callwright.voice_agent.session import RATE, Engines, LLMConfig
from callwright.voice_agent.tool_runner import Reach

log = logging.getLogger(__name__)
API_PREFIX = "/api/v1"


def build_engines(settings: Settings) -> Engines:
    """The speech engines and the brain of the process that runs calls' pipelines."""
    tts.speech_cache.max_bytes = settings.speech_cache_mb << 20
    return Engines(
        transcriber=Transcriber(settings.data_dir / "models" / "whisper-base"),
        llm=LLMConfig(settings.llm_base_url, settings.llm_api_key, settings.llm_model)
        if settings.llm_base_url
        else None,
        reach=Reach.of(settings),
    )


#: What the warm-up says and hears (any line: it warms the engines, not a cache).
WARM_UP_LINE = "Hello, this is a warm-up."


def warm_up(engines: Engines) -> None:
    """Load the speech models and run each once before the first call needs them: a model's
    first run also pays for its allocations and set-up, and a voice process's first call,
    which paid for it, opened seconds late (a callee said "Hello?" over its first line)."""
    try:
        voice = tts.default_voice()
        tts.warm_up(voice)
        spoken = tts.synthesize(voice, WARM_UP_LINE, RATE)
        engines.transcriber.load()
        engines.transcriber.transcribe(np.ascontiguousarray(spoken), RATE)
        turn_end.smart_turn(RATE).probability(spoken)
        gc.freeze()
    except Exception:
        log.exception("warming up the speech models failed")


def _health(app: FastAPI, role: str, ready: asyncio.Event | None = None) -> None:
    """`GET /api/v1/health`: 200 once the process can take work; 503 while a voice process
    still loads its speech models (a proxy or an orchestrator sends it no call before)."""

    @app.get(f"{API_PREFIX}/health", include_in_schema=False)
    async def health() -> JSONResponse:
        if ready is not None and not ready.is_set():
            return JSONResponse({"status": "warming up", "role": role}, status_code=503)
        return JSONResponse({"status": "ok", "role": role, "version": __version__})


def create_voice_app(settings: Settings | None = None) -> FastAPI:
    """`callwright voice`: the media websocket at /api/v1/media/twilio, nothing else."""
    settings = settings or get_settings()
    core = Core.build(settings, Database(settings.database_url), redis_publisher(settings))
    ready = asyncio.Event()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        await core.start(receive=False)
        if settings.warm_up_voice:

            async def warm() -> None:
                await asyncio.to_thread(warm_up, app.state.voice_engines)
                ready.set()

            core.jobs.spawn(warm(), name="warm-up")
        else:
            ready.set()
        try:
            yield
        finally:
            await core.close()

    app = FastAPI(
        title="Callwright voice", version=__version__, lifespan=lifespan, openapi_url=None
    )
    app.state.settings = settings
    app.state.db = core.db
    app.state.calls = core.calls
    app.state.media_calls = core.calls.media
    app.state.voice_engines = build_engines(settings)
    app.include_router(media_router, prefix=API_PREFIX)
    _health(app, "voice", ready)
    return app


def create_sandbox_app(settings: Settings | None = None) -> FastAPI:
    """`callwright sandbox`: the sandbox network's Twilio-style REST API and its callees."""
    settings = settings or get_settings()
    network = SandboxNetwork(settings.secret_key, speed=settings.sandbox_speed)
    # Callees hear the agent with a Whisper model (loaded when a callee first listens): for
    # answers by the kind of question and, with an LLM, free-text personas.
    ears = transcriber_ears(Transcriber(settings.data_dir / "models" / "whisper-base"))
    network.hear_with(ears)
    network.play_personas_with(PersonaLLM.of(settings, ears))

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        try:
            yield
        finally:
            await network.close()

    app = FastAPI(
        title="Callwright sandbox network", version=__version__, lifespan=lifespan, openapi_url=None
    )
    app.state.settings = settings
    app.state.sandbox = network
    app.include_router(network.router)
    install_sandbox_errors(app)
    _health(app, "sandbox")
    return app
