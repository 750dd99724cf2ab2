"""`callwright test-agent` (docs/lab.md, "In CI"): runs an agent's suite on a Callwright
server through `/v1` with an API key, waits for the run to end, writes it as JUnit XML and exits
non-zero when a scenario failed, so a business's pipeline can gate a prompt change on it."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from callwright.lab.junit import ScenarioResult, SuiteResult, write_junit
from callwright.lab.schemas import ResultOut, RunOut

#: Seconds between two reads of a running run.
POLL_SECONDS = 2.0


class LabClientError(RuntimeError):
    """The server refused or could not be reached: its message."""


def _message(response: httpx.Response) -> str:
    try:
        body: dict[str, Any] = response.json()
    except ValueError:
        return f"HTTP {response.status_code}"
    errors = body.get("errors") or {}
    details = "; ".join(m for messages in errors.values() for m in messages)
    return str(body.get("message") or f"HTTP {response.status_code}") + (
        f" ({details})" if details else ""
    )


def suite_result(run: RunOut) -> SuiteResult:
    """The run as the JUnit writer takes it: the agent's suite, a result per scenario."""

    def scenario(result: ResultOut) -> ScenarioResult:
        seconds = None
        if result.started_at is not None and result.finished_at is not None:
            seconds = (result.finished_at - result.started_at).total_seconds()
        unjudged = None if result.checks else "the scenario was not judged"
        return ScenarioResult(
            name=result.scenario.name,
            checks=result.checks,
            call_id=result.call_id,
            seconds=seconds,
            error=result.error or (unjudged if result.status not in ("passed",) else None),
        )

    name = str(run.agent_settings.get("name") or run.agent_id)
    return SuiteResult(name=name, scenarios=[scenario(r) for r in run.results])


def run_suite(
    client: httpx.Client,
    agent_id: str,
    *,
    within: float,
    scenario_ids: list[str] | None = None,
    suite: str | None = None,
    say: Callable[[str], None] = print,
    sleep: Callable[[float], None] = time.sleep,
) -> RunOut:
    """Starts the run (of the scenarios named, or of one suite, else of all) and reads it until
    it ends (LabClientError on a refusal, TimeoutError after `within` seconds)."""
    body = {"scenario_ids": scenario_ids, "suite": suite}
    started = client.post(f"/v1/agents/{agent_id}/tests/run", json=body)
    if started.status_code != 201:
        raise LabClientError(_message(started))
    run = RunOut.model_validate(started.json()["data"])
    say(f"run {run.id}: {run.scenario_count} scenarios")
    deadline = time.monotonic() + within
    done = 0
    while run.status == "running":
        if time.monotonic() > deadline:
            raise TimeoutError(f"the run {run.id} did not end within {within:.0f} s")
        sleep(POLL_SECONDS)
        read = client.get(f"/v1/agents/{agent_id}/tests/runs/{run.id}")
        if read.status_code != 200:
            raise LabClientError(_message(read))
        run = RunOut.model_validate(read.json()["data"])
        finished = [r for r in run.results if r.status in ("passed", "failed", "error")]
        for result in finished[done:]:
            say(f"  {result.status:6}  {result.scenario.name}")
        done = len(finished)
    return run


def run_and_report(
    base_url: str,
    api_key: str,
    agent_id: str,
    junit: Path,
    *,
    within: float = 1800,
    suite: str | None = None,
    say: Callable[[str], None] = print,
    transport: httpx.BaseTransport | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> int:
    """The command: 0 when every scenario passed, 1 when one failed or could not run (`suite`:
    only that suite's scenarios); LabClientError when the server refused or was not reached,
    which the command tells apart (exit 2)."""
    headers = {"Authorization": api_key}
    with httpx.Client(
        base_url=base_url, headers=headers, timeout=30, transport=transport
    ) as client:
        try:
            run = run_suite(client, agent_id, within=within, suite=suite, say=say, sleep=sleep)
        except httpx.TransportError as exc:
            raise LabClientError(f"{base_url} could not be reached: {exc}") from exc
    write_junit([suite_result(run)], junit)
    say(f"{run.passed_count} passed, {run.failed_count} failed: {run.status}; wrote {junit}")
    return 0 if run.status == "passed" else 1
