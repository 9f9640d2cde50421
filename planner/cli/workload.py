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
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from planner.cli.options import (
    OptionTable,
    add_command,
    add_format_option,
    add_option_table,
    add_scenario_options,
    catalog_from_args,
    collect_options,
    designs_as_columns,
    notes_block,
    option_flags,
    plans_from_args,
    read_hf_config,
    scenario_from_args,
    validated_options,
    write_results,
)

if TYPE_CHECKING:
    from planner.catalog import Catalog
    from planner.engine import Plan
    from planner.performance.reliability import Reliability, ReliabilityParams
    from planner.performance.workload import TrainingJob, WorkloadEstimate

R = TypeVar("R")

JOB_OPTIONS: OptionTable = {
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
    "dense_layers": ("--dense-layers", int, "MoE: first layers with a dense FFN (default 0)"),
    "dense_ffn_hidden": (
        "--dense-ffn-hidden",
        int,
        "MoE: FFN width of those dense layers (default --ffn-hidden)",
    ),
    "q_lora_rank": ("--q-lora-rank", int, "multi-head latent attention: query rank (DeepSeek)"),
    "kv_lora_rank": ("--kv-lora-rank", int, "multi-head latent attention: key/value rank (DeepSeek)"),
    "qk_rope_head_dim": ("--qk-rope-head-dim", int, "multi-head latent attention: rotary head part"),
    "v_head_dim": ("--v-head-dim", int, "multi-head latent attention: value head width"),
    "expert_tp": ("--expert-tp", int, "tensor-parallel GPUs per expert (default tp, or 1 when ep spans tp)"),
    "moe_load_imbalance": ("--moe-imbalance", float, "busiest expert GPU's tokens over the mean (default 1)"),
    "moe_redundant_experts": (
        "--moe-redundant-experts",
        int,
        "redundant expert copies per layer, EPLB (default 0)",
    ),
    "moe_node_limit": (
        "--moe-node-limit",
        int,
        "node-limited routing: nodes per token at most (default none)",
    ),
    "moe_overlap": (
        "--moe-overlap",
        str,
        "expert all-to-all overlap: none, two_micro_batches or dualpipe (default none)",
    ),
    "moe_dispatcher": ("--moe-dispatcher", str, "alltoall (NCCL) or fused (DeepEP-style) (default alltoall)"),
}
JOB_FLAGS: Mapping[str, tuple[str, str]] = {
    "gated_mlp": ("--gated-mlp", "gated (SwiGLU) feed-forward: three matrices"),
    "dropout": ("--dropout", "dropout layers keep masks (GPT-3-era models)"),
    "in_network_reduction": (
        "--in-network-reduction",
        "reduce gradients in switches that support it (SHARP)",
    ),
    "moe_dispatch_fp8": ("--moe-dispatch-fp8", "dispatch MoE tokens in FP8 (the combine stays BF16)"),
}
RELIABILITY_OPTIONS: OptionTable = {
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
RELIABILITY_FLAGS = option_flags(RELIABILITY_OPTIONS) | {"params_b": "--params-b"}


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
    add_option_table(workload, "model and parallelism", JOB_OPTIONS)
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
    add_option_table(workload, "checkpoints and failures", RELIABILITY_OPTIONS)
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
    add_option_table(rel, "checkpoints and failures", RELIABILITY_OPTIONS)
    rel.set_defaults(handler=run_reliability)


def job_from_args(args: argparse.Namespace) -> TrainingJob:
    """The training job the options describe (over ``--hf-config`` when given), validated."""
    from planner.performance.workload import TrainingJob

    data = hf_fields(args.hf_config) if getattr(args, "hf_config", None) else {}
    data.update(collect_options(args, list(JOB_OPTIONS)))
    data.update({f: True for f in JOB_FLAGS if getattr(args, f, False)})
    if getattr(args, "sequence_parallel", True) is False:
        data["sequence_parallel"] = False
    return validated_options(TrainingJob, data, option_flags(JOB_OPTIONS))


def hf_fields(path: str) -> dict[str, Any]:
    """Job fields from a Hugging Face ``config.json`` (:mod:`planner.performance.training.hf`)."""
    from planner.performance.training.hf import job_fields_from_hf_config

    return job_fields_from_hf_config(read_hf_config(path))


def reliability_params_from_args(
    args: argparse.Namespace, *, params_b: float | None = None
) -> ReliabilityParams:
    """Checkpoint and failure settings from the options (``params_b``: the job's size, over
    ``--params-b``), validated."""
    from planner.errors import InputError
    from planner.performance.reliability import ReliabilityParams

    data = collect_options(args, ["params_b", *RELIABILITY_OPTIONS])
    if params_b is not None:
        data["params_b"] = params_b
    if args.network_failover:
        data["network_failover"] = True
    if "params_b" not in data and "checkpoint_gbyte" not in data:
        raise InputError("options: --params-b or --checkpoint-gbyte: give one to size the checkpoint")
    return validated_options(ReliabilityParams, data, RELIABILITY_FLAGS)


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
    lines += notes_block(n for e in estimates for n in (*e.notes, *e.reliability.notes))
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
    """``planner workload``: training time, cost and energy of the job on each design."""
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
    """``planner reliability``: interruptions, checkpoint interval and goodput on each design."""
    from planner.performance.reliability import reliability, reliability_to_dict

    params = reliability_params_from_args(args)
    return _write_per_design(
        args,
        lambda p, catalog: reliability(plan=p, params=params, catalog=catalog),
        to_dict=reliability_to_dict,
        render=render_reliability_table,
    )
