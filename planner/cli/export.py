"""``planner export``: the proposal PDF and its BOM CSV, XLSX workbook and scenario JSON.

Takes the scenario options of ``planner plan`` (``--gpus``, ``--design``, ``--gpu``,
``--scenario``, ``--catalog`` ...) plus the files to write and the proposal's details::

    planner export --gpus 1024 --lang zh --edition customer --margin 0.15 \\
        --customer "ACME" --project "Pod 1" --author "J. Doe" --version 1.2 --logo logo.png \\
        --pdf proposal.pdf --csv bom.csv --xlsx bom.xlsx --json scenario.json

``--lang`` and ``--edition`` are required: which edition leaves the building is a decision, not
a default. Bad input (a margin out of range, a directory that does not exist, a logo that is not
an image) exits with code 2 and one line on stderr; a missing Chromium exits with code 1.
No Streamlit here (the CLI runs on machines without the web app's session).

Examples::

    planner export --gpus 1024 --lang en --edition customer --pdf proposal.pdf
    planner export --gpus 1024 --lang zh --edition internal --margin 0.15 --customer ACME \\
        --project 'Pod 1' --logo logo.png --pdf p.pdf --csv bom.csv --xlsx bom.xlsx --json s.json
    planner export --gpus 256 --lang en --edition customer --csv bom.csv   # no browser needed
    planner export --gpus 1024 --design rail8-npo --cabling cables.csv --elevations elev/ \\
        --netbox-dir netbox/ --drawio cluster.drawio   # hand-off to the build team
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from planner.cli import handoff
from planner.cli.options import (
    add_command,
    catalog_from_args,
    design_ids_from_args,
    error_line,
    scenario_from_args,
)

if TYPE_CHECKING:
    from planner.report.proposal import ProposalOptions

OUTPUTS = ("pdf", "csv", "xlsx", "json")
MAX_LOGO_READ = 10_000_000
EDITIONS = ("customer", "internal")
"""``planner.report.export.pricing.EDITIONS``, repeated so that ``--help`` need not import the
report (Plotly); tests/test_cli_startup.py keeps the two equal."""


COMMAND_HELP = "write the proposal PDF, BOM CSV, XLSX workbook and scenario JSON"
FILE_HELP = "write the {kind} file here"
WROTE = "wrote {path} ({size:,} bytes)\n"
OPTIONS: Mapping[str, tuple[str, Mapping[str, Any]]] = {
    "lang": ("document language (required with --pdf, --csv, --xlsx or --json)", {"choices": ["zh", "en"]}),
    "edition": (
        "which edition: customer (prices only) or internal (costs and margin); required with the proposal files",
        {"choices": list(EDITIONS)},
    ),
    "margin": ("margin on cost [fraction] (0 to 3)", {"type": float, "default": 0.15}),
    "discount": ("discount off list price [fraction] (0 to 0.9)", {"type": float, "default": 0.0}),
    "customer": ("customer name (cover, footer, files)", {"default": ""}),
    "project": ("project name (the document's title)", {"default": ""}),
    "author": ("who prepared the proposal", {"default": ""}),
    "version": ("proposal version (default 1.0)", {"default": "1.0"}),
    "date": ("date on the proposal, YYYY-MM-DD (default today)", {}),
    "notes": ("notes for the cover page", {"default": ""}),
    "logo": ("PNG or JPEG logo for the cover", {"metavar": "FILE"}),
    "designs": ("comma list of designs to compare (default: the preset designs)", {}),
    "propose": (
        "design to detail (default: the scenario's --design; the rule's pick is stated as a recommendation)",
        {"metavar": "DESIGN"},
    ),
}
"""The command line's proposal options: help text (English, like every ``planner`` command) and
argparse settings."""


def add_parser(subparsers: Any) -> None:
    """Register ``planner export``.

    Parameters
    ----------
    subparsers : Any
        The ``planner`` parser's subparsers action.
    """
    parser = add_command(
        subparsers, "export", help_text=COMMAND_HELP, doc=__doc__, scenario="design", handler=run
    )
    files = parser.add_argument_group("files (at least one)")
    for kind in OUTPUTS:
        files.add_argument(f"--{kind}", metavar="FILE", help=FILE_HELP.format(kind=kind.upper()))
    handoff.add_handoff_files(parser)
    details = parser.add_argument_group("proposal")
    for name, (text, settings) in OPTIONS.items():
        details.add_argument(f"--{name}", help=text, **settings)
    details.add_argument(
        "--no-comparison",
        action="store_true",
        help="leave the comparison with the other designs out (the proposed design alone)",
    )


def _check_writable(option: str, path_text: str) -> Path:
    from planner.errors import InputError

    path = Path(path_text)
    if path.is_dir():
        raise InputError(f"--{option} {path_text}: is a directory; name a file")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise InputError(f"--{option} {path_text}: directory {parent} does not exist")
    if not os.access(parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise InputError(f"--{option} {path_text}: not writable")
    return path


def _read_logo(path_text: str) -> bytes:
    from planner.errors import InputError

    try:
        with open(path_text, "rb") as handle:
            data = handle.read(MAX_LOGO_READ + 1)
    except OSError as exc:
        raise InputError(f"--logo {path_text}: cannot read ({exc.strerror})") from None
    return data


def _date(text: str | None) -> dt.date:
    from planner.errors import InputError

    if not text:
        return dt.date.today()
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise InputError(f"--date: use YYYY-MM-DD (got {text!r})") from None


def options_from_args(args: argparse.Namespace) -> ProposalOptions:
    """The proposal options of the command line, validated (one-line :class:`InputError`).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (document, pricing and design options).

    Returns
    -------
    ProposalOptions
        The validated options (margin and discount [fraction]).
    """
    from planner.report import proposal

    data: dict[str, Any] = {
        "lang": args.lang,
        "edition": args.edition,
        "customer": args.customer,
        "project": args.project,
        "author": args.author,
        "version": args.version,
        "date": _date(args.date),
        "notes": args.notes,
        "pricing": {"margin": args.margin, "discount": args.discount},
        "design_ids": design_ids_from_args(args),
        "proposed": args.propose,
        "logo": _read_logo(args.logo) if args.logo else None,
        "compare_designs": not args.no_comparison,
    }
    return proposal.options_from_data(data, source="export")


def run(args: argparse.Namespace) -> int:
    """``planner export``: check the targets and options, build the proposal, write the files.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    int
        Exit status: 0, or 1 when the PDF cannot be rendered.
    """
    from planner.errors import InputError
    from planner.report import proposal
    from planner.report.export.browser import RenderError

    targets = {kind: getattr(args, kind) for kind in OUTPUTS if getattr(args, kind)}
    if not targets and not handoff.wants_handoff(args):
        raise InputError(
            "export: name at least one file to write: --pdf, --csv, --xlsx, --json, --cabling, "
            "--cabling-xlsx, --elevations, --netbox-dir or --drawio"
        )
    for name in ("lang", "edition"):
        if targets and getattr(args, name) is None:
            raise InputError(f"export: --{name} is required with --pdf, --csv, --xlsx or --json")
    paths = {kind: _check_writable(kind, text) for kind, text in targets.items()}
    seen: dict[Path, str] = {}
    for kind, path in paths.items():  # one file named twice would hold only the last output
        other = seen.setdefault(path.resolve(), kind)
        if other != kind:
            raise InputError(
                f"export: --{other} and --{kind} name the same file {targets[kind]}; name two files"
            )
    extra = handoff.handoff_contents(args, _check_writable) if handoff.wants_handoff(args) else {}
    if not targets:
        return _write(extra, {})
    options = options_from_args(args)
    p = proposal.build_proposal(
        scenario=scenario_from_args(args), catalog=catalog_from_args(args), options=options
    )
    contents: dict[str, bytes] = {kind: proposal.WRITERS[kind](p) for kind in paths if kind != "pdf"}
    if "pdf" in paths:
        try:
            contents["pdf"] = proposal.render_pdf(p)
        except RenderError as exc:
            sys.stderr.write(error_line(str(exc)))
            return 1
    return _write({**{path: contents[kind] for kind, path in paths.items()}, **extra}, paths)


def _write(contents: Mapping[Path, bytes], paths: Mapping[str, Path]) -> int:
    """All files or none: a failed write leaves no half export behind (planner.atomic)."""
    from planner.atomic import WriteError, write_all
    from planner.errors import InputError

    kind_of = {path: kind for kind, path in paths.items()}
    try:
        write_all(contents)
    except WriteError as exc:
        where = f"--{kind_of[exc.path]} {exc.path}" if exc.path in kind_of else str(exc.path)
        raise InputError(f"{where}: cannot write ({exc.strerror}); no file written") from None
    for path, data in contents.items():
        sys.stdout.write(WROTE.format(path=path, size=len(data)))
    return 0
