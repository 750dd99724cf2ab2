"""A suite run as real sandbox calls (docs/lab.md): two scenarios placed at once as lab calls
with their callees as data, judged from the finished calls, passing; then the agent's prompt
names another business, and a run through `callwright test-agent` (over `/v1` with an API key)
fails exactly the expectation that checks the name, writes JUnit XML that junitparser reads,
and exits 1; the comparison of the two runs names that check and the setting."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from junitparser import JUnitXml

from callwright.lab.cli import run_and_report
from callwright.voice_agent.policy import OPT_OUT_REPLY
from tests.factories import add_api_key, make_client, signed_in
from tests.lab.runs import finished_run
from tests.live import Live, decode_mp3

pytestmark = pytest.mark.asyncio(loop_scope="session")

PROMPT = (
    "You are Sarah from Bright Dental. You are calling to confirm a cleaning appointment "
    "tomorrow at 3 pm. Ask if the time still works for them."
)
AGENT = {
    "name": "Confirmations",
    "prompt": PROMPT,
    "voice": "joe",
    "max_duration": 2,
}
CONFIRMS: dict[str, Any] = {
    "name": "Confirms",
    "callee": {"kind": "person", "lines": ["Yes, that works for me.", "Thanks, bye."]},
    # (No outcome expected: whether the agent or this callee, out of lines, ends the call first
    # varies from run to run; the checks below do not.)
    "expect": {
        "says": [{"phrase": "Bright Dental", "within_seconds": 20}],
        "never_says": ["guaranteed"],
        "transferred": False,
        "max_call_seconds": 120,
    },
}
OPTS_OUT: dict[str, Any] = {
    "name": "Opts out",
    "callee": {
        "kind": "opts-out",
        "lines": ["Please stop calling me and take me off your list.", "Bye."],
    },
    "expect": {"says": [{"phrase": OPT_OUT_REPLY.split(".")[0]}]},
}


async def test_a_suite_runs_and_a_changed_version_fails_exactly_its_check(
    live: Live, tmp_path: Path
) -> None:
    client, user = await signed_in(live.app, "lab-runs@example.com")
    async with client:
        made = await client.api("POST", "agents", json=AGENT)
        agent = made.json()["data"]
        ids = []
        for scenario in (CONFIRMS, OPTS_OUT):
            added = await client.api("POST", f"agents/{agent['id']}/lab/scenarios", json=scenario)
            ids.append(added.json()["data"]["id"])
        started = await client.api("POST", f"agents/{agent['id']}/lab/runs", json={})
        assert started.status_code == 201, started.text
        first = await finished_run(client, started.json()["data"]["id"])
        told = "\n".join(
            f"{r['scenario']['name']}: {r['status']} {r['checks']}" for r in first["results"]
        )
        assert first["status"] == "passed", told
        assert [r["status"] for r in first["results"]] == ["passed", "passed"], told
        confirms = first["results"][0]
        assert [c["expectation"] for c in confirms["checks"]] == [
            "says[0]", "never_says[0]", "transferred", "max_call_seconds"
        ]  # fmt: skip
        said = confirms["checks"][0]["evidence"]
        assert said["kind"] == "line"
        assert "Bright Dental" in said["text"]
        # The result keeps its call's recording, served to its owner, as long as the call.
        recording = await client.api("GET", f"lab/results/{confirms['id']}/recording")
        assert recording.status_code == 200, recording.text
        assert recording.headers["content-type"] == "audio/mpeg"
        samples, rate = decode_mp3(recording.content)
        assert len(samples) / rate > 5

        # A new version: the business's name changed in the prompt.
        body = AGENT | {"prompt": PROMPT.replace("Bright Dental", "Sunny Dental")}
        assert (await client.api("PUT", f"agents/{agent['id']}", json=body)).status_code == 200
    key = await add_api_key(live.app, user)
    junit = tmp_path / "lab.xml"
    lines: list[str] = []
    code = await asyncio.to_thread(
        run_and_report, live.url, key, agent["id"], junit, within=240, say=lines.append
    )
    assert code == 1, lines
    xml = JUnitXml.fromfile(str(junit))
    cases = [case for suite in xml for case in suite]
    failed = [case for case in cases if not case.is_passed]
    assert [case.name for case in failed] == ["Confirms"], lines
    assert "says[0]" in failed[0].result[0].message
    again = make_client(live.app)
    again.token = client.token
    async with again:
        runs = (await again.api("GET", f"agents/{agent['id']}/lab/runs")).json()["data"]
        assert [r["source"] for r in runs] == ["api", "app"]
        compared = await again.api("GET", f"lab/runs/{runs[1]['id']}/compare/{runs[0]['id']}")
    data = compared.json()["data"]
    assert [(c["scenario"], c["expectation"]) for c in data["changed"]] == [("Confirms", "says[0]")]
    assert data["settings_changed"]["prompt"] == [PROMPT, body["prompt"]]
