"""No function under ``planner/`` is longer than a screen and a half.

A long function hides its steps; splitting it along the steps its comments name keeps each one
readable and testable on its own (see docs/architecture.md). The count runs from the ``def``
line to the last line of the body, without the docstring: its numpydoc ``Parameters`` and
``Returns`` sections (issue 24) are reference text, not steps, and must not push a function to be
split.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_LINES = 80


def _docstring_lines(function: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """Lines of the function's docstring (0 when it has none)."""
    first = function.body[0]
    if (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    ):
        assert first.end_lineno is not None
        return first.end_lineno - first.lineno + 1
    return 0


def function_lengths(source: str) -> list[tuple[str, int, int]]:
    """``(qualified name, first line, line count)`` of every function in ``source``, nested ones too."""
    found: list[tuple[str, int, int]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                name = f"{prefix}{child.name}"
                assert child.end_lineno is not None
                found.append(
                    (name, child.lineno, child.end_lineno - child.lineno + 1 - _docstring_lines(child))
                )
                visit(child, f"{name}.")
            elif isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.")
            else:
                visit(child, prefix)

    visit(ast.parse(source), "")
    return found


def test_the_scan_sees_long_and_nested_functions() -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_LINES))
    doc = '    """Summary.\n\n    Parameters\n    ----------\n    x : int\n        A count [count].\n    """'
    source = (
        f"class A:\n    def short(self):\n        def inner():\n            pass\n\ndef long():\n{body}\n"
        f"\ndef documented(x):\n{doc}\n    return x\n"
    )
    lengths = {name: count for name, _, count in function_lengths(source)}
    # def line + MAX_LINES body lines; the 7-line docstring of `documented` is not counted
    assert lengths == {"A.short": 3, "A.short.inner": 2, "long": MAX_LINES + 1, "documented": 2}


def test_no_function_in_planner_is_over_80_lines() -> None:
    too_long = [
        f"{path.relative_to(ROOT)}:{line} {name} ({count} lines)"
        for path in sorted((ROOT / "planner").rglob("*.py"))
        for name, line, count in function_lengths(path.read_text(encoding="utf-8"))
        if count > MAX_LINES
    ]
    assert too_long == [], f"split these along their steps (max {MAX_LINES} lines):\n" + "\n".join(too_long)
