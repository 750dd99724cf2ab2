"""POST /v1/calls/{call_id}/analyze: Bland's "Analyze call" on one of the key owner's ended
calls (its transcript rows written directly), in Bland's SDK shape; who may call it (no key, a
revoked key, another user's or an admin's key); a live call and malformed questions are
refused in Bland's error shape."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import update

from callwright.kit.time import utcnow
from callwright.models import ApiKey
from tests.conftest import make_client
from tests.factories import add_api_key, add_user, finished_call

TALK = [
    ("assistant", "Hi, this is Sam from Acme Dental. Does 3 pm tomorrow still work for you?"),
    ("user", "Yes, 3 pm tomorrow works for me."),
    ("assistant", "Great. How many family members will come?"),
    ("user", "Two of us."),
]
QUESTIONS = [
    ["Did the customer confirm the appointment time?", "boolean"],
    ["How many family members will come?", "number"],
    ["Who answered the call?", "human or voicemail"],
    ["What is their insurance provider?", "string"],
]


async def _call(app: FastAPI, user_id: int, **values: Any) -> str:
    return await finished_call(app, user_id, TALK, **values)


def _path(call_id: str) -> str:
    return f"/v1/calls/{call_id}/analyze"


async def test_questions_are_answered_in_blands_shape(app: FastAPI) -> None:
    user = await add_user(app, email="v1an@example.com")
    key = await add_api_key(app, user)
    call_id = await _call(app, user.id)
    body = {"goal": "Confirm the cleaning appointment", "questions": QUESTIONS}
    async with make_client(app) as client:
        raw = await client.post(_path(call_id), json=body, headers={"authorization": key})
        bearer = await client.post(
            _path(call_id), json=body, headers={"Authorization": f"Bearer {key}"}
        )
    assert raw.status_code == 200, raw.text
    assert raw.json() == {
        "status": "success",
        "message": "Call analyzed successfully.",
        "answers": [[True, 2, "human", None]],
        # Where each answer comes from: the callee's line, or who answered (the call's fact).
        "evidence": [
            [
                {"line": 2, "speaker": "user", "text": "Yes, 3 pm tomorrow works for me."},
                {"line": 4, "speaker": "user", "text": "Two of us."},
                {"fact": "answered_by", "value": "human"},
                None,
            ]
        ],
        "credits_used": 0,
    }
    assert bearer.json() == raw.json()


async def test_the_bland_sdks_response_model_reads_the_answer(app: FastAPI) -> None:
    from bland.calls.types.analyze_call_response import AnalyzeCallResponse

    user = await add_user(app, email="v1sdk@example.com")
    key = await add_api_key(app, user)
    call_id = await _call(app, user.id, answered_by="voicemail")
    async with make_client(app) as client:
        response = await client.post(
            _path(call_id),
            json={"goal": "g", "questions": [["Who answered?", "human or voicemail"], ["x"]]},
            headers={"authorization": key},
        )
    parsed = AnalyzeCallResponse.parse_obj(response.json())
    assert parsed.answers == [["voicemail", None]]
    assert parsed.credits_used == 0


async def test_who_may_analyse(app: FastAPI) -> None:
    owner = await add_user(app, email="v1own@example.com")
    other = await add_user(app, email="v1other@example.com")
    admin = await add_user(app, email="v1admin@example.com", role="admin")
    call_id = await _call(app, owner.id)
    revoked = await add_api_key(app, owner, name="old")
    async with app.state.db.sessionmaker() as session:
        await session.execute(
            update(ApiKey).where(ApiKey.name == "old").values(revoked_at=utcnow())
        )
        await session.commit()
    body = {"goal": "g", "questions": [["Did they confirm?", "boolean"]]}
    async with make_client(app) as client:

        async def status(key: str | None, call: str = call_id) -> int:
            headers = {"authorization": key} if key else {}
            response = await client.post(_path(call), json=body, headers=headers)
            return response.status_code

        assert await status(None) == 401
        assert await status(revoked) == 401
        assert await status(await add_api_key(app, other)) == 404, "another user's call"
        assert await status(await add_api_key(app, admin)) == 404, "keys act for their owner"
        owner_key = await add_api_key(app, owner)
        assert await status(owner_key, "no-such-call") == 404
        assert await status(owner_key) == 200
        # The dashboard's session token is not a key.
        await client.login("v1own@example.com")
        assert await status(f"Bearer {client.token}") == 401


async def test_a_call_still_going_is_refused(app: FastAPI) -> None:
    user = await add_user(app, email="v1live@example.com")
    key = await add_api_key(app, user)
    call_id = await _call(app, user.id, status="in-progress", end_reason=None, ended_at=None)
    async with make_client(app) as client:
        response = await client.post(
            _path(call_id),
            json={"goal": "g", "questions": [["Did they confirm?", "boolean"]]},
            headers={"authorization": key},
        )
    assert response.status_code == 409
    assert response.json() == {
        "status": "error",
        "message": "The call has not ended yet; analyze it once it has.",
        "errors": {},
    }


@pytest.mark.parametrize(
    "body",
    [
        {"goal": "g", "questions": []},
        {"goal": "g", "questions": [["", "boolean"]]},
        {"goal": "g", "questions": [["a", "b", "c"]]},
        {"goal": "g"},
    ],
)
async def test_malformed_questions_are_refused(app: FastAPI, body: dict[str, Any]) -> None:
    user = await add_user(app, email="v1bad@example.com")
    key = await add_api_key(app, user)
    call_id = await _call(app, user.id)
    async with make_client(app) as client:
        response = await client.post(_path(call_id), json=body, headers={"authorization": key})
    assert response.status_code == 400, response.text  # Bland answers a bad request with 400
    assert response.json()["status"] == "error"
    assert "questions" in response.json()["errors"]
