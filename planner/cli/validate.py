"""``planner validate``: the model against published figures (``validation/cases``).

Prints predicted vs published with the error and pass / fail / not modelled for each case, then
a summary line in which validation and calibration cases are counted apart.

Examples::

    planner validate
    planner validate --area training --format json
    planner validate --role calibration --format markdown

Exit codes: 1 when any validation case leaves its tolerance, 2 for bad input, 0 otherwise
(calibration cases and not-modelled cases never change the exit code).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import asdict
from typing import Any

from planner.cli.options import add_command, add_format_option, write_json

AREAS = ("topology", "collectives", "training", "memory", "power", "reliability", "serving", "tenancy")
"""``planner.validation.cases.AREAS``, repeated so that ``--help`` loads no pydantic
(tests/test_validation_run.py keeps them equal)."""

EXIT_VALIDATION_FAILED = 1


def add_parser(subparsers: Any) -> None:
    """Register ``planner validate``.

    Parameters
    ----------
    subparsers : Any
        The ``planner`` parser's subparsers action.
    """
    parser = add_command(
        subparsers,
        "validate",
        help_text="compare the model with published figures (pass / fail / not modelled)",
        doc=__doc__,
    )
    parser.add_argument("--area", choices=AREAS, help="only the cases of this area")
    parser.add_argument(
        "--role",
        choices=["validation", "calibration", "all"],
        default="all",
        help="validation (not fitted), calibration (fitted, not evidence) or all (default)",
    )
    add_format_option(parser, ["table", "json", "markdown"])
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """``planner validate``: every validation case, the table (or JSON, Markdown) and the summary.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (``--area``, ``--role``, ``--format``).

    Returns
    -------
    int
        Exit status: 0, or ``EXIT_VALIDATION_FAILED`` (1) when a validation case fails.
    """
    from planner.validation.run import run_all, summarize, summary_line

    role = None if args.role == "all" else args.role
    results = run_all(area=args.area, role=role)
    if args.format == "json":
        data = {
            "summary": {r: asdict(summarize(results, role=r)) for r in ("validation", "calibration")},
            "cases": [asdict(r) for r in results],
        }
        write_json(data)
    else:
        from planner.report.validation import markdown_summary, markdown_table, text_table

        if args.format == "markdown":
            sys.stdout.write(f"{markdown_summary(results)}\n\n{markdown_table(results)}\n\n")
        else:
            sys.stdout.write(text_table(results) + "\n\n")
        sys.stdout.write(f"{summary_line(results)}\n")
    failed = any(r.role == "validation" and r.status == "fail" for r in results)
    return EXIT_VALIDATION_FAILED if failed else 0
