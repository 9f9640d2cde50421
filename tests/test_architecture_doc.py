"""docs/architecture.md draws the layers as they are in the code.

The ``planner/`` lines of its layer diagram are compared with the ``layers`` contract of
pyproject.toml (which ``lint-imports`` enforces and ``tests/test_architecture.py`` checks covers
every module): the same layers in the same order, each naming the same modules, and every name a
module or package that exists.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"


def contract_layers(pyproject: Path = ROOT / "pyproject.toml") -> list[set[str]]:
    """The ``layers`` contract's ``planner`` layers, top down, each as a set of dotted module
    names (``ui`` sits on top of them in the contract; the diagram draws it apart)."""
    config = tomllib.loads(pyproject.read_text(encoding="utf-8"))["tool"]["importlinter"]
    (contract,) = [c for c in config["contracts"] if c["id"] == "layers"]
    layers = [{name.strip() for name in layer.split("|")} for layer in contract["layers"]]
    return [names for names in layers if all(name.startswith("planner") for name in names)]


def doc_layers(text: str) -> list[set[str]]:
    """The ``planner/...`` lines of the first code block after "## Layers", each as a set of
    dotted module names (``planner/fabric/`` -> ``planner.fabric``, ``planner/cost.py`` ->
    ``planner.cost``).

    >>> layers = doc_layers("## Layers\\n```\\nplanner/a/    words\\nplanner/b.py | planner/c/\\n```\\n")
    >>> [sorted(layer) for layer in layers]
    [['planner.a'], ['planner.b', 'planner.c']]
    """
    section = text[text.index("## Layers") :]
    block = section.split("```", 2)[1]
    layers = []
    for line in block.splitlines():
        if not line.startswith("planner/"):
            continue
        names = re.findall(r"(planner/[\w/]+?)(?:\.py|/)?(?=\s|\||$)", line)
        layers.append({name.rstrip("/").replace("/", ".") for name in names})
    return layers


def test_the_diagram_is_the_layers_contract() -> None:
    drawn = doc_layers(DOC.read_text(encoding="utf-8"))
    enforced = contract_layers()
    assert drawn == enforced, (
        "docs/architecture.md's planner/ lines and pyproject's layers contract differ:\n"
        + "\n".join(
            f"  doc {sorted(d)}  contract {sorted(c)}"
            for d, c in zip(drawn, enforced, strict=False)
            if d != c
        )
        + (f"\n  {len(drawn)} layers drawn, {len(enforced)} enforced" if len(drawn) != len(enforced) else "")
    )


def test_every_drawn_module_exists() -> None:
    missing = [
        name
        for layer in doc_layers(DOC.read_text(encoding="utf-8"))
        for name in sorted(layer)
        if not (ROOT / (name.replace(".", "/") + ".py")).is_file()
        and not (ROOT / name.replace(".", "/") / "__init__.py").is_file()
    ]
    assert missing == []


def test_the_comparison_can_fail() -> None:
    text = "## Layers\n```\nplanner/cli/  the CLI\nplanner/engine.py | planner/gone/\n```\n"
    assert doc_layers(text) != [{"planner.cli"}, {"planner.engine"}]
