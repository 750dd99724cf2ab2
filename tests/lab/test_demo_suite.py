"""Issue 32's first "done" line, as real sandbox calls (docs/lab.md): the demo user's agent, as
`callwright seed` makes it, gets its starter suite (eight callees); a run places all eight at
once (the default concurrency) and every scenario passes. Then a new version of the agent
says a disclosure in other words: a run of the happy path fails exactly the check of the
disclosure, and the comparison names that check, the setting, and the line the agent said in
each version where the disclosure was due.

Its own app, at the sandbox's default speed (real time): the `live` app's calls run at twice
real time, and eight of them at once would be the work of sixteen on two cores."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from fastapi import FastAPI

from callwright import roles
from callwright.agents.schemas import AgentIn
from callwright.config import Settings
from callwright.kit.serving import free_port, serving
from callwright.lab.starter import AGENT_SUITE
from callwright.main import create_app
from callwright.seed import seed
from tests.factories import ApiClient, make_client, wipe

# Eight calls at once show what the box holds: the `alone` mark keeps it out of the `calls`
# part; the test command runs it as a part of its own with the machine to itself (docs/lab.md,
# "Eight at once"): CALLWRIGHT_TEST_PART=alone .venv/bin/pytest.
pytestmark = [
    pytest.mark.asyncio(loop_scope="session"),
    pytest.mark.conversation,
    pytest.mark.alone,
]

#: The new version's disclosure: it still says the caller is automated (the product refuses
#: one that does not), in words the starter's expectation does not have.
OTHER_WORDS = "This is an automated call, and it is recorded."


async def _finished(
    client: ApiClient, run_id: str, within: float = 300
) -> tuple[dict[str, Any], int]:
    """The run once it ended, and the most of its scenarios seen calling at once."""
    loop = asyncio.get_running_loop()
    deadline, most = loop.time() + within, 0
    while loop.time() < deadline:
        run: dict[str, Any] = (await client.api("GET", f"lab/runs/{run_id}")).json()["data"]
        most = max(most, sum(r["status"] == "calling" for r in run["results"]))
        if run["status"] != "running":
            return run, most
        await asyncio.sleep(0.5)
    raise AssertionError(f"the run {run_id} did not end within {within} s")


def _told(run: dict[str, Any]) -> str:
    return "\n".join(
        f"{r['scenario']['name']}: {r['status']} {r['error'] or ''} "
        + "; ".join(f"{c['expectation']} {c['passed']} {c['found']}" for c in r["checks"])
        for r in run["results"]
    )


async def test_the_demo_agent_s_starter_suite_passes_eight_at_once(migrated: Settings) -> None:
    port = free_port()
    settings = migrated.model_copy(update={"app_url": f"http://127.0.0.1:{port}", "port": port})
    assert (settings.sandbox_speed, settings.lab_concurrency) == (1.0, 8), "the defaults"
    app = create_app(settings)
    async with serving(app.state.realtime.wrap(app), port):
        # From an empty database, as every test (the live app's calls share this one).
        await wipe(app.state.db)
        await asyncio.to_thread(roles.warm_up, app.state.voice_engines)
        await _demo_suite(app)


async def _demo_suite(app: FastAPI) -> None:
    async with app.state.db.sessionmaker() as session:
        accounts = await seed(session, app.state.settings)
        await session.commit()
    demo = next(a for a in accounts if a.role == "user")
    client = make_client(app)
    async with client:
        await client.login(demo.email, demo.password)
        [agent] = (await client.api("GET", "agents")).json()["data"]
        added = await client.api("POST", f"agents/{agent['id']}/lab/starter")
        scenarios = added.json()["data"]
        assert [s["suite"] for s in scenarios] == [AGENT_SUITE] * 8, added.text

        started = await client.api("POST", f"agents/{agent['id']}/lab/runs", json={})
        assert started.status_code == 201, started.text
        first, most = await _finished(client, started.json()["data"]["id"])
        assert first["status"] == "passed", _told(first)
        assert most == 8, f"at most {most} scenarios were calling at once"
        assert first["agent_version"] == 1

        # The next version says its disclosure in other words.
        shown = (await client.api("GET", f"agents/{agent['id']}")).json()["data"]
        body = {k: v for k, v in shown.items() if k in AgentIn.model_fields}  # what a save sends
        body["disclosure"] = OTHER_WORDS
        saved = await client.api("PUT", f"agents/{agent['id']}", json=body)
        assert saved.status_code == 200, saved.text
        happy = next(s["id"] for s in scenarios if s["name"] == "Happy path")
        again = await client.api(
            "POST", f"agents/{agent['id']}/lab/runs", json={"scenario_ids": [happy]}
        )
        second, _ = await _finished(client, again.json()["data"]["id"])
        assert second["agent_version"] == 2
        [result] = second["results"]
        failed = [c["expectation"] for c in result["checks"] if not c["passed"]]
        assert failed == ["says[0]"], _told(second)

        compared = await client.api("GET", f"lab/runs/{first['id']}/compare/{second['id']}")
    data = compared.json()["data"]
    assert [(c["scenario"], c["expectation"]) for c in data["changed"]] == [
        ("Happy path", "says[0]")
    ]
    assert data["settings_changed"]["disclosure"] == [None, OTHER_WORDS]
    change = data["changed"][0]
    assert "I'm an AI assistant" in change["before"]["evidence"]["text"]
    assert "automated call" in change["after"]["evidence"]["text"], change["after"]
    assert len(data["only_before"]) == 7
