"""All 32 methods of Bland's published Python SDK (`bland` 0.3.0), each driven against the live
app: the methods Callwright has work (the SDK parses their answers into its own models, and
the values are checked), every other one meets Bland's error shape with a 404 that says the
path is not supported by Callwright. The table of results is printed, and docs/api.md's table
("Bland's SDK, method by method") must say the same, method by method.

One sandbox call only (placed and stopped while it rings); the ended calls the analyses read
are written directly with their transcripts (tests/factories.finished_call)."""

from __future__ import annotations

import asyncio
import re
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from bland.client import BlandAI
from bland.core.api_error import ApiError

from callwright.config import REPO_ROOT
from callwright.routers import V1_NOT_SUPPORTED
from tests.factories import add_api_key, add_user, finished_call
from tests.live import PROMPT, Live

pytestmark = pytest.mark.asyncio(loop_scope="session")

RINGS_OUT = "+15005550001"  # rings and nobody answers: there is time to stop it
DECLINES = "+15005550104"
TALK = [
    ("assistant", "Hi, this is Sam from Acme Dental, about your cleaning tomorrow at 3 pm."),
    ("user", "Yes, 3 pm tomorrow works for me. The last visit was great, very friendly."),
    ("assistant", "Anything we could do better?"),
    ("user", "Parking was difficult and the wait was too slow."),
]
QUESTIONS = [
    ["Who answered the call?", "human or voicemail"],
    ["Positive feedback about the visit: ", "string"],
    ["Negative feedback about the visit: ", "string"],
    ["Customer confirmed the appointment", "boolean"],
]
ANSWERS = [
    "human",
    "Yes, 3 pm tomorrow works for me. The last visit was great, very friendly.",
    "Parking was difficult and the wait was too slow.",
    True,
]
WORKS, NOT_SUPPORTED = "works", "not supported"


async def run(fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
    return await asyncio.to_thread(fn, *args, **kwargs)


class Table:
    """What each SDK method met: works, or not supported (with the status and message)."""

    def __init__(self) -> None:
        self.rows: dict[str, str] = {}

    async def works(self, name: str, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        answer = await run(fn, *args, **kwargs)
        self.rows[name] = WORKS
        return answer

    async def refused(
        self, name: str, method: str, path: str, fn: Callable[..., Any], **kwargs: Any
    ) -> None:
        with pytest.raises(ApiError) as refused:
            await run(fn, **kwargs)
        assert refused.value.status_code == 404, name
        assert refused.value.body == {
            "status": "error",
            "message": V1_NOT_SUPPORTED.format(method=method, path=path),
            "errors": {},
        }, name
        self.rows[name] = NOT_SUPPORTED


async def _ended(live: Live, user_id: int, talk: list[tuple[str, str]], **values: Any) -> str:
    """An ended call with its transcript (a carrier id of its own: they are unique)."""
    return await finished_call(
        live.app, user_id, talk, carrier_call_id=f"CA{uuid.uuid4().hex}", **values
    )


async def _sdk(live: Live) -> tuple[BlandAI, int]:
    user = await add_user(
        live.app, email=f"sdk32-{uuid.uuid4().hex[:8]}@example.com", balance_cents=5_000
    )
    return BlandAI(
        api_key=await add_api_key(live.app, user), base_url=live.url, timeout=30
    ), user.id


async def _calls(table: Table, sdk: BlandAI, live: Live, user_id: int) -> None:
    sent = await table.works(
        "call", sdk.call, phone_number=RINGS_OUT, task=PROMPT, temperature=None, tools=None,
        interruption_threshold=None, max_duration=1,
    )  # fmt: skip
    stopped = await table.works("calls.stop", sdk.calls.stop, sent.call_id)
    assert (stopped.status, stopped.message) == ("success", "Call ended successfully.")
    assert (await live.wait_finalized(sent.call_id, within=30)).end_reason == "stopped"
    ended = await _ended(live, user_id, TALK, recording_path="recordings/sdk.mp3")
    listed = await table.works("calls.list", sdk.calls.list, limit=10)
    assert {c.call_id for c in listed.calls} == {sent.call_id, ended}
    details = await table.works("calls.details", sdk.calls.details, ended)
    assert (details.completed, details.answered_by) == (True, "human")
    recording = await table.works("calls.recording", sdk.calls.recording, ended)
    assert recording.url == f"{live.url}/v1/recordings/{ended}"
    analysis = await table.works(
        "calls.analyze", sdk.calls.analyze, ended, goal="Confirm the cleaning", questions=QUESTIONS
    )
    assert analysis.answers == [ANSWERS]
    evidence = analysis.dict()["evidence"][0]
    assert [e.get("line") for e in evidence] == [None, 2, 4, 2]
    assert evidence[0] == {"fact": "answered_by", "value": "human"}
    assert evidence[2] == {"line": 4, "speaker": "user", "text": TALK[3][1]}


async def _batches(table: Table, sdk: BlandAI, live: Live, user_id: int) -> None:
    sent = await table.works(
        "batches.send", sdk.batches.send, base_prompt=PROMPT, call_data=[{"phone_number": DECLINES}],
        label="SDK methods", phone_number=DECLINES, task="unused", temperature=None, tools=None,
        interruption_threshold=None,
    )  # fmt: skip
    batch = sent.batch_id
    # The batch's calls, ended (written directly: the dialler is not ticked here).
    ids = [
        await _ended(live, user_id, TALK, campaign_id=batch, kind="batch"),
        await _ended(live, user_id, TALK[:2], campaign_id=batch, kind="batch"),
    ]
    listed = await table.works("batches.list", sdk.batches.list)
    assert batch in [b.batch_id for b in listed.batches]
    details = await table.works("batches.details", sdk.batches.details, batch)
    assert details.analysis.total_calls == 2
    analyzed = await table.works(
        "batches.analyze", sdk.batches.analyze, batch, goal="Confirm", questions=QUESTIONS
    )
    assert analyzed.dict()["call_ids"] == ids
    assert analyzed.answers == [ANSWERS, ["human", TALK[1][1], None, True]]
    kept = await table.works("batches.retrieve", sdk.batches.retrieve, batch)
    assert [(a.call_id, a.batch_id, a.goal) for a in kept.analysis] == [
        (ids[0], batch, "Confirm"),
        (ids[1], batch, "Confirm"),
    ]
    assert kept.analysis[0].questions == [q.strip() for q, _ in QUESTIONS]
    assert kept.analysis[1].answers == ["human", TALK[1][1], "null", "true"]
    assert kept.analysis[1].dict()["evidence"][2] is None
    stopped = await table.works("batches.stop", sdk.batches.stop, batch)
    assert (stopped.batch_id, stopped.num_calls) == (batch, 1)


async def _voices(table: Table, sdk: BlandAI) -> None:
    voices = await table.works("voices.list", sdk.voices.list)
    first = voices.voices[0]
    voice = (await table.works("voices.retrieve", sdk.voices.retrieve, str(first.voice_id))).voice
    assert (voice.voice_preset_id, voice.voice_name) == (str(first.voice_id), first.name)
    assert (voice.language, voice.editable, voice.public) == ("en-US", False, True)
    by_name = await run(sdk.voices.retrieve, first.name.upper())
    assert by_name.voice == voice
    with pytest.raises(ApiError) as unknown:
        await run(sdk.voices.retrieve, "999")
    assert (unknown.value.status_code, unknown.value.body["message"]) == (404, "Voice not found.")


async def _not_supported(table: Table, sdk: BlandAI) -> None:
    number = "+15551230000"
    refused: list[tuple[str, str, str, Callable[..., Any], dict[str, Any]]] = [
        ("inbound_numbers.purchase", "POST", "inbound/purchase", sdk.inbound_numbers.purchase,
         {"phone_number": number}),
        ("inbound_numbers.update", "POST", f"inbound/{number}", sdk.inbound_numbers.update,
         {"phone_number": number, "prompt": "Hello", "tools": []}),
        ("inbound_numbers.list", "GET", "inbound", sdk.inbound_numbers.list, {}),
        ("inbound_numbers.details", "GET", f"inbound/{number}", sdk.inbound_numbers.details,
         {"phone_number": number}),
        ("outbound_numbers.purchase", "POST", "outbound/purchase",
         sdk.outbound_numbers.purchase, {}),
        ("outbound_numbers.list", "GET", "outbound", sdk.outbound_numbers.list, {}),
        ("sms.register", "POST", "sms/register", sdk.sms.register, {
            "business_name": "Acme", "ein": "12-3456789", "vertical": "HEALTHCARE",
            "address": "1 Main St", "city": "Springfield", "state": "IL",
            "postal_code": "62701", "country": "US", "email": "ops@example.com",
            "type": "PRIVATE_PROFIT", "website": "https://example.com",
            "opt_in_info": "web form", "message_samples": ["Hi"], "trusted_user": True}),
        ("sms.check", "POST", "sms/register/status", sdk.sms.check, {"registration_id": "r1"}),
        ("sms.get", "POST", "sms/messages/get", sdk.sms.get, {}),
        ("sms.toggle", "POST", "sms/toggle", sdk.sms.toggle, {}),
        ("sms.update_prompt", "POST", "sms/prompt/update", sdk.sms.update_prompt, {}),
        ("sms.update_webhook", "POST", "sms/webhook/update", sdk.sms.update_webhook, {}),
        ("voices.create", "POST", "voices", sdk.voices.create, {"voice_name": "mine"}),
        # The SDK's own path has a "$" before the id.
        ("voices.update", "POST", "voices/$p1", sdk.voices.update, {"voice_preset_id": "p1"}),
        ("voices.delete", "POST", "voices/p1/delete", sdk.voices.delete,
         {"voice_preset_id": "p1"}),
        ("voices.publish", "POST", "voices/p1/publish", sdk.voices.publish,
         {"voice_preset_id": "p1"}),
        ("voices.generate", "POST", "voices/p1/sample", sdk.voices.generate,
         {"voice_preset_id": "p1", "text": "Hello"}),
        ("web_agents.create", "POST", "agents/agents", sdk.web_agents.create,
         {"prompt": "Hello"}),
    ]  # fmt: skip
    for name, method, path, fn, kwargs in refused:
        await table.refused(name, method, path, fn, **kwargs)


def _sdk_methods() -> set[str]:
    """Every public method of the SDK's client and its sub-clients, as `group.method`."""
    client = BlandAI(api_key="k", base_url="http://unused")
    names = {"call"}
    for group in vars(client):
        sub = getattr(client, group)
        if group.startswith("_") or not hasattr(sub, "_client_wrapper"):
            continue
        names |= {f"{group}.{m}" for m in dir(sub) if not m.startswith("_")}
    return names


def _documented() -> dict[str, str]:
    """docs/api.md's table: method -> works / not supported."""
    text = (REPO_ROOT / "docs" / "api.md").read_text()
    section = text.split("### Bland's SDK, method by method", 1)[1].split("\n#", 1)[0]
    rows = re.findall(r"^\| `([\w.]+)` \| [^|]+ \| (works|not supported)\b", section, re.M)
    return dict(rows)


async def test_every_method_of_blands_sdk_works_or_says_it_is_not_supported(
    live: Live,
) -> None:
    sdk, user_id = await _sdk(live)
    table = Table()
    await _calls(table, sdk, live, user_id)
    await _batches(table, sdk, live, user_id)
    await _voices(table, sdk)
    await _not_supported(table, sdk)
    print("\n".join(f"{name:28} {verdict}" for name, verdict in sorted(table.rows.items())))
    assert set(table.rows) == _sdk_methods()
    assert len(table.rows) == 32
    assert sum(v == WORKS for v in table.rows.values()) == 14
    assert _documented() == table.rows, "docs/api.md's table says what the SDK met"
