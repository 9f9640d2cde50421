"""``planner serve``: TTFT, TPOT, tokens/s and cost per million tokens of a model on a cluster, or
(``--size``) the smallest cluster per design that serves a request rate within the targets.

Examples::

    planner serve --gpus 64 --design rail8-npo --gpu h100_sxm --params-b 671 --active-params-b 37 \\
        --precision fp8 --input-tokens 2048 --output-tokens 512 --format json
    planner serve --gpus 8 --design ib-ndr --params-b 70 --layers 80 --hidden 8192 --kv-heads 8 \\
        --precision fp8 --input-tokens 2048 --output-tokens 256 --ttft-ms 500 --tpot-ms 30
    planner serve --size --requests-per-s 20 --ttft-ms 2000 --tpot-ms 50 --gpu h100_sxm \\
        --params-b 671 --active-params-b 37 --precision fp8 --input-tokens 2048 --output-tokens 512

Bad input (a target no layout reaches, a model too large for memory at any layout) exits with
code 2 and one line on stderr naming the bound and by how much.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

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
    from planner.performance.serving import ServingEstimate, ServingRequest, SizingResult

OPTIONS: OptionTable = {
    "params_b": ("--params-b", float, "total parameters [billions] (required unless --hf-config gives them)"),
    "active_params_b": ("--active-params-b", float, "parameters a token passes through, MoE [billions]"),
    "layers": ("--layers", int, "transformer layers (default: derived)"),
    "hidden_size": ("--hidden", int, "model width (default: derived)"),
    "heads": ("--heads", int, "attention heads (default h / 128)"),
    "kv_heads": ("--kv-heads", int, "key/value heads, GQA (default: the heads, MHA)"),
    "head_dim": ("--head-dim", int, "width of one head (default h / heads)"),
    "kv_lora_rank": ("--kv-lora-rank", int, "MLA compressed KV width (DeepSeek: 512); default no MLA"),
    "ffn_hidden": ("--ffn-hidden", int, "feed-forward width, per expert for MoE (default 4 h)"),
    "vocab": ("--vocab", int, "vocabulary size (default: not counted)"),
    "experts": (
        "--experts",
        int,
        "routed experts per layer (default 1; 256 when only --active-params-b is given)",
    ),
    "top_k": ("--top-k", int, "experts per token (default 8 for MoE)"),
    "shared_experts": ("--shared-experts", int, "experts every token passes through (default 0)"),
    "precision": ("--precision", str, "weights: bf16, fp8 or fp4 (default bf16)"),
    "kv_precision": ("--kv-precision", str, "KV cache: bf16 or fp8 (default bf16)"),
    "decode_attention": (
        "--decode-attention",
        str,
        "decode kernel: grouped (K,V read once per KV head) or per_query_head (default grouped)",
    ),
    "input_tokens": ("--input-tokens", int, "prompt length [tokens] (default 2048)"),
    "output_tokens": ("--output-tokens", int, "generated length [tokens] (default 256)"),
    "batch": (
        "--batch",
        int,
        "concurrent sequences per instance (default: largest that fits and meets the targets)",
    ),
    "ttft_ms": ("--ttft-ms", float, "time-to-first-token target [ms]"),
    "tpot_ms": ("--tpot-ms", float, "time-per-output-token target [ms]"),
    "requests_per_s": ("--requests-per-s", float, "request rate to size for [1/s] (with --size)"),
    "tp": ("--tp", int, "tensor-parallel GPUs per instance (default: searched)"),
    "ep": ("--ep", int, "expert-parallel GPUs per instance (default: searched)"),
    "moe_dispatch_mode": (
        "--moe-dispatch-mode",
        str,
        "expert dispatch kernels: normal, low_latency or auto (normal in prefill, low_latency in decode; default)",
    ),
    "moe_node_limit": (
        "--moe-node-limit",
        int,
        "node-limited routing: nodes per token at most (default none)",
    ),
    "moe_load_imbalance": ("--moe-imbalance", float, "busiest expert GPU's tokens over the mean (default 1)"),
}


def add_parser(subparsers: Any) -> None:
    """Register ``planner serve``."""
    serve = add_command(
        subparsers,
        "serve",
        help_text="LLM serving: TTFT, TPOT, tokens/s and cost per million tokens; --size sizes in reverse",
        example_lines=[
            "planner serve --gpus 64 --design rail8-npo --gpu h100_sxm --params-b 671 --active-params-b 37 "
            "--precision fp8 --input-tokens 2048 --output-tokens 512 --format json",
            "planner serve --gpus 8 --design ib-ndr --params-b 70 --layers 80 --hidden 8192 --kv-heads 8 "
            "--precision fp8 --ttft-ms 500 --tpot-ms 30",
            "planner serve --gpus 64 --gpu h100_sxm --designs rail4-npo,rail8-npo,ib-ndr --params-b 671 "
            "--active-params-b 37 --precision fp8 --disaggregate",
            "planner serve --size --requests-per-s 20 --ttft-ms 2000 --tpot-ms 50 --gpu h100_sxm --params-b 671 "
            "--active-params-b 37 --precision fp8 --format json",
        ],
    )
    add_scenario_options(serve)
    serve.add_argument("--designs", help="comma list of design ids, side by side with the same GPU")
    group = add_option_table(serve, "model, request mix and targets", OPTIONS)
    group.add_argument(
        "--gated-mlp", dest="gated_mlp", action="store_true", help="gated (SwiGLU) feed-forward"
    )
    group.add_argument("--hf-config", metavar="FILE", help="Hugging Face config.json (flags override it)")
    group.add_argument("--disaggregate", action="store_true", help="separate prefill and decode pools")
    group.add_argument(
        "--moe-overlap",
        dest="moe_overlap",
        action="store_true",
        help="two micro-batches: one's expert all-to-all hidden behind the other's compute",
    )
    sizing = serve.add_argument_group("reverse sizing")
    sizing.add_argument(
        "--size",
        action="store_true",
        help="smallest cluster per design meeting --requests-per-s and the targets",
    )
    sizing.add_argument("--max-gpus", type=int, default=4096, help="largest cluster tried (default 4096)")
    add_format_option(serve, ["table", "json"])
    serve.set_defaults(handler=run_serve)


def request_from_args(args: argparse.Namespace) -> ServingRequest:
    """The serving request the options describe (over ``--hf-config`` when given), validated."""
    from planner.errors import InputError
    from planner.performance.serving import ServingRequest
    from planner.performance.serving.hf import serving_fields_from_hf_config

    data = serving_fields_from_hf_config(read_hf_config(args.hf_config)) if args.hf_config else {}
    data.update(collect_options(args, list(OPTIONS)))
    if args.gated_mlp:
        data["gated_mlp"] = True
    if args.disaggregate:
        data["disaggregate"] = True
    if getattr(args, "moe_overlap", False):
        data["moe_overlap"] = True
    if "params_b" not in data:
        raise InputError("options: --params-b (params_b): give the model size or --hf-config")
    return validated_options(ServingRequest, data, option_flags(OPTIONS))


def run_serve(args: argparse.Namespace) -> int:
    """``planner serve``: one design, several side by side, or the reverse sizing."""
    from planner.cli.options import design_ids_from_args
    from planner.errors import InfeasibleError, InputError
    from planner.performance.serving import estimate_serving, serving_to_dict, size_serving, sizing_to_dict

    request = request_from_args(args)
    catalog = catalog_from_args(args)
    if args.size:
        if request.requests_per_s is None:
            raise InputError("options: --requests-per-s (requests_per_s): --size needs the request rate")
        if args.max_gpus < 1:
            raise InputError(f"options: --max-gpus: {args.max_gpus} (allowed: 1 to 1048576)")
        if args.gpus is None:
            args.gpus = 8
        scenario = scenario_from_args(args)
        design_ids = design_ids_from_args(args) if args.designs or not args.design else (args.design,)
        results = size_serving(
            request=request, scenario=scenario, catalog=catalog, design_ids=design_ids, max_gpus=args.max_gpus
        )
        if all(r.gpus is None for r in results):
            raise InfeasibleError("; ".join(r.reason for r in results))
        write_results(
            results, fmt=args.format, as_list=True, to_dict=sizing_to_dict, render=render_sizing_table
        )
        return 0
    estimates = [
        estimate_serving(request=request, plan=p, catalog=catalog)
        for p in plans_from_args(args, scenario_from_args(args), catalog)
    ]
    from planner.decision.bands import serving_band_dicts, serving_note

    bands = serving_band_dicts()
    write_results(
        estimates,
        fmt=args.format,
        as_list=len(estimates) != 1,
        to_dict=lambda e: {**serving_to_dict(e), "model_error": bands},
        render=lambda found: f"{render_serving_table(found)}\n{serving_note()}",
    )
    return 0


def render_serving_table(estimates: Sequence[ServingEstimate]) -> str:
    """Designs as columns, figures as rows, then the decode step's parts and the notes."""

    from planner.performance.serving import serving_frame

    frame = serving_frame(estimates)
    formats = {
        "ttft_ms": "{:.1f}",
        "tpot_ms": "{:.2f}",
        "tokens_per_s": "{:,.0f}",
        "tokens_per_s_per_gpu": "{:,.1f}",
        "tokens_per_s_per_mw": "{:,.0f}",
        "usd_per_million_tokens": "{:.3f}",
        "ep_alltoall_ms_per_step": "{:.3f}",
        "ep_alltoall_share": "{:.1%}",
    }
    text = designs_as_columns(frame, formats)
    lines = [text, "", "Decode step [ms] (compute | memory | TP all-reduce | EP all-to-all | overhead):"]
    for e in estimates:
        d = e.decode
        parts = [d.compute_s, d.memory_s, d.tp_s, d.ep_s, d.overhead_s]
        pools = ", ".join(
            f"{p.role} {p.instances} x (tp {p.layout.tp} ep {p.layout.ep}) batch {p.batch}" for p in e.pools
        )
        lines.append(f"  {e.design_id}: " + " | ".join(f"{v * 1e3:.3f}" for v in parts) + f"; {pools}")
    at_load = [f"  {e.design_id}: {text}" for e in estimates if (text := load_text(e))]
    if at_load:
        lines += ["", "At the offered load:", *at_load]
    lines += notes_block(n for e in estimates for n in e.notes)
    return "\n".join(lines)


def render_sizing_table(results: Sequence[SizingResult]) -> str:
    """One line per design: the smallest cluster, its layout and figures, what binds."""
    lines = []
    for r in results:
        if r.estimate is None:
            lines.append(f"{r.design_id}: not met up to the limit: {r.reason}")
            continue
        e = r.estimate
        pools = ", ".join(f"{p.role} {p.instances} x (tp {p.layout.tp} ep {p.layout.ep})" for p in e.pools)
        lines.append(
            f"{r.design_id}: {r.gpus} GPUs ({pools}); batch {e.batch}, TTFT {e.ttft_s * 1e3:.1f} ms, "
            f"TPOT {e.tpot_s * 1e3:.2f} ms, {e.requests_per_s:.2f} requests/s, "
            f"{e.usd_per_million_tokens:.3f} USD per million tokens; binds: {r.binds}"
            + (f" ({r.smaller})" if r.smaller else "")
            + (f"; {text}" if (text := load_text(e)) else "")
        )
    return "\n".join(lines)


def load_text(estimate: ServingEstimate) -> str:
    """The wait for a sequence slot and the TTFT at the request's rate (M/M/c, ``queue_wait_s``),
    or "" when the request gives no rate.

    The JSON output carries the same figures as ``queue_wait_ms`` and ``ttft_at_load_ms``.
    """
    rate = estimate.request.requests_per_s
    if rate is None:
        return ""
    wait_s = estimate.queue_wait_s(requests_per_s=rate)
    if not math.isfinite(wait_s):
        return f"at {rate:g} requests/s the queue has no bound (the rate reaches capacity)"
    return (
        f"at {rate:g} requests/s: queue wait {wait_s * 1e3:.1f} ms, "
        f"TTFT at load {(estimate.ttft_s + wait_s) * 1e3:.1f} ms"
    )
