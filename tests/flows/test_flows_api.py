"""The flows API end to end (docs/flows.md): create blank, from a starter and from a graph; save
drafts with problems; publishing refused while there are problems, then accepted, each publish a
new version; versions; export and import round trip; delete; pagination; another user's flow is
404; a malformed draft is a 422 naming the field."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from fastapi import FastAPI

from callwright.flows.schemas import STARTER_KEYS
from callwright.models import FlowVersion
from callwright.voice_agent.flow_graph import EXPORT_FORMAT
from tests.factories import ApiClient, signed_in

pytestmark = pytest.mark.asyncio


def two_step_graph() -> dict[str, Any]:
    """A small graph with no problems: a greeting, a question, two endings."""
    return {
        "start_node_id": "hello",
        "variables": [{"name": "name", "type": "name", "description": "The callee"}],
        "nodes": [
            {
                "id": "hello",
                "kind": "say",
                "name": "Hello",
                "text": "Hi {{name}}, I'm an AI assistant and this call is recorded.",
            },
            {"id": "q", "kind": "ask", "name": "Question", "text": "Is now a good time?"},
            {
                "id": "bye",
                "kind": "action",
                "name": "Bye",
                "action": {"type": "end_call", "text": "Goodbye."},
            },
            {
                "id": "later",
                "kind": "action",
                "name": "Later",
                "action": {"type": "end_call", "text": "Another time then."},
            },
        ],
        "edges": [
            {"id": "e1", "source": "hello", "target": "q"},
            {"id": "e2", "source": "q", "target": "bye", "kind": "answer", "intent": "yes"},
            {"id": "e3", "source": "q", "target": "later", "kind": "fallback"},
        ],
    }


async def create(client: ApiClient, **body: Any) -> dict[str, Any]:
    response = await client.api("POST", "flows", json={"name": "A flow"} | body)
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()["data"]
    return data


async def test_a_blank_flow_holds_one_greeting(app: FastAPI) -> None:
    client, _ = await signed_in(app, "a@example.com")
    async with client:
        flow = await create(client, name="  Blank  ")
        assert flow["name"] == "Blank"
        assert flow["description"] == ""
        assert flow["draft"] == {
            "start_node_id": "start",
            "variables": [],
            "nodes": [
                {
                    "id": "start",
                    "kind": "say",
                    "name": "Greeting",
                    "text": "Hello!",
                    "instruction": "",
                    "position": {"x": 0, "y": 0},
                }
            ],
            "edges": [],
        }
        assert flow["problems"] == []
        assert flow["published_version"] is None
        assert flow["has_unpublished_changes"] is True
        read = await client.api("GET", f"flows/{flow['id']}")
        assert read.json()["data"] == flow


async def test_starters_list_and_create_from_each(app: FastAPI) -> None:
    client, _ = await signed_in(app, "a@example.com")
    async with client:
        listed = (await client.api("GET", "flows/starters")).json()["data"]
        assert [s["key"] for s in listed] == list(STARTER_KEYS)
        assert all(s["name"] and s["description"] for s in listed)
        for starter in listed:
            flow = await create(client, name=starter["name"], starter=starter["key"])
            assert flow["problems"] == [], starter["key"]
            assert len(flow["draft"]["nodes"]) > 5
        refused = await client.api("POST", "flows", json={"name": "X", "starter": "nope"})
        assert refused.status_code == 422
        assert refused.json()["errors"]["starter"] == [
            "The starter must be one of: appointment, lead_qualification, payment_reminder, survey."
        ]


async def test_save_a_draft_with_problems_then_publish_when_fixed(app: FastAPI) -> None:
    client, _ = await signed_in(app, "a@example.com")
    async with client:
        flow = await create(client, graph=two_step_graph(), description="Checks in")
        assert flow["problems"] == []
        assert flow["description"] == "Checks in"
        broken = two_step_graph()
        broken["edges"] = broken["edges"][:2]  # the ask loses its fallback: "later" unreachable
        broken["nodes"][0]["text"] = "Hi {{nobody}}"
        saved = await client.api(
            "PUT", f"flows/{flow['id']}", json={"name": "A flow", "draft": broken}
        )
        assert saved.status_code == 200, saved.text
        problems = saved.json()["data"]["problems"]
        assert [p["message"] for p in problems] == [
            "'Hello' uses an unknown variable {{nobody}}",
            "Ask 'Question' needs exactly one fallback edge",
            "'Later' cannot be reached from the start",
        ]
        assert [p["node_id"] for p in problems] == ["hello", "q", "later"]

        refused = await client.api("POST", f"flows/{flow['id']}/publish")
        assert refused.status_code == 422
        assert refused.json()["message"] == "Fix 3 problems before publishing"
        assert refused.json()["errors"] == {"draft": [p["message"] for p in problems]}
        assert (await client.api("GET", f"flows/{flow['id']}")).json()["data"][
            "published_version"
        ] is None

        await client.api(
            "PUT", f"flows/{flow['id']}", json={"name": "A flow", "draft": two_step_graph()}
        )
        published = await client.api("POST", f"flows/{flow['id']}/publish")
        assert published.status_code == 200, published.text
        data = published.json()["data"]
        assert data["published_version"] == 1
        assert data["has_unpublished_changes"] is False
        assert published.json()["message"] == "Version 1 published"


async def test_versions_are_numbered_kept_and_pinned(app: FastAPI) -> None:
    client, _ = await signed_in(app, "a@example.com")
    async with client:
        flow = await create(client, graph=two_step_graph())
        flow_id = flow["id"]
        assert (await client.api("POST", f"flows/{flow_id}/publish")).status_code == 200
        changed = two_step_graph()
        changed["nodes"][1]["text"] = "Do you have a minute?"
        saved = await client.api("PUT", f"flows/{flow_id}", json={"name": "v2", "draft": changed})
        assert saved.json()["data"]["has_unpublished_changes"] is True
        assert saved.json()["data"]["published_version"] == 1
        listed = (await client.api("GET", "flows")).json()["data"][0]
        assert (listed["published_version"], listed["has_unpublished_changes"]) == (1, True)
        assert listed["node_count"] == 4
        assert (await client.api("POST", f"flows/{flow_id}/publish")).status_code == 200

        versions = (await client.api("GET", f"flows/{flow_id}/versions")).json()
        assert [v["version"] for v in versions["data"]] == [2, 1]
        assert versions["pagination"]["total"] == 2
        assert all(v["node_count"] == 4 for v in versions["data"])
        first = (await client.api("GET", f"flows/{flow_id}/versions/1")).json()["data"]
        assert first["graph"]["nodes"][1]["text"] == "Is now a good time?"
        second = (await client.api("GET", f"flows/{flow_id}/versions/2")).json()["data"]
        assert second["graph"]["nodes"][1]["text"] == "Do you have a minute?"
        missing = await client.api("GET", f"flows/{flow_id}/versions/3")
        assert missing.status_code == 404
        assert missing.json()["message"] == "Flow version not found."
        listed = (await client.api("GET", "flows")).json()["data"][0]
        assert (listed["published_version"], listed["has_unpublished_changes"]) == (2, False)


async def test_the_repository_reads_the_published_version(app: FastAPI) -> None:
    """What the flow runner calls at merge: `owned` and `version` (None: the published one)."""
    from callwright.flows import repository

    client, user = await signed_in(app, "a@example.com")
    async with client:
        flow = await create(client, graph=two_step_graph())
        async with app.state.db.sessionmaker() as session:
            assert await repository.version(session, flow["id"], None) is None
        for _ in range(2):
            await client.api("POST", f"flows/{flow['id']}/publish")
    async with app.state.db.sessionmaker() as session:
        found = await repository.owned(session, user.id, flow["id"])
        assert found is not None
        assert found.published_version == 2
        assert await repository.owned(session, user.id + 1, flow["id"]) is None
        published = await repository.version(session, flow["id"], None)
        assert isinstance(published, FlowVersion)
        assert published.version == 2
        first = await repository.version(session, flow["id"], 1)
        assert first is not None
        assert first.graph["start_node_id"] == "hello"


async def test_export_and_import_round_trip(app: FastAPI) -> None:
    client, _ = await signed_in(app, "a@example.com")
    async with client:
        flow = await create(client, name="Dental / reminders!", starter="appointment")
        exported = await client.api("GET", f"flows/{flow['id']}/export")
        assert exported.status_code == 200
        assert exported.headers["content-disposition"] == (
            'attachment; filename="dental-reminders.flow.json"'
        )
        document = exported.json()
        assert document["format"] == EXPORT_FORMAT
        assert document["name"] == "Dental / reminders!"
        assert document["graph"] == flow["draft"]

        imported = await client.api("POST", "flows/import", json=document)
        assert imported.status_code == 201, imported.text
        copy_of = imported.json()["data"]
        assert copy_of["id"] != flow["id"]
        assert copy_of["draft"] == flow["draft"]
        assert (copy_of["name"], copy_of["description"]) == (flow["name"], flow["description"])
        again = (await client.api("GET", f"flows/{copy_of['id']}/export")).json()
        assert again == document

        wrong = await client.api("POST", "flows/import", json=document | {"format": "bland/1"})
        assert wrong.status_code == 422
        assert wrong.json()["errors"]["format"] == [
            "The format must be 'callwright-flow/1' (a flow file exported by Callwright)."
        ]
        bad_graph = copy.deepcopy(document)
        bad_graph["graph"]["nodes"][0]["kind"] = "sing"
        refused = await client.api("POST", "flows/import", json=bad_graph)
        assert refused.status_code == 422
        assert list(refused.json()["errors"]) == ["graph.nodes.0"]
        assert (await client.api("GET", "flows")).json()["pagination"]["total"] == 2


async def test_a_malformed_draft_is_a_422_naming_the_field_and_loses_nothing(
    app: FastAPI,
) -> None:
    client, _ = await signed_in(app, "a@example.com")
    async with client:
        flow = await create(client, graph=two_step_graph())
        bad = two_step_graph()
        bad["nodes"][1]["max_tries"] = 9
        bad["nodes"][0]["text"] = ""
        response = await client.api("PUT", f"flows/{flow['id']}", json={"name": "A", "draft": bad})
        assert response.status_code == 422
        errors = response.json()["errors"]
        assert errors["draft.nodes.0.say"] == ["a say node needs a line or an instruction"]
        assert errors["draft.nodes.1.ask.max_tries"] == ["Input should be less than or equal to 5."]
        for body, field in (
            ({"name": "", "draft": two_step_graph()}, "name"),
            ({"name": "x" * 81, "draft": two_step_graph()}, "name"),
            ({"name": "A", "description": "d" * 501, "draft": two_step_graph()}, "description"),
            ({"name": "A"}, "draft"),
            ({"name": "A", "draft": two_step_graph(), "extra": 1}, "extra"),
        ):
            refused = await client.api("PUT", f"flows/{flow['id']}", json=body)
            assert refused.status_code == 422, body
            assert field in refused.json()["errors"], refused.text
        both = await client.api(
            "POST", "flows", json={"name": "A", "starter": "survey", "graph": two_step_graph()}
        )
        assert both.json()["errors"] == {"graph": ["Give a starter or a graph, not both."]}
        kept = (await client.api("GET", f"flows/{flow['id']}")).json()["data"]
        assert kept["draft"] == flow["draft"]
        assert kept["name"] == "A flow"


async def test_delete_removes_the_flow_and_its_versions(app: FastAPI) -> None:
    client, _ = await signed_in(app, "a@example.com")
    async with client:
        flow = await create(client, graph=two_step_graph())
        await client.api("POST", f"flows/{flow['id']}/publish")
        deleted = await client.api("DELETE", f"flows/{flow['id']}")
        assert deleted.status_code == 200
        assert deleted.json()["data"] == {"id": flow["id"]}
        assert (await client.api("GET", f"flows/{flow['id']}")).status_code == 404
        assert (await client.api("GET", f"flows/{flow['id']}/versions/1")).status_code == 404
        again = await client.api("DELETE", f"flows/{flow['id']}")
        assert again.status_code == 404
        assert again.json()["message"] == "Flow not found."
    async with app.state.db.sessionmaker() as session:
        from sqlalchemy import func, select

        assert await session.scalar(select(func.count()).select_from(FlowVersion)) == 0


async def test_the_list_pages_the_most_recently_changed_first(app: FastAPI) -> None:
    client, _ = await signed_in(app, "a@example.com")
    async with client:
        ids = [(await create(client, name=f"Flow {n}"))["id"] for n in range(5)]
        # Touching the first makes it the most recently changed.
        blank = (await client.api("GET", f"flows/{ids[0]}")).json()["data"]["draft"]
        await client.api("PUT", f"flows/{ids[0]}", json={"name": "Flow 0!", "draft": blank})
        first = (await client.api("GET", "flows?per_page=2")).json()
        assert first["pagination"] == {"current_page": 1, "last_page": 3, "per_page": 2, "total": 5}
        assert [f["name"] for f in first["data"]] == ["Flow 0!", "Flow 4"]
        last = (await client.api("GET", "flows?per_page=2&page=3")).json()
        assert [f["name"] for f in last["data"]] == ["Flow 1"]
        assert last["data"][0]["node_count"] == 1
        too_many = await client.api("GET", "flows?per_page=101")
        assert too_many.status_code == 422
        assert "per_page" in too_many.json()["errors"]


async def test_another_users_flow_is_404_everywhere(app: FastAPI) -> None:
    owner, _ = await signed_in(app, "a@example.com")
    other, _ = await signed_in(app, "b@example.com")
    async with owner, other:
        flow = await create(owner, graph=two_step_graph())
        await owner.api("POST", f"flows/{flow['id']}/publish")
        body = {"name": "Mine now", "draft": two_step_graph()}
        for method, path in (
            ("GET", ""),
            ("PUT", ""),
            ("DELETE", ""),
            ("POST", "/publish"),
            ("GET", "/versions"),
            ("GET", "/versions/1"),
            ("GET", "/export"),
        ):
            response = await other.api(method, f"flows/{flow['id']}{path}", json=body)
            assert response.status_code == 404, (method, path, response.text)
            assert response.json()["message"] == "Flow not found."
        assert (await other.api("GET", "flows")).json()["data"] == []
        kept = (await owner.api("GET", f"flows/{flow['id']}")).json()["data"]
        assert kept["name"] == "A flow"
        assert kept["published_version"] == 1


async def test_two_publishes_at_once_never_share_a_number(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The publish that loses the race for a number is told so (409), and nothing changes."""
    from callwright.flows import repository

    client, _ = await signed_in(app, "a@example.com")
    async with client:
        flow = await create(client, graph=two_step_graph())
        assert (await client.api("POST", f"flows/{flow['id']}/publish")).status_code == 200

        async def stale(*_: Any) -> int:
            return 0  # what a publish that read the numbers before the other wrote saw

        monkeypatch.setattr(repository, "newest_version", stale)
        lost = await client.api("POST", f"flows/{flow['id']}/publish")
        assert lost.status_code == 409
        assert lost.json()["message"] == (
            "The flow was published at the same moment. Reload it and publish again."
        )
        monkeypatch.undo()
        kept = (await client.api("GET", f"flows/{flow['id']}/versions")).json()
        assert [v["version"] for v in kept["data"]] == [1]


async def test_a_user_keeps_a_bounded_number_of_flows(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    from callwright.flows import service

    monkeypatch.setattr(service, "FLOWS_MAX", 2)
    client, _ = await signed_in(app, "a@example.com")
    async with client:
        for n in range(2):
            await create(client, name=f"Flow {n}")
        refused = await client.api("POST", "flows", json={"name": "One more"})
        assert refused.status_code == 422
        assert refused.json()["message"] == (
            "You can keep at most 2 flows. Delete one you no longer use to add another."
        )
        imported = await client.api(
            "POST",
            "flows/import",
            json={"format": EXPORT_FORMAT, "name": "X", "graph": two_step_graph()},
        )
        assert imported.status_code == 422
        assert (await client.api("GET", "flows")).json()["pagination"]["total"] == 2
