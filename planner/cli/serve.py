"""``planner serve``: TTFT, TPOT, tokens/s and cost per million tokens of a model on a cluster, or
(``--size``) the smallest cluster per design that serves a request rate within the targets.

Examples::

    planner serve --gpus 64 --design rail8-npo --gpu h100_sxm --params-b 671 --active-params-b 37 --precision fp8 --input-tokens 2048 --output-tokens 512 --format json
    planner serve --gpus 8 --design ib-ndr --params-b 70 --layers 80 --hidden 8192 --kv-heads 8 --precision fp8 --ttft-ms 500 --tpot-ms 30
    planner serve --gpus 64 --gpu h100_sxm --designs rail4-npo,rail8-npo,ib-ndr --params-b 671 --active-params-b 37 --precision fp8 --disaggregate
    planner serve --size --requests-per-s 20 --ttft-ms 2000 --tpot-ms 50 --gpu h100_sxm --params-b 671 --active-params-b 37 --precision fp8 --format json

Bad input (a target no layout reaches, a model too large for memory at any layout) exits with
code 2 and one line on stderr naming the bound and by how much.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from planner.cli import options

if TYPE_CHECKING:
    from planner.inputs.serving import ServingRequest
    from planner.performance.serving import ServingEstimate, SizingResult

REQUEST_GROUP = "model, request mix and targets"


def add_parser(subparsers: Any) -> None:
    """Register ``planner serve`` (its request options generated from
    :class:`~planner.inputs.serving.ServingRequest`).

    Parameters
    ----------
    subparsers : Any
        The ``planner`` parser's subparsers action.
    """
    from planner.inputs import serving

    serve = options.add_command(
        subparsers,
        "serve",
        help_text="LLM serving: TTFT, TPOT, tokens/s and cost per million tokens; --size sizes in reverse",
        doc=__doc__,
        scenario="design",
        handler=run_serve,
    )
    options.add_side_by_side_designs_option(serve)
    group = options.add_model_options(serve, serving.ServingRequest, REQUEST_GROUP)
    group.add_argument("--hf-config", metavar="FILE", help="Hugging Face config.json (flags override it)")
    sizing = serve.add_argument_group("reverse sizing")
    sizing.add_argument(
        "--size",
        action="store_true",
        help="smallest cluster per design meeting --requests-per-s and the targets",
    )
    options.add_number_option(
        sizing, "--max-gpus", whole=True, default=4096, help_text="largest cluster tried"
    )
    options.add_format_option(serve, ["table", "json"])


def request_from_args(args: argparse.Namespace) -> ServingRequest:
    """The serving request the options describe (over ``--hf-config`` when given), validated.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    ServingRequest
        The validated request.
    """
    from planner.errors import InputError
    from planner.inputs import serving
    from planner.performance.serving.hf import serving_fields_from_hf_config

    data = options.options_over_hf_config(
        args=args, model=serving.ServingRequest, config_fields=serving_fields_from_hf_config
    )
    if "params_b" not in data:
        raise InputError("options: --params-b (params_b): give the model size or --hf-config")
    return options.validated_options(serving.ServingRequest, data)


def run_serve(args: argparse.Namespace) -> int:
    """``planner serve``: one design, several side by side, or the reverse sizing.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    int
        Exit status, 0.
    """
    from planner.cli.options import design_ids_from_args
    from planner.errors import InfeasibleError, InputError
    from planner.performance.serving import estimate_serving, serving_to_dict, size_serving, sizing_to_dict

    request = request_from_args(args)
    catalog = options.catalog_from_args(args)
    if args.size:
        if request.requests_per_s is None:
            raise InputError("options: --requests-per-s (requests_per_s): --size needs the request rate")
        if args.max_gpus < 1:
            raise InputError(f"options: --max-gpus: {args.max_gpus} (allowed: 1 to 1048576)")
        if args.gpus is None:
            args.gpus = 8
        scenario = options.scenario_from_args(args)
        design_ids = design_ids_from_args(args) if args.designs or not args.design else (args.design,)
        results = size_serving(
            request=request, scenario=scenario, catalog=catalog, design_ids=design_ids, max_gpus=args.max_gpus
        )
        if all(r.gpus is None for r in results):
            raise InfeasibleError("; ".join(r.reason for r in results))
        options.write_results(
            results, fmt=args.format, as_list=True, to_dict=sizing_to_dict, render=render_sizing_table
        )
        return 0
    estimates = [
        estimate_serving(request=request, plan=p, catalog=catalog)
        for p in options.plans_from_args(args, options.scenario_from_args(args), catalog)
    ]
    from planner.decision.bands import serving_band_dicts, serving_note

    bands = serving_band_dicts()
    options.write_results(
        estimates,
        fmt=args.format,
        as_list=len(estimates) != 1,
        to_dict=lambda e: {**serving_to_dict(e), "model_error": bands},
        render=lambda found: f"{render_serving_table(found)}\n{serving_note()}",
    )
    return 0


def render_serving_table(estimates: Sequence[ServingEstimate]) -> str:
    """Designs as columns, figures as rows, then the decode step's parts and the notes.

    Parameters
    ----------
    estimates : Sequence[ServingEstimate]
        One estimate per design.

    Returns
    -------
    str
        The text (TTFT and TPOT [ms], tokens/s, cost [USD per million tokens]).
    """

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
    text = options.designs_as_columns(
        [{str(k): v for k, v in r.items()} for r in frame.to_dict("records")], formats
    )
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
    lines += options.notes_block(n for e in estimates for n in e.notes)
    return "\n".join(lines)


def render_sizing_table(results: Sequence[SizingResult]) -> str:
    """One line per design: the smallest cluster, its layout and figures, what binds.

    Parameters
    ----------
    results : Sequence[SizingResult]
        Reverse sizing per design.

    Returns
    -------
    str
        The text (GPUs [count]).
    """
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

    Parameters
    ----------
    estimate : ServingEstimate
        The estimate (its request's rate [1/s]).

    Returns
    -------
    str
        The sentence (times [ms]), or empty.
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
