"""The install's secret: generated once, owner-only, reused; known or weak keys refused."""

from __future__ import annotations

import stat
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from callwright.config import DEV_SECRET_KEY, SECRET_FILE, Settings


def test_an_install_without_a_key_generates_its_own_once(tmp_path: Path) -> None:
    first = Settings(env="development", data_dir=tmp_path)
    kept = tmp_path / SECRET_FILE
    assert kept.is_file()
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert first.secret_key == kept.read_text().strip()
    assert len(first.secret_key) >= 32
    assert first.secret_key != DEV_SECRET_KEY
    again = Settings(env="development", data_dir=tmp_path)
    assert again.secret_key == first.secret_key
    other_install = Settings(env="development", data_dir=tmp_path / "other")
    assert other_install.secret_key != first.secret_key


def test_a_kept_key_readable_by_others_is_tightened(tmp_path: Path) -> None:
    key = Settings(env="development", data_dir=tmp_path).secret_key
    kept = tmp_path / SECRET_FILE
    kept.chmod(0o644)
    assert Settings(env="development", data_dir=tmp_path).secret_key == key
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600


@pytest.mark.parametrize("key", [DEV_SECRET_KEY, "short-key", "x" * 40, "ab" * 20])
@pytest.mark.parametrize("env", ["development", "test", "production"])
def test_known_or_weak_keys_are_refused_everywhere(env: str, key: str, tmp_path: Path) -> None:
    with pytest.raises(ValidationError, match="CALLWRIGHT_SECRET_KEY"):
        Settings(env=env, secret_key=key, data_dir=tmp_path, smtp_host="smtp.example.com")


def test_production_never_generates_a_key(tmp_path: Path) -> None:
    with pytest.raises(ValidationError, match="CALLWRIGHT_SECRET_KEY"):
        Settings(env="production", data_dir=tmp_path, smtp_host="smtp.example.com")
    assert not (tmp_path / SECRET_FILE).exists()


def test_a_damaged_key_file_is_not_used(tmp_path: Path) -> None:
    (tmp_path / SECRET_FILE).write_text("\n")
    with pytest.raises(ValidationError, match="does not hold a usable secret"):
        Settings(env="development", data_dir=tmp_path)


#: A key that passes the strength check (random-looking, 40 characters).
KEY = "k3Y-for-tests-9f8e7d6c5b4a39281706fedcba"


def test_caller_ids_are_kept_in_e164() -> None:
    settings = Settings(env="test", secret_key=KEY, sandbox_from_number="+1 888 555 0100")
    assert settings.sandbox_from_number == "+18885550100"
    with pytest.raises(ValidationError, match="not a phone number"):
        Settings(env="test", secret_key=KEY, twilio_from_number="+999 123")


def test_a_lab_calls_media_goes_to_the_app_while_it_hosts_calls_else_the_voice_processes() -> None:
    """On a Twilio install `media_url` is Twilio's way in; the sandbox network sends a lab
    call's media to `lab_media_url`, else the app itself while it hosts calls, else to
    `media_url` (docs/lab.md, "The lab on a Twilio install")."""
    app, voice = "https://calls.example.com", "https://voice.example.com/"

    def twilio(**fields: Any) -> Settings:
        return Settings(env="test", secret_key=KEY, carrier="twilio", app_url=app, **fields)

    settings = twilio(media_url=voice)
    assert (settings.media_base_url, settings.lab_media_base_url) == (voice.rstrip("/"), app)
    separate = twilio(media_url=voice, host_calls=False)
    assert separate.lab_media_base_url == voice.rstrip("/")
    inside = "http://voice.internal:8100/"
    named = twilio(media_url=voice, host_calls=False, lab_media_url=inside)
    assert named.lab_media_base_url == "http://voice.internal:8100"
