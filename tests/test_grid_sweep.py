"""Grid sweeps on Dask (``planner sweep --grid``): the Parquet rows equal single-process plans,
the grid's arithmetic, and bad grids exit 2 with one line naming the field."""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow.parquet as pq
import pytest
import yaml

from planner import Catalog, load_catalog, plan
from planner.cli import run
from planner.inputs.scenario import Scenario, scenario_from_data
from planner.outputs import plan_to_dict
from planner.sweep import ERROR, POINT, Range, SweepJob, flatten, grid_from_data, point_row

GRID: dict[str, Any] = {
    "gpus": {"start": 64, "stop": 256, "step": 64},
    "design_id": ["rail4-npo", "ib-ndr"],
    "facility.cooling_id": ["air", "direct_liquid"],
    "price_overrides_usd.br100": [10000, 14000],
}
"""4 sizes x 2 designs x 2 coolings x 2 GPU prices = 32 points (br100 is the default GPU of
both designs, so its price moves CAPEX: 64 GPUs x 4,000 USD = 256,000 USD at 64 GPUs)."""


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = run(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def write_grid(folder: Path, data: Any) -> Path:
    path = folder / "grid.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def dask_scheduler() -> Iterator[str]:
    """A local cluster of two worker processes, shared by the tests that pass ``--scheduler``."""
    from distributed import LocalCluster

    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0")  # type: ignore[no-untyped-call]
    try:
        yield str(cluster.scheduler_address)
    finally:
        cluster.close()


@pytest.fixture(scope="module")
def swept(tmp_path_factory: pytest.TempPathFactory, dask_scheduler: str) -> pd.DataFrame:
    folder = tmp_path_factory.mktemp("sweep")
    out = folder / "grid.parquet"
    code = run(
        [
            "sweep",
            "--grid",
            str(write_grid(folder, GRID)),
            "--out",
            str(out),
            "--scheduler",
            dask_scheduler,
            "--batch-points",
            "5",
        ]
    )
    assert code == 0
    return pd.read_parquet(out)


def _same(a: Any, b: Any) -> bool:
    if a is None or (isinstance(a, float) and math.isnan(a)):
        return b is None or (isinstance(b, float) and math.isnan(b))
    return bool(a == b)


def test_one_row_per_point_in_grid_order(swept: pd.DataFrame) -> None:
    assert len(swept) == 4 * 2 * 2 * 2
    assert list(swept[POINT]) == list(range(32))
    expected = list(
        itertools.product(
            [64, 128, 192, 256], ["rail4-npo", "ib-ndr"], ["air", "direct_liquid"], [10000, 14000]
        )
    )
    got = list(
        swept[["gpus_requested", "design_id", "facility.cooling_id", "price_overrides_usd.br100"]].itertuples(
            index=False, name=None
        )
    )
    assert got == expected
    assert (swept[ERROR] == "").all()


def test_rows_equal_single_process_plans(swept: pd.DataFrame, catalog: Catalog) -> None:
    """Every row equals the same point planned in this process, column by column."""
    grid = grid_from_data(GRID, base=Scenario(), catalog=catalog)
    job = SweepJob(grid=grid, base=Scenario().model_dump(), catalog=catalog)
    records = swept.to_dict(orient="records")
    for index, record in enumerate(records):
        expected = point_row(job, index)
        assert set(expected) <= set(record)
        for key, value in expected.items():
            assert _same(record[key], value), (index, key, record[key], value)


@pytest.mark.parametrize("index", [0, 13, 31])
def test_sample_rows_equal_plan_json(
    swept: pd.DataFrame, capsys: pytest.CaptureFixture[str], tmp_path: Path, index: int
) -> None:
    """A sample of rows equals ``planner plan --format json`` of the same scenario, flattened; the
    money (``cost.*``) equals that plan's with every cable at the scenario's one length per link
    class, which is how a sweep prices cables (planner/sweep/evaluate.py) where a plan prices the
    layout's lengths (tests/test_cable_lengths.py)."""
    row = swept.iloc[index]
    scenario = {
        "gpus": int(row["gpus_requested"]),
        "design_id": row["design_id"],
        "facility": {"cooling_id": row["facility.cooling_id"]},
        "price_overrides_usd": {"br100": float(row["price_overrides_usd.br100"])},
    }
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(scenario), encoding="utf-8")
    code, out, _ = run_cli(capsys, "plan", "--scenario", str(path), "--format", "json")
    assert code == 0
    single = plan(scenario=scenario_from_data(scenario), catalog=load_catalog(), layout_cable_lengths=False)
    money = dict(flatten(plan_to_dict(single)))
    for key, value in flatten(json.loads(out)):
        expected = money[key] if key.startswith("cost.") else value
        assert _same(row[key], expected), (key, row[key], expected)


def test_the_price_field_moves_capex(swept: pd.DataFrame) -> None:
    cheap, dear = swept.iloc[0], swept.iloc[1]  # 64 GPUs, rail4-npo, air; br100 at 10,000 and 14,000
    # 64 GPUs x 4,000 USD, plus the installation and spares fractions charged on it
    assert dear["cost.capex_usd"] - cheap["cost.capex_usd"] >= 64 * 4_000
    assert dear["cost.by_category_usd.gpus"] - cheap["cost.by_category_usd.gpus"] == pytest.approx(64 * 4_000)


def test_refused_points_are_rows_with_the_engine_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], dask_scheduler: str
) -> None:
    """A rack too small for one server is a row with the engine's message, not a failed sweep."""
    out = tmp_path / "big.parquet"
    grid = write_grid(tmp_path, {"gpus": [64], "facility.rack_power_limit_kw": [40.0, 5.0]})
    code, stdout, err = run_cli(
        capsys, "sweep", "--grid", str(grid), "--out", str(out), "--scheduler", dask_scheduler
    )
    assert code == 0, err
    assert "2 points (1 refused" in stdout
    frame = pq.read_table(out).to_pandas()
    assert len(frame) == 2
    assert frame[ERROR].iloc[0] == ""
    assert frame[ERROR].iloc[1] != ""
    assert pd.isna(frame["cost.capex_usd"].iloc[1])


def test_local_cluster_with_workers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The default path: a local cluster of ``--workers`` processes, and a progress bar on stderr."""
    out = tmp_path / "one.parquet"
    grid = write_grid(tmp_path, {"gpus": [8, 16, 24], "facility.rack_power_limit_kw": [40.0, 60.0]})
    code, stdout, err = run_cli(capsys, "sweep", "--grid", str(grid), "--out", str(out), "--workers", "1")
    assert code == 0, err
    assert "6 points" in stdout
    assert "6/6 points" in err
    assert len(pd.read_parquet(out)) == 6


def test_range_arithmetic() -> None:
    assert Range(start=8, stop=1024, step=8).count() == 128
    assert Range(start=0.1, stop=0.3, step=0.1).count() == 3
    assert [Range(start=0.1, stop=0.3, step=0.1).value(i) for i in range(3)] == [0.1, 0.2, 0.3]
    assert Range(start=5, stop=4, step=1).count() == 0
    assert Range(start=1, stop=4, step=0).count() == 0


def test_points_follow_itertools_product(catalog: Catalog) -> None:
    data = {
        "gpus": {"start": 8, "stop": 32, "step": 8},
        "facility.years": [3, 5, 7],
        "gpu_id": ["h100_sxm", "br100"],
    }
    grid = grid_from_data(data, base=Scenario(), catalog=catalog)
    expected = list(itertools.product([8, 16, 24, 32], [3, 5, 7], ["h100_sxm", "br100"]))
    assert grid.count() == len(expected)
    assert [tuple(grid.point(i).values()) for i in range(grid.count())] == expected


def test_more_than_1e9_points_pass_with_yes(catalog: Catalog) -> None:
    data = {"price_overrides_usd.br100": {"start": 1, "stop": 100_000, "step": 1}, "facility.years": [1, 2]}
    data |= {"facility.discount_rate": {"start": 0.0, "stop": 0.5, "step": 0.0001}}
    grid = grid_from_data(data, base=Scenario(), catalog=catalog, max_points=None)
    assert grid.count() == 100_000 * 2 * 5001
    assert grid.point(grid.count() - 1) == {
        "price_overrides_usd.br100": 100_000,
        "facility.years": 2,
        "facility.discount_rate": 0.5,
    }


BAD_GRIDS = [
    ({"gpus": [8], "nodes_total": [1, 2]}, "nodes_total: unknown scenario field"),
    ({"facility.cooling": ["air"]}, "facility.cooling: unknown scenario field"),
    ({"gpus.count": [8]}, "gpus.count: unknown scenario field"),
    ({"facility": ["air"]}, "facility: a group of fields"),
    ({"price_overrides_usd.no_such_part": [1.0]}, "price_overrides_usd.no_such_part: not a field"),
    ({"price_overrides_usd": [1.0]}, "price_overrides_usd: not a field"),
    ({"gpus": {"start": 64, "stop": 8, "step": 8}}, "gpus: empty range"),
    ({"gpus": {"start": 8, "stop": 64, "step": 0}}, "gpus: empty range"),
    ({"design_id": []}, "design_id: empty list"),
    ({"gpus": {"start": 8, "stop": 64}}, "gpus: give a list of values or {start, stop, step}"),
    ({"gpus": "lots"}, "gpus: give a list"),
    ({"gpus": [8, 0]}, "gpus"),
    ({"gpus": {"start": 8, "stop": 2_000_000, "step": 8}}, "gpus"),
    ({"facility.cooling_id": ["Air Cooled"]}, "facility.cooling_id"),
    (
        {
            "price_overrides_usd.br100": {"start": 1, "stop": 100_000, "step": 1},
            "facility.discount_rate": {"start": 0.0, "stop": 0.5, "step": 0.00001},
        },
        "price_overrides_usd.br100: 100,000 values make the grid 5e+09 points",
    ),
    ([8, 16], "must be a mapping"),
]


@pytest.mark.parametrize(("data", "needle"), BAD_GRIDS)
def test_bad_grids_exit_2_naming_the_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], data: Any, needle: str
) -> None:
    grid = write_grid(tmp_path, data)
    out = tmp_path / "never.parquet"
    code, stdout, err = run_cli(capsys, "sweep", "--grid", str(grid), "--out", str(out))
    assert code == 2
    assert stdout == ""
    assert err.count("\n") == 1, err
    assert err.startswith("planner: error: ")
    assert needle in err
    assert not out.exists()


def test_grid_options_go_together(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    grid = write_grid(tmp_path, {"gpus": [8]})
    code, _, err = run_cli(capsys, "sweep", "--grid", str(grid))
    assert (code, err.count("\n")) == (2, 1)
    assert "--out" in err
    code, _, err = run_cli(capsys, "sweep", "--grid", str(grid), "--out", "x.parquet", "--sizes", "8,16")
    assert (code, err.count("\n")) == (2, 1)
    code, _, err = run_cli(capsys, "sweep", "--grid", str(grid), "--out", "x.parquet", "--workers", "0")
    assert code == 2
    code, _, _ = run_cli(
        capsys,
        "sweep",
        "--grid",
        str(grid),
        "--out",
        "x.parquet",
        "--workers",
        "2",
        "--scheduler",
        "tcp://h:1",
    )
    assert code == 2


def test_a_range_is_checked_at_its_last_value_not_its_stop(catalog: Catalog) -> None:
    """Its stop, 1,048,577, is above the 1,048,576-GPU ceiling, but its one value, 1,048,570, is not."""
    grid = grid_from_data(
        {"gpus": {"start": 1_048_570, "stop": 1_048_577, "step": 8}}, base=Scenario(), catalog=catalog
    )
    assert (grid.count(), grid.point(0)) == (1, {"gpus": 1_048_570})
