"""`/v1/pathway` through raw HTTP with an API key (docs/api.md, "Pathways"): Bland's pathway
shape in and out, its node types mapped onto flows, a 400 naming an unsupported node type,
versions published and read (0: the live one), another key's pathway 404, Bland's error shape."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI

from callwright.models import Flow
from tests.conftest import make_client
from tests.factories import add_api_key, add_user

pytestmark = pytest.mark.asyncio

#: A pathway as Bland's docs draw one: a start node that asks, an end and a transfer.
NODES: list[dict[str, Any]] = [
    {
        "id": "1",
        "type": "Default",
        "data": {
            "name": "Start",
            "text": "Hi {{first_name}}, I'm an AI assistant and this call is recorded. "
            "Can you still come on Friday?",
            "isStart": True,
            "extractVars": [["confirmed", "boolean", "Whether they can come"]],
        },
    },
    {
        "id": "bye",
        "type": "End Call",
        "data": {"name": "End call", "text": "Great, see you Friday. Goodbye."},
    },
    {
        "id": "desk",
        "type": "Transfer Call",
        "data": {"name": "Front desk", "transferNumber": "+15005550010"},
    },
    {
        "id": "human",
        "type": "Default",
        "data": {"name": "Wants a person", "isGlobal": True, "globalLabel": "Asks for a human"},
    },
]
EDGES: list[dict[str, Any]] = [
    {"id": "e1", "source": "1", "target": "bye", "label": "yes"},
    {"id": "e2", "source": "1", "target": "desk", "data": {"label": "wants to reschedule"}},
    {"id": "e3", "source": "human", "target": "desk"},
]


async def _clients(app: FastAPI) -> tuple[Any, Any]:
    owner = await add_user(app, email="owner@example.com")
    other = await add_user(app, email="other@example.com")
    mine = make_client(app, headers={"authorization": await add_api_key(app, owner)})
    theirs = make_client(app, headers={"authorization": await add_api_key(app, other)})
    return mine, theirs


async def test_create_read_update_list_delete(app: FastAPI) -> None:
    mine, theirs = await _clients(app)
    async with mine, theirs:
        created = await mine.post("/v1/pathway/create", json={"name": "Reminder"})
        assert created.status_code == 200, created.text
        assert created.json()["status"] == "success"
        pathway_id = created.json()["pathway_id"]

        blank = (await mine.get(f"/v1/pathway/{pathway_id}")).json()
        assert blank["name"] == "Reminder"
        assert blank["description"] is None
        assert [(n["id"], n["type"], n["data"]["text"]) for n in blank["nodes"]] == [
            ("start", "Default", "Hello!")
        ]
        assert blank["nodes"][0]["data"]["isStart"] is True

        updated = await mine.post(
            f"/v1/pathway/{pathway_id}",
            json={"description": "Friday visits", "nodes": NODES, "edges": EDGES},
        )
        assert updated.status_code == 200, updated.text
        assert updated.json()["message"] == "Pathway updated successfully"
        data = updated.json()["pathway_data"]
        assert (data["name"], data["description"]) == ("Reminder", "Friday visits")
        kinds = {n["id"]: n["data"]["callwright"] for n in data["nodes"]}
        assert kinds["1"]["kind"] == "ask"
        assert kinds["1"]["capture"] == [{"variable": "confirmed", "type": "yes_no"}]
        assert kinds["bye"]["action"]["type"] == "end_call"
        assert kinds["desk"]["action"] == {
            "type": "transfer",
            "number": "+15005550010",
            "department": None,
            "mode": "cold",
            "text": "Let me put you through now.",
        }
        assert (kinds["human"]["kind"], kinds["human"]["intent"]) == ("global", "person")
        edges = {e["id"]: e["data"]["callwright"] for e in data["edges"]}
        assert edges["e2"]["kind"] == "answer"
        assert edges["e2"]["phrases"] == ["wants to reschedule"]
        # The ask has no fallback yet: shown, not refused.
        assert data["problems"] == ["Ask 'Start' needs exactly one fallback edge"]

        listed = (await mine.get("/v1/pathway")).json()
        assert [p["pathway_id"] for p in listed] == [pathway_id]
        assert (await theirs.get("/v1/pathway")).json() == []
        for method, path in (
            ("GET", ""),
            ("POST", ""),
            ("DELETE", ""),
            ("POST", "/version"),
            ("GET", "/version/0"),
        ):
            response = await theirs.request(
                method, f"/v1/pathway/{pathway_id}{path}", json={"nodes": NODES}
            )
            assert response.status_code == 404, (method, path)
            assert response.json() == {
                "status": "error",
                "message": "Pathway not found.",
                "errors": {},
            }

        deleted = await mine.delete(f"/v1/pathway/{pathway_id}")
        assert deleted.json() == {"status": "success", "message": "Pathway deleted successfully"}
        assert (await mine.get(f"/v1/pathway/{pathway_id}")).status_code == 404


async def test_versions_are_published_only_without_problems(app: FastAPI) -> None:
    mine, _ = await _clients(app)
    async with mine:
        created = await mine.post(
            "/v1/pathway/create", json={"name": "Reminder", "nodes": NODES, "edges": EDGES}
        )
        pathway_id = created.json()["pathway_id"]
        none_yet = await mine.get(f"/v1/pathway/{pathway_id}/version/0")
        assert none_yet.status_code == 404
        assert none_yet.json()["message"] == "This pathway has no published version yet."

        refused = await mine.post(
            f"/v1/pathway/{pathway_id}/version", json={"nodes": NODES, "edges": EDGES}
        )
        assert refused.status_code == 400
        assert refused.json() == {
            "status": "error",
            "message": "Fix 1 problem before publishing",
            "errors": {"draft": ["Ask 'Start' needs exactly one fallback edge"]},
        }

        # Read, add a fallback through Callwright's own edge data, write back: nothing lost.
        read = (await mine.get(f"/v1/pathway/{pathway_id}")).json()
        fallback = {"id": "e4", "source": "1", "target": "desk", "kind": "fallback"}
        edges = [*read["edges"], {"id": "e4", "data": {"callwright": fallback}}]
        for number in (1, 2):
            version = await mine.post(
                f"/v1/pathway/{pathway_id}/version",
                json={"name": f"v{number}", "nodes": read["nodes"], "edges": edges},
            )
            assert version.status_code == 200, version.text
            assert version.json()["message"] == "Version created successfully"
            assert version.json()["data"]["version_number"] == number
            assert version.json()["data"]["name"] == f"v{number}"

        live = (await mine.get(f"/v1/pathway/{pathway_id}/version/0")).json()
        assert (live["version_number"], live["is_latest"]) == (2, True)
        first = (await mine.get(f"/v1/pathway/{pathway_id}/version/1")).json()
        assert (first["version_number"], first["is_latest"]) == (1, False)
        assert [n["id"] for n in first["nodes"]] == ["1", "bye", "desk", "human"]
        assert first["nodes"][0]["data"]["extractVars"] == [["confirmed", "yes_no", ""]]
        assert (await mine.get(f"/v1/pathway/{pathway_id}/version/3")).status_code == 404
        again = (await mine.get(f"/v1/pathway/{pathway_id}")).json()
        assert again["nodes"] == read["nodes"]
        assert again["published_version"] == 2
        assert again["problems"] == []


async def test_an_unsupported_node_type_is_a_400_naming_it(app: FastAPI) -> None:
    mine, _ = await _clients(app)
    async with mine:
        webhook = {"id": "hook", "type": "Webhook", "data": {"name": "Look up", "url": "x"}}
        refused = await mine.post(
            "/v1/pathway/create", json={"name": "X", "nodes": [NODES[0], webhook], "edges": []}
        )
        assert refused.status_code == 400
        assert refused.json()["errors"] == {
            "nodes.1.type": [
                "The node 'hook' has the type 'Webhook', which Callwright does not support. "
                "Supported types: Default, End Call, Transfer Call (see docs/flows.md)."
            ]
        }
        odd_global = {"id": "g", "data": {"name": "G", "isGlobal": True, "globalLabel": "Weather"}}
        refused = await mine.post("/v1/pathway/create", json={"name": "X", "nodes": [odd_global]})
        assert list(refused.json()["errors"]) == ["nodes.0.data.globalLabel"]
        two_starts = [
            {"id": "a", "data": {"name": "A", "text": "Hi", "isStart": True}},
            {"id": "b", "data": {"name": "B", "text": "Hi", "isStart": True}},
        ]
        refused = await mine.post("/v1/pathway/create", json={"name": "X", "nodes": two_starts})
        assert refused.json()["errors"] == {
            "nodes": ["Only one node may be the start (data.isStart)."]
        }
        bad_id = [{"id": "has space", "data": {"name": "A", "text": "Hi"}}]
        refused = await mine.post("/v1/pathway/create", json={"name": "X", "nodes": bad_id})
        assert refused.status_code == 400
        assert "nodes.0.say.id" in refused.json()["errors"]
        no_name = await mine.post("/v1/pathway/create", json={"name": " "})
        assert no_name.json()["errors"] == {"name": ["The name field is required."]}
        assert (await mine.get("/v1/pathway")).json() == []


async def test_variables_the_nodes_use_are_declared(app: FastAPI) -> None:
    """Bland's pathways read any `request_data` key: each `{{name}}` becomes a variable."""
    mine, _ = await _clients(app)
    async with mine:
        created = await mine.post(
            "/v1/pathway/create", json={"name": "Vars", "nodes": NODES, "edges": EDGES}
        )
        pathway = (await mine.get(f"/v1/pathway/{created.json()['pathway_id']}")).json()
        assert not any("unknown variable" in p for p in pathway["problems"])
        variables = pathway["nodes"][0]["data"]["callwright"]
        assert "{{first_name}}" in variables["text"]
    async with app.state.db.sessionmaker() as session:
        flow = await session.get(Flow, created.json()["pathway_id"])
        assert flow is not None
        assert flow.draft["variables"] == [
            {"name": "first_name", "type": "text", "description": "From request_data"}
        ]
