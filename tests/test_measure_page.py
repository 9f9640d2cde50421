"""Headless test of the Measurements page (``streamlit.testing.v1.AppTest``): uploads in the
session, the verdict, the suspects as text, the curves and the coefficients, in both languages."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from apptest import APP, AUTH, fresh_session, rendered, start
from streamlit.testing.v1 import AppTest

from planner.i18n import tr
from ui import keys

FIXTURES = Path(__file__).parent / "measure_fixtures"


@pytest.fixture(autouse=True)
def _fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    with fresh_session(tmp_path, monkeypatch):
        yield


def test_without_files_the_page_asks_for_them() -> None:
    at = start("measurements", gpus="16", design="ib-ndr")
    assert at.title[0].value == tr("page.measurements", "en")
    assert [i.value for i in at.info] == [tr("meas.none", "en")]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_public_run_is_accepted_and_calibrated(lang: str) -> None:
    at = start("measurements", gpus="16", design="ib-ndr", lang=lang)
    name = "all_reduce_perf-h100-2x8.txt"
    at.session_state[keys.MEASURE_NCCL] = ((name, (FIXTURES / name).read_bytes()),)
    at.run()
    assert not at.exception, at.exception
    # the 2-node H100 run sits below the uncalibrated plan at large sizes: the verdict is fail
    assert at.error[0].value.startswith(tr("meas.verdict_fail", lang).split("(")[0].split("（")[0])
    assert len(at.dataframe) == 1
    table = at.dataframe[0].value
    fitted = dict(
        zip(table[tr("meas.col.coefficient", lang)], table[tr("meas.col.fitted", lang)], strict=True)
    )
    # the public run's hosts have 200 Gb/s NICs (GCP A3 Mega); on the 400 Gb/s ib-ndr design the
    # two-host NVLS tree (each shard sent once) needs about 0.44 of the line rate
    assert 0.35 < fitted["nccl_efficiency"] < 0.55


def test_a_refused_file_is_named_and_the_page_keeps_working() -> None:
    at = start("measurements", gpus="16", design="ib-ndr")
    at.session_state[keys.MEASURE_NCCL] = (("bad.txt", b"<script>alert(1)</script>\n"),)
    at.run()
    assert not at.exception, at.exception
    assert "bad.txt: line 1: no nccl-tests run found" in at.error[0].value
    assert [i.value for i in at.info] == [tr("meas.none", "en")]


def _with_public_run(lang: str = "en") -> AppTest:
    at = start("measurements", gpus="16", design="ib-ndr", lang=lang)
    name = "all_reduce_perf-h100-2x8.txt"
    at.session_state[keys.MEASURE_NCCL] = ((name, (FIXTURES / name).read_bytes()),)
    at.run()
    assert not at.exception, at.exception
    return at


def _button(at: AppTest, key: str, lang: str = "en") -> Any:
    return next(b for b in at.button if b.label == tr(key, lang))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_save_with_scenario_calibrates_every_page_and_remove_undoes_it(lang: str) -> None:
    at = _with_public_run(lang)
    uncalibrated = dict(at.session_state[keys.INPUTS])  # the sidebar inputs do not change
    before = at.error[0].value
    assert not [c for c in at.sidebar.caption if c.value.startswith(tr("sidebar.calibrated", lang, label=""))]
    _button(at, "meas.save_with_scenario", lang).click().run()
    assert not at.exception, at.exception
    assert [s.value for s in at.success][-1] == tr("meas.saved_with_scenario", lang)
    label = "nccl-tests all_reduce_perf, 2 hosts, " + date.today().isoformat()
    assert label in [x.value for x in at.text]
    caption = tr("sidebar.calibrated", lang, label=label)
    assert caption in [rendered(c.value) for c in at.sidebar.caption]
    # the scenario carries it: the plan every page draws is the calibrated one
    at.switch_page("pages/overview.py").run()
    assert not at.exception, at.exception
    assert caption in [rendered(c.value) for c in at.sidebar.caption]
    assert at.session_state[keys.INPUTS] == uncalibrated
    at.switch_page("pages/measurements.py").run()
    # planned at the fitted values, fewer checks fail: `planner accept --gpus 16 --design ib-ndr
    # --nccl all_reduce_perf-h100-2x8.txt` fails 14 of 31 checks, and 4 of 31 with --catalog of the
    # override the same fit writes (the largest residual at >= 64 MiB is 26 %, over the tolerance)
    assert before == tr("meas.verdict_fail", lang, failed=14, checks=31)
    assert at.error[0].value == tr("meas.verdict_fail", lang, failed=4, checks=31)
    _button(at, "meas.remove_calibration", lang).click().run()
    assert not at.exception, at.exception
    assert [s.value for s in at.success][-1] == tr("meas.calibration_removed", lang)
    assert caption not in [rendered(c.value) for c in at.sidebar.caption]


def test_the_saved_calibration_is_in_the_scenario_the_store_saves() -> None:
    from planner.inputs.scenario import scenario_from_data

    at = _with_public_run()
    _button(at, "meas.save_with_scenario").click().run()
    saved = json.loads(at.session_state[keys.CALIBRATION])
    assert saved["measured"] == "nccl-tests all_reduce_perf"
    assert saved["hosts"] == ["ztan-mig-235z", "ztan-mig-gq73"]
    assert len(saved["files"][0]["sha256"]) == 64
    # ui.state.scenario() lays this over the inputs: a valid field of the scenario the store saves
    scenario = scenario_from_data({"gpus": 16, "design_id": "ib-ndr", "calibration": saved})
    assert scenario.calibration is not None and scenario.calibration.records["nics"][0]["id"] == "cx7_400g"


def test_a_viewer_cannot_save_a_calibration() -> None:
    at = AppTest.from_file(str(APP), default_timeout=90)
    at.secrets["auth"] = AUTH
    at.user = {"is_logged_in": True, "email": "v@example.com", "name": "V", "roles": ["viewer"]}
    at.query_params.update({"gpus": "16", "design": "ib-ndr"})
    at.run()
    at.switch_page("pages/measurements.py").run()
    assert not at.exception, at.exception
    assert any("viewer" in e.value for e in at.error)
    assert not [b for b in at.button if b.label == tr("meas.save_with_scenario", "en")]


def _saved_calibrated(tmp_path: Path) -> tuple[int, str]:
    """A scenario saved with the public run's calibration in the session's store: (id, label)."""
    from planner.catalog import load_catalog
    from planner.engine import plan
    from planner.inputs.scenario import Scenario
    from planner.measure.calibrate import InputFile, calibrate, calibration_override
    from planner.measure.nccl import parse_nccl_tests
    from planner.measure.text import read_lines
    from planner.store import open_store

    name = "all_reduce_perf-h100-2x8.txt"
    source = read_lines(FIXTURES / name, name=name)
    runs = parse_nccl_tests(source)
    scenario = Scenario(gpus=16, design_id="ib-ndr")
    catalog = load_catalog()
    fitted = calibrate(
        plan=plan(scenario=scenario, catalog=catalog), catalog=catalog, runs=runs,
        files=(InputFile(name, source.sha256, ("all_reduce_perf",), runs[0].hosts),), measured_on="2024-05-01",
    )  # fmt: skip
    with open_store(path=tmp_path / "scenarios.db") as store:
        saved = store.create(
            name="Built", scenario=scenario.with_updates(calibration=calibration_override(fitted))
        )
    return saved.id, "nccl-tests all_reduce_perf, 2 hosts, 2024-05-01"


def test_a_saved_calibrated_scenario_reopens_calibrated(tmp_path: Path) -> None:
    scenario_id, label = _saved_calibrated(tmp_path)
    at = start("measurements", scenario=str(scenario_id))
    caption = tr("sidebar.calibrated", "en", label=label)
    assert caption in [rendered(c.value) for c in at.sidebar.caption]
    assert tr("meas.calibrated", "en") in [i.value for i in at.info]
    assert label in [x.value for x in at.text]
    _button(at, "meas.remove_calibration").click().run()
    assert not at.exception, at.exception
    assert caption not in [rendered(c.value) for c in at.sidebar.caption]
    assert at.session_state[keys.CALIBRATION] == "null"
