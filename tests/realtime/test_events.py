"""The live events are typed: every socket.io message has a model in `realtime.events`, only a
model is published (a dict is refused), only `realtime/server.py` emits, and the models are in
the OpenAPI document the web app's types are generated from."""

from __future__ import annotations

import ast
import json
from typing import Any

import pytest
from fastapi import FastAPI

from callwright.config import REPO_ROOT, Settings
from callwright.realtime import events
from callwright.realtime.events import (
    EMITTED,
    MESSAGES,
    BalanceUpdate,
    CaptionEvent,
    WebhookEvent,
    wire,
)
from callwright.realtime.schema import EVENTS_COMPONENT
from callwright.realtime.server import ADMIN_ROOM, redis_publisher
from callwright.telephony.state import AnsweredBy, CallOutcome

PACKAGE = REPO_ROOT / "src" / "callwright"


def test_every_event_name_has_its_model() -> None:
    names = {
        value for name, value in vars(events).items() if name.isupper() and isinstance(value, str)
    }
    assert names == set(MESSAGES)
    assert all(model.event_name == name for name, model in MESSAGES.items())
    assert set(EMITTED) == names - {events.CALL_STATE}


async def test_publish_refuses_a_dict(app: FastAPI) -> None:
    untyped: Any = {"callId": "x", "message": "Call connected"}
    with pytest.raises(TypeError, match="LiveEvent"):
        await app.state.realtime.publish(ADMIN_ROOM, untyped)
    with pytest.raises(TypeError, match="LiveEvent"):
        await redis_publisher(Settings(env="development", redis_url=""))(ADMIN_ROOM, untyped)


def test_only_the_socket_server_emits() -> None:
    """Every event goes through `publish()` (typed): no `.emit(` on a socket.io server or
    manager anywhere else."""
    emitting = sorted(
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Attribute)
        and node.attr == "emit"
        and ast.unparse(node.value).split(".")[-1] in {"sio", "manager"}
    )
    assert set(emitting) == {"realtime/server.py"}


def test_an_unset_field_is_absent_and_a_set_null_is_kept() -> None:
    line = WebhookEvent(
        call_id="c1",
        message="User: hello",
        category="call",
        completed=False,
        speaker="user",
        text="hello",
        seq=3,
        key="k",
        at="2026-01-01T00:00:00Z",
        final=True,
    )
    assert wire(line) == (
        "webhook-event",
        {
            "callId": "c1",
            "message": "User: hello",
            "category": "call",
            "completed": False,
            "speaker": "user",
            "text": "hello",
            "seq": 3,
            "key": "k",
            "at": "2026-01-01T00:00:00Z",
            "final": True,
        },
    )
    closing = WebhookEvent(
        call_id="c1",
        message="Closing call stream",
        category="call",
        completed=True,
        outcome=None,
        answered_by=AnsweredBy.HUMAN,
        outcome_text="The call has ended",
    )
    assert json.dumps(closing.payload()) == (
        '{"callId": "c1", "message": "Closing call stream", "category": "call", '
        '"completed": true, "outcome": null, "answeredBy": "human", '
        '"outcomeText": "The call has ended"}'
    )
    assert (
        WebhookEvent(
            call_id="c1",
            message="Closing call stream",
            category="call",
            completed=True,
            outcome=CallOutcome.TIME_LIMIT,
        ).payload()["outcome"]
        == "time-limit"
    )
    assert BalanceUpdate(user_id=7, new_balance=8.53).payload() == {
        "userId": 7,
        "newBalance": 8.53,
    }


def test_a_model_refuses_what_it_does_not_know() -> None:
    with pytest.raises(ValueError, match="extra"):
        CaptionEvent.model_validate(
            {"callId": "c", "speaker": "user", "key": "k", "text": "", "at": "", "final": False,
             "answeredBy": "voicemail"}
        )  # fmt: skip


def test_the_events_are_in_the_openapi_document(app: FastAPI) -> None:
    schemas = app.openapi()["components"]["schemas"]
    live = schemas[EVENTS_COMPONENT]["properties"]
    assert live == {
        name: {"$ref": f"#/components/schemas/{model.__name__}"} for name, model in EMITTED.items()
    }
    assert {model.__name__ for model in MESSAGES.values()} <= set(schemas)
    # An optional field that is never null says so; the closing's outcome may be null.
    webhook = schemas["WebhookEvent"]
    assert webhook["properties"]["seq"] == {"title": "Seq", "type": "integer"}
    assert {"type": "null"} in webhook["properties"]["outcome"]["anyOf"]
    assert webhook["required"] == ["callId", "message", "category", "completed"]
