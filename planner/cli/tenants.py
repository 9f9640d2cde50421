"""``planner tenants place|compare|simulate``: a tenant set on the planned fabric, the same set
across designs, and a job-mix simulation (docs/model.md, "Multi-tenant supernode").

::

    planner tenants place --gpus 1024 --design rail8-npo --tenants tenants.yaml --format json
    planner tenants compare --gpus 1024 --tenants tenants.yaml --designs rail8-npo,ib-ndr
    planner tenants simulate --gpus 1024 --design rail8-npo --synthetic --jobs 10000 \\
        --policy topology --preempt --seed 1 --format json

A bad tenant file (more GPUs than the cluster, an unknown isolation, a negative bandwidth, a
duplicate name) or trace exits 2 with one line naming the field; nothing is written.

Examples::

    planner tenants place --gpus 1024 --design rail8-npo --tenants tenants.yaml --format json
    planner tenants compare --gpus 1024 --tenants tenants.yaml
    planner tenants simulate --gpus 1024 --design rail8-npo --synthetic --jobs 10000 --policy topology --seed 1
    planner tenants place --gpus 1024 --design rail8-npo --tenants tenants.yaml
    planner tenants compare --gpus 1024 --tenants tenants.yaml --designs rail8-npo,ib-ndr
    planner tenants simulate --gpus 1024 --design rail8-npo --synthetic --jobs 10000 --policy first-fit
    planner tenants simulate --gpus 256 --design ib-ndr --trace jobs.csv --policy topology --preempt
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from planner.cli import options

POLICIES = ("first-fit", "topology")
"""``planner.jobmix.simulate.POLICIES``, repeated so that ``--help`` imports no engine module."""


def add_parser(subparsers: Any) -> None:
    """Register ``planner tenants`` and its subcommands.

    Parameters
    ----------
    subparsers : Any
        The ``planner`` parser's subparsers action.
    """
    parser = options.add_command(
        subparsers,
        "tenants",
        help_text="multi-tenant supernode: place tenants, compare designs, simulate a job mix",
        doc=__doc__,
    )
    sub = parser.add_subparsers(
        dest="tenants_command", required=True, metavar="COMMAND", parser_class=options.Parser
    )
    place = options.add_command(
        sub,
        "place",
        help_text="place a tenant set on the planned fabric: servers, switches, guarantees, price",
        doc=__doc__,
        scenario="design",
        handler=run_place,
    )
    _tenant_options(place)
    compare = options.add_command(
        sub,
        "compare",
        help_text="the same tenant set on several designs side by side",
        doc=__doc__,
        handler=run_compare,
    )
    options.add_scenario_options(compare, design=False)
    _tenant_options(compare, designs=True)
    _add_simulate(sub)


def _tenant_options(parser: argparse.ArgumentParser, *, designs: bool = False) -> None:
    """``--tenants`` (and ``--designs``), then ``--format``, after the scenario's options."""
    parser.add_argument(
        "--tenants",
        metavar="FILE",
        required=True,
        help="tenant file (YAML/JSON list of {name, gpus, isolation: shared|leaf|plane|domain, "
        "bandwidth_gbit_per_s_per_gpu, storage_gbyte_per_s})",
    )
    if designs:
        options.add_designs_option(parser)
    options.add_format_option(parser, ["table", "json"])


def _add_simulate(sub: Any) -> None:
    simulate = options.add_command(
        sub,
        "simulate",
        help_text="discrete-event simulation of a job stream: utilisation, queueing delay, fragmentation",
        doc=__doc__,
        scenario="design",
        handler=run_simulate,
    )
    source = simulate.add_mutually_exclusive_group(required=True)
    source.add_argument(
        "--trace",
        metavar="FILE",
        help=(
            "trace file: the product's CSV (arrival_s, gpus, duration_s[, priority 0|1] per job), a Helios "
            "cluster_log.csv or an Alibaba 2023 openb_pod_list_*.csv (recognised by the header)"
        ),
    )
    source.add_argument(
        "--synthetic",
        action="store_true",
        help="synthetic jobs (sizes, run times and rate fitted to the Helios trace's Venus cluster)",
    )
    options.add_number_option(simulate, "--jobs", whole=True, default=10000, help_text="synthetic jobs")
    options.add_number_option(simulate, "--load", default=0.8, help_text="offered load of the synthetic jobs")
    simulate.add_argument("--policy", choices=POLICIES, default="topology", help="allocation policy")
    simulate.add_argument("--preempt", action="store_true", help="high-priority jobs may stop normal ones")
    options.add_number_option(
        simulate, "--seed", whole=True, default=1, help_text="random seed of the synthetic jobs"
    )
    options.add_format_option(simulate, ["table", "json"])


def _load(args: argparse.Namespace) -> Any:
    from planner.tenancy.tenants import load_tenants

    return load_tenants(Path(args.tenants))


def run_place(args: argparse.Namespace) -> int:
    """``planner tenants place``: the tenant set placed on the planned fabric, as a table or JSON.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (scenario, ``--tenants``, ``--format``).

    Returns
    -------
    int
        Exit status, 0.
    """
    from planner.tenancy.run import place_scenario, placement_to_dict

    tenants = _load(args)
    placement = place_scenario(
        scenario=options.scenario_from_args(args),
        catalog=options.catalog_from_args(args),
        tenants=tenants,
        source=args.tenants,
    )
    options.write_result(placement, fmt=args.format, to_dict=placement_to_dict, render=_place_table)
    return 0


def _place_table(placement: Any) -> str:
    from planner.cli.options import emit_rows
    from planner.tenancy.run import summary_rows

    lines = [
        emit_rows(rows=summary_rows(placement), fmt="table"),
        f"design {placement.design_id}: {placement.cluster_gpus} GPUs, {placement.free_gpus} free, "
        f"{placement.stranded_gpus} stranded, {placement.stranded_ports} stranded ports, "
        f"fragmentation {placement.fragmentation:.2f}",
    ]
    lines += [f"unmet: {u.name} {u.field} short by {u.shortfall:g}" for u in placement.unmet]
    return "\n".join(lines)


def run_compare(args: argparse.Namespace) -> int:
    """``planner tenants compare``: the tenant set placed on each design, side by side.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (scenario, ``--tenants``, ``--designs``, ``--format``).

    Returns
    -------
    int
        Exit status, 0.
    """
    from planner.cli.options import design_ids_from_args, emit_rows
    from planner.tenancy.run import COMPARE_DESIGNS, compare_designs, comparison_rows, placement_to_dict

    tenants = _load(args)
    designs = design_ids_from_args(args) if args.designs else COMPARE_DESIGNS
    placements = compare_designs(
        scenario=options.scenario_from_args(args),
        catalog=options.catalog_from_args(args),
        tenants=tenants,
        designs=designs,
        source=args.tenants,
    )
    if args.format == "json":
        options.write_json({"designs": [placement_to_dict(p) for p in placements]})
    else:
        options.write(emit_rows(rows=comparison_rows(placements), fmt="table"))
    return 0


def run_simulate(args: argparse.Namespace) -> int:
    """``planner tenants simulate``: a job mix (a trace or synthetic jobs) run on the planned cluster.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (scenario, ``--trace`` or the synthetic mix, policy, ``--format``).

    Returns
    -------
    int
        Exit status, 0.
    """
    from planner.jobmix.jobs import job_mix, read_trace_csv, synthetic_jobs
    from planner.jobmix.simulate import simulate
    from planner.tenancy.fabric import fabric_view, sim_cluster

    p, catalog = options.plan_and_catalog_from_args(args)
    cluster = sim_cluster(fabric_view(plan=p, catalog=catalog))
    if args.trace:
        jobs = read_trace_csv(Path(args.trace), cluster_gpus=cluster.gpus)
    else:
        jobs = synthetic_jobs(
            count=args.jobs, cluster_gpus=cluster.gpus, seed=args.seed, load=args.load, mix=job_mix(catalog)
        )
    result = simulate(cluster=cluster, jobs=jobs, policy=args.policy, preempt=args.preempt)
    if args.format == "json":
        options.write_json(result.to_dict())
    else:
        data = result.to_dict()
        delay = data.pop("queue_delay_s")
        rows = [*data.items(), *((f"queue_delay_s.{k}", v) for k, v in delay.items())]
        options.write(
            "\n".join(f"{k:<22} {v:,.3f}" if isinstance(v, float) else f"{k:<22} {v}" for k, v in rows)
        )
    return 0
