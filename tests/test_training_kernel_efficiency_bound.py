"""The bound on the training estimate's end-to-end MFU (planner/performance/training/efficiency.py,
``kernel_efficiency_bound``; docs/model.md, "MFU bound")."""

from __future__ import annotations

import pytest

from planner import Catalog, Scenario, plan
from planner.inputs.training import TrainingJob
from planner.performance.collectives import two_level_fabric
from planner.performance.training.efficiency import efficiency_coefficients, kernel_efficiency_bound
from planner.performance.training.memory import Parallel
from planner.performance.training.schedule import StepModel
from planner.performance.training.shape import model_shape
from planner.performance.workload import estimate_workload

H100_BF16_PEAK = 989.4e12
"""Dense BF16 peak of an H100 SXM [FLOP/s] (data/gpus.yaml)."""


SHAPE = model_shape(params_b=7.1, layers=30, hidden_size=4096, heads=32)
"""The Megatron-LM README table's 7.1B GPT."""


def _step_model(catalog: Catalog, *, bound: float | None, fixed: float | None = None) -> StepModel:
    shape = SHAPE
    job = TrainingJob(params_b=7.1, tokens_b=1, seq_len=4096, global_batch_seqs=8)
    fabric = two_level_fabric(gpus=8, domain_gpus=8, scale_up_gbyte_per_s=450, network_gbyte_per_s=50)
    return StepModel(
        job=job, shape=shape, fabric=fabric, peak_flops=H100_BF16_PEAK, efficiency=fixed,
        coefficients=efficiency_coefficients(catalog, gpu_id="h100_sxm", precision="bf16"),
        hbm_byte_per_s=3.35e12, kernel_efficiency_bound=bound,
    )  # fmt: skip


LAYOUT = Parallel(tp=2, cp=1, pp=1, dp=4, ep=1, v=1, micro_batch_seqs=1, micro_batches=2)


def test_the_kernels_never_run_above_the_bound(catalog: Catalog) -> None:
    free = _step_model(catalog, bound=None).step(LAYOUT, "none", 1)
    # the 7.1B model at TP 2 on one H100 node: the curve's kernels run above 40 % of peak
    assert free.efficiency > 0.40 and free.bounded_s == 0.0
    bounded = _step_model(catalog, bound=0.40).step(LAYOUT, "none", 1)
    # compute x eta / 0.40; communication is counted on top, unchanged (a fabric still shows)
    assert bounded.step.compute_s == pytest.approx(free.step.compute_s * free.efficiency / 0.40)
    assert bounded.efficiency == 0.40, "the estimate reports the efficiency its kernels run at"
    assert bounded.step.tp_comm_s == free.step.tp_comm_s
    assert bounded.step.dp_comm_s <= free.step.dp_comm_s, "a longer backward hides more"
    # no bubble at PP 1: the added time is the compute's
    assert bounded.bounded_s == pytest.approx(bounded.step.compute_s - free.step.compute_s)


def test_a_bound_above_the_estimate_and_a_fixed_mfu_change_nothing(catalog: Catalog) -> None:
    free = _step_model(catalog, bound=None).step(LAYOUT, "none", 1)
    assert _step_model(catalog, bound=0.99).step(LAYOUT, "none", 1).step == free.step
    fixed = _step_model(catalog, bound=None, fixed=0.7).step(LAYOUT, "none", 1)
    # the user's own efficiency is never bounded
    assert _step_model(catalog, bound=0.1, fixed=0.7).step(LAYOUT, "none", 1).step == fixed.step


def test_the_catalog_bounds_are_calibrated_where_a_run_exists(catalog: Catalog) -> None:
    h100 = kernel_efficiency_bound(catalog, gpu_id="h100_sxm", precision="bf16")
    assert h100 is not None and not h100.assumption
    # fitted (bench/fit_training_efficiency.py) so the Megatron-LM table's 16B row, 489.1 TFLOP/s
    # per GPU, is met end to end: a kernel efficiency above that run's 49.4 % MFU
    assert h100.mfu == pytest.approx(0.566, abs=5e-4)
    # H100 and B200 FP8: the kernel efficiency of the calibration run that also fits the GPU's curve
    # (Llama 3 70B on 64 H100, Llama 3 8B on 8 B200), rounded up so the run is not slowed
    for gpu_id, value in (("h100_sxm", 0.575), ("b200_hgx", 0.485)):
        fp8 = kernel_efficiency_bound(catalog, gpu_id=gpu_id, precision="fp8")
        assert fp8 is not None and not fp8.assumption and fp8.mfu == pytest.approx(value, abs=5e-4), gpu_id
    # the A100's best published figure (FlashAttention-2, 72.1 %) is above every default; GB200 and
    # GB300 FP8's best runs are validation cases the curve meets from below: no bound
    for gpu_id, precision in (("a100_sxm_80gb", "bf16"), ("gb200", "fp8"), ("gb300", "fp8")):
        assert kernel_efficiency_bound(catalog, gpu_id=gpu_id, precision=precision) is None


def test_the_default_70b_job_on_1024_h100_comes_near_the_best_published_mfu(catalog: Catalog) -> None:
    """The defect issue 26 names: the search's TP 2 layout estimated 57.8 % MFU against 49.4 %.
    Bounded, the estimate comes within 5 % of the record (49.5-50.6 % today: the bound is fitted to
    the record's TP 4 layout, whose tensor-parallel traffic the model counts exposed, and TP 2 has
    less of it; the plausibility note still names the record), and the designs keep what their
    fabrics add."""
    steps = {}
    for design in ("rail4-npo", "rail8-npo", "ib-ndr"):
        p = plan(scenario=Scenario(gpus=1024, design_id=design, gpu_id="h100_sxm"), catalog=catalog)
        e = estimate_workload(job=TrainingJob(params_b=70, tokens_b=1400), plan=p, catalog=catalog)
        assert 0.40 < e.end_to_end_mfu < 0.494 * 1.05, design
        assert any("kernel efficiency" in n for n in e.notes), design
        if e.end_to_end_mfu > 0.494:
            assert any("above the best published" in n for n in e.notes), design
        steps[design] = e.step_time_s
    assert len(set(steps.values())) == 3, f"the designs must not tie at the bound: {steps}"
