"""The CLI: seeding is idempotent and prints usable credentials; production refuses defaults."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import ValidationError
from typer.testing import CliRunner

from callwright import cli_call
from callwright.cli import app as cli
from callwright.cli_call import CallOptions
from callwright.config import Settings, get_settings
from callwright.kit.phone import DIAL_FORMAT
from callwright.kit.serving import free_port
from tests.factories import ARABIC_INDIC, FULLWIDTH, in_digits

runner = CliRunner()


@pytest.fixture
def cli_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("CALLWRIGHT_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("CALLWRIGHT_DATABASE_URL", raising=False)
    monkeypatch.delenv("CALLWRIGHT_SECRET_KEY", raising=False)
    for name in ("ADMIN_PASSWORD", "DEMO_PASSWORD", "ADMIN_EMAIL", "DEMO_EMAIL"):
        monkeypatch.delenv(f"CALLWRIGHT_{name}", raising=False)
    get_settings.cache_clear()
    yield tmp_path
    get_settings.cache_clear()


def _passwords(output: str) -> dict[str, str]:
    out = {}
    for line in output.splitlines():
        if "password:" in line:
            parts = line.split()
            out[parts[1]] = parts[parts.index("password:") + 1]
    return out


def test_migrate_seed_is_idempotent_and_env_wins(
    cli_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert runner.invoke(cli, ["migrate"]).exit_code == 0
    first = runner.invoke(cli, ["seed"])
    assert first.exit_code == 0, first.output
    generated = _passwords(first.output)
    assert set(generated) == {"admin@callwright.app", "demo@callwright.app"}
    assert "(created, generated)" in first.output
    second = runner.invoke(cli, ["seed"])
    assert _passwords(second.output) == generated, (
        "a second run prints the same, still valid, passwords"
    )
    assert "(ready, generated)" in second.output
    assert (cli_env / "seed-credentials.json").stat().st_mode & 0o777 == 0o600
    # The install's own secret, made by the first run and kept for the next ones.
    secret = cli_env / "secret_key"
    assert secret.stat().st_mode & 0o777 == 0o600
    get_settings.cache_clear()
    assert get_settings().secret_key == secret.read_text().strip()

    monkeypatch.setenv("CALLWRIGHT_ADMIN_PASSWORD", "FromTheEnv123")
    get_settings.cache_clear()
    third = runner.invoke(cli, ["seed"])
    assert _passwords(third.output)["admin@callwright.app"] == "FromTheEnv123"
    assert "(ready, environment)" in third.output


def test_create_admin_and_mail(cli_env: Path) -> None:
    runner.invoke(cli, ["migrate"])
    bad = runner.invoke(cli, ["create-admin", "--email", "nope", "--password", "long enough"])
    assert bad.exit_code != 0
    ok = runner.invoke(
        cli, ["create-admin", "--email", "Boss@Example.com", "--password", "long enough"]
    )
    assert ok.exit_code == 0
    assert "admin boss@example.com created" in ok.output
    again = runner.invoke(
        cli, ["create-admin", "--email", "boss@example.com", "--password", "long enough"]
    )
    assert "updated" in again.output
    empty = runner.invoke(cli, ["mail"])
    assert "the outbox is empty" in empty.output


STRONG_KEY = "Kq3v9TzL0pXw7RbN2sYc5HdA8mFj1UeG"


def test_production_refuses_default_secret() -> None:
    with pytest.raises(ValidationError, match="CALLWRIGHT_SECRET_KEY"):
        Settings(env="production", smtp_host="smtp.example.com")
    with pytest.raises(ValidationError, match="CALLWRIGHT_SMTP_HOST"):
        Settings(env="production", secret_key=STRONG_KEY)
    assert (
        Settings(env="production", secret_key=STRONG_KEY, smtp_host="smtp.example.com").env
        == "production"
    )


@pytest.mark.parametrize(
    "number",
    [in_digits("+15551230000", ARABIC_INDIC), in_digits("+15551230000", FULLWIDTH)],
)
def test_call_dials_the_number_in_e164(number: str, monkeypatch: pytest.MonkeyPatch) -> None:
    placed: list[str] = []

    async def run(options: CallOptions) -> int:
        placed.append(options.to)
        return 0

    monkeypatch.setattr(cli_call, "_run", run)
    result = runner.invoke(cli, ["call", number])
    assert result.exit_code == 0, result.output
    assert placed == ["+15551230000"]


@pytest.mark.parametrize(
    ("number", "message"),
    [
        ("+1 555 0000", DIAL_FORMAT),
        ("+1555123", DIAL_FORMAT),
        ("+99912345678", DIAL_FORMAT),
    ],
)
def test_call_refuses_a_number_the_api_refuses(number: str, message: str) -> None:
    result = runner.invoke(cli, ["call", number])
    assert result.exit_code == 2
    assert message in result.output


def test_test_agent_passes_its_options_and_exits_with_the_run_s_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The command's options reach the run (the run itself: tests/lab/test_lab_runs.py), and
    its exit code is the run's: 1 when a scenario failed."""
    seen: dict[str, object] = {}

    def run_and_report(url: str, key: str, agent: str, junit: Path, **kw: object) -> int:
        seen.update(url=url, key=key, agent=agent, junit=junit, **kw)
        return 1

    monkeypatch.setattr("callwright.lab.cli.run_and_report", run_and_report)
    report = tmp_path / "lab.xml"
    args = ["test-agent", "ag_1", "--junit", str(report), "--suite", "starter"]
    result = runner.invoke(
        cli,
        [*args, "--timeout", "60"],
        env={"CALLWRIGHT_API_KEY": "cw_key", "CALLWRIGHT_URL": "http://h:1"},
    )
    assert result.exit_code == 1, result.output
    assert {k: seen[k] for k in ("url", "key", "agent", "junit", "within", "suite")} == {
        "url": "http://h:1",
        "key": "cw_key",
        "agent": "ag_1",
        "junit": report,
        "within": 60,
        "suite": "starter",
    }


def test_test_agent_exits_2_without_a_key_or_a_server(tmp_path: Path) -> None:
    """A pipeline tells "the suite failed" (1) from "the lab could not run" (2)."""
    report = tmp_path / "lab.xml"
    keyless = runner.invoke(
        cli, ["test-agent", "ag_1", "--junit", str(report)], env={"CALLWRIGHT_API_KEY": ""}
    )
    assert keyless.exit_code == 2
    assert "an API key is needed" in keyless.output
    closed = f"http://127.0.0.1:{free_port()}"
    unreachable = runner.invoke(
        cli, ["test-agent", "ag_1", "--junit", str(report), "--url", closed, "--api-key", "cw_key"]
    )
    assert unreachable.exit_code == 2
    assert unreachable.output.startswith("test-agent: ")
    assert not report.exists()
