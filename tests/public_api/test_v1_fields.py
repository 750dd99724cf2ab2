"""Every field of Bland's `POST /v1/calls` (the table in docs/api.md) has an answer: honoured
(the stored call shows it) or refused with a 400 in Bland's error shape naming it and why. The
walk sends each through Bland's own SDK (`bland` 0.3.0) where it has the argument, else as raw
HTTP; every call is scheduled a day ahead, so nothing is dialled. One whole sandbox call (with a
control call beside it) shows that `record: false` keeps no recording at all."""

from __future__ import annotations

import asyncio
import itertools
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import httpx
import pytest
from bland.client import BlandAI
from bland.core.api_error import ApiError

from callwright.calls import repository as calls
from callwright.compliance.disclosure import (
    DEFAULT_DISCLOSURE,
    UNRECORDED_DISCLOSURE,
)
from callwright.models import Call
from callwright.public_api import fields
from callwright.public_api.schemas import V1SendCallIn
from callwright.public_api.service import TIMEZONE_ALONE, voice_ids
from callwright.voice_agent.contract import CallPlan
from tests.factories import add_api_key, add_user, finished_call, queued_call, signed_in
from tests.live import PROMPT, Live

pytestmark = pytest.mark.asyncio(loop_scope="session")

TASK = "You are Sam from Acme Dental, confirming tomorrow's cleaning at 3 pm."
#: Scheduled a day ahead: nothing dials these calls during the walk.
LATER = (datetime.now(UTC) + timedelta(days=1)).strftime("%Y-%m-%d %H:%M:%S +00:00")
#: Answers "Hello?" and hangs up after 4 s (2 s at the tests' speed): docs/sandbox.md.
HANGS_UP = "+15005550005"
#: LATER's wall time read in New York (`start_time` without an offset, with `timezone`).
IN_NEW_YORK = (
    datetime.strptime(LATER[:19], "%Y-%m-%d %H:%M:%S")
    .replace(tzinfo=ZoneInfo("America/New_York"))
    .astimezone(UTC)
)
#: Each request its own number: one call per number every 10 seconds (Bland's rule).
_NUMBERS = (f"+1202555{n:04d}" for n in itertools.count(100))
REFUSED = None


@dataclass(frozen=True)
class Case:
    field: str
    value: Any
    #: What the stored call shows of it (honoured), or REFUSED: a 400 naming `field`.
    shows: Callable[[Call], Any] | None
    expected: Any = None
    #: Sent through Bland's SDK (its argument's name), else as raw HTTP (None).
    sdk: str | None = None
    #: Sent as a header (Bland's `encrypted_key`).
    header: bool = False


def _tools(call: Call) -> list[str]:
    return [t["name"] for t in call.tools or ()]


OWN_NUMBER = "+18885550100"  # the sandbox carrier's caller id (config.sandbox_from_number)

CASES: tuple[Case, ...] = (
    # --- honoured --------------------------------------------------------------------------
    Case("phone_number", "(202) 555-0099", lambda c: c.to_number, "+12025550099", "phone_number"),
    Case("task", TASK + " Be brief.", lambda c: c.prompt, TASK + " Be brief.", "task"),
    Case("first_sentence", "Hi, it's Sam.", lambda c: c.first_sentence, "Hi, it's Sam.", "first_sentence"),
    Case("voice", "JOE", lambda c: c.voice, "joe"),
    Case("voice_id", 1, lambda c: c.voice, voice_ids()[1].name, "voice_id"),
    Case("model", "base", lambda c: c.status, "queued", "model"),
    Case("language", "eng", lambda c: c.language, "en-US", "language"),
    Case("temperature", 0.2, lambda c: c.temperature, 0.2, "temperature"),
    Case("interruption_threshold", 250, lambda c: c.interruption_threshold, 250, "interruption_threshold"),
    Case("block_interruptions", False, lambda c: c.status, "queued"),
    Case("wait_for_greeting", True, lambda c: c.wait_for_greeting, True, "wait_for_greeting"),
    Case("background_track", "cafe", lambda c: c.background_audio, "cafe"),
    Case("noise_cancellation", False, lambda c: c.status, "queued"),
    Case("max_duration", 3, lambda c: c.max_duration, 3, "max_duration"),
    Case("record", False, lambda c: c.record, False, "record"),
    Case("record", True, lambda c: c.record, True, "record"),
    Case("from", OWN_NUMBER, lambda c: c.from_number, OWN_NUMBER, "from_"),
    Case("timezone", "America/New_York", lambda c: c.start_at, IN_NEW_YORK),
    Case("start_time", LATER, lambda c: c.start_at and c.start_at.strftime("%Y-%m-%d %H:%M:%S +00:00"), LATER, "start_time"),
    Case("transfer_phone_number", "+12025550123", lambda c: c.transfer_number, "+12025550123", "transfer_phone_number"),
    Case("transfer_list", {"default": "+12025550124"}, lambda c: c.transfer_list, {"default": "+12025550124"}, "transfer_list"),
    Case(
        "tools",
        [{"name": "calendar", "description": "Free times.", "url": "https://example.com/free"}],
        _tools,
        ["calendar"],
        "tools",
    ),
    Case("voicemail", {"action": "leave_message", "message": "Call us."}, lambda c: (c.voicemail_action, c.voicemail_message), ("leave_message", "Call us.")),
    Case("voicemail", {"action": "hangup", "sensitive": False}, lambda c: c.voicemail_action, "hangup"),
    Case("voicemail_action", "leave_message", lambda c: c.voicemail_action, "leave_message", "voicemail_action"),
    Case("voicemail_message", "Call us back.", lambda c: c.voicemail_message, "Call us back."),
    Case("amd", True, lambda c: c.status, "queued", "amd"),
    Case("answered_by_enabled", True, lambda c: c.answered_by_enabled, True, "answered_by_enabled"),
    Case("answered_by_enabled", False, lambda c: c.answered_by_enabled, False, "answered_by_enabled"),
    Case("summary_prompt", "Did they confirm?", lambda c: c.summary_prompt, "Did they confirm?"),
    Case("dispositions", ["CONFIRMED"], lambda c: c.dispositions, ["CONFIRMED"]),
    Case("analysis_schema", {"confirmed": "boolean"}, lambda c: c.analysis_schema, [{"name": "confirmed", "type": "boolean", "description": ""}]),
    Case("request_data", {"name": "Alex"}, lambda c: c.variables, {"name": "Alex"}, "request_data"),
    Case("metadata", {"crm_id": 7}, lambda c: c.call_metadata, {"crm_id": 7}),
    Case("webhook", "https://example.com/hook", lambda c: c.webhook_url, "https://example.com/hook", "webhook"),
    Case(
        "dynamic_data",
        [{"url": "https://example.com/lead", "response_data": [{"name": "lead", "data": "$.name"}]}],
        lambda c: [d["url"] for d in c.dynamic_data or ()],
        ["https://example.com/lead"],
        "dynamic_data",
    ),
    Case("precall_dtmf_sequence", "1w2#", lambda c: c.precall_dtmf_sequence, "1w2#"),
    Case("ignore_button_press", False, lambda c: c.status, "queued"),
    Case("reduce_latency", True, lambda c: c.status, "queued", "reduce_latency"),
    Case("keywords", [], lambda c: c.status, "queued"),
    # A call on a flow: tests/public_api/test_v1_pathways.py (Bland's SDK, pathway_logs read back).
    Case("pathway_id", None, lambda c: c.status, "queued"),
    Case("pathway_version", None, lambda c: c.flow_version, None),
    Case("start_node_id", None, lambda c: c.start_node_id, None),
    # --- refused -------------------------------------------------------------------------
    Case("model", "turbo", REFUSED, sdk="model"),
    Case("persona_id", "persona-1", REFUSED),
    Case("interruptibility", 3, REFUSED),
    Case("block_interruptions", True, REFUSED),
    Case("noise_cancellation", True, REFUSED),
    Case("reduce_latency", False, REFUSED, sdk="reduce_latency"),
    Case("voice_preset_id", "preset-1", REFUSED, sdk="voice_preset_id"),
    Case("voice_settings", True, REFUSED, sdk="voice_settings"),
    Case("amd", False, REFUSED, sdk="amd"),
    Case("sensitive_voicemail_detection", True, REFUSED),
    Case("voicemail.sms", {"to": "+12025550125", "message": "Hi"}, REFUSED),
    Case("voicemail.sensitive", True, REFUSED),
    Case("retry", {"wait": 60, "voicemail_action": "hangup"}, REFUSED),
    Case("from", "+12025550126", REFUSED, sdk="from_"),
    Case("dialing_strategy", {"type": "local"}, REFUSED),
    Case("local_dialing", True, REFUSED),
    Case("timezone", "America/Chicago", REFUSED),  # without start_time it would do nothing
    Case("citation_schema_ids", ["cs-1"], REFUSED),
    Case("citation_schema_id", "cs-1", REFUSED),
    Case("post_call_evals", {"accuracy": "Was it right?"}, REFUSED),
    Case("stream_post_transfer_transcript", True, REFUSED),
    Case("webhook_events", ["call", "latency"], REFUSED),
    Case("keywords", ["Callwright:3"], REFUSED),
    Case("pronunciation_guide", [{"word": "API", "pronunciation": "A P I"}], REFUSED, sdk="pronunciation_guide"),
    Case("ignore_button_press", True, REFUSED),
    Case("guard_rails", [{"type": "tcpa:ai_disclosure"}], REFUSED),
    Case("encrypted_key", "sealed-twilio-creds", REFUSED, header=True),
    Case("encrypted_key", "sealed-twilio-creds", REFUSED),
    Case("recrod", False, REFUSED),  # a misspelt key is not let by
)  # fmt: skip


async def _sdk(live: Live) -> tuple[BlandAI, str]:
    user = await add_user(
        live.app, email=f"fields-{uuid.uuid4().hex[:8]}@example.com", balance_cents=500_000
    )
    key = await add_api_key(live.app, user)
    return BlandAI(api_key=key, base_url=live.url, timeout=30), key


def _body(case: Case) -> dict[str, Any]:
    """The request: a scheduled one-minute call, with the case's field."""
    body: dict[str, Any] = {"phone_number": next(_NUMBERS), "task": TASK, "max_duration": 1}
    if case.field != "timezone" or case.shows is not REFUSED:
        body["start_time"] = LATER.removesuffix(" +00:00") if case.field == "timezone" else LATER
    if case.field.startswith("voicemail."):
        body["voicemail"] = {"action": "hangup", case.field.split(".")[1]: case.value}
    elif not case.header:
        body[case.field] = case.value
    return body


async def _send(case: Case, sdk: BlandAI, client: httpx.AsyncClient) -> tuple[int, dict[str, Any]]:
    body = _body(case)
    if case.sdk is None:
        headers = {"encrypted_key": case.value} if case.header else {}
        response = await client.post("/v1/calls", json=body, headers=headers)
        answer: dict[str, Any] = response.json()
        return response.status_code, answer
    arguments = {"temperature": None, "tools": None, "interruption_threshold": None} | body
    arguments[case.sdk] = arguments.pop(case.field)
    try:
        sent = await asyncio.to_thread(sdk.call, **arguments)
    except ApiError as error:
        refused: dict[str, Any] = error.body if isinstance(error.body, dict) else {}
        return error.status_code or 0, refused
    return 200, sent.dict()


async def _stored(live: Live, call_id: str) -> Call:
    async with live.app.state.db.sessionmaker() as session:
        call = await calls.get(session, call_id)
    assert call is not None
    return call


async def test_every_bland_field_is_honoured_or_refused_with_a_400_naming_it(live: Live) -> None:
    sdk, key = await _sdk(live)
    async with httpx.AsyncClient(base_url=live.url, headers={"authorization": key}) as client:
        for case in CASES:
            status, answer = await _send(case, sdk, client)
            if case.shows is REFUSED:
                assert status == 400, (case, answer)
                assert answer["status"] == "error", (case, answer)
                assert list(answer["errors"]) == [case.field], (case, answer)
                assert answer["message"].startswith(f"`{case.field}`: "), (case, answer)
                continue
            assert status == 200, (case, answer)
            call = await _stored(live, answer["call_id"])
            assert case.shows(call) == case.expected, case
    # The walk covers every field the request declares and every one it refuses.
    declared = {f.alias or name for name, f in V1SendCallIn.model_fields.items()}
    walked = {case.field for case in CASES}
    callwrights_own = {"agent_id", "disclosure", "transfer_mode"}  # tests/public_api/test_v1_api
    assert declared - callwrights_own <= walked
    assert set(fields.REFUSED) <= walked
    assert {f"voicemail.{name}" for name in fields.VOICEMAIL_REFUSED} <= walked


async def test_every_refusal_says_why_and_all_are_named_at_once(live: Live) -> None:
    _, key = await _sdk(live)
    body = {
        "phone_number": next(_NUMBERS),
        "task": TASK,
        "persona_id": "persona-1",
        "model": "turbo",
        "timezone": "America/Chicago",
    }
    async with httpx.AsyncClient(base_url=live.url, headers={"authorization": key}) as client:
        refused = (await client.post("/v1/calls", json=body)).json()
        alone = (
            await client.post("/v1/calls", json=body | {"persona_id": None, "model": "base"})
        ).json()
    assert refused["errors"] == {
        "persona_id": [f"`persona_id`: {fields.REFUSED['persona_id'].why}."],
        "model": [f"`model`: {fields.REFUSED['model'].why}."],
    }
    assert "no personas" in refused["errors"]["persona_id"][0]
    assert refused["message"] == refused["errors"]["persona_id"][0]
    assert alone["errors"] == {"timezone": [TIMEZONE_ALONE]}


async def test_answered_by_is_shown_only_when_asked_for(live: Live) -> None:
    _, key = await _sdk(live)
    shown: dict[bool, tuple[Any, Any]] = {}
    async with httpx.AsyncClient(base_url=live.url, headers={"authorization": key}) as client:
        for enabled in (True, False):
            body = {"phone_number": next(_NUMBERS), "task": TASK, "start_time": LATER}
            placed = await client.post("/v1/calls", json=body | {"answered_by_enabled": enabled})
            call_id = placed.json()["call_id"]
            detail = (await client.get(f"/v1/calls/{call_id}")).json()
            listed = (
                await client.get("/v1/calls", params={"to_number": body["phone_number"]})
            ).json()
            shown[enabled] = (detail["answered_by"], listed["calls"][0]["answered_by"])
        # Filtering by it finds only the calls that show it.
        user_id = (await _stored(live, call_id)).user_id
        shows, _ = [
            await finished_call(
                live.app, user_id, answered_by_enabled=enabled, carrier_call_id=uuid.uuid4().hex
            )
            for enabled in (True, False)
        ]
        humans = (await client.get("/v1/calls", params={"answered_by": "human"})).json()
    # A scheduled call has not been answered yet: "unknown", when asked for; else null (the
    # list's "": the SDK's ListedCallData requires a string).
    assert shown == {True: ("unknown", "unknown"), False: (None, "")}
    assert [(c["call_id"], c["answered_by"]) for c in humans["calls"]] == [(shows, "human")]


async def test_record_false_keeps_no_recording_and_says_so(live: Live) -> None:
    """Two short whole calls to the callee who hangs up after "Hello?", one with `record:
    false`: only the other is recorded."""
    dashboard, user = await signed_in(
        live.app, f"unrecorded-{uuid.uuid4().hex[:8]}@example.com", balance_cents=5_000
    )
    key = await add_api_key(live.app, user)
    sdk = BlandAI(api_key=key, base_url=live.url, timeout=30)
    control_sdk, _ = await _sdk(live)

    async def place(client: BlandAI, record: bool) -> str:
        sent = await asyncio.to_thread(
            client.call,
            phone_number=HANGS_UP,
            task=PROMPT,
            temperature=None,
            tools=None,
            interruption_threshold=None,
            max_duration=1,
            record=record,
        )
        assert sent.call_id is not None
        return str(sent.call_id)

    unrecorded, recorded = await asyncio.gather(place(sdk, False), place(control_sdk, True))
    calls_ = await asyncio.gather(live.wait_finalized(unrecorded), live.wait_finalized(recorded))
    assert [c.answered_at is not None for c in calls_] == [True, True], "both were answered"
    assert calls_[1].recording_path, "the control call, the same callee, was recorded"
    assert calls_[0].recording_path is None
    assert not list(live.engine.recordings_folder.glob(f"**/{unrecorded}*")), "nothing spooled"

    async with httpx.AsyncClient(base_url=live.url, headers={"authorization": key}) as client:
        detail = (await client.get(f"/v1/calls/{unrecorded}")).json()
        url = await client.get(f"/v1/calls/{unrecorded}/recording")
        audio = await client.get(f"/v1/recordings/{unrecorded}")
    assert (detail["record"], detail["recording_url"]) == (False, None)
    for answer in (url, audio):
        assert answer.status_code == 404
        assert answer.json() == {
            "status": "error",
            "message": "CALL_RECORDING_NOT_FOUND",
            "errors": {},
        }
    # The call's page has no recording to play; it still shows who answered (answered_by is
    # null on /v1 without answered_by_enabled: the dashboard keeps its behaviour).
    async with dashboard:
        page = (await dashboard.api("GET", f"call/{unrecorded}/page")).json()["data"]
        played = await dashboard.api("GET", f"play-recording/{unrecorded}")
    assert page["record_url"] is None
    assert played.status_code == 404
    assert detail["answered_by"] is None
    assert page["answered_by"] == calls_[0].answered_by is not None


async def test_an_unrecorded_calls_agent_says_it_is_an_ai_without_the_recording_notice(
    live: Live,
) -> None:
    user = await add_user(
        live.app, email=f"plan-{uuid.uuid4().hex[:8]}@example.com", balance_cents=1_000
    )
    plans: dict[bool, CallPlan] = {}
    for record in (True, False):
        call = await queued_call(live.app, user.id, record=record)
        plan = await live.calls.media.plan(call.id)
        assert plan is not None
        plans[record] = plan
    assert (plans[True].record, plans[True].disclosure) == (True, DEFAULT_DISCLOSURE)
    assert (plans[False].record, plans[False].disclosure) == (False, UNRECORDED_DISCLOSURE)
    assert "record" not in UNRECORDED_DISCLOSURE.lower()
