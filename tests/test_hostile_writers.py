"""No injection through what the product writes or prints (the hostile-input issue, item 2).

Every CSV/XLSX table goes through one writer (:mod:`planner.sheets`, and the typed workbooks of
:mod:`planner.report.export.xlsx`): a scan of the code finds every writer and fails on one
outside them; each table the product writes is then written with a hostile name and read back.
Names refuse control, bidirectional-override and zero-width characters; ``--user``/``--team``
too. Measured before: the sweep CSV, ``scenarios list --format csv``, ``catalog list --format
csv`` and NetBox ``devices.csv`` wrote ``=cmd|' /C calc'!A0`` as a live formula, and
``--user $'\\e[2J'`` reached the audit table raw.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pandas as pd
import pytest

from planner import load_catalog
from planner.cli import run
from planner.errors import InputError
from planner.files import check_plain_text
from planner.sheets import FORMULA_TRIGGERS, csv_bytes, frame_csv, restore_cell
from planner.store.fields import clean_customer, clean_name, clean_tag

pytest_plugins = ["store_fixtures"]

ROOT = Path(__file__).resolve().parents[1]
HOSTILE = "=cmd|' /C calc'!A0"
WRITER = re.compile(r"csv\.writer\(|csv\.DictWriter\(|\.to_csv\(|\bWorkbook\(|\.to_excel\(|ExcelWriter\(")
WRITER_HOMES = {"planner/sheets.py", "planner/report/export/xlsx.py"}
"""The only modules allowed to build a CSV or XLSX file."""


def product_sources() -> list[Path]:
    files = [ROOT / "app.py", *(ROOT / "pages").glob("*.py")]
    for folder in ("planner", "ui"):
        files += (ROOT / folder).rglob("*.py")
    return sorted(files)


def test_every_table_writer_is_the_safe_one() -> None:
    writers = {
        str(path.relative_to(ROOT))
        for path in product_sources()
        if WRITER.search(path.read_text(encoding="utf-8"))
    }
    assert writers == WRITER_HOMES, (
        f"a CSV/XLSX writer outside planner/sheets.py: {sorted(writers - WRITER_HOMES)}"
    )
    # and the product's table builders all call it
    users = {
        str(p.relative_to(ROOT))
        for p in product_sources()
        if re.search(r"\b(csv_bytes|csv_text|frame_csv)\(", p.read_text(encoding="utf-8"))
    }
    for module in (
        "planner/handoff/netbox.py",  # NetBox sites/racks/devices/interfaces/cables.csv
        "planner/handoff/tables.py",  # cabling CSV
        "planner/report/export/csv.py",  # BOM CSV
        "planner/report/acceptance.py",  # the acceptance report CSV
        "planner/cli/catalog.py",  # catalog list --format csv
        "planner/cli/scenarios.py",  # scenarios list --format csv
        "planner/cli/options.py",  # plan/compare/sweep --format csv
        "ui/widgets.py",  # csv_download, the pages' one CSV button
    ):
        assert module in users, module
    # the pages offer their tables through that one button
    for page in ("ui/views/scaling.py", "ui/views/bom.py", "ui/views/workload.py"):
        assert re.search(r"\bcsv_download\(", (ROOT / page).read_text(encoding="utf-8")), page


def cells(text: str) -> list[str]:
    return [cell for row in csv.reader(io.StringIO(text)) for cell in row]


def assert_safe(text: str, hostile: str = HOSTILE) -> None:
    found = cells(text)
    assert "'" + hostile in found, found[:20]
    assert all(not c.startswith(FORMULA_TRIGGERS) or re.fullmatch(r"-[0-9.e]+", c) for c in found), found


@pytest.mark.parametrize("text", [HOSTILE, "+1+1", "-2+A1", "@SUM(A1)", "\tx", "＝1", "'quoted"])
def test_the_writer_neutralises_and_restores(text: str) -> None:
    written = cells(csv_bytes(["name"], [[text], [-5], ["-5.5"]]).decode())
    assert written[1] == "'" + text and restore_cell(written[1]) == text
    assert written[2:] == ["-5", "-5.5"], "plain numbers stay numbers"
    frame = pd.DataFrame({"name": [text, None], "gpus": [8, 16]})
    assert cells(frame_csv(frame))[2] == "'" + text


def test_scenarios_list_csv_neutralises_a_hostile_name(
    db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        run(
            [
                "scenarios",
                "--database-url",
                db_url,
                "save",
                "--name",
                HOSTILE,
                "--customer",
                "@evil",
                "--tag",
                "+x",
            ]
        )
        == 0
    )
    capsys.readouterr()
    assert run(["scenarios", "--database-url", db_url, "list", "--format", "csv"]) == 0
    out = capsys.readouterr().out
    assert_safe(out)
    assert "'@evil" in cells(out) and "'+x" in cells(out)


def test_catalog_list_csv_neutralises_a_hostile_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gpu = next(iter(load_catalog().gpus.values()))
    override = tmp_path / "override.yaml"
    override.write_text(f'gpus:\n  - id: {gpu.id}\n    name: "{HOSTILE}"\n', encoding="utf-8")
    assert run(["catalog", "list", "--family", "gpus", "--catalog", str(override), "--format", "csv"]) == 0
    assert_safe(capsys.readouterr().out)


def test_netbox_files_neutralise_hostile_text() -> None:
    from planner.handoff import netbox

    text = csv_bytes(netbox.DEVICE_FIELDS, [[HOSTILE] * len(netbox.DEVICE_FIELDS)]).decode()
    assert_safe(text)


# -- names and the command line's identity ---------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "invoice\u202eexe.pdf",
        "zero\u200bwidth",
        "bom\ufeff",
        "esc\x1b[2J",
        "cr\rreturn",
        "nul\x00",
        "lri\u2066x",
    ],
)
def test_names_refuse_control_bidi_and_zero_width_characters(name: str) -> None:
    for clean in (clean_name, clean_customer, clean_tag):
        with pytest.raises(InputError, match="bidirectional or zero-width characters"):
            clean(name)


def test_plain_names_pass() -> None:
    for name in ("Acme 1024 GPUs", "北京 智算中心", "Ünïcødé — ok", "مرحبا"):
        assert check_plain_text(name, field="name") == name


@pytest.mark.parametrize("option", ["--user", "--team"])
@pytest.mark.parametrize("value", ["ann\x1b[31m", "ann\rroot", "ann\u202e"])
def test_user_and_team_are_validated(
    db_url: str, capsys: pytest.CaptureFixture[str], option: str, value: str
) -> None:
    capsys.readouterr()
    code = run(["scenarios", "--database-url", db_url, option, value, "list"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and option in err, err
    assert "\x1b" not in err and "\r" not in err and "\u202e" not in err, (
        "the refusal names the character, never prints it"
    )


# -- what the command line writes -------------------------------------------------------------------


def test_one_file_named_for_two_outputs_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "x"
    args = ["export", "--gpus", "64", "--lang", "en", "--edition", "customer", "--csv", str(target)]
    assert run([*args, "--xlsx", str(target)]) == 2
    err = capsys.readouterr().err
    assert "--csv and --xlsx name the same file" in err and err.count("\n") == 1, err
    assert not target.exists(), "nothing written"


def test_a_file_name_too_long_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    name = str(tmp_path / ("a" * 256 + ".csv"))
    assert run(["export", "--gpus", "64", "--lang", "en", "--edition", "customer", "--csv", name]) == 2
    err = capsys.readouterr().err
    assert err.startswith("planner: error: ") and err.count("\n") == 1 and "Traceback" not in err, err


def test_stdout_on_a_full_disk_is_one_line() -> None:
    import subprocess
    import sys

    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [sys.executable, "-m", "planner", "plan", "--gpus", "64"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            timeout=120,
            check=False,
        )
    assert result.returncode == 1
    assert result.stderr == "planner: error: cannot write the output: No space left on device\n", (
        result.stderr
    )


def test_deleting_a_deleted_scenario_says_so(db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    def scenarios(*args: str) -> tuple[int, str]:
        capsys.readouterr()
        code = run(["scenarios", "--database-url", db_url, *args])
        return code, capsys.readouterr().err

    assert run(["scenarios", "--database-url", db_url, "save", "--name", "Acme"]) == 0
    sid = capsys.readouterr().out.strip()
    assert scenarios("delete", sid)[0] == 0
    code, err = scenarios("delete", sid)
    assert code == 2 and "already in the trash" in err and err.count("\n") == 1, err
    assert scenarios("restore", sid)[0] == 0
    code, err = scenarios("restore", sid)
    assert code == 2 and "not in the trash" in err, err
