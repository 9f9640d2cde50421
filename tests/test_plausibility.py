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

KNOWN = frozenset({("h100_sxm", "fp8", 70, 64, 1)})
"""Known exceedances beyond the slack: the H100 FP8 bound is the kernel efficiency
of its calibration run (Llama 3 70B at TP 4 PP 8, 0.575), which spends 32 % of its step outside the
kernels; the search's TP 2 PP 4 layout spends 14 % and reaches 49.3 % against the best published
42.5 % (+16 %). A lower bound would slow the calibration run itself; what the search's layout
lacks is not modelled (docs/model.md). Strict: a fix makes this test fail until the entry goes."""


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
