"""The price Monte Carlo as a grid setting (``uncertainty: {samples, seed}`` in
``planner sweep --grid``): P10/P50/P90 columns equal to ``planner workload --monte-carlo``'s for
the same scenario, seed and spreads; bad settings exit 2 naming the field."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
import yaml

from planner import Catalog, Scenario, plan
from planner.cli import run
from planner.errors import InputError
from planner.inputs.training import TrainingJob
from planner.performance.uncertainty import MonteCarloSpec, monte_carlo
from planner.sweep import SweepJob, grid_from_data, point_row
from planner.sweep.results import KEY_METRICS, read_sweep

COLUMNS = [f"cost.{name}.p{q}" for name in ("tco_usd", "usd_per_gpu_hour") for q in (10, 50, 90)]


def job_of(data: dict[str, Any], catalog: Catalog, base: Scenario | None = None) -> SweepJob:
    base = base or Scenario()
    grid = grid_from_data(data, base=base, catalog=catalog)
    return SweepJob(grid=grid, base=base.model_dump(), catalog=catalog)


def test_percentiles_equal_the_workload_monte_carlo(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Same sampler, same seed, same linear response: the sweep's P10/P50/P90 of TCO and cost per
    GPU-hour are the Monte Carlo's own figures for that scenario (the training job only adds the
    time-to-train output, which a sweep does not have), on the plan a sweep prices: cables at the
    scenario's one length per link class (docs: sweeps do not lay cables out), where
    ``planner workload`` prices the laid-out lengths (0.16 % apart at 1,024 GPUs on ib-ndr)."""
    import planner.performance.uncertainty as uncertainty

    def one_length_plan(*, scenario: Scenario, catalog: Catalog) -> Any:
        return plan(scenario=scenario, catalog=catalog, layout_cable_lengths=False)

    monkeypatch.setattr(uncertainty, "plan", one_length_plan)
    spec = {"samples": 700, "seed": 11, "price_spread_fraction": 0.25}
    job = job_of({"gpus": [1024], "design_id": ["ib-ndr"], "uncertainty": spec}, catalog)
    row = point_row(job, 0)
    assert not row["error"]
    scenario = Scenario(gpus=1024, design_id="ib-ndr")
    # no failure-rate spread: time to train is then the base, so cost to train = GPUs x days x 24 x
    # cost per GPU-hour, sample by sample, and its percentiles give the cost per GPU-hour's
    reference = monte_carlo(
        job=TrainingJob(params_b=70, tokens_b=1400),
        scenario=scenario,
        catalog=catalog,
        spec=MonteCarloSpec(**spec, failure_rate_sigma=0),
    )
    tco = reference.percentile("tco_usd")
    assert [row[f"cost.tco_usd.p{q}"] for q in (10, 50, 90)] == pytest.approx(
        [tco.p10, tco.p50, tco.p90], rel=1e-12
    )
    to_train = reference.percentile("cost_to_train_usd")
    gpu_hours = 1024 * reference.percentile("time_to_train_days").base * 24.0
    assert [row[f"cost.usd_per_gpu_hour.p{q}"] for q in (10, 50, 90)] == pytest.approx(
        [to_train.p10 / gpu_hours, to_train.p50 / gpu_hours, to_train.p90 / gpu_hours], rel=1e-9
    )
    for column in ("cost.tco_usd", "cost.usd_per_gpu_hour"):
        assert row[f"{column}.p10"] < row[column] < row[f"{column}.p90"]  # the plan's own figure inside


def test_the_same_samples_at_every_point_and_no_spread_is_the_base(catalog: Catalog) -> None:
    flat = {"samples": 100, "seed": 3, "price_spread_fraction": 0, "electricity_spread_fraction": 0}
    job = job_of({"gpus": [64, 128], "uncertainty": flat}, catalog)
    for index in range(2):
        row = point_row(job, index)
        assert [row[f"cost.tco_usd.p{q}"] for q in (10, 50, 90)] == pytest.approx([row["cost.tco_usd"]] * 3)
    # one seed for every point: two points that plan alike get identical percentiles
    same = job_of({"gpus": [64, 64], "uncertainty": {"samples": 200, "seed": 5}}, catalog)
    first, second = point_row(same, 0), point_row(same, 1)
    assert [first[c] for c in COLUMNS] == [second[c] for c in COLUMNS]


def test_without_uncertainty_there_are_no_percentile_columns(catalog: Catalog) -> None:
    row = point_row(job_of({"gpus": [64]}, catalog), 0)
    assert not [c for c in row if c.endswith((".p10", ".p50", ".p90"))]
    # plan --format json rounds money to the cent; a sweep prices cables at one length per class
    one_length = plan(scenario=Scenario(gpus=64), catalog=catalog, layout_cable_lengths=False)
    assert row["cost.tco_usd"] == pytest.approx(one_length.cost.tco_usd, abs=0.01)


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ({"samples": 5}, r"^grid\.yaml: uncertainty: samples: .*allowed: 100 to 200000"),
        ({"sample": 100}, r"^grid\.yaml: uncertainty: .*sample"),
        ([100, 1], r"^grid\.yaml: uncertainty: give a mapping such as \{samples: 1000, seed: 0\}"),
    ],
)
def test_bad_settings_name_the_field(catalog: Catalog, setting: Any, message: str) -> None:
    with pytest.raises(InputError, match=message):
        grid_from_data(
            {"gpus": [8], "uncertainty": setting}, base=Scenario(), catalog=catalog, source="grid.yaml"
        )
    with pytest.raises(InputError, match="scenario fields"):
        grid_from_data({"uncertainty": {"samples": 100}}, base=Scenario(), catalog=catalog, source="g")


@pytest.mark.slow  # starts a Dask cluster with a worker process
def test_cli_writes_percentile_columns_hidden_from_roles_without_costs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    grid = tmp_path / "grid.yaml"
    grid.write_text(
        yaml.safe_dump({"gpus": [64, 128], "uncertainty": {"samples": 200, "seed": 1}}), encoding="utf-8"
    )
    out = tmp_path / "u.parquet"
    assert run(["sweep", "--grid", str(grid), "--out", str(out), "--workers", "1"]) == 0
    frame = pd.read_parquet(out)
    assert len(frame) == 2 and set(COLUMNS) <= set(frame.columns)
    assert (frame["cost.tco_usd.p10"] <= frame["cost.tco_usd.p90"]).all()
    assert (frame["cost.tco_usd.p90"] > frame["cost.tco_usd"]).all()
    viewer = read_sweep(out, name="u.parquet", internal_cost=False)
    assert not [c for c in viewer.frame.columns if c.startswith("cost.")]
    assert "cost.tco_usd" in KEY_METRICS
    bad = tmp_path / "bad.yaml"
    bad.write_text(json.dumps({"gpus": [8], "uncertainty": {"seed": -1}}), encoding="utf-8")
    capsys.readouterr()
    assert run(["sweep", "--grid", str(bad), "--out", str(tmp_path / "b.parquet")]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "uncertainty: seed" in err
