"""The CLI: seeding is idempotent and prints usable credentials; production refuses defaults."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import ValidationError
from typer.testing import CliRunner

from callwright.cli import app as cli
from callwright.config import Settings, get_settings

runner = CliRunner()


@pytest.fixture
def cli_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("CALLWRIGHT_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("CALLWRIGHT_DATABASE_URL", raising=False)
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


def test_production_refuses_default_secret() -> None:
    with pytest.raises(ValidationError, match="CALLWRIGHT_SECRET_KEY"):
        Settings(env="production", smtp_host="smtp.example.com")
    with pytest.raises(ValidationError, match="CALLWRIGHT_SMTP_HOST"):
        Settings(env="production", secret_key="x" * 40)
    assert (
        Settings(env="production", secret_key="x" * 40, smtp_host="smtp.example.com").env
        == "production"
    )
