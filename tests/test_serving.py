"""The serving model's must-shows: roofline sanity, TPOT against batch, the expert all-to-all on three
designs, disaggregated pools, reverse sizing that is minimal, and impossible requests explained."""

from __future__ import annotations

import itertools
from functools import cache

import pytest

from planner.catalog import Catalog
from planner.engine import Plan, plan
from planner.errors import InfeasibleError, InputError
from planner.inputs.scenario import Scenario, scenario_from_data
from planner.inputs.serving import ServingRequest, serving_request
from planner.performance.serving import batch_sweep, estimate_serving, serving_to_dict, size_serving
from planner.performance.serving.coefficients import gpu_figures, serving_coefficients
from planner.performance.serving.estimate import _context
from planner.performance.serving.model import served_model
from planner.performance.serving.step import BOUND_COMPUTE, BOUND_MEMORY, InstanceLayout

# Llama 3 8B's shape (arXiv 2407.21783 Table 3): 32 layers, width 4096, 32 heads, 8 KV heads
LLAMA8 = {"params_b": 8.0, "layers": 32, "hidden_size": 4096, "heads": 32, "kv_heads": 8, "gated_mlp": True}
# Llama 2 70B: 80 layers, width 8192, 64 heads, 8 KV heads (arXiv 2307.09288)
LLAMA70 = {"params_b": 70.0, "layers": 80, "hidden_size": 8192, "heads": 64, "kv_heads": 8, "gated_mlp": True}
# DeepSeek-V3 (arXiv 2412.19437): 671B total, 37B active, 61 layers, width 7168, MLA rank 512
DEEPSEEK = {
    "params_b": 671.0, "active_params_b": 37.0, "layers": 61, "hidden_size": 7168, "heads": 128,
    "kv_lora_rank": 512, "experts": 256, "top_k": 8, "precision": "fp8",
}  # fmt: skip
H100_HBM_BYTE_PER_S = 3350e9  # data/gpus.yaml h100_sxm


@cache
def _plan(gpus: int, design_id: str) -> Plan:
    from planner.catalog import load_catalog

    scenario = scenario_from_data({"gpus": gpus, "design_id": design_id, "gpu_id": "h100_sxm"})
    return plan(scenario=scenario, catalog=load_catalog())


def _instance(catalog: Catalog, request: ServingRequest, layout: InstanceLayout, gpus: int = 8):  # type: ignore[no-untyped-def]
    return _context(request, _plan(gpus, "ib-ndr"), catalog, None).instance(layout)


def test_decode_at_batch_1_is_memory_bound_at_the_weights_over_hbm_bandwidth(catalog: Catalog) -> None:
    request = ServingRequest(**LLAMA8, input_tokens=128, output_tokens=128)
    inst = _instance(catalog, request, InstanceLayout(tp=1))
    step = inst.decode_step(batch=1, context=192)
    eta = serving_coefficients(catalog).hbm_efficiency
    # 8e9 params x 2 B = 16 GB read per token; 16e9 / (3350e9 x 0.80) = 5.97 ms
    weights_s = 8e9 * 2 / (H100_HBM_BYTE_PER_S * eta)
    assert step.bound == BOUND_MEMORY
    assert step.memory_s == pytest.approx(weights_s, rel=0.01)  # the KV cache of 192 tokens adds 0.2 %
    assert step.total_s == pytest.approx(weights_s, rel=0.10)  # + 32 layers x 10 us of overhead


def test_large_batch_prefill_is_compute_bound(catalog: Catalog) -> None:
    request = ServingRequest(**LLAMA8, input_tokens=4096)
    inst = _instance(catalog, request, InstanceLayout(tp=1))
    step = inst.prefill(prompts=16, prompt_tokens=4096)
    assert step.bound == BOUND_COMPUTE
    # 65,536 tokens x (2 x 8e9 + 32 layers x 4 x 2048 (mean causal context) x 4096) FLOP
    # / (989 TFLOP/s BF16 x 0.40) = 2.8 s
    flops = 65536 * (2 * 8e9 + 32 * 4 * 2048 * 4096)
    peak = catalog.gpus["h100_sxm"].bf16_dense_tflops * 1e12
    assert step.compute_s == pytest.approx(
        flops / (peak * serving_coefficients(catalog).prefill_compute_efficiency)
    )


def test_tpot_grows_with_the_batch_and_tokens_per_s_saturate(catalog: Catalog) -> None:
    request = ServingRequest(**LLAMA8, input_tokens=1024, output_tokens=1024, tp=1)
    p = _plan(8, "ib-ndr")
    estimate = estimate_serving(request=request, plan=p, catalog=catalog)
    rows = batch_sweep(estimate=estimate, plan=p, catalog=catalog)
    assert len(rows) >= 6
    tpot = [r["tpot_ms"] for r in rows]
    tokens = [r["tokens_per_s_per_gpu"] for r in rows]
    assert all(b > a for a, b in itertools.pairwise(tpot))
    assert tokens[1] / tokens[0] > 1.8  # memory-bound: doubling the batch nearly doubles tokens/s
    assert tokens[-1] / tokens[-2] < 1.5  # near the top the step is no longer weight-bound


def test_moe_on_three_designs_shows_the_expert_all_to_all(catalog: Catalog) -> None:
    request = serving_request(
        {**DEEPSEEK, "input_tokens": 2048, "output_tokens": 512, "batch": 512, "tp": 1, "ep": 64}
    )
    estimates = {d: estimate_serving(request=request, plan=_plan(64, d), catalog=catalog) for d in
                 ("rail4-npo", "rail8-npo", "ib-ndr")}  # fmt: skip
    a2a = {d: e.ep_alltoall_s_per_step for d, e in estimates.items()}
    assert all(t > 0 for t in a2a.values())
    # per GPU: 1 x 400G (IB NDR) < 4 x 200G < 8 x 200G, so the all-to-all shrinks in that order
    assert a2a["ib-ndr"] > a2a["rail4-npo"] > a2a["rail8-npo"]
    # the same layout and batch: everything else in the step is equal, so tokens/s follow the fabric
    assert len({round(e.decode.math_s, 12) for e in estimates.values()}) == 1
    tps = {d: e.tokens_per_s for d, e in estimates.items()}
    assert tps["rail8-npo"] > tps["rail4-npo"] > tps["ib-ndr"]
    for e in estimates.values():
        data = serving_to_dict(e)
        assert data["ep_alltoall_ms_per_step"] > 0 and data["usd_per_million_tokens"] > 0
        assert 0 < e.ep_alltoall_share < 1


def test_disaggregated_pools_follow_the_input_output_mix(catalog: Catalog) -> None:
    base = {**LLAMA70, "precision": "fp8", "disaggregate": True}
    p = _plan(64, "rail8-npo")
    long_prompts = estimate_serving(request=serving_request({**base, "input_tokens": 8192, "output_tokens": 64}),
                                    plan=p, catalog=catalog)  # fmt: skip
    long_answers = estimate_serving(request=serving_request({**base, "input_tokens": 256, "output_tokens": 2048}),
                                    plan=p, catalog=catalog)  # fmt: skip
    for e in (long_prompts, long_answers):
        prefill, decode = e.pools
        assert (prefill.role, decode.role) == ("prefill", "decode")
        assert prefill.gpus + decode.gpus <= 64
        assert e.kv_transfer_s > 0 and e.ttft_s > e.prefill.total_s
    share = [e.pools[1].gpus / (e.pools[0].gpus + e.pools[1].gpus) for e in (long_prompts, long_answers)]
    assert share[1] > share[0]


def test_reverse_sizing_meets_every_target_and_one_size_smaller_misses(catalog: Catalog) -> None:
    request = serving_request({**LLAMA70, "input_tokens": 1000, "output_tokens": 200, "ttft_ms": 500,
                               "tpot_ms": 30, "requests_per_s": 40})  # fmt: skip
    scenario = Scenario(gpus=8, design_id="ib-ndr", gpu_id="h100_sxm")
    (result,) = size_serving(request=request, scenario=scenario, catalog=catalog, design_ids=("ib-ndr",))
    assert result.gpus is not None and result.estimate is not None

    def at(gpus: int):  # type: ignore[no-untyped-def]
        p = plan(scenario=scenario.with_updates(gpus=gpus), catalog=catalog)
        return estimate_serving(
            request=request.model_copy(update={"requests_per_s": None}), plan=p, catalog=catalog
        )

    again = at(result.gpus)
    assert again.meets(ttft_ms=500, tpot_ms=30) and again.requests_per_s >= 40
    try:
        smaller = at(result.gpus - 8)
    except InfeasibleError:
        return
    assert (
        not smaller.meets(ttft_ms=500, tpot_ms=30)
        or smaller.requests_per_s < 40
        or smaller.ttft_at_load_s(requests_per_s=40) * 1e3 > 500  # requests would wait for a slot
    )
    assert result.binds in ("requests_per_s", "memory", "tpot_ms", "ttft_ms")


def test_an_impossible_tpot_says_which_bound_and_by_how_much(catalog: Catalog) -> None:
    request = serving_request({**LLAMA70, "tpot_ms": 1})
    with pytest.raises(InfeasibleError, match=r"^tpot_ms: 1 ms is below .* bound by .* ms short"):
        estimate_serving(request=request, plan=_plan(8, "ib-ndr"), catalog=catalog)


def test_a_model_too_large_for_memory_says_by_how_much(catalog: Catalog) -> None:
    request = serving_request({"params_b": 700})
    with pytest.raises(InfeasibleError, match=r"^memory: .* needs [0-9.]+ GB per GPU .* [0-9.]+ GB short"):
        estimate_serving(request=request, plan=_plan(8, "ib-ndr"), catalog=catalog)


def test_bad_fields_name_the_field_and_the_range() -> None:
    with pytest.raises(InputError, match="top_k"):
        serving_request({"params_b": 10, "experts": 4, "top_k": 8})
    with pytest.raises(InputError, match="precision"):
        serving_request({"params_b": 10, "precision": "int3"})


def test_weights_and_kv_bytes_per_format() -> None:
    bf16 = served_model(ServingRequest(**LLAMA70))
    fp4 = served_model(ServingRequest(**{**LLAMA70, "precision": "fp4", "kv_precision": "fp8"}))
    assert bf16.weights_bytes == pytest.approx(140e9)  # 70e9 x 2 B
    assert fp4.weights_bytes == pytest.approx(70e9 * 0.5625)  # NVFP4: 4 bits + an 8-bit scale per 16
    assert fp4.kv_bytes_per_token == bf16.kv_bytes_per_token / 2
    moe = served_model(ServingRequest(**DEEPSEEK))
    assert moe.params_active == pytest.approx(37e9)
    assert moe.experts_touched(tokens=1) == pytest.approx(8 / 256)


def test_a_per_query_head_decode_kernel_reads_the_kv_cache_once_per_query_head(catalog: Catalog) -> None:
    grouped = ServingRequest(**LLAMA70, kv_precision="fp8", input_tokens=2048, output_tokens=2048)
    per_head = grouped.model_copy(update={"decode_attention": "per_query_head"})
    layout = InstanceLayout(tp=2)
    a = _instance(catalog, grouped, layout).decode_step(batch=64, context=3072)
    b = _instance(catalog, per_head, layout).decode_step(batch=64, context=3072)
    # KV per GPU: 64 sequences x 3072 tokens x (2 x 80 layers x 8 KV heads x 128 x 1 B) / tp 2
    # = 16.1 GB, read 64 / 8 = 8 times instead of once: 7 x 16.1 GB more at the HBM bandwidth
    kv = 64 * 3072 * 2 * 80 * 8 * 128 / 2
    extra_s = 7 * kv / (H100_HBM_BYTE_PER_S * serving_coefficients(catalog).hbm_efficiency)
    assert b.memory_s - a.memory_s == pytest.approx(extra_s, rel=1e-9)
    # a multi-head model (one query head per KV head) reads its cache once either way
    mha = {**LLAMA70, "kv_heads": 64}
    assert served_model(ServingRequest(**mha, decode_attention="per_query_head")).decode_kv_reads == 1.0
    assert served_model(per_head).decode_kv_reads == 8.0


def test_ttft_at_load_adds_the_wait_for_a_slot(catalog: Catalog) -> None:
    from planner.performance.serving import estimate_serving
    from planner.queueing import erlang_c_wait_s

    request = ServingRequest(**LLAMA8, input_tokens=512, output_tokens=256)
    e = estimate_serving(request=request, plan=_plan(8, "ib-ndr"), catalog=catalog)
    occupancy_s = e.ttft_s + 256 * e.tpot_s  # one request holds a slot from its prompt to its last token
    capacity = e.slots / occupancy_s
    waits = [e.queue_wait_s(requests_per_s=f * capacity) for f in (0.5, 0.9, 0.99)]
    assert waits == sorted(waits) and waits[0] < 1e-6 < waits[-1]  # many slots: no wait until near capacity
    assert waits[1] == erlang_c_wait_s(
        servers=e.slots, arrival_per_s=0.9 * capacity, service_per_s=1 / occupancy_s
    )
    assert e.queue_wait_s(requests_per_s=capacity) == float("inf")
    assert e.ttft_at_load_s(requests_per_s=0.9 * capacity) == e.ttft_s + waits[1]


def test_sizing_adds_servers_when_requests_would_wait_past_the_ttft_target(catalog: Catalog) -> None:
    from planner.performance.serving import size_serving

    base = {**LLAMA8, "input_tokens": 512, "output_tokens": 256, "tpot_ms": 100.0}
    scenario = Scenario(gpus=8, design_id="ib-ndr", gpu_id="h100_sxm")
    (loose,) = size_serving(
        request=ServingRequest(**base, requests_per_s=20.0),
        scenario=scenario,
        catalog=catalog,
        design_ids=("ib-ndr",),
    )
    assert loose.gpus is not None and loose.estimate is not None
    # a TTFT target just above the unloaded TTFT leaves no room for queueing: at least as many GPUs,
    # and what the size below misses is named
    tight_ms = loose.estimate.ttft_s * 1e3 * 1.001
    (tight,) = size_serving(
        request=ServingRequest(**base, requests_per_s=20.0, ttft_ms=tight_ms),
        scenario=scenario,
        catalog=catalog,
        design_ids=("ib-ndr",),
    )
    assert tight.gpus is not None and tight.gpus >= loose.gpus
    assert tight.estimate is not None
    assert tight.estimate.ttft_at_load_s(requests_per_s=20.0) * 1e3 <= tight_ms


def test_fp8_doubles_the_compute_peak(catalog: Catalog) -> None:
    c = serving_coefficients(catalog)
    bf16 = gpu_figures(catalog=catalog, gpu_id="h100_sxm", precision="bf16", coefficients=c)
    fp8 = gpu_figures(catalog=catalog, gpu_id="h100_sxm", precision="fp8", coefficients=c)
    assert fp8.peak_flops == 2 * bf16.peak_flops
