"""Documentation that must not drift from the code."""

from __future__ import annotations

from callwright.config import REPO_ROOT, Settings


def test_every_setting_is_documented() -> None:
    page = (REPO_ROOT / "docs" / "configuration.md").read_text()
    missing = [
        f"CALLWRIGHT_{name.upper()}"
        for name in Settings.model_fields
        if f"`CALLWRIGHT_{name.upper()}`" not in page
    ]
    assert missing == [], f"add these to docs/configuration.md: {missing}"


def test_readme_opens_with_the_two_commands() -> None:
    head = (REPO_ROOT / "README.md").read_text()[:3000]
    assert "scripts/run.sh" in head
    assert "scripts/test.sh" in head
