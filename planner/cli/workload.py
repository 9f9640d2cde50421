"""``planner workload`` and ``planner reliability``: training time, cost and failures per design.

Both take the scenario options of ``planner plan`` (``--gpus``, ``--design``, ``--gpu``,
``--scenario``, ...); ``--designs a,b,c`` puts several designs side by side with the same GPU.

Examples::

    planner workload --params-b 70 --tokens-b 1400 --gpus 1024 --design ib-ndr --format json
    planner workload --params-b 70 --tokens-b 1400 --gpus 1024 --gpu h100_sxm --designs rail4-npo,rail8-npo,ib-ndr
    planner workload --params-b 400 --tokens-b 2000 --gpus 1024 --experts 8 --top-k 2 --precision fp8
    planner workload --hf-config config.json --tokens-b 15000 --gpus 1024 --seq-len 8192 --tp 8 --pp 16
    planner reliability --params-b 70 --gpus 1024 --design rail8-npo --network-failover
    planner reliability --checkpoint-gbyte 500 --gpus 512 --designs rail4-npo,ib-ndr --format json

Bad input exits with code 2 and one line on stderr naming the option and its allowed range.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from planner.cli.options import (
    add_command,
    add_format_option,
    add_model_options,
    add_side_by_side_designs_option,
    catalog_from_args,
    designs_as_columns,
    model_options,
    notes_block,
    options_over_hf_config,
    plans_from_args,
    scenario_from_args,
    validated_options,
    write_results,
)

if TYPE_CHECKING:
    from planner.catalog import Catalog
    from planner.engine import Plan
    from planner.inputs.reliability import ReliabilityParams
    from planner.inputs.training import TrainingJob
    from planner.performance.reliability import Reliability
    from planner.performance.workload import WorkloadEstimate

R = TypeVar("R")

JOB_GROUP = "model and parallelism"
RELIABILITY_GROUP = "checkpoints and failures"


def _add_common(parser: argparse.ArgumentParser) -> None:
    add_side_by_side_designs_option(parser)
    add_format_option(parser, ["table", "json"])


def add_parser(subparsers: Any) -> None:
    """Register ``planner workload`` and ``planner reliability`` (their options generated from
    :class:`~planner.inputs.training.TrainingJob` and :class:`~planner.inputs.reliability.ReliabilityParams`).

    Parameters
    ----------
    subparsers : Any
        The ``planner`` parser's subparsers action.
    """
    from planner.inputs import reliability, training

    workload = add_command(
        subparsers,
        "workload",
        help_text="LLM training time, cost and energy per design",
        doc=__doc__,
        scenario="design",
        handler=run_workload,
    )
    _add_common(workload)
    add_model_options(workload, training.TrainingJob, JOB_GROUP).add_argument(
        "--hf-config",
        metavar="FILE",
        help="Hugging Face config.json: layers, width, heads, KV heads, FFN, vocabulary, experts "
        "(flags override it)",
    )
    add_model_options(workload, reliability.ReliabilityParams, RELIABILITY_GROUP, skip=["params_b"])

    rel = add_command(
        subparsers,
        "reliability",
        help_text="interruptions, checkpoint interval and goodput per design",
        doc=__doc__,
        scenario="design",
        handler=run_reliability,
    )
    _add_common(rel)
    add_model_options(rel, reliability.ReliabilityParams, RELIABILITY_GROUP)


def job_from_args(args: argparse.Namespace) -> TrainingJob:
    """The training job the options describe (over ``--hf-config`` when given), validated.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    TrainingJob
        The validated job.
    """
    from planner.inputs import training
    from planner.performance.training.hf import job_fields_from_hf_config

    data = options_over_hf_config(
        args=args, model=training.TrainingJob, config_fields=job_fields_from_hf_config
    )
    return validated_options(training.TrainingJob, data)


def reliability_params_from_args(
    args: argparse.Namespace, *, params_b: float | None = None
) -> ReliabilityParams:
    """Checkpoint and failure settings from the options (``params_b``: the job's size, over
    ``--params-b``), validated.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.
    params_b : float or None
        Model size [billion parameters]; ``None`` reads ``--params-b``.

    Returns
    -------
    ReliabilityParams
        The validated settings.
    """
    from planner.errors import InputError
    from planner.inputs import reliability

    data = model_options(args, reliability.ReliabilityParams)
    if params_b is not None:
        data["params_b"] = params_b
    if "params_b" not in data and "checkpoint_gbyte" not in data:
        raise InputError("options: --params-b or --checkpoint-gbyte: give one to size the checkpoint")
    return validated_options(reliability.ReliabilityParams, data)


def render_workload_table(estimates: Sequence[WorkloadEstimate]) -> str:
    """Designs as columns, figures as rows.

    Parameters
    ----------
    estimates : Sequence[WorkloadEstimate]
        One estimate per design.

    Returns
    -------
    str
        The text (step time [s], time to train [days], energy [MWh], cost [USD], memory [GB]).
    """

    from planner.performance.workload import workload_rows

    formats = {
        "step_time_s": "{:.3f}",
        "tokens_per_s": "{:,.0f}",
        "end_to_end_mfu": "{:.1%}",
        "goodput": "{:.2%}",
        "time_to_train_days": "{:.2f}",
        "gpu_hours": "{:,.0f}",
        "energy_mwh": "{:,.1f}",
        "cost_to_train_usd": "{:,.0f}",
    }
    text = designs_as_columns(workload_rows(estimates), formats)
    lines = [text, "", "Step breakdown [s] (exposed communication):"]
    for e in estimates:
        parts = ", ".join(f"{k.removesuffix('_s')} {v:.3f}" for k, v in e.step.as_dict().items())
        lines.append(f"  {e.design_id}: {parts}; DP bound by {e.dp_bound_level}")
    lines += ["", "Layout and memory per GPU [GB]:"]
    for e in estimates:
        lay = e.layout
        memory = ", ".join(f"{k} {v:.1f}" for k, v in e.memory.as_gbyte().items())
        lines.append(
            f"  {e.design_id}: tp {lay.tp} cp {lay.cp} pp {lay.pp} dp {lay.dp} ep {lay.ep} v {lay.virtual_stages}, "
            f"micro-batch {lay.micro_batch_seqs} (fits up to {lay.max_micro_batch_seqs}), recompute {lay.recompute}"
            f"{f', {lay.recompute_layers} layer(s) of each chunk' if lay.recompute == 'block' else ''}, "
            f"ZeRO {lay.zero_stage}; {memory}; MFU {e.end_to_end_mfu:.1%}, HFU {e.end_to_end_hfu:.1%}, "
            f"kernel efficiency {e.compute_efficiency:.1%}"
        )
    lines += notes_block(n for e in estimates for n in (*e.notes, *e.reliability.notes))
    return "\n".join(lines)


def render_reliability_table(results: Sequence[Reliability]) -> str:
    """Headline figures per design, then the failure impacts of each.

    Parameters
    ----------
    results : Sequence[Reliability]
        One result per design.

    Returns
    -------
    str
        The text.
    """
    import pandas as pd

    from planner.i18n.counts import agree

    rows = {
        r.design_id: {
            "GPUs": f"{r.gpus}",
            "interruptions per day": f"{r.interruptions_per_day:.3f}",
            "MTBI [h]": f"{r.mtbi_hours:.1f}",
            "checkpoint [GB]": f"{r.checkpoint_gbyte:,.0f}",
            "checkpoint write [s]": f"{r.checkpoint_write_s:.1f}",
            "checkpoint interval [min]": f"{r.checkpoint_interval_min:.1f}",
            "goodput": f"{r.goodput:.2%}",
            "survived failures per day": f"{r.degradations_per_day:.3f}",
        }
        for r in results
    }
    lines = [pd.DataFrame(rows).to_string(), ""]
    for r in results:
        lines.append(f"{r.design_id}: bandwidth lost when one element fails")
        for i in r.failure_impacts:
            verdict = "survivable" if i.survivable else "stops the job"
            # "1 GPU loses", "32 GPUs lose": the count agrees with its noun and its verb
            gpus = agree("{n} GPUs lose", {"n": i.gpus_affected}).format(n=f"{i.gpus_affected:>7}")
            gpus = gpus.replace("GPU lose", "GPU loses")
            lines.append(
                f"  {i.element:<16} {gpus:<17} {i.gpu_bandwidth_lost_fraction:7.2%}; "
                f"{i.capacity_lost_fraction:8.3%} of the tier; {verdict}"
            )
    lines += notes_block(n for r in results for n in r.notes)
    return "\n".join(lines)


def _write_per_design(
    args: argparse.Namespace,
    evaluate: Callable[[Plan, Catalog], R],
    *,
    to_dict: Callable[[R], Any],
    render: Callable[[Sequence[R]], str],
) -> int:
    """``evaluate`` on the scenario's plan (or each ``--designs`` plan), written as ``--format`` says:
    one JSON object without ``--designs``, a list with it."""
    catalog = catalog_from_args(args)
    results = tuple(evaluate(p, catalog) for p in plans_from_args(args, scenario_from_args(args), catalog))
    write_results(results, fmt=args.format, as_list=bool(args.designs), to_dict=to_dict, render=render)
    return 0


def run_workload(args: argparse.Namespace) -> int:
    """``planner workload``: training time, cost and energy of the job on each design.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    int
        Exit status, 0.
    """
    from planner.decision.bands import band_dict, headline_note, training_band
    from planner.performance.workload import estimate_workload, workload_to_dict

    job = job_from_args(args)
    params = reliability_params_from_args(args, params_b=job.params_b)
    band = training_band(experts=job.experts)
    return _write_per_design(
        args,
        lambda p, catalog: estimate_workload(job=job, plan=p, catalog=catalog, reliability_params=params),
        to_dict=lambda e: {**workload_to_dict(e), "model_error": band_dict(band)},
        render=lambda estimates: f"{render_workload_table(estimates)}\n{headline_note(band)}",
    )


def run_reliability(args: argparse.Namespace) -> int:
    """``planner reliability``: interruptions, checkpoint interval and goodput on each design.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    int
        Exit status, 0.
    """
    from planner.performance.reliability import reliability, reliability_to_dict

    params = reliability_params_from_args(args)
    return _write_per_design(
        args,
        lambda p, catalog: reliability(plan=p, params=params, catalog=catalog),
        to_dict=reliability_to_dict,
        render=render_reliability_table,
    )
