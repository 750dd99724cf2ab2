"""The agent lab's web API (docs/lab.md) without calls: an agent's scenarios kept as written,
refused when malformed, reached only by their owner; the starter suite added once; a run
refused with nothing to run or past the daily quota; two runs compared."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from fastapi import FastAPI

from callwright.kit.time import utcnow
from callwright.lab.contract import Check, Evidence, Scenario
from callwright.lab.runner import LabQuotaExceeded, LabRunner, Pin, calls_today, start
from callwright.lab.views import compare, run_out
from callwright.models import LabResult, LabRun
from tests.agents.test_agents_api import agent_body
from tests.factories import ApiClient, make_client, signed_in

pytestmark = pytest.mark.asyncio

SCENARIO: dict[str, Any] = {
    "name": "Confirms",
    "callee": {"kind": "person", "label": "confirms", "lines": ["Yes, that works.", "Bye."]},
    "expect": {
        "outcome": "completed",
        "says": [{"phrase": "I'm an AI assistant", "within_seconds": 10}],
        "never_says": ["guaranteed"],
    },
    "variables": {"name": "Ann", "day": "Friday"},
}


async def _agent(client: ApiClient, **fields: Any) -> str:
    made = await client.api("POST", "agents", json=agent_body(**fields))
    assert made.status_code == 201, made.text
    return str(made.json()["data"]["id"])


async def test_scenarios_are_kept_as_written_and_only_their_owner_reaches_them(
    app: FastAPI,
) -> None:
    client, _ = await signed_in(app, "lab-owner@example.com")
    other, _ = await signed_in(app, "lab-other@example.com")
    async with client, other:
        agent_id = await _agent(client)
        made = await client.api("POST", f"agents/{agent_id}/lab/scenarios", json=SCENARIO)
        assert made.status_code == 201, made.text
        scenario = made.json()["data"]
        assert Scenario.model_validate(
            {k: scenario[k] for k in ("name", "callee", "expect", "variables")}
        ) == Scenario.model_validate(SCENARIO)
        listed = await client.api("GET", f"agents/{agent_id}/lab/scenarios")
        assert [s["id"] for s in listed.json()["data"]] == [scenario["id"]]

        changed = SCENARIO | {"name": "Confirms politely"}
        saved = await client.api("PUT", f"lab/scenarios/{scenario['id']}", json=changed)
        assert saved.json()["data"]["name"] == "Confirms politely"

        bad = SCENARIO | {"callee": {"kind": "robot", "lines": ["x" * 501]}}
        refused = await client.api("POST", f"agents/{agent_id}/lab/scenarios", json=bad)
        assert refused.status_code == 422
        assert any(k.startswith("callee") for k in refused.json()["errors"]), refused.text

        assert (await other.api("GET", f"agents/{agent_id}/lab/scenarios")).status_code == 404
        put = await other.api("PUT", f"lab/scenarios/{scenario['id']}", json=SCENARIO)
        assert put.status_code == 404
        assert (await other.api("DELETE", f"lab/scenarios/{scenario['id']}")).status_code == 404

        deleted = await client.api("DELETE", f"lab/scenarios/{scenario['id']}")
        assert deleted.status_code == 200
        assert (await client.api("GET", f"agents/{agent_id}/lab/scenarios")).json()["data"] == []


async def test_the_starter_suite_is_added_once(app: FastAPI) -> None:
    client, _ = await signed_in(app, "lab-starter@example.com")
    async with client:
        agent_id = await _agent(client, transfer_number="+15005550011")
        first = await client.api("POST", f"agents/{agent_id}/lab/starter")
        assert first.status_code == 201, first.text
        names = [s["name"] for s in first.json()["data"]]
        assert len(names) >= 8, names
        again = await client.api("POST", f"agents/{agent_id}/lab/starter")
        assert again.json()["data"] == []
        assert again.json()["message"] == "The suite has every starter scenario"
        listed = await client.api("GET", f"agents/{agent_id}/lab/scenarios")
        assert [s["name"] for s in listed.json()["data"]] == names


async def test_a_run_needs_a_scenario_and_stays_within_the_daily_quota(app: FastAPI) -> None:
    client, _ = await signed_in(app, "lab-quota@example.com")
    async with client:
        agent_id = await _agent(client)
        empty = await client.api("POST", f"agents/{agent_id}/lab/runs", json={})
        assert empty.status_code == 422
        assert empty.json()["errors"] == {"scenarios": ["The suite has no scenario to run."]}
        await client.api("POST", f"agents/{agent_id}/lab/scenarios", json=SCENARIO)
        app.state.settings.lab_calls_per_day, quota = 0, app.state.settings.lab_calls_per_day
        try:  # the default quota (200) is not reached by a test: set to none left
            over = await client.api("POST", f"agents/{agent_id}/lab/runs", json={})
        finally:
            app.state.settings.lab_calls_per_day = quota
        assert over.status_code == 422
        assert over.json()["errors"] == {
            "scenarios": ["The lab places at most 0 calls a day: 0 left today."]
        }
        runs = await client.api("GET", f"agents/{agent_id}/lab/runs")
        assert runs.json()["data"] == []


async def test_runs_started_together_share_what_is_left_of_the_quota(app: FastAPI) -> None:
    """Two runs of two scenarios started at once with three calls left: each fits alone, not
    both; one is refused, whichever counted second (each holds its transaction open a moment
    after counting, the window in which an unlocked count let both through)."""
    _, user = await signed_in(app, "lab-race@example.com")
    pin = Pin(user.id, None, None, {}, None, None)
    scenarios = [(None, Scenario.model_validate(SCENARIO))] * 2

    async def started() -> str:
        async with app.state.db.sessionmaker() as session:
            run = await start(session, pin, scenarios, quota=3, source="web")
            await asyncio.sleep(0.3)
            await session.commit()
            return run.id

    outcomes = await asyncio.gather(started(), started(), return_exceptions=True)
    refused = [o for o in outcomes if isinstance(o, LabQuotaExceeded)]
    assert len(refused) == 1, outcomes
    assert refused[0].errors == {
        "scenarios": ["The lab places at most 3 calls a day: 1 left today."]
    }
    async with app.state.db.sessionmaker() as session:
        assert await calls_today(session, user.id) == 2


async def test_runs_at_once_share_the_lab_s_concurrency(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two runs of three in one process with a bound of 2: never more than 2 calls at once."""
    lab = LabRunner(None, None, None, concurrency=2)  # type: ignore[arg-type]
    calling, most = 0, 0

    async def call(_run: LabRun, _result_id: str) -> None:
        nonlocal calling, most
        calling += 1
        most = max(most, calling)
        await asyncio.sleep(0.05)
        calling -= 1

    monkeypatch.setattr(lab, "_call_and_judge", call)
    runs = [LabRun(id="a"), LabRun(id="b")]
    await asyncio.gather(*(lab._scenario(run, str(i), 0) for run in runs for i in range(3)))
    assert most == 2


def _check(name: str, passed: bool, text: str) -> dict[str, Any]:
    evidence = Evidence(kind="line", index=0, at=1.0, text=text)
    return Check(
        expectation=name, passed=passed, expected="x", found=text, evidence=evidence
    ).model_dump(mode="json")


async def test_two_runs_compared_show_the_changed_setting_and_check(app: FastAPI) -> None:
    client, user = await signed_in(app, "lab-compare@example.com")
    async with client:
        agent_id = await _agent(client)
    async with app.state.db.sessionmaker() as session:
        runs = []
        for disclosure, passed in (
            ("I'm an AI assistant, and this call is recorded.", True),
            ("I'm an AI assistant.", False),
        ):
            run = LabRun(
                user_id=user.id,
                agent_id=agent_id,
                agent_settings={"prompt": "same", "disclosure": disclosure},
                status="passed" if passed else "failed",
                source="app",
                finished_at=utcnow(),
            )
            session.add(run)
            await session.flush()
            checks = [
                _check("outcome", True, "completed"),
                _check("says[0]", passed, "Hi, I'm an AI assistant."),
            ]
            session.add(
                LabResult(
                    run_id=run.id,
                    position=0,
                    scenario=Scenario.model_validate(SCENARIO).model_dump(mode="json"),
                    status="passed" if passed else "failed",
                    checks=checks,
                )
            )
            await session.flush()
            runs.append(await run_out(session, run))
        await session.commit()
    compared = compare(runs[0], runs[1])
    assert compared.settings_changed == {
        "disclosure": ["I'm an AI assistant, and this call is recorded.", "I'm an AI assistant."]
    }
    assert [(c.scenario, c.expectation) for c in compared.changed] == [("Confirms", "says[0]")]
    change = compared.changed[0]
    assert change.before is not None
    assert change.before.passed
    assert change.after is not None
    assert not change.after.passed
    assert change.after.evidence is not None
    again = make_client(app)
    again.token = client.token
    async with again:
        read = await again.api("GET", f"lab/runs/{runs[0].id}/compare/{runs[1].id}")
    assert read.status_code == 200, read.text
    assert read.json()["data"]["changed"][0]["expectation"] == "says[0]"
    # A flow's runs: the flow's published version each ran is a setting that changed.
    flow_runs = [
        runs[0].model_copy(update={"flow_id": "flow_1", "flow_version": v}) for v in (3, 4)
    ]
    assert compare(*flow_runs).settings_changed["flow_version"] == [3, 4]
