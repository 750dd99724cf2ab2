"""No function in the backend over 60 lines (issue 28): a longer one is several steps that want
names of their own, and the next feature would cut it again."""

from __future__ import annotations

import ast

from callwright.config import REPO_ROOT

LIMIT = 60


def test_no_function_in_src_is_over_60_lines() -> None:
    long: list[str] = []
    for path in sorted((REPO_ROOT / "src" / "callwright").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                lines = (node.end_lineno or node.lineno) - start + 1
                if lines > LIMIT:
                    where = path.relative_to(REPO_ROOT)
                    long.append(f"{where}:{node.lineno} {node.name} ({lines} lines)")
    assert long == [], "split these:\n" + "\n".join(long)
