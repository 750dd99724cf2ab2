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


def test_sandbox_number_plan_is_documented() -> None:
    import re

    from callwright.sandbox.numbers import SCENARIOS, SPECIAL, persona_for

    page = (REPO_ROOT / "docs" / "sandbox.md").read_text()
    for number in SPECIAL:
        assert f"`{number}`" in page, number
    examples = re.findall(r"\| (\d) \| `(\+\d+)` \|", page)
    assert len(examples) == len(SCENARIOS)
    for index, number in examples:
        assert persona_for(number) is SCENARIOS[int(index)], number
