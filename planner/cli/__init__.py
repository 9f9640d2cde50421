"""Command-line interface: ``planner plan|compare|sweep|catalog|scenarios|optimize|workload|
reliability|export|calibrate|accept``.

One module per subcommand group, registered by the static table :data:`COMMAND_GROUPS`. Each
module's ``add_parser(subparsers)`` adds its subcommands and sets ``handler=fn`` where
``fn(args) -> int`` writes to stdout and may raise :class:`planner.errors.PlannerError` for bad
input. Building the parser imports only argparse and these light modules; each handler imports
the engine (pandas, SQLAlchemy, PuLP, Plotly) when it runs, so ``planner --help`` starts fast.

Exit codes: 0 success, 2 bad input (one line on stderr naming the field and the allowed range,
never a traceback).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

from planner.cli import (
    catalog,
    export,
    handoff,
    measure,
    netbox,
    optimize,
    planning,
    scenarios,
    serve,
    tenants,
    validate,
    workload,
)
from planner.cli.options import EXIT_BAD_INPUT, Parser, error_line, examples

__all__ = ["COMMAND_GROUPS", "EXIT_BAD_INPUT", "GROUP_OF_COMMAND", "build_parser", "main", "run"]

_GROUPS: tuple[tuple[Callable[[Any], None], tuple[str, ...]], ...] = (
    (planning.add_parsers, ("plan", "compare", "sweep")),
    (catalog.add_parser, ("catalog",)),
    (scenarios.add_parser, ("scenarios",)),
    (optimize.add_parser, ("optimize",)),
    (workload.add_parser, ("workload", "reliability")),
    (serve.add_parser, ("serve",)),
    (export.add_parser, ("export",)),
    (handoff.add_parser, ("layout",)),
    (netbox.add_parser, ("netbox",)),
    (tenants.add_parser, ("tenants",)),
    (validate.add_parser, ("validate",)),
    (measure.add_parser, ("calibrate", "accept")),
)
COMMAND_GROUPS: tuple[Callable[[Any], None], ...] = tuple(add for add, _ in _GROUPS)
"""Every subcommand group, in the order ``planner --help`` lists them."""
GROUP_OF_COMMAND: dict[str, Callable[[Any], None]] = {name: add for add, names in _GROUPS for name in names}
"""The group that registers each command (tests/test_cli_startup.py keeps it true): running one
command builds only its group's options, several of which are generated from the engine's models."""

EXAMPLES = examples(
    "planner plan --gpus 1024 --design rail8-npo",
    "planner compare --gpus 256 --format csv",
    "planner sweep --designs rail4-npo,ib-ndr --sizes 8:1024:64",
    "planner catalog list --family switches",
    "planner workload --params-b 70 --tokens-b 1400 --gpus 1024 --design ib-ndr",
    "planner export --gpus 1024 --lang en --edition customer --pdf proposal.pdf",
    "planner <command> --help          options and examples of one command",
)


class _Version(argparse.Action):
    """``--version``: the installed package's version, looked up only when asked for."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *_: Any) -> None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            text = version("gpu-cluster-planner")
        except PackageNotFoundError:
            text = "unknown (not installed)"
        sys.stdout.write(f"planner {text}\n")
        parser.exit(0)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The ``planner`` parser with every subcommand, or (``command``) with that command's group
    only; it imports no engine module.

    Parameters
    ----------
    command : str or None
        First word of the command line; a known command builds only its group's parser, anything
        else every group.

    Returns
    -------
    argparse.ArgumentParser
        The parser (one-line errors, exit status 2).
    """
    parser = Parser(
        prog="planner",
        description="GPU Cluster Planner: size, compare and cost GPU cluster networks.",
        epilog=EXAMPLES,
    )
    parser.add_argument("--version", action=_Version, help="print the version and exit")
    sub = parser.add_subparsers(dest="command", title="commands", metavar="COMMAND", parser_class=Parser)
    for add in (GROUP_OF_COMMAND[command],) if command in GROUP_OF_COMMAND else COMMAND_GROUPS:
        add(sub)
    return parser


def run(argv: Sequence[str] | None = None) -> int:
    """Run the CLI in this process and return the exit code (``--help`` and bad options too).

    Parameters
    ----------
    argv : Sequence[str] or None
        Arguments after ``planner``; ``None`` reads ``sys.argv``.

    Returns
    -------
    int
        Exit status: the command's own (0 on success), 2 for bad input or an unwritable file,
        1 when the output cannot be written.
    """
    words = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(words[0] if words else None)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return 0 if exit_.code is None else exit_.code if isinstance(exit_.code, int) else EXIT_BAD_INPUT
    if args.command is None:  # bare ``planner``: the command list, as for a missing argument
        sys.stderr.write(parser.format_help())
        return EXIT_BAD_INPUT
    from planner.errors import PlannerError

    try:
        code: int = args.handler(args)
    except PlannerError as exc:
        sys.stderr.write(error_line(str(exc)))
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        return 0
    except OSError as exc:  # a file name too long, a full disk: one line, no traceback
        where = f"{exc.filename}: " if exc.filename else "cannot write the output: "
        sys.stderr.write(error_line(f"{where}{exc.strerror or type(exc).__name__}"))
        return EXIT_BAD_INPUT if exc.filename else 1
    return code


def main(argv: Sequence[str] | None = None) -> None:
    """Console-script entry point: exits with :func:`run`'s code (1 when the output cannot be
    written, e.g. stdout on a full disk, in one line).

    Parameters
    ----------
    argv : Sequence[str] or None
        Arguments after ``planner``; ``None`` reads ``sys.argv``.
    """
    code = run(argv)
    try:
        sys.stdout.flush()
    except OSError as exc:
        sys.stderr.write(error_line(f"cannot write the output: {exc.strerror or type(exc).__name__}"))
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second failure at exit
        code = code or 1
    sys.exit(code)
