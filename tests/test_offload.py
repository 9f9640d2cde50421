"""Activation offloading to host memory and distributed checkpoints: two memory options a recipe
states (docs/model.md, "Activation offloading to host memory" and "Distributed checkpoints").

Goldens carry their derivation; the shape is Megatron-LM SC21's 22B model (48 layers, h 6144,
a 64), s = 2048, b = 1, t = 8, whose per-layer activations Korthikanti et al. (arXiv 2205.05198)
give as 34 s b h / t + 5 a s^2 b / t (eq. 2, dropout on, sequence parallelism on).
"""

from __future__ import annotations

import pytest

from planner import load_catalog
from planner.catalog.schema import host_link_byte_per_s
from planner.cli import run
from planner.errors import InputError
from planner.inputs.training import TrainingJob, training_job
from planner.performance.collectives import two_level_fabric
from planner.performance.training.efficiency import efficiency_coefficients
from planner.performance.training.memory import Parallel, activation_and_buffer_bytes, memory_breakdown
from planner.performance.training.schedule import StepModel
from planner.performance.training.search import structures
from planner.performance.training.shape import model_shape

SHAPE = model_shape(params_b=22, layers=48, hidden_size=6144, heads=64)
LAY = Parallel(tp=8, cp=1, pp=1, dp=1, ep=1, v=1, micro_batch_seqs=1, micro_batches=1)
LAYER_BYTES = (34 * 2048 * 6144 + 5 * 64 * 2048**2) / 8
"""(427,819,008 + 1,342,177,280) / 8 = 221,249,536 B, Korthikanti eq. 2 over t = 8."""


def test_offloaded_layers_leave_the_gpu() -> None:
    act, _ = activation_and_buffer_bytes(
        SHAPE, LAY, seq_len=2048, recompute="none", dropout=True, offload_layers=16
    )
    # 48 - 16 = 32 layers stay at the backward's start: 32 x 221,249,536 = 7,079,985,152 B
    assert LAYER_BYTES == 221_249_536
    assert act == pytest.approx(7_079_985_152)
    whole, _ = activation_and_buffer_bytes(SHAPE, LAY, seq_len=2048, recompute="none", dropout=True)
    assert whole - act == pytest.approx(16 * LAYER_BYTES)


def test_distributed_checkpoints_split_the_kept_input() -> None:
    kwargs = {"seq_len": 2048, "recompute": "full", "zero": 1, "dropout": True, "sequence_parallel": False}
    kept = memory_breakdown(SHAPE, LAY, **kwargs)  # type: ignore[arg-type]
    split = memory_breakdown(SHAPE, LAY, distribute_saved=True, **kwargs)  # type: ignore[arg-type]
    # 48 inputs of 2 s b h = 25,165,824 B each, whole without sequence parallelism, then / 8:
    # 48 x 25,165,824 x 7 / 8 = 1,056,964,608 B fewer
    assert kept.activations_bytes - split.activations_bytes == pytest.approx(1_056_964_608)


def _model(job: TrainingJob, host_byte_per_s: float) -> StepModel:
    fabric = two_level_fabric(gpus=8, domain_gpus=8, scale_up_gbyte_per_s=300, network_gbyte_per_s=25)
    return StepModel(
        job=job, shape=SHAPE, fabric=fabric, peak_flops=312e12, efficiency=0.5,
        coefficients=efficiency_coefficients(load_catalog()), hbm_byte_per_s=2039e9,
        host_byte_per_s=host_byte_per_s,
    )  # fmt: skip


def _job(**update: object) -> TrainingJob:
    data = {"params_b": 22, "tokens_b": 1, "layers": 48, "hidden_size": 6144, "heads": 64, "seq_len": 2048,
            "global_batch_seqs": 1, "dropout": True, "attention_kernel": "materialized", "tp": 8, "pp": 1,
            "dp": 1}  # fmt: skip
    return training_job({**data, **update})


def test_host_copies_are_charged_only_beyond_a_layer_pass() -> None:
    job = _job(offload_activation_layers=16)
    slow = _model(job, host_byte_per_s=1e9)
    compute_s, _ = slow.compute_micro_s(LAY, "none")
    forward_s = compute_s / (48 * 3)  # one layer's forward, a third of its compute
    copy_s = LAYER_BYTES / 1e9  # 0.221 s at 1 GB/s
    expected = 16 * ((copy_s - forward_s) + (copy_s - 2 * forward_s))
    assert copy_s > 2 * forward_s  # the link is the bottleneck: both directions exposed
    assert slow.step(LAY, "none", 1).step.host_offload_s == pytest.approx(expected)
    # NVLink-C2C (450 GB/s): 0.49 ms per copy hides under the layer's pass
    assert _model(job, host_byte_per_s=450e9).step(LAY, "none", 1).step.host_offload_s == 0.0
    # nothing offloaded, nothing charged
    assert _model(_job(), host_byte_per_s=1e9).step(LAY, "none", 1).step.host_offload_s == 0.0


def test_distributed_checkpoints_gather_before_recomputing() -> None:
    plain = _job(recompute="full", sequence_parallel=False)
    split = _job(recompute="full", sequence_parallel=False, distribute_saved_activations=True)
    extra = (
        _model(split, 64e9).step(LAY, "full", 1).step.tp_comm_s
        - _model(plain, 64e9).step(LAY, "full", 1).step.tp_comm_s
    )
    gather, _ = _model(split, 64e9)._collective("all_gather", 2048 * 6144 * 2.0, 8, 8)
    assert extra == pytest.approx(48 * gather) and extra > 0  # one all-gather per recomputed layer


def test_host_link_from_the_catalog() -> None:
    gpus = load_catalog().gpus
    assert host_link_byte_per_s(gpus["gb200"]) == 450e9  # NVLink-C2C, 900 GB/s both ways
    assert host_link_byte_per_s(gpus["a100_sxm_80gb"]) == 32e9  # PCIe Gen4 x16
    assert host_link_byte_per_s(gpus["h100_sxm"]) == 64e9  # no record: PCIe Gen5 x16


def test_offloading_is_searched_on_one_stage_only() -> None:
    job = _job(offload_activation_layers=4, tp=None, pp=None, dp=None, global_batch_seqs=64)
    assert {pp for _, _, pp, _, _ in structures(job, SHAPE, 64, 8)} == {1}
    # a job that does not state it is never offloaded: pipeline layouts stay open
    assert max(pp for _, _, pp, _, _ in structures(_job(tp=None, pp=None, dp=None), SHAPE, 64, 8)) > 1


@pytest.mark.parametrize(
    ("update", "field"),
    [
        ({"offload_activation_layers": 4, "pp": 2}, "offload_activation_layers"),
        ({"offload_activation_layers": 48}, "offload_activation_layers"),
        ({"offload_activation_layers": 4, "recompute": "block"}, "offload_activation_layers"),
        ({"distribute_saved_activations": True, "recompute": "full"}, "distribute_saved_activations"),
        ({"distribute_saved_activations": True, "sequence_parallel": False}, "distribute_saved_activations"),
    ],
)
def test_combinations_the_frameworks_refuse(update: dict[str, object], field: str) -> None:
    with pytest.raises(InputError, match=field):
        _job(**update)


def test_cli_flags_come_from_the_inputs(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["workload", "--help"]) == 0
    out = capsys.readouterr().out
    assert "--offload-activation-layers" in out and "--distribute-saved-activations" in out
    args = ["workload", "--gpus", "64", "--params-b", "70", "--tokens-b", "1", "--pp", "2"]
    code = run([*args, "--offload-activation-layers", "4"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "offload_activation_layers" in err[0]
