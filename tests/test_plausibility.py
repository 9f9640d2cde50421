"""No default training estimate above the best published MFU of its accelerator and precision
(issue 26, Deliver 3; docs/model.md, "Kernel-efficiency bound").

The sweep is what a user gets without layout flags: ``planner workload --gpus N --gpu G --params-b P
--precision X`` (the layout search's own choice), on the design that ships with each accelerator, for
every GPU and precision the catalog states a best published figure for
(``training_best_published_mfu_<gpu>_<precision>``).

Slack: an estimate may exceed the figure by the margin the H100 BF16 bound has over the run it is
fitted to, ``0.566 / 0.494 - 1 = 14.6 %`` (read from the catalog below, not typed in). That bound is
fitted so the H100's best run (16B GPT at TP 4, 49.4 % MFU) is met end to end; the run spends that
share of its step outside the bounded kernels (tensor-parallel traffic, bubble, optimizer), so a
default layout with none of it reaches at most the figure times 1.146. The same margin sets every
bound that is an assumption (docs/model.md). Mixture-of-experts jobs count model FLOPs with the
active parameters; no other slack is given to them.
"""

from __future__ import annotations

import functools

import pytest

from planner import Scenario, load_catalog, plan
from planner.engine import Plan
from planner.errors import InfeasibleError, InputError
from planner.inputs.training import TrainingJob
from planner.performance.training.efficiency import kernel_efficiency_bound, published_ceiling
from planner.performance.workload import estimate_workload
from planner.validation import load_cases
from planner.validation.run import _estimate

CATALOG = load_catalog()

DESIGNS = {
    "a100_sxm_80gb": "ib-hdr",
    "h100_sxm": "ib-ndr",
    "h200_sxm": "ib-ndr",
    "b200_hgx": "ib-ndr",
    "gb200": "gb200-nvl72-ib-ndr",
    "gb300": "gb300-nvl72-ib-xdr",
    "mi300x": "ib-ndr",
    "ascend_910c": "cloudmatrix384-roce",
    "br100": "rail8-npo",
}
"""Each accelerator with a best published figure, on the design it ships with (data/designs.yaml)."""

JOBS = (
    (7, 64, 1),
    (70, 64, 1),
    (405, 1024, 1),
    (70, 1024, 8),
)
"""(parameters [B], GPUs, experts): the defaults where the layout search has the least communication
to pay (64 GPUs) and a large job; the MoE one routes each token to 2 of 8 experts. 64 GPUs on a
design whose scale-up domain is larger (NVL72, CloudMatrix 384) run as a job on one domain."""

KNOWN: frozenset[tuple[str, str, int, int, int]] = frozenset()
"""Known exceedances beyond the slack: none. The last one, 70B FP8 on 64 H100 (49.3 % MFU), was
measured against NeMo 24.07's GPT-3 175B run (42.5 %); the same recipe ran 866 tokens/s per GPU in
NeMo 25.02 (47.1 %, the figure now held), and the model meets that row within 4 %
(nemo-2502-gpt3-175b-512gpu-h100-fp8). What puts the default above the calibration run (39.0 %) is
counted, not a missing term: its step spends 6 % in tensor-parallel traffic at TP 2 against 14 % at
TP 4, 0.3 % in the bubble with 128 micro-batches against 2 %, and its attention core (run at the
BF16 rate) is 7.0 % of its layer FLOPs at 4,096 tokens against 13.6 % at 8,192 (docs/model.md,
"Kernel-efficiency bound"). Strict: a new exceedance makes this test fail until it is explained."""


def _slack() -> float:
    """The H100 BF16 bound's margin over its best published run [-]."""
    bound = kernel_efficiency_bound(CATALOG, gpu_id="h100_sxm", precision="bf16")
    best = published_ceiling(CATALOG, gpu_id="h100_sxm", precision="bf16")
    assert bound is not None and best is not None
    return bound.mfu / best.mfu - 1.0


@functools.cache
def _plan(gpu_id: str, gpus: int) -> tuple[Plan, int | None]:
    """The plan a user gets for ``gpus`` GPUs, and the job's GPU count when the plan is larger."""
    try:
        return plan(
            scenario=Scenario(gpus=gpus, design_id=DESIGNS[gpu_id], gpu_id=gpu_id), catalog=CATALOG
        ), None
    except InputError:  # a scale-up domain larger than the job: the job runs on part of one domain
        domain = plan(scenario=Scenario(gpus=1024, design_id=DESIGNS[gpu_id], gpu_id=gpu_id), catalog=CATALOG)
        return domain, gpus


def _mfu(gpu_id: str, precision: str, params_b: int, gpus: int, experts: int) -> float | None:
    """The default estimate's end-to-end MFU, or ``None`` where no layout fits in memory."""
    p, job_gpus = _plan(gpu_id, gpus)
    moe = {"experts": experts, "top_k": 2} if experts > 1 else {}
    job = TrainingJob(params_b=params_b, tokens_b=100, precision=precision, job_gpus=job_gpus, **moe)
    try:
        return estimate_workload(job=job, plan=p, catalog=CATALOG).end_to_end_mfu
    except InfeasibleError:  # e.g. 405B on 64 A100: no layout fits in memory
        return None


def test_the_slack_is_the_h100_bf16_bounds_margin() -> None:
    # 0.566 / 0.494 - 1 (data/training.yaml): fitted, so it moves only with that fit
    assert _slack() == pytest.approx(0.146, abs=2e-3)


def test_every_bound_stated_as_an_assumption_keeps_the_slack() -> None:
    """Where no run calibrates a bound it is the figure plus the slack (rounded to 0.1 point)."""
    for gpu_id in DESIGNS:
        for precision in ("bf16", "fp8"):
            bound = kernel_efficiency_bound(CATALOG, gpu_id=gpu_id, precision=precision)
            best = published_ceiling(CATALOG, gpu_id=gpu_id, precision=precision)
            if bound is not None and bound.assumption and best is not None:
                assert bound.mfu <= best.mfu * (1 + _slack()) + 1e-3, (gpu_id, precision)


def test_no_default_estimate_is_above_the_best_published_mfu_beyond_the_slack() -> None:
    slack = _slack()
    above, checked = {}, 0
    for gpu_id in DESIGNS:
        for precision in ("bf16", "fp8"):
            best = published_ceiling(CATALOG, gpu_id=gpu_id, precision=precision)
            if best is None:  # GB300 BF16: no figure stated (its only BF16 runs are MoE rows)
                continue
            for params_b, gpus, experts in JOBS:
                mfu = _mfu(gpu_id, precision, params_b, gpus, experts)
                if mfu is None:
                    continue
                checked += 1
                if mfu > best.mfu * (1 + slack):
                    above[(gpu_id, precision, params_b, gpus, experts)] = round(mfu, 3)
    assert checked >= 60, checked  # most of the 9 x 2 x 4 grid fits in memory
    assert set(above) == KNOWN, f"above the best published MFU x {1 + slack:.3f}: {above}"


QUANTITY_FIELD = {
    "tokens_per_s": "tokens_per_s",
    "achieved_tflops_per_gpu": "achieved_tflops_per_gpu",
    "model_flops_utilization": "end_to_end_mfu",
}
"""Estimate field of each training quantity a case may publish (all proportional to the MFU)."""


def test_no_case_publishes_a_higher_mfu_than_the_best_published_figure() -> None:
    """The figure is the best the suite knows of: a dense training case's published MFU (its
    throughput times the estimate's own FLOP count, the way the figure is stated) never exceeds the
    catalog's figure for its GPU and precision, beyond the figure's rounding to 0.1 point. NeMo 25.02's
    GPT-3 175B row (47.1 %) is the H100 FP8 figure; before, NeMo 24.07's run of the same recipe
    (42.5 %) was, and a default at 49.3 % looked 16 % above any Hopper FP8 run."""
    above, checked = [], 0
    for case in load_cases():
        inputs = case.inputs
        if case.area != "training" or case.quantity not in QUANTITY_FIELD or not inputs.gpu_id:
            continue
        if (inputs.experts or 1) > 1 or not isinstance(case.published, int | float):
            continue  # MoE rows count active parameters; ranges are not one figure
        precision = "fp8" if inputs.precision == "fp8" else "bf16"
        best = published_ceiling(CATALOG, gpu_id=inputs.gpu_id, precision=precision)
        if best is None:
            continue
        estimate, _ = _estimate(case, CATALOG, stand_in=False)
        predicted = float(getattr(estimate, QUANTITY_FIELD[case.quantity]))
        mfu = estimate.end_to_end_mfu * float(case.published) / predicted
        checked += 1
        if mfu > best.mfu + 5e-4:
            above.append((case.id, round(mfu, 3), best.mfu))
    assert checked >= 70, checked  # the dense H100, A100, B200, GB200 and GB300 rows
    assert not above, above


def test_the_h100_fp8_figure_is_the_nemo_25_02_gpt3_row() -> None:
    # 866 tokens/s per GPU x 1.0764e12 FLOP per token (96 layers, h 12288, s 2048, V 50304:
    # 3 x (96 x (24 h^2 + 4 s h) + 2 h V)) / 1979e12 FLOP/s = 0.4710
    best = published_ceiling(CATALOG, gpu_id="h100_sxm", precision="fp8")
    assert best is not None and best.mfu == pytest.approx(866 * 1.0764e12 / 1979e12, abs=5e-4)
