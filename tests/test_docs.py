"""Documentation that must not drift from the code."""

from __future__ import annotations

import re

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
    from callwright.sandbox.numbers import SCENARIOS, SPECIAL, persona_for

    page = (REPO_ROOT / "docs" / "sandbox.md").read_text()
    for number in SPECIAL:
        assert f"`{number}`" in page, number
    examples = re.findall(r"\| (\d) \| `(\+\d+)` \|", page)
    assert len(examples) == len(SCENARIOS)
    for index, number in examples:
        assert persona_for(number) is SCENARIOS[int(index)], number


#: Where a path that docs/development.md names may be read from.
_ROOTS = ("", "src/callwright", "src", "frontend", "frontend/src", "tests")
_FILE = re.compile(r"\.(py|ts|tsx|js|mjs|css|md|sh|json|ini|toml)$")


def _exists(name: str) -> bool:
    if any((REPO_ROOT / root / name).exists() for root in _ROOTS):
        return True
    # a module's name alone (`service.py`): one of that name somewhere
    return "/" not in name and any(
        True for root in ("src", "frontend/src") for _ in (REPO_ROOT / root).rglob(name)
    )


def _layout_paths(page: str) -> list[str]:
    """The files and folders of the page's layout blocks, each with its folder: the first word of
    a line at an indent of 0, 2 or 4 (a comma list too), under the last folder one level up."""
    found: list[str] = []
    for block in re.findall(r"```\n(.*?)```", page, re.S):
        if "\n  " not in block or block.lstrip().startswith(("scripts/run.sh ", ".venv")):
            continue
        parents: dict[int, str] = {}
        for line in block.splitlines():
            indent = len(line) - len(line.lstrip())
            if indent > 4 or not line.strip():
                continue
            head = re.split(r"\s{2,}", line.strip())[0]
            names = [n.strip() for n in head.split(",")]
            if not all(n.endswith("/") or _FILE.search(n) for n in names):
                continue
            base = parents.get(indent - 2, "") if indent else ""
            for name in names:
                found.append(base + name)
            parents[indent] = base + names[-1]
    return found


def test_development_guide_names_real_places() -> None:
    """The layout and "where to put a new thing" name packages, modules and files that exist (a
    guide naming `api_keys/` or `webhooks/` packages that were never built misleads a newcomer)."""
    page = (REPO_ROOT / "docs" / "development.md").read_text()
    layout = _layout_paths(page)
    assert len(layout) > 40, "the layout blocks were read"
    named = [
        token
        for token in re.findall(r"`([^`\s]+)`", page)
        if (token.endswith("/") or _FILE.search(token))
        and not token.startswith(("/", "@", "http", "."))
        and "{" not in token
        and "<" not in token  # a pattern: `<domain>/endpoints.py`
    ]
    missing = sorted({p for p in layout if "<" not in p and not (REPO_ROOT / p).exists()})
    missing += sorted({t for t in named if not _exists(t)})
    assert missing == [], f"docs/development.md names what does not exist: {missing}"
