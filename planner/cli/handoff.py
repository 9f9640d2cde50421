"""``planner layout`` and the hand-off files of ``planner export`` (cabling plan, elevations,
NetBox import files, draw.io).

::

    planner layout --gpus 1024 --design rail8-npo --row-length-m 9.6
    planner export --gpus 1024 --design rail8-npo --cabling cables.csv --elevations elev/ \\
        --netbox-dir netbox/ --drawio cluster.drawio

Bad layout input (a row shorter than one rack, more rows than the room holds, a cable the
layout makes longer than its medium reaches) exits 2 with one line naming the field.

Examples::

    planner layout --gpus 1024 --design rail8-npo
    planner layout --gpus 256 --design ib-ndr --row-length-m 6 --format csv

The floor is the scenario's (``floor:`` in the scenario file, the default floor without one);
``--row-length-m``, ``--max-rows``, ... override it for the command, and the plan's BOM prices
its cables on the same floor, so the layout's lengths and the BOM's agree.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from planner.cli import options

if TYPE_CHECKING:
    from planner.handoff.cabling import Handoff

HANDOFF_FILES = ("cabling", "cabling_xlsx", "drawio")
"""File options of ``planner export`` that the hand-off writes (besides the two folders)."""
HANDOFF_DIRS = ("elevations", "netbox_dir")


FLOOR_HELP = (
    "the scenario file's floor (its floor: section) with these options over it; an option given "
    "overrides the file's value for this command, and the plan's BOM prices its cables on that floor"
)


def add_layout_options(parser: argparse.ArgumentParser, *, formats: bool = False) -> None:
    """The floor options, generated from :class:`~planner.inputs.layout.LayoutParams`;
    :func:`planner.cli.options.scenario_from_args` lays them over the scenario's ``floor``.
    ``formats`` adds ``--format`` of a layout table.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The command's parser (options added).
    formats : bool
        Add ``--format`` (table, csv, json).
    """
    from planner.inputs import layout

    group = options.add_model_options(parser, layout.LayoutParams, "layout")
    group.description = FLOOR_HELP
    if formats:
        options.add_format_option(parser, ["table", "csv", "json"])


def add_handoff_files(parser: argparse.ArgumentParser) -> None:
    """``--cabling``, ``--cabling-xlsx``, ``--elevations``, ``--netbox-dir`` and ``--drawio``.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The command's parser (options added, the floor options too).
    """
    group = parser.add_argument_group("hand-off to the build team")
    group.add_argument("--cabling", metavar="FILE", help="cabling plan CSV, one row per cable")
    group.add_argument("--cabling-xlsx", metavar="FILE", help="cabling plan XLSX (cables, racks, totals)")
    group.add_argument("--elevations", metavar="DIR", help="rack-elevation SVGs, one per rack type")
    group.add_argument("--netbox-dir", metavar="DIR", help="NetBox import CSVs and device-type YAMLs")
    group.add_argument("--drawio", metavar="FILE", help="draw.io file: logical topology and one rack row")
    add_layout_options(parser)


def wants_handoff(args: argparse.Namespace) -> bool:
    """Whether the command line asks for any hand-off file or folder.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    bool
        True when one of the hand-off options is given.
    """
    return any(getattr(args, name, None) for name in (*HANDOFF_FILES, *HANDOFF_DIRS))


def build_from_args(args: argparse.Namespace) -> tuple[Handoff, Any]:
    """The hand-off of the scenario options on the scenario's floor (the floor options over the
    file's), and the catalog it used: its cables are the ones the plan's BOM prices.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (scenario, catalog and floor options).

    Returns
    -------
    tuple[Handoff, Any]
        The hand-off and the catalog (a :class:`~planner.catalog.Catalog`).
    """
    from planner.handoff.cabling import build_handoff

    p, catalog = options.plan_and_catalog_from_args(args)
    return build_handoff(plan=p, catalog=catalog, params=p.scenario.layout_floor), catalog


def _folder(option: str, text: str) -> Path:
    from planner.errors import InputError

    path = Path(text)
    if path.exists() and not path.is_dir():
        raise InputError(f"--{option} {text}: is a file; name a folder")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise InputError(f"--{option} {text}: folder {parent} does not exist")
    return path


def _checked_targets(
    *, args: argparse.Namespace, names: Sequence[str], check: Callable[[str, str], Path]
) -> dict[str, Path]:
    """The targets given among the options ``names``, each through ``check(flag, text)`` (the flag
    without its dashes, as the errors name it)."""
    return {name: check(name.replace("_", "-"), getattr(args, name)) for name in names if getattr(args, name)}


def handoff_contents(args: argparse.Namespace, check_file: Any) -> dict[Path, bytes]:
    """Every hand-off file the options ask for, by target path (folders are created).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.
    check_file : Any
        Callable ``(option, text) -> Path`` that checks a target file can be written.

    Returns
    -------
    dict[Path, bytes]
        Content per target path.
    """
    from planner.handoff.drawio import drawio_file
    from planner.handoff.elevation import elevation_svg, rack_types
    from planner.handoff.netbox import netbox_files
    from planner.handoff.tables import cabling_csv
    from planner.report.export.cabling import cabling_xlsx

    files = _checked_targets(args=args, names=HANDOFF_FILES, check=check_file)
    folders = _checked_targets(args=args, names=HANDOFF_DIRS, check=_folder)
    handoff, catalog = build_from_args(args)
    writers = {"cabling": cabling_csv, "cabling_xlsx": cabling_xlsx, "drawio": drawio_file}
    contents: dict[Path, bytes] = {path: writers[name](handoff) for name, path in files.items()}
    if "elevations" in folders:
        for rack_type in rack_types(handoff.layout, handoff.wiring):
            svg = elevation_svg(rack_type, handoff.wiring)
            contents[folders["elevations"] / f"{rack_type.key}.svg"] = svg.encode("utf-8")
    if "netbox_dir" in folders:
        for name, data in netbox_files(handoff, catalog).items():
            contents[folders["netbox_dir"] / name] = data
    for path in contents:
        path.parent.mkdir(parents=True, exist_ok=True)
    return contents


def add_parser(subparsers: Any) -> None:
    """Register ``planner layout`` (``planner netbox``, the hand-off's other command, builds on its
    options and registers itself).

    Parameters
    ----------
    subparsers : Any
        The ``planner`` parser's subparsers action.
    """
    parser = options.add_command(
        subparsers,
        "layout",
        help_text="racks in rows: every device in a rack unit, kW and U per rack, cable lengths",
        doc=__doc__,
        scenario="design",
        handler=run_layout,
    )
    add_layout_options(parser, formats=True)


def run_layout(args: argparse.Namespace) -> int:
    """``planner layout``: the racks, then the cable lengths per link class.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (scenario, floor [m], ``--format``).

    Returns
    -------
    int
        Exit status, 0.
    """
    from planner.cli.options import emit_rows
    from planner.handoff.cabling import length_summary
    from planner.handoff.pricing import layout_cable_pricing, pricing_rows
    from planner.handoff.tables import rack_rows

    handoff, catalog = build_from_args(args)
    racks, lengths = rack_rows(handoff), length_summary(handoff)
    prices = pricing_rows(layout_cable_pricing(handoff, catalog))
    if args.format == "json":
        layout = handoff.layout
        options.write_json(
            {
                "rows": layout.rows,
                "racks_per_row": layout.racks_per_row,
                "racks": racks,
                "cable_lengths": lengths,
                "cable_prices": prices,
                "notes": [str(n) for n in layout.notes],
            }
        )
        return 0
    options.write(emit_rows(rows=racks, fmt=args.format))
    if args.format == "table" and lengths:
        options.write("")
        options.write(emit_rows(rows=lengths, fmt="table"))
        options.write("")
        options.write(emit_rows(rows=prices, fmt="table"))
    return 0
