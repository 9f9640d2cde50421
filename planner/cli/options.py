"""Options and helpers every ``planner`` subcommand shares: the parser class, the scenario options,
``--format``, and turning parsed options into a scenario and a catalog.

Light on purpose: building the parser imports this module, so it imports only the standard
library at module level; the engine (pydantic, YAML, pandas) is imported inside the functions
that run after parsing. See ``docs/architecture.md`` (the CLI sits on top of the engine).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

if TYPE_CHECKING:
    import pandas as pd
    from pydantic import BaseModel

    from planner.catalog import Catalog
    from planner.engine import Plan
    from planner.scenario import Scenario

M = TypeVar("M", bound="BaseModel")
R = TypeVar("R")

OptionTable = Mapping[str, tuple[str, Any, str]]
"""Options that fill a pydantic model: field -> (flag, type, help). :func:`add_option_table` adds
them, :func:`collect_options` reads them back, :func:`validated_options` names the flag on error."""

EXIT_BAD_INPUT = 2
"""Exit code of bad input: one line on stderr naming the field and the allowed range."""

MAX_GPUS_TEXT = "1048576"
"""``planner.scenario.MAX_GPUS`` as shown in help texts (tests/test_cli_startup.py keeps them equal;
importing the scenario module would load pydantic just to print ``--help``)."""


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Examples (see :func:`examples`) keep their lines; other descriptions wrap to the terminal."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if text.startswith(EXAMPLES_HEADING):
            return super()._fill_text(text, width, indent)
        return argparse.HelpFormatter._fill_text(self, text, width, indent)


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit with :data:`EXIT_BAD_INPUT`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"planner: error: {message}\n")


EXAMPLES_HEADING = "examples:\n"


def examples(*lines: str) -> str:
    """An ``epilog`` listing example command lines, one a line."""
    return EXAMPLES_HEADING + "\n".join(f"  {line}" for line in lines)


def add_command(
    subparsers: Any, name: str, *, help_text: str, example_lines: Sequence[str], **kwargs: Any
) -> argparse.ArgumentParser:
    """A subcommand with its one-line help (also its description) and an examples epilog."""
    kwargs.setdefault("description", help_text)
    parser: argparse.ArgumentParser = subparsers.add_parser(
        name, help=help_text, epilog=examples(*example_lines), **kwargs
    )
    return parser


def gpu_count(text: str) -> int:
    """``--gpus``: a whole number of GPUs within the engine's range."""
    from planner.errors import InputError
    from planner.files import parse_whole
    from planner.scenario import MAX_GPUS

    try:
        value = parse_whole(text, field="gpus")  # ASCII digits only: "１２８" and " 12 " are refused
    except InputError:
        raise argparse.ArgumentTypeError(
            f"gpus must be a whole number between 1 and {MAX_GPUS} in ASCII digits 0-9 (got {text!r})"
        ) from None
    if not 1 <= value <= MAX_GPUS:
        raise argparse.ArgumentTypeError(f"gpus must be between 1 and {MAX_GPUS} (got {value})")
    return value


def add_scenario_options(parser: argparse.ArgumentParser, *, design: bool = True) -> None:
    """The options that describe a scenario; :func:`scenario_from_args` reads them back."""
    group = parser.add_argument_group("scenario")
    group.add_argument(
        "--gpus", type=gpu_count, help=f"GPU count (1 to {MAX_GPUS_TEXT}; 8-1024 is the focus)"
    )
    if design:
        group.add_argument("--design", help="design preset id (rail4-npo, rail8-npo, ib-ndr, ...)")
    group.add_argument("--gpu", help="GPU catalog id (default: the design's GPU)")
    group.add_argument("--server", help="server catalog id (default: the GPU's server)")
    group.add_argument("--scenario", metavar="FILE", help="scenario YAML/JSON file; flags override it")
    add_catalog_option(group)
    group.add_argument("--cooling", help="cooling catalog id (air, direct_liquid, immersion)")
    group.add_argument("--rack-kw", type=float, help="rack power limit [kW] (5 to 300)")
    group.add_argument("--currency", choices=["USD", "CNY"], help="report currency")
    group.add_argument(
        "--force-scale-out-fabric",
        action="store_true",
        help="plan a scale-out fabric even when the cluster fits one scale-up domain",
    )
    add_pool_options(parser)


POOL_OPTIONS = (
    (
        "--storage-write-gbyte-per-s",
        "storage_write_gbyte_per_s",
        "storage pool: checkpoint write target [GB/s]",
    ),
    ("--storage-read-gbyte-per-s", "storage_read_gbyte_per_s", "storage pool: dataset read target [GB/s]"),
    ("--storage-capacity-tbyte", "storage_capacity_tbyte", "storage pool: usable capacity target [TB]"),
    ("--frontend-gbit-per-gpu", "frontend_gbit_per_s_per_gpu", "front-end network: bandwidth per GPU [Gb/s]"),
    (
        "--frontend-gbit-per-node",
        "frontend_gbit_per_s_per_node",
        "front-end network: bandwidth per server [Gb/s]",
    ),
    ("--frontend-egress-gbit", "frontend_egress_gbit_per_s", "front-end network: uplinks to the site [Gb/s]"),
)
"""(flag, ``Scenario.pools`` field, help) of the pool targets; empty = today's per-GPU rule."""


def add_pool_options(parser: argparse.ArgumentParser) -> None:
    """The disaggregated pools' targets (docs/model.md, "Disaggregated pools")."""
    group = parser.add_argument_group("pools (sized independently of the GPU count)")
    for flag, field, help_text in POOL_OPTIONS:
        group.add_argument(flag, dest=f"pool_{field}", type=float, metavar="X", help=help_text)
    group.add_argument("--frontend-nic", dest="pool_frontend_nic_id", help="front-end NIC catalog id")


def add_catalog_option(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """``--catalog FILE``, repeatable; :func:`catalog_from_args` applies the files."""
    parser.add_argument(
        "--catalog",
        metavar="FILE",
        action="append",
        default=[],
        help="catalog override file (YAML/JSON), may be repeated",
    )


def add_designs_option(
    parser: argparse.ArgumentParser, *, help_text: str = "comma list of design ids"
) -> None:
    """``--designs a,b,c``; :func:`design_ids_from_args` reads it (default: the preset designs)."""
    parser.add_argument("--designs", help=f"{help_text} (default: the preset designs)")


def add_format_option(parser: argparse.ArgumentParser, choices: Sequence[str]) -> None:
    """``--format``, defaulting to the first choice."""
    parser.add_argument(
        "--format", choices=list(choices), default=choices[0], help=f"output format (default {choices[0]})"
    )


def add_option_table(
    parser: argparse.ArgumentParser, title: str, options: OptionTable
) -> argparse._ArgumentGroup:
    """An argument group with one option per field of ``options``; returned for further options."""
    group = parser.add_argument_group(title)
    for field, (flag, kind, text) in options.items():
        group.add_argument(flag, dest=field, type=kind, help=text)
    return group


def option_flags(options: OptionTable) -> dict[str, str]:
    """field -> flag of an option table (for :func:`validated_options`)."""
    return {field: flag for field, (flag, _, _) in options.items()}


def collect_options(args: argparse.Namespace, fields: Sequence[str]) -> dict[str, Any]:
    """The given options among ``fields`` (an option left out stays out: the model's default)."""
    return {f: getattr(args, f) for f in fields if getattr(args, f, None) is not None}


def validated_options(model: type[M], data: Mapping[str, Any], flags: Mapping[str, str]) -> M:
    """Validate options into ``model``; the one-line error names the flag, the field and the range."""
    import re

    from pydantic import ValidationError

    from planner.errors import InputError, describe_validation_error

    try:
        return model.model_validate(dict(data))
    except ValidationError as exc:
        text = describe_validation_error(exc, model=model)
        for field, flag in flags.items():
            text = re.sub(rf"(^|; ){field}:", rf"\g<1>{flag} ({field}):", text)
        raise InputError(f"options: {text}") from None


def read_hf_config(path: str) -> dict[str, Any]:
    """A Hugging Face ``config.json`` as a mapping (empty file: empty mapping); a file that cannot be
    read is an :class:`~planner.errors.InputError` naming it."""
    from pathlib import Path

    from planner.errors import InputError
    from planner.files import read_mapping
    from planner.i18n.message import msg

    return read_mapping(Path(path), what=msg("Hugging Face model config"), error=InputError) or {}


def design_ids_from_args(args: argparse.Namespace) -> tuple[str, ...]:
    """The ``--designs`` list, or the preset designs when it is not given."""
    if args.designs is None:
        from planner.compare import DEFAULT_DESIGNS

        return tuple(DEFAULT_DESIGNS)
    return tuple(d.strip() for d in args.designs.split(",") if d.strip())


def scenario_from_args(args: argparse.Namespace) -> Scenario:
    """The scenario file (if any) with flags applied on top, validated."""
    from planner.scenario import load_scenario, scenario_from_data

    data: dict[str, Any] = load_scenario(args.scenario).model_dump() if args.scenario else {}
    if args.gpus is not None:
        data["gpus"] = args.gpus
    if getattr(args, "design", None):
        data["design_id"] = args.design
        data["fabric"] = None
    if args.gpu:
        data["gpu_id"] = args.gpu
    if args.server:
        data["server_id"] = args.server
    if getattr(args, "force_scale_out_fabric", False):
        data["force_scale_out_fabric"] = True
    facility = dict(data.get("facility") or {})
    if args.cooling:
        facility["cooling_id"] = args.cooling
    if args.rack_kw is not None:
        facility["rack_power_limit_kw"] = args.rack_kw
    if args.currency:
        facility["currency"] = args.currency
    if facility:
        data["facility"] = facility
    pools = dict(data.get("pools") or {})
    for field in [f for _, f, _ in POOL_OPTIONS] + ["frontend_nic_id"]:
        value = getattr(args, f"pool_{field}", None)
        if value is not None:
            pools[field] = value
    if pools:
        data["pools"] = pools
    return scenario_from_data(data, source="options")


def plans_from_args(args: argparse.Namespace, scenario: Scenario, catalog: Catalog) -> tuple[Plan, ...]:
    """The scenario's plan, or (``--designs a,b``) the same scenario on each listed design."""
    from planner.compare import compare
    from planner.engine import plan

    if not args.designs:
        return (plan(scenario=scenario, catalog=catalog),)
    return compare(scenario=scenario, catalog=catalog, design_ids=design_ids_from_args(args))


def catalog_from_args(args: argparse.Namespace) -> Catalog:
    """The bundled catalog with the ``--catalog`` override files applied."""
    from planner.catalog import load_catalog

    return load_catalog(overrides=args.catalog)


def write(text: str) -> None:
    """Write ``text`` to stdout, ending in exactly one newline."""
    sys.stdout.write(text if text.endswith("\n") else text + "\n")


def write_json(data: Any) -> None:
    """Write ``data`` as indented JSON (non-ASCII kept as is)."""
    write(json.dumps(data, indent=2, ensure_ascii=False))


def write_results(
    results: Sequence[R],
    *,
    fmt: str,
    as_list: bool,
    to_dict: Callable[[R], Any],
    render: Callable[[Sequence[R]], str],
) -> None:
    """Per-design results as JSON (``as_list``: a list, else the first result's object) or as the
    text ``render`` makes of them."""
    if fmt == "json":
        write_json([to_dict(r) for r in results] if as_list else to_dict(results[0]))
    else:
        write(render(results))


def notes_block(notes: Iterable[str]) -> list[str]:
    """The lines that end a per-design table: a blank line, ``Notes:`` and each distinct note once,
    sorted (none without notes)."""
    distinct = sorted(set(notes))
    return ["", "Notes:", *(f"  - {n}" for n in distinct)] if distinct else []


def frame_records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """A data frame as JSON-ready records (numpy scalars and NaN made plain by pandas' JSON)."""
    records: list[dict[str, Any]] = json.loads(frame.to_json(orient="records"))
    return records


def designs_as_columns(frame: pd.DataFrame, formats: Mapping[str, str]) -> str:
    """A frame with one row per design as a text table with the designs as columns, each figure
    (row) formatted by ``formats[row]`` (``str.format`` pattern; as it is when missing)."""
    import pandas as pd

    columns = frame.set_index("design").T
    return str(
        pd.DataFrame(
            {
                column: [formats.get(str(row), "{}").format(value) for row, value in columns[column].items()]
                for column in columns.columns
            },
            index=columns.index,
        ).to_string()
    )


def emit_frame(frame: pd.DataFrame, fmt: str) -> str:
    """A data frame as CSV, a JSON list of records, or an aligned text table."""
    import pandas as pd

    if fmt == "csv":
        from planner.sheets import frame_csv

        return frame_csv(frame).rstrip("\n")
    if fmt == "json":
        return json.dumps(frame_records(frame), indent=2, ensure_ascii=False)
    with pd.option_context("display.max_columns", None, "display.width", 200):
        return str(frame.to_string(index=False, float_format=lambda v: f"{v:,.2f}"))
