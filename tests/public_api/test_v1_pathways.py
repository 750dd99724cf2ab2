"""`/v1/calls` on a conversation flow, as Bland's SDK sends it (`pathway_id`, `pathway_version`,
`start_node_id`: fields its `call()` lacks, sent as a Bland user sends them), and the call's
`pathway_logs` read back. The flows' storage is FLOWS-API's: the published version is looked up
through `calls.builder.published_flow`, which the tests stand in for with the JSON fixture."""

from __future__ import annotations

import json
from typing import Any

import pytest
from bland.core.api_error import ApiError
from sqlalchemy.ext.asyncio import AsyncSession

from callwright.calls import builder
from callwright.calls.builder import OrderRefused, PinnedFlow
from callwright.voice_agent.flow_graph import FlowGraph
from tests.live import Live
from tests.public_api.test_bland_sdk import _sdk, run
from tests.voice_agent.flow_fixtures import flow_json

pytestmark = pytest.mark.asyncio(loop_scope="session")

CONFIRMS = "+15005550050"


@pytest.fixture
def published(monkeypatch: pytest.MonkeyPatch) -> dict[tuple[int, str], list[dict[str, Any]]]:
    """The flows each user has published (user id, flow id -> its versions' graphs), read as
    `flows.repository` would answer."""
    stored: dict[tuple[int, str], list[dict[str, Any]]] = {}

    async def lookup(
        _session: AsyncSession, user_id: int, flow_id: str, version: int | None
    ) -> PinnedFlow:
        versions = stored.get((user_id, flow_id))
        if versions is None:
            raise OrderRefused("flow", "not-found", builder.FLOW_NOT_FOUND)
        number = version or len(versions)
        if not 1 <= number <= len(versions):
            raise OrderRefused(
                "flow", "not-published", f"The flow has no published version {number}."
            )
        return PinnedFlow(flow_id, number, FlowGraph.model_validate(versions[number - 1]))

    monkeypatch.setattr(builder, "published_flow", lookup)
    return stored


async def _send(sdk: Any, pathway: dict[str, Any], **given: Any) -> Any:
    """A call through the SDK with no task, its pathway fields sent as a Bland user sends
    fields its `call()` lacks."""
    return await run(
        sdk.call,
        phone_number=CONFIRMS,
        task=None,
        tools=None,
        temperature=None,
        interruption_threshold=None,
        request_options={"additional_body_parameters": pathway},
        **given,
    )


async def test_the_sdk_places_a_call_on_a_flow_and_reads_its_pathway_logs(
    live: Live, published: dict[tuple[int, str], list[dict[str, Any]]]
) -> None:
    sdk, _, user_id = await _sdk(live)
    graph = flow_json("appointment")
    older = json.loads(json.dumps(graph))
    older["nodes"][0]["text"] = "Hello from an older version."
    published[(user_id, "appt-flow")] = [older, graph]
    sent = await _send(
        sdk,
        {"pathway_id": "appt-flow"},
        max_duration=2,
        request_data={"appointment_time": "tomorrow at 3 pm"},
    )
    call = await live.wait_finalized(sent.call_id)
    assert (call.flow_id, call.flow_version, call.start_node_id) == ("appt-flow", 2, None)
    assert call.prompt == "Follow the conversation flow appt-flow (version 2)."
    details: dict[str, Any] = (await run(sdk.calls.details, sent.call_id)).dict()
    assert (details["pathway_id"], details["pathway_version"]) == ("appt-flow", 2)
    logs = details["pathway_logs"]
    assert [(s["node_id"], s["edge_id"]) for s in logs] == [
        ("greet", "e_greet"),
        ("confirm", "e_confirm"),
        ("confirmed", "e_confirmed"),
        ("bye", None),
    ], logs
    assert logs[1]["heard"]
    assert logs[1]["reason"].startswith("answer 'Confirm'")
    lines = (await run(sdk.calls.details, sent.call_id)).transcripts
    said = [t.text for t in lines if t.user == "assistant"]
    assert said[0].startswith("Hi, this is Sarah"), "the pinned version, not the older one"


async def test_a_pathway_that_cannot_be_followed_is_a_400_naming_its_field(
    live: Live, published: dict[tuple[int, str], list[dict[str, Any]]]
) -> None:
    sdk, _, user_id = await _sdk(live)
    graph = flow_json("appointment")
    published[(user_id, "appt-flow")] = [graph]
    bad_number = json.loads(json.dumps(graph))
    bad_number["nodes"][7]["action"]["number"] = "+1900555"
    published[(user_id, "bad-number")] = [bad_number]
    cases: list[tuple[dict[str, Any], str, str]] = [
        ({"pathway_id": "someone-elses"}, "pathway_id", "The flow was not found."),
        ({"pathway_id": "appt-flow", "pathway_version": 4}, "pathway_version", "version 4"),
        ({"pathway_id": "appt-flow", "start_node_id": "nowhere"}, "start_node_id", "'nowhere'"),
        ({"pathway_id": "appt-flow", "start_node_id": "g_busy"}, "start_node_id", "'g_busy'"),
        ({"pathway_id": "bad-number"}, "pathway_id", "'Front desk'"),
    ]
    for fields, field, words in cases:
        with pytest.raises(ApiError) as refused:
            await _send(sdk, fields)
        assert refused.value.status_code == 400, fields
        errors = refused.value.body["errors"]
        assert list(errors) == [field], (fields, errors)
        assert words in errors[field][0], (fields, errors)
