"""``planner optimize``: the same scenario options as ``planner plan`` plus objective and limits.

The solver (PuLP) is imported when the command runs, not when the parser is built.

Examples::

    planner optimize --gpus 1024 --design ib-ndr
    planner optimize --gpus 1024 --design rail8-npo --objective tco --power-cap-kw 2000
    planner optimize --design ib-ndr --objective max-gpus --budget-usd 50000000
    planner optimize --gpus 512 --design rail4-npo --pareto power --format json
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from planner.cli.options import (
    add_command,
    add_format_option,
    add_model_options,
    catalog_from_args,
    model_options,
    scenario_from_args,
    write_json,
)
from planner.cli.planning import render_plan_table

if TYPE_CHECKING:
    from planner.optimize.run import OptimizeResult


def add_parser(sub: Any) -> None:
    """Register ``planner optimize`` (objective and limits generated from
    :class:`~planner.inputs.optimize.OptimizeRequest`).

    Parameters
    ----------
    sub : Any
        The ``planner`` parser's subparsers action.
    """
    from planner.inputs import optimize

    parser = add_command(
        sub,
        "optimize",
        help_text="cheapest BOM under limits, or most GPUs within them",
        doc=__doc__,
        scenario="design",
        handler=run_optimize,
    )
    limits = add_model_options(parser, optimize.OptimizeRequest, "objective and limits")
    limits.add_argument("--pareto", choices=["power", "bandwidth"], help="print a Pareto front instead")
    add_format_option(parser, ["table", "json"])


def _request(args: argparse.Namespace) -> dict[str, Any]:
    """The optimizer request of the options; ``--rack-kw`` (the scenario's rack limit) is its limit too."""
    from planner.inputs import optimize
    from planner.inputs.scenario import Scenario

    data = model_options(args, optimize.OptimizeRequest)
    rack_kw = model_options(args, Scenario).get("facility", {}).get("rack_power_limit_kw")
    return data if rack_kw is None else {**data, "rack_kw": rack_kw}


def render_result_table(result: OptimizeResult) -> str:
    """The optimizer's answer as text: status, objective in its unit, choices, the preset.

    Parameters
    ----------
    result : OptimizeResult
        The optimizer's result.

    Returns
    -------
    str
        The text (CAPEX and saving [USD], solve time [s], gap [%]).
    """
    from planner.optimize.run import OBJECTIVE_UNITS

    c = result.choices
    media = ", ".join(f"{k} {v}" for k, v in c["media"].items())
    # a tier the design does not have (no spine, no core) is left out rather than printed as None
    switches = ", ".join(
        f"{tier} {c[f'{tier}_switch']}" for tier in ("leaf", "spine", "core") if c[f"{tier}_switch"]
    )
    saving = "n/a" if result.saving_vs_preset_usd is None else f"{result.saving_vs_preset_usd:,.0f} USD"
    if result.objective == "max-gpus":
        against = f"GPUs {result.preset_plan.gpus:,} -> {result.plan.gpus:,}"
    else:
        against = f"saving {saving}"
    gap = "n/a" if result.gap is None else f"{result.gap:.2%}"
    lines = [
        f"Optimizer   {result.status} ({result.solver}, {result.solve_time_s:.2f} s, gap {gap}); "
        f"objective {result.objective} = {result.objective_value:,.0f} {OBJECTIVE_UNITS[result.objective]}",
        f"Choices     {switches}; media {media}; cooling {c['cooling']}",
        f"vs preset   {result.preset_plan.design_id}: CAPEX {result.preset_plan.cost.capex_usd:,.0f} USD; {against}",
    ]
    lines += [f"Note        {n}" for n in result.notes]
    return "\n".join(lines) + "\n\n" + render_plan_table(result.plan)


def run_optimize(args: argparse.Namespace) -> int:
    """``planner optimize``: the optimal design, or a Pareto front with ``--pareto``.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (scenario, objective and limits, ``--pareto``, ``--format``).

    Returns
    -------
    int
        Exit status, 0.
    """
    from planner.inputs.optimize import request_from_data
    from planner.optimize.pareto import bandwidth_front, power_front
    from planner.optimize.run import optimize

    catalog = catalog_from_args(args)
    scenario = scenario_from_args(args)
    request = request_from_data(_request(args))
    out = sys.stdout
    if args.pareto:
        front = (power_front if args.pareto == "power" else bandwidth_front)(
            scenario=scenario, catalog=catalog, request=request
        )
        rows = [
            {
                "label": p.label,
                "capex_usd": round(p.capex_usd, 2),
                "facility_kw": round(p.facility_kw, 3),
                "per_gpu_gbit_per_s": round(p.per_gpu_gbit_per_s, 3),
                "gpus": p.plan.gpus,
            }
            for p in front
        ]
        if args.format == "json":
            write_json(rows)
        else:
            for row in rows:
                out.write(
                    f"{row['label']:<24} CAPEX {row['capex_usd']:>16,.0f} USD  facility {row['facility_kw']:>10,.1f} kW  "
                    f"{row['per_gpu_gbit_per_s']:>8,.1f} Gb/s per GPU\n"
                )
        return 0
    result = optimize(scenario=scenario, catalog=catalog, request=request)
    if args.format == "json":
        write_json(result.to_dict())
    else:
        out.write(render_result_table(result) + "\n")
    return 0
