"""``planner workload`` and ``planner reliability``: training time, cost and failures per design.

Both take the scenario options of ``planner plan`` (``--gpus``, ``--design``, ``--gpu``,
``--scenario``, ...); ``--designs a,b,c`` puts several designs side by side with the same GPU.

Examples::

    planner workload --params-b 70 --tokens-b 1400 --gpus 1024 --design ib-ndr --format json
    planner workload --params-b 70 --tokens-b 1400 --gpus 1024 --gpu h100_sxm --designs rail4-npo,rail8-npo,ib-ndr
    planner reliability --params-b 70 --gpus 1024 --design rail8-npo --network-failover --format json

Bad input exits with code 2 and one line on stderr naming the option and its allowed range.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from planner.cli.options import (
    add_command,
    add_format_option,
    add_scenario_options,
    catalog_from_args,
    designs_as_columns,
    scenario_from_args,
)

if TYPE_CHECKING:
    from pydantic import BaseModel

    from planner.catalog import Catalog
    from planner.engine import Plan
    from planner.performance.reliability import Reliability, ReliabilityParams
    from planner.performance.workload import TrainingJob, WorkloadEstimate
    from planner.scenario import Scenario

M = TypeVar("M", bound="BaseModel")

JOB_OPTIONS: Mapping[str, tuple[str, Any, str]] = {
    "params_b": (
        "--params-b",
        float,
        "total parameters [billions] (required unless --hf-config gives the shape)",
    ),
    "tokens_b": ("--tokens-b", float, "training tokens [billions] (required)"),
    "seq_len": ("--seq-len", int, "sequence length [tokens] (default 4096)"),
    "global_batch_seqs": ("--global-batch", int, "global batch [sequences] (default 1024)"),
    "micro_batch_seqs": ("--micro-batch", int, "micro-batch [sequences] (default: searched, 1-8)"),
    "precision": ("--precision", str, "bf16 or fp8 (default bf16)"),
    "mfu": ("--mfu", float, "share of dense peak the compute kernels reach (default: fitted curve)"),
    "layers": ("--layers", int, "transformer layers (default: derived, h = 128 L)"),
    "hidden_size": ("--hidden", int, "model width (default: derived)"),
    "heads": ("--heads", int, "attention heads (default h / 128)"),
    "kv_heads": ("--kv-heads", int, "key/value heads, GQA or MQA (default: the heads)"),
    "head_dim": ("--head-dim", int, "width of one attention head (default: hidden / heads)"),
    "ffn_hidden": ("--ffn-hidden", int, "feed-forward width, per expert for MoE (default 4 h)"),
    "vocab": ("--vocab", int, "vocabulary size; counts the logits (default: not counted)"),
    "experts": ("--experts", int, "MoE experts per layer (default 1 = dense)"),
    "top_k": ("--top-k", int, "experts per token (default 1)"),
    "shared_experts": ("--shared-experts", int, "experts every token passes through (default 0)"),
    "tp": ("--tp", int, "tensor-parallel GPUs (default: searched)"),
    "cp": ("--cp", int, "context-parallel GPUs (default: searched from 16K tokens)"),
    "pp": ("--pp", int, "pipeline stages (default: searched)"),
    "dp": ("--dp", int, "data-parallel replicas (default: searched)"),
    "ep": ("--ep", int, "expert-parallel GPUs (default: searched)"),
    "virtual_stages": ("--virtual-stages", int, "interleaved pipeline stages per GPU (default: searched)"),
    "zero_stage": ("--zero-stage", int, "optimizer sharding 0-3; 3 = FSDP (default: searched 1-3)"),
    "dp_overlap_fraction": ("--dp-overlap", float, "share of gradient reduction hidden (default 0.5)"),
    "pp_overlap_fraction": (
        "--pp-overlap",
        float,
        "share of steady-state pipeline sends hidden (default 1; 0 = blocking sends)",
    ),
    "tp_overlap_fraction": ("--tp-overlap", float, "share of tensor-parallel traffic hidden (default 0)"),
    "recompute": ("--recompute", str, "none, selective, full or auto (default auto: searched)"),
    "attention_kernel": (
        "--attention-kernel",
        str,
        "flash (scores stay on chip) or materialized (scores in HBM, before 2022) (default flash)",
    ),
    "usable_memory_fraction": ("--usable-memory", float, "share of HBM a layout may fill (default 0.9)"),
}
JOB_FLAGS: Mapping[str, tuple[str, str]] = {
    "gated_mlp": ("--gated-mlp", "gated (SwiGLU) feed-forward: three matrices"),
    "dropout": ("--dropout", "dropout layers keep masks (GPT-3-era models)"),
    "in_network_reduction": (
        "--in-network-reduction",
        "reduce gradients in switches that support it (SHARP)",
    ),
}
RELIABILITY_OPTIONS: Mapping[str, tuple[str, Any, str]] = {
    "checkpoint_gbyte": ("--checkpoint-gbyte", float, "checkpoint size [GB] (default: params x bytes/param)"),
    "checkpoint_bytes_per_param": (
        "--checkpoint-bytes-per-param",
        float,
        "checkpoint bytes per parameter (14)",
    ),
    "restart_min": ("--restart-min", float, "restart time without the checkpoint read [min] (default 10)"),
    "failure_rate_scale": ("--failure-rate-scale", float, "multiplier on the calibrated failure rates (1)"),
    "write_bandwidth_gbyte_per_s": ("--write-gbyte-per-s", float, "checkpoint write bandwidth [GB/s]"),
    "checkpoint_interval_min": ("--interval-min", float, "evaluate at this checkpoint interval [min]"),
}


def _add_options(
    parser: argparse.ArgumentParser, title: str, options: Mapping[str, tuple[str, Any, str]]
) -> None:
    group = parser.add_argument_group(title)
    for field, (flag, kind, text) in options.items():
        group.add_argument(flag, dest=field, type=kind, help=text)


def _add_common(parser: argparse.ArgumentParser) -> None:
    add_scenario_options(parser)
    parser.add_argument("--designs", help="comma list of design ids, side by side with the same GPU")
    parser.add_argument(
        "--network-failover",
        action="store_true",
        help="the job survives network failures that leave every GPU connected (multi-plane designs)",
    )
    add_format_option(parser, ["table", "json"])


def add_parser(subparsers: Any) -> None:
    """Register ``planner workload`` and ``planner reliability``."""
    workload = add_command(
        subparsers,
        "workload",
        help_text="LLM training time, cost and energy per design",
        example_lines=[
            "planner workload --params-b 70 --tokens-b 1400 --gpus 1024 --design ib-ndr --format json",
            "planner workload --params-b 70 --tokens-b 1400 --gpus 1024 --gpu h100_sxm "
            "--designs rail4-npo,rail8-npo,ib-ndr",
            "planner workload --params-b 400 --tokens-b 2000 --gpus 1024 --experts 8 --top-k 2 --precision fp8",
            "planner workload --hf-config config.json --tokens-b 15000 --gpus 1024 --seq-len 8192 --tp 8 --pp 16",
        ],
    )
    _add_common(workload)
    _add_options(workload, "model and parallelism", JOB_OPTIONS)
    for field, (flag, text) in JOB_FLAGS.items():
        workload.add_argument(flag, dest=field, action="store_true", help=text)
    workload.add_argument(
        "--no-sequence-parallel",
        dest="sequence_parallel",
        action="store_false",
        help="norms and dropout stay whole on every TP GPU (Megatron-LM before 2022)",
    )
    workload.add_argument(
        "--hf-config",
        metavar="FILE",
        help="Hugging Face config.json: layers, width, heads, KV heads, FFN, vocabulary, experts "
        "(flags override it)",
    )
    _add_options(workload, "checkpoints and failures", RELIABILITY_OPTIONS)
    workload.set_defaults(handler=run_workload)

    rel = add_command(
        subparsers,
        "reliability",
        help_text="interruptions, checkpoint interval and goodput per design",
        example_lines=[
            "planner reliability --params-b 70 --gpus 1024 --design rail8-npo --network-failover",
            "planner reliability --checkpoint-gbyte 500 --gpus 512 --designs rail4-npo,ib-ndr --format json",
        ],
    )
    _add_common(rel)
    rel.add_argument(
        "--params-b", dest="params_b", type=float, help="model parameters [billions] (sizes the checkpoint)"
    )
    _add_options(rel, "checkpoints and failures", RELIABILITY_OPTIONS)
    rel.set_defaults(handler=run_reliability)


def _validated(model: type[M], data: Mapping[str, Any], flags: Mapping[str, str]) -> M:
    """Validate options into ``model``; the one-line error names the flag, the field and the range."""
    from pydantic import ValidationError

    from planner.errors import InputError, describe_validation_error

    try:
        return model.model_validate(dict(data))
    except ValidationError as exc:
        text = describe_validation_error(exc, model=model)
        for field, flag in flags.items():
            text = re.sub(rf"(^|; ){field}:", rf"\g<1>{flag} ({field}):", text)
        raise InputError(f"options: {text}") from None


def _collect(args: argparse.Namespace, fields: Sequence[str]) -> dict[str, Any]:
    return {f: getattr(args, f) for f in fields if getattr(args, f, None) is not None}


def job_from_args(args: argparse.Namespace) -> TrainingJob:
    """The training job the options describe (over ``--hf-config`` when given), validated."""
    from planner.performance.workload import TrainingJob

    data = hf_fields(args.hf_config) if getattr(args, "hf_config", None) else {}
    data.update(_collect(args, list(JOB_OPTIONS)))
    data.update({f: True for f in JOB_FLAGS if getattr(args, f, False)})
    if getattr(args, "sequence_parallel", True) is False:
        data["sequence_parallel"] = False
    return _validated(TrainingJob, data, {f: flag for f, (flag, _, _) in JOB_OPTIONS.items()})


def hf_fields(path: str) -> dict[str, Any]:
    """Job fields from a Hugging Face ``config.json`` (:mod:`planner.performance.training.hf`)."""
    from pathlib import Path

    from planner.errors import InputError
    from planner.files import read_mapping
    from planner.i18n.message import msg
    from planner.performance.training.hf import job_fields_from_hf_config

    config = read_mapping(Path(path), what=msg("Hugging Face model config"), error=InputError) or {}
    return job_fields_from_hf_config(config)


def reliability_params_from_args(args: argparse.Namespace) -> ReliabilityParams:
    """Checkpoint and failure settings from the options, validated."""
    from planner.errors import InputError
    from planner.performance.reliability import ReliabilityParams

    data = _collect(args, ["params_b", *RELIABILITY_OPTIONS])
    if args.network_failover:
        data["network_failover"] = True
    flags = {f: flag for f, (flag, _, _) in RELIABILITY_OPTIONS.items()} | {"params_b": "--params-b"}
    if "params_b" not in data and "checkpoint_gbyte" not in data:
        raise InputError("options: --params-b or --checkpoint-gbyte: give one to size the checkpoint")
    return _validated(ReliabilityParams, data, flags)


def _plans(args: argparse.Namespace, scenario: Scenario, catalog: Catalog) -> tuple[Plan, ...]:
    from planner.compare import compare
    from planner.engine import plan

    if not args.designs:
        return (plan(scenario=scenario, catalog=catalog),)
    design_ids = [d.strip() for d in args.designs.split(",") if d.strip()]
    return compare(scenario=scenario, catalog=catalog, design_ids=design_ids)


def render_workload_table(estimates: Sequence[WorkloadEstimate]) -> str:
    """Designs as columns, figures as rows."""

    from planner.performance.workload import workload_frame

    frame = workload_frame(estimates)
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
    text = designs_as_columns(frame, formats)
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
            f"micro-batch {lay.micro_batch_seqs} (fits up to {lay.max_micro_batch_seqs}), recompute {lay.recompute}, "
            f"ZeRO {lay.zero_stage}; {memory}; MFU {e.end_to_end_mfu:.1%}, HFU {e.end_to_end_hfu:.1%}, "
            f"kernel efficiency {e.compute_efficiency:.1%}"
        )
    notes = sorted({n for e in estimates for n in (*e.notes, *e.reliability.notes)})
    if notes:
        lines += ["", "Notes:"] + [f"  - {n}" for n in notes]
    return "\n".join(lines)


def render_reliability_table(results: Sequence[Reliability]) -> str:
    """Headline figures per design, then the failure impacts of each."""
    import pandas as pd

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
            lines.append(
                f"  {i.element:<16} {i.gpus_affected:>7} GPUs lose {i.gpu_bandwidth_lost_fraction:7.2%}; "
                f"{i.capacity_lost_fraction:8.3%} of the tier; {verdict}"
            )
    notes = sorted({n for r in results for n in r.notes})
    if notes:
        lines += ["", "Notes:"] + [f"  - {n}" for n in notes]
    return "\n".join(lines)


def run_workload(args: argparse.Namespace) -> int:
    """``planner workload``: training time, cost and energy of the job on each design."""
    from planner.performance.reliability import ReliabilityParams
    from planner.performance.workload import estimate_workload, workload_to_dict

    job = job_from_args(args)
    rel_data = _collect(args, list(RELIABILITY_OPTIONS))
    rel_data["params_b"] = job.params_b
    if args.network_failover:
        rel_data["network_failover"] = True
    params = _validated(
        ReliabilityParams, rel_data, {f: flag for f, (flag, _, _) in RELIABILITY_OPTIONS.items()}
    )
    catalog = catalog_from_args(args)
    scenario = scenario_from_args(args)
    estimates = tuple(
        estimate_workload(job=job, plan=p, catalog=catalog, reliability_params=params)
        for p in _plans(args, scenario, catalog)
    )
    if args.format == "json":
        body: Any = (
            workload_to_dict(estimates[0]) if not args.designs else [workload_to_dict(e) for e in estimates]
        )
        sys.stdout.write(json.dumps(body, indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(render_workload_table(estimates) + "\n")
    return 0


def run_reliability(args: argparse.Namespace) -> int:
    """``planner reliability``: interruptions, checkpoint interval and goodput on each design."""
    from planner.performance.reliability import reliability, reliability_to_dict

    params = reliability_params_from_args(args)
    catalog = catalog_from_args(args)
    scenario = scenario_from_args(args)
    results = tuple(
        reliability(plan=p, params=params, catalog=catalog) for p in _plans(args, scenario, catalog)
    )
    if args.format == "json":
        body: Any = (
            reliability_to_dict(results[0]) if not args.designs else [reliability_to_dict(r) for r in results]
        )
        sys.stdout.write(json.dumps(body, indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(render_reliability_table(results) + "\n")
    return 0
