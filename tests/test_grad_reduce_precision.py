"""Data-parallel gradient reduction precision (``grad_reduce_precision``): bytes on the wire and in memory.

Megatron-LM reduces bf16 runs' gradients in fp32 unless ``--grad-reduce-in-bf16``
(``megatron/training/arguments.py``); Megatron-Bridge's performance recipes set
``ddp.grad_reduce_in_fp32 = False``. The goldens below are ratios of the ring bandwidth terms.
"""

from __future__ import annotations

import pytest

from planner import Catalog
from planner.errors import InputError
from planner.inputs.training import TrainingJob, training_job
from planner.performance.collectives import two_level_fabric
from planner.performance.training.efficiency import EfficiencyCoefficients, efficiency_coefficients
from planner.performance.training.memory import GRADIENT_BYTES_OF, Parallel, ZeroStage, state_bytes
from planner.performance.training.schedule import StepModel
from planner.performance.training.shape import ModelShape, model_shape
from planner.validation import load_cases

# a 70B dense model, TP 8 inside one 8-GPU domain, DP 16 over the network: one GPU of each
# data-parallel group per domain, so the gradient reduction is a 16-GPU ring on the 50 GB/s network
SHAPE_ARGS = {
    "params_b": 70,
    "layers": 80,
    "hidden_size": 8192,
    "heads": 64,
    "kv_heads": 8,
    "ffn_hidden": 28672,
}
LAY = Parallel(tp=8, cp=1, pp=1, dp=16, ep=1, v=1, micro_batch_seqs=1, micro_batches=8)


def _shape() -> ModelShape:
    return model_shape(**SHAPE_ARGS, gated_mlp=True)


def _dp_s(precision: str, zero: ZeroStage, coefficients: EfficiencyCoefficients) -> float:
    job = TrainingJob(**SHAPE_ARGS, gated_mlp=True, tokens_b=1, seq_len=4096, global_batch_seqs=128,
                      grad_reduce_precision=precision)  # fmt: skip
    fabric = two_level_fabric(gpus=128, domain_gpus=8, scale_up_gbyte_per_s=450, network_gbyte_per_s=50)
    model = StepModel(job=job, shape=_shape(), fabric=fabric, peak_flops=989e12, efficiency=None,
                      coefficients=coefficients, hbm_byte_per_s=3.35e12)  # fmt: skip
    return model._dp_s(LAY, zero)[0]


@pytest.fixture(name="coefficients")
def _coefficients(catalog: Catalog) -> EfficiencyCoefficients:
    return efficiency_coefficients(catalog)


def test_fp32_doubles_the_all_reduce_without_the_distributed_optimizer(
    coefficients: EfficiencyCoefficients,
) -> None:
    # ZeRO 0: one all-reduce of the gradient buffer, 2(n-1)/n S / B with S = 4 P instead of 2 P;
    # P = 70e9 / 8 parameters per GPU, so the bandwidth term is 1.875 x 17.5 GB / 50 GB/s = 0.66 s
    # against about 150 us of ring latency: the time doubles to within 1e-3
    bf16, fp32 = _dp_s("bf16", 0, coefficients), _dp_s("fp32", 0, coefficients)
    assert bf16 == pytest.approx(1.875 * 2 * _shape().params_dense / 8 / 50e9, rel=1e-3)
    assert fp32 / bf16 == pytest.approx(2.0, rel=1e-3)


def test_fp32_adds_half_under_the_distributed_optimizer(coefficients: EfficiencyCoefficients) -> None:
    # ZeRO 1: fp32 gradients reduce-scattered (4 P) and bf16 parameters all-gathered (2 P):
    # (n-1)/n (4 P + 2 P) against the bf16 all-reduce's 2(n-1)/n 2 P, a ratio of 6 / 4 = 1.5
    bf16, fp32 = _dp_s("bf16", 1, coefficients), _dp_s("fp32", 1, coefficients)
    assert fp32 / bf16 == pytest.approx(1.5, rel=1e-3)


def test_fp32_gradient_buffers_take_four_bytes() -> None:
    # ZeRO 1 keeps the whole gradient buffer: 2 B per parameter in bf16, 4 B in fp32
    # (Megatron-Core param_and_grad_buffer.py: grad_dtype torch.float when grad_reduce_in_fp32)
    shape = _shape()
    _, bf16, _ = state_bytes(shape, LAY, 1, gradient_bytes=GRADIENT_BYTES_OF["bf16"])
    _, fp32, _ = state_bytes(shape, LAY, 1, gradient_bytes=GRADIENT_BYTES_OF["fp32"])
    assert bf16 == pytest.approx(2 * shape.params_dense / 8)
    assert fp32 == pytest.approx(2 * bf16)


def test_default_is_bf16_and_bad_values_name_the_field() -> None:
    assert TrainingJob(params_b=7, tokens_b=1).grad_reduce_precision == "bf16"
    with pytest.raises(InputError, match="grad_reduce_precision"):
        training_job({"params_b": 7, "tokens_b": 1, "grad_reduce_precision": "fp16"})


def test_megatron_bridge_cases_state_their_recipe_precision() -> None:
    # every Megatron-Bridge performance-table case states bf16 and cites the recipe line
    cases = [c for c in load_cases() if c.id.startswith("megatron-bridge")]
    assert len(cases) >= 50
    for case in cases:
        assert case.inputs.grad_reduce_precision == "bf16", case.id
        assert "grad_reduce_in_fp32" in case.notes, case.id
