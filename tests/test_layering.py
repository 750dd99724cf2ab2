"""The package boundaries hold: no import loop between the packages of `callwright`, Pipecat
only inside `voice_agent/`, and the voice agent knows the calls only through its contract."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from callwright.config import REPO_ROOT

PACKAGE = REPO_ROOT / "src" / "callwright"


def _unit(path: Path) -> str:
    """The package (or top-level module) a file belongs to: `calls`, `core`, ..."""
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return parts[0]


def _imports(path: Path) -> Iterator[str]:
    """Every module a file imports at run time (lazy imports included; TYPE_CHECKING blocks,
    which never run, left out)."""
    tree = ast.parse(path.read_text())
    typing_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for inner in ast.walk(node)
    }
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module
        elif isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)


def _graph() -> dict[str, dict[str, set[str]]]:
    """unit -> imported unit -> the files that import it."""
    units = {_unit(p) for p in PACKAGE.rglob("*.py")}
    graph: dict[str, dict[str, set[str]]] = {}
    for path in PACKAGE.rglob("*.py"):
        source = _unit(path)
        for module in _imports(path):
            parts = module.split(".")
            if parts[0] != "callwright" or len(parts) < 2 or parts[1] not in units:
                continue
            if parts[1] != source:
                graph.setdefault(source, {}).setdefault(parts[1], set()).add(
                    str(path.relative_to(PACKAGE))
                )
    return graph


def _reaches(graph: dict[str, dict[str, set[str]]], start: str, goal: str) -> bool:
    seen, stack = set(), [start]
    while stack:
        unit = stack.pop()
        if unit == goal:
            return True
        if unit not in seen:
            seen.add(unit)
            stack.extend(graph.get(unit, {}))
    return False


def test_no_import_loop_between_packages() -> None:
    graph = _graph()
    loops = [
        f"{a} -> {b} ({', '.join(sorted(files))}) and back"
        for a, targets in graph.items()
        for b, files in targets.items()
        if _reaches(graph, b, a)
    ]
    assert loops == [], "\n".join(loops)


def test_the_loop_check_finds_a_loop() -> None:
    graph = {"a": {"b": {"a/x.py"}}, "b": {"c": {"b/y.py"}}, "c": {"a": {"c/z.py"}}}
    assert _reaches(graph, "b", "a")
    assert not _reaches({"a": {"b": {"a/x.py"}}}, "b", "a")


@pytest.mark.parametrize(
    ("unit", "forbidden"),
    [
        ("voice_agent", "calls"),  # the agent knows calls only through voice_agent.contract
        ("telephony", "sandbox"),  # the carrier seam does not know the sandbox network
        ("realtime", "auth"),
        # The live events' models know no package that sends them (realtime.events).
        ("realtime", "calls"),
        ("realtime", "billing"),
        ("realtime", "campaigns"),
        ("kit", "calls"),
        ("config", "kit"),
        # Post-call analysis reads a call and its lines and knows no domain: the calls run it
        # (calls.post_call), /v1 asks it questions (public_api.analyze).
        ("analysis", "calls"),
        ("analysis", "public_api"),
        ("analysis", "campaigns"),
    ],
)
def test_a_lower_layer_does_not_reach_a_higher_one(unit: str, forbidden: str) -> None:
    assert not _reaches(_graph(), unit, forbidden)


def test_pipecat_is_imported_only_inside_voice_agent() -> None:
    outside = [
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if _unit(path) != "voice_agent"
        and any(m.split(".")[0] == "pipecat" for m in _imports(path))
    ]
    assert outside == []


@pytest.mark.parametrize("unit", ["calls", "voice_agent"])
def test_the_call_lifecycle_has_no_long_functions(unit: str) -> None:
    """The heart of the product stays readable: no function over 60 lines."""
    long = [
        f"{path.relative_to(PACKAGE)}:{node.lineno} {node.name} ({length} lines)"
        for path in (PACKAGE / unit).rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and (length := (node.end_lineno or node.lineno) - node.lineno + 1) > 60
    ]
    assert long == []


def test_only_the_call_builder_builds_a_call_order() -> None:
    """Every call's order comes from `calls.builder`, with its checks (the agent's owner, the
    voice, the language, the variables, the disclosure)."""
    builders = sorted(
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Call)
        and (
            (isinstance(node.func, ast.Name) and node.func.id == "CallOrder")
            or (isinstance(node.func, ast.Attribute) and node.func.attr == "CallOrder")
        )
    )
    assert builders == ["calls/builder.py"]


def _repository(path: Path) -> bool:
    """A repository module: `repository.py`, or a module of a `repository/` package."""
    return path.name == "repository.py" or path.parent.name == "repository"


def _calls_select(path: Path) -> bool:
    return any(
        isinstance(node, ast.Call)
        and (
            (isinstance(node.func, ast.Name) and node.func.id == "select")
            or (isinstance(node.func, ast.Attribute) and node.func.attr == "select")
        )
        for node in ast.walk(ast.parse(path.read_text()))
    )


#: Modules that build a query outside a repository, each with its reason.
SELECT_ALLOWED = {
    "kit/pagination.py": "the paging helper counts the query a repository hands it",
}


def test_queries_are_built_only_in_repositories() -> None:
    """Services and endpoints ask repositories; only repositories build `select(...)`."""
    outside = [
        relative
        for path in PACKAGE.rglob("*.py")
        if not _repository(path)
        and (relative := str(path.relative_to(PACKAGE))) not in SELECT_ALLOWED
        and _calls_select(path)
    ]
    assert outside == []


def _reads_app_state(path: Path) -> bool:
    """Whether the module reaches `<...>.app.state` or `app.state`."""
    return any(
        isinstance(node, ast.Attribute)
        and node.attr == "state"
        and (
            (isinstance(node.value, ast.Attribute) and node.value.attr == "app")
            or (isinstance(node.value, ast.Name) and node.value.id == "app")
        )
        for node in ast.walk(ast.parse(path.read_text()))
    )


#: The composition root: what builds the app-wide singletons and keeps them on app.state.
COMPOSITION_ROOT = {
    "main.py",
    "core.py",
    "roles.py",
    # `callwright call` builds its own app and places one call through its singletons.
    "cli_call.py",
}
#: The dependency providers: each singleton read through one typed dependency.
PROVIDERS = {"kit/db.py"}  # SessionDep and DatabaseDep, beside the Database they open


def test_only_the_composition_root_and_the_providers_touch_app_state() -> None:
    """Endpoints and services take the app's singletons as typed dependencies (`SettingsDep`,
    `DatabaseDep`, `CallsDep`, ...), defined in a `deps.py`; only those and the composition root
    read `app.state`."""
    outside = [
        relative
        for path in PACKAGE.rglob("*.py")
        if path.name != "deps.py"
        and (relative := str(path.relative_to(PACKAGE))) not in COMPOSITION_ROOT | PROVIDERS
        and _reads_app_state(path)
    ]
    assert outside == []


def _method_calls(tree: ast.AST, name: str) -> int:
    """How many `<...>.name(...)` calls `tree` makes."""
    return sum(
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == name
        for node in ast.walk(tree)
    )


#: Modules that may skip rows with `.offset(`, each with its reason.
OFFSET_ALLOWED = {
    "kit/pagination.py": "the paging helper: every list endpoint's page comes from it",
}


def test_only_the_paging_helper_skips_rows() -> None:
    """No list pages by hand: skipping to a page (`.offset(`) happens in `kit/pagination.py`."""
    outside = sorted(
        relative
        for path in PACKAGE.rglob("*.py")
        if (relative := str(path.relative_to(PACKAGE))) not in OFFSET_ALLOWED
        and _method_calls(ast.parse(path.read_text()), "offset")
    )
    assert outside == []


#: What a repository pages with, all from `kit/pagination.py`.
PAGING_HELPERS = {"paged", "paged_rows", "sliced", "one_statement_page"}


def _called_names(function: ast.AST) -> set[str]:
    return {
        node.func.id if isinstance(node.func, ast.Name) else node.func.attr
        for node in ast.walk(function)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name | ast.Attribute)
    }


def test_every_paged_list_pages_through_the_helper() -> None:
    """A repository function that answers a page (it takes `per_page`) hands its query to one of
    `PAGING_HELPERS` (or to a function of its module that does), which counts it and picks the
    page: no list counts its rows by hand."""
    by_hand = []
    for path in filter(_repository, PACKAGE.rglob("*.py")):
        functions = [
            node
            for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            and "per_page" in {a.arg for a in node.args.args + node.args.kwonlyargs}
        ]
        pagers = {f.name for f in functions if _called_names(f) & PAGING_HELPERS}
        by_hand += [
            f"{path.relative_to(PACKAGE)}:{f.name}"
            for f in functions
            if f.name not in pagers and not _called_names(f) & pagers
        ]
    assert by_hand == []
