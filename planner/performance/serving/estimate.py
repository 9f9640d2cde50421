"""Serving on a planned cluster: layout, batch, TTFT, TPOT, tokens/s, cost per million tokens.

Notes
-----
**Aggregated** (prefill and decode on the same instances, prefill first, as continuous batching
schedules it): the ``B`` sequences of an instance finish ``B / O`` requests per decode step, so
``a = B / O`` new prompts arrive per step and are prefilled in batches of ``P = max(1, a)``
prompts::

    TPOT = t_decode(B) + t_prefill(P) x min(1, a)       (prefills stall decoding)
    TTFT = t_prefill(P) + t_decode(B)                   (a new prompt waits for the running step)
    tokens/s = instances x B / TPOT                     (output tokens)

**Disaggregated** (separate prefill and decode pools, Splitwise arXiv 2311.18677, DistServe
arXiv 2401.09670): a prefill instance runs batches of ``P`` prompts (``r_p = P / t_prefill(P)``
requests/s), a decode instance ``B`` sequences (``r_d = B / (O t_decode(B))``); each request's KV
cache, ``I x kv`` bytes, moves from the prefill to the decode instance over the fabric
(:func:`planner.fabric.collectives.send_recv_time_s`, each of the prefill instance's ``tp`` GPUs
sending its share). The pool sizes ``n_p``, ``n_d`` with ``n_p g_p + n_d g_d <= N`` maximise
``min(n_p r_p, n_d r_d)``, which sets the ratio for the input/output mix::

    TPOT = t_decode(B)        TTFT = t_prefill(P) + t_kv
    tokens/s = O min(n_p r_p, n_d r_d)

Per GPU, per MW and per cost: tokens/s / N; tokens/s / (the plan's facility power at full load);
``USD / 1M tokens = N x (the plan's USD per GPU-hour) / (3600 tokens/s) x 1e6`` (the cost per
GPU-hour is :func:`planner.cost.cost_summary`'s: CAPEX annuity plus OPEX over the utilised hours).

The batch: given, else the largest that meets the TPOT and TTFT targets (both grow with the
batch, so a bisection finds it), else the largest the KV cache holds, at most
:data:`MAX_BATCH_PER_GROUP` per attention group. The layout: given, else the one of most tokens/s
(ties: the smaller instance).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from planner.catalog import Catalog
from planner.compare import DEFAULT_DESIGNS, compare
from planner.engine import Plan
from planner.errors import InfeasibleError, InputError
from planner.fabric.collectives import part_of_fabric
from planner.i18n.message import Message, msg
from planner.inputs.scenario import Scenario
from planner.inputs.serving import ServingRequest
from planner.performance.collectives import CollectiveFabric, fabric_from_plan, send_recv_time_s
from planner.performance.serving.coefficients import GpuFigures, gpu_figures, serving_coefficients
from planner.performance.serving.model import ServedModel, served_model
from planner.performance.serving.step import Instance, InstanceLayout, StepTime, powers_of_two
from planner.performance.training.moe import moe_coefficients
from planner.queueing import erlang_c_wait_s

Mode = Literal["aggregated", "disaggregated"]
Role = Literal["aggregated", "prefill", "decode"]

MAX_BATCH_PER_GROUP = 2048
"""Most concurrent sequences one attention group runs [count]: serving engines cap the batch
(TensorRT-LLM's default ``max_batch_size`` is 2048); assumed for every engine."""
MAX_DENSE_TP = 64
"""Largest tensor-parallel group searched for a dense model [count] (beyond one scale-up domain the
all-reduces cross the network)."""
PREFILL_BATCHES: tuple[int, ...] = (1, 2, 4, 8, 16, 32, 64)
"""Prompts per prefill batch searched in a prefill pool [count]."""


@dataclass(frozen=True)
class Pool:
    """Instances of one layout and their load: the whole cluster, or a prefill or decode pool."""

    role: Role
    layout: InstanceLayout
    instances: int
    batch: int
    """Sequences per instance (aggregated, decode) or prompts per prefill batch (prefill) [count]."""
    step: StepTime
    """The decode step (aggregated, decode) or the prefill batch (prefill)."""
    weights_gbyte_per_gpu: float
    kv_cache_gbyte_per_gpu: float
    """KV-cache capacity per GPU after weights and workspace [GB]."""
    kv_used_gbyte_per_gpu: float
    """KV cache the batch fills at its longest (input + output tokens) [GB]."""
    max_batch: int
    """Most sequences (prompts) the KV cache holds [count]."""
    requests_per_s: float
    """Requests the pool completes per second at this batch [1/s]."""

    @property
    def gpus(self) -> int:
        return self.instances * self.layout.gpus


@dataclass(frozen=True)
class ServingEstimate:
    """The serving estimate of one request on one plan."""

    design_id: str
    gpu_id: str
    gpus: int
    request: ServingRequest
    model: ServedModel
    mode: Mode
    pools: tuple[Pool, ...]
    decode: StepTime
    """One decode step at the chosen batch."""
    prefill: StepTime
    """One prefill batch (aggregated: the prompts that arrive per step; disaggregated: the pool's batch)."""
    ttft_s: float
    tpot_s: float
    kv_transfer_s: float
    """KV-cache transfer per request from the prefill to the decode pool [s]; 0 aggregated."""
    tokens_per_s: float
    """Output tokens per second of the whole cluster [1/s]."""
    requests_per_s: float
    usd_per_gpu_hour: float
    facility_kw: float
    batch_limit: str
    """What stopped the batch: ``given``, ``kv_cache``, ``batch_cap``, ``tpot_slo``, ``ttft_slo``."""
    layouts_tried: int
    notes: tuple[str, ...] = field(default=())

    @property
    def decode_pool(self) -> Pool:
        return self.pools[-1]

    @property
    def batch(self) -> int:
        """Concurrent sequences per decoding instance [count]."""
        return self.decode_pool.batch

    @property
    def tokens_per_s_per_gpu(self) -> float:
        return self.tokens_per_s / self.gpus

    @property
    def tokens_per_s_per_mw(self) -> float:
        return self.tokens_per_s / (self.facility_kw / 1000.0) if self.facility_kw > 0 else 0.0

    @property
    def usd_per_million_tokens(self) -> float:
        if self.tokens_per_s <= 0:
            return float("inf")
        return self.gpus * self.usd_per_gpu_hour / (self.tokens_per_s * 3600.0) * 1e6

    @property
    def ep_alltoall_s_per_step(self) -> float:
        """Expert all-to-all time in one decode step [s]."""
        return self.decode.ep_s

    @property
    def ep_alltoall_share(self) -> float:
        """Share of the decode step spent in the expert all-to-all [-]."""
        return self.decode.ep_s / self.decode.total_s if self.decode.total_s > 0 else 0.0

    @property
    def bound(self) -> str:
        """What bounds the decode step (:attr:`StepTime.bound`)."""
        return self.decode.bound

    @property
    def slots(self) -> int:
        """Sequences the cluster decodes at once: decode instances x batch [count]."""
        return self.decode_pool.instances * self.decode_pool.batch

    def queue_wait_s(self, *, requests_per_s: float) -> float:
        """Mean wait for a free sequence slot at ``requests_per_s`` offered requests [s].

        Each of the cluster's ``c`` slots (:attr:`slots`) serves one request for
        ``S = TTFT + O x TPOT``; with Poisson arrivals and exponential service this is M/M/c:
        ``W_q = C(c, lambda S) / (c / S - lambda)`` (Erlang C, :func:`planner.queueing.erlang_c_wait_s`).
        A fixed output length queues less than exponential service, so this errs long. Infinite
        when ``lambda`` reaches ``c / S``.
        """
        occupancy_s = self.ttft_s + self.request.output_tokens * self.tpot_s
        if requests_per_s <= 0 or occupancy_s <= 0:
            return 0.0
        return erlang_c_wait_s(
            servers=self.slots, arrival_per_s=requests_per_s, service_per_s=1.0 / occupancy_s
        )

    def ttft_at_load_s(self, *, requests_per_s: float) -> float:
        """First-token latency including the wait for a slot at ``requests_per_s`` [s]."""
        return self.ttft_s + self.queue_wait_s(requests_per_s=requests_per_s)

    def meets(self, *, ttft_ms: float | None, tpot_ms: float | None) -> bool:
        """Whether TTFT and TPOT are within the targets (``None``: no target)."""
        ok_ttft = ttft_ms is None or self.ttft_s * 1e3 <= ttft_ms * (1 + 1e-9)
        ok_tpot = tpot_ms is None or self.tpot_s * 1e3 <= tpot_ms * (1 + 1e-9)
        return ok_ttft and ok_tpot


@dataclass(frozen=True)
class _Candidate:
    """A layout evaluated at a batch: the figures the search compares."""

    pool: Pool
    decode: StepTime
    prefill: StepTime
    ttft_s: float
    tpot_s: float
    batch_limit: str


@dataclass(frozen=True)
class _Context:
    request: ServingRequest
    model: ServedModel
    gpu: GpuFigures
    fabric: CollectiveFabric
    gpus: int
    instance: Callable[[InstanceLayout], Instance]


def _context(
    request: ServingRequest, plan: Plan, catalog: Catalog, fabric: CollectiveFabric | None
) -> _Context:
    coefficients = serving_coefficients(catalog)
    gpu = gpu_figures(
        catalog=catalog, gpu_id=plan.gpu_id, precision=request.precision, coefficients=coefficients
    )
    model = served_model(request)
    # the service runs on the GPUs asked for, even when the plan rounds up to whole domains
    gpus = min(plan.gpus_requested, plan.gpus)
    fab = part_of_fabric(fabric or fabric_from_plan(plan=plan, catalog=catalog), gpus=gpus)
    dispatch = 1.0 if request.precision != "bf16" else 2.0
    comm_sms = moe_coefficients(catalog, gpu_id=plan.gpu_id).comm_sm_fraction if model.moe else 0.0

    def instance(layout: InstanceLayout) -> Instance:
        return Instance(
            model=model,
            layout=layout,
            gpu=gpu,
            fabric=fab,
            coefficients=coefficients,
            dispatch_bytes=dispatch,
            dispatch_mode=request.moe_dispatch_mode,
            draft_tokens=request.mtp_draft_tokens,
            acceptance=request.mtp_acceptance or 1.0,
            low_latency_path=request.moe_low_latency_path,
            node_limit=request.moe_node_limit,
            overlap=request.moe_overlap,
            imbalance=request.moe_load_imbalance,
            comm_sm_fraction=comm_sms,
            # FlashMLA runs the latent attention in BF16 whatever the weights' format
            attention_slowdown=(
                gpu.peak_flops / (catalog.gpus[plan.gpu_id].bf16_dense_tflops * 1e12)
                if model.mla_rank
                else 1.0
            ),
        )

    return _Context(request, model, gpu, fab, gpus, instance)


def _request_layouts(ctx: _Context) -> tuple[InstanceLayout, ...]:
    """The instance layouts searched for the request on the context's GPUs (its ``tp``/``ep``
    when it gives them; :func:`layouts`)."""
    r = ctx.request
    return layouts(model=ctx.model, gpus=ctx.gpus, domain_gpus=ctx.fabric.domain_gpus, tp=r.tp, ep=r.ep)


def _mean_decode_context(request: ServingRequest) -> float:
    """Context of the mean decode step [tokens]: the prompt and half the output, ``I + O / 2``."""
    return request.input_tokens + request.output_tokens / 2.0


def layouts(*, model: ServedModel, gpus: int, domain_gpus: int, tp: int | None = None,
            ep: int | None = None) -> tuple[InstanceLayout, ...]:  # fmt: skip
    """Instance layouts searched on ``gpus`` GPUs (or the one given).

    Dense: ``tp`` = 1, 2, 4, ... up to :data:`MAX_DENSE_TP`. MoE: ``tp`` up to the scale-up domain,
    ``ep`` = ``tp`` x 1, 2, 4, ... up to the experts (an expert per GPU at least).

    Parameters
    ----------
    model : ServedModel
        The served model; dense or mixture of experts, and its routed experts [count].
    gpus : int
        GPUs available to the service [count]; no instance is larger.
    domain_gpus : int
        GPUs of one scale-up domain [count]; an MoE model's ``tp`` stays within it.
    tp : int or None
        Tensor-parallel width to use [count]; ``None`` searches the powers of two.
    ep : int or None
        Expert-parallel width to use [count] (MoE only); ``None`` searches ``tp`` x powers of two.

    Returns
    -------
    tuple[InstanceLayout, ...]
        The layouts, ``tp`` ascending then ``ep`` ascending; each uses at most ``gpus`` GPUs and,
        for MoE, has ``ep`` a multiple of ``tp``.

    >>> from planner.inputs.serving import ServingRequest
    >>> m = served_model(ServingRequest(params_b=47, experts=8, top_k=2))
    >>> [(lay.tp, lay.ep) for lay in layouts(model=m, gpus=16, domain_gpus=8)][:4]
    [(1, 1), (1, 2), (1, 4), (1, 8)]
    """
    if not model.moe:
        tps = (tp,) if tp else powers_of_two(min(gpus, MAX_DENSE_TP))
        return tuple(InstanceLayout(tp=t) for t in tps if t <= gpus)
    tps = (tp,) if tp else powers_of_two(min(gpus, domain_gpus))
    out = []
    for t in tps:
        eps = (ep,) if ep else tuple(t * k for k in powers_of_two(max(1, min(gpus, model.experts) // t)))
        out += [InstanceLayout(tp=t, ep=e) for e in eps if e >= t and e % t == 0 and e <= gpus]
    return tuple(out)


def _pool(ctx: _Context, inst: Instance, role: Role, instances: int, batch: int, step: StepTime,
          requests_per_s: float) -> Pool:  # fmt: skip
    r = ctx.request
    tokens_each = r.input_tokens if role == "prefill" else r.input_tokens + r.output_tokens
    return Pool(
        role=role, layout=inst.layout, instances=instances, batch=batch, step=step,
        weights_gbyte_per_gpu=inst.weights_bytes_per_gpu / 1e9,
        kv_cache_gbyte_per_gpu=max(0.0, inst.kv_capacity_bytes_per_gpu) / 1e9,
        kv_used_gbyte_per_gpu=inst.kv_bytes_per_gpu(sequences=batch, tokens_each=tokens_each) / 1e9,
        max_batch=inst.max_batch(tokens_each=tokens_each), requests_per_s=requests_per_s,
    )  # fmt: skip


def _aggregated_at(ctx: _Context, inst: Instance, batch: int, limit: str) -> _Candidate:
    r = ctx.request
    decode = inst.decode_step(batch=batch, context=_mean_decode_context(r))
    # a step emits E tokens per sequence (1 without drafts), so E / O of the sequences end per step
    arrivals = batch * decode.emitted_tokens / r.output_tokens
    prefill = inst.prefill(prompts=max(1.0, arrivals), prompt_tokens=r.input_tokens)
    tpot = (decode.total_s + prefill.total_s * min(1.0, arrivals)) / decode.emitted_tokens
    instances = ctx.gpus // inst.layout.gpus
    rate = instances * batch / tpot / r.output_tokens
    pool = _pool(ctx, inst, "aggregated", instances, batch, decode, rate)
    return _Candidate(pool, decode, prefill, prefill.total_s + decode.total_s, tpot, limit)


def _decode_at(ctx: _Context, inst: Instance, batch: int, limit: str) -> _Candidate:
    r = ctx.request
    decode = inst.decode_step(batch=batch, context=_mean_decode_context(r))
    rate = batch / decode.per_token_s / r.output_tokens  # one instance; the pools are sized later
    pool = _pool(ctx, inst, "decode", 1, batch, decode, rate)
    return _Candidate(pool, decode, decode, 0.0, decode.per_token_s, limit)


def _best_batch(ctx: _Context, inst: Instance, evaluate: Callable[[_Context, Instance, int, str], _Candidate]
                ) -> _Candidate | None:  # fmt: skip
    """The layout at the given batch, or the largest that meets the targets and fits; ``None`` when
    none fits or none meets them."""
    r = ctx.request
    fits = inst.max_batch(tokens_each=r.input_tokens + r.output_tokens)
    if fits < 1:
        return None
    if r.batch is not None:
        return evaluate(ctx, inst, r.batch, "given") if r.batch <= fits else None
    cap = MAX_BATCH_PER_GROUP * inst.layout.attention_groups
    top, limit = (fits, "kv_cache") if fits <= cap else (cap, "batch_cap")

    def ok(c: _Candidate) -> bool:
        ttft_ok = r.ttft_ms is None or c.ttft_s * 1e3 <= r.ttft_ms
        return ttft_ok and (r.tpot_ms is None or c.tpot_s * 1e3 <= r.tpot_ms)

    best = evaluate(ctx, inst, top, limit)
    if ok(best):
        return best
    low = evaluate(ctx, inst, 1, "tpot_slo")
    if not ok(low):
        return None
    lo, hi = 1, top  # ok(lo), not ok(hi)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if ok(evaluate(ctx, inst, mid, "tpot_slo")):
            lo = mid
        else:
            hi = mid
    found = evaluate(ctx, inst, lo, "tpot_slo")
    miss = evaluate(ctx, inst, hi, "tpot_slo")
    tpot_missed = r.tpot_ms is not None and miss.tpot_s * 1e3 > r.tpot_ms
    return (
        found
        if tpot_missed
        else _Candidate(found.pool, found.decode, found.prefill, found.ttft_s, found.tpot_s, "ttft_slo")
    )


def _search(ctx: _Context, evaluate: Callable[[_Context, Instance, int, str], _Candidate]
            ) -> tuple[_Candidate | None, int]:  # fmt: skip
    """The candidate of most requests/s over the layouts (ties: the smaller instance): of the
    whole cluster when aggregated, per GPU of one instance for a decode pool (sized later)."""
    found: _Candidate | None = None
    found_rate = 0.0
    tried = 0
    for layout in _request_layouts(ctx):
        tried += 1
        c = _best_batch(ctx, ctx.instance(layout), evaluate)
        if c is None:
            continue
        rate = c.pool.requests_per_s / (c.pool.gpus if c.pool.role == "decode" else 1)
        if found is None or rate > found_rate * (1 + 1e-9):
            found, found_rate = c, rate
    return found, tried


def _explain(ctx: _Context, plan: Plan) -> InfeasibleError:
    """Why no layout serves the request: memory, or which latency target and by how much."""
    r = ctx.request
    all_layouts = _request_layouts(ctx)
    if not all_layouts:
        return InfeasibleError(
            msg(
                "tp/ep: no layout with tp={tp}, ep={ep} on {gpus} GPUs (allowed: powers of two up to the GPUs; "
                "ep a multiple of tp, at most the experts)",
                tp=r.tp,
                ep=r.ep,
                gpus=ctx.gpus,
            )
        )
    instances = [ctx.instance(lay) for lay in all_layouts]
    tokens_each = r.input_tokens + r.output_tokens
    fitting = [i for i in instances if i.max_batch(tokens_each=tokens_each) >= 1]
    if not fitting:
        roomiest = max(instances, key=lambda i: i.kv_capacity_bytes_per_gpu)
        need = roomiest.weights_bytes_per_gpu + roomiest.coefficients.workspace_gbyte * 1e9
        need += roomiest.kv_bytes_per_gpu(sequences=1, tokens_each=tokens_each)
        return InfeasibleError(
            msg(
                "memory: the model does not fit at any layout on {gpus} GPUs ({gpu}): the roomiest, tp {tp} ep {ep}, "
                "needs {need:.1f} GB per GPU (weights {weights:.1f} GB, workspace and one sequence's KV cache) "
                "of {usable:.1f} GB usable, {short:.1f} GB short; use more GPUs, fp8/fp4 weights or shorter sequences",
                gpus=ctx.gpus,
                gpu=ctx.gpu.gpu_id,
                tp=roomiest.layout.tp,
                ep=roomiest.layout.ep,
                need=need / 1e9,
                weights=roomiest.weights_bytes_per_gpu / 1e9,
                usable=roomiest.usable_bytes_per_gpu / 1e9,
                short=(need - roomiest.usable_bytes_per_gpu) / 1e9,
            )
        )
    if r.batch is not None:
        most = max(i.max_batch(tokens_each=tokens_each) for i in fitting)
        return InfeasibleError(
            msg(
                "batch: {batch} sequences of {tokens} tokens do not fit in the KV cache of any layout on {gpus} GPUs "
                "(at most {most}); lower the batch or the lengths",
                batch=r.batch,
                tokens=tokens_each,
                gpus=ctx.gpus,
                most=most,
            )
        )
    evaluate = _decode_at if r.disaggregate else _aggregated_at
    at_one = [evaluate(ctx, i, 1, "tpot_slo") for i in fitting]
    fastest_tpot = min(at_one, key=lambda c: c.tpot_s)
    if r.tpot_ms is not None and fastest_tpot.tpot_s * 1e3 > r.tpot_ms:
        return _slo_error("tpot_ms", r.tpot_ms, fastest_tpot.tpot_s, fastest_tpot, ctx, plan)
    if r.disaggregate:
        prefills = [i.prefill(prompts=1, prompt_tokens=r.input_tokens) for i in fitting]
        best_i = min(range(len(fitting)), key=lambda k: prefills[k].total_s + _kv_transfer_s(ctx, fitting[k]))
        ttft = prefills[best_i].total_s + _kv_transfer_s(ctx, fitting[best_i])
        cand = _Candidate(at_one[best_i].pool, at_one[best_i].decode, prefills[best_i], ttft, 0.0, "ttft_slo")
        if r.ttft_ms is not None and ttft * 1e3 > r.ttft_ms:
            return _slo_error("ttft_ms", r.ttft_ms, ttft, cand, ctx, plan, step=prefills[best_i])
        smallest = min(i.layout.gpus for i in fitting)
        return InfeasibleError(
            msg(
                "disaggregate: {gpus} GPUs do not hold a prefill and a decode instance that both fit and meet "
                "the targets (the smallest instance that fits has {smallest} GPUs); use more GPUs or serve aggregated",
                gpus=ctx.gpus,
                smallest=smallest,
            )
        )
    fastest_ttft = min(at_one, key=lambda c: c.ttft_s)
    return _slo_error(
        "ttft_ms", r.ttft_ms or 0.0, fastest_ttft.ttft_s, fastest_ttft, ctx, plan, step=fastest_ttft.prefill
    )


def _slo_error(field_name: str, target_ms: float, best_s: float, c: _Candidate, ctx: _Context, plan: Plan,
               step: StepTime | None = None) -> InfeasibleError:  # fmt: skip
    s = step or c.decode
    return InfeasibleError(
        msg(
            "{field}: {target:g} ms is below the fastest any layout reaches on {gpus} GPUs of {design}: "
            "{best:.2f} ms at batch 1 (tp {tp}, ep {ep}; bound by {bound}), {short:.2f} ms short",
            field=field_name,
            target=target_ms,
            gpus=ctx.gpus,
            design=plan.design_id,
            best=best_s * 1e3,
            tp=c.pool.layout.tp,
            ep=c.pool.layout.ep,
            bound=s.bound,
            short=best_s * 1e3 - target_ms,
        )
    )


def _kv_transfer_s(ctx: _Context, prefill_instance: Instance) -> float:
    """One request's KV cache from a prefill instance to a decode instance [s] (module notes)."""
    r = ctx.request
    total = r.input_tokens * ctx.model.kv_bytes_per_token
    apart = 1 if ctx.fabric.domains > 1 else 0
    return send_recv_time_s(
        fabric=ctx.fabric, message_bytes=total / prefill_instance.layout.tp, domains_apart=apart
    )


def _prefill_options(ctx: _Context) -> list[tuple[float, Pool, StepTime, float]]:
    """Per prefill layout, the batch of most requests/s per GPU within the TTFT target:
    (requests/s per GPU, pool of one instance, prefill step, KV transfer [s]), best first."""
    r = ctx.request
    found: list[tuple[float, Pool, StepTime, float]] = []
    for layout in layouts(model=ctx.model, gpus=ctx.gpus, domain_gpus=ctx.fabric.domain_gpus):
        inst = ctx.instance(layout)
        fits = inst.max_batch(tokens_each=r.input_tokens)
        transfer = _kv_transfer_s(ctx, inst)
        options = []
        for prompts in (p for p in PREFILL_BATCHES if p <= fits):
            step = inst.prefill(prompts=prompts, prompt_tokens=r.input_tokens)
            if r.ttft_ms is not None and (step.total_s + transfer) * 1e3 > r.ttft_ms:
                break
            options.append((prompts / step.total_s / layout.gpus, prompts, step))
        if not options:
            continue
        top = max(o[0] for o in options)
        per_gpu, prompts, step = next(o for o in options if o[0] >= 0.97 * top)  # smallest near the top
        found.append(
            (per_gpu, _pool(ctx, inst, "prefill", 1, prompts, step, prompts / step.total_s), step, transfer)
        )
    return sorted(found, key=lambda o: -o[0])


def _disaggregated(ctx: _Context, plan: Plan) -> tuple[Pool, StepTime, float, _Candidate, int]:
    """The prefill layout of most requests/s per GPU that leaves room for a decode instance, and the
    best decode layout in the GPUs left: (prefill pool, prefill step, KV transfer [s], decode, tried)."""
    for _, p_pool, p_step, transfer in _prefill_options(replace(ctx, gpus=ctx.gpus - 1)):
        decode, tried = _search(replace(ctx, gpus=ctx.gpus - p_pool.layout.gpus), _decode_at)
        if decode is not None:
            return p_pool, p_step, transfer, decode, tried
    raise _explain(ctx, plan)


def _split(gpus: int, prefill: Pool, decode: Pool) -> tuple[int, int]:
    """Prefill and decode instances that maximise the completed requests/s on ``gpus`` GPUs."""
    gp, gd = prefill.layout.gpus, decode.layout.gpus
    best = (0.0, 0, 0)
    for n_p in range(1, (gpus - gd) // gp + 1):
        n_d = (gpus - n_p * gp) // gd
        rate = min(n_p * prefill.requests_per_s, n_d * decode.requests_per_s)
        if n_d >= 1 and rate > best[0]:
            best = (rate, n_p, n_d)
    return best[1], best[2]


def estimate_serving(
    *, request: ServingRequest, plan: Plan, catalog: Catalog, fabric: CollectiveFabric | None = None
) -> ServingEstimate:
    """TTFT, TPOT, tokens/s, power and cost of serving ``request`` on every GPU of ``plan``.

    Parameters
    ----------
    request
        The model, formats, request mix and targets (:class:`ServingRequest`).
    plan
        The cluster (:func:`planner.engine.plan`): GPU, fabric, facility power, USD per GPU-hour.
    catalog
        The catalog of the plan (GPU figures and the serving coefficients, ``data/serving.yaml``).
    fabric
        Override the plan's collective fabric (sensitivity studies).

    Returns
    -------
    ServingEstimate
        Layout and pools, batch, TTFT and TPOT [s], tokens/s, USD per million tokens (module notes).

    Raises
    ------
    InfeasibleError
        The model fits no layout (which one comes closest and by how many GB), the given batch
        does not fit, or a latency target is below what any layout reaches at batch 1 (by how
        many ms, and what bounds it).
    """
    ctx = _context(request, plan, catalog, fabric)
    r = request
    notes = [*ctx.model.notes, *_part_of_plan_note(ctx, plan)]
    if r.disaggregate:
        if ctx.gpus < 2:
            raise InputError(
                msg("disaggregate: needs at least 2 GPUs, one per pool (got {gpus})", gpus=ctx.gpus)
            )
        p_pool, p_step, transfer, decode, tried = _disaggregated(ctx, plan)
        n_p, n_d = _split(ctx.gpus, p_pool, decode.pool)
        if n_p < 1 or n_d < 1:
            raise InfeasibleError(
                msg(
                    "disaggregate: {gpus} GPUs hold no prefill instance of {gp} GPUs beside a decode instance "
                    "of {gd} GPUs; use more GPUs or serve aggregated",
                    gpus=ctx.gpus,
                    gp=p_pool.layout.gpus,
                    gd=decode.pool.layout.gpus,
                )
            )
        pools: tuple[Pool, ...] = (
            _resize(p_pool, n_p),
            _resize(decode.pool, n_d),
        )
        rate = min(pools[0].requests_per_s, pools[1].requests_per_s)
        ttft, tpot, step, limit = p_step.total_s + transfer, decode.tpot_s, decode.decode, decode.batch_limit
        prefill_step = p_step
    else:
        found, tried = _search(ctx, _aggregated_at)
        if found is None:
            raise _explain(ctx, plan)
        pools = (found.pool,)
        rate = found.pool.requests_per_s
        ttft, tpot, step, limit, transfer = found.ttft_s, found.tpot_s, found.decode, found.batch_limit, 0.0
        prefill_step = found.prefill
    notes += _notes(ctx, pools)
    estimate = ServingEstimate(
        design_id=plan.design_id, gpu_id=plan.gpu_id, gpus=ctx.gpus, request=r, model=ctx.model,
        mode="disaggregated" if r.disaggregate else "aggregated", pools=pools, decode=step,
        prefill=prefill_step, ttft_s=ttft, tpot_s=tpot, kv_transfer_s=transfer,
        tokens_per_s=rate * r.output_tokens, requests_per_s=rate, usd_per_gpu_hour=plan.cost.usd_per_gpu_hour,
        facility_kw=plan.power.facility_kw * ctx.gpus / plan.gpus, batch_limit=limit, layouts_tried=tried,
        notes=tuple(notes),
    )  # fmt: skip
    return _with_overload_note(estimate)


def _part_of_plan_note(ctx: _Context, plan: Plan) -> list[Message]:
    """A note when the service runs on part of the plan's GPUs (cost and energy are its share)."""
    if ctx.gpus >= plan.gpus:
        return []
    return [
        msg(
            "the service runs on {gpus} of the plan's {plan} GPUs ({per_domain} in each of {domains} "
            "scale-up domains); cost and energy are its share",
            gpus=ctx.gpus,
            plan=plan.gpus,
            per_domain=ctx.fabric.domain_gpus,
            domains=ctx.fabric.domains,
        )
    ]


def _with_overload_note(estimate: ServingEstimate) -> ServingEstimate:
    """The estimate, with a note when the request's rate reaches the cluster's capacity (the wait
    for a slot has no bound, :meth:`ServingEstimate.queue_wait_s`)."""
    rate = estimate.request.requests_per_s
    if rate is None or math.isfinite(estimate.queue_wait_s(requests_per_s=rate)):
        return estimate
    occupancy_s = estimate.ttft_s + estimate.request.output_tokens * estimate.tpot_s
    overloaded = msg(
        "requests_per_s: {rate:g} requests/s reach what {gpus} GPUs serve ({served:.1f} requests/s): "
        "requests would queue without bound",
        rate=rate,
        gpus=estimate.gpus,
        served=estimate.slots / occupancy_s,
    )
    return replace(estimate, notes=(*estimate.notes, overloaded))


def _resize(pool: Pool, instances: int) -> Pool:
    return replace(pool, instances=instances, requests_per_s=pool.requests_per_s * instances)


def _notes(ctx: _Context, pools: Sequence[Pool]) -> list[str]:
    notes: list[str] = []
    for pool in pools:
        if pool.layout.tp > ctx.fabric.domain_gpus:
            notes.append(
                msg(
                    "tp {tp} spans more than one scale-up domain: its all-reduces cross the network",
                    tp=pool.layout.tp,
                )
            )
    idle = ctx.gpus - sum(p.gpus for p in pools)
    if idle > 0:
        notes.append(msg("{idle} GPUs left idle: they do not make a whole instance", idle=idle))
    return notes


def compare_serving(
    *,
    request: ServingRequest,
    scenario: Scenario,
    catalog: Catalog,
    design_ids: Sequence[str] = DEFAULT_DESIGNS,
) -> tuple[ServingEstimate, ...]:
    """The same request on each design, with the same GPU (see :func:`planner.compare.compare`).

    Parameters
    ----------
    request : ServingRequest
        The model, formats, request mix and targets.
    scenario : Scenario
        The cluster scenario each design is planned for.
    catalog : Catalog
        Loaded catalog.
    design_ids : Sequence[str]
        Designs to compare [dimensionless].

    Returns
    -------
    tuple[ServingEstimate, ...]
        One estimate per design, in the order :func:`planner.compare.compare` returns the plans
        (TTFT and TPOT [s], tokens/s, USD per million tokens: :func:`estimate_serving`).

    Raises
    ------
    InfeasibleError
        The request fits no layout on one of the designs (:func:`estimate_serving`).
    """
    plans = compare(scenario=scenario, catalog=catalog, design_ids=design_ids)
    return tuple(estimate_serving(request=request, plan=p, catalog=catalog) for p in plans)


def batch_sweep(
    *, estimate: ServingEstimate, plan: Plan, catalog: Catalog, points: int = 12
) -> list[dict[str, float]]:
    """TPOT, TTFT and output tokens/s per GPU against the batch, on the estimate's decode layout.

    Batches 1, 2, 4, ... up to the most the KV cache holds (at most ``2^(points-1)``); the same
    step model as the estimate, so TPOT grows with the batch and tokens/s saturates where the step
    turns compute-bound.

    Parameters
    ----------
    estimate : ServingEstimate
        The estimate whose request and decode layout are swept (its batch is ignored).
    plan : Plan
        The plan the estimate was made on.
    catalog : Catalog
        The plan's catalog.
    points : int
        Most batches tried [count]: 1 up to ``2^(points-1)``.

    Returns
    -------
    list[dict[str, float]]
        One row per batch, ascending: ``batch`` [count], ``tpot_ms`` and ``decode_step_ms`` [ms],
        ``ep_alltoall_ms`` (the decode step's expert all-to-all) [ms] and
        ``tokens_per_s_per_gpu`` (output tokens) [tokens/s per GPU].
    """
    request = estimate.request.model_copy(update={"batch": None})
    ctx = _context(request, plan, catalog, None)
    pool = estimate.decode_pool
    inst = ctx.instance(pool.layout)
    evaluate = _decode_at if estimate.mode == "disaggregated" else _aggregated_at
    top = min(pool.max_batch, MAX_BATCH_PER_GROUP * pool.layout.attention_groups)
    rows = []
    for batch in (b for b in (2**i for i in range(points)) if b <= max(1, top)):
        c = evaluate(ctx, inst, batch, "given")
        rows.append(
            {
                "batch": float(batch),
                "tpot_ms": c.tpot_s * 1e3,
                "decode_step_ms": c.decode.total_s * 1e3,
                "ep_alltoall_ms": c.decode.ep_s * 1e3,
                "tokens_per_s_per_gpu": batch / c.tpot_s / pool.layout.gpus,
            }
        )
    return rows


@dataclass(frozen=True)
class StaticBatch:
    """One static batch on one instance: every prompt prefilled together, then every token decoded."""

    layout: InstanceLayout
    batch: int
    prefill: StepTime
    decode: StepTime
    """One decode step at the mean context ``I + O / 2``."""
    output_tokens: int

    @property
    def ttft_s(self) -> float:
        return self.prefill.total_s

    @property
    def total_s(self) -> float:
        """Prefill plus ``O / E`` decode steps (``E`` tokens emitted per step) [s]."""
        return self.prefill.total_s + self.output_tokens * self.decode.per_token_s

    @property
    def tokens_per_s_per_gpu(self) -> float:
        """Output tokens per second per GPU of the instance [1/s]."""
        return self.batch * self.output_tokens / self.total_s / self.layout.gpus


def static_batch(*, request: ServingRequest, plan: Plan, catalog: Catalog) -> StaticBatch:
    """A static batch of ``request.batch`` (default 1) prompts on the request's layout (default the
    smallest that fits): how benchmarks such as TensorRT-LLM's ``gptSessionBenchmark`` measure.

    Parameters
    ----------
    request : ServingRequest
        The model, input and output tokens per prompt [count], batch [count] and optional
        ``tp``/``ep`` layout [count].
    plan : Plan
        The cluster whose GPU and fabric the instance runs on.
    catalog : Catalog
        The plan's catalog.

    Returns
    -------
    StaticBatch
        The first layout (``tp`` then ``ep`` ascending) whose KV cache holds the batch, with its
        prefill of the whole batch and one decode step at the mean context ``I + O / 2`` [s each].

    Raises
    ------
    InfeasibleError
        The model or the batch fits no layout (the reasons of :func:`estimate_serving`).
    """
    ctx = _context(request, plan, catalog, None)
    batch = request.batch or 1
    tokens_each = request.input_tokens + request.output_tokens
    for layout in _request_layouts(ctx):
        inst = ctx.instance(layout)
        if inst.max_batch(tokens_each=tokens_each) >= batch:
            return StaticBatch(
                layout=layout, batch=batch,
                prefill=inst.prefill(prompts=batch, prompt_tokens=request.input_tokens),
                decode=inst.decode_step(batch=batch, context=_mean_decode_context(request)),
                output_tokens=request.output_tokens,
            )  # fmt: skip
    raise _explain(ctx, plan)


@dataclass(frozen=True)
class PhaseRate:
    """One prefill or decode step of an instance with its per-GPU load, as disaggregated pools run."""

    layout: InstanceLayout
    step: StepTime
    tokens_per_gpu: float
    """Tokens one GPU processes in the step (prompt tokens, or one per sequence in decode) [count]."""

    @property
    def tokens_per_s_per_gpu(self) -> float:
        return self.tokens_per_gpu / self.step.total_s


def phase_rate(
    *, request: ServingRequest, plan: Plan, catalog: Catalog, phase: Literal["prefill", "decode"],
    sequences_per_gpu: int, context_tokens: int,
) -> PhaseRate:  # fmt: skip
    """Throughput per GPU of a prefill or a decode pool instance at a stated load.

    Parameters
    ----------
    request
        The model and its parallel layout (``tp``, default 1 with data-parallel attention; ``ep``,
        default the plan's GPUs), dispatch mode, node limit, overlap and imbalance.
    plan, catalog
        The cluster: the expert all-to-all runs on its fabric.
    phase
        ``prefill``: ``sequences_per_gpu`` prompts of ``context_tokens`` each; ``decode``: one token
        for each of ``sequences_per_gpu`` sequences attending over ``context_tokens``.
    sequences_per_gpu
        Prompts (prefill) or sequences (decode) per GPU [count]; the instance's batch is
        ``sequences_per_gpu x gpus / tp`` (one copy per tensor-parallel group).
    context_tokens
        Tokens per prompt (prefill) or attended context per sequence (decode) [count].

    Returns
    -------
    PhaseRate
        The instance's layout, its step time [s] and the tokens one GPU processes in the step
        [count]: ``batch x context_tokens / gpus`` in prefill, ``batch / gpus`` in decode.

    Raises
    ------
    InfeasibleError
        The weights and the KV cache of that load do not fit in the GPUs' memory.
    """
    ctx = _context(request, plan, catalog, None)
    tp = request.tp or 1
    ep = request.ep or (plan.gpus if ctx.model.moe else tp)
    inst = ctx.instance(InstanceLayout(tp=tp, ep=max(tp, ep)))
    sequences = sequences_per_gpu * inst.layout.gpus / tp
    if inst.max_batch(tokens_each=context_tokens) < sequences:
        raise _explain(ctx, plan)
    if phase == "prefill":
        step = inst.prefill(prompts=sequences, prompt_tokens=context_tokens)
        return PhaseRate(inst.layout, step, sequences * context_tokens / inst.layout.gpus)
    step = inst.decode_step(batch=sequences, context=context_tokens)
    return PhaseRate(inst.layout, step, sequences * step.emitted_tokens / inst.layout.gpus)


def expert_alltoall_s(
    *, request: ServingRequest, plan: Plan, catalog: Catalog, tokens_per_gpu: int,
    phase: Literal["prefill", "decode"] = "decode",
) -> tuple[float, float]:  # fmt: skip
    """One expert layer's dispatch and combine of ``tokens_per_gpu`` tokens on every GPU of an
    instance of ``ep`` GPUs (default the plan's), on the plan's fabric [s].

    The kernels are the request's dispatch mode (``auto``: low-latency in decode, normal in
    prefill); the dispatch moves ``T k h b_d`` bytes per GPU, the combine ``T k h 2``
    (:mod:`~planner.performance.serving.step`). This is what a kernel benchmark such as DeepEP's
    times (one call, no compute around it).

    Parameters
    ----------
    request : ServingRequest
        The model, its weight format and the expert dispatch settings (mode, node limit, load
        imbalance); ``ep`` [count], default the plan's GPUs.
    plan : Plan
        The cluster whose fabric carries the all-to-all.
    catalog : Catalog
        The plan's catalog.
    tokens_per_gpu : int
        Tokens each GPU dispatches [count].
    phase : {"prefill", "decode"}
        Step kind; with dispatch mode ``auto`` it picks the kernels (low-latency in decode).

    Returns
    -------
    tuple[float, float]
        Dispatch time and combine time of one expert layer on the busiest GPU (the load imbalance
        included) [s].
    """
    ctx = _context(request, plan, catalog, None)
    ep = request.ep or plan.gpus
    inst = ctx.instance(InstanceLayout(tp=1, ep=ep))
    dispatch_s, combine_s, _ = inst.ep_parts(tokens_per_gpu * ep, decode=phase == "decode")
    layers = max(1, inst.model.shape.moe_layers)
    return dispatch_s / layers, combine_s / layers
