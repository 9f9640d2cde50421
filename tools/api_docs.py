"""The API reference of the engine, as Markdown generated from its docstrings (``make docs``).

    python tools/api_docs.py [--out docs/api]

One page per module of ``planner`` (the command line and the database migrations left out) and an
index. A page lists the module's public classes and functions: those named in its ``__all__``,
or else those defined in it whose names do not start with ``_``. Each entry shows the signature
and the docstring; numpydoc section headings (``Parameters``, ``Returns``, ``Raises``, ...) become
Markdown headings, and the rest of the text is kept as written (units and equations included).
Nothing is fetched: the modules are imported from this checkout. The output folder is generated
(git ignores it); the engine's docstrings are the source.
"""

from __future__ import annotations

import argparse
import ast
import functools
import importlib
import inspect
import pkgutil
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "api"
SKIPPED = ("planner.cli", "planner.store.migrations", "planner.__main__")
"""Modules left out: the command line (its reference is ``planner --help``) and the migrations."""
SECTION = re.compile(r"^(\s*)([A-Z][A-Za-z ]+)\n\1-{3,}$", re.MULTILINE)


def modules(package: str = "planner") -> Iterator[ModuleType]:
    """Every module of ``package``, imported, in name order (skipping :data:`SKIPPED`)."""
    root = importlib.import_module(package)
    names = [package] + [info.name for info in pkgutil.walk_packages(root.__path__, prefix=f"{package}.")]
    for name in sorted(names):
        if not name.startswith(SKIPPED):
            yield importlib.import_module(name)


def public_members(module: ModuleType) -> list[tuple[str, object]]:
    """``(name, object)`` of the module's public classes and functions, in source order."""
    exported = getattr(module, "__all__", None)
    found = []
    for name, obj in vars(module).items():
        if not (inspect.isfunction(obj) or inspect.isclass(obj)):
            continue
        if exported is not None:
            if name not in exported or getattr(obj, "__module__", "") != module.__name__:
                continue
        elif name.startswith("_") or getattr(obj, "__module__", "") != module.__name__:
            continue
        found.append((name, obj))
    return sorted(found, key=lambda item: _line(item[1]))


def _line(obj: object) -> int:
    """The line ``obj`` starts on in its source file (its first decorator's, as
    ``inspect.getsourcelines`` gives it), 0 when unknown.

    Read without locating the source each time: a function's code object holds the line
    (``co_firstlineno``, of the function a decorator wrapped), and a class's is the first
    definition of its qualified name in its module's syntax tree, parsed once per file
    (``inspect`` parses the whole module again for every class: about 2 s of CPU for the 273
    public classes, in the collection of every pytest worker)."""
    if inspect.isfunction(obj):
        return int(inspect.unwrap(obj).__code__.co_firstlineno)
    try:
        source = inspect.getsourcefile(obj)  # type: ignore[arg-type]
    except TypeError:
        return 0
    if not inspect.isclass(obj) or source is None:
        return 0
    return _class_lines(source).get(obj.__qualname__, 0)


@functools.cache
def _class_lines(path: str) -> dict[str, int]:
    """The line of each class defined in the source file ``path``, by qualified name (the first
    definition of a name; nested in a function: ``f.<locals>.C``), as :mod:`inspect` finds it."""
    lines: dict[str, int] = {}

    def visit(node: ast.AST, stack: tuple[str, ...]) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                inner = (*stack, child.name)
                start = child.decorator_list[0].lineno if child.decorator_list else child.lineno
                lines.setdefault(".".join(inner), start)
                visit(child, inner)
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                visit(child, (*stack, child.name, "<locals>"))
            else:
                visit(child, stack)

    try:
        visit(ast.parse(Path(path).read_text(encoding="utf-8")), ())
    except (OSError, SyntaxError, UnicodeDecodeError):
        return {}
    return lines


def docstring_markdown(doc: str) -> str:
    """A numpydoc docstring as Markdown: section headings become bold lines.

    >>> print(docstring_markdown("Sum.\\n\\nParameters\\n----------\\nx\\n    A number [W]."))
    Sum.
    <BLANKLINE>
    **Parameters**
    <BLANKLINE>
    ```text
    x
        A number [W].
    ```
    """
    parts = SECTION.split(doc)
    out = [parts[0].strip()]
    for index in range(1, len(parts), 3):
        title, body = parts[index + 1], parts[index + 2]
        out.append(f"**{title.strip()}**")
        if body.strip("\n"):
            out.append("```text\n" + inspect.cleandoc(body) + "\n```")
    return "\n\n".join(part for part in out if part)


def _signature(name: str, obj: object) -> str:
    try:
        return f"{name}{inspect.signature(obj)}"  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return name


def module_page(module: ModuleType) -> str:
    """The Markdown page of one module."""
    lines = [f"# `{module.__name__}`", ""]
    doc = inspect.getdoc(module)
    if doc:
        lines += [docstring_markdown(doc), ""]
    for name, obj in public_members(module):
        kind = "class" if inspect.isclass(obj) else "function"
        lines += [f"## {kind} `{name}`", "", "```python", _signature(name, obj), "```", ""]
        text = inspect.getdoc(obj)
        lines += [docstring_markdown(text) if text else "*(no docstring)*", ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def write(out: Path = OUT) -> list[Path]:
    """Write every page and the index into ``out``; return the files written."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    index = [
        "# API reference",
        "",
        "Generated by `make docs` (`tools/api_docs.py`) from the docstrings of `planner`; do not edit.",
        "",
        "| module | summary |",
        "|---|---|",
    ]
    for module in modules():
        page = out / f"{module.__name__}.md"
        page.write_text(module_page(module), encoding="utf-8")
        written.append(page)
        summary = (inspect.getdoc(module) or "").split("\n", 1)[0].replace("|", "\\|")
        index.append(f"| [`{module.__name__}`]({page.name}) | {summary} |")
    (out / "index.md").write_text("\n".join(index) + "\n", encoding="utf-8")
    return [out / "index.md", *written]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    written = write(args.out)
    print(f"wrote {len(written)} pages to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
