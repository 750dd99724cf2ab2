"""The API's OpenAPI document at `/openapi.json` (where generators look first): the same document
as `/api/v1/openapi.json`, with its security schemes on every operation that needs one, so a
client generated from it (`openapi-python-client`, the Python world's usual generator)
authenticates with an API key and lists calls unchanged."""

from __future__ import annotations

import asyncio
import importlib
import json
import sys
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from tests.factories import add_api_key, add_user, queued_call

pytestmark = pytest.mark.asyncio

#: Installed by the test command (scripts/lib.sh `ensure_client_generator`): it needs a typer
#: older than the app's, so it lives in a virtual environment of its own.
GENERATOR = Path(__file__).resolve().parents[2] / ".venv-tools" / "bin" / "openapi-python-client"


def _client(app: FastAPI) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver")


async def test_openapi_json_is_the_apis_document_with_its_security(app: FastAPI) -> None:
    async with _client(app) as client:
        root = await client.get("/openapi.json")
        api = await client.get("/api/v1/openapi.json")
    assert root.status_code == 200
    assert root.headers["content-type"] == "application/json"
    assert root.json() == api.json()
    document = root.json()
    schemes = document["components"]["securitySchemes"]
    assert schemes["ApiKey"] == {
        "type": "apiKey",
        "in": "header",
        "name": "authorization",
        "description": schemes["ApiKey"]["description"],
    }
    assert schemes["SessionCookie"]["in"] == "cookie"
    assert schemes["XsrfHeader"]["name"] == "X-XSRF-TOKEN"
    paths = document["paths"]
    assert paths["/v1/calls"]["post"]["security"] == [{"ApiKey": []}]
    assert paths["/v1/calls"]["get"]["security"] == [{"ApiKey": []}]
    user_security: list[dict[str, list[str]]] = [
        {"Bearer": []},
        {"SessionCookie": [], "XsrfHeader": []},
    ]
    assert paths["/api/v1/send-call"]["post"]["security"] == user_security
    assert "security" not in paths["/api/v1/login"]["post"]  # open to anyone
    assert "security" not in paths["/api/v1/posts"]["get"]


async def test_a_client_generated_from_openapi_json_lists_calls_with_a_key(
    app: FastAPI, tmp_path: Path
) -> None:
    if not GENERATOR.exists():
        pytest.skip("openapi-python-client is installed by the test command (scripts/test.sh)")
    user = await add_user(app, email="gen@example.com", balance_cents=10_000)
    key = await add_api_key(app, user)
    call = await queued_call(app, user.id)
    async with _client(app) as client:
        (tmp_path / "openapi.json").write_text(
            json.dumps((await client.get("/openapi.json")).json())
        )
    (tmp_path / "config.yml").write_text("post_hooks: []\n")
    generator = await asyncio.create_subprocess_exec(
        *(str(GENERATOR), "generate", "--path", "openapi.json", "--meta", "none"),
        *("--output-path", "callwright_client", "--config", "config.yml"),
        cwd=tmp_path,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    said, _ = await asyncio.wait_for(generator.communicate(), timeout=120)
    assert generator.returncode == 0, said.decode()
    sys.path.insert(0, str(tmp_path))
    try:
        package = importlib.import_module("callwright_client")
        listing = importlib.import_module(
            "callwright_client.api.call_api_v_1.list_calls_v1_calls_get"
        )
        transport = httpx.ASGITransport(app=app)
        keyed = package.AuthenticatedClient(
            base_url="http://testserver", token=key, httpx_args={"transport": transport}
        )
        anonymous = package.Client(
            base_url="http://testserver", httpx_args={"transport": transport}
        )
        answer = await listing.asyncio_detailed(client=keyed)
        refused = await listing.asyncio_detailed(client=anonymous)
    finally:
        sys.path.remove(str(tmp_path))
        for name in [m for m in sys.modules if m.split(".")[0] == "callwright_client"]:
            del sys.modules[name]
    assert answer.status_code == 200
    assert answer.parsed.count == 1
    assert [c.call_id for c in answer.parsed.calls] == [call.id]
    assert refused.status_code == 401
