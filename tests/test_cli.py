"""The command line: the JSON contract other tools rely on, formats, and bad input (exit 2, one line)."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from planner.cli import run

WriteYaml = Callable[[str, Any], Path]


def run_cli(*args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``planner ARGS`` in this process (no interpreter start-up): (exit code, stdout, stderr)."""
    code = run(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_plan_json_has_the_contract_keys(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli("plan", "--gpus", "1024", "--design", "ib-ndr", "--format", "json", capsys=capsys)
    assert code == 0
    data = json.loads(out)
    for key in ("design", "gpus", "nodes", "racks", "notes", "assumptions", "fabric", "bandwidth"):
        assert key in data
    assert data["design"] == "ib-ndr"
    assert (data["gpus"], data["nodes"]) == (1024, 128)
    fabric = data["fabric"]
    for key in ("tiers", "planes", "rails", "ports_per_gpu", "port_speed_gbit_per_s", "oversubscription"):
        assert key in fabric
    assert fabric["switches"] == {"leaf": 32, "spine": 16, "core": 0, "total": 48}
    assert fabric["links"] == {"node_leaf": 1024, "leaf_spine": 1024, "spine_core": 0}
    # 2048 links; node ends 1024 single-port 400G modules; switch ends twin-port 800G:
    # leaves 32 x (32 down + 32 up) / 2 = 1024, spines 16 x 64 / 2 = 512 -> 2560 modules.
    assert (fabric["cables"], fabric["transceivers"]) == (2048, 2560)
    assert set(data["bandwidth"]) >= {
        "per_gpu_gbit_per_s",
        "bisection_tbit_per_s",
        "allreduce_busbw_gbyte_per_s",
    }
    assert set(data["latency"]) >= {"max_switch_hops", "gpu_to_gpu_ns"}
    assert set(data["power"]) >= {"it_kw", "facility_kw", "by_category_kw"}
    assert set(data["cooling"]) >= {"heat_load_kw", "liquid_kw", "air_kw", "coolant_flow_l_per_min"}
    assert set(data["cost"]) >= {
        "capex_usd",
        "opex_usd_per_year",
        "tco_usd",
        "usd_per_gpu_hour",
        "by_category_usd",
    }
    line = data["bom"][0]
    assert set(line) >= {"id", "category", "description", "quantity", "unit_cost_usd", "total_usd"}
    assert data["assumptions"], "a plan lists the assumptions it used"


def test_plan_table_is_the_default(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli("plan", "--gpus", "64", "--design", "rail4-npo", capsys=capsys)
    assert code == 0
    assert "Switches" in out and "CAPEX" in out and "Vendor claims" in out


def test_compare_json_holds_the_plans_with_one_gpu(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli("compare", "--gpus", "256", "--format", "json", "--samples", "200", capsys=capsys)
    assert code == 0
    plans = json.loads(out)["plans"]
    assert [p["design"] for p in plans] == ["rail4-npo", "rail8-npo", "ib-ndr"]
    assert len({p["gpu"] for p in plans}) == 1


def test_sweep_csv_has_a_row_per_design_and_size(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(
        "sweep", "--designs", "rail4-npo,ib-ndr", "--sizes", "8:64:8", "--format", "csv", capsys=capsys
    )
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert len(rows) == 2 * 8
    assert {(r["design"], r["gpus"]) for r in rows} >= {("rail4-npo", "8"), ("ib-ndr", "64")}


def test_sweep_json_rows_read_as_pandas_wrote_them(capsys: pytest.CaptureFixture[str]) -> None:
    """The sweep's JSON rows are written without pandas (``plain_records``) and read exactly as the
    records pandas' ``to_json`` made of the same rows (10 decimal places, NaN as null)."""
    from planner import load_catalog
    from planner.cli.options import frame_records
    from planner.compare import sweep
    from planner.inputs.scenario import Scenario

    args = ("--designs", "rail4-npo,ib-ndr", "--sizes", "8:64:8")
    code, out, _ = run_cli("sweep", *args, "--format", "json", capsys=capsys)
    assert code == 0
    result = sweep(
        scenario=Scenario(), catalog=load_catalog(), design_ids=["rail4-npo", "ib-ndr"], sizes=range(8, 65, 8)
    )
    assert json.loads(out)["sweep"] == frame_records(result.frame)
    assert len(result.rows) == 16


def test_catalog_list_and_validate(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli("catalog", "validate", capsys=capsys)
    assert code == 0 and out.startswith("catalog OK")
    code, out, _ = run_cli("catalog", "list", "--family", "gpus", "--format", "json", capsys=capsys)
    assert code == 0
    assert "br100" in {r["id"] for r in json.loads(out)}


BAD_ARGS = [
    (["plan", "--gpus", "0"], "gpus must be between 1 and 1048576"),
    (["plan", "--gpus", "-8"], "gpus must be between 1 and 1048576"),
    (["plan", "--gpus", "8.5"], "gpus must be a whole number between 1 and 1048576"),
    (["plan", "--gpus", "many"], "gpus must be a whole number"),
    (["plan", "--gpus", "1000000", "--design", "ib-hdr"], "four-tier limit"),
    (["plan", "--gpus", "64", "--design", "nope"], "design_id: unknown designs id 'nope'"),
    (["plan", "--gpus", "64", "--gpu", "nope"], "gpu_id: unknown gpus id 'nope'"),
    (["plan", "--gpus", "64", "--rack-kw", "1"], "rack_power_limit_kw"),
    (["plan", "--gpus", "64", "--format", "xml"], "invalid choice"),
    (["sweep", "--sizes", "8:4:8"], "sizes must be"),
    # one reader of counts (cli.options.positive_int): ASCII digits only, as --gpus reads them
    (["compare", "--gpus", "64", "--samples", "+5"], "--samples: must be a whole number >= 1 (got '+5')"),
    (["compare", "--gpus", "64", "--samples", " 12"], "--samples: must be a whole number >= 1 (got ' 12')"),
    (["compare", "--gpus", "64", "--samples", "\uff11\uff12"], "--samples: must be a whole number >= 1"),
    (["scenarios", "show", "+3"], "id: must be a whole number >= 1 (got '+3')"),
    (["scenarios", "list", "--limit", "0"], "--limit: must be a whole number >= 1 (got '0')"),
]


@pytest.mark.parametrize(("args", "message"), BAD_ARGS)
def test_bad_input_exits_2_with_one_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_cli(*args, capsys=capsys)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1, err
    assert message in err
    assert "Traceback" not in err


def test_bad_scenario_files(
    write_yaml: WriteYaml, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    unknown = write_yaml("unknown.yaml", {"gpus": 64, "gpu_count": 64})
    code, _, err = run_cli("plan", "--scenario", str(unknown), capsys=capsys)
    assert code == 2 and "gpu_count: unknown key" in err
    broken = tmp_path / "broken.yaml"
    broken.write_text("gpus: [64", encoding="utf-8")
    code, _, err = run_cli("plan", "--scenario", str(broken), capsys=capsys)
    assert code == 2 and "not valid YAML/JSON" in err
    not_int = write_yaml("float.yaml", {"gpus": 8.5})
    code, _, err = run_cli("plan", "--scenario", str(not_int), capsys=capsys)
    assert code == 2 and "gpus" in err
    nested = write_yaml("nested.yaml", {"facility": {"years": 40}})
    code, _, err = run_cli("plan", "--scenario", str(nested), capsys=capsys)
    assert code == 2 and "facility.years" in err and "allowed: 1 to 15" in err


def test_scenario_file_with_flags_on_top(write_yaml: WriteYaml, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_yaml("s.yaml", {"gpus": 64, "design_id": "ib-ndr", "facility": {"cooling_id": "air"}})
    code, out, _ = run_cli(
        "plan", "--scenario", str(path), "--gpus", "128", "--format", "json", capsys=capsys
    )
    assert code == 0
    data = json.loads(out)
    assert (data["gpus"], data["design"], data["cooling"]["method"]) == (128, "ib-ndr", "air")


def test_bad_catalog_files(write_yaml: WriteYaml, capsys: pytest.CaptureFixture[str]) -> None:
    cases = [
        ({"gpus": [{"id": "new_gpu", "name": "x", "source": "s", "as_of": "2024"}]}, "Field required"),
        ({"gpus": [{"id": "br100"}, {"id": "br100"}]}, "duplicate id"),
        ({"gpus": [{"id": "br100", "default_server_id": "ghost"}]}, "unknown servers id 'ghost'"),
    ]
    for index, (data, message) in enumerate(cases):
        path = write_yaml(f"c{index}.yaml", data)
        code, _, err = run_cli("plan", "--gpus", "64", "--catalog", str(path), capsys=capsys)
        assert code == 2, data
        assert message in err and len(err.strip().splitlines()) == 1


def test_non_multiple_gpu_count_rounds_up_and_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(
        "plan", "--gpus", "1001", "--design", "rail8-npo", "--format", "json", capsys=capsys
    )
    assert code == 0
    data = json.loads(out)
    assert (data["gpus_requested"], data["gpus"], data["nodes"]) == (1001, 1008, 126)
    assert any("rounded up to 126 whole nodes" in n for n in data["notes"])


def test_python_dash_m_and_console_script() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "planner", "plan", "--gpus", "0"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and "gpus" in result.stderr
    ok = subprocess.run(
        [sys.executable, "-m", "planner", "plan", "--gpus", "16", "--format", "json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert ok.returncode == 0 and json.loads(ok.stdout)["gpus"] == 16
