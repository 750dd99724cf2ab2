"""`callwright` command line: serve | migrate | seed | create-admin | mail | localstripe | ..."""

from __future__ import annotations

import asyncio
import getpass
import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Annotated, TypeVar

import typer
from alembic import command
from alembic.config import Config
from sqlalchemy.ext.asyncio import AsyncSession

from callwright.config import REPO_ROOT, Settings, get_settings
from callwright.kit import logs
from callwright.kit.db import Database
from callwright.kit.validation import PASSWORD_MIN, normalize_email
from callwright.mail import repository as mail_repository
from callwright.models.user import Role

app = typer.Typer(help="Callwright: AI outbound calling.", no_args_is_help=True)
T = TypeVar("T")


def _alembic_config(settings: Settings) -> Config:
    cfg = Config(str(REPO_ROOT / "alembic.ini"))
    cfg.set_main_option("script_location", str(REPO_ROOT / "alembic"))
    cfg.attributes["url"] = settings.database_url
    cfg.attributes["configure_logger"] = False
    return cfg


def _with_session(settings: Settings, work: Callable[[AsyncSession], Awaitable[T]]) -> T:
    async def run() -> T:
        db = Database(settings.database_url)
        try:
            async for session in db.session():
                result = await work(session)
            return result
        finally:
            await db.dispose()

    return asyncio.run(run())


@app.command()
def migrate() -> None:
    """Bring the database schema up to date."""
    settings = get_settings()
    if settings.is_sqlite:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
    command.upgrade(_alembic_config(settings), "head")
    typer.echo("database is up to date")


@app.command()
def seed() -> None:
    """Create the admin and demo accounts (idempotent) and print their credentials."""
    from callwright.seed import seed as run_seed

    settings = get_settings()
    accounts = _with_session(settings, lambda s: run_seed(s, settings))
    typer.echo("")
    typer.echo("  Sign in at " + settings.app_url + "/login")
    for acc in accounts:
        state = "created" if acc.created else "ready"
        typer.echo(
            f"  {acc.role:5}  {acc.email:30} password: {acc.password}   ({state}, {acc.password_source})"
        )
    typer.echo("")


@app.command("create-admin")
def create_admin(
    email: Annotated[str, typer.Option(help="the admin's e-mail address")],
    name: Annotated[str, typer.Option(help="display name")] = "Admin",
    password: Annotated[str | None, typer.Option(help="omit to be asked")] = None,
) -> None:
    """Create an administrator, or promote and re-key an existing account."""
    from callwright.seed import ensure_account

    try:
        email = normalize_email(email)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--email") from exc
    if password is None:
        password = getpass.getpass("Password: ")
        if getpass.getpass("Repeat: ") != password:
            raise typer.BadParameter("the passwords differ")
    if len(password) < PASSWORD_MIN:
        raise typer.BadParameter(f"at least {PASSWORD_MIN} characters", param_hint="--password")
    settings = get_settings()

    async def work(session: AsyncSession) -> bool:
        _user, created = await ensure_account(
            session, role=Role.ADMIN, email=email, name=name, password=password
        )
        return created

    created = _with_session(settings, work)
    typer.echo(f"admin {email} {'created' if created else 'updated'}")


@app.command()
def mail(
    limit: Annotated[int, typer.Option(min=1, max=100, help="how many messages")] = 5,
    to: Annotated[str | None, typer.Option(help="only messages to this address")] = None,
    body: Annotated[bool, typer.Option(help="print the whole text")] = False,
) -> None:
    """Print the latest e-mails from the outbox, with their links (verification, reset)."""
    settings = get_settings()
    messages = _with_session(
        settings, lambda s: mail_repository.latest(s, limit=limit, to_address=to)
    )
    if not messages:
        typer.echo("the outbox is empty")
        return
    for m in messages:
        typer.echo(f"#{m.id}  {m.created_at:%Y-%m-%d %H:%M:%S}Z  [{m.status}]  to {m.to_address}")
        typer.echo(f"    {m.subject}")
        if m.link:
            typer.echo(f"    link: {m.link}")
        if body:
            typer.echo("    " + m.body_text.replace("\n", "\n    "))
        typer.echo("")


@app.command()
def call(
    to: Annotated[
        str,
        typer.Argument(help="the number to dial, for example +15551230000 (see docs/sandbox.md)"),
    ],
    prompt: Annotated[
        str, typer.Option(help="what the agent is and wants")
    ] = "You are Sarah from Bright Dental. You are calling to remind the customer about their cleaning appointment tomorrow at 3 pm. Ask if the time still works for them.",
    voice: Annotated[str, typer.Option(help="a voice name (callwright voices)")] = "joe",
    max_duration: Annotated[int, typer.Option(min=1, max=120, help="minutes")] = 5,
    wait_for_greeting: Annotated[bool, typer.Option(help="let the callee speak first")] = False,
    background: Annotated[
        str, typer.Option(help="null, office, cafe, restaurant or none")
    ] = "null",
    speed: Annotated[float, typer.Option(min=1.0, max=4.0, help="sandbox clock speed")] = 1.0,
) -> None:
    """Place a call from the terminal (sandbox carrier by default) and follow it live."""
    from callwright.cli_call import CallOptions, place_call

    options = CallOptions(to, prompt, voice, max_duration, wait_for_greeting, background, speed)
    raise typer.Exit(place_call(options))


@app.command("test-agent")
def agent_tests(
    agent: Annotated[str, typer.Argument(help="the agent's id (its page's address has it)")],
    junit: Annotated[Path, typer.Option(help="write the run as JUnit XML to this file")],
    url: Annotated[
        str, typer.Option(envvar="CALLWRIGHT_URL", help="the Callwright server")
    ] = "http://127.0.0.1:8000",
    api_key: Annotated[
        str, typer.Option(envvar="CALLWRIGHT_API_KEY", help="an API key of the agent's owner")
    ] = "",
    timeout: Annotated[int, typer.Option(min=10, max=7200, help="seconds to wait")] = 1800,
    suite: Annotated[
        str | None, typer.Option(help="run only this suite's scenarios (e.g. starter)")
    ] = None,
) -> None:
    """Run an agent's test suite (the agent lab) and exit non-zero when a scenario fails."""
    from callwright.lab.cli import LabClientError, run_and_report

    if not api_key:
        raise typer.BadParameter(
            "an API key is needed (or CALLWRIGHT_API_KEY)", param_hint="--api-key"
        )
    try:
        code = run_and_report(
            url, api_key, agent, junit, within=timeout, suite=suite, say=typer.echo
        )
    except (LabClientError, TimeoutError, OSError) as exc:
        typer.echo(f"test-agent: {exc}", err=True)
        raise typer.Exit(2) from exc
    raise typer.Exit(code)


@app.command()
def voices() -> None:
    """List the voices this machine can speak."""
    from callwright.speech import tts

    for v in tts.catalogue():
        typer.echo(f"  {v.name:16} {v.engine:7} {v.description}")


@app.command("prepare-models")
def prepare_models() -> None:
    """Assemble the packaged Whisper weights (done once; the first call does it otherwise)."""
    from callwright.speech.stt import prepare_model

    settings = get_settings()
    path = prepare_model(settings.data_dir / "models" / "whisper-base")
    typer.echo(f"speech models ready in {path}")


@app.command()
def openapi(
    output: Annotated[Path, typer.Option(help="where to write the schema")] = REPO_ROOT
    / "frontend"
    / "openapi.json",
) -> None:
    """Write the API's OpenAPI schema (the frontend's types are generated from it)."""
    import json

    from callwright.main import create_app

    schema = create_app(Settings(env="development")).openapi()
    output.write_text(json.dumps(schema, indent=2, sort_keys=True) + "\n")
    typer.echo(f"wrote {output}")


@app.command()
def worker() -> None:
    """Run queued jobs (dial calls, deliver e-mail, reconcile calls) from the Redis job broker."""
    import signal

    from callwright.core import run_worker

    settings = get_settings()
    logs.configure()
    if not settings.job_broker_url:
        typer.echo(
            "Set CALLWRIGHT_JOB_BROKER_URL to a Redis URL: without it the API process runs jobs itself.",
            err=True,
        )
        raise typer.Exit(2)

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await run_worker(settings, stop)

    asyncio.run(main())


def _listen_on(host: str | None) -> None:
    """Make `--host` the app's `CALLWRIGHT_HOST` too: the app judges from the address it
    listens on whether others can reach it (private webhook targets, docs/webhooks.md)."""
    if host:
        os.environ["CALLWRIGHT_HOST"] = host
        get_settings.cache_clear()


def _serve_role(factory: str, host: str, port: int) -> None:
    import uvicorn

    _listen_on(host)
    logs.configure()
    uvicorn.run(factory, factory=True, host=host, port=port, proxy_headers=False, log_level="info")


@app.command()
def voice(
    host: Annotated[str | None, typer.Option()] = None,
    port: Annotated[int, typer.Option()] = 8001,
) -> None:
    """Run a voice process: the carriers' media websockets and the calls' pipelines (the API
    processes then run with CALLWRIGHT_HOST_CALLS=false)."""
    settings = get_settings()
    if not settings.job_broker_url:
        typer.echo(
            "A voice process sends its jobs to the workers: set CALLWRIGHT_JOB_BROKER_URL "
            "(and CALLWRIGHT_REDIS_URL for its live events).",
            err=True,
        )
        raise typer.Exit(2)
    _serve_role("callwright.roles:create_voice_app", host or settings.host, port)


@app.command()
def sandbox(
    host: Annotated[str | None, typer.Option()] = None,
    port: Annotated[int, typer.Option()] = 8002,
) -> None:
    """Run the sandbox network (the simulated callees) in a process of its own (the API
    processes then run with CALLWRIGHT_HOST_SANDBOX=false, CALLWRIGHT_SANDBOX_URL pointing here
    or a proxy routing /sandbox/ here)."""
    settings = get_settings()
    _serve_role("callwright.roles:create_sandbox_app", host or settings.host, port)


@app.command()
def serve(
    host: Annotated[str | None, typer.Option()] = None,
    port: Annotated[int | None, typer.Option()] = None,
    reload: Annotated[bool, typer.Option(help="restart on code changes (development)")] = False,
    access_log: Annotated[
        bool,
        typer.Option(
            envvar="CALLWRIGHT_ACCESS_LOG",
            help="a line per HTTP request (off: the screens poll, which would bury the calls' lines)",
        ),
    ] = False,
) -> None:
    """Run the web app (API, realtime and the built SPA)."""
    import uvicorn

    _listen_on(host)
    settings = get_settings()
    logs.configure()
    uvicorn.run(
        "callwright.main:create_asgi_app",
        factory=True,
        host=host or settings.host,
        port=port or settings.port,
        reload=reload,
        reload_dirs=[str(Path(__file__).parent)] if reload else None,
        # The app decides the client's address from CALLWRIGHT_TRUSTED_PROXIES (kit.proxies);
        # uvicorn's own handling would trust X-Forwarded-For from any loopback peer.
        proxy_headers=False,
        log_level="info",
        access_log=access_log,
    )


@app.command("localstripe")
def localstripe_command(
    foreground: Annotated[
        bool, typer.Option(help="run the emulator here until stopped (what --ensure starts)")
    ] = False,
) -> None:
    """Start the local Stripe emulator unless it runs already, and register this app's
    webhook with it (docs/billing.md)."""
    from callwright.billing import localstripe

    settings = get_settings()
    if foreground:
        localstripe.serve(settings.localstripe_port, settings.data_dir / "localstripe.pickle")
        return
    try:
        typer.echo(localstripe.ensure(settings))
    except Exception as exc:  # said plainly, then a failing exit
        typer.echo(f"localstripe: {exc}", err=True)
        raise typer.Exit(1) from exc


if __name__ == "__main__":
    app()
