"""create_app(): settings, lifespan, middleware, routers and the built SPA."""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2
from fastapi import APIRouter, FastAPI, Response
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import FileResponse, HTMLResponse
from starlette.middleware.sessions import SessionMiddleware
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from callwright import __version__
from callwright.admin.endpoints import router as admin_router
from callwright.auth import tokens
from callwright.auth.csrf import CSRFMiddleware
from callwright.auth.endpoints import router as auth_router
from callwright.auth.google import build_oauth
from callwright.calls.endpoints import router as calls_router
from callwright.calls.flows import RECONCILE_JOB, CallEngine
from callwright.calls.webhooks import router as webhooks_router
from callwright.config import Settings, get_settings
from callwright.content.endpoints import admin_router as content_admin_router
from callwright.content.endpoints import router as content_router
from callwright.kit.db import Database
from callwright.kit.errors import NotFound, install_error_handlers
from callwright.kit.jobs import JobQueue
from callwright.kit.ratelimit import RateLimiter
from callwright.mail.service import Mailer
from callwright.realtime.server import Publisher, Realtime, redis_publisher
from callwright.sandbox.network import SandboxNetwork
from callwright.sandbox.network import install_error_handler as install_sandbox_errors
from callwright.speech import tts
from callwright.speech.stt import Transcriber
from callwright.telephony.base import Carrier
from callwright.telephony.registry import build_carrier
from callwright.users.endpoints import router as users_router
from callwright.voice_agent.media import router as media_router
from callwright.voice_agent.session import Engines, LLMConfig
from callwright.voices.endpoints import router as voices_router

log = logging.getLogger(__name__)
API_PREFIX = "/api/v1"
#: The collector's thresholds while serving. At Python's default (700 net new objects) the
#: objects of the 20 requests in flight were examined ~200 times a second and promoted as they
#: went: about 1 s of collections in 13 s of load (7 % of the CPU, pauses of 2-5 ms every
#: 50-750 ms). At 50,000 a collection comes every few seconds (8 in that run, 70 ms in all,
#: the longest 11 ms); what a cycle holds waits that long to be freed.
GC_THRESHOLDS = (50_000, 20, 50)
#: The API's routers in the order requests are matched against them (see create_app).
HOT_FIRST_ROUTERS = (
    calls_router,
    users_router,
    auth_router,
    voices_router,
    webhooks_router,
    media_router,
    content_router,
    content_admin_router,
    admin_router,
)

CSP = (
    "default-src 'self'; img-src 'self' data: blob: https:; media-src 'self' blob:; "
    "connect-src 'self' ws: wss:; style-src 'self' 'unsafe-inline'; script-src 'self'; "
    "font-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
    "form-action 'self' https://accounts.google.com"
)


class SecurityHeaders:
    """Headers every response gets; API answers are never cached."""

    def __init__(self, app: ASGIApp, hsts: bool) -> None:
        self.app = app
        self.hsts = hsts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        is_api = scope["path"].startswith("/api/")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"strict-origin-when-cross-origin"),
                    (b"x-frame-options", b"DENY"),
                    (b"content-security-policy", CSP.encode()),
                ]
                if is_api:
                    headers.append((b"cache-control", b"no-store"))
                if self.hsts:
                    headers.append(
                        (b"strict-transport-security", b"max-age=31536000; includeSubDomains")
                    )
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


class OAuthStateSession:
    """Starlette's signed-cookie session, only where Authlib keeps the OAuth state (the Google
    sign-in routes): every other request skips its cookie parsing and response wrapping."""

    def __init__(self, app: ASGIApp, prefix: str, options: dict[str, Any]) -> None:
        self.app = app
        self.prefix = prefix
        self.with_session = SessionMiddleware(app, **options)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"].startswith(self.prefix):
            await self.with_session(scope, receive, send)
        else:
            await self.app(scope, receive, send)


def create_app(
    settings: Settings | None = None,
    *,
    google_transport: httpx2.AsyncBaseTransport | None = None,
) -> FastAPI:
    settings = settings or get_settings()

    db = Database(settings.database_url)
    realtime = Realtime(settings, _socket_authenticator(db))
    network = (
        SandboxNetwork(settings.secret_key, speed=settings.sandbox_speed)
        if settings.carrier == "sandbox"
        else None
    )
    core = Core.build(settings, db, realtime.publish)
    jobs, engine = core.jobs, core.engine

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        await core.start(receive=settings.embedded_worker)
        if settings.smtp_enabled and settings.embedded_worker:
            jobs.spawn(app.state.mailer.deliver_pending(), name="mail-pending")
        if settings.warm_up_voice:
            jobs.spawn(asyncio.to_thread(_warm_up, app.state.voice_engines), name="voice-warm-up")
        # What start-up created lives as long as the process: moved out of the collector's
        # generations, a full collection no longer walks it (each one took 100-250 ms and stalled
        # every request in flight).
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        try:
            yield
        finally:
            if network is not None:
                await network.close()
            await core.close()

    production = settings.env == "production"
    app = FastAPI(
        title="Callwright API",
        version=__version__,
        lifespan=lifespan,
        openapi_url=None if production else f"{API_PREFIX}/openapi.json",
        docs_url=None if production else f"{API_PREFIX}/docs",
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.db = db
    app.state.jobs = jobs
    app.state.limiter = RateLimiter(settings.redis_url)
    app.state.mailer = core.mailer
    app.state.realtime = realtime
    app.state.sandbox = network
    app.state.calls = engine
    app.state.voice_engines = Engines(
        transcriber=Transcriber(settings.data_dir / "models" / "whisper-base"),
        llm=LLMConfig(settings.llm_base_url, settings.llm_api_key, settings.llm_model)
        if settings.llm_base_url
        else None,
    )
    app.state.oauth = build_oauth(settings, google_transport)
    install_error_handlers(app)

    # Each router straight on the app, the busiest first. FastAPI matches a request by walking
    # the included routers in order, every route of each, and a router nested in another is
    # walked again at each level: two levels and the user area last cost 67 route matches and
    # about a fifth of a call-log request's CPU. No path is matched by routes of two routers
    # (tests/test_access.py checks), so the order changes nothing else.
    for router in HOT_FIRST_ROUTERS:
        app.include_router(router, prefix=API_PREFIX)
    api = APIRouter(prefix=API_PREFIX)

    @api.get("/health", tags=["meta"])
    async def health() -> dict[str, str]:
        return {"status": "ok", "version": __version__}

    @api.api_route(
        "/{rest:path}", methods=["GET", "POST", "PUT", "PATCH", "DELETE"], include_in_schema=False
    )
    async def api_not_found(rest: str) -> None:
        raise NotFound("The requested endpoint does not exist.")

    app.include_router(api)
    if network is not None:
        app.include_router(network.router)
        install_sandbox_errors(app)
    _mount_spa(app, settings.frontend_dist)

    # Outermost first: headers, CORS, CSRF, then the OAuth state session.
    app.add_middleware(
        OAuthStateSession,
        prefix=f"{API_PREFIX}/auth/google",
        options={
            "secret_key": settings.secret_key,
            "session_cookie": "callwright_oauth",
            "max_age": 15 * 60,
            "same_site": "lax",
            "https_only": settings.secure_cookies,
        },
    )
    app.add_middleware(
        CSRFMiddleware, secret_key=settings.secret_key, exempt_prefixes=("/api/v1/webhooks/",)
    )
    app.add_middleware(
        CORSMiddleware,
        allow_origins=settings.allowed_origins,
        allow_credentials=True,
        allow_methods=["GET", "POST", "PUT", "PATCH", "DELETE"],
        allow_headers=["Authorization", "Content-Type", "X-XSRF-TOKEN", "Accept"],
    )
    app.add_middleware(SecurityHeaders, hsts=settings.secure_cookies)
    return app


def create_asgi_app() -> ASGIApp:
    """What `callwright serve` runs: the app with socket.io at /socket.io in front of it."""
    app = create_app()
    realtime: Realtime = app.state.realtime
    return realtime.wrap(app)


def _socket_authenticator(db: Database) -> Any:
    async def authenticate(token: str) -> tuple[int, bool] | None:
        async for session in db.session():
            found = await tokens.resolve(session, token, db.write_behind)
            return (found[1].id, found[1].is_admin) if found else None
        return None

    return authenticate


def _warm_up(engines: Engines) -> None:
    """Load the speech models before the first call needs them."""
    try:
        engines.transcriber.load()
        tts.warm_up(tts.default_voice())
        gc.freeze()
    except Exception:
        log.exception("warming up the speech models failed")


#: How often the reconciler looks for calls whose end never arrived.
RECONCILE_EVERY_SECONDS = 60


@dataclass
class Core:
    """What every role needs (API, worker): the database, the job queue, the carrier, the call
    engine and the mailer, with the jobs registered."""

    settings: Settings
    db: Database
    jobs: JobQueue
    carrier: Carrier
    engine: CallEngine
    mailer: Mailer
    _reconciler: asyncio.Task[None] | None = None

    @classmethod
    def build(cls, settings: Settings, db: Database, publish: Publisher) -> Core:
        jobs = JobQueue(settings.job_broker_url)
        carrier = build_carrier(settings)
        engine = CallEngine(settings, db, carrier, publish, jobs)
        return cls(settings, db, jobs, carrier, engine, Mailer(settings, db, jobs))

    async def start(self, *, receive: bool) -> None:
        """Connect to the broker; a receiving role also runs queued jobs and the reconciler."""
        await self.jobs.start(receive=receive)
        if receive:
            self._reconciler = asyncio.create_task(self._reconcile_forever(), name="reconciler")

    async def _reconcile_forever(self) -> None:
        while True:
            await asyncio.sleep(RECONCILE_EVERY_SECONDS)
            try:
                await self.jobs.send(RECONCILE_JOB)
            except Exception:
                log.exception("could not queue the call reconciler")

    async def close(self) -> None:
        if self._reconciler is not None:
            self._reconciler.cancel()
            await asyncio.gather(self._reconciler, return_exceptions=True)
        await self.jobs.close()
        await self.carrier.close()
        await self.db.dispose()


async def run_worker(settings: Settings, stop: asyncio.Event | None = None) -> None:
    """`callwright worker`: receive queued jobs (dial, e-mail, reconcile) until `stop` is set.
    Its realtime events reach the API processes' sockets through Redis."""
    if not settings.job_broker_url:
        raise RuntimeError(
            "callwright worker needs CALLWRIGHT_JOB_BROKER_URL (a Redis URL); without it the "
            "API process runs the jobs itself"
        )
    core = Core.build(settings, Database(settings.database_url), redis_publisher(settings))
    await core.start(receive=True)
    log.info("worker receiving jobs from %s", settings.job_broker_url)
    try:
        await (stop or asyncio.Event()).wait()
    finally:
        await core.close()


def _mount_spa(app: FastAPI, dist: Path) -> None:
    """Serve the built React app; every non-API path falls back to index.html (deep links)."""
    index = dist / "index.html"
    assets = dist / "assets"
    if assets.is_dir():
        app.mount("/assets", StaticFiles(directory=assets), name="assets")

    root = dist.resolve()
    # Top-level files of the build (favicon, robots.txt, ...), listed once at start-up.
    top_files = {p.name: p for p in root.iterdir() if p.is_file()} if root.is_dir() else {}
    has_index = index.is_file()

    @app.get("/{path:path}", include_in_schema=False, response_model=None)
    async def spa(path: str) -> Response:
        if path.startswith(("api/", "socket.io")):
            raise NotFound()
        if path in top_files and path != "index.html":
            return FileResponse(top_files[path])
        if has_index:
            return FileResponse(index, headers={"cache-control": "no-cache"})
        return HTMLResponse(
            "<h1>Callwright</h1><p>The web app has not been built. Run <code>scripts/run.sh</code> "
            "(or <code>npm run build</code> in <code>frontend/</code>).</p>",
            status_code=503,
        )
