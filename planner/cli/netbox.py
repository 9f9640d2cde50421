"""``planner netbox push``: the plan's racks, devices and cables created in a NetBox.

::

    planner netbox push --url https://netbox.example.com --token $NETBOX_TOKEN \\
        --gpus 1024 --design rail8-npo

Idempotent: what NetBox already holds (by slug, name, device and interface) is left as it is,
so a second push reports 0 created. Progress goes to stderr (a line per finished kind, at most
one every 10 s in between). An unreachable NetBox or a refused token exits 2 naming ``--url``.

Examples::

    planner netbox push --url http://localhost:8000 --token TOKEN --gpus 1024
    planner netbox push --url http://localhost:8000 --token TOKEN --gpus 256 --design ib-ndr
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from typing import Any

from planner.cli.handoff import add_layout_options, build_from_args
from planner.cli.options import add_command, add_scenario_options, write, write_json


def add_parser(subparsers: Any) -> None:
    """Register ``planner netbox`` and ``planner netbox push``.

    Parameters
    ----------
    subparsers : Any
        The ``planner`` parser's subparsers action.
    """
    from planner.cli.options import Parser

    parser = add_command(
        subparsers,
        "netbox",
        help_text="NetBox: create the plan's sites, racks, device types, devices and cables",
        doc=__doc__,
    )
    sub = parser.add_subparsers(dest="netbox_command", required=True, metavar="COMMAND", parser_class=Parser)
    push = add_command(
        sub,
        "push",
        help_text="create what NetBox lacks of the plan (a second push creates nothing)",
        doc=__doc__,
        handler=run_push,
    )
    group = push.add_argument_group("NetBox")
    group.add_argument(
        "--url", default=os.environ.get("NETBOX_URL"), help="NetBox address (default: $NETBOX_URL)"
    )
    group.add_argument(
        "--token", default=os.environ.get("NETBOX_TOKEN"), help="API token (default: $NETBOX_TOKEN)"
    )
    add_scenario_options(push)
    add_layout_options(push, formats=True)


PROGRESS_EVERY_S = 10.0
"""Seconds between progress lines on stderr (a first push of 1024 GPUs takes NetBox hours)."""


def _progress_to_stderr() -> Callable[[str, int, int], None]:
    """A progress callback printing ``netbox push: <kind> <done>/<missing> created`` on stderr
    when a kind is finished and at most every :data:`PROGRESS_EVERY_S` seconds in between."""
    last = time.monotonic()

    def report(kind: str, done: int, missing: int) -> None:
        nonlocal last
        now = time.monotonic()
        if done == missing or now - last >= PROGRESS_EVERY_S:
            sys.stderr.write(f"netbox push: {kind} {done}/{missing} created\n")
            last = now

    return report


def run_push(args: argparse.Namespace) -> int:
    """Connect, push, and print the objects created and found per kind.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (``--url``, ``--token``, scenario and floor options).

    Returns
    -------
    int
        Exit status, 0.
    """
    from planner.cli.options import emit_rows
    from planner.errors import InputError
    from planner.handoff import netbox_push

    for option in ("url", "token"):
        if not getattr(args, option):
            raise InputError(f"--{option}: required (or set NETBOX_{option.upper()})")
    handoff, catalog = build_from_args(args)
    api = netbox_push.connect(url=args.url, token=args.token)
    report = netbox_push.push(api=api, handoff=handoff, catalog=catalog, progress=_progress_to_stderr())
    if args.format == "json":
        write_json({"created_total": report.created_total, "objects": report.rows()})
        return 0
    write(emit_rows(rows=report.rows(), fmt=args.format))
    if args.format == "table":
        write(f"created {report.created_total} objects in {args.url}")
    return 0
