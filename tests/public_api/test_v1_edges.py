"""What an attacker sent `/v1` (issue 27): deeply nested JSON, extreme start times, NUL
characters, bodies that are not JSON or too large, guessed keys, and values of the wrong type.
Each is a 4xx in Bland's error shape, `{status: "error", message, errors}`, never a 500."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from callwright.developers.keys import INVALID, REFUSED_PER_WINDOW, TOO_MANY_REFUSED
from callwright.kit.bounds import JSON_DEPTH_MAX, too_big_message, too_deep_message
from callwright.public_api.service import START_PAST, START_TOO_FAR
from tests.factories import add_api_key, add_user

pytestmark = pytest.mark.asyncio

TASK = "You are Sam from Acme Dental, confirming tomorrow's cleaning at 3 pm."
BATCH_TASK = "You are Sam from Acme Dental, confirming tomorrow's cleaning."


def api(app: FastAPI, key: str | None = None, ip: str = "203.0.113.9") -> httpx.AsyncClient:
    headers = {"authorization": key} if key is not None else {}
    transport = httpx.ASGITransport(app=app, client=(ip, 5555))
    return httpx.AsyncClient(transport=transport, base_url="http://testserver", headers=headers)


async def a_key(app: FastAPI, email: str = "edges@example.com") -> str:
    return await add_api_key(app, await add_user(app, email=email, balance_cents=10_000))


def bland(response: httpx.Response, status: int = 400) -> dict[str, Any]:
    """The answer, checked to be Bland's error shape with `status`."""
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    assert set(body) == {"status", "message", "errors"}, body
    assert body["status"] == "error"
    assert body["message"]
    return body


def nested(levels: int) -> dict[str, Any]:
    value: dict[str, Any] = {"leaf": "x"}
    for _ in range(levels - 1):
        value = {"a": value}
    return value


async def test_deeply_nested_metadata_and_request_data_are_refused(app: FastAPI) -> None:
    key = await a_key(app)
    async with api(app, key) as client:
        for field in ("metadata", "request_data"):
            # 320 levels were a RecursionError (a 500) when the call was stored.
            body = {"phone_number": "+15551230000", "task": TASK, field: nested(320)}
            refused = bland(await client.post("/v1/calls", json=body))
            assert refused["errors"] == {field: [too_deep_message()]}
        # At the bound it is taken; one level more is not.
        fine = {"phone_number": "+15551230000", "task": TASK, "metadata": nested(JSON_DEPTH_MAX)}
        assert (await client.post("/v1/calls", json=fine)).status_code == 200
        deeper = fine | {"metadata": nested(JSON_DEPTH_MAX + 1)}
        assert bland(await client.post("/v1/calls", json=deeper))["errors"] == {
            "metadata": [too_deep_message()]
        }
        big = {"phone_number": "+15551230000", "task": TASK, "metadata": {"x": "y" * 20_000}}
        assert bland(await client.post("/v1/calls", json=big))["errors"] == {
            "metadata": [too_big_message()]
        }


async def test_a_batch_bounds_its_rows_and_its_request_data(app: FastAPI) -> None:
    key = await a_key(app)
    row = {"phone_number": "+15551230000"}
    async with api(app, key) as client:
        deep_row = {"base_prompt": BATCH_TASK, "call_data": [row | {"extra": nested(400)}]}
        assert bland(await client.post("/v1/batches", json=deep_row))["errors"] == {
            "call_data.0": [too_deep_message()]
        }
        shared = {"base_prompt": BATCH_TASK, "call_data": [row], "request_data": nested(400)}
        assert bland(await client.post("/v1/batches", json=shared))["errors"] == {
            "request_data": [too_deep_message()]
        }
        inside = {"global": {"request_data": nested(400)}, "call_objects": [row]}
        assert (
            "global.request_data" in bland(await client.post("/v1/batches", json=inside))["errors"]
        )


async def test_json_too_deep_to_parse_is_a_400_even_with_a_nul_in_it(app: FastAPI) -> None:
    key = await a_key(app)
    deep = "[" * 5000 + '"\\u0000"' + "]" * 5000
    headers = {"content-type": "application/json"}
    async with api(app, key) as client:
        bland(await client.post("/v1/calls", content=deep, headers=headers))
    # The dashboard's routes: the same document is the app's own 4xx, not a RecursionError.
    transport = httpx.ASGITransport(app=app, client=("203.0.113.9", 5555))
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        answer = await client.post("/api/v1/login", content=deep, headers=headers)
    assert 400 <= answer.status_code < 500, answer.text
    assert answer.json()["success"] is False


@pytest.mark.parametrize("path", ["/v1/calls", "/v1/batches"])
@pytest.mark.parametrize(
    ("start_time", "message"),
    [
        ("9999-12-31 23:59:59 -23:59", START_TOO_FAR),
        ("9999-12-31 23:59:59", START_TOO_FAR),  # in Los Angeles: past year 9999 in UTC
        ("0001-01-01 00:00:00 +23:59", START_PAST),
        ("0001-01-01 00:00:00", START_PAST),
    ],
)
async def test_extreme_start_times_are_refused(
    app: FastAPI, path: str, start_time: str, message: str
) -> None:
    key = await a_key(app)
    row = {"phone_number": "+15551230000"}
    body = (
        {"phone_number": "+15551230000", "task": TASK}
        if path == "/v1/calls"
        else {"base_prompt": BATCH_TASK, "call_data": [row]}
    )
    async with api(app, key) as client:
        refused = bland(await client.post(path, json=body | {"start_time": start_time}))
    assert refused["errors"] == {"start_time": [message]}


async def test_a_nul_a_broken_body_and_a_large_one_answer_in_blands_shape(
    app: FastAPI,
) -> None:
    key = await a_key(app)
    async with api(app, key) as client:
        nul = bland(await client.post("/v1/calls", json={"phone_number": "+1555\x001230000"}))
        assert list(nul["errors"]) == ["phone_number"]
        json_headers = {"content-type": "application/json"}
        bland(await client.post("/v1/calls", content=b'{"phone_number": ', headers=json_headers))
        bland(await client.post("/v1/calls", content=b"phone_number=+15551230000"))
        bland(
            await client.post(
                "/v1/calls", content=b"\xff\xfe not json", headers={"content-type": "text/plain"}
            )
        )
        large = json.dumps({"task": "x" * (2 * 1024 * 1024)})
        bland(await client.post("/v1/calls", content=large, headers=json_headers), 413)
        bland(await client.get("/v1/no-such-route"), 404)


async def test_durations_are_strictly_whole_minutes(app: FastAPI) -> None:
    key = await a_key(app)
    base = {"phone_number": "+15551230000", "task": TASK}
    async with api(app, key) as client:
        for value in (True, "5", 5.5):
            refused = bland(await client.post("/v1/calls", json=base | {"max_duration": value}))
            assert list(refused["errors"]) == ["max_duration"], value
        batch = {"base_prompt": BATCH_TASK, "call_data": [{"phone_number": "+15551230000"}]}
        refused = bland(await client.post("/v1/batches", json=batch | {"max_duration": True}))
        assert list(refused["errors"]) == ["max_duration"]


async def test_guessed_keys_are_rate_limited_by_address(app: FastAPI) -> None:
    key = await a_key(app)
    async with api(app, "cw_guess", ip="198.51.100.7") as guesser:
        for _ in range(REFUSED_PER_WINDOW):
            assert bland(await guesser.get("/v1/calls"), 401)["message"] == INVALID
        limited = bland(await guesser.get("/v1/calls"), 429)
        assert limited["message"] == TOO_MANY_REFUSED
        # Once limited, the address waits even with a good key (no lookups while it waits).
        answer = await guesser.get("/v1/calls", headers={"authorization": key})
        assert answer.status_code == 429
        assert int(answer.headers["Retry-After"]) > 0
        # Without any key it counts as well.
        assert (await guesser.get("/v1/calls", headers={"authorization": ""})).status_code == 429
    async with api(app, key, ip="198.51.100.8") as other:
        assert (await other.get("/v1/calls")).status_code == 200


async def test_named_texts_are_bounded_in_size_too(app: FastAPI) -> None:
    """Bland's `analysis_schema` object (and Send Call's `variables`) are flat by their type,
    and bounded in size like every free-form field."""
    key = await a_key(app)
    schema = {f"field_{i}": "x" * 100 for i in range(200)}  # about 22 KiB
    body = {"phone_number": "+15551230000", "task": TASK, "analysis_schema": schema}
    async with api(app, key) as client:
        refused = bland(await client.post("/v1/calls", json=body))
    assert too_big_message() in json.dumps(refused["errors"])


@pytest.mark.parametrize("method", ["GET", "POST", "PUT", "PATCH", "DELETE"])
async def test_a_path_v1_does_not_have_is_a_404_that_says_so(app: FastAPI, method: str) -> None:
    """Not the 405 a POST met from the web app's catch-all (read as a wrong verb), and not the
    web app's HTML: Bland's error shape, naming what is not supported."""
    async with api(app) as client:
        answer = await client.request(method, "/v1/pathways/abc/run", json={})
    assert answer.status_code == 404
    assert answer.json() == {
        "status": "error",
        "message": f"{method} /v1/pathways/abc/run is not supported by Callwright. "
        "See docs/api.md for the supported endpoints.",
        "errors": {},
    }
