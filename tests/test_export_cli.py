"""``planner export``: writes the four files (exit 0); bad input exits 2 with one line, no traceback."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from planner import Scenario
from planner.cli import run
from planner.report.export import import_scenario_json, read_bom_csv, read_xlsx

ROOT = Path(__file__).resolve().parents[1]


def png_logo() -> bytes:
    """A small real PNG (a blue square with a white bar)."""
    image = Image.new("RGB", (120, 60), "#1F3A68")
    image.paste((255, 255, 255), (10, 25, 110, 35))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = run(["export", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_export_writes_every_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    logo = tmp_path / "logo.png"
    logo.write_bytes(png_logo())
    files = {kind: tmp_path / f"out.{kind}" for kind in ("pdf", "csv", "xlsx", "json")}
    code, out, err = run_cli(
        capsys,
        "--gpus", "128", "--design", "rail4-npo", "--lang", "zh", "--edition", "internal",
        "--margin", "0.2", "--discount", "0.05", "--customer", "=ACME", "--project", "Pod 1",
        "--author", "J. Doe", "--version", "3.0", "--date", "2026-05-14", "--logo", str(logo),
        *[arg for kind, path in files.items() for arg in (f"--{kind}", str(path))],
    )  # fmt: skip
    assert (code, err) == (0, "")
    assert out.count("wrote ") == 4
    assert files["pdf"].read_bytes().startswith(b"%PDF-")
    edition, records = read_bom_csv(files["csv"].read_bytes())
    assert (
        edition == "internal" and records[0]["customer"] == "=ACME" and records[0]["margin_fraction"] == 0.2
    )
    assert len(read_xlsx(files["xlsx"].read_bytes())) == 5
    scenario = import_scenario_json(files["json"].read_bytes())
    assert scenario == Scenario(gpus=128, design_id="rail4-npo")


def test_export_without_a_pdf_needs_no_browser(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "bom.csv"
    code, out, _ = run_cli(
        capsys, "--gpus", "64", "--lang", "en", "--edition", "customer", "--csv", str(target)
    )
    assert code == 0 and out == f"wrote {target} ({target.stat().st_size:,} bytes)\n"
    assert read_bom_csv(target.read_bytes())[0] == "customer"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--margin", "5"], "pricing.margin"),
        (["--margin", "abc"], "--margin"),
        (["--discount", "0.95"], "pricing.discount"),
        (["--csv", "/no/such/dir/bom.csv"], "does not exist"),
        (["--csv", "{tmp}"], "is a directory"),
        (["--logo", "{tmp}/missing.png"], "--logo"),
        (["--logo", "{tmp}/fake.png"], "not a PNG or JPEG"),
        (["--date", "14/05/2026"], "--date"),
        (["--designs", "rail4-npo,nope"], "nope"),
        (["--propose", "nope"], "proposed"),
        (["--gpus", "0"], "gpus"),
        (["--version", ""], "version"),
        (["--customer", "x" * 201], "customer"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    args: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "fake.png").write_bytes(b"not an image")
    filled = [a.replace("{tmp}", str(tmp_path)) for a in args]
    if "--csv" not in filled:
        filled += ["--csv", str(tmp_path / "out.csv")]
    code, out, err = run_cli(capsys, "--gpus", "64", "--lang", "en", "--edition", "customer", *filled)
    assert code == 2, err
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("planner: error:") and "Traceback" not in err
    assert message in err
    assert not (tmp_path / "out.csv").exists(), "nothing written on bad input"


@pytest.mark.parametrize(
    "args",
    [
        ["--lang", "en", "--edition", "customer"],  # no file to write
        ["--csv", "x.csv", "--edition", "customer"],  # --lang is required
        ["--csv", "x.csv", "--lang", "fr", "--edition", "customer"],
        ["--csv", "x.csv", "--lang", "en", "--edition", "secret"],
    ],
)
def test_missing_or_invalid_choices_exit_2(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, *args)
    assert code == 2 and err.count("\n") == 1 and err.startswith("planner: error:")


def test_the_cli_module_does_not_import_streamlit() -> None:
    code = "import sys, planner.cli.export, planner.cli; planner.cli.build_parser(); print('streamlit' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert result.stdout.strip() == "False"


def test_export_is_listed_in_the_cli_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "--help")
    assert code == 0
    for flag in (
        "--pdf",
        "--csv",
        "--xlsx",
        "--json",
        "--lang",
        "--edition",
        "--margin",
        "--gpus",
        "--catalog",
    ):
        assert flag in out, flag
    assert json.dumps("export")  # the subcommand name is plain ASCII
