"""Command-line interface: ``planner plan|compare|sweep|catalog``.

Exit codes: 0 success, 2 bad input (one line on stderr naming the field and the allowed range,
never a traceback).
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

import pandas as pd

from planner.catalog import FAMILIES, Catalog, load_catalog
from planner.compare import DEFAULT_DESIGNS, compare, crossovers, sweep
from planner.engine import Plan, plan
from planner.errors import PlannerError
from planner.outputs import plan_summary_row, plan_to_dict, summary_frame
from planner.scenario import MAX_GPUS, Scenario, load_scenario, scenario_from_data

EXIT_BAD_INPUT = 2

EXTENSIONS: tuple[str, ...] = (
    "planner.cli.scenarios",
    "planner.cli.optimize",
    "planner.cli.workload",
    "planner.cli.export",
)
"""Modules that add subcommands. Each defines ``add_parser(subparsers)`` and registers a handler
with ``parser.set_defaults(handler=fn)`` where ``fn(args) -> int`` writes to stdout and may raise
:class:`PlannerError` for bad input (exit 2). Scenario options: :func:`add_scenario_options` and
:func:`scenario_from_args`."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"planner: error: {message}\n")


def _gpu_count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"gpus must be a whole number between 1 and {MAX_GPUS} (got {text!r})"
        ) from None
    if not 1 <= value <= MAX_GPUS:
        raise argparse.ArgumentTypeError(f"gpus must be between 1 and {MAX_GPUS} (got {value})")
    return value


def _sizes(text: str) -> list[int]:
    """``8:1024:8`` (start:stop:step, inclusive) or ``8,64,512``."""
    try:
        if ":" in text:
            start, stop, step = (int(x) for x in text.split(":"))
            if step <= 0 or start <= 0 or stop < start:
                raise ValueError
            values = list(range(start, stop + 1, step))
        else:
            values = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"sizes must be START:STOP:STEP or a comma list of positive whole numbers (got {text!r})"
        ) from None
    if not values or any(not 1 <= v <= MAX_GPUS for v in values):
        raise argparse.ArgumentTypeError(f"sizes must lie between 1 and {MAX_GPUS} (got {text!r})")
    return values


def add_scenario_options(parser: argparse.ArgumentParser, *, design: bool = True) -> None:
    group = parser.add_argument_group("scenario")
    group.add_argument("--gpus", type=_gpu_count, help="GPU count (1 to 1048576; 8-1024 is the focus)")
    if design:
        group.add_argument("--design", help="design preset id (rail4-npo, rail8-npo, ib-ndr, ...)")
    group.add_argument("--gpu", help="GPU catalog id (default: the design's GPU)")
    group.add_argument("--server", help="server catalog id (default: the GPU's server)")
    group.add_argument("--scenario", metavar="FILE", help="scenario YAML/JSON file; flags override it")
    group.add_argument(
        "--catalog",
        metavar="FILE",
        action="append",
        default=[],
        help="catalog override file (YAML/JSON), may be repeated",
    )
    group.add_argument("--cooling", help="cooling catalog id (air, direct_liquid, immersion)")
    group.add_argument("--rack-kw", type=float, help="rack power limit [kW] (5 to 300)")
    group.add_argument("--currency", choices=["USD", "CNY"], help="report currency")


def _format_option(parser: argparse.ArgumentParser, choices: Sequence[str]) -> None:
    parser.add_argument("--format", choices=list(choices), default="table", help="output format")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="planner", description="GPU Cluster Planner: size, compare and cost GPU cluster networks."
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p_plan = sub.add_parser("plan", help="plan one cluster")
    add_scenario_options(p_plan)
    _format_option(p_plan, ["table", "json", "csv"])

    p_compare = sub.add_parser("compare", help="one scenario across designs")
    add_scenario_options(p_compare, design=False)
    p_compare.add_argument("--designs", default=",".join(DEFAULT_DESIGNS), help="comma list of design ids")
    _format_option(p_compare, ["table", "json", "csv"])

    p_sweep = sub.add_parser("sweep", help="designs across sizes")
    add_scenario_options(p_sweep, design=False)
    p_sweep.add_argument("--designs", default=",".join(DEFAULT_DESIGNS), help="comma list of design ids")
    p_sweep.add_argument("--sizes", type=_sizes, help="START:STOP:STEP or a comma list (default 8:1024:node)")
    _format_option(p_sweep, ["table", "json", "csv"])

    p_catalog = sub.add_parser("catalog", help="list or validate the component catalog")
    catalog_sub = p_catalog.add_subparsers(dest="catalog_command", required=True, parser_class=_Parser)
    p_list = catalog_sub.add_parser("list", help="list catalog records")
    p_list.add_argument("--family", choices=list(FAMILIES), help="only this family")
    p_list.add_argument("--catalog", metavar="FILE", action="append", default=[])
    _format_option(p_list, ["table", "json", "csv"])
    p_validate = catalog_sub.add_parser("validate", help="check the catalog and override files")
    p_validate.add_argument("--catalog", metavar="FILE", action="append", default=[])
    for module_name in EXTENSIONS:
        importlib.import_module(module_name).add_parser(sub)
    return parser


def scenario_from_args(args: argparse.Namespace) -> Scenario:
    """The scenario file (if any) with flags applied on top, validated."""
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
    facility = dict(data.get("facility") or {})
    if args.cooling:
        facility["cooling_id"] = args.cooling
    if args.rack_kw is not None:
        facility["rack_power_limit_kw"] = args.rack_kw
    if args.currency:
        facility["currency"] = args.currency
    if facility:
        data["facility"] = facility
    return scenario_from_data(data, source="options")


def _money(value: float) -> str:
    return f"{value:,.0f}"


def render_plan_table(p: Plan) -> str:
    """A readable text summary of one plan."""
    d = plan_to_dict(p)
    f, bw, lat, pw, co, cost = d["fabric"], d["bandwidth"], d["latency"], d["power"], d["cooling"], d["cost"]
    lines = [
        f"{p.design_name} [{p.design_id}] - {p.gpus} x {p.gpu_name} in {p.nodes} nodes, {p.racks.total} racks",
        "",
        f"Fabric      {f['tiers']} tier(s), {f['planes']} plane(s), {f['rails']} rail(s), "
        f"{f['ports_per_gpu']} x {f['port_speed_gbit_per_s']}G per GPU, oversubscription {f['oversubscription']:g}:1",
        f"Switches    leaf {f['switches']['leaf']}, spine {f['switches']['spine']}, core {f['switches']['core']}, "
        f"total {f['switches']['total']}",
        f"Links       node-leaf {f['links']['node_leaf']}, leaf-spine {f['links']['leaf_spine']}, "
        f"spine-core {f['links']['spine_core']}; cables {f['cables']}, transceivers/optical ports {f['transceivers']}",
        f"Bandwidth   {bw['per_gpu_gbit_per_s']:g} Gb/s per GPU; bisection {bw['bisection_tbit_per_s']:g} Tb/s; "
        f"all-reduce busbw {bw['allreduce_busbw_gbyte_per_s']:.1f} GB/s ({bw['allreduce_bound']}-bound); "
        f"all-to-all {bw['alltoall_busbw_gbyte_per_s']:.1f} GB/s ({bw['alltoall_bound']}-bound)",
        f"Latency     {lat['gpu_to_gpu_min_ns']:.0f}-{lat['gpu_to_gpu_ns']:.0f} ns GPU to GPU "
        f"({lat['min_switch_hops']}-{lat['max_switch_hops']} switch hops); 8 B all-reduce {lat['allreduce_small_us']:.1f} us",
        f"Power       IT {pw['it_kw']:,.1f} kW (avg {pw['it_avg_kw']:,.1f}); facility {pw['facility_kw']:,.1f} kW at PUE {pw['pue']:g}",
        f"Cooling     {co['method']}: heat {co['heat_load_kw']:,.1f} kW, liquid {co['liquid_kw']:,.1f} kW, "
        f"air {co['air_kw']:,.1f} kW, coolant {co['coolant_flow_l_per_min']:,.0f} L/min, CDUs {co['cdus']}",
        f"Cost        CAPEX {_money(cost['capex_usd'])} USD; OPEX {_money(cost['opex_usd_per_year'])} USD/yr; "
        f"TCO {cost['years']} yr {_money(cost['tco_usd'])} USD; {cost['usd_per_gpu_hour']:.2f} USD/GPU-hour",
    ]
    if p.cost.currency == "CNY":
        lines.append(
            f"            CAPEX {_money(cost['capex_cny'])} CNY; TCO {_money(cost['tco_cny'])} CNY "
            f"(at {cost['usd_to_cny']:g} CNY/USD)"
        )
    lines += ["", "Cost by category (USD):"]
    lines += [f"  {k:<16} {_money(v):>16}" for k, v in cost["by_category_usd"].items() if v]
    lines += ["", "Notes:"] + [f"  - {n}" for n in d["notes"]]
    if d["vendor_claims"]:
        lines += ["", "Vendor claims (not computed, not verified):"]
        lines += [f"  - {c['text']}" for c in d["vendor_claims"]]
    return "\n".join(lines)


def render_compare_table(frame: pd.DataFrame) -> str:
    """Designs as columns, metrics as rows, each value formatted for reading."""
    columns = {}
    for _, row in frame.iterrows():
        columns[str(row["design"])] = [
            f"{v:,.0f}" if isinstance(v, int) or (isinstance(v, float) and abs(v) >= 100) else f"{v:,.2f}"
            for v in row.drop("design")
        ]
    table = pd.DataFrame(columns, index=[c for c in frame.columns if c != "design"])
    return str(table.to_string())


def _emit_frame(frame: pd.DataFrame, fmt: str) -> str:
    if fmt == "csv":
        return str(frame.to_csv(index=False)).rstrip("\n")
    if fmt == "json":
        return json.dumps(json.loads(frame.to_json(orient="records")), indent=2, ensure_ascii=False)
    with pd.option_context("display.max_columns", None, "display.width", 200):
        return str(frame.to_string(index=False, float_format=lambda v: f"{v:,.2f}"))


def catalog_from_args(args: argparse.Namespace) -> Catalog:
    """The bundled catalog with the ``--catalog`` override files applied."""
    return _catalog(args.catalog)


def _catalog(files: Sequence[str]) -> Catalog:
    return load_catalog(overrides=files)


def run(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit code."""
    args = build_parser().parse_args(argv)
    out = sys.stdout
    handler = getattr(args, "handler", None)
    if handler is not None:
        code: int = handler(args)
        return code
    if args.command == "catalog":
        catalog = _catalog(args.catalog)
        if args.catalog_command == "validate":
            counts = ", ".join(f"{len(catalog.family(f))} {f}" for f in FAMILIES)
            out.write(f"catalog OK: {counts}\n")
            return 0
        rows = [
            {
                "family": family,
                "id": r.id,
                "name": r.name,
                "source": r.source or "",
                "as_of": r.as_of or "",
                "assumption": r.assumption,
            }
            for family, r in catalog.records()
            if args.family in (None, family)
        ]
        out.write(_emit_frame(pd.DataFrame(rows), args.format) + "\n")
        return 0

    catalog = _catalog(args.catalog)
    scenario = scenario_from_args(args)
    if args.command == "plan":
        result = plan(scenario=scenario, catalog=catalog)
        if args.format == "json":
            out.write(json.dumps(plan_to_dict(result), indent=2, ensure_ascii=False) + "\n")
        elif args.format == "csv":
            out.write(_emit_frame(pd.DataFrame([plan_summary_row(result)]), "csv") + "\n")
        else:
            out.write(render_plan_table(result) + "\n")
        return 0
    design_ids = [d.strip() for d in args.designs.split(",") if d.strip()]
    if args.command == "compare":
        plans = compare(scenario=scenario, catalog=catalog, design_ids=design_ids)
        if args.format == "json":
            out.write(json.dumps([plan_to_dict(p) for p in plans], indent=2, ensure_ascii=False) + "\n")
        else:
            frame = summary_frame(plans)
            text = _emit_frame(frame, "csv") if args.format == "csv" else render_compare_table(frame)
            out.write(text + "\n")
        return 0
    frame = sweep(scenario=scenario, catalog=catalog, design_ids=design_ids, sizes=args.sizes)
    out.write(_emit_frame(frame, args.format) + "\n")
    if args.format == "table":
        for c in crossovers(frame):
            out.write(
                f"crossover ({c.metric}): {c.better_before} better up to {c.gpus_before} GPUs, "
                f"{c.better_after} from {c.gpus_after}\n"
            )
    return 0


def main(argv: Sequence[str] | None = None) -> None:
    """Console-script entry point: bad input exits 2 with one line, never a traceback."""
    try:
        code = run(argv)
    except PlannerError as exc:
        sys.stderr.write(f"planner: error: {exc}\n")
        code = EXIT_BAD_INPUT
    except BrokenPipeError:
        code = 0
    sys.exit(code)


if __name__ == "__main__":
    main()
