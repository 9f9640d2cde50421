"""A calibration saved with the scenario (issue 28, deliver 4): ``planner calibrate`` -> ``planner
scenarios save --calibration`` -> reopen -> ``planner plan --scenario`` plans with the fitted
values, exactly as ``--catalog override.yaml``; the store, its export and old saves; bad files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from store_fixtures import saved_without
from test_measure import H100, KNOWN, _base

from planner.catalog import load_catalog, with_calibration
from planner.cli import run
from planner.engine import plan
from planner.errors import CatalogError, InputError
from planner.i18n import translate
from planner.inputs.calibration import load_calibration
from planner.inputs.scenario import Scenario, scenario_from_data
from planner.measure.nccl import read_nccl_tests
from planner.measure.synthetic import synthetic_run
from planner.store import ScenarioStore
from planner.units import GIB

pytest_plugins = ["store_fixtures"]


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = run(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _calibrate(capsys: pytest.CaptureFixture[str], nccl: Path, out: Path) -> None:
    code, _, err = cli(
        capsys, "calibrate", "--nccl", str(nccl), "--gpus", "16", "--design", "ib-ndr",
        "--out", str(out), "--measured-on", "2024-05-01",
    )  # fmt: skip
    assert code == 0, err


def _busbw(capsys: pytest.CaptureFixture[str], *args: str) -> float:
    code, out, err = cli(capsys, "plan", *args, "--format", "json")
    assert code == 0, err
    busbw: float = json.loads(out)["bandwidth"]["allreduce_busbw_gbyte_per_s"]
    return busbw


def _synthetic(tmp_path: Path) -> Path:
    """An all-reduce run generated from known coefficients (tests/test_measure.py KNOWN) with noise."""
    text = synthetic_run(
        _base(16), values=KNOWN, collective="all_reduce", hosts=("n1", "n2"), gpus_per_host=8, seed=7
    )
    path = tmp_path / "all_reduce_perf.txt"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("source", ["public", "synthetic"])
def test_calibrate_save_reopen_plan_meets_measured_busbw(
    source: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    nccl = H100 if source == "public" else _synthetic(tmp_path)
    override, db = tmp_path / "override.yaml", str(tmp_path / "s.db")
    _calibrate(capsys, nccl, override)
    code, out, err = cli(
        capsys, "scenarios", "--db", db, "save", "--name", "Built", "--gpus", "16", "--design", "ib-ndr",
        "--calibration", str(override),
    )  # fmt: skip
    assert code == 0, err
    scenario_id = out.strip()
    # reopen: show (JSON) gives the stored scenario, calibration included
    code, out, err = cli(capsys, "scenarios", "--db", db, "show", scenario_id, "--format", "json")
    assert code == 0, err
    stored = json.loads(out)["scenario"]
    assert stored["calibration"]["measured"] == "nccl-tests all_reduce_perf"
    assert stored["calibration"]["measured_on"] == "2024-05-01"
    assert len(stored["calibration"]["files"][0]["sha256"]) == 64
    scenario_file = tmp_path / "reopened.json"
    scenario_file.write_text(json.dumps(stored), encoding="utf-8")
    planned = _busbw(capsys, "--scenario", str(scenario_file))
    measured = read_nccl_tests(nccl)[0].busbw_at(GIB)
    assert measured is not None
    # Must show: the plan's busbw at 1 GiB within 5 % of the measured busbw at 1 GiB
    assert abs(planned / measured - 1) <= 0.05, (planned, measured)
    # one code path: the same figure as --catalog override.yaml, and not the uncalibrated one
    assert planned == _busbw(capsys, "--gpus", "16", "--design", "ib-ndr", "--catalog", str(override))
    assert planned != _busbw(capsys, "--gpus", "16", "--design", "ib-ndr")


@pytest.fixture(scope="module")
def calibrated(tmp_path_factory: pytest.TempPathFactory) -> Scenario:
    """16 x H100 on ib-ndr with the calibration of the public 2-node run."""
    from planner.measure.calibrate import InputFile, calibrate, calibration_override
    from planner.measure.nccl import parse_nccl_tests
    from planner.measure.text import read_lines

    scenario = Scenario(gpus=16, design_id="ib-ndr")
    catalog = load_catalog()
    source = read_lines(H100, name=H100.name)
    runs = parse_nccl_tests(source)
    file = InputFile(H100.name, source.sha256, ("all_reduce_perf",), runs[0].hosts)
    fitted = calibrate(
        plan=plan(scenario=scenario, catalog=catalog), catalog=catalog, runs=runs, files=(file,),
        measured_on="2024-05-01",
    )  # fmt: skip
    return scenario.with_updates(calibration=calibration_override(fitted))


def test_the_plan_is_the_plan_on_the_overridden_catalog(calibrated: Scenario, tmp_path: Path) -> None:
    assert calibrated.calibration is not None
    override = tmp_path / "o.yaml"
    override.write_text(yaml.safe_dump(dict(calibrated.calibration.override())), encoding="utf-8")
    bare = calibrated.with_updates(calibration=None)
    by_file = plan(scenario=bare, catalog=load_catalog(overrides=[override]))
    by_scenario = plan(scenario=calibrated, catalog=load_catalog())
    assert by_scenario.bandwidth == by_file.bandwidth
    assert by_scenario.bandwidth != plan(scenario=bare, catalog=load_catalog()).bandwidth
    # the catalog a workload or collectives table is given is the same overridden catalog
    catalog = with_calibration(load_catalog(), calibrated.calibration)
    assert catalog.nics["cx7_400g"] == load_catalog(overrides=[override]).nics["cx7_400g"]
    assert with_calibration(load_catalog(), None) is load_catalog()


def test_compare_uses_the_calibration(
    calibrated: Scenario, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "s.json"
    path.write_text(calibrated.model_dump_json(), encoding="utf-8")
    code, out, err = cli(
        capsys, "compare", "--scenario", str(path), "--designs", "ib-ndr", "--format", "json"
    )
    assert code == 0, err
    shown = json.loads(out)["plans"][0]["bandwidth"]["allreduce_busbw_gbyte_per_s"]
    expected = plan(scenario=calibrated, catalog=load_catalog()).bandwidth.allreduce_busbw_gbyte_per_s
    assert shown == pytest.approx(expected, abs=1e-3)  # the JSON rounds to 3 decimals
    uncalibrated = plan(scenario=Scenario(gpus=16, design_id="ib-ndr"), catalog=load_catalog())
    assert abs(shown - uncalibrated.bandwidth.allreduce_busbw_gbyte_per_s) > 1.0


def test_the_assumptions_list_the_calibration_with_its_provenance(calibrated: Scenario) -> None:
    first = plan(scenario=calibrated, catalog=load_catalog()).assumptions[0]
    assert first.topic == "calibration"
    assert "ztan-mig-235z" in first.text and "2024-05-01" in first.text
    assert "nics.cx7_400g" in first.text
    zh = translate(first.text, "zh")
    assert zh.startswith("已按客户自己的实测校准") and "ztan-mig-235z" in zh
    assert translate(first.source, "zh").startswith("在已建成的集群上实测")
    assert all(
        a.topic != "calibration" for a in plan(scenario=Scenario(), catalog=load_catalog()).assumptions
    )
    # the proposal's assumptions table (PDF, XLSX, the app) lists it first, in the reader's language
    from planner.report.tables import assumptions_table

    for lang, opening in (("en", "calibrated to the customer's own"), ("zh", "已按客户自己的实测校准")):
        row = assumptions_table(plan(scenario=calibrated, catalog=load_catalog()), lang).iloc[0]
        assert row.iloc[1] == "calibration" and str(row.iloc[2]).startswith(opening)


def test_the_store_and_its_export_keep_the_calibration(store: ScenarioStore, calibrated: Scenario) -> None:
    saved = store.create(name="Calibrated", scenario=calibrated)
    assert store.load(scenario_id=saved.id).scenario.calibration == calibrated.calibration
    imported = store.import_json(text=store.export_json(scenario_id=saved.id))
    assert imported.scenario.calibration == calibrated.calibration


def test_a_scenario_saved_before_calibration_existed_still_opens(store: ScenarioStore) -> None:
    scenario_id, old_json = saved_without(store, "calibration")
    loaded = store.load(scenario_id=scenario_id)
    assert (loaded.scenario.gpus, loaded.scenario.calibration) == (256, None)
    assert store.import_json(text=json.dumps(old_json)).scenario.calibration is None


def test_no_calibration_removes_it_and_show_names_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    override, db = tmp_path / "o.yaml", str(tmp_path / "s.db")
    _calibrate(capsys, H100, override)
    base = ("scenarios", "--db", db)
    assert cli(capsys, *base, "save", "--name", "B", "--gpus", "16", "--design", "ib-ndr",
               "--calibration", str(override))[0] == 0  # fmt: skip
    code, out, _ = cli(capsys, *base, "show", "1")
    assert code == 0 and "Calibrated nccl-tests all_reduce_perf, 2 hosts, 2024-05-01" in out
    code, _, err = cli(capsys, *base, "save", "--id", "1", "--expected-version", "1", "--no-calibration")
    assert code == 0, err
    code, out, _ = cli(capsys, *base, "show", "1", "--format", "json")
    assert json.loads(out)["scenario"]["calibration"] is None
    code, out, _ = cli(capsys, *base, "show", "1", "--version", "1", "--format", "json")
    assert json.loads(out)["scenario"]["calibration"] is not None  # the earlier version keeps it


def test_a_viewer_may_not_save_a_calibration(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    override, db = tmp_path / "o.yaml", str(tmp_path / "s.db")
    _calibrate(capsys, H100, override)
    code, out, err = cli(
        capsys, "scenarios", "--db", db, "--role", "viewer", "save", "--name", "V", "--gpus", "16",
        "--calibration", str(override),
    )  # fmt: skip
    assert code == 2 and "viewer" in err and err.count("\n") == 1 and not out


def _file(tmp_path: Path, data: Any) -> Path:
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


PROVENANCE = {"measured": "nccl-tests all_reduce_perf", "measured_on": "2024-05-01"}


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"nics": [{"id": "cx7_400g", "alpha_us": 5}]}, "no provenance section"),
        ({"provenance": PROVENANCE}, "no override records"),
        ({"provenance": PROVENANCE, "gpus": [{"id": "h100_sxm", "price_usd": 1}]}, "not a family"),
        (
            {"provenance": {**PROVENANCE, "measured_on": "May"}, "nics": [{"id": "x"}]},
            "calibration.measured_on",
        ),
    ],
)
def test_a_bad_calibration_file_is_one_line_naming_the_field(
    data: Any, expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _file(tmp_path, data)
    with pytest.raises(InputError, match=expected) as info:
        load_calibration(path)
    assert "\n" not in str(info.value) and str(path) in str(info.value)
    db = tmp_path / "s.db"
    code, out, err = cli(
        capsys, "scenarios", "--db", str(db), "save", "--name", "X", "--calibration", str(path)
    )
    assert code == 2 and expected in err and err.count("\n") == 1 and not out


def test_a_calibration_record_out_of_range_is_refused_at_plan_time_naming_the_field() -> None:
    data = {
        "calibration": {
            **PROVENANCE,
            "records": {"nics": [{"id": "cx7_400g", "nccl_efficiency": 7.0}]},
        },
        "gpus": 16,
        "design_id": "ib-ndr",
    }
    scenario = scenario_from_data(data)  # the shape is fine; the catalog checks the value
    with pytest.raises(CatalogError, match=r"nics\[cx7_400g\]\.nccl_efficiency") as info:
        plan(scenario=scenario, catalog=load_catalog())
    assert "\n" not in str(info.value)
