"""localstripe, the local Stripe emulator of the embedded default and the tests: a real server
that speaks Stripe's API, serves a stand-in Stripe.js at `/js.stripe.com/v3/` and signs its
webhooks Stripe's way (docs/billing.md).

`serve` runs it in the foreground on loopback, keeping its objects in a file of our choosing
(the package's own launcher listens on every interface and shares one file in /tmp between
every copy on the machine). `ensure` starts one in the background unless the port already
answers, then registers this app's webhook endpoint with it: idempotent, for the run, test
and e2e scripts."""

from __future__ import annotations

import logging
import os
import pickle
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from callwright.config import Settings

log = logging.getLogger(__name__)

#: The emulator's answer to this path says that it is up.
PROBE = "/js.stripe.com/v3/"
START_TIMEOUT_SECONDS = 20.0


def serve(port: int, store: Path | None) -> None:
    """Run localstripe on 127.0.0.1:`port` until stopped; its objects survive a restart in
    `store` (None: kept in memory only)."""
    from aiohttp import web
    from localstripe import resources, server

    def load(self: dict[str, Any]) -> None:
        if store is not None and store.exists():
            with store.open("rb") as file:
                self.clear()
                self.update(pickle.load(file))  # noqa: S301 - our own file, written below

    def dump(self: dict[str, Any]) -> None:
        if store is None:
            return
        try:
            temporary = store.with_suffix(".tmp")
            with temporary.open("wb") as file:
                pickle.dump(dict(self), file, protocol=pickle.HIGHEST_PROTOCOL)
            temporary.replace(store)
        except OSError as exc:  # its folder removed: it goes on from memory
            log.warning("localstripe: could not save its objects to %s: %s", store, exc)

    resources.Store.try_load_from_disk = load
    resources.Store.dump_to_disk = dump
    resources.store.try_load_from_disk()
    web.run_app(server.app, host="127.0.0.1", port=port, access_log=None, print=None)


def running(base: str) -> bool:
    try:
        return httpx.get(base + PROBE, timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def ensure(settings: Settings) -> str:
    """Start the emulator (unless it answers already) and register the app's webhook with it.
    Returns what it did, for the scripts to print."""
    if settings.stripe_real:
        return "payments use Stripe itself: no emulator to start"
    base = settings.stripe_api_base
    did = f"localstripe already running at {base}"
    if not running(base):
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        log = (settings.data_dir / "localstripe.log").open("ab")
        command = [sys.executable, "-m", "callwright.cli", "localstripe", "--foreground"]
        subprocess.Popen(  # noqa: S603 - our own interpreter and module
            command,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            start_new_session=True,  # outlives the script that started it
            env=os.environ.copy(),
        )
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        while not running(base):
            if time.monotonic() > deadline:
                raise RuntimeError(f"localstripe did not start at {base}; see {log.name}")
            time.sleep(0.2)
        did = f"localstripe started at {base} (log: {log.name})"
    register_webhook(settings)
    return did


def webhook_name(settings: Settings) -> str:
    """One registration per app address, so apps sharing an emulator keep their own."""
    return "callwright-" + "".join(c if c.isalnum() else "-" for c in settings.app_url)


def register_webhook(settings: Settings) -> None:
    """Point the emulator's signed webhooks at this app (payment events only)."""
    response = httpx.post(
        f"{settings.stripe_api_base}/_config/webhooks/{webhook_name(settings)}",
        json={
            "url": settings.stripe_webhook_url,
            "secret": settings.stripe_webhook_secret,
            "events": list(WEBHOOK_EVENTS),
        },
        timeout=5,
    )
    response.raise_for_status()


#: The events the app acts on.
WEBHOOK_EVENTS = ("payment_intent.succeeded", "payment_intent.payment_failed")
