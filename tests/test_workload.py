"""LLM training estimate: formula goldens, layout search, designs side by side, properties."""

from __future__ import annotations

import functools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner import Catalog, Scenario, load_catalog, plan
from planner.engine import Plan
from planner.errors import InfeasibleError, InputError
from planner.inputs.reliability import ReliabilityParams
from planner.inputs.training import TrainingJob, training_job
from planner.performance.collectives import collective_time, fabric_from_plan
from planner.performance.training.efficiency import kernel_efficiency_bound
from planner.performance.training.flops import token_flops
from planner.performance.workload import (
    compare_workload,
    estimate_workload,
    exposed_after_overlap_s,
    job_shape,
    model_shape,
    pipeline_bubble_fraction,
    step_breakdown_frame,
    training_flops,
    workload_frame,
)

H100_PEAK = 989.4e12  # dense BF16 [FLOP/s], data/gpus.yaml


@functools.cache
def _plan(design: str, gpus: int = 1024, gpu: str = "h100_sxm") -> Plan:
    return plan(scenario=Scenario(gpus=gpus, design_id=design, gpu_id=gpu), catalog=load_catalog())


def test_six_n_d_golden() -> None:
    # Chinchilla-optimal 70B: 20 tokens per parameter = 1.4T tokens; 6 x 70e9 x 1.4e12 = 5.88e23.
    assert training_flops(params_active=70e9, tokens=1.4e12) == pytest.approx(5.88e23)


def test_shape_and_moe_active_parameters() -> None:
    # Llama 3 405B given explicitly: 126 layers, width 16384.
    s = model_shape(params_b=405, layers=126)
    assert s.hidden_size == round(math.sqrt(405e9 / (126 * 12)))
    # 8 experts, top-2: active share (4 + 8x2) / (4 + 8x8) = 20/68
    moe = model_shape(params_b=141, experts=8, top_k=2)
    assert moe.params_active == pytest.approx(141e9 * 20 / 68)
    assert moe.params_dense + moe.params_expert == pytest.approx(141e9)


def test_bubble_and_overlap_goldens() -> None:
    # 1F1B: (p - 1) / m; interleaved: (p - 1) / (v m) (Narayanan et al. 2021)
    assert pipeline_bubble_fraction(stages=16, micro_batches=16) == pytest.approx(15 / 16)
    assert pipeline_bubble_fraction(stages=16, micro_batches=16, virtual_stages=4) == pytest.approx(15 / 64)
    # half of 2 s hides, but only inside a 0.5 s backward window: 2 - 0.5 = 1.5 s exposed
    assert exposed_after_overlap_s(comm_s=2.0, overlap_fraction=0.5, window_s=0.5) == 1.5


def test_fixed_layout_step_golden(catalog: Catalog) -> None:
    p = _plan("ib-ndr")
    # layout, micro-batch, recomputation, ZeRO stage and a flat kernel efficiency pinned
    job = TrainingJob(
        params_b=70, tokens_b=1400, tp=8, pp=1, dp=128, micro_batch_seqs=1, recompute="selective",
        zero_stage=1, mfu=0.5,
    )  # fmt: skip
    e = estimate_workload(job=job, plan=p, catalog=catalog)
    shape = e.shape  # 71 layers, width 9064, 71 heads of 128 (MHA), FFN 4h, no vocabulary given
    h, s = shape.hidden_size, 4096
    # batch 1024 x 4096 = 4,194,304 tokens; 8 micro-batches of 1 sequence per replica
    assert e.tokens_per_step == 1024 * 4096 and e.layout.micro_batches == 8
    # hardware FLOPs per token: 71 x (3 x (24 h^2 + 4 s h) + 4 s h) (selective recomputation
    # repeats the attention core); compute = tokens per GPU x that / (peak x 0.5)
    per_token_hw = 71 * (3 * (24 * h**2 + 4 * s * h) + 4 * s * h)
    compute = 1024 * 4096 / 1024 * per_token_hw / (H100_PEAK * 0.5)
    assert e.step.compute_s == pytest.approx(compute)
    # TP: 8 micro-batches x 71 layers x 4 x (all-gather + reduce-scatter of 4096 x 9064 x 2 B)
    fabric = fabric_from_plan(plan=p, catalog=catalog)
    size = 4096 * shape.hidden_size * 2
    ag = collective_time(fabric=fabric, collective="all_gather", message_bytes=size, gpus=8)
    rs = collective_time(fabric=fabric, collective="reduce_scatter", message_bytes=size, gpus=8)
    assert e.step.tp_comm_s == pytest.approx(8 * 71 * 4 * (ag.time_s + rs.time_s))
    # DP: all-reduce of 2 B x 70e9 / 8 over 128 GPUs, one per node; half hidden in backward
    dp = collective_time(
        fabric=fabric, collective="all_reduce", message_bytes=2 * 70e9 / 8, gpus=128, gpus_per_domain=1
    )
    assert e.dp_comm_total_s == pytest.approx(dp.time_s)
    assert e.step.dp_comm_s == pytest.approx(dp.time_s / 2)
    assert e.step.pp_bubble_s == 0 and e.step.pp_comm_s == 0 and e.step.ep_comm_s == 0
    # memory (ZeRO-1): 70e9 / 8 x (4 + 12/128) B of states + (12 + 4 + 16) s h / 8 B per layer
    # (Korthikanti et al. 34 s b h / t without the two dropout masks) x 71 layers x 1 micro-batch
    memory = 70e9 / 8 * (4 + 12 / 128) + 32 * 4096 * h * shape.layers / 8
    assert e.memory.allocated_bytes == pytest.approx(memory)
    # beside them the reserve (data/training.yaml): 4 % of the tensors for the caching allocator,
    # the CUDA context 0.4 GB with the 32 MiB cuBLAS workspace, NCCL 0.688 GB for TP and DP each
    assert e.layout.memory_gbyte_per_gpu == pytest.approx((memory * 1.04 + 0.4336e9 + 2 * 0.688e9) / 1e9)
    # tokens/s, time, GPU-hours, energy and cost follow from the step and the plan
    assert e.tokens_per_s == pytest.approx(e.tokens_per_step / e.step_time_s)
    assert e.time_to_train_ideal_days == pytest.approx(1.4e12 / e.tokens_per_s / 86400)
    assert e.time_to_train_days == pytest.approx(e.time_to_train_ideal_days / e.goodput)
    assert e.gpu_hours == pytest.approx(1024 * e.time_to_train_days * 24)
    assert e.energy_mwh == pytest.approx(p.power.facility_avg_kw * e.time_to_train_days * 24 / 1000)
    assert e.cost_to_train_usd == pytest.approx(e.gpu_hours * p.cost.usd_per_gpu_hour)
    # MFU counts model FLOPs (3 passes), HFU adds the recomputed attention core
    model_per_token = 71 * 3 * (24 * h**2 + 4 * s * h)
    assert e.end_to_end_mfu == pytest.approx(compute / e.step_time_s * 0.5 * model_per_token / per_token_hw)
    assert e.end_to_end_hfu == pytest.approx(compute / e.step_time_s * 0.5)


def test_pipeline_and_fp8(catalog: Catalog) -> None:
    p = _plan("rail8-npo")
    base = TrainingJob(
        params_b=70, tokens_b=1400, tp=4, pp=4, dp=64, micro_batch_seqs=1, virtual_stages=1,
        recompute="selective", zero_stage=1,
    )  # fmt: skip
    e = estimate_workload(job=base, plan=p, catalog=catalog)
    # 71 layers on 4 stages: the slowest holds 18, x 72/71 compute; bubble 3 / (m = 16) of it
    per_micro = (e.step.compute_s + e.step.tp_comm_s) / 16
    assert e.layout.micro_batches == 16
    assert e.step.pp_bubble_s == pytest.approx(3 * per_micro)
    assert e.step.pp_comm_s > 0
    fp8 = estimate_workload(job=base.model_copy(update={"precision": "fp8"}), plan=p, catalog=catalog)
    # twice the peak, but the element-wise work does not speed up: between 1/2 and 1 of the time
    assert e.step.compute_s / 2 < fp8.step.compute_s < e.step.compute_s
    flat = base.model_copy(update={"mfu": 0.5})
    flat8 = flat.model_copy(update={"precision": "fp8"})
    flat_s = estimate_workload(job=flat, plan=p, catalog=catalog).step.compute_s
    # at a flat efficiency FP8 halves the time of the matrix multiplies, not of the attention
    # cores (BF16): 18 layers x (3 + 1 recomputed) x 4 s h of the stage's 18 (3 layer + 4 s h) + 3 logits
    f = token_flops(job_shape(flat), seq_len=flat.seq_len)
    attention = 18 * 4 * f.layer_attention / (18 * (3 * f.layer + f.layer_attention) + 3 * f.logits)
    fp8_s = estimate_workload(job=flat8, plan=p, catalog=catalog).step.compute_s
    assert fp8_s == pytest.approx(flat_s * ((1 - attention) / 2 + attention))


def test_search_takes_the_fastest_fitting_layout(catalog: Catalog) -> None:
    p = _plan("rail4-npo")
    job = TrainingJob(params_b=70, tokens_b=1400)
    best = estimate_workload(job=job, plan=p, catalog=catalog)
    # the tensors with the counted reserve beside them fill at most the H100's 81,559 MiB
    assert best.layout.memory_gbyte_per_gpu <= 81_559 * 2**20 / 1e9
    assert best.layouts_fitting > 1
    for tp, pp in ((8, 1), (8, 2), (4, 4), (2, 8)):
        fixed = job.model_copy(update={"tp": tp, "pp": pp})
        assert estimate_workload(job=fixed, plan=p, catalog=catalog).step_time_s >= best.step_time_s


def test_infeasible_and_bad_layouts(catalog: Catalog) -> None:
    with pytest.raises(InfeasibleError, match=r"memory: no layout fits"):
        estimate_workload(
            job=TrainingJob(params_b=405, tokens_b=100), plan=_plan("ib-ndr", 8), catalog=catalog
        )
    with pytest.raises(InputError, match=r"^tp: 3 does not divide"):
        estimate_workload(
            job=TrainingJob(params_b=7, tokens_b=100, tp=3), plan=_plan("ib-ndr"), catalog=catalog
        )
    with pytest.raises(InputError, match=r"^dp: tp x pp x dp"):
        estimate_workload(
            job=TrainingJob(params_b=7, tokens_b=100, tp=8, pp=1, dp=64),
            plan=_plan("ib-ndr"),
            catalog=catalog,
        )
    with pytest.raises(InputError, match=r"top_k .*must not exceed experts"):
        training_job({"params_b": 7, "tokens_b": 1, "experts": 2, "top_k": 3})
    with pytest.raises(InputError, match=r"mfu: .*allowed: 0 to 1"):
        training_job({"params_b": 7, "tokens_b": 1, "mfu": 1.5})


def test_full_recompute_trades_memory_for_time(catalog: Catalog) -> None:
    job = TrainingJob(
        params_b=70, tokens_b=1400, tp=8, pp=1, dp=128, recompute="selective", micro_batch_seqs=1
    )
    selective = estimate_workload(job=job, plan=_plan("ib-ndr"), catalog=catalog)
    full = estimate_workload(
        job=job.model_copy(update={"recompute": "full"}), plan=_plan("ib-ndr"), catalog=catalog
    )
    assert full.layout.memory_gbyte_per_gpu < selective.layout.memory_gbyte_per_gpu
    # hardware FLOPs per layer and token: full 4 (24 h^2 + 4 s h), selective 3 (...) + 4 s h
    h, s = selective.shape.hidden_size, 4096
    ratio = 4 * (24 * h**2 + 4 * s * h) / (3 * (24 * h**2 + 4 * s * h) + 4 * s * h)
    # ... at an efficiency no higher: full recomputation repeats the element-wise forward too (the
    # estimates report what the kernels run at, at most the H100 BF16 kernel-efficiency bound of
    # data/training.yaml, which both reach here)
    bound = kernel_efficiency_bound(catalog, gpu_id="h100_sxm", precision="bf16")
    assert bound is not None
    assert full.compute_efficiency <= selective.compute_efficiency <= bound.mfu
    efficiency_ratio = selective.compute_efficiency / full.compute_efficiency
    assert full.step.compute_s == pytest.approx(selective.step.compute_s * ratio * efficiency_ratio)


def test_expert_all_to_all_shows_the_rails(catalog: Catalog) -> None:
    # Mixtral-like MoE with experts spread over 8 nodes: the all-to-all crosses the network at
    # each GPU's injection rate, so 8 x 200G beats 4 x 200G beats 1 x 400G.
    job = TrainingJob(
        params_b=141, tokens_b=1000, experts=8, top_k=2, tp=8, pp=1, dp=128, ep=8, micro_batch_seqs=1,
        recompute="selective",
    )  # fmt: skip
    designs = ("rail4-npo", "rail8-npo", "ib-ndr")
    ep = {d: estimate_workload(job=job, plan=_plan(d), catalog=catalog).step.ep_comm_s for d in designs}
    assert ep["rail8-npo"] < ep["rail4-npo"] < ep["ib-ndr"]
    # twice the bandwidth, the same per-step latency: between 1.5x and 2x faster at 13 MB per GPU
    assert 1.5 < ep["rail4-npo"] / ep["rail8-npo"] < 2.0


def test_designs_side_by_side_share_the_gpu(catalog: Catalog) -> None:
    job = TrainingJob(params_b=70, tokens_b=1400)
    estimates = compare_workload(job=job, scenario=Scenario(gpus=1024, gpu_id="h100_sxm"), catalog=catalog)
    assert [e.design_id for e in estimates] == ["rail4-npo", "rail8-npo", "ib-ndr"]
    assert {e.gpu_id for e in estimates} == {"h100_sxm"}
    frame = workload_frame(estimates)
    assert list(frame["design"]) == ["rail4-npo", "rail8-npo", "ib-ndr"]
    for column in ("step_time_s", "time_to_train_days", "cost_to_train_usd", "goodput", "energy_mwh"):
        assert (frame[column] > 0).all()
    breakdown = step_breakdown_frame(estimates)
    # compute, MoE copies, TP, CP, EP, bubble, PP, DP, optimizer, host offload
    assert len(breakdown) == 3 * 10
    for e in estimates:
        assert breakdown[breakdown["design"] == e.design_id]["time_s"].sum() == pytest.approx(e.step_time_s)


def test_reliability_settings_reach_the_estimate(catalog: Catalog) -> None:
    job = TrainingJob(params_b=70, tokens_b=1400, tp=8, pp=1, dp=128)
    calm = estimate_workload(job=job, plan=_plan("ib-ndr"), catalog=catalog)
    rough = estimate_workload(
        job=job,
        plan=_plan("ib-ndr"),
        catalog=catalog,
        reliability_params=ReliabilityParams(params_b=70, failure_rate_scale=20),
    )
    assert rough.step_time_s == calm.step_time_s
    assert rough.goodput < calm.goodput
    assert rough.time_to_train_days > calm.time_to_train_days


@pytest.mark.slow  # a property over random jobs and designs, each planned and stepped (~6 s CPU)
@settings(max_examples=40, deadline=None)
@given(
    design=st.sampled_from(["rail4-npo", "rail8-npo", "ib-ndr"]),
    params_b=st.floats(min_value=1, max_value=120),
    seq_len=st.sampled_from([1024, 2048, 4096, 8192]),
    batch=st.sampled_from([256, 512, 1024, 2048]),
    experts=st.sampled_from([1, 8, 16]),
    overlap=st.floats(min_value=0, max_value=1),
    low=st.floats(min_value=0.2, max_value=1.0),
    gain=st.floats(min_value=1.0, max_value=8.0),
    scale_up_gain=st.floats(min_value=1.0, max_value=4.0),
)
def test_more_bandwidth_never_makes_a_step_slower(
    design: str,
    params_b: float,
    seq_len: int,
    batch: int,
    experts: int,
    overlap: float,
    low: float,
    gain: float,
    scale_up_gain: float,
) -> None:
    catalog = load_catalog()
    p = _plan(design)
    job = TrainingJob(
        params_b=params_b,
        tokens_b=100,
        seq_len=seq_len,
        global_batch_seqs=batch,
        experts=experts,
        top_k=min(2, experts),
        dp_overlap_fraction=overlap,
    )
    fabric = fabric_from_plan(plan=p, catalog=catalog)
    slow = fabric.scaled(network_bandwidth=low)
    fast = fabric.scaled(network_bandwidth=low * gain, scale_up_bandwidth=scale_up_gain)
    try:
        slow_s = estimate_workload(job=job, plan=p, catalog=catalog, fabric=slow).step_time_s
    except InfeasibleError:
        return
    fast_s = estimate_workload(job=job, plan=p, catalog=catalog, fabric=fast).step_time_s
    assert fast_s <= slow_s * (1 + 1e-12)
