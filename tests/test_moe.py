"""Mixture-of-experts terms of the training model (planner/performance/training/moe.py).

Each test can fail: hand counts carry their derivation, properties compare two runs that differ in
one input.
"""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path
from typing import Literal

import pytest

from planner import Catalog, Scenario, load_catalog, plan
from planner.cli import run
from planner.errors import InputError
from planner.inputs.training import TrainingJob, training_job
from planner.performance.collectives import collective_time, fabric_from_plan, two_level_fabric
from planner.performance.serving.step import Instance, InstanceLayout, StepTime
from planner.performance.training.efficiency import efficiency_coefficients
from planner.performance.training.flops import token_flops
from planner.performance.training.hf import DEEPSEEK_V3_CONFIG, job_fields_from_hf_config
from planner.performance.training.memory import Parallel, params_per_gpu
from planner.performance.training.moe import (
    effective_imbalance,
    gpu_copies,
    moe_coefficients,
    network_share,
    remote_domain_copies,
    sm_shared_slowdown,
    unpaired_share,
)
from planner.performance.training.schedule import StepModel
from planner.performance.training.shape import model_shape
from planner.performance.workload import estimate_workload, job_shape

QWEN3_30B = {
    "params_b": 30.5, "tokens_b": 1, "layers": 48, "hidden_size": 2048, "heads": 32, "kv_heads": 4,
    "head_dim": 128, "ffn_hidden": 768, "gated_mlp": True, "experts": 128, "top_k": 8, "vocab": 151936,
    "seq_len": 4096, "global_batch_seqs": 256,
}  # fmt: skip
"""Qwen3-30B-A3B as its config.json states it."""


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


def _model(job: TrainingJob, catalog: Catalog, *, gpus: int = 64, network: float = 50.0) -> StepModel:
    fabric = two_level_fabric(gpus=gpus, domain_gpus=8, scale_up_gbyte_per_s=360, network_gbyte_per_s=network)
    return StepModel(
        job=job, shape=job_shape(job), fabric=fabric, peak_flops=989e12, efficiency=None,
        coefficients=efficiency_coefficients(catalog), hbm_byte_per_s=3350e9,
        moe_coefficients=moe_coefficients(catalog),
    )  # fmt: skip


def _lay(*, dp: int = 8, ep: int = 8, mb: int = 1, tp: int = 1) -> Parallel:
    return Parallel(tp=tp, cp=1, pp=1, dp=dp, ep=ep, v=1, micro_batch_seqs=mb, micro_batches=4)


def test_node_limited_routing_counts_distinct_remote_domains() -> None:
    # 8 copies over 8 domains, one of them local: 8 x 7/8 = 7 travel alone; deduplicated per domain
    # they are 7 (1 - (7/8)^8) = 4.58 distinct remote domains; node-limited to M = 4 domains, each
    # the token's own with probability 1/8: 4 x 7/8 = 3.5 remote
    assert remote_domain_copies(top_k=8, domains=8, node_limit=None, dedupe=False) == 7.0
    assert remote_domain_copies(top_k=8, domains=8, node_limit=4, dedupe=False) == 7.0
    assert remote_domain_copies(top_k=8, domains=8, node_limit=None) == pytest.approx(7 * (1 - (7 / 8) ** 8))
    assert remote_domain_copies(top_k=8, domains=8, node_limit=4) == 3.5
    # all 8 experts on one domain (a router that keeps a token's experts together): 7/8 cross
    assert remote_domain_copies(top_k=8, domains=8, node_limit=1) == 7 / 8
    assert remote_domain_copies(top_k=8, domains=1, node_limit=4) == 0.0
    # EP64 over 8 domains of 8: a plain all-to-all sends 8 x 56/64 = 7 copies across; M = 4 sends 3.5
    assert network_share(ep=64, per_domain=8, top_k=8, node_limit=4) == pytest.approx(3.5 / 7)
    assert network_share(ep=64, per_domain=8, top_k=8, node_limit=4, dedupe=False) == 1.0
    assert network_share(ep=8, per_domain=8, top_k=8, node_limit=4) == 1.0


def test_redundant_experts_shrink_the_imbalance() -> None:
    assert effective_imbalance(imbalance=1.0, experts=256, redundant=32) == 1.0
    # excess 0.3 x 256 / (256 + 64)
    assert effective_imbalance(imbalance=1.3, experts=256, redundant=64) == pytest.approx(1.24)


def test_expert_alltoall_comes_from_the_collective_model(catalog: Catalog) -> None:
    """Four all-to-alls per expert layer of n k h 2 bytes over the ep GPUs, as collective_time says."""
    job = TrainingJob(**QWEN3_30B)
    model = _model(job, catalog)
    lay = _lay()
    ep_s, level = model._ep_micro_s(lay, "selective")
    buffer = 4096 * 8 * 2048 * 2.0  # n = s b / (cp tp) = 4096 tokens, k = 8, h = 2048, bf16
    one = collective_time(fabric=model.fabric, collective="all_to_all", message_bytes=buffer, gpus=8,
                          gpus_per_domain=8)  # fmt: skip
    assert ep_s == pytest.approx(48 * 4 * one.time_s) and level == one.bound_level == "scale-up"


def test_deduplicating_kernels_move_one_copy_per_destination_gpu(catalog: Catalog) -> None:
    """Inside one scale-up domain DeepEP-style kernels send a token once to each GPU holding one of
    its experts: 8 (1 - (7/8)^8) = 5.25 of its 8 copies at EP8, the rest copied locally."""
    job = TrainingJob(**QWEN3_30B)
    lay = _lay()
    plain, _ = _model(job, catalog)._ep_micro_s(lay, "selective")
    fused, level = _model(job.model_copy(update={"moe_dispatcher": "fused"}), catalog)._ep_micro_s(
        lay, "selective"
    )
    # n = 4096 tokens, 8 (1 - (7/8)^8) = 5.25 destination GPUs, h = 2048, bf16
    buffer = 4096 * 8 * (1 - (7 / 8) ** 8) * 2048 * 2.0
    one = collective_time(fabric=_model(job, catalog).fabric, collective="all_to_all", message_bytes=buffer, gpus=8,
                          gpus_per_domain=8)  # fmt: skip
    assert fused == pytest.approx(48 * 4 * one.time_s) and level == "scale-up"
    assert fused < plain
    assert gpu_copies(top_k=8, gpus=8) == pytest.approx(8 * (1 - (7 / 8) ** 8))


def test_node_limit_and_fp8_dispatch_shorten_the_alltoall(catalog: Catalog) -> None:
    base = TrainingJob(**{**QWEN3_30B, "experts": 256})
    lay = _lay(dp=64, ep=64)
    plain, level = _model(base, catalog)._ep_micro_s(lay, "selective")
    fused = base.model_copy(update={"moe_dispatcher": "fused"})
    deduplicated, _ = _model(fused, catalog)._ep_micro_s(lay, "selective")
    limited, _ = _model(fused.model_copy(update={"moe_node_limit": 2}), catalog)._ep_micro_s(lay, "selective")
    # a node limit alone leaves a plain all-to-all's bytes as they are
    same, _ = _model(base.model_copy(update={"moe_node_limit": 2}), catalog)._ep_micro_s(lay, "selective")
    fp8, _ = _model(base.model_copy(update={"moe_dispatch_fp8": True}), catalog)._ep_micro_s(lay, "selective")
    assert level == "leaf" and limited < deduplicated < plain == same and fp8 < plain


def test_fewer_tokens_per_expert_lower_the_grouped_gemm_efficiency(catalog: Catalog) -> None:
    model = _model(TrainingJob(**QWEN3_30B), catalog)
    # t_e = n k ep / E: 4096 x 8 x 8 / 128 = 2048 at micro-batch 1, 512 at ep 2
    assert model.moe.tokens_per_expert(_lay()) == 2048
    assert model.moe.tokens_per_expert(_lay(ep=2)) == 512
    assert (
        model.expert_efficiency(_lay(ep=2))
        < model.expert_efficiency(_lay())
        < model.expert_efficiency(_lay(mb=4))
    )


def test_imbalance_and_overlap_move_the_step(catalog: Catalog) -> None:
    job = TrainingJob(**QWEN3_30B)
    lay = _lay(dp=64, ep=64)
    base = _model(job, catalog).step(lay, "selective", 1).step
    skewed = (
        _model(job.model_copy(update={"moe_load_imbalance": 1.5}), catalog).step(lay, "selective", 1).step
    )
    assert skewed.compute_s > base.compute_s and skewed.ep_comm_s == pytest.approx(1.5 * base.ep_comm_s)
    overlapped = _model(job.model_copy(update={"moe_overlap": "two_micro_batches"}), catalog)
    hidden = overlapped.step(lay, "selective", 1).step
    assert hidden.ep_comm_s < base.ep_comm_s and hidden.compute_s == base.compute_s


def test_the_combined_1f1b_schedule_runs_its_warm_up_passes_alone() -> None:
    # Megatron-Core combined_1f1b.py: without a pipeline the first forward and the last backward run
    # alone (1 of M); interleaved (schedules.py), the first stage's 2 (pp - 1) + (v - 1) pp warm-up
    # chunks plus the one extra forward the overlap schedules first do
    assert unpaired_share(pp=1, virtual_stages=1, micro_batches=16) == pytest.approx(1 / 16)
    # PP8 VP2, 16 micro-batches: (2 x 7 + 1 x 8 + 1) / (16 x 2) = 23 / 32
    assert unpaired_share(pp=8, virtual_stages=2, micro_batches=16) == pytest.approx(23 / 32)
    assert unpaired_share(pp=8, virtual_stages=2, micro_batches=4) == 1.0  # all warm-up: nothing paired


def test_unpaired_passes_expose_their_all_to_all(catalog: Catalog) -> None:
    job = TrainingJob(**QWEN3_30B).model_copy(update={"moe_overlap": "two_micro_batches"})
    model = _model(job, catalog)
    many = model.step(_lay(dp=64, ep=64), "selective", 1).step
    plain = _model(TrainingJob(**QWEN3_30B), catalog).step(_lay(dp=64, ep=64), "selective", 1).step
    # _lay has 4 micro-batches: the first forward and the last backward run alone (1 of 4 each)
    ep_all = plain.ep_comm_s
    assert ep_all * 0.25 <= many.ep_comm_s < ep_all


def test_the_framework_cost_per_copy_is_an_input(catalog: Catalog) -> None:
    job = TrainingJob(**QWEN3_30B)
    lay = _lay()
    fitted = _model(job, catalog).moe_overhead_micro_s(lay, "selective")
    counted = _model(job.model_copy(update={"moe_copy_overhead_ns": 0.0}), catalog).moe_overhead_micro_s(
        lay, "selective"
    )
    doubled = _model(job.model_copy(update={"moe_copy_overhead_ns": 678.0}), catalog).moe_overhead_micro_s(
        lay, "selective"
    )
    # 48 expert layers x 4096 tokens x 8 copies, each at the catalog's 339 ns (data/moe.yaml, fitted by
    # bench/fit_moe_overhead.py together with the host wait per expert-layer forward)
    framework_s = 48 * 4096 * 8 * 339e-9
    assert moe_coefficients(catalog).copy_overhead_ns == 339.0
    # B200 has its own host-synchronised cost (data/moe.yaml, fitted on the 26.02 B200 MXFP8 rows at the
    # B200's MXFP8 kernel ceiling, with the host wait kept)
    assert moe_coefficients(catalog, gpu_id="b200_hgx").copy_overhead_ns == 128.0
    assert fitted - counted == pytest.approx(framework_s)
    assert doubled - counted == pytest.approx(2 * framework_s)
    bad = [
        "workload",
        "--params-b",
        "30",
        "--tokens-b",
        "100",
        "--gpus",
        "64",
        "--moe-copy-overhead-ns",
        "-1",
    ]
    assert run(bad) == 2
    # a graph-captured router and preprocessing with a fused dispatcher (no host round trip per layer)
    # is charged the captured path's own cost instead: 48 x 4096 x 8 copies at 27 ns (data/moe.yaml,
    # moe_graphed_copy_overhead_ns) and no host wait (counted keeps one of 1,511 us per expert layer);
    # Megatron-Core's all-to-all dispatcher still waits on the host for its split sizes, so with it the
    # host-synchronised costs stay; a stated cost still wins
    graphed = job.model_copy(update={"moe_graphed_dispatch": True, "moe_dispatcher": "fused"})
    assert moe_coefficients(catalog).graphed_copy_overhead_ns == 27.0
    graphed_s = _model(graphed, catalog).moe_overhead_micro_s(lay, "selective")
    waits_s = 48 * 1511e-6  # one host wait per expert-layer forward (data/moe.yaml, moe_host_wait_us)
    assert graphed_s - counted == pytest.approx(48 * 4096 * 8 * 27e-9 - waits_s)
    graphed_alltoall = job.model_copy(update={"moe_graphed_dispatch": True})
    assert _model(graphed_alltoall, catalog).moe_overhead_micro_s(lay, "selective") == pytest.approx(fitted)
    # a stated cost replaces the per-copy part only: the captured path still waits on nothing
    stated = graphed.model_copy(update={"moe_copy_overhead_ns": 678.0})
    assert _model(stated, catalog).moe_overhead_micro_s(lay, "selective") == pytest.approx(doubled - waits_s)


def test_hybridep_pays_its_own_kernels_per_copy_and_waits_unless_captured(catalog: Catalog) -> None:
    # HybridEP permutes the tokens to their experts inside its dispatch kernel (Megatron-Core's
    # _HybridEPManager hands its output to the experts as is), so the per-copy cost is c_g = 27 ns
    # (data/moe.yaml moe_graphed_copy_overhead_ns, the general record: _model passes no GPU), not
    # Megatron-Core's permute at c_r = 339 ns; without CUDA graphs it still waits on the host once per
    # expert-layer forward (1,511 us), captured it does not, exactly as the captured fused path
    job = TrainingJob(**QWEN3_30B)
    lay = _lay()
    counted = _model(job.model_copy(update={"moe_copy_overhead_ns": 0.0}), catalog).moe_overhead_micro_s(
        lay, "selective"
    )
    hybrid = job.model_copy(update={"moe_dispatcher": "hybridep"})
    hybrid_s = _model(hybrid, catalog).moe_overhead_micro_s(lay, "selective")
    assert hybrid_s - counted == pytest.approx(48 * 4096 * 8 * 27e-9)  # 48 layers x 4096 tokens x 8 copies
    captured = hybrid.model_copy(update={"moe_graphed_dispatch": True})
    captured_s = _model(captured, catalog).moe_overhead_micro_s(lay, "selective")
    assert hybrid_s - captured_s == pytest.approx(48 * 1511e-6)  # one host wait per expert-layer forward
    fused_captured = captured.model_copy(update={"moe_dispatcher": "fused"})
    # the same communication as the fused (DeepEP-style) kernels: deduplicated copies, reserved SMs
    same = _model(fused_captured, catalog).step(_lay(dp=64, ep=64), "selective", 1).step
    assert _model(captured, catalog).step(_lay(dp=64, ep=64), "selective", 1).step == same


def test_the_hybridep_cost_scales_with_hbm_bandwidth_within_the_fits(catalog: Catalog) -> None:
    # fitted on DGX-GB200 (8,000 GB/s, data/gpus.yaml); the device-cost law of the per-copy fits
    # (docs/model.md, "framework cost per copy on other GPUs"), clamped to their span 3,350..8,000 GB/s
    assert moe_coefficients(catalog, gpu_id="gb300").graphed_copy_overhead_ns == pytest.approx(27.0)
    assert moe_coefficients(catalog, gpu_id="h100_sxm").graphed_copy_overhead_ns == pytest.approx(
        27 * 8000 / 3350
    )
    assert moe_coefficients(catalog, gpu_id="h200_sxm").graphed_copy_overhead_ns == pytest.approx(
        27 * 8000 / 4800
    )
    assert moe_coefficients(catalog, gpu_id="a100_sxm_80gb").graphed_copy_overhead_ns == pytest.approx(
        27 * 8000 / 3350  # below the span: clamped to the H100's bandwidth
    )


def test_a_full_iteration_graph_pays_its_own_per_copy_cost_and_no_host_wait(catalog: Catalog) -> None:
    # one graph of the whole iteration (Megatron-Core's cuda_graph_impl full_iteration): the fused or
    # HybridEP dispatcher pays c_f = 1.8 ns per copy (data/moe.yaml moe_full_graph_copy_overhead_ns,
    # fitted on the 26.08 GB200 Qwen3-30B-A3B row) in place of c_g = 27 ns, and never waits on the host
    job = TrainingJob(**QWEN3_30B).model_copy(update={"moe_dispatcher": "hybridep"})
    lay = _lay()
    counted = _model(job.model_copy(update={"moe_copy_overhead_ns": 0.0}), catalog).moe_overhead_micro_s(
        lay, "selective"
    )
    assert moe_coefficients(catalog).full_graph_copy_overhead_ns == 1.8
    whole = job.model_copy(update={"full_iteration_graph": True})
    whole_s = _model(whole, catalog).moe_overhead_micro_s(lay, "selective")
    waits_s = 48 * 1511e-6  # the uncaptured HybridEP path's host wait per expert-layer forward
    assert whole_s - counted == pytest.approx(48 * 4096 * 8 * 1.8e-9 - waits_s)  # 48 layers x 4096 x 8 copies
    # scaled by HBM bandwidth like the other per-copy fits: 1.8 x 8,000 / 3,350 on H100
    assert moe_coefficients(catalog, gpu_id="h100_sxm").full_graph_copy_overhead_ns == pytest.approx(
        1.8 * 8000 / 3350
    )
    # the all-to-all dispatcher copies its split sizes to the host every layer: no whole-iteration graph
    with pytest.raises(InputError, match="full_iteration_graph needs moe_dispatcher fused or hybridep"):
        training_job({**QWEN3_30B, "full_iteration_graph": True}, source="test")
    # a dense model has no dispatcher to refuse
    assert training_job({"params_b": 8, "tokens_b": 100, "full_iteration_graph": True}, source="test")


def test_biased_experts_wait_on_the_host_whatever_runs_in_cuda_graphs(catalog: Catalog) -> None:
    # GPT-OSS's experts carry biases: Megatron-Core's unfused expert MLP adds them expert by expert on
    # token counts it copies to the host in every forward (TEGroupedMLP.forward tokens_per_expert.tolist()
    # and _apply_bias's torch.split), so neither a captured router nor a whole-iteration graph removes
    # the host wait (1,511 us per expert-layer forward) and the whole graph's c_f does not apply: the
    # HybridEP path costs as uncaptured, c_g = 27 ns per copy and the wait
    lay = _lay()
    hybrid = TrainingJob(**QWEN3_30B).model_copy(update={"moe_dispatcher": "hybridep"})
    uncaptured_s = _model(hybrid, catalog).moe_overhead_micro_s(lay, "selective")
    biased = hybrid.model_copy(update={"expert_bias": True})
    assert _model(biased, catalog).moe_overhead_micro_s(lay, "selective") == uncaptured_s  # nothing captured
    for graphs in ({"moe_graphed_dispatch": True}, {"full_iteration_graph": True}):
        unbiased_s = _model(hybrid.model_copy(update=graphs), catalog).moe_overhead_micro_s(lay, "selective")
        biased_s = _model(biased.model_copy(update=graphs), catalog).moe_overhead_micro_s(lay, "selective")
        assert biased_s == pytest.approx(uncaptured_s)
        assert biased_s > unbiased_s
    # the all-to-all dispatcher waits on the host anyway, captured router or not, and AutoModel's own
    # expert layer is not Megatron-Core's: the bias changes neither
    alltoall = TrainingJob(**QWEN3_30B).model_copy(update={"moe_graphed_dispatch": True})
    assert _model(alltoall.model_copy(update={"expert_bias": True}), catalog).moe_overhead_micro_s(
        lay, "selective"
    ) == _model(alltoall, catalog).moe_overhead_micro_s(lay, "selective")
    automodel = hybrid.model_copy(update={"moe_framework": "automodel", "full_iteration_graph": True})
    assert _model(automodel.model_copy(update={"expert_bias": True}), catalog).moe_overhead_micro_s(
        lay, "selective"
    ) == _model(automodel, catalog).moe_overhead_micro_s(lay, "selective")


def test_a_gpt_oss_config_states_biased_experts() -> None:
    gpt_oss = {  # openai/gpt-oss-120b config.json, the keys the reader takes
        "model_type": "gpt_oss", "num_hidden_layers": 36, "hidden_size": 2880, "num_attention_heads": 64,
        "num_key_value_heads": 8, "head_dim": 64, "intermediate_size": 2880, "num_local_experts": 128,
        "num_experts_per_tok": 4, "vocab_size": 201088, "hidden_act": "silu",
    }  # fmt: skip
    assert job_fields_from_hf_config(gpt_oss)["expert_bias"] is True
    assert "expert_bias" not in job_fields_from_hf_config(DEEPSEEK_V3_CONFIG)
    # a dense model of that type has no experts to carry biases
    assert "expert_bias" not in job_fields_from_hf_config({**gpt_oss, "num_local_experts": None})


def test_the_dispatch_kernels_keep_their_sms_only_while_they_run() -> None:
    # 20 of 132 SMs (DeepSeek-V3 section 3.2.2) for 1 s under 10 s of compute: the compute loses 20/132 of
    # that second, not of all ten; kernels that outlast the compute stretch it by 1 / (1 - 20/132)
    s = 20 / 132
    assert sm_shared_slowdown(busy_s=1.0, window_s=10.0, sm_fraction=s) == pytest.approx(1 + s * 0.1)
    assert sm_shared_slowdown(busy_s=50.0, window_s=10.0, sm_fraction=s) == pytest.approx(1 / (1 - s))
    assert sm_shared_slowdown(busy_s=0.0, window_s=10.0, sm_fraction=s) == 1.0
    assert sm_shared_slowdown(busy_s=1.0, window_s=0.0, sm_fraction=s) == 1.0


def test_the_host_wait_is_per_expert_layer_forward(catalog: Catalog) -> None:
    job = TrainingJob(**QWEN3_30B)
    lay = _lay()
    model = _model(job, catalog)
    waitless = _model(job, catalog)
    waitless.moe.c = replace(waitless.moe.c, host_wait_us=0.0)
    # 48 expert layers, one wait each per micro-batch at the catalog's 1,511 us (data/moe.yaml,
    # moe_host_wait_us); the recomputed forward of full recomputation dispatches, and waits, again
    assert moe_coefficients(catalog).host_wait_us == 1511.0
    once = model.moe_overhead_micro_s(lay, "selective") - waitless.moe_overhead_micro_s(lay, "selective")
    assert once == pytest.approx(48 * 1511e-6)
    twice = model.moe_overhead_micro_s(lay, "full") - waitless.moe_overhead_micro_s(lay, "full")
    assert twice == pytest.approx(2 * 48 * 1511e-6)
    # independent of the tokens: twice the micro-batch, the same waits
    wider = replace(lay, micro_batch_seqs=2 * lay.micro_batch_seqs)
    assert model.moe_overhead_micro_s(wider, "selective") - waitless.moe_overhead_micro_s(
        wider, "selective"
    ) == pytest.approx(once)


def test_dualpipe_halves_the_bubble(catalog: Catalog) -> None:
    job = TrainingJob(**QWEN3_30B)
    lay = Parallel(tp=1, cp=1, pp=8, dp=8, ep=8, v=1, micro_batch_seqs=1, micro_batches=16)
    one_f_one_b = _model(job, catalog).step(lay, "selective", 1).step
    dual = _model(job.model_copy(update={"moe_overlap": "dualpipe"}), catalog).step(lay, "selective", 1).step
    # (pp - 1) = 7 micro-batch slots against pp / 2 - 1 = 3
    per_slot = one_f_one_b.pp_bubble_s / 7
    assert dual.pp_bubble_s < 3 * per_slot + 1e-12 and dual.pp_bubble_s > 0


@pytest.mark.parametrize("overlap", ["none", "two_micro_batches", "dualpipe"])
def test_the_search_bound_never_exceeds_the_step_it_bounds(catalog: Catalog, overlap: str) -> None:
    """The layout search skips a layout whose lower bound is above the best step found, so the bound
    must hold for every layout: under DualPipe it once charged the whole (pp - 1) / v bubble while
    the step charges pp / 2 - 1, and the search lost the fastest layout (141B MoE, 1,024 GPUs:
    2.24 s chosen where 2.19 s was available)."""
    # the 141B MoE (8 experts, top-2): little expert overhead, so the bubble weighs in the bound
    model = _model(TrainingJob(params_b=141, tokens_b=1000, experts=8, top_k=2, moe_overlap=overlap), catalog)
    for tp, pp, v, m in ((1, 2, 1, 2), (1, 4, 1, 4), (2, 4, 2, 8), (1, 8, 1, 8), (4, 8, 3, 24)):
        lay = Parallel(tp=tp, cp=1, pp=pp, dp=8, ep=8, v=v, micro_batch_seqs=1, micro_batches=m)
        for recompute in ("none", "selective", "full"):
            result = model.step(lay, recompute, 1)
            bound = model.lower_bound_key(lay, recompute)
            assert bound <= model.result_key(result), (tp, pp, v, m, recompute)
            # and not a loose one: the compute, tensor-parallel traffic and copies are most of the step
            assert bound[1] >= 0.5 * result.step.total_s, (tp, pp, v, m, recompute)


@pytest.mark.parametrize(
    ("gpus", "job"),
    [
        (1024, TrainingJob(params_b=141, tokens_b=1000, experts=8, top_k=2, moe_overlap="dualpipe")),
        (1024, TrainingJob(params_b=141, tokens_b=1000, experts=8, top_k=2, moe_overlap="two_micro_batches")),
        (256, TrainingJob(params_b=70, tokens_b=1000, seq_len=8192, global_batch_seqs=512)),
        (64, TrainingJob(**QWEN3_30B)),
    ],
)
def test_the_pruned_search_finds_what_an_exhaustive_one_finds(
    monkeypatch: pytest.MonkeyPatch, gpus: int, job: TrainingJob
) -> None:
    """The search skips a layout whose lower bound is above its best so far; switched off (every
    layout costed), it must choose the same layout and step."""
    catalog = load_catalog()
    cluster = plan(scenario=Scenario(gpus=gpus, design_id="rail8-npo", gpu_id="h100_sxm"), catalog=catalog)
    pruned = estimate_workload(job=job, plan=cluster, catalog=catalog)
    monkeypatch.setattr(StepModel, "lower_bound_key", lambda self, lay, recompute: (-math.inf, -math.inf))
    exhaustive = estimate_workload(job=job, plan=cluster, catalog=catalog)
    assert (pruned.layout, pruned.step_time_s) == (exhaustive.layout, exhaustive.step_time_s)


def test_dense_first_layers_and_mla_set_the_flops() -> None:
    f = job_fields_from_hf_config(DEEPSEEK_V3_CONFIG)
    job = TrainingJob(tokens_b=1, **f)
    shape = job_shape(job)
    # 58 expert layers of (8 routed + 1 shared) x 2048 and 3 dense of 18432, averaged over 61
    assert shape.ffn_matrices_per_token == pytest.approx((58 * 9 * 2048 + 3 * 18432) / 61)
    flops = token_flops(shape, seq_len=4096)
    mla = 7168 * 1536 + 1536 * 128 * 192 + 7168 * 576 + 512 * 128 * 256 + 128 * 128 * 7168
    router = 2 * 7168 * 256 * 58 / 61
    assert flops.layer_matmul == pytest.approx(2 * mla + 2 * 3 * 7168 * shape.ffn_matrices_per_token + router)
    # Q K^T over 192-wide heads, A V over 128-wide: 2 s a (192 + 128)
    assert flops.layer_attention == pytest.approx(2 * 4096 * 128 * (192 + 128))
    # active parameters: the report's 37B (its count includes the MTP module's share)
    assert 36e9 < shape.params_active < 38.5e9


def test_experts_refold_over_tensor_parallel_pairs() -> None:
    """EP 32 over tp 2 x dp 16 (Megatron's MoE parallel folding): expert tensor parallelism 1."""
    shape = model_shape(params_b=235.1, layers=94, hidden_size=4096, heads=64, kv_heads=4, head_dim=128,
                        ffn_hidden=1536, gated_mlp=True, experts=128, top_k=8, vocab=151936)  # fmt: skip
    lay = Parallel(tp=2, cp=1, pp=8, dp=16, ep=32, v=4, micro_batch_seqs=1, micro_batches=128)
    assert (lay.etp, lay.edp) == (1, 1)
    _, expert = params_per_gpu(shape, lay)
    assert expert == pytest.approx(shape.params_expert / (8 * 32))
    given = Parallel(tp=2, cp=1, pp=8, dp=16, ep=8, v=4, micro_batch_seqs=1, micro_batches=128, expert_tp=1)
    assert (given.etp, given.edp) == (1, 4)


def test_rails_decide_the_expert_alltoall(catalog: Catalog) -> None:
    """Same job on 4-rail, 8-rail and InfiniBand: the EP time follows each fabric's network."""
    job = TrainingJob(**{**QWEN3_30B, "global_batch_seqs": 512, "tp": 1, "pp": 1, "ep": 64, "zero_stage": 1,
                         "micro_batch_seqs": 1, "recompute": "selective"})  # fmt: skip
    ep = {}
    for design in ("rail4-npo", "rail8-npo", "ib-ndr"):
        p = plan(scenario=Scenario(gpus=512, design_id=design, gpu_id="h100_sxm"), catalog=catalog)
        estimate = estimate_workload(job=job, plan=p, catalog=catalog)
        assert fabric_from_plan(plan=p, catalog=catalog).domain_gpus == 8
        ep[design] = estimate.step.ep_comm_s
    assert ep["rail8-npo"] < ep["rail4-npo"] < ep["ib-ndr"]


def test_cli_moe_flags(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "config.json"
    path.write_text(json.dumps(DEEPSEEK_V3_CONFIG), encoding="utf-8")
    base = ["workload", "--hf-config", str(path), "--tokens-b", "1000", "--gpus", "512", "--gpu", "h100_sxm",
            "--design", "ib-ndr", "--precision", "fp8", "--pp", "16", "--ep", "32", "--tp", "1"]  # fmt: skip
    assert run([*base, "--moe-overlap", "dualpipe", "--moe-dispatch-fp8", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    row = out[0] if isinstance(out, list) else out
    assert row["gpus"] == 512 and row["step_breakdown_s"]["moe_overhead_s"] > 0
    assert run([*base, "--moe-overlap", "always"]) == 2
    err = capsys.readouterr().err.strip()
    assert "moe" in err and "\n" not in err and "Traceback" not in err


# --- serving -------------------------------------------------------------------------------------

DSV3_SERVING = {
    "params_b": 671, "active_params_b": 37, "layers": 61, "hidden_size": 7168, "heads": 128, "experts": 256,
    "top_k": 8, "shared_experts": 1, "kv_lora_rank": 512, "precision": "fp8", "tp": 1,
}  # fmt: skip


def _decode(catalog: Catalog, design: str, **changes: object) -> float:
    from planner.inputs.serving import ServingRequest
    from planner.performance.serving.estimate import phase_rate

    p = plan(scenario=Scenario(gpus=64, design_id=design, gpu_id="h100_sxm"), catalog=catalog)
    request = ServingRequest(**{**DSV3_SERVING, "ep": 64, **changes})
    rate = phase_rate(request=request, plan=p, catalog=catalog, phase="decode", sequences_per_gpu=128,
                      context_tokens=2000)  # fmt: skip
    return rate.step.ep_s


def test_serving_dispatch_modes_and_overlap(catalog: Catalog) -> None:
    low_latency = _decode(catalog, "ib-ndr", moe_dispatch_mode="low_latency")
    normal = _decode(catalog, "ib-ndr", moe_dispatch_mode="normal")
    limited = _decode(catalog, "ib-ndr", moe_dispatch_mode="normal", moe_node_limit=4)
    # low-latency kernels send all 8 copies over the network (63/64 of them leave the GPU); normal
    # kernels send 56/64 across and forward the rest over NVLink; node-limited routing sends 4
    assert limited < normal < low_latency
    assert _decode(catalog, "ib-ndr", moe_dispatch_mode="normal", moe_overlap=True) < normal
    skewed = _decode(catalog, "ib-ndr", moe_dispatch_mode="normal", moe_load_imbalance=1.2)
    assert skewed == pytest.approx(1.2 * normal)
    # auto: decode steps run the low-latency kernels (disaggregated pools)
    assert _decode(catalog, "ib-ndr") == pytest.approx(low_latency)


def test_serving_alltoall_follows_the_rails(catalog: Catalog) -> None:
    times = {
        d: _decode(catalog, d, moe_dispatch_mode="low_latency") for d in ("rail4-npo", "rail8-npo", "ib-ndr")
    }
    assert times["rail8-npo"] < times["rail4-npo"] < times["ib-ndr"]


def _decode_step(catalog: Catalog, **changes: object) -> StepTime:
    """DeepSeek-V3's decode step on 64 H100 (ib-ndr) at 128 sequences per GPU, low-latency kernels."""
    from planner.inputs.serving import ServingRequest
    from planner.performance.serving.estimate import phase_rate

    p = plan(scenario=Scenario(gpus=64, design_id="ib-ndr", gpu_id="h100_sxm"), catalog=catalog)
    request = ServingRequest(**{**DSV3_SERVING, "ep": 64, "moe_dispatch_mode": "low_latency", **changes})
    rate = phase_rate(request=request, plan=p, catalog=catalog, phase="decode", sequences_per_gpu=128,
                      context_tokens=2000)  # fmt: skip
    return rate.step


def test_two_batch_decode_hides_only_what_deepseeks_schedule_can(catalog: Catalog) -> None:
    s = _decode_step(catalog)
    t = _decode_step(catalog, moe_overlap=True)
    # the overlap helps, but never more than hiding the whole all-to-all behind the serial step's math
    assert t.total_s < s.total_s
    assert t.total_s > max(s.math_s, s.ep_s) + s.overhead_s
    # each micro-batch re-reads the dense weights: more HBM traffic than the single batch
    assert t.memory_s > s.memory_s
    # every layer's fixed cost is paid by both micro-batches
    assert t.overhead_s == pytest.approx(2 * s.overhead_s)


def test_two_batch_decode_stages_by_hand(catalog: Catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    """The step is 2 [max(dense, dispatch) + routed + max(core, combine)] + overhead (step module)."""
    calls: list[tuple[float, float]] = []
    original = Instance._part

    def spy(self: Instance, *, flops: float, hbm_bytes: float) -> tuple[float, float]:
        out = original(self, flops=flops, hbm_bytes=hbm_bytes)
        calls.append(out)
        return out

    routed_compute: list[float] = []
    original_routed = Instance._routed_compute_s

    def spy_routed(self: Instance, flops: float, *, tokens: float) -> float:
        routed_compute.append(original_routed(self, flops, tokens=tokens))
        return routed_compute[-1]

    monkeypatch.setattr(Instance, "_part", spy)
    monkeypatch.setattr(Instance, "_routed_compute_s", spy_routed)
    step = _decode_step(catalog, moe_overlap=True)
    dense, routed_memory, core = (max(c) for c in calls)
    # the routed experts: the grouped GEMM's compute (its own efficiency) or reading their weights
    routed = max(routed_compute[0], routed_memory)
    # 64 sequences per micro-batch on each of the 64 GPUs: low-latency dispatch (FP8) and combine (BF16)
    dispatch, combine, _ = _instance(catalog).ep_parts(64 * 64, decode=True)
    expected = 2 * (max(dense, dispatch) + routed + max(core, combine))
    assert step.total_s - step.overhead_s == pytest.approx(expected)
    assert combine > dispatch  # BF16 combine moves twice the FP8 dispatch's bytes


def _instance(catalog: Catalog) -> Instance:
    from planner.inputs.serving import ServingRequest
    from planner.performance.serving.estimate import _context

    p = plan(scenario=Scenario(gpus=64, design_id="ib-ndr", gpu_id="h100_sxm"), catalog=catalog)
    request = ServingRequest(
        **{**DSV3_SERVING, "ep": 64, "moe_dispatch_mode": "low_latency", "moe_overlap": True}
    )
    return _context(request, p, catalog, None).instance(InstanceLayout(tp=1, ep=64))


def test_one_low_latency_dispatch_is_the_collective_models_all_to_all(catalog: Catalog) -> None:
    """DeepEP's low-latency kernel benchmark (validation/cases/serving-moe.yaml) as the model times it."""
    from planner.inputs.serving import ServingRequest
    from planner.performance.serving.estimate import expert_alltoall_s

    p = plan(scenario=Scenario(gpus=64, design_id="ib-ndr", gpu_id="h800_sxm"), catalog=catalog)
    request = ServingRequest(**{**DSV3_SERVING, "ep": 64, "moe_dispatch_mode": "low_latency"})
    dispatch, combine = expert_alltoall_s(request=request, plan=p, catalog=catalog, tokens_per_gpu=128)
    # every one of the 128 x 8 copies of 7168 values leaves the GPU over the network: FP8 out, BF16 back
    one = collective_time(
        fabric=fabric_from_plan(plan=p, catalog=catalog), collective="all_to_all", message_bytes=128 * 8 * 7168 * 1.0, gpus=64,
        gpus_per_domain=1,
    )  # fmt: skip
    assert dispatch == pytest.approx(one.time_s)
    assert 1.5 < combine / dispatch < 2.0  # twice the bytes, the same latency


def test_the_pure_rdma_path_sends_a_nodes_own_copies_through_the_nics(catalog: Catalog) -> None:
    """DeepEP's first low-latency kernels (pure RDMA) against its NVLink path of 2025-06, EP 8 in one node."""
    from planner.errors import InputError
    from planner.inputs.serving import ServingRequest
    from planner.performance.serving.estimate import expert_alltoall_s

    p = plan(scenario=Scenario(gpus=16, design_id="ib-ndr", gpu_id="h800_sxm"), catalog=catalog)
    base = {**DSV3_SERVING, "ep": 8, "moe_dispatch_mode": "low_latency"}
    nvlink, _ = expert_alltoall_s(request=ServingRequest(**base), plan=p, catalog=catalog, tokens_per_gpu=128)
    rdma, _ = expert_alltoall_s(
        request=ServingRequest(**base, moe_low_latency_path="rdma"),
        plan=p,
        catalog=catalog,
        tokens_per_gpu=128,
    )
    fabric = fabric_from_plan(plan=p, catalog=catalog)
    size = 128 * 8 * 7168 * 1.0  # 128 tokens x 8 copies x 7168 FP8 values
    # rdma: the 8 GPUs as 8 network endpoints (7/8 of the copies cross the NIC at its ~47 GB/s)
    one = collective_time(
        fabric=fabric, collective="all_to_all", message_bytes=size, gpus=8, gpus_per_domain=1
    )
    assert rdma == pytest.approx(one.time_s)
    assert one.bound_level != "scale-up"
    # nvlink: the same copies over the node's NVLink, several times faster
    inside = collective_time(
        fabric=fabric, collective="all_to_all", message_bytes=size, gpus=8, gpus_per_domain=8
    )
    assert nvlink == pytest.approx(inside.time_s) and nvlink < rdma / 2
    # a one-node plan has no network for the NICs to meet on: refused, naming the field
    alone = plan(scenario=Scenario(gpus=8, design_id="ib-ndr", gpu_id="h800_sxm"), catalog=catalog)
    with pytest.raises(InputError, match=r"^moe_low_latency_path: rdma .*\(allowed: nvlink\)"):
        expert_alltoall_s(
            request=ServingRequest(**base, moe_low_latency_path="rdma"),
            plan=alone,
            catalog=catalog,
            tokens_per_gpu=128,
        )


def test_prefill_overlap_with_normal_kernels_leaves_the_compute_fewer_sms(catalog: Catalog) -> None:
    """Prefill's normal kernels communicate from 20 of the 132 SMs (DeepSeek-V3 section 3.2.2) while
    they overlap the other micro-batch; decode's low-latency kernels do not (profile-data README)."""
    _, inst = _prefill_instance(catalog, moe_overlap=False)
    _, overlapped = _prefill_instance(catalog, moe_overlap=True)
    serial = inst.prefill(prompts=64 * 4, prompt_tokens=4096)
    hidden = overlapped.prefill(prompts=64 * 4, prompt_tokens=4096)
    assert overlapped.comm_sm_fraction == pytest.approx(20 / 132, abs=1e-4)
    # the kernels keep their SMs only while they run: compute W beside T of all-to-all takes W + s min(T, W / (1 - s))
    # (here the all-to-all, 2.1 s, outlasts the 1.6 s of compute: the whole compute runs on 112 SMs)
    shared = min(serial.ep_s, serial.compute_s / (1 - overlapped.comm_sm_fraction))
    assert hidden.compute_s == pytest.approx(serial.compute_s + overlapped.comm_sm_fraction * shared)
    assert hidden.compute_s == pytest.approx(serial.compute_s / (1 - overlapped.comm_sm_fraction))
    assert hidden.ep_s < serial.ep_s


def test_prefill_and_decode_pay_their_own_cost_per_layer(catalog: Catalog) -> None:
    from planner.performance.serving.coefficients import serving_coefficients

    c = serving_coefficients(catalog)
    _, inst = _prefill_instance(catalog, moe_overlap=False)
    # 61 layers x 140.2 us (prefill, data/serving.yaml) and 61 x 10 us (decode)
    assert inst.prefill(prompts=64, prompt_tokens=128).overhead_s == pytest.approx(61 * 140.2e-6)
    assert inst.decode_step(batch=64, context=128).overhead_s == pytest.approx(61 * 10e-6)
    assert (c.prefill_layer_overhead_us, c.layer_overhead_us) == (140.2, 10.0)


def _prefill_instance(catalog: Catalog, *, moe_overlap: bool) -> tuple[object, Instance]:
    from planner.inputs.serving import ServingRequest
    from planner.performance.serving.estimate import _context

    p = plan(scenario=Scenario(gpus=64, design_id="ib-ndr", gpu_id="h100_sxm"), catalog=catalog)
    request = ServingRequest(**{**DSV3_SERVING, "ep": 64, "moe_overlap": moe_overlap})
    return p, _context(request, p, catalog, None).instance(InstanceLayout(tp=1, ep=64))


def test_routed_experts_of_a_decode_step_run_at_the_grouped_gemm_efficiency(catalog: Catalog) -> None:
    """Decode: the routed FLOPs run at eta_g(T k / E) (DeepGEMM's H800 table, data/serving.yaml),
    the rest at the dense decode efficiency."""
    from planner.performance.serving.coefficients import serving_coefficients

    c = serving_coefficients(catalog)
    # the table's 512-token row, which the curve does not use: 1 / (2/3 / 1040 + 1/3 / 916) = 995 TFLOPS
    # over 1978.8 = 0.503; the interpolation between 256 and 1,024 tokens gives 0.505 (0.5 %)
    assert c.grouped_gemm_efficiency(tokens_per_expert=512) == pytest.approx(0.503, rel=0.01)
    assert c.grouped_gemm_efficiency(tokens_per_expert=256) == c.grouped_gemm_efficiency(tokens_per_expert=16)
    inst = _instance(catalog)
    single = replace(inst, overlap=False)
    step = single.decode_step(batch=64 * 128, context=2000)
    m = inst.model
    # 128 sequences on each of 64 GPUs, 8 copies each over 256 experts: 256 tokens per expert
    routed = 128 * 2.0 * (m.params_active - m.params_dense)
    eta_g = c.grouped_gemm_efficiency(tokens_per_expert=256)
    # the MLA core runs in BF16: its FLOPs count twice against the FP8 peak (attention_slowdown 2)
    attention = m.attention_flops_per_token(context=2000, absorbed=True) * inst.attention_slowdown
    dense_flops = 128 * (2.0 * m.params_dense + attention)
    expected = dense_flops / (inst.gpu.peak_flops * c.decode_compute_efficiency) + routed / (
        inst.gpu.peak_flops * eta_g
    )
    assert step.compute_s == pytest.approx(expected)
    assert eta_g == pytest.approx(0.4495)  # below the dense decode figure: the step is slower
    assert eta_g < c.decode_compute_efficiency


def test_bf16_adam_states_are_a_third_of_fp32_master_ones() -> None:
    """PyTorch Adam on bf16 parameters (NeMo AutoModel's benchmarks) keeps two bf16 moments, 4 B per
    parameter, where mixed precision keeps fp32 master weights and moments, 12 B."""
    from planner.performance.training.memory import BF16_OPTIMIZER_BYTES, state_bytes

    job = TrainingJob(**QWEN3_30B)
    lay = _lay()  # EP8 on 8 GPUs: each rank holds 16 of the 128 experts whole (edp = 1)
    _, expert = params_per_gpu(job_shape(job), lay)
    fp32 = state_bytes(job_shape(job), lay, 3)
    bf16 = state_bytes(job_shape(job), lay, 3, optimizer_bytes=BF16_OPTIMIZER_BYTES)
    assert bf16[:2] == fp32[:2] and bf16[2] == pytest.approx(fp32[2] / 3)
    # the experts dominate: 48 layers x 128 experts x 3 x 2048 x 768 / 8 = 3.6 B parameters per rank
    assert expert == pytest.approx(48 * 128 * 3 * 2048 * 768 / 8, rel=0.01)
    assert TrainingJob(**QWEN3_30B, optimizer_states="bf16").optimizer_states == "bf16"
    with pytest.raises(ValueError, match="optimizer_states"):
        TrainingJob(**QWEN3_30B, optimizer_states="fp16")


def test_each_accumulation_round_fills_and_drains_the_pipeline(catalog: Catalog) -> None:
    # AutoModel runs one pipeline schedule per gradient-accumulation step (train_ft.py calls
    # schedule.step per local batch): 4 runs of 4 micro-batches pay the (pp - 1) / v fill and drain
    # 4 times; the micro-batches' own time is the same
    job = TrainingJob(**QWEN3_30B)
    lay = Parallel(tp=1, cp=1, pp=8, dp=8, ep=8, v=1, micro_batch_seqs=1, micro_batches=16)
    one = _model(job, catalog).step(lay, "selective", 1).step
    four = _model(job.model_copy(update={"accumulation_rounds": 4}), catalog).step(lay, "selective", 1).step
    assert four.pp_bubble_s == pytest.approx(4 * one.pp_bubble_s) and one.pp_bubble_s > 0
    assert four.compute_s == one.compute_s
    # more runs than micro-batches: one per micro-batch at most
    many = _model(job.model_copy(update={"accumulation_rounds": 64}), catalog).step(lay, "selective", 1).step
    assert many.pp_bubble_s == pytest.approx(16 * one.pp_bubble_s)


def test_automodel_has_its_own_per_copy_cost(catalog: Catalog) -> None:
    # data/moe.yaml: moe_copy_overhead_ns_automodel, fitted on AutoModel's GPT-OSS-20B row (0 ns, the
    # fit's bound); the host wait per expert-layer forward is the same for both frameworks
    megatron = moe_coefficients(catalog, gpu_id="h100_sxm")
    automodel = moe_coefficients(catalog, gpu_id="h100_sxm", framework="automodel")
    assert (megatron.copy_overhead_ns, automodel.copy_overhead_ns) == (339.0, 0.0)
    assert automodel.host_wait_us == megatron.host_wait_us == 1511.0
    # the framework's own value comes before the GPU's
    assert moe_coefficients(catalog, gpu_id="b200_hgx", framework="automodel").copy_overhead_ns == 0.0


def test_automodel_pipelined_fsdp_reduce_scatters_wait_stage_by_stage(catalog: Catalog) -> None:
    # NeMo AutoModel under pipelining (PyTorch 2.8 FSDP2 + torch.distributed.pipelining): each of the
    # v chunks gathers its bf16 weights once per schedule run and reduce-scatters its fp32 gradients
    # once, after its last backward, with the compute stream waiting for it before the input
    # gradient goes on: the last micro-batch's backward waits pp v times per run (schedule notes)
    job = TrainingJob(**QWEN3_30B, zero_stage=3, accumulation_rounds=2, moe_framework="automodel")
    lay = Parallel(tp=1, cp=1, pp=4, dp=16, ep=8, v=2, micro_batch_seqs=1, micro_batches=4)
    assert lay.edp == 2  # 16 data-parallel GPUs hold 2 copies of each EP8 expert shard
    model = _model(job, catalog)
    dense, expert = params_per_gpu(job_shape(job), lay)

    def time(kind: Literal["all_gather", "reduce_scatter"], size: float, gpus: int, per_domain: int) -> float:
        return collective_time(
            fabric=model.fabric, collective=kind, message_bytes=size, gpus=gpus, gpus_per_domain=per_domain
        ).time_s

    # dp neighbours share a domain 8 at a time; the 2 expert copies sit 8 GPUs apart, one per domain
    scatter = time("reduce_scatter", 4 * dense / 2, 16, 8) + time("reduce_scatter", 4 * expert / 2, 2, 1)
    gather = time("all_gather", 2 * dense / 2, 16, 8) + time("all_gather", 2 * expert / 2, 2, 1)
    total, chain, _ = model.pipelined_fsdp_s(lay, per_domain=8)
    assert chain == pytest.approx(2 * 4 * 2 * scatter)  # 2 runs x 4 stages x 2 chunks
    assert total == pytest.approx(chain + 2 * 2 * gather)
    step = model.step(lay, "full", 3)
    assert step.dp_comm_total_s == pytest.approx(total)
    assert step.step.dp_comm_s >= chain  # the chain is never hidden
    # Megatron-Core (the default framework) keeps its ZeRO-3 term: no chain
    megatron = _model(job.model_copy(update={"moe_framework": "megatron_core"}), catalog).step(lay, "full", 3)
    assert megatron.dp_comm_total_s != pytest.approx(total)
    # without a pipeline AutoModel reduces once per step behind the backward (the ZeRO-3 term)
    flat = replace(lay, pp=1, v=1)
    assert model.step(flat, "full", 3).dp_comm_total_s == pytest.approx(
        _model(job.model_copy(update={"moe_framework": "megatron_core"}), catalog)
        .step(flat, "full", 3)
        .dp_comm_total_s
    )
