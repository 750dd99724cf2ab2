"""The agent lab's versions, named suites, flows' own suites and a result's call (docs/lab.md),
through the web API without placing calls: every save that changes an agent is its next
version and a run is pinned to the version it ran; a run of one suite takes only its
scenarios; a flow's suite is added from its published branches and runs with the flow alone;
a result's call is the judge's record with the recording, only for its owner; two runs are
compared on the scenarios both ran."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI

from callwright.calls.builder import CallRequest, build_order
from callwright.lab.contract import Check, Evidence, Scenario
from callwright.lab.runner import LAB_NUMBER, pinned_agent
from callwright.lab.starter import AGENT_SUITE, BRANCH_SUITE
from callwright.lab.views import compare, run_out
from callwright.models import LabResult, LabRun
from tests.agents.test_agent_tools import tool_body
from tests.agents.test_agents_api import agent_body
from tests.factories import ApiClient, finished_call, signed_in

pytestmark = pytest.mark.asyncio

SCENARIO: dict[str, Any] = {
    "name": "Confirms",
    "callee": {"kind": "person", "lines": ["Yes, that works.", "Bye."]},
    "expect": {"outcome": "completed"},
}


async def _agent(client: ApiClient, **fields: Any) -> dict[str, Any]:
    made = await client.api("POST", "agents", json=agent_body(**fields))
    assert made.status_code == 201, made.text
    data: dict[str, Any] = made.json()["data"]
    return data


async def test_every_change_is_a_version_and_a_run_is_pinned_to_its_own(app: FastAPI) -> None:
    client, _ = await signed_in(app, "lab-versions@example.com")
    async with client:
        agent = await _agent(client)
        first = await client.api("GET", f"agents/{agent['id']}/versions")
        assert [v["version"] for v in first.json()["data"]] == [1]
        assert first.json()["data"][0]["settings"]["prompt"] == agent_body()["prompt"]

        same = await client.api("PUT", f"agents/{agent['id']}", json=agent_body())
        assert same.status_code == 200, same.text
        changed = agent_body(prompt=agent_body()["prompt"] + " Be brief.")
        await client.api("PUT", f"agents/{agent['id']}", json=changed)
        versions = (await client.api("GET", f"agents/{agent['id']}/versions")).json()
        assert [v["version"] for v in versions["data"]] == [2, 1]
        assert versions["pagination"]["total"] == 2
        assert versions["data"][0]["settings"]["prompt"].endswith("Be brief.")

        await client.api("POST", f"agents/{agent['id']}/lab/scenarios", json=SCENARIO)
        started = await client.api("POST", f"agents/{agent['id']}/lab/runs", json={})
        assert started.status_code == 201, started.text
        run = started.json()["data"]
        assert run["agent_version"] == 2
        assert run["agent_settings"]["prompt"] == changed["prompt"]

        # A custom tool is part of the agent: a version of its own, its header's value sealed
        # in it and never shown; a run of the version before it calls without the tool.
        tool = await client.api("POST", f"agents/{agent['id']}/tools", json=tool_body())
        assert tool.status_code == 201, tool.text
        versions = await client.api("GET", f"agents/{agent['id']}/versions")
        assert [v["version"] for v in versions.json()["data"]] == [3, 2, 1]
        shown = versions.json()["data"][0]["settings"]["tools"]
        assert [(t["name"], t["headers"]) for t in shown] == [("check_calendar", ["Authorization"])]
        assert "s3cret" not in versions.text
        with_tool = await client.api("POST", f"agents/{agent['id']}/lab/runs", json={})
        assert with_tool.json()["data"]["agent_version"] == 3
        assert with_tool.json()["data"]["agent_settings"]["tools"] == shown
        orders = {}
        async with app.state.db.sessionmaker() as session:
            for pinned in (run, with_tool.json()["data"]):
                row = await session.get(LabRun, pinned["id"])
                assert row is not None
                request = CallRequest(
                    kind="lab",
                    to_number=LAB_NUMBER,
                    user_id=row.user_id,
                    agent_id=row.agent_id,
                    variables={"name": "Ann", "day": "Friday"},
                )
                orders[row.agent_version] = await build_order(session, request, *pinned_agent(row))
        assert orders[2].tools is None
        assert orders[3].tools is not None
        assert [t["name"] for t in orders[3].tools] == ["check_calendar"]
        sealed = orders[3].tools[0]["headers"]["Authorization"]
        assert sealed
        assert "s3cret" not in sealed

        other, _ = await signed_in(app, "lab-versions-other@example.com")
        async with other:
            hidden = await other.api("GET", f"agents/{agent['id']}/versions")
        assert hidden.status_code == 404


async def test_a_run_of_one_suite_takes_only_its_scenarios(app: FastAPI) -> None:
    client, _ = await signed_in(app, "lab-named@example.com")
    async with client:
        agent = await _agent(client, transfer_number="+15005550011")
        starter = await client.api("POST", f"agents/{agent['id']}/lab/starter")
        assert {s["suite"] for s in starter.json()["data"]} == {AGENT_SUITE}
        mine = await client.api(
            "POST", f"agents/{agent['id']}/lab/scenarios", json=SCENARIO | {"suite": "smoke"}
        )
        assert mine.json()["data"]["suite"] == "smoke"
        plain = await client.api("POST", f"agents/{agent['id']}/lab/scenarios", json=SCENARIO)
        assert plain.json()["data"]["suite"] == "main"

        smoke = await client.api("POST", f"agents/{agent['id']}/lab/runs", json={"suite": "smoke"})
        assert [r["scenario"]["name"] for r in smoke.json()["data"]["results"]] == ["Confirms"]
        assert smoke.json()["data"]["results"][0]["scenario"]["suite"] == "smoke"

        none = await client.api("POST", f"agents/{agent['id']}/lab/runs", json={"suite": "nope"})
        assert none.status_code == 422
        assert none.json()["errors"] == {"scenarios": ["The suite has no scenario to run."]}
        bad = await client.api(
            "POST", f"agents/{agent['id']}/lab/scenarios", json=SCENARIO | {"suite": "-x/"}
        )
        assert bad.status_code == 422
        assert "suite" in bad.json()["errors"], bad.text


async def test_a_flow_s_own_suite_comes_from_its_published_branches(app: FastAPI) -> None:
    client, _ = await signed_in(app, "lab-flow@example.com")
    async with client:
        made = await client.api(
            "POST", "flows", json={"name": "Appointments", "starter": "appointment"}
        )
        flow_id = made.json()["data"]["id"]
        unpublished = await client.api("POST", f"flows/{flow_id}/lab/starter")
        assert unpublished.status_code == 422
        refusal = ["Publish the flow first: the lab calls its published version."]
        assert unpublished.json()["errors"] == {"flow_id": refusal}
        assert (await client.api("POST", f"flows/{flow_id}/publish")).status_code == 200

        added = await client.api("POST", f"flows/{flow_id}/lab/starter")
        assert added.status_code == 201, added.text
        scenarios = added.json()["data"]
        assert len(scenarios) >= 3
        assert {(s["agent_id"], s["flow_id"], s["suite"]) for s in scenarios} == {
            (None, flow_id, BRANCH_SUITE)
        }
        listed = await client.api("GET", f"flows/{flow_id}/lab/scenarios")
        assert [s["id"] for s in listed.json()["data"]] == [s["id"] for s in scenarios]

        started = await client.api("POST", f"flows/{flow_id}/lab/runs", json={})
        assert started.status_code == 201, started.text
        run = started.json()["data"]
        assert (run["agent_id"], run["agent_version"], run["flow_id"]) == (None, None, flow_id)
        assert run["flow_version"] == 1
        runs = await client.api("GET", f"flows/{flow_id}/lab/runs")
        assert [r["id"] for r in runs.json()["data"]] == [run["id"]]

        other, _ = await signed_in(app, "lab-flow-other@example.com")
        async with other:
            assert (await other.api("GET", f"flows/{flow_id}/lab/scenarios")).status_code == 404
            refused = await other.api("POST", f"flows/{flow_id}/lab/runs", json={})
            assert refused.status_code == 404


async def _result(app: FastAPI, user_id: int, agent_id: str, call_id: str | None) -> str:
    async with app.state.db.sessionmaker() as session:
        run = LabRun(user_id=user_id, agent_id=agent_id, agent_settings={}, status="passed")
        session.add(run)
        await session.flush()
        result = LabResult(
            run_id=run.id,
            position=0,
            scenario=Scenario.model_validate(SCENARIO).model_dump(mode="json"),
            call_id=call_id,
            status="passed",
            checks=[],
        )
        session.add(result)
        await session.commit()
        return result.id


async def test_a_result_s_call_is_the_judge_s_record_for_its_owner_alone(app: FastAPI) -> None:
    client, user = await signed_in(app, "lab-result@example.com")
    async with client:
        agent = await _agent(client)
        talk = [("assistant", "Hi, I'm an AI assistant."), ("user", "Yes, that works.")]
        call_id = await finished_call(app, None, talk, kind="lab")
        result_id = await _result(app, user.id, agent["id"], call_id)
        read = await client.api("GET", f"lab/results/{result_id}/call")
        assert read.status_code == 200, read.text
        data = read.json()["data"]
        assert data["call_id"] == call_id
        assert data["outcome"] == "completed"
        assert [(line["speaker"], line["text"]) for line in data["lines"]] == [
            ("agent", "Hi, I'm an AI assistant."),
            ("callee", "Yes, that works."),
        ]
        assert data["recording_url"] is None
        missing = await client.api("GET", f"lab/results/{result_id}/recording")
        assert missing.status_code == 404

        waiting = await _result(app, user.id, agent["id"], None)
        none = await client.api("GET", f"lab/results/{waiting}/call")
        assert none.status_code == 404
        assert none.json()["message"] == "This scenario has no call yet."
        other, _ = await signed_in(app, "lab-result-other@example.com")
        async with other:
            assert (await other.api("GET", f"lab/results/{result_id}/call")).status_code == 404


async def test_runs_are_compared_on_the_scenarios_both_ran(app: FastAPI) -> None:
    client, user = await signed_in(app, "lab-compare-both@example.com")
    async with client:
        agent = await _agent(client)
    outs = []
    async with app.state.db.sessionmaker() as session:
        for names, passed in ((["Confirms", "Declines"], True), (["Confirms", "Opts out"], False)):
            run = LabRun(user_id=user.id, agent_id=agent["id"], agent_settings={}, status="passed")
            session.add(run)
            await session.flush()
            for position, name in enumerate(names):
                evidence = Evidence(kind="line", index=0, at=1.0, text="Hello.")
                check = Check(
                    expectation="says[0]", passed=passed, expected="x", found="y", evidence=evidence
                )
                session.add(
                    LabResult(
                        run_id=run.id,
                        position=position,
                        scenario=Scenario.model_validate(SCENARIO | {"name": name}).model_dump(
                            mode="json"
                        ),
                        status="passed" if passed else "failed",
                        checks=[check.model_dump(mode="json")],
                    )
                )
            await session.flush()
            outs.append(await run_out(session, run))
        await session.commit()
    compared = compare(outs[0], outs[1])
    assert [(c.scenario, c.expectation) for c in compared.changed] == [("Confirms", "says[0]")]
    change = compared.changed[0]
    assert (change.before_result_id, change.after_result_id) == (
        outs[0].results[0].id,
        outs[1].results[0].id,
    )
    assert (compared.only_before, compared.only_after) == (["Declines"], ["Opts out"])
