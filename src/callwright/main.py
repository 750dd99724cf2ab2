"""create_app(): settings, lifespan, services, middleware, routers (`routers.py`) and the
built SPA."""

from __future__ import annotations

import asyncio
import gc
import logging
import mimetypes
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from urllib.parse import urlsplit

import httpx2
from fastapi import FastAPI, Request, Response
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import FileResponse, HTMLResponse
from starlette.types import ASGIApp

from callwright import __version__
from callwright.api_security import document_security
from callwright.auth.csrf import CSRFMiddleware
from callwright.auth.google import build_oauth
from callwright.auth.sockets import SocketAuth
from callwright.calls.viewers import CallViewers
from callwright.config import Settings, get_settings, parse_networks
from callwright.core import Core
from callwright.kit.body_limit import BodySizeLimit
from callwright.kit.db import Database
from callwright.kit.errors import NotFound, install_error_handlers
from callwright.kit.middleware import (
    OAuthStateSession,
    SecurityHeaders,
    content_security_policy,
)
from callwright.kit.nul_guard import NulGuard
from callwright.kit.phone import PhoneRegion
from callwright.kit.proxies import ClientAddressMiddleware
from callwright.kit.ratelimit import RateLimiter
from callwright.public_api.errors import install_v1_error_handlers
from callwright.realtime.schema import document_events
from callwright.realtime.server import Realtime
from callwright.roles import build_engines, warm_up
from callwright.routers import API_PREFIX, include_routers
from callwright.sandbox.network import SandboxNetwork
from callwright.sandbox.numbers import own_numbers_on
from callwright.sandbox.persona_llm import PersonaLLM, transcriber_ears

log = logging.getLogger(__name__)
#: The collector's thresholds while serving. At Python's default (700 net new objects) the
#: objects of the 20 requests in flight were examined ~200 times a second and promoted as they
#: went: about 1 s of collections in 13 s of load (7 % of the CPU, pauses of 2-5 ms every
#: 50-750 ms). At 50,000 a collection comes every few seconds (8 in that run, 70 ms in all,
#: the longest 11 ms); what a cycle holds waits that long to be freed.
GC_THRESHOLDS = (50_000, 20, 50)
#: The routes whose bodies may reach CALLWRIGHT_MAX_UPLOAD_BODY_BYTES (a post's HTML may be
#: 500,000 characters: up to 2 MB of UTF-8, more when escaped); every other body gets
#: CALLWRIGHT_MAX_BODY_BYTES.
UPLOAD_ROUTES = (
    ("POST", f"{API_PREFIX}/admin/posts"),
    ("PUT", f"{API_PREFIX}/admin/posts/[^/]+"),
    # A do-not-call list's CSV import (about 250,000 numbers in 4 MiB).
    ("POST", f"{API_PREFIX}/(admin/)?do-not-call/import"),
    # A campaign's contacts file (about 100,000 rows of a number and two short columns).
    ("POST", f"{API_PREFIX}/campaigns/[^/]+/contacts"),
)


def create_app(
    settings: Settings | None = None,
    *,
    google_transport: httpx2.AsyncBaseTransport | None = None,
) -> FastAPI:
    settings = settings or get_settings()
    db = Database(settings.database_url)
    socket_auth = SocketAuth(db)
    realtime = Realtime(
        settings, socket_auth.authenticate, socket_auth.revalidate, visitors=CallViewers(db)
    )
    # The sandbox network: every call's on the sandbox install, the lab's beside a real carrier.
    network = (
        SandboxNetwork(settings.secret_key, speed=settings.sandbox_speed)
        if settings.host_sandbox
        else None
    )
    core = Core.build(settings, db, realtime.publish)
    production = settings.env == "production"
    app = FastAPI(
        title="Callwright API",
        version=__version__,
        lifespan=_lifespan(core, realtime, network),
        openapi_url=None if production else f"{API_PREFIX}/openapi.json",
        docs_url=None if production else f"{API_PREFIX}/docs",
        redoc_url=None,
    )
    _register_services(app, core, realtime, network)
    app.state.oauth = build_oauth(settings, google_transport)
    install_error_handlers(app)
    install_v1_error_handlers(app)  # Bland's error shape under /v1 only
    include_routers(app, settings, network)
    document_events(app)  # the socket.io events' models beside the REST shapes
    document_security(app, settings)  # who may call what, and /openapi.json
    _mount_spa(app, settings.frontend_dist)
    _add_middleware(app, settings)
    return app


def _lifespan(
    core: Core, realtime: Realtime, network: SandboxNetwork | None
) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """Start-up and shut-down of the API process: the core and the sockets, the embedded
    worker's chores, the collector's settings."""
    settings, jobs = core.settings, core.jobs

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        await core.start(receive=settings.embedded_worker)
        await realtime.start()
        if settings.smtp_enabled and settings.embedded_worker:
            jobs.spawn(core.mailer.deliver_pending(), name="mail-pending")
        if settings.warm_up_voice and settings.host_calls:
            jobs.spawn(asyncio.to_thread(warm_up, app.state.voice_engines), name="voice-warm-up")
        # What start-up created lives as long as the process: moved out of the collector's
        # generations, a full collection no longer walks it (each one took 100-250 ms and stalled
        # every request in flight).
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        log.info("Callwright is ready: sign in at %s/login", settings.app_url.rstrip("/"))
        try:
            yield
        finally:
            if network is not None:
                await network.close()
            await realtime.close()
            await core.close()

    return lifespan


def _register_services(
    app: FastAPI, core: Core, realtime: Realtime, network: SandboxNetwork | None
) -> None:
    """The app-wide singletons, each read through its typed dependency (`kit/deps.py` and the
    `deps.py` of the package that owns it)."""
    settings = core.settings
    app.state.settings = settings
    app.state.db = core.db
    app.state.jobs = core.jobs
    app.state.limiter = RateLimiter(settings.redis_url)
    app.state.mailer = core.mailer
    app.state.payments = core.payments
    app.state.outbox = core.outbox
    app.state.deliverer = core.deliverer
    app.state.realtime = realtime
    app.state.sandbox = network
    app.state.calls = core.calls
    app.state.dialler = core.dialler
    app.state.media_calls = core.calls.media
    app.state.voice_engines = build_engines(settings)
    if network is not None:  # free-text personas hear the agent with the calls' own model
        ears = transcriber_ears(app.state.voice_engines.transcriber)
        network.hear_with(ears)
        network.play_personas_with(PersonaLLM.of(settings, ears))


def _add_middleware(app: FastAPI, settings: Settings) -> None:
    """Outermost first: the client's address, headers, CORS, the body size limit, the NUL guard
    (it reads JSON and form bodies whole, so it sits inside the limit), CSRF, then the OAuth
    state session, then the phone region the request's numbers are read in (added innermost
    first)."""
    app.add_middleware(
        PhoneRegion,
        region=settings.default_region,
        test_numbers=own_numbers_on(settings.carrier),
    )
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
        CSRFMiddleware,
        secret_key=settings.secret_key,
        session_cookie=settings.session_cookie,
        # Signed by their senders (carriers, Stripe), never sent with a session.
        exempt_prefixes=("/api/v1/webhooks/", "/api/v1/billing/stripe-webhook", "/v1/"),
    )
    app.add_middleware(NulGuard)
    app.add_middleware(
        BodySizeLimit,
        max_bytes=settings.max_body_bytes,
        upload_max_bytes=settings.max_upload_body_bytes,
        upload_routes=UPLOAD_ROUTES,
    )
    app.add_middleware(
        CORSMiddleware,
        allow_origins=settings.allowed_origins,
        allow_credentials=True,
        allow_methods=["GET", "POST", "PUT", "PATCH", "DELETE"],
        allow_headers=["Authorization", "Content-Type", "X-XSRF-TOKEN", "Accept"],
    )
    app.add_middleware(SecurityHeaders, hsts=settings.secure_cookies, csp=_csp(settings))
    # Everything inside sees the client's address as the trusted proxies give it.
    app.add_middleware(ClientAddressMiddleware, trusted=parse_networks(settings.trusted_proxies))


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def _csp(settings: Settings) -> str:
    """The pages' CSP, with what the Billing page's Stripe.js needs: Stripe's script, API and
    frames (Stripe's published list), or the local emulator's one origin."""
    if settings.stripe_real:
        return content_security_policy(
            scripts="https://js.stripe.com",
            connect="https://api.stripe.com https://m.stripe.network",
            frames="https://js.stripe.com https://hooks.stripe.com",
        )
    local = " ".join(sorted({_origin(settings.stripe_js_url), _origin(settings.stripe_api_base)}))
    return content_security_policy(scripts=local, connect=local, frames="")


def create_asgi_app() -> ASGIApp:
    """What `callwright serve` runs: the app with socket.io at /socket.io in front of it."""
    app = create_app()
    realtime: Realtime = app.state.realtime
    return realtime.wrap(app)


#: Hashed build assets never change under their name: cached for a year, never revalidated.
IMMUTABLE = "public, max-age=31536000, immutable"
#: The precompressed variants the build writes beside each file (frontend/vite.config.ts), in
#: the order they are preferred.
ENCODINGS = (("br", ".br"), ("gzip", ".gz"))


def _accepted(header: str) -> set[str]:
    """The content codings an Accept-Encoding header accepts ("br;q=0" refuses br; "*" accepts
    what it does not name)."""
    named: dict[str, float] = {}
    for part in header.lower().split(","):
        coding, _, params = part.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if coding:
            named[coding.strip()] = quality
    wildcard = named.get("*", 0.0)
    return {c for c, _ in ENCODINGS if named.get(c, wildcard) > 0}


def _static(request: Request, path: Path, variants: set[str], cache: str) -> FileResponse:
    """`path` as the best precompressed variant the client accepts, else as it is."""
    headers = {"cache-control": cache, "vary": "Accept-Encoding"}
    media_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    accepted = _accepted(request.headers.get("accept-encoding", ""))
    for coding, suffix in ENCODINGS:
        if coding in accepted and suffix in variants:
            headers["content-encoding"] = coding
            return FileResponse(
                path.with_name(path.name + suffix), media_type=media_type, headers=headers
            )
    return FileResponse(path, media_type=media_type, headers=headers)


def _listing(root: Path) -> dict[str, tuple[Path, set[str]]]:
    """Every file under `root` by its URL path, with the precompressed variants beside it;
    listed once at start-up, so a request names only files that are there."""
    if not root.is_dir():
        return {}
    files = {p.relative_to(root).as_posix(): p for p in root.rglob("*") if p.is_file()}
    suffixes = tuple(suffix for _, suffix in ENCODINGS)
    return {
        name: (path, {s for s in suffixes if name + s in files})
        for name, path in files.items()
        if not name.endswith(suffixes)
    }


def _mount_spa(app: FastAPI, dist: Path) -> None:
    """Serve the built React app; every non-API path falls back to index.html (deep links).
    Hashed assets (/assets/...) are cached for a year, the rest revalidated (index.html names
    the assets of the current build); each file goes out brotli- or gzip-compressed when the
    build wrote that variant and the client accepts it."""
    root = dist.resolve()
    assets = _listing(root / "assets")
    # Top-level files of the build (favicon, robots.txt, ...), listed once at start-up.
    top_files = {n: v for n, v in _listing(root).items() if "/" not in n}
    index = top_files.get("index.html")

    @app.get("/assets/{path:path}", include_in_schema=False, response_model=None)
    async def asset(path: str, request: Request) -> Response:
        found = assets.get(path)
        if found is None:
            raise NotFound("Not found.")
        return _static(request, found[0], found[1], IMMUTABLE)

    @app.get("/{path:path}", include_in_schema=False, response_model=None)
    async def spa(path: str, request: Request) -> Response:
        if path.startswith(("api/", "socket.io", "v1/")) or path == "v1":
            raise NotFound("The requested endpoint does not exist.")
        if path in top_files and path != "index.html":
            file, variants = top_files[path]
            return _static(request, file, variants, "no-cache")
        if index is not None:
            return _static(request, index[0], index[1], "no-cache")
        return HTMLResponse(
            "<h1>Callwright</h1><p>The web app has not been built. Run <code>scripts/run.sh</code> "
            "(or <code>npm run build</code> in <code>frontend/</code>).</p>",
            status_code=503,
        )
