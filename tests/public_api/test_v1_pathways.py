"""`/v1/calls` on a conversation flow, as Bland's SDK sends it (`pathway_id`, `pathway_version`,
`start_node_id`: fields its `call()` lacks, sent as a Bland user sends them), and the call's
`pathway_logs` read back; a batch on a flow, its version pinned when it is sent. The flows are
published through the flows' own storage (flows.service), as the editor publishes them."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import pytest
from bland.core.api_error import ApiError
from sqlalchemy import select

from callwright.flows import service as flows
from callwright.models import Campaign, CampaignContact
from callwright.voice_agent.flow_graph import FlowGraph
from tests.live import Live
from tests.public_api.test_bland_sdk import _sdk, run
from tests.voice_agent.flow_fixtures import flow_json

pytestmark = pytest.mark.asyncio(loop_scope="session")

CONFIRMS = "+15005550050"


#: Publishes each graph in turn as a version of a new flow of the user's; answers its id.
Publish = Callable[[int, list[dict[str, Any]]], Awaitable[str]]


@pytest.fixture
def publish(live: Live) -> Publish:
    """Flows published through the flows' own storage (flows.service), as the editor does."""

    async def publish_versions(user_id: int, graphs: list[dict[str, Any]]) -> str:
        async for session in live.app.state.db.session():
            first = FlowGraph.model_validate(graphs[0])
            flow = await flows.create(
                session, user_id, name="Cleanings", description="", graph=first
            )
            for i, graph in enumerate(graphs):
                if i:
                    draft = FlowGraph.model_validate(graph)
                    await flows.update(session, flow, name=flow.name, description="", draft=draft)
                await flows.publish(session, user_id, flow.id)
            flow_id: str = flow.id
        return flow_id

    return publish_versions


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
    live: Live, publish: Publish
) -> None:
    sdk, _, user_id = await _sdk(live)
    graph = flow_json("appointment")
    older = json.loads(json.dumps(graph))
    older["nodes"][0]["text"] = "Hello from an older version."
    flow_id = await publish(user_id, [older, graph])
    sent = await _send(
        sdk,
        {"pathway_id": flow_id},
        max_duration=2,
        request_data={"appointment_time": "tomorrow at 3 pm"},
    )
    call = await live.wait_finalized(sent.call_id)
    assert (call.flow_id, call.flow_version, call.start_node_id) == (flow_id, 2, None)
    assert call.prompt == 'Follow the conversation flow "Cleanings" (version 2).'
    details: dict[str, Any] = (await run(sdk.calls.details, sent.call_id)).dict()
    assert (details["pathway_id"], details["pathway_version"]) == (flow_id, 2)
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
    live: Live, publish: Publish
) -> None:
    sdk, _, user_id = await _sdk(live)
    graph = flow_json("appointment")
    appointments = await publish(user_id, [graph])
    bad_number = json.loads(json.dumps(graph))
    bad_number["nodes"][7]["action"]["number"] = "+1900555"
    bad = await publish(user_id, [bad_number])
    _, _, other_user = await _sdk(live)
    someone_elses = await publish(other_user, [graph])
    cases: list[tuple[dict[str, Any], str, str]] = [
        ({"pathway_id": someone_elses}, "pathway_id", "The flow was not found."),
        ({"pathway_id": appointments, "pathway_version": 4}, "pathway_version", "version 4"),
        ({"pathway_id": appointments, "start_node_id": "nowhere"}, "start_node_id", "'nowhere'"),
        ({"pathway_id": appointments, "start_node_id": "g_busy"}, "start_node_id", "'g_busy'"),
        ({"pathway_id": bad}, "pathway_id", "'Front desk'"),
    ]
    for fields, field, words in cases:
        with pytest.raises(ApiError) as refused:
            await _send(sdk, fields)
        assert refused.value.status_code == 400, fields
        errors = refused.value.body["errors"]
        assert list(errors) == [field], (fields, errors)
        assert words in errors[field][0], (fields, errors)


async def test_a_batch_follows_a_flow_pinned_when_it_was_sent(live: Live, publish: Publish) -> None:
    """`/v1/batches` with `global.pathway_id`: the version published when the batch was sent is
    the one every call is built on, though a newer one is published before the dialler runs;
    a flow that cannot be followed is a 400 naming `global.pathway_id`."""
    _, key, user_id = await _sdk(live)
    graph = flow_json("appointment")
    flow_id = await publish(user_id, [graph])
    rows = [{"phone_number": CONFIRMS, "appointment_time": "tomorrow at 3 pm"}]
    async with httpx.AsyncClient(base_url=live.url, headers={"authorization": key}) as client:
        sent = await client.post(
            "/v1/batches",
            json={"global": {"pathway_id": flow_id, "max_duration": 1}, "call_objects": rows},
        )
        assert sent.status_code == 200, sent.text
        # Stopped at once: its call is built below, not placed.
        batch_id = sent.json()["batch_id"]
        stopped = await client.post(f"/v1/batches/{batch_id}/stop")
        assert stopped.status_code == 200, stopped.text
        refused = await client.post(
            "/v1/batches",
            json={"global": {"pathway_id": "no-such-flow"}, "call_objects": rows},
        )
    assert refused.status_code == 400
    assert list(refused.json()["errors"]) == ["global.pathway_id"]
    newer = json.loads(json.dumps(graph))
    newer["nodes"][0]["text"] = "Hello from a newer version."
    async for session in live.app.state.db.session():
        flow = await flows.owned(session, user_id, flow_id)
        draft = FlowGraph.model_validate(newer)
        await flows.update(session, flow, name=flow.name, description="", draft=draft)
        await flows.publish(session, user_id, flow_id)
    async for session in live.app.state.db.session():
        campaign = await session.get(Campaign, batch_id)
        assert campaign is not None
        contact = await session.scalar(
            select(CampaignContact).where(CampaignContact.campaign_id == batch_id)
        )
        assert contact is not None
        order = await live.app.state.dialler._order(session, campaign, contact)
    assert (order.flow_id, order.flow_version, order.start_node_id) == (flow_id, 1, None)
    assert order.flow_graph is not None
    assert order.flow_graph["nodes"][0]["text"] == graph["nodes"][0]["text"]
