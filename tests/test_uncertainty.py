"""Tornado and Monte Carlo: directions, exact linear price response, seeding, degenerate cases."""

from __future__ import annotations

import pytest

from planner import Catalog, Scenario, plan
from planner.errors import InputError
from planner.inputs.training import TrainingJob
from planner.performance.uncertainty import (
    OUTPUTS,
    PRICE_INPUTS,
    TORNADO_INPUTS,
    MonteCarloSpec,
    monte_carlo,
    monte_carlo_spec,
    priced_scenario,
    tornado,
)
from planner.units import present_value_factor

JOB = TrainingJob(params_b=70, tokens_b=1400)
SCENARIO = Scenario(gpus=1024, design_id="ib-ndr", gpu_id="h100_sxm")


def _row(frame, name: str, output: str):  # type: ignore[no-untyped-def]
    return frame[(frame["input"] == name) & (frame["output"] == output)].iloc[0]


def test_tornado_directions(catalog: Catalog) -> None:
    frame = tornado(job=JOB, scenario=SCENARIO, catalog=catalog)
    assert len(frame) == len(TORNADO_INPUTS) * len(OUTPUTS)
    base_tco = plan(scenario=SCENARIO, catalog=catalog).cost.tco_usd
    for name in (*PRICE_INPUTS, "electricity_price"):
        row = _row(frame, name, "tco_usd")
        assert row["low"] < row["base"] < row["high"]
        assert row["base"] == pytest.approx(base_tco)
        # TCO is linear in prices: +20 % and -20 % move it by the same amount
        assert row["high"] - row["base"] == pytest.approx(row["base"] - row["low"], rel=1e-9)
        assert _row(frame, name, "time_to_train_days")["swing"] == 0
    for name in ("mfu", "network_bandwidth", "failure_rate"):
        assert _row(frame, name, "tco_usd")["swing"] == 0
    # faster compute and more bandwidth shorten training; more failures lengthen it
    assert _row(frame, "mfu", "time_to_train_days")["high"] < _row(frame, "mfu", "time_to_train_days")["low"]
    bw = _row(frame, "network_bandwidth", "time_to_train_days")
    assert bw["high"] < bw["base"] < bw["low"]
    fr = _row(frame, "failure_rate", "time_to_train_days")
    assert fr["low"] < fr["base"] < fr["high"]
    # sorted by swing within each output: the GPU price leads the TCO tornado
    tco = frame[frame["output"] == "tco_usd"]
    assert tco.iloc[0]["input"] == "gpu_price"
    assert list(tco["swing"]) == sorted(tco["swing"], reverse=True)


def test_gpu_price_swing_golden(catalog: Catalog) -> None:
    # GPUs are 1024 x 27,500 USD of hardware; installation and spares add their fractions and
    # maintenance a yearly fraction, so the TCO slope is the GPU line x (1 + inst + spares)
    # x (1 + maintenance x PV factor); +-20 % gives 0.4 x that.
    p = plan(scenario=SCENARIO, catalog=catalog)
    f = catalog.cost_factors
    pv = present_value_factor(rate=SCENARIO.facility.discount_rate, years=SCENARIO.facility.years)
    gpu_line = 1024 * 27_500
    slope = gpu_line * (1 + f["installation_fraction"].value + f["spares_fraction"].value)
    slope += gpu_line * f["maintenance_fraction_per_year"].value * pv
    frame = tornado(job=JOB, scenario=SCENARIO, catalog=catalog, inputs=["gpu_price"])
    assert _row(frame, "gpu_price", "tco_usd")["swing"] == pytest.approx(0.4 * slope, rel=1e-9)
    assert p.cost.tco_usd > slope


def test_linear_price_response_is_exact(catalog: Catalog) -> None:
    # The Monte Carlo's shortcut: y(f) = y0 + sum (f_i - 1) dy_i, dy_i from doubling one input.
    base = plan(scenario=SCENARIO, catalog=catalog)
    factors = {"gpu_price": 0.83, "server_price": 1.17, "switch_price": 0.91, "optics_price": 1.3,
               "electricity_price": 1.25}  # fmt: skip
    direct = plan(scenario=priced_scenario(base, catalog, factors), catalog=catalog)
    predicted_tco, predicted_hour = base.cost.tco_usd, base.cost.usd_per_gpu_hour
    for name, factor in factors.items():
        doubled = plan(scenario=priced_scenario(base, catalog, {name: 2.0}), catalog=catalog)
        predicted_tco += (factor - 1) * (doubled.cost.tco_usd - base.cost.tco_usd)
        predicted_hour += (factor - 1) * (doubled.cost.usd_per_gpu_hour - base.cost.usd_per_gpu_hour)
    assert direct.cost.tco_usd == pytest.approx(predicted_tco, rel=1e-9)
    assert direct.cost.usd_per_gpu_hour == pytest.approx(predicted_hour, rel=1e-9)


def test_monte_carlo_is_seedable_and_ordered(catalog: Catalog) -> None:
    spec = MonteCarloSpec(samples=500, seed=7)
    a = monte_carlo(job=JOB, scenario=SCENARIO, catalog=catalog, spec=spec)
    b = monte_carlo(job=JOB, scenario=SCENARIO, catalog=catalog, spec=spec)
    c = monte_carlo(job=JOB, scenario=SCENARIO, catalog=catalog, spec=spec.model_copy(update={"seed": 8}))
    assert a.percentiles == b.percentiles
    assert a.percentiles != c.percentiles
    assert len(a.samples) == 500
    for output in OUTPUTS:
        p = a.percentile(output)
        assert p.p10 <= p.p50 <= p.p90
        assert p.p10 < p.base < p.p90
    # symmetric price factors: the TCO median sits near the base (within 2 %)
    assert a.percentile("tco_usd").p50 == pytest.approx(a.percentile("tco_usd").base, rel=0.02)
    # a lognormal failure factor with median 1 keeps the median time at the base
    assert a.percentile("time_to_train_days").p50 == pytest.approx(
        a.percentile("time_to_train_days").base, rel=0.01
    )


def test_monte_carlo_without_spread_is_the_base(catalog: Catalog) -> None:
    spec = MonteCarloSpec(
        samples=100, price_spread_fraction=0, electricity_spread_fraction=0, failure_rate_sigma=0
    )
    result = monte_carlo(job=JOB, scenario=SCENARIO, catalog=catalog, spec=spec)
    for output in OUTPUTS:
        p = result.percentile(output)
        assert p.p10 == pytest.approx(p.base) and p.p90 == pytest.approx(p.base)


def test_bad_uncertainty_inputs(catalog: Catalog) -> None:
    with pytest.raises(InputError, match=r"^swing_fraction"):
        tornado(job=JOB, scenario=SCENARIO, catalog=catalog, swing_fraction=1.5)
    with pytest.raises(InputError, match=r"^inputs: unknown 'gpu_cost'"):
        tornado(job=JOB, scenario=SCENARIO, catalog=catalog, inputs=["gpu_cost"])  # type: ignore[list-item]
    with pytest.raises(InputError, match=r"samples: .*allowed: 100 to 200000"):
        monte_carlo_spec({"samples": 5})
