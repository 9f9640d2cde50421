"""``planner plan``, ``planner compare`` and ``planner sweep``: one cluster, one scenario across
designs, designs across sizes.

``plan --format json`` is an interface other tools rely on: its keys are those of
:func:`planner.outputs.plan_to_dict`. The engine is imported inside the handlers, so building the
parser (``planner --help``) stays cheap.

Examples::

    planner plan --gpus 1024 --design rail8-npo
    planner plan --gpus 512 --design ib-ndr --cooling direct_liquid --format json
    planner plan --scenario cluster.yaml --rack-kw 60 --currency CNY
    planner compare --gpus 256
    planner compare --gpus 1024 --designs rail4-npo,ib-ndr --format csv
    planner compare --gpus 1024 --designs rail4-npo,rail8-npo,ib-ndr --workload mix.yaml --format json
    planner sweep
    planner sweep --designs rail4-npo,ib-ndr --sizes 8:1024:64 --format csv
    planner sweep --sizes 64,256,1024 --format json
"""

from __future__ import annotations

import argparse
import math
import sys
from typing import TYPE_CHECKING, Any

from planner.cli.options import (
    MAX_GPUS_TEXT,
    add_command,
    add_format_option,
    add_number_option,
    catalog_from_args,
    design_ids_from_args,
    emit_frame,
    emit_rows,
    plain_records,
    positive_int,
    scenario_from_args,
    write,
    write_json,
)

if TYPE_CHECKING:
    import pandas as pd

    from planner.engine import Plan

FORMATS = ("table", "json", "csv")


def _sizes(text: str) -> list[int]:
    """``8:1024:8`` (start:stop:step, inclusive) or ``8,64,512``."""
    from planner.inputs.scenario import MAX_GPUS

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


def add_parsers(subparsers: Any) -> None:
    """Register ``plan``, ``compare`` and ``sweep``.

    Parameters
    ----------
    subparsers : Any
        The ``planner`` parser's subparsers action.
    """
    p_plan = add_command(
        subparsers,
        "plan",
        help_text="plan one cluster: fabric, bandwidth, latency, power, cooling and cost",
        doc=__doc__,
        scenario="design",
        handler=run_plan,
    )
    add_format_option(p_plan, FORMATS)

    p_compare = add_command(
        subparsers,
        "compare",
        help_text="one scenario across designs, with the same GPU",
        doc=__doc__,
        scenario="designs",
        handler=run_compare,
    )
    p_compare.add_argument(
        "--workload",
        metavar="FILE",
        help="workload file: a YAML/JSON list of entries, each kind (training or serving), the job's "
        "fields and weight (share of the cluster's time) or a required rate (required_tokens_per_s, "
        "required_tokens_per_day, or deadline_days for training: the share it needs follows per "
        "design, and a design that cannot reach it is infeasible); the designs are then ranked by "
        "cost per outcome (default: the scenario's workload, else the price per GPU-hour)",
    )
    p_compare.add_argument(
        "--samples", type=positive_int, default=2000, help="Monte Carlo draws, 100 to 200000 (default 2000)"
    )
    add_number_option(p_compare, "--seed", whole=True, default=0, help_text="random seed of the draws")
    add_format_option(p_compare, FORMATS)

    p_sweep = add_command(
        subparsers,
        "sweep",
        help_text="designs across cluster sizes, with the crossover points",
        doc=__doc__,
        scenario="designs",
        handler=run_sweep,
    )
    p_sweep.add_argument(
        "--sizes",
        type=_sizes,
        help=f"START:STOP:STEP (inclusive) or a comma list, each 1 to {MAX_GPUS_TEXT} "
        "(default 8:1024 in steps of one server)",
    )
    add_format_option(p_sweep, FORMATS)
    _add_grid_options(p_sweep)


def _add_grid_options(parser: argparse.ArgumentParser) -> None:
    """The grid form of ``sweep`` (docs/deploy.md): any scenario fields, on Dask, to Parquet."""
    group = parser.add_argument_group(
        "grid sweep",
        "planner sweep --grid GRID.yaml --out FILE.parquet [--workers N | --scheduler ADDRESS]: "
        "every point of the grid planned on dask.distributed, one Parquet row per point",
    )
    group.add_argument(
        "--grid", metavar="GRID.yaml", help="grid file: dotted scenario field -> list or {start, stop, step}"
    )
    group.add_argument("--out", metavar="FILE.parquet", help="Parquet file to write (required with --grid)")
    where = group.add_mutually_exclusive_group()
    where.add_argument(
        "--workers",
        type=positive_int,
        help="worker processes of the local Dask cluster (default: one per CPU)",
    )
    where.add_argument(
        "--scheduler", metavar="ADDRESS", help="a running Dask scheduler, e.g. tcp://host:8786"
    )
    group.add_argument("--batch-points", type=positive_int, help="points per Dask task (default 500)")
    group.add_argument("--yes", action="store_true", help="plan a grid of more than 1e9 points")


def _money(value: float) -> str:
    return f"{value:,.0f}"


def render_plan_table(p: Plan) -> str:
    """A readable text summary of one plan.

    Parameters
    ----------
    p : Plan
        The plan.

    Returns
    -------
    str
        The text (bandwidth [Gb/s, GB/s], latency [ns], power [kW], cost [USD]).
    """
    from planner.i18n.counts import agree
    from planner.outputs import plan_to_dict

    d = plan_to_dict(p)
    f, bw, lat, pw, co, cost = d["fabric"], d["bandwidth"], d["latency"], d["power"], d["cooling"], d["cost"]
    head = {"design": p.design_name, "id": p.design_id, "gpus": p.gpus, "gpu": p.gpu_name}
    head |= {"nodes": p.nodes, "racks": p.racks.total}
    lines = [
        agree("{design} [{id}] - {gpus} x {gpu} in {nodes} nodes, {racks} racks", head).format(**head),
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


def _cell(v: Any) -> str:
    """One value of the compare table: ``-`` where there is none (a design that cannot meet the
    workload's required rates has no cost per outcome)."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "-"
    if isinstance(v, bool):
        return str(v).lower()
    return f"{v:,.0f}" if isinstance(v, int) or (isinstance(v, float) and abs(v) >= 100) else f"{v:,.2f}"


def render_compare_table(frame: pd.DataFrame) -> str:
    """Designs as columns, metrics as rows, each value formatted for reading.

    Parameters
    ----------
    frame : pd.DataFrame
        Summary frame, one row per design (column ``design``).

    Returns
    -------
    str
        The table text.
    """
    import pandas as pd

    columns = {}
    for _, row in frame.iterrows():
        columns[str(row["design"])] = [_cell(v) for v in row.drop("design")]
    table = pd.DataFrame(columns, index=[c for c in frame.columns if c != "design"])
    return str(table.to_string())


def run_plan(args: argparse.Namespace) -> int:
    """``planner plan``: one plan as a table, JSON (the contract keys) or one CSV row.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (scenario, ``--format``).

    Returns
    -------
    int
        Exit status, 0.
    """
    from planner.engine import plan

    result = plan(scenario=scenario_from_args(args), catalog=catalog_from_args(args))
    if args.format == "json":
        from planner.outputs import plan_to_dict

        write_json(plan_to_dict(result))
    elif args.format == "csv":
        from planner.outputs import plan_summary_row

        write(emit_rows(rows=[plan_summary_row(result)], fmt="csv"))
    else:
        write(render_plan_table(result))
    return 0


def run_compare(args: argparse.Namespace) -> int:
    """``planner compare``: the scenario planned with each design, ranked by cost per outcome.

    JSON is the decision (:meth:`planner.decision.draws.Decision.to_dict`: ``rule``,
    ``outcome_unit``, ``recommended``, ``designs`` with ``cost_per_outcome``, its P10/P90 and
    ``p_best``) with each design's plan under ``plans``; CSV is the plans' summary rows with the
    decision's columns; the table ends with the recommendation sentence.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (scenario, ``--designs``, ``--workload``, ``--samples``, ``--seed``).

    Returns
    -------
    int
        Exit status, 0.
    """
    from planner.decision.draws import decide, decision_spec
    from planner.decision.sentence import error_note, recommendation
    from planner.outputs import plan_to_dict, summary_frame

    scenario = scenario_from_args(args)
    if args.workload:
        from planner.inputs.scenario import load_workload

        scenario = scenario.with_updates(workload=load_workload(args.workload))
    catalog = catalog_from_args(args)
    spec = decision_spec({"samples": args.samples, "seed": args.seed})
    decision = decide(scenario=scenario, catalog=catalog, design_ids=design_ids_from_args(args), spec=spec)
    plans = [d.outcome.plan for d in decision.designs]
    if args.format == "json":
        out = {**decision.to_dict(), "plans": [plan_to_dict(p) for p in plans]}
        write_json(out)
        return 0
    frame = summary_frame(plans)
    for column, values in _decision_columns(decision).items():
        frame[column] = values
    if args.format == "csv":
        write(emit_frame(frame, "csv"))
        return 0
    sentence = recommendation(decision, catalog=catalog)
    write(f"{render_compare_table(frame)}\n\n{sentence}.\n{error_note(decision)}.")
    return 0


def _decision_columns(decision: Any) -> dict[str, list[Any]]:
    """The decision's per-design figures as summary-frame columns (same order as the plans)."""
    rows = decision.to_dict()["designs"]
    keys = ("cost_per_outcome", "cost_per_outcome_low", "cost_per_outcome_high", "p_best", "feasible",
            "cluster_share_needed")  # fmt: skip
    return {key: [r.get(key) for r in rows] for key in keys if key in rows[0]}


def run_sweep(args: argparse.Namespace) -> int:
    """``planner sweep``: every design at every size it can build; the sizes it cannot are listed.

    JSON is ``{"sweep": [rows], "skipped": [runs]}``; CSV is the rows (a parser reads one
    table), the skipped runs going to stderr as notes; the table ends with the skipped runs and
    the crossovers.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (scenario, ``--sizes``, ``--designs``, ``--format``).

    Returns
    -------
    int
        Exit status, 0.
    """
    if args.grid is not None or args.out is not None:
        return run_grid_sweep(args)
    from planner.compare import crossovers, sweep

    result = sweep(
        scenario=scenario_from_args(args),
        catalog=catalog_from_args(args),
        design_ids=design_ids_from_args(args),
        sizes=args.sizes,
    )
    if args.format == "json":
        write_json({"sweep": plain_records(result.rows), "skipped": [s.to_dict() for s in result.skipped]})
        return 0
    write(emit_frame(result.frame, args.format))
    lines = [
        f"skipped {s.design_id}: {s.sizes:,} size(s) from {s.gpus_from:,} to {s.gpus_to:,} GPUs: {s.reason}"
        for s in result.skipped
    ]
    if args.format == "csv":
        sys.stderr.write("".join(f"planner: note: {line}\n" for line in lines))
        return 0
    sys.stdout.write("".join(f"{line}\n" for line in lines))
    for c in crossovers(result.frame):
        sys.stdout.write(
            f"crossover ({c.metric}): {c.better_before} better up to {c.gpus_before} GPUs, "
            f"{c.better_after} from {c.gpus_after}\n"
        )
    return 0


def run_grid_sweep(args: argparse.Namespace) -> int:
    """``planner sweep --grid``: every point of a grid on Dask, one Parquet row per point.

    The summary (points, refused points, workers, plans per second) goes to stdout, the
    progress bar to stderr.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (``--grid``, ``--out``, workers).

    Returns
    -------
    int
        Exit status, 0.
    """
    from pathlib import Path

    from planner.errors import InputError
    from planner.sweep import MAX_POINTS, ProgressBar, SweepJob, load_grid, run_sweep
    from planner.sweep.run import BATCH_POINTS

    if args.grid is None or args.out is None:
        raise InputError("--grid and --out go together: planner sweep --grid GRID.yaml --out FILE.parquet")
    if args.sizes is not None or args.designs is not None:
        raise InputError("--sizes/--designs do not apply to --grid: put gpus and design_id in the grid")
    scenario, catalog = scenario_from_args(args), catalog_from_args(args)
    grid = load_grid(args.grid, base=scenario, catalog=catalog, max_points=None if args.yes else MAX_POINTS)
    result = run_sweep(
        job=SweepJob(grid=grid, base=scenario.model_dump(), catalog=catalog),
        out=Path(args.out),
        workers=args.workers,
        scheduler=args.scheduler,
        batch_points=args.batch_points or BATCH_POINTS,
        progress=ProgressBar(sys.stderr),
    )
    write(
        f"{result.points:,} points ({result.errors:,} refused by the engine) on {result.workers} "
        f"worker(s) in {result.seconds:,.1f} s, {result.plans_per_s:,.0f} plans/s -> {result.out}"
    )
    return 0
