"""`POST /v1/batches/{id}/analyze` and `GET /v1/batches/{id}/analysis` over plain HTTP: a batch
not analysed yet reads empty; only ended calls are answered; a second analysis replaces the
first; another user's batch is not found; a request without questions is refused with 400."""

from __future__ import annotations

from fastapi import FastAPI

from callwright.models import Campaign
from tests.conftest import make_client
from tests.factories import add_api_key, add_user, finished_call

TALK = [
    ("assistant", "Hi, this is Sam from Acme Dental. Does 3 pm tomorrow still work?"),
    ("user", "No, I need to cancel, the last visit was terrible."),
]


async def _batch(app: FastAPI, user_id: int) -> str:
    async with app.state.db.sessionmaker() as session:
        batch = Campaign(
            user_id=user_id, name="Batch", batch=True, call_settings={"prompt": "x" * 20}
        )
        session.add(batch)
        await session.commit()
        return batch.id


async def test_a_batch_is_analysed_and_read_back(app: FastAPI) -> None:
    user = await add_user(app, email="ba@example.com")
    key = await add_api_key(app, user)
    batch = await _batch(app, user.id)
    ended = await finished_call(app, user.id, TALK, campaign_id=batch, kind="batch")
    await finished_call(
        app, user.id, campaign_id=batch, kind="batch", status="in-progress", end_reason=None,
        carrier_call_id="CA" + "6" * 32,
    )  # fmt: skip
    first = {"goal": "Confirm", "questions": [["Did they confirm?", "boolean"]]}
    second = {"goal": "Feedback", "questions": [["Negative feedback: ", "string"]]}
    async with make_client(app, headers={"authorization": key}) as client:
        before = (await client.get(f"/v1/batches/{batch}/analysis")).json()
        await client.post(f"/v1/batches/{batch}/analyze", json=first)
        answered = await client.post(f"/v1/batches/{batch}/analyze", json=second)
        after = (await client.get(f"/v1/batches/{batch}/analysis")).json()
    assert before == {
        "status": "success",
        "message": f"This batch has not been analyzed yet: POST /v1/batches/{batch}/analyze.",
        "analysis": [],
    }
    assert answered.status_code == 200, answered.text
    # The call still going is not answered for.
    assert answered.json() == {
        "status": "success",
        "message": "Batch analyzed successfully.",
        "answers": [[TALK[1][1]]],
        "evidence": [[{"line": 2, "speaker": "user", "text": TALK[1][1]}]],
        "call_ids": [ended],
        "credits_used": 0,
    }
    # The second analysis replaced the first.
    assert after["analysis"] == [
        {
            "call_id": ended,
            "batch_id": batch,
            "goal": "Feedback",
            "questions": ["Negative feedback:"],
            "answers": [TALK[1][1]],
            "evidence": [{"line": 2, "speaker": "user", "text": TALK[1][1]}],
        }
    ]


async def test_refusals_are_in_blands_shape(app: FastAPI) -> None:
    owner = await add_user(app, email="bo@example.com")
    other = await add_user(app, email="bx@example.com")
    batch = await _batch(app, owner.id)
    body = {"goal": "g", "questions": [["Did they confirm?", "boolean"]]}
    async with (
        make_client(app, headers={"authorization": await add_api_key(app, owner)}) as mine,
        make_client(app, headers={"authorization": await add_api_key(app, other)}) as theirs,
    ):
        empty = await mine.post(f"/v1/batches/{batch}/analyze", json=body)
        no_questions = await mine.post(f"/v1/batches/{batch}/analyze", json={"goal": "g"})
        not_mine = await theirs.post(f"/v1/batches/{batch}/analyze", json=body)
        not_mine_read = await theirs.get(f"/v1/batches/{batch}/analysis")
    assert empty.json()["message"] == "No call of this batch has ended yet: nothing was analyzed."
    assert (empty.json()["answers"], empty.json()["call_ids"]) == ([], [])
    assert no_questions.status_code == 400
    assert no_questions.json()["errors"] == {"questions": ["Ask at least one question."]}
    for response in (not_mine, not_mine_read):
        assert response.status_code == 404
        assert response.json() == {"status": "error", "message": "Batch not found.", "errors": {}}
