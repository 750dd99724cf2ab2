"""Status webhooks over HTTP: signatures accepted and refused, replays and out-of-order
callbacks change nothing, the end is processed once."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import update

from callwright.calls import repository as calls
from callwright.calls.events import CLOSING
from callwright.kit.time import utcnow
from callwright.models import Call, User
from callwright.realtime.events import LiveEvent
from callwright.telephony import signature
from callwright.telephony.state import AnsweredBy, CallOutcome
from tests.factories import ApiClient

pytestmark = pytest.mark.asyncio

SID = "CA" + "1" * 32


async def _call(app: FastAPI, **values: Any) -> str:
    async with app.state.db.sessionmaker() as session:
        call = Call(
            carrier=app.state.calls.flows.carrier.name,
            carrier_call_id=SID,
            to_number="+15551230000",
            from_number="+18885550100",
            prompt="You are Sam from Acme. You are calling to say hello.",
            voice="joe",
            **values,
        )
        session.add(call)
        await session.commit()
        return call.id


async def _post(
    client: ApiClient, app: FastAPI, status: str, *, sign: bool = True, **extra: str
) -> int:
    engine = app.state.calls.flows
    url = engine.status_callback_url()
    form = {"CallSid": SID, "CallStatus": status, "AccountSid": "AC1", **extra}
    headers = {"Content-Type": "application/x-www-form-urlencoded"}
    sig, body = signature.sign_form(engine.carrier.auth_token, url, form)
    headers["X-Twilio-Signature"] = sig if sign else "bad" + sig[3:]
    response = await client.post(
        url.replace(app.state.settings.app_url, ""), content=body, headers=headers
    )
    return response.status_code


async def test_signed_callbacks_move_the_call_and_forged_ones_are_refused(
    app: FastAPI, client: ApiClient
) -> None:
    call_id = await _call(app)
    assert await _post(client, app, "ringing", sign=False) == 403
    assert await _post(client, app, "ringing") == 204
    async with app.state.db.sessionmaker() as s:
        call = await calls.get(s, call_id)
        assert call is not None
        assert call.status == "ringing"
        assert call.ringing_at is not None


async def test_replays_and_late_callbacks_change_nothing(
    app: FastAPI, client: ApiClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    published: list[dict[str, Any]] = []

    async def publish(room: str, event: LiveEvent) -> None:
        if room == "admin":
            published.append(event.payload())

    monkeypatch.setattr(app.state.calls.events, "publish", publish)
    call_id = await _call(app)
    assert await _post(client, app, "in-progress") == 204  # ringing never came
    assert await _post(client, app, "ringing") == 204  # late: ignored
    assert await _post(client, app, "completed", CallDuration="42") == 204
    for _ in range(3):  # replays
        assert await _post(client, app, "completed", CallDuration="99") == 204
    assert await _post(client, app, "in-progress") == 204  # after the end: ignored
    await app.state.jobs.drain()
    async with app.state.db.sessionmaker() as s:
        call = await calls.get(s, call_id)
        assert call is not None
        assert call.status == "completed"
        assert call.duration_seconds == 42
        assert call.ringing_at is None
        events = [e.message for e in await calls.events(s, call_id)]
    assert events.count(CLOSING) == 0, "the media never ended, so the end waits for it"
    # The media stream ends: now the end is processed, exactly once.
    await app.state.calls.media.hooks(call_id).finished(None)
    await app.state.calls.media.hooks(call_id).finished(None)
    async with app.state.db.sessionmaker() as s:
        events = [e.message for e in await calls.events(s, call_id)]
    assert events.count(CLOSING) == 1
    assert events.count("Call duration & price: 42s") == 1
    assert [d["message"] for d in published].count(CLOSING) == 1


async def test_unknown_call_and_unknown_carrier(app: FastAPI, client: ApiClient) -> None:
    assert await _post(client, app, "ringing") == 204  # no such call: acknowledged, nothing to do
    response = await client.post("/api/v1/webhooks/nope/status", data={"CallSid": SID})
    assert response.status_code == 404


async def test_a_call_that_is_never_answered_ends_without_media(
    app: FastAPI, client: ApiClient
) -> None:
    call_id = await _call(app)
    assert await _post(client, app, "no-answer") == 204
    async with app.state.db.sessionmaker() as s:
        call = await calls.get(s, call_id)
        assert call is not None
        assert call.status == "no-answer"
        assert call.finalized_at is not None
        assert [e.message for e in await calls.events(s, call_id)][-1] == CLOSING


async def test_reconciler_ends_calls_cut_by_a_fault_and_bills_their_real_length(
    app: FastAPI,
) -> None:
    """A process stopped mid-call: the call is marked failed with its reason, and it is billed
    up to its last sign of life (a 9 s call), not for the downtime (40 minutes)."""
    from datetime import timedelta

    from callwright.billing.service import COST_PER_MINUTE_CENTS
    from callwright.calls.flows import CUT_BY_FAULT, CUT_BY_FAULT_ERROR
    from tests.factories import add_user

    user = await add_user(app, email="cut@example.com", balance_cents=1000)
    long_ago = utcnow() - timedelta(minutes=40)
    stale = await _call(
        app,
        status="in-progress",
        max_duration=30,
        queued_at=long_ago - timedelta(seconds=3),
        answered_at=long_ago,
        user_id=user.id,
        hold_cents=300,
    )
    async with app.state.db.sessionmaker() as session:
        await session.execute(
            update(User).where(User.id == user.id).values(balance_cents=700)
        )  # the hold taken when the call was placed
        await calls.add_line(session, stale, "user", "Hello?", long_ago + timedelta(seconds=4))
        await calls.add_line(session, stale, "assistant", "Hi!", long_ago + timedelta(seconds=9))
        fresh = Call(
            carrier="sandbox",
            carrier_call_id="CA" + "2" * 32,
            to_number="+15551230000",
            from_number="+18885550100",
            prompt="You are Sam from Acme. You are calling to say hello.",
            voice="joe",
            status="in-progress",
            max_duration=30,
            queued_at=utcnow() - timedelta(minutes=5),
        )
        session.add(fresh)
        await session.commit()
        fresh_id = fresh.id
    assert await app.state.calls.flows.reconcile() == 1
    async with app.state.db.sessionmaker() as s:
        done = await calls.get(s, stale)
        assert done is not None
        assert done.status == "failed"
        assert done.end_reason == CUT_BY_FAULT == "cut-by-fault"
        assert done.error == CUT_BY_FAULT_ERROR
        assert done.finalized_at is not None
        assert done.duration_seconds == 9
        assert done.cost_cents == COST_PER_MINUTE_CENTS, "one started minute, not forty"
        messages = [e.message for e in await calls.events(s, stale)]
        assert CUT_BY_FAULT_ERROR in messages
        assert messages[-1] == CLOSING
        payer = await s.get(User, user.id)
        assert payer is not None
        assert payer.balance_cents == 1000 - COST_PER_MINUTE_CENTS
        untouched = await calls.get(s, fresh_id)
        assert untouched is not None
        assert untouched.status == "in-progress", "a call within its max duration is left alone"
    assert await app.state.calls.flows.reconcile() == 0, "nothing left to do"


class Closing:
    """Keeps the published events; `event` is the closing one of the call."""

    def __init__(self, app: FastAPI, monkeypatch: pytest.MonkeyPatch) -> None:
        self.published: list[dict[str, Any]] = []
        monkeypatch.setattr(app.state.calls.events, "publish", self.keep)

    async def keep(self, room: str, event: LiveEvent) -> None:
        if room == "admin":
            self.published.append(event.payload())

    @property
    def event(self) -> dict[str, Any]:
        closing = [d for d in self.published if d["message"] == CLOSING]
        assert len(closing) == 1, self.published
        return closing[0]


async def _answered(app: FastAPI, **values: Any) -> str:
    """A call in progress whose media has ended (so its end is processed at once)."""
    now = utcnow()
    values = {"answered_at": now, "media_ended_at": now, "answered_by": "unknown"} | values
    return await _call(app, status="in-progress", **values)


@pytest.mark.parametrize(
    ("status", "extra", "outcome", "words"),
    [
        ("busy", {}, "busy", "The line was busy"),
        ("no-answer", {}, "no-answer", "No answer"),
        ("failed", {}, "failed", "The call failed: the carrier could not connect it"),
        ("failed", {"SipResponseCode": "404"}, "failed", "The call failed: 404"),
        ("canceled", {}, "stopped", "You stopped the call"),
    ],
)
async def test_a_call_that_never_connects_says_why(
    app: FastAPI,
    client: ApiClient,
    monkeypatch: pytest.MonkeyPatch,
    status: str,
    extra: dict[str, Any],
    outcome: str,
    words: str,
) -> None:
    closing = Closing(app, monkeypatch)
    call_id = await _call(app, status="ringing")
    assert await _post(client, app, status, **extra) == 204
    call = await app.state.calls.flows.wait_finalized(call_id, within=10, poll=0.05)
    assert (call.status, call.end_reason, call.answered_by) == (status, outcome, None)
    event = closing.event
    assert (event["outcome"], event["answeredBy"], event["outcomeText"]) == (outcome, None, words)


@pytest.mark.parametrize(
    ("claimed", "answered_by", "outcome", "words"),
    [
        (None, "human", "callee-hung-up", "The callee hung up"),
        ("completed", "human", "completed", "The call has completed"),
        ("completed", "voicemail", "voicemail", "Voicemail reached"),
        (None, "voicemail", "voicemail", "Voicemail reached"),
        ("time-limit", "human", "time-limit", "The call reached its time limit"),
        ("stopped", "voicemail", "stopped", "You stopped the call"),
    ],
)
async def test_an_answered_call_ends_as_claimed_before_the_carrier_said_so(
    app: FastAPI,
    client: ApiClient,
    monkeypatch: pytest.MonkeyPatch,
    claimed: str | None,
    answered_by: str,
    outcome: str,
    words: str,
) -> None:
    """Our side says why it hangs up before the carrier reports the end (the agent's close, its
    time limit, the user's stop); with no claim the callee hung up. A voicemail's end is
    voicemail unless stopped or timed out."""
    closing = Closing(app, monkeypatch)
    call_id = await _answered(app, answered_by=answered_by)
    if claimed:
        async with app.state.db.sessionmaker() as s:
            assert await calls.claim_outcome(s, call_id, CallOutcome(claimed))
            assert not await calls.claim_outcome(s, call_id, CallOutcome.STOPPED), "first wins"
            await s.commit()
    assert await _post(client, app, "completed", CallDuration="12") == 204
    call = await app.state.calls.flows.wait_finalized(call_id, within=10, poll=0.05)
    assert (call.status, call.end_reason, call.answered_by) == ("completed", outcome, answered_by)
    assert call.duration_seconds == 12
    event = closing.event
    assert (event["outcome"], event["answeredBy"], event["outcomeText"]) == (
        outcome,
        answered_by,
        words,
    )


async def test_the_answer_marks_who_answered_unknown_until_heard(
    app: FastAPI, client: ApiClient
) -> None:
    call_id = await _call(app, status="ringing")
    assert await _post(client, app, "in-progress") == 204
    async with app.state.db.sessionmaker() as s:
        call = await calls.get(s, call_id)
        assert call is not None
        assert (call.answered_by, call.end_reason) == ("unknown", None)
        assert await calls.set_answered_by(s, call_id, AnsweredBy.VOICEMAIL)
        assert not await calls.set_answered_by(s, call_id, AnsweredBy.HUMAN), "decided once"
        await s.commit()
