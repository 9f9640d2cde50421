"""A sweep's Parquet file read back (planner/sweep/results.py) and on the Scaling page: a small
sweep written by ``planner sweep --grid``, charted by design and GPU count, its rows and CSV;
internal costs only for roles that may see them."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
import yaml
from apptest import start
from test_access_app import start_as

from planner.cli import run
from planner.errors import InputError
from planner.i18n import tr
from planner.report import sweep_charts
from planner.sweep import results
from ui.views import scaling as view

GRID: dict[str, Any] = {
    "gpus": [8, 64],
    "design_id": ["rail8-npo", "ib-ndr"],
    "price_overrides_usd.br100": [10000, 12000],
}
"""2 sizes x 2 designs x 2 GPU prices = 8 points; the price moves CAPEX by at least 8 x 2,000 USD
at 8 GPUs and eight times that at 64: the chart's band."""


@pytest.fixture(scope="module")
def sweep_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder like ``PLANNER_SWEEP_DIR`` with one sweep written by the CLI and a stray part file
    of an unfinished sweep (in a hidden folder, as ``run_sweep`` names them)."""
    folder = tmp_path_factory.mktemp("sweeps")
    grid = folder / "grid.yaml"
    grid.write_text(yaml.safe_dump(GRID, sort_keys=False), encoding="utf-8")
    assert (
        run(["sweep", "--grid", str(grid), "--out", str(folder / "team" / "small.parquet"), "--workers", "1"])
        == 0
    )
    parts = folder / ".unfinished.parquet.parts-x"
    parts.mkdir()
    (parts / "000000000000.parquet").write_bytes(b"PAR1")
    return folder


@pytest.fixture(scope="module")
def written(sweep_dir: Path) -> pd.DataFrame:
    return pd.read_parquet(sweep_dir / "team" / "small.parquet")


def test_read_sweep_keeps_grid_fields_and_key_figures(sweep_dir: Path, written: pd.DataFrame) -> None:
    sweep = results.read_sweep(sweep_dir / "team" / "small.parquet", name="small.parquet", internal_cost=True)
    assert sweep.fields == ("design_id", "price_overrides_usd.br100")  # gpus is the plan's own column
    assert sweep.metrics == results.KEY_METRICS
    assert len(sweep.frame) == 8 and sweep.refused == 0 and sweep.hidden == 0
    pd.testing.assert_series_equal(sweep.frame["cost.capex_usd"], written["cost.capex_usd"])


def test_a_role_without_internal_cost_never_reads_costs(sweep_dir: Path, written: pd.DataFrame) -> None:
    content = (sweep_dir / "team" / "small.parquet").read_bytes()
    sweep = results.read_sweep(content, name="small.parquet", internal_cost=False)
    assert not [c for c in sweep.frame.columns if c.startswith(("cost.", "price_overrides_usd."))]
    assert sweep.fields == ("design_id",)
    assert "cost.capex_usd" not in sweep.metrics and "power.facility_kw" in sweep.metrics
    internal = [c for c in written.columns if c.startswith(("cost.", "price_overrides_usd."))]
    assert sweep.hidden == len(internal) > 10


def test_the_chart_band_spans_the_other_fields(sweep_dir: Path, written: pd.DataFrame) -> None:
    sweep = results.read_sweep(sweep_dir / "team" / "small.parquet", name="s", internal_cost=True)
    stats = results.by_design_and_size(sweep, "cost.capex_usd")
    assert len(stats) == 4 and set(stats["points"]) == {2}
    width = dict(
        zip(zip(stats["design"], stats["gpus"], strict=True), stats["max"] - stats["min"], strict=True)
    )
    # the band is the GPU price's swing: the two rows' CAPEX apart, and linear in the GPU count
    # (gpus x 2,000 USD plus what is priced in proportion to hardware, e.g. services)
    rows = written.set_index(["design", "gpus", "price_overrides_usd.br100"])["cost.capex_usd"]
    assert width[("rail8-npo", 8)] == rows["rail8-npo", 8, 12000] - rows["rail8-npo", 8, 10000]
    assert width[("rail8-npo", 8)] >= 16_000
    assert width[("ib-ndr", 64)] == pytest.approx(8 * width[("ib-ndr", 8)])
    fig = sweep_charts.sweep_metric(sweep, "cost.capex_usd", "en")
    lines = [t for t in fig.data if t.mode == "lines+markers"]
    assert [t.name for t in lines] == ["ib-ndr", "rail8-npo"]
    expected = written[written["design"] == "ib-ndr"].groupby("gpus")["cost.capex_usd"].median()
    assert list(lines[0].y) == pytest.approx(list(expected))
    zh = sweep_charts.sweep_metric(sweep, "cost.capex_usd", "zh")
    assert "GPU" in zh.layout.title.text and zh.layout.title.text != fig.layout.title.text


def test_bad_files_are_one_line_naming_the_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"^junk\.parquet: not a sweep written by planner sweep --grid"):
        results.read_sweep(b"not parquet at all", name="junk.parquet", internal_cost=True)
    other = tmp_path / "other.parquet"
    pd.DataFrame({"a": [1, 2]}).to_parquet(other)
    with pytest.raises(InputError, match=r"^other\.parquet: not a sweep .*columns a"):
        results.read_sweep(other, name="other.parquet", internal_cost=True)


def test_recent_sweeps_newest_first_without_unfinished_parts(tmp_path: Path, sweep_dir: Path) -> None:
    assert results.sweep_directory({}) is None
    assert results.sweep_directory({results.SWEEP_DIR_ENV: str(tmp_path / "missing")}) is None
    assert results.sweep_directory({results.SWEEP_DIR_ENV: str(sweep_dir)}) == sweep_dir
    found = results.recent_sweeps(sweep_dir)
    assert found == [sweep_dir / "team" / "small.parquet"]
    newer = sweep_dir / "newer.parquet"
    newer.write_bytes((sweep_dir / "team" / "small.parquet").read_bytes())
    os.utime(newer, (time.time() + 60, time.time() + 60))
    try:
        assert results.recent_sweeps(sweep_dir)[0] == newer
    finally:
        newer.unlink()


def test_scaling_page_opens_a_recent_sweep(sweep_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(results.SWEEP_DIR_ENV, str(sweep_dir))
    at = start("scaling")
    charts_before = len(at.get("plotly_chart"))
    pick = at.selectbox(key=view.SWEEP_PICK)
    assert pick.options == ["(none)", str(Path("team") / "small.parquet")]
    pick.select(str(Path("team") / "small.parquet")).run()
    assert not at.exception, at.exception
    assert len(at.get("plotly_chart")) == charts_before + 1
    metric = at.selectbox(key=view.SWEEP_METRIC)
    assert len(metric.options) == len(results.KEY_METRICS)
    metric.select("latency.gpu_to_gpu_ns").run()
    assert not at.exception, at.exception
    frames = [d.value for d in at.dataframe if "design_id" in d.value.columns]
    assert len(frames) == 1 and len(frames[0]) == 8
    assert "cost.capex_usd" in frames[0].columns
    labels = [getattr(b, "label", "") for b in at.get("download_button")]
    assert tr("sweep_file.download", "en") in labels


@pytest.mark.parametrize("role", ["architect", "viewer"])
def test_costs_and_the_section_follow_the_role(
    role: str, sweep_dir: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(results.SWEEP_DIR_ENV, str(sweep_dir))
    monkeypatch.delenv("PLANNER_DATABASE_URL", raising=False)
    monkeypatch.setenv("PLANNER_DB_PATH", str(tmp_path / "scenarios.db"))
    at = start_as(role, "scaling")
    if role == "viewer":  # customer pages only: no sweep files at all
        assert not [s for s in at.selectbox if s.key == view.SWEEP_PICK]
        return
    at.selectbox(key=view.SWEEP_PICK).select(str(Path("team") / "small.parquet")).run()
    assert not at.exception, at.exception
    frames = [d.value for d in at.dataframe if "design_id" in d.value.columns]
    assert frames and not [c for c in frames[0].columns if c.startswith("cost.")]
    metric = at.selectbox(key=view.SWEEP_METRIC)
    assert not [m for m in metric.options if "cost" in m.lower() or "capex" in m.lower()]
    assert any(tr("sweep_file.hidden", "en", count="")[:10] in c.value for c in at.caption)
