"""``planner catalog list|validate``: the component catalog, readable in a terminal.

``list`` prints one line per record that fits 120 columns: family, id, name and its key figures
(long text cut with ``...``). ``--wide`` prints every column untruncated, sources included;
``--format csv|json`` writes every column for other tools.

Examples::

    planner catalog list
    planner catalog list --family switches --wide
    planner catalog list --format csv > catalog.csv
    planner catalog validate --catalog prices.yaml
    planner catalog list --family gpus
    planner catalog list --format json
    planner catalog validate --catalog prices.yaml --catalog optics.yaml
"""

from __future__ import annotations

import argparse
import json
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from planner.cli.options import (
    add_catalog_option,
    add_command,
    add_format_option,
    catalog_from_args,
    write,
    write_json,
)

if TYPE_CHECKING:
    from planner.catalog.schema import Record

TABLE_WIDTH = 120
"""Columns a ``catalog list`` table fits in (a common terminal width)."""
INDENT = 2
SEPARATOR = "  "
NAME_WIDTH = 32
"""Widest name before it is cut; ids are never cut (they are what the other options take)."""
COMMON_FIELDS = ("id", "name", "source", "as_of", "assumption", "reason", "notes")
"""Fields every record has (``planner.catalog.schema.Record``); the rest are its figures."""
ROW_COLUMNS = ["family", "id", "name", "figures", "source", "as_of", "assumption", "reason", "notes"]
"""Columns of ``--format csv|json`` (every field; ``figures`` holds the family's own)."""
SHORT_TEXT = 20
"""Text fields up to this length (a vendor, a kind, a unit) count as key figures in the table."""


def add_parser(subparsers: Any) -> None:
    """Register ``planner catalog list`` and ``planner catalog validate``.

    Parameters
    ----------
    subparsers : Any
        The ``planner`` parser's subparsers action (``add_subparsers``).
    """
    parser = add_command(
        subparsers, "catalog", help_text="list or validate the component catalog", doc=__doc__
    )
    sub = parser.add_subparsers(
        dest="catalog_command", required=True, metavar="{list,validate}", parser_class=type(parser)
    )
    p_list = add_command(
        sub,
        "list",
        help_text="list catalog records: id, name and key figures (--wide or --format for all columns)",
        doc=__doc__,
    )
    p_list.add_argument(
        "--family", help="only this family: gpus, servers, nics, switches, optics, cables, designs, ..."
    )
    p_list.add_argument(
        "--wide", action="store_true", help="table with every column, untruncated (sources included)"
    )
    add_catalog_option(p_list)
    add_format_option(p_list, ["table", "json", "csv"])
    p_list.set_defaults(handler=run_list)
    p_validate = add_command(
        sub, "validate", help_text="check the bundled catalog and any override files", doc=__doc__
    )
    add_catalog_option(p_validate)
    p_validate.set_defaults(handler=run_validate)


def _compact(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, str | int):
        return str(value)
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def figures(record: Record, *, key_only: bool) -> dict[str, Any]:
    """The record's own fields (beyond :data:`COMMON_FIELDS`) as JSON values.

    ``key_only`` keeps numbers, then short text (no flags, translations, ids or nested values):
    what a reader scans a table for.

    Parameters
    ----------
    record : Record
        A catalog record.
    key_only : bool
        Keep only numbers and short text (nested fabric figures lifted).

    Returns
    -------
    dict[str, Any]
        Field name to JSON value (the schema's units).
    """
    data: dict[str, Any] = record.model_dump(mode="json", exclude=set(COMMON_FIELDS))
    if not key_only:
        return data
    # A design's figures sit in its nested fabric parameters: lift them one level.
    flat = {k: v for k, v in data.items() if not isinstance(v, dict)}
    for nested in (v for v in data.values() if isinstance(v, dict)):
        flat |= {k: v for k, v in nested.items() if k not in flat}
    numbers = {k: v for k, v in flat.items() if isinstance(v, int | float) and not isinstance(v, bool)}
    texts = {
        k: v
        for k, v in flat.items()
        if isinstance(v, str) and len(v) <= SHORT_TEXT and not k.endswith("_id") and not k.startswith("name")
    }
    return numbers | texts


def _row(family: str, record: Record, *, key_only: bool) -> dict[str, Any]:
    return {
        "family": family,
        "id": record.id,
        "name": record.name,
        "figures": figures(record, key_only=key_only),
        "source": record.source or "",
        "as_of": record.as_of or "",
        "assumption": record.assumption,
        "reason": record.reason or "",
        "notes": record.notes or "",
    }


def _figures_text(values: Mapping[str, Any]) -> str:
    return "; ".join(f"{k} {_compact(v)}" for k, v in values.items())


def _width(text: str) -> int:
    """Terminal columns of ``text``: East Asian wide characters take two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _fit(text: str, width: int, *, cut: bool) -> str:
    """``text`` padded to ``width`` columns; with ``cut``, shortened to fit (ending in ``...``)."""
    if cut and _width(text) > width:
        while text and _width(text) > width - 3:
            text = text[:-1]
        text += "..."
    return text + " " * max(0, width - _width(text))


def render_table(rows: Sequence[Mapping[str, Any]], *, wide: bool) -> str:
    """One section per family with aligned columns; unless ``wide``, every line fits
    :data:`TABLE_WIDTH` columns (names and figures are cut, ids never).

    Parameters
    ----------
    rows : Sequence[Mapping[str, Any]]
        Records as rows: ``family``, ``id``, ``name``, ``figures`` and the provenance columns.
    wide : bool
        Every column, untruncated.

    Returns
    -------
    str
        The table text (``(no records)`` when empty).
    """
    if not rows:
        return "(no records)"
    columns = ["id", "name", "figures"] + (["source", "as_of", "assumption"] if wide else [])
    sections: dict[str, list[list[str]]] = {}
    for r in rows:
        cells = [_figures_text(r[c]) if c == "figures" else str(r[c]) for c in columns]
        sections.setdefault(str(r["family"]), []).append(cells)
    out: list[str] = []
    for family, lines in sections.items():
        widths = [max(_width(c), *(_width(line[i]) for line in lines)) for i, c in enumerate(columns)]
        if not wide:
            widths[1] = min(widths[1], NAME_WIDTH)
            widths[2] = TABLE_WIDTH - INDENT - widths[0] - widths[1] - 2 * len(SEPARATOR)
        out += ([""] if out else []) + [f"{family} ({len(lines)} records)"]
        for line in [[c.upper() for c in columns], *lines]:
            shown = SEPARATOR.join(_fit(text, widths[i], cut=not wide) for i, text in enumerate(line))
            out.append((" " * INDENT + shown).rstrip())
    return "\n".join(out)


def _csv(rows: Iterable[Mapping[str, Any]]) -> str:
    from planner.sheets import csv_text

    cells = ({**r, "figures": _figures_text(r["figures"])} for r in rows)
    return csv_text(ROW_COLUMNS, ([row.get(c, "") for c in ROW_COLUMNS] for row in cells))


def run_list(args: argparse.Namespace) -> int:
    """``planner catalog list``: one row per record, optionally of one family.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (``--family``, ``--wide``, ``--format``, ``--catalog``).

    Returns
    -------
    int
        Exit status, 0.
    """
    catalog = catalog_from_args(args)
    if args.family is not None:
        catalog.family(args.family)  # an unknown family is a CatalogError naming the known ones
    key_only = args.format == "table" and not args.wide
    rows = [
        _row(family, r, key_only=key_only) for family, r in catalog.records() if args.family in (None, family)
    ]
    if args.format == "json":
        write_json(rows)
    elif args.format == "csv":
        write(_csv(rows))
    else:
        write(render_table(rows, wide=args.wide))
    return 0


def run_validate(args: argparse.Namespace) -> int:
    """``planner catalog validate``: loading is the check; prints the record count per family.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (``--catalog``).

    Returns
    -------
    int
        Exit status, 0 (a bad catalog raises a one-line error).
    """
    from planner.catalog import FAMILIES

    catalog = catalog_from_args(args)
    write("catalog OK: " + ", ".join(f"{len(catalog.family(f))} {f}" for f in FAMILIES))
    return 0
