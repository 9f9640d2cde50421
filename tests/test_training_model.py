"""Training model v2: FLOPs, kernel efficiency, activation memory, ZeRO, schedule and search.

Goldens carry their derivation; the Megatron-LM SC21 Table 1 rows are validation cases (never
fitted): the efficiency coefficients in data/training.yaml are fitted to calibration cases only.
"""

from __future__ import annotations

import dataclasses
import functools
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner import Catalog, Scenario, load_catalog, plan
from planner.cli import run
from planner.engine import Plan
from planner.errors import InfeasibleError
from planner.inputs.training import TrainingJob, training_job
from planner.performance.collectives import two_level_fabric
from planner.performance.training.efficiency import efficiency_coefficients
from planner.performance.training.flops import (
    model_flops_per_token,
    recompute_flops_per_layer_token,
    token_flops,
)
from planner.performance.training.hf import job_fields_from_hf_config
from planner.performance.training.memory import (
    MemoryReserve,
    Parallel,
    activation_and_buffer_bytes,
    activation_bytes_per_layer,
    held_layer_micro_batches,
    memory_breakdown,
    memory_reserve,
)
from planner.performance.training.schedule import StepModel
from planner.performance.training.shape import model_shape
from planner.performance.workload import best_layout, estimate_workload
from planner.validation import load_cases
from planner.validation.run import _plan as plan_of_case
from planner.validation.run import evaluate

LLAMA3_405B: dict[str, Any] = {
    "params_b": 405, "layers": 126, "hidden_size": 16384, "heads": 128, "kv_heads": 8,
    "ffn_hidden": 53248, "gated_mlp": True, "vocab": 128256,
}  # fmt: skip


@functools.cache
def _plan(design: str, gpus: int = 1024, gpu: str = "h100_sxm") -> Plan:
    return plan(scenario=Scenario(gpus=gpus, design_id=design, gpu_id=gpu), catalog=load_catalog())


def test_flops_match_megatron_eq3() -> None:
    # Narayanan et al. 2021 eq. 3 (full recomputation, hardware FLOPs per token):
    # 96 L h^2 (1 + s / (6h) + V / (16 L h)); model FLOPs: 72 L h^2 (1 + s / (6h) + V / (12 L h))
    shape = model_shape(params_b=175, layers=96, hidden_size=12288, heads=96, vocab=51200)
    n_layers, h, s, vocab = 96, 12288, 2048, 51200
    model = model_flops_per_token(shape, seq_len=s)
    assert model == pytest.approx(72 * n_layers * h**2 * (1 + s / (6 * h) + vocab / (12 * n_layers * h)))
    redone = n_layers * recompute_flops_per_layer_token(token_flops(shape, seq_len=s), "full")
    assert model + redone == pytest.approx(
        96 * n_layers * h**2 * (1 + s / (6 * h) + vocab / (16 * n_layers * h))
    )
    # attention and logits add 20 % to 6 N D at 1.7B and 2K context: s / (6h) + V / (12 L h)
    small = model_shape(params_b=1.7, layers=24, hidden_size=2304, vocab=51200)
    extra = model_flops_per_token(small, seq_len=2048) / (72 * 24 * 2304**2) - 1
    assert extra == pytest.approx(2048 / (6 * 2304) + 51200 / (12 * 24 * 2304))
    assert 0.2 < extra < 0.25


def test_gqa_and_gated_ffn_flops() -> None:
    # Llama 3 405B: QKV 2h (h + 2 x 1024) + proj 2h^2 + gated FFN 3 x 2 h f per token and layer
    shape = model_shape(**LLAMA3_405B)
    f = token_flops(shape, seq_len=8192)
    h = 16384
    assert shape.kv_width == 1024
    assert f.layer_matmul == 2 * h * (h + 2 * 1024) + 2 * h * h + 6 * h * 53248
    assert f.logits == 2 * h * 128256


def test_memory_breakdown_zero_stages_and_interleaving() -> None:
    shape = model_shape(params_b=70, layers=80, hidden_size=8192, heads=64)
    lay = Parallel(tp=8, cp=1, pp=4, dp=32, ep=1, v=1, micro_batch_seqs=1, micro_batches=64)
    phi = 70e9 / 32  # parameters per GPU
    stages = {
        z: memory_breakdown(shape, lay, seq_len=4096, recompute="selective", zero=z) for z in (0, 1, 2, 3)
    }
    assert stages[0].optimizer_bytes == pytest.approx(12 * phi)
    assert stages[1].optimizer_bytes == pytest.approx(12 * phi / 32)
    assert stages[1].gradients_bytes == pytest.approx(2 * phi)
    assert stages[2].gradients_bytes == pytest.approx(2 * phi / 32)
    # ZeRO-3: a shard of the weights plus two gathered layers of the 20 on the stage
    assert stages[3].weights_bytes == pytest.approx(2 * phi / 32 + 2 * 2 * phi / 20)
    totals = [stages[z].total_bytes for z in (0, 1, 2, 3)]
    assert totals == sorted(totals, reverse=True)
    # activations: 4 micro-batches in flight x 20 layers x (12 + 4 + 16) s h / t (MHA, no dropout)
    assert stages[1].activations_bytes == pytest.approx(4 * 20 * 32 * 4096 * 8192 / 8)
    # interleaving v = 2: 4 x 20 x (1 + 3 / 8) (Korthikanti et al. section 4.2.3)
    assert held_layer_micro_batches(80, 4, 2, 64) == pytest.approx(4 * 20 * (1 + 3 / 8))
    # fewer micro-batches than stages: only M are in flight
    assert held_layer_micro_batches(80, 4, 1, 2) == 2 * 20


def test_recompute_none_charges_the_attention_core() -> None:
    shape = model_shape(params_b=22, layers=48, hidden_size=6144, heads=64)
    lay = Parallel(tp=8, cp=1, pp=1, dp=1, ep=1, v=1, micro_batch_seqs=1, micro_batches=1)
    none = memory_breakdown(shape, lay, seq_len=2048, recompute="none", zero=1, dropout=True)
    selective = memory_breakdown(shape, lay, seq_len=2048, recompute="selective", zero=1, dropout=True)
    full = memory_breakdown(shape, lay, seq_len=2048, recompute="full", zero=1, dropout=True)
    # 48 layers x 5 a s^2 b / t more without recomputation (Korthikanti eq. 2)
    assert none.activations_bytes - selective.activations_bytes == pytest.approx(48 * 5 * 64 * 2048**2 / 8)
    # full: 2 s b h / t per layer plus one layer's working set
    assert full.activations_bytes == pytest.approx(48 * 2 * 2048 * 6144 / 8 + 34 * 2048 * 6144 / 8)


def _layer_efficiency(
    catalog: Catalog, *, h: int, heads: int, tp: int, kernel: str, recompute: str = "selective"
) -> float:
    """Kernel efficiency of one GPT layer on A100 80 GB through the step model (s = 2048, b = 1)."""
    shape = model_shape(params_b=1, layers=1, hidden_size=h, heads=heads)
    job = TrainingJob(params_b=1, tokens_b=1, seq_len=2048, global_batch_seqs=1, dropout=True,
                      attention_kernel=kernel)  # fmt: skip
    fabric = two_level_fabric(gpus=8, domain_gpus=8, scale_up_gbyte_per_s=300, network_gbyte_per_s=25)
    model = StepModel(job=job, shape=shape, fabric=fabric, peak_flops=312e12, efficiency=None,
                      coefficients=efficiency_coefficients(catalog), hbm_byte_per_s=2039e9)  # fmt: skip
    lay = Parallel(tp=tp, cp=1, pp=1, dp=1, ep=1, v=1, micro_batch_seqs=1, micro_batches=1)
    return model.efficiency(lay, recompute)  # type: ignore[arg-type]


def test_efficiency_rises_with_width(catalog: Catalog) -> None:
    etas = [
        _layer_efficiency(catalog, h=h, heads=h // 128, tp=8, kernel="flash")
        for h in (4096, 8192, 16384, 25600)
    ]
    assert etas == sorted(etas) and etas[-1] < efficiency_coefficients(catalog).max_fraction


def test_efficiency_follows_the_counted_traffic(catalog: Catalog) -> None:
    """1 / eta = 1 / eta_mm + (F / B) Q / W, checked by hand for one layer (data/training.yaml values)."""
    c = efficiency_coefficients(catalog)
    h, a, s, tp = 2304, 24, 2048, 1  # Megatron-LM SC21 Table 1, 1.7B row
    # W: 3 x (24 h^2 + 4 s h) forward-and-backward FLOPs plus the recomputed attention core (4 s h)
    flops = 3 * (24 * h * h + 4 * s * h) + 4 * s * h
    # Q: three quarters of 72 k h (no full recomputation) plus (8 + 5) x 2 + (14 + 5) bytes per score
    # (forward twice with the recomputed core, dropout on) for a s score elements per token
    q = 0.75 * 72 * c.elementwise_bytes * h + ((8 + 5) * 2 + (14 + 5)) * a * s
    expected = 1 / (1 / c.matmul(width=h / tp, tokens=s) + 312e12 / 2039e9 * q / flops)
    assert _layer_efficiency(catalog, h=h, heads=a, tp=tp, kernel="materialized") == pytest.approx(expected)


def test_materialized_scores_cost_most_where_heads_are_many_and_narrow(catalog: Catalog) -> None:
    # a s / h^2: 24 x 2048 / 2304^2 = 0.0093 (1.7B) against 160 x 2048 / 25600^2 = 0.0005 (1T)
    def loss(h: int, heads: int, tp: int) -> float:
        flash = _layer_efficiency(catalog, h=h, heads=heads, tp=tp, kernel="flash")
        return 1 - _layer_efficiency(catalog, h=h, heads=heads, tp=tp, kernel="materialized") / flash

    small, large = loss(2304, 24, 1), loss(25600, 160, 8)
    assert small > 0.25 > 0.05 > large > 0


def test_flash_kernel_keeps_no_scores_in_memory() -> None:
    shape = model_shape(params_b=22, layers=48, hidden_size=6144, heads=64)
    lay = Parallel(tp=8, cp=1, pp=1, dp=1, ep=1, v=1, micro_batch_seqs=1, micro_batches=1)
    common = {"seq_len": 2048, "zero": 1, "dropout": True}
    none = memory_breakdown(shape, lay, recompute="none", materialized_scores=False, **common)  # type: ignore[arg-type]
    selective = memory_breakdown(shape, lay, recompute="selective", **common)  # type: ignore[arg-type]
    # 48 layers x one fp32 statistic per query row and head: 4 a s b / t
    assert none.activations_bytes - selective.activations_bytes == pytest.approx(48 * 4 * 64 * 2048 / 8)


def test_memory_reserve_is_counted_and_an_explicit_fraction_replaces_it(catalog: Catalog) -> None:
    """The default budget is the device less the sourced reserve (data/training.yaml), reported in
    the breakdown; ``--usable-memory`` replaces the whole reserve with a share of the device."""
    job = training_job({**LLAMA3_405B, "tokens_b": 15000, "seq_len": 8192, "global_batch_seqs": 2048,
                        "tp": 8, "pp": 16, "recompute": "selective"})  # fmt: skip
    mem = estimate_workload(job=job, plan=_plan("ib-ndr"), catalog=catalog).memory
    parts = mem.as_gbyte()
    # context 0.4 GB + cuBLAS workspace 32 MiB; NCCL 0.688 GB for each collective communicator (TP 8,
    # DP 8) and the pipeline's send/receive buffers across the network (tp dp = 64 >= 8 GPUs per
    # node): 2 x 32 channels x 16 steps x 128 KiB = 0.1342 GB
    assert parts["cuda_context"] == pytest.approx(0.4 + 0.0336)
    assert parts["nccl"] == pytest.approx(2 * 0.688 + 0.1342)
    assert parts["allocator"] == pytest.approx(0.04 * mem.allocated_bytes / 1e9)  # 4 % of the tensors
    explicit = estimate_workload(
        job=job.model_copy(update={"usable_memory_fraction": 0.9}), plan=_plan("ib-ndr"), catalog=catalog
    ).memory
    assert {"cuda_context", "nccl", "allocator"}.isdisjoint(explicit.as_gbyte())
    assert explicit.total_bytes == explicit.allocated_bytes <= 0.9 * 81_559 * 2**20
    # a share too small for any layout is refused with the share's bytes, not silently ignored
    with pytest.raises(InfeasibleError, match="memory: no layout fits in 17 GB"):
        estimate_workload(
            job=job.model_copy(update={"usable_memory_fraction": 0.2}), plan=_plan("ib-ndr"), catalog=catalog
        )


def test_nccl_point_to_point_records_are_their_derivation(catalog: Catalog) -> None:
    """The two NCCL point-to-point records (data/training.yaml) are the products their sources give."""
    reserve = memory_reserve(catalog)
    # over the network: a shared send and a shared receive buffer, each 32 channels x
    # NCCL_SHARED_STEPS 16 x NCCL_P2P_NET_CHUNKSIZE 128 KiB (nccl src/transport/net.cc, src/init.cc)
    assert reserve.nccl_p2p_net_bytes == pytest.approx(2 * 32 * 16 * 131_072, rel=1e-3)
    # over NVLink, per peer: 32 channels x (10,485,760 B receive + 2,097,152 B send), nccl issue 1685
    assert reserve.nccl_p2p_bytes_per_scale_up_peer == pytest.approx(32 * (10_485_760 + 2_097_152), rel=1e-3)


def test_nccl_buffers_are_counted_by_what_each_communicator_does() -> None:
    """Collective communicators hold the measured figure; the pipeline's and NCCL's expert
    all-to-all hold point-to-point buffers: shared ones across the network, one connection set per
    peer inside the scale-up domain."""
    r = MemoryReserve(0.0, 0.0, nccl_bytes_per_communicator=0.688e9, allocator_fraction=0.0,
                      nccl_p2p_net_bytes=0.1342e9, nccl_p2p_bytes_per_scale_up_peer=0.4027e9)  # fmt: skip
    # Llama 3 405B's layout: TP 8 and DP 64 collective; the next stage is 8 x 64 ranks away, across
    # the network: 2 x 0.688 + 0.1342 GB
    meta = Parallel(tp=8, cp=1, pp=16, dp=64, ep=1, v=8, micro_batch_seqs=1, micro_batches=32)
    assert r.nccl_bytes(meta, domain_gpus=8) == pytest.approx(2 * 0.688e9 + 0.1342e9)
    # TP 2 x PP 4 in one 8-GPU node: the middle stages send to two peers over NVLink, 2 x 0.4027 GB;
    # with PP 2 both directions go to the one other stage, 1 x 0.4027 GB
    node = Parallel(tp=2, cp=1, pp=4, dp=1, ep=1, v=1, micro_batch_seqs=1, micro_batches=8)
    assert r.nccl_bytes(node, domain_gpus=8) == pytest.approx(0.688e9 + 2 * 0.4027e9)
    two = dataclasses.replace(node, pp=2, dp=2)
    assert r.nccl_bytes(two, domain_gpus=8) == pytest.approx(2 * 0.688e9 + 0.4027e9)
    # expert parallelism 16 over 8-GPU domains with NCCL's all-to-all: 7 NVLink peers and the shared
    # network buffers, 7 x 0.4027 + 0.1342 GB, in place of one collective communicator's 0.688 GB;
    # another library's dispatch (DeepEP) keeps the collective figure
    moe = Parallel(tp=1, cp=1, pp=1, dp=32, ep=16, v=1, micro_batch_seqs=1, micro_batches=4)
    assert r.nccl_bytes(moe, domain_gpus=8, nccl_all_to_all=True) == pytest.approx(
        0.688e9 + 7 * 0.4027e9 + 0.1342e9
    )
    assert r.nccl_bytes(moe, domain_gpus=8, nccl_all_to_all=False) == pytest.approx(2 * 0.688e9)
    # a 72-GPU NVLink domain keeps an EP 16 all-to-all inside it: 15 peers, no network buffers
    assert r.nccl_bytes(moe, domain_gpus=72, nccl_all_to_all=True) == pytest.approx(0.688e9 + 15 * 0.4027e9)


def test_llama3_405b_fits_tp8_pp16_without_full_recompute(catalog: Catalog) -> None:
    # 126 layers on 16 stages: 2 of 7 first, then 14 of 8 (the balanced 7, 8 x 14, 7 would be faster
    # but its second stage holds 15 x 8 = 120 against 112); the fullest holds 16 x 7 = 14 x 8 = 112
    # layer-micro-batches of (12 + 4/16 + 6 x 3.25) s h / 8 B = 533 MB: 59.7 GB of activations
    job = training_job({**LLAMA3_405B, "tokens_b": 15000, "seq_len": 8192, "global_batch_seqs": 2048,
                        "tp": 8, "pp": 16, "recompute": "selective"})  # fmt: skip
    e = estimate_workload(job=job, plan=_plan("ib-ndr"), catalog=catalog)
    assert (e.layout.tp, e.layout.pp, e.layout.recompute) == (8, 16, "selective")
    assert e.memory.activations_bytes == pytest.approx(112 * 31.75 * 8192 * 16384 / 8)
    # with the counted reserve beside the tensors (data/training.yaml): CUDA context and cuBLAS
    # workspace 0.4 + 0.0336 GB, NCCL 0.688 GB for each of TP and DP and 0.1342 GB for the pipeline's
    # sends across the network, allocator 4 % of the tensors
    assert e.memory.total_bytes == pytest.approx(
        e.memory.allocated_bytes * 1.04 + 0.4336e9 + 2 * 0.688e9 + 0.1342e9
    )
    assert e.layout.memory_gbyte_per_gpu <= 81_559 * 2**20 / 1e9  # the H100's 81,559 MiB
    # without recomputation a kernel that writes the 5 a s^2 b / t scores to HBM does not fit ...
    materialized = job.model_copy(update={"recompute": "none", "attention_kernel": "materialized"})
    with pytest.raises(InfeasibleError, match="memory: no layout fits"):
        estimate_workload(job=materialized, plan=_plan("ib-ndr"), catalog=catalog)
    # ... a flash kernel does: it keeps one fp32 statistic per row and head, 4 a s b / t
    flash = estimate_workload(
        job=job.model_copy(update={"recompute": "none"}), plan=_plan("ib-ndr"), catalog=catalog
    )
    assert flash.layout.recompute == "none"
    assert flash.memory.activations_bytes == pytest.approx(112 * (31.75 * 8192 * 16384 + 4 * 128 * 8192) / 8)


def test_block_recomputation_keeps_the_inputs_of_the_recomputed_layers() -> None:
    # 8 layers on 2 stages (4 each, v = 1), 4 micro-batches: rank 0 holds min(2, 4) = 2 of them,
    # rank 1 one and the logits. Block recomputation of 1 layer per chunk: 3 layers keep everything
    # (a_none), 1 keeps its input only (a_full = 2 s b h / t), and the layer being recomputed holds
    # its working set (a_selective) once.
    shape = model_shape(params_b=1, layers=8, hidden_size=1024, heads=8, vocab=1000)
    lay = Parallel(tp=2, cp=1, pp=2, dp=1, ep=1, v=1, micro_batch_seqs=1, micro_batches=4, recompute_layers=1)

    def per_layer(rc: str) -> float:
        return activation_bytes_per_layer(
            shape, seq_len=2048, micro_batch_seqs=1, tp=2, cp=1, recompute=rc,  # type: ignore[arg-type]
            dropout=False, materialized_scores=False,
        )  # fmt: skip

    assert per_layer("full") == 2 * 2048 * 1024 / 2
    activations, logits = activation_and_buffer_bytes(
        shape, lay, seq_len=2048, recompute="block", materialized_scores=False
    )
    assert logits == 0.0  # rank 0 (2 micro-batches) is fuller than rank 1 with the 6 s b V / t logits
    expected = 2 * (3 * per_layer("none") + 1 * per_layer("full")) + per_layer("selective")
    assert activations == pytest.approx(expected)


def test_llama3_405b_table4_layout_searches_the_fewest_recomputed_layers(catalog: Catalog) -> None:
    # Table 4 (arXiv 2407.21783): TP 8, PP 16, DP 64, 8K context. Recomputing nothing does not fit
    # 72 GB at any interleaving depth but v = 1 (bubble 15 / 32); the search takes block
    # recomputation with the fewest layers per chunk that fit, and is faster than full recomputation
    fields = {**LLAMA3_405B, "tokens_b": 15000, "seq_len": 8192, "global_batch_seqs": 2048,
              "tp": 8, "pp": 16, "dp": 64}  # fmt: skip
    p = _plan("ib-ndr", gpus=8192)
    auto = estimate_workload(job=training_job(fields), plan=p, catalog=catalog)
    assert auto.layout.recompute == "block"
    assert auto.layout.memory_gbyte_per_gpu <= 80 * 0.9
    fewer = training_job({**fields, "recompute": "block", "recompute_layers": auto.layout.recompute_layers - 1,
                          "virtual_stages": auto.layout.virtual_stages}) if auto.layout.recompute_layers > 1 else None  # fmt: skip
    if fewer is not None:
        with pytest.raises(InfeasibleError):
            estimate_workload(job=fewer, plan=p, catalog=catalog)
    full = estimate_workload(job=training_job({**fields, "recompute": "full"}), plan=p, catalog=catalog)
    assert auto.step_time_s < full.step_time_s
    # hardware FLOPs count the recomputed layers' forward once more: between none and full
    assert auto.achieved_tflops_per_gpu < auto.achieved_hardware_tflops_per_gpu


def test_llama3_405b_meta_8k_schedule_is_short_of_memory_on_8192_gpus_only(catalog: Catalog) -> None:
    """The arithmetic of known gap ``llama3-405b-8192gpu-seq8k``: Meta's schedule (arXiv 2407.21783
    section 3.3.2: the embedding and the output layer take a chunk each, V = (126 + 2) / 16 = 8, no
    recomputation; FSDP that does not reshard after the forward keeps the weights whole, ZeRO-2's
    memory) needs more than an H100 holds beside the counted reserve with 32 micro-batches in
    flight (8,192 GPUs), and fits with 16 (16,384 GPUs)."""
    fields = {**LLAMA3_405B, "tokens_b": 15000, "seq_len": 8192, "global_batch_seqs": 2048,
              "tp": 8, "pp": 16, "virtual_stages": 8, "recompute": "none", "zero_stage": 2}  # fmt: skip
    # the whole device as the budget, to read the need: rank 1 holds 2 x 14 + 7 x 16 + 1 = 141
    # one-layer passes (rank 0 fewer: 31 of its 143 are the embedding's chunk), each 31.75 s h / 8 B
    # plus 4 a s / 8 B of flash statistics = 533 MB: 75.2 GB
    whole = training_job({**fields, "dp": 64, "usable_memory_fraction": 1.0})
    need = estimate_workload(job=whole, plan=_plan("ib-ndr", gpus=8192), catalog=catalog).memory
    per_pass = (31.75 * 8192 * 16384 + 4 * 128 * 8192) / 8
    assert need.activations_bytes == pytest.approx(141 * per_pass)
    # ZeRO-2 states: 405e9 / 128 parameters x (2 B weights + (4 + 12) B / 64 sharded) = 6.33 + 0.69 GB
    assert need.allocated_bytes == pytest.approx(141 * per_pass + 405e9 / 128 * (2 + 16 / 64), rel=2e-3)
    # beside it the counted reserve: 0.4336 + 2 x 0.688 + 0.1342 GB and 4 % of the tensors, 87.4 GB
    # against the driver's 81,559 MiB (85.5 GB): refused at default settings
    assert need.allocated_bytes * 1.04 + 1.944e9 > 81_559 * 2**20 + 1.5e9
    with pytest.raises(InfeasibleError, match="memory: no layout fits"):
        estimate_workload(
            job=training_job({**fields, "dp": 64}), plan=_plan("ib-ndr", gpus=8192), catalog=catalog
        )
    # 16 micro-batches cap every rank's passes at 16 per chunk: rank 1 holds 8 x 16 = 128 (68.2 GB)
    fits = estimate_workload(
        job=training_job({**fields, "dp": 128}), plan=_plan("ib-ndr", gpus=16384), catalog=catalog
    )
    assert fits.memory.activations_bytes == pytest.approx(128 * per_pass)
    assert fits.memory.total_bytes <= 81_559 * 2**20


def test_an_older_release_reads_its_own_efficiency_and_refuses_a_gpu_without_one(catalog: Catalog) -> None:
    from planner.errors import InputError
    from planner.performance.training.efficiency import efficiency_coefficients

    latest = efficiency_coefficients(catalog, gpu_id="h100_sxm", precision="fp8")
    older = efficiency_coefficients(catalog, gpu_id="h100_sxm", precision="fp8", release="nemo-24.07")
    rule = catalog.sizing_rules["training_efficiency_max_fraction_h100_sxm_nemo_24_07"]
    assert older.max_fraction == rule.value < latest.max_fraction
    # only the ceiling is the release's; the curve's shape and the counted bytes stay
    assert dataclasses.replace(older, max_fraction=latest.max_fraction) == latest
    with pytest.raises(InputError, match=r"software_release: nemo-24\.07 has no calibration for b200_hgx"):
        efficiency_coefficients(catalog, gpu_id="b200_hgx", precision="fp8", release="nemo-24.07")
    # the job input reaches the estimate: the same job is slower with the older release
    fields = {"params_b": 8, "layers": 32, "hidden_size": 4096, "heads": 32, "kv_heads": 8, "ffn_hidden": 14336,
              "gated_mlp": True, "vocab": 128256, "seq_len": 8192, "global_batch_seqs": 128, "tokens_b": 100,
              "precision": "fp8", "tp": 1, "pp": 1}  # fmt: skip
    p = _plan("ib-ndr", gpus=8)
    new = estimate_workload(job=training_job(fields), plan=p, catalog=catalog)
    old = estimate_workload(
        job=training_job({**fields, "software_release": "nemo-24.07"}), plan=p, catalog=catalog
    )
    assert old.tokens_per_s < new.tokens_per_s


def test_the_megatron_deepspeed_release_is_fitted_on_one_mt_nlg_row_and_validated_on_the_others(
    catalog: Catalog,
) -> None:
    from planner.errors import InputError

    release = "megatron-deepspeed-2021"
    general = efficiency_coefficients(catalog, gpu_id="a100_sxm_80gb", precision="bf16")
    own = efficiency_coefficients(catalog, gpu_id="a100_sxm_80gb", precision="bf16", release=release)
    # MT-NLG's per-micro-batch slot (60.1 s / 274 slots) is slower than SC21's Megatron-LM run of the
    # same model (55.4 s / 314): the release's ceiling sits below the general A100 value
    assert own.max_fraction < general.max_fraction
    assert dataclasses.replace(own, max_fraction=general.max_fraction) == general
    with pytest.raises(
        InputError, match=r"software_release: megatron-deepspeed-2021 has no calibration for h100_sxm"
    ):
        efficiency_coefficients(catalog, gpu_id="h100_sxm", precision="bf16", release=release)
    # calibration is not validation: one row fits the release, the other rows of its table check it
    cases = {c.id: c.role for c in load_cases() if c.inputs.software_release == release}
    assert cases == {
        "mt-nlg-530b-2240gpu": "calibration",
        "mt-nlg-530b-2800gpu": "validation",
        "mt-nlg-530b-3360gpu": "validation",
    }


def test_an_all_gather_context_parallelism_exposes_what_the_ring_hides(catalog: Catalog) -> None:
    """cp_comm_type: p2p (the ring, hidden behind the attention core) or all_gather (Llama 3, exposed)."""
    fields = {"params_b": 70, "layers": 80, "hidden_size": 8192, "heads": 64, "kv_heads": 8, "ffn_hidden": 28672,
              "gated_mlp": True, "vocab": 128256, "seq_len": 131072, "global_batch_seqs": 16, "tokens_b": 100,
              "tp": 8, "cp": 8, "pp": 1, "dp": 2, "recompute": "full", "zero_stage": 3}  # fmt: skip
    p = _plan("ib-ndr", gpus=128)
    ring = estimate_workload(job=training_job(fields), plan=p, catalog=catalog)
    gathered = estimate_workload(
        job=training_job({**fields, "cp_comm_type": "all_gather"}), plan=p, catalog=catalog
    )
    assert training_job(fields).cp_comm_type == "p2p"  # the frameworks' default
    # at 128K the attention core (16K queries per GPU over up to 128K keys) outlasts the K,V exchange:
    # the ring shows none of it, the all-gather all of it, and nothing else changes
    assert ring.step.cp_comm_s == 0.0 < gathered.step.cp_comm_s
    assert gathered.step.compute_s == pytest.approx(ring.step.compute_s)
    assert gathered.step_time_s > ring.step_time_s


SC21 = [c for c in load_cases() if c.id.startswith("megatron-sc21-gpt-")]


@functools.cache
def _sc21_tflops(case_id: str) -> float:
    catalog = load_catalog()
    case = next(c for c in SC21 if c.id == case_id)
    i = case.inputs
    p, _ = plan_of_case(case, catalog)
    job = training_job({
        "params_b": i.params_b, "tokens_b": 1000, "seq_len": i.seq_len, "global_batch_seqs": i.global_batch_seqs,
        "layers": i.layers, "hidden_size": i.hidden_size, "heads": i.heads, "vocab": i.vocab, "tp": i.tp,
        "pp": i.pp, "dp": i.dp, "recompute": "full", "dropout": True,
        # Megatron-LM in 2021 had no sequence parallelism (Korthikanti et al. 2022 introduced it)
        # and wrote the attention scores to HBM (FlashAttention came in 2022)
        "sequence_parallel": False, "attention_kernel": "materialized",
        # its local DDP all-reduced after the backward and its pipeline sends blocked
        "dp_overlap_fraction": 0.0, "pp_overlap_fraction": 0.0,
    })  # fmt: skip
    # the paper counts hardware FLOPs (its eq. 3, recomputation included)
    return estimate_workload(job=job, plan=p, catalog=catalog).achieved_hardware_tflops_per_gpu


@pytest.mark.parametrize("case", SC21, ids=[c.id for c in SC21])
def test_megatron_sc21_table1_runner_uses_the_same_job(case) -> None:  # type: ignore[no-untyped-def]
    """The validation runner evaluates each Table 1 row with this job (hardware FLOPs). How far
    each row is from the paper is judged in one place, validation/known_gaps.yaml."""
    assert case.role == "validation"  # never fitted
    result = evaluate(case, catalog=load_catalog())
    assert result.predicted == pytest.approx(_sc21_tflops(case.id), rel=1e-9)


def test_megatron_sc21_throughput_rises_with_width() -> None:
    ids = [
        "megatron-sc21-gpt-18p4b",
        "megatron-sc21-gpt-76p1b",
        "megatron-sc21-gpt-310p1b",
        "megatron-sc21-gpt-1008b",
    ]
    tflops = [_sc21_tflops(i) for i in ids]
    assert tflops == sorted(tflops)


@pytest.mark.slow  # a property over random models and memories, each layout searched (~3 s CPU)
@settings(max_examples=30, deadline=None)
@given(
    params_b=st.floats(min_value=1, max_value=400),
    seq_len=st.sampled_from([2048, 4096, 8192, 32768]),
    hbm=st.floats(min_value=16, max_value=192),
    gain=st.floats(min_value=1.0, max_value=4.0),
    gpus=st.sampled_from([64, 256, 1024]),
)
def test_more_memory_never_removes_a_fitting_layout(
    params_b: float, seq_len: int, hbm: float, gain: float, gpus: int
) -> None:
    catalog = load_catalog()
    fabric = two_level_fabric(gpus=gpus, domain_gpus=8, scale_up_gbyte_per_s=450, network_gbyte_per_s=50)
    job = TrainingJob(params_b=params_b, tokens_b=100, seq_len=seq_len, global_batch_seqs=512)
    common = {"peak_flops": 989e12, "gpus": gpus, "hbm_gbyte_per_s": 3350,
              "coefficients": efficiency_coefficients(catalog)}  # fmt: skip
    try:
        small = best_layout(job, fabric, memory_bytes=hbm * 1e9, **common)  # type: ignore[arg-type]
    except InfeasibleError:
        return
    large = best_layout(job, fabric, memory_bytes=hbm * gain * 1e9, **common)  # type: ignore[arg-type]
    assert large[2] >= small[2]  # layouts fitting
    assert large[0].step.total_s <= small[0].step.total_s * (1 + 1e-12)


def _cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    code = run(argv)
    out, err = capsys.readouterr()
    assert (code, err) == (0, ""), err
    data = json.loads(out)
    assert isinstance(data, dict)
    return data


def test_hf_config_and_new_flags_reach_the_model(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = {
        "num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 32, "num_key_value_heads": 8,
        "intermediate_size": 14336, "vocab_size": 128256, "hidden_act": "silu",
    }  # fmt: skip
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config))
    base = ["workload", "--hf-config", str(path), "--tokens-b", "15000", "--gpus", "64", "--gpu", "h100_sxm",
            "--design", "ib-ndr", "--format", "json", "--seq-len", "8192"]  # fmt: skip
    data = _cli(base, capsys)
    model = data["model"]
    assert isinstance(model, dict)
    assert (model["layers"], model["kv_heads"], model["ffn_hidden"], model["vocab"]) == (32, 8, 14336, 128256)
    assert model["gated_mlp"] is True and model["params_b"] == pytest.approx(8.03, abs=0.01)
    for key in (
        "end_to_end_hfu",
        "achieved_hardware_tflops_per_gpu",
        "compute_efficiency",
        "memory_breakdown_gbyte",
    ):
        assert key in data, key
    pinned = _cli([*base, "--tp", "2", "--cp", "2", "--pp", "2", "--zero-stage", "3", "--recompute", "full",
                   "--micro-batch", "1", "--virtual-stages", "2"], capsys)  # fmt: skip
    layout = pinned["layout"]
    assert isinstance(layout, dict)
    assert (layout["tp"], layout["cp"], layout["pp"], layout["dp"]) == (2, 2, 2, 8)
    assert (layout["zero_stage"], layout["recompute"], layout["virtual_stages"]) == (3, "full", 2)
    steps = pinned["step_breakdown_s"]
    assert isinstance(steps, dict) and steps["cp_comm_s"] >= 0


def test_a_gpu_specific_rule_replaces_the_general_one(catalog: Catalog) -> None:
    general = catalog.sizing_rules["training_efficiency_max_fraction"]
    specific = general.model_copy(update={"id": "training_efficiency_max_fraction_h100_sxm", "value": 0.7})
    patched = dataclasses.replace(catalog, sizing_rules={**catalog.sizing_rules, specific.id: specific})
    assert efficiency_coefficients(patched, gpu_id="h100_sxm").max_fraction == 0.7
    assert efficiency_coefficients(patched, gpu_id="a100_sxm_80gb").max_fraction == general.value
    assert efficiency_coefficients(patched).max_fraction == general.value


def test_fp8_keeps_the_attention_core_at_bf16_and_pays_for_its_casts(catalog: Catalog) -> None:
    """FP8 doubles the peak of the projections and FFN only (training/schedule.py, efficiency.py):
    the step gains less than 2x, and the counted cast traffic lowers the efficiency. Compared on
    the curve alone: the catalog's H100 BF16 kernel-efficiency bound (no FP8 bound) is left out."""
    rules = {
        k: v for k, v in catalog.sizing_rules.items() if not k.startswith("training_kernel_efficiency_bound")
    }
    catalog = dataclasses.replace(catalog, sizing_rules=rules)
    job = TrainingJob(params_b=70, tokens_b=100, seq_len=8192, global_batch_seqs=128, tp=4, pp=8, dp=2,
                      micro_batch_seqs=1, virtual_stages=5, recompute="full", zero_stage=1)  # fmt: skip
    bf16 = estimate_workload(job=job, plan=_plan("ib-ndr", 64), catalog=catalog)
    fp8 = estimate_workload(
        job=job.model_copy(update={"precision": "fp8"}), plan=_plan("ib-ndr", 64), catalog=catalog
    )
    assert bf16.step.compute_s / 2 < fp8.step.compute_s < bf16.step.compute_s
    assert fp8.compute_efficiency < bf16.compute_efficiency
    # FP8 keeps 1-byte copies of the linear layers' inputs: less activation memory for the same layout
    assert fp8.memory.activations_bytes < bf16.memory.activations_bytes


QWEN3_235B_CONFIG = {  # Hugging Face config.json of Qwen3-235B-A22B (the fields read)
    "num_hidden_layers": 94, "hidden_size": 4096, "num_attention_heads": 64, "num_key_value_heads": 4,
    "head_dim": 128, "moe_intermediate_size": 1536, "num_experts": 128,
    "num_experts_per_tok": 8, "vocab_size": 151936, "hidden_act": "silu", "tie_word_embeddings": False,
}  # fmt: skip


def test_heads_wider_than_the_model_set_the_attention_sizes() -> None:
    f = job_fields_from_hf_config(QWEN3_235B_CONFIG)
    # 94 x (4096 x (8192 + 2 x 512) + 8192 x 4096 + 128 x 3 x 4096 x 1536) + 2 x 151936 x 4096
    # = 235.04e9 (the norms' few million not counted; the model card says 235B)
    assert f["head_dim"] == 128 and f["experts"] == 128 and round(f["params_b"], 2) == 235.04
    shape = model_shape(params_b=f["params_b"], layers=94, hidden_size=4096, heads=64, kv_heads=4, head_dim=128,
                        ffn_hidden=1536, gated_mlp=True, experts=128, top_k=8, vocab=151936)  # fmt: skip
    assert (shape.q_width, shape.kv_width) == (8192, 512)
    flops = token_flops(shape, seq_len=4096)
    # projections, 8 routed experts of 3 matrices, and the router's 4096 x 128 scores
    assert flops.layer_matmul == (
        2 * 4096 * (8192 + 1024) + 2 * 8192 * 4096 + 2 * 3 * 4096 * 1536 * 8 + 2 * 4096 * 128
    )
    assert flops.layer_attention == 4 * 4096 * 8192
    # the dense part (attention and embeddings) from the shape, not the 4 h^2 : 8 h^2 E rule:
    # 94 x 71.3M + 1.24G = 7.95G of 235.1G; active = dense + 8/128 of the experts = 22.2G (the A22B)
    assert shape.params_dense == pytest.approx(7.95e9, rel=0.01)
    assert shape.params_active == pytest.approx(22.2e9, rel=0.01)


def test_without_head_dim_the_heads_split_the_width_exactly() -> None:
    shape = model_shape(params_b=70)  # width 9064, 71 heads: not a whole number of columns each
    assert shape.q_width == shape.hidden_size == 9064 and shape.kv_width == 9064
