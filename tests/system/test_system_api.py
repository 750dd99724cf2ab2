"""The system endpoints: the mode and the sandbox's number plan for signed-in users, and the
admin System page's report, whose checks are real (a Redis or SMTP server that does not answer
makes its part fail)."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from fastapi import FastAPI

from callwright.config import Settings
from callwright.sandbox import numbers
from callwright.system import checks
from tests.factories import signed_in
from tests.s3_server import PREFIX, S3

pytestmark = pytest.mark.asyncio

PARTS = [
    "carrier",
    "brain",
    "stt",
    "tts",
    "jobs",
    "realtime",
    "database",
    "recordings",
    "mail",
    "payments",
    "webhook_targets",
]


def _closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


async def test_mode_says_sandbox_and_offline_brain(app: FastAPI) -> None:
    client, _ = await signed_in(app, "user@example.com")
    body = (await client.api("GET", "system/mode")).json()
    assert body == {
        "success": True,
        "data": {"carrier": "sandbox", "brain": "offline", "llm_model": None},
    }


async def test_the_number_plan_is_the_networks_own(app: FastAPI) -> None:
    client, _ = await signed_in(app, "user@example.com")
    plan = (await client.api("GET", "system/sandbox-numbers")).json()["data"]
    assert [row["number"] for row in plan["special"]] == list(numbers.SPECIAL)
    busy = next(row for row in plan["special"] if row["number"] == "+15005550002")
    assert (busy["kind"], busy["outcome"]) == ("busy", "busy")
    assert len(plan["scenarios"]) == len(numbers.SCENARIOS)
    for row, persona in zip(plan["scenarios"], numbers.SCENARIOS, strict=True):
        # Each example number really reaches its scenario.
        assert numbers.persona_for(row["number"]) is persona
        assert row["lines"] == list(persona.lines)
    assert plan["scenarios"][0]["number"] == "+15551230003"  # as docs/sandbox.md says


async def test_admin_system_reports_every_part_healthy_on_the_embedded_default(
    app: FastAPI,
) -> None:
    admin, _ = await signed_in(app, "boss@example.com", role="admin")
    response = await admin.api("GET", "admin/system")
    assert response.status_code == 200
    report = response.json()["data"]
    parts = {c["key"]: c for c in report["components"]}
    assert list(parts) == PARTS
    assert parts["database"]["health"] == "ok"
    assert parts["database"]["latency_ms"] is not None
    assert parts["carrier"]["value"] == "sandbox network"
    assert parts["brain"]["value"] == "offline demo policy"
    assert parts["mail"]["health"] == "off"  # no SMTP in the tests: the outbox
    assert parts["payments"]["value"].startswith("localstripe")  # its health: below
    assert parts["recordings"]["health"] == "ok"
    assert parts["recordings"]["value"].startswith("local folder ")
    assert "is writable" in parts["recordings"]["detail"]


async def test_a_user_cannot_read_the_system_report(app: FastAPI) -> None:
    user, _ = await signed_in(app, "user@example.com")
    assert (await user.api("GET", "admin/system")).status_code == 403


async def test_redis_and_smtp_that_do_not_answer_fail_their_checks(
    app: FastAPI, settings: Settings
) -> None:
    port = _closed_port()
    down = settings.model_copy(
        update={
            "redis_url": f"redis://127.0.0.1:{port}/0",
            "job_broker_url": f"redis://127.0.0.1:{port}/1",
            "smtp_host": "127.0.0.1",
            "smtp_port": port,
            "carrier": "twilio",
            "twilio_account_sid": "",
        }
    )
    ctx = checks.Context(down, app.state.db, app.state.voice_engines.transcriber)
    parts = {c.key: c for c in await checks.run_all(ctx)}
    for key in ("realtime", "jobs", "mail", "carrier"):
        assert parts[key].health == "failing", (key, parts[key])
    assert "Redis did not answer PING" in parts["realtime"].detail
    assert "CALLWRIGHT_TWILIO_ACCOUNT_SID" in parts["carrier"].detail
    assert parts["database"].health == "ok"


async def test_an_llm_endpoint_that_does_not_answer_fails_the_brain(
    app: FastAPI, settings: Settings
) -> None:
    port = _closed_port()
    down = settings.model_copy(update={"llm_base_url": f"http://127.0.0.1:{port}/v1"})
    brain = await checks.brain(
        checks.Context(down, app.state.db, app.state.voice_engines.transcriber)
    )
    assert brain.health == "failing"
    assert brain.value.startswith("gpt-4o-mini at http://127.0.0.1:")


async def test_payments_answer_from_the_emulator_and_fail_when_it_is_down(
    app: FastAPI, settings: Settings, localstripe_base: str
) -> None:
    def ctx(base: str) -> checks.Context:
        moved = settings.model_copy(update={"stripe_api_base": base})
        return checks.Context(moved, app.state.db, app.state.voice_engines.transcriber)

    up = await checks.payments(ctx(localstripe_base))
    assert (up.health, up.value) == ("ok", f"localstripe (local emulator) at {localstripe_base}")
    down = await checks.payments(ctx(f"http://127.0.0.1:{_closed_port()}"))
    assert down.health == "failing"
    assert "did not answer" in down.detail


async def test_recordings_in_a_bucket_that_answers_are_healthy(app: FastAPI, s3: S3) -> None:
    """The System page checks the store the app uses: a HEAD on the bucket."""
    admin, _ = await signed_in(app, "boss@example.com", role="admin")
    flows = app.state.calls.flows
    kept, flows.store = flows.store, s3.store()
    try:
        response = await admin.api("GET", "admin/system")
    finally:
        flows.store = kept
    part = next(c for c in response.json()["data"]["components"] if c["key"] == "recordings")
    assert part["health"] == "ok", part
    assert part["value"].startswith(f"S3 bucket {s3.bucket}, prefix {PREFIX} at ")
    assert "answered HEAD" in part["detail"]
    assert "CALLWRIGHT_S3_BUCKET" in part["settings"]


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"s3_bucket": "no-such-bucket"}, "no such bucket: check CALLWRIGHT_S3_BUCKET"),
        (
            {"s3_secret_access_key": "not-the-secret"},
            "the secret does not match the access key",
        ),
        (
            {"s3_access_key_id": "AKIAUNKNOWNKEY000000"},
            "the storage does not know this access key",
        ),
        ({"s3_endpoint_url": "http://127.0.0.1:{port}"}, "failed"),
    ],
)
async def test_recordings_storage_that_refuses_fails_with_the_reason(
    app: FastAPI, settings: Settings, s3: S3, changes: dict[str, str], reason: str
) -> None:
    changes = {k: v.format(port=_closed_port()) for k, v in changes.items()}
    ctx = checks.Context(
        s3.settings(settings, **changes), app.state.db, app.state.voice_engines.transcriber
    )
    part = await checks.recordings(ctx)
    assert part.health == "failing", part
    assert reason in part.detail
    assert "recordings cannot be kept" in part.detail


async def test_a_recordings_folder_that_cannot_be_written_fails(
    app: FastAPI, settings: Settings, tmp_path: Path
) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("a file where the data folder should be")
    ctx = checks.Context(
        settings.model_copy(update={"data_dir": blocker}),
        app.state.db,
        app.state.voice_engines.transcriber,
    )
    part = await checks.recordings(ctx)
    assert part.health == "failing"
    assert "is not writable" in part.detail
