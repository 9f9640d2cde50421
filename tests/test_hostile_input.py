"""Hostile input: every file, upload, import and URL parameter is refused in one line, in bounded
time and memory, and a failed export leaves nothing behind.

Each case below was measured before the limits existed (the hostile-input issue): a 0.6 KB YAML
alias bomb froze the web server for about 70 s and 3.4 GB; 20k-level nesting ended in a
``RecursionError`` traceback; ``--scenario /dev/zero`` ran into the OOM killer; ``.nan`` prices
printed ``"capex_usd": NaN``; ``?scenario=`` with 20 digits raised ``OverflowError``; a failed
export left the CSV it had already written.
"""

from __future__ import annotations

import math
import os
import re
import resource
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from planner import CatalogError, InputError, atomic, load_catalog, scenario_from_data
from planner.cli import run
from planner.errors import shorten
from planner.files import CATALOG_FILE, MAX_DEPTH, MAX_FILE_BYTES, parse_text, read_mapping
from planner.i18n import translate
from planner.inputs.scenario import MAX_PRICE_USD
from planner.store import parse_share_params
from planner.store.fields import MAX_ID, check_scenario_id, check_version_number
from ui.inputs import parse_query
from ui.upload import read_override

pytest_plugins = ["store_fixtures"]

ROOT = Path(__file__).resolve().parents[1]

# "billion laughs": nine levels of nine aliases, 9**9 (387 million) strings once expanded
ALIAS_BOMB = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
    f"{chr(ord('a') + i)}: &{chr(ord('a') + i)} [{', '.join(['*' + chr(ord('a') + i - 1)] * 9)}]\n"
    for i in range(1, 9)
)
ALIAS_BOMB_CATALOG = ALIAS_BOMB + "gpus: [{id: br100, as_of: *i, name: *i}]\n"
ALIAS_BOMB_SCENARIO = ALIAS_BOMB + "name: *i\n"


def deep_json(levels: int) -> str:
    """A JSON mapping nesting ``levels`` levels: ``{"x": {"x": ... 1}}``."""
    return '{"x": ' * levels + "1" + "}" * levels


def deep_yaml(levels: int) -> str:
    """A YAML flow sequence nesting ``levels`` levels under the key ``gpus``."""
    return "gpus: " + "[" * levels + "]" * levels + "\n"


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``planner ARGS`` in this process: (exit code, stdout, stderr)."""
    capsys.readouterr()
    code = run(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def refused(result: tuple[int, str, str], *phrases: str, max_chars: int = 400) -> str:
    """Assert exit code 2, one short line on stderr, no traceback, each phrase in it."""
    code, _, err = result
    assert code == 2, err
    assert err.startswith("planner: error: "), err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert len(err) <= max_chars, f"{len(err)} characters: {err[:200]}"
    for phrase in phrases:
        assert phrase in err, err
    return err


def write(folder: Path, name: str, text: str | bytes) -> Path:
    path = folder / name
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    return path


def limited_subprocess(
    args: list[str], *, memory_bytes: int = 2 * 1024**3
) -> subprocess.CompletedProcess[str]:
    """``python -m planner ARGS`` with its address space capped: an expansion that used to need
    3.4 GB dies of MemoryError under this cap instead of finishing, so only a refusal passes."""

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))

    return subprocess.run(
        [sys.executable, "-m", "planner", *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
        timeout=120,
        preexec_fn=cap,
    )


def one_line_exit_2(result: subprocess.CompletedProcess[str], phrase: str) -> None:
    assert result.returncode == 2, result.stderr[-2000:]
    assert "Traceback" not in result.stderr and result.stderr.count("\n") == 1, result.stderr[-2000:]
    assert phrase in result.stderr


# --- the reader: aliases, nesting, size, devices -------------------------------------------------


@pytest.mark.parametrize(
    ("args", "name", "text"),
    [
        (["catalog", "validate", "--catalog"], "bomb.yaml", ALIAS_BOMB_CATALOG),
        (["plan", "--format", "json", "--scenario"], "bomb.yaml", ALIAS_BOMB_SCENARIO),
    ],
)
def test_alias_bomb_is_refused_in_a_memory_capped_subprocess(
    tmp_path: Path, args: list[str], name: str, text: str
) -> None:
    path = write(tmp_path, name, text)
    assert path.stat().st_size < 1000  # the 0.6 KB file of the issue
    one_line_exit_2(limited_subprocess([*args, str(path)]), "YAML aliases are not allowed")


def test_alias_bomb_upload_is_refused_with_the_rule_named() -> None:
    result = read_override("bomb.yaml", ALIAS_BOMB_CATALOG.encode())
    assert not result.ok
    assert result.message == "bomb.yaml: YAML aliases are not allowed (line 2)"
    assert translate(result.message, "zh") == "bomb.yaml：不允许使用 YAML 别名（第 2 行）"


def test_alias_bomb_in_a_catalog_override_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "bomb.yaml", ALIAS_BOMB_CATALOG)
    with pytest.raises(CatalogError, match="YAML aliases are not allowed"):
        load_catalog(overrides=[path])


def test_a_merge_key_is_an_alias_too() -> None:
    text = b"base: &b {tdp_w: 700}\ngpus: [{<<: *b, id: br100}]\n"
    with pytest.raises(CatalogError, match=r"^m.yaml: YAML aliases are not allowed \(line 2\)$"):
        parse_text(text, name="m.yaml", error=CatalogError)


def test_the_bundled_catalog_keeps_its_anchors() -> None:
    """data/*.yaml share source texts by anchor; they are trusted and still load."""
    bundled = "\n".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "data").glob("*.yaml")))
    assert "&" in bundled and "*" in bundled
    catalog = load_catalog()
    assert catalog.gpus


@pytest.mark.parametrize(
    ("args", "name", "text"),
    [
        (["plan", "--scenario"], "deep.json", deep_json(20_000)),
        (["plan", "--scenario"], "deep.yaml", "name: " + "[" * 20_000 + "]" * 20_000),
        (["catalog", "validate", "--catalog"], "deep.json", '{"gpus": ' + deep_json(20_000) + "}"),
        (["catalog", "validate", "--catalog"], "deep.yaml", deep_yaml(20_000)),
        (["plan", "--scenario"], "deep65.json", deep_json(MAX_DEPTH + 1)),
    ],
)
def test_deep_nesting_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], name: str, text: str
) -> None:
    path = write(tmp_path, name, text)
    err = refused(cli(capsys, *args, str(path)), f": nesting deeper than {MAX_DEPTH} levels")
    # the file as given, or cut in its middle when long (pytest-xdist's folders are)
    assert f"error: {path}: " in err or f"error: {shorten(str(path))}: " in err, err


def test_nesting_at_the_limit_is_read() -> None:
    data = parse_text(deep_json(MAX_DEPTH - 1).encode(), name="ok.json", error=InputError)
    for _ in range(MAX_DEPTH - 1):
        data = data["x"]
    assert data == 1


def test_deep_nesting_upload_is_refused() -> None:
    result = read_override("deep.json", ('{"gpus": ' + deep_json(20_000) + "}").encode())
    assert not result.ok and result.message == f"deep.json: nesting deeper than {MAX_DEPTH} levels"


def test_deep_nesting_import_is_refused(
    tmp_path: Path, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "deep.json", deep_json(20_000))
    refused(cli(capsys, "scenarios", "--database-url", db_url, "import", str(path)), "nesting deeper than")


def test_deep_nesting_in_a_real_process_exits_2(tmp_path: Path) -> None:
    path = write(tmp_path, "deep.json", deep_json(50_000))
    one_line_exit_2(limited_subprocess(["plan", "--scenario", str(path)]), "nesting deeper than 64 levels")


def test_dev_zero_is_refused_before_it_is_read() -> None:
    result = limited_subprocess(["plan", "--scenario", "/dev/zero"], memory_bytes=2 * 1024**3)
    one_line_exit_2(result, "/dev/zero: not a regular file; name a scenario file")


def test_a_fifo_is_refused_without_waiting_for_a_writer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "scenario.yaml"
    os.mkfifo(fifo)  # opening it for reading would block until a writer came
    refused(cli(capsys, "plan", "--scenario", str(fifo)), "not a regular file")
    refused(
        cli(capsys, "catalog", "validate", "--catalog", str(fifo)), "not a regular file; name a catalog file"
    )


def test_a_directory_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    refused(cli(capsys, "plan", "--scenario", str(tmp_path)), "not a regular file")


def test_a_file_over_the_size_limit_is_refused_and_not_echoed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "big.yaml", "name: " + "x" * (MAX_FILE_BYTES + 10))
    err = refused(cli(capsys, "plan", "--scenario", str(path)), "scenario file larger than 2 MB")
    assert "xxxxxxxxxx" not in err


def test_a_long_name_is_echoed_cut_to_80_characters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "long.yaml", "name: " + "y" * 1_500_000)
    err = refused(cli(capsys, "plan", "--scenario", str(path)), "name: String should have at most 200")
    assert "y" * 79 + "…)" in err and "y" * 80 not in err  # repr quote + 79 = 80 characters


def test_a_long_unknown_key_is_cut_too(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path, "key.json", '{"' + "k" * 100_000 + '": 1}')
    err = refused(cli(capsys, "plan", "--scenario", str(path)), "unknown key")
    assert "k" * 80 + "…" in err


def test_an_upload_over_the_size_limit_is_refused() -> None:
    result = read_override("big.yaml", b"#" * (MAX_FILE_BYTES + 1))
    assert not result.ok and result.message == "big.yaml: catalog file larger than 2 MB"
    assert translate(result.message, "zh") == "big.yaml：组件目录文件超过 2 MB"


def test_the_same_size_limit_for_a_path_and_for_bytes(tmp_path: Path) -> None:
    content = b"#" * (MAX_FILE_BYTES + 1)
    path = write(tmp_path, "big.yaml", content)
    messages = []
    for source in (path, content):
        with pytest.raises(CatalogError) as caught:
            read_mapping(source, name="big.yaml", what=CATALOG_FILE, error=CatalogError)
        messages.append(str(caught.value))
    assert messages[0] == messages[1] == "big.yaml: catalog file larger than 2 MB"


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        (b"gpus: " + b"9" * 5000, "not valid YAML/JSON (Exceeds the limit"),
        (b"gpus: 2024-13-45", "not valid YAML/JSON (month must be in 1..12)"),
        (b"gpus: !!python/object:os.system [ls]", "not valid YAML/JSON"),
    ],
)
def test_scalars_yaml_cannot_build_are_one_line_errors(text: bytes, phrase: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_text(text, name="s.yaml", error=InputError)
    assert str(caught.value).startswith("s.yaml: ") and phrase in str(caught.value)
    assert len(str(caught.value)) < 200


def test_a_list_as_id_or_date_is_refused_without_expanding_it(tmp_path: Path) -> None:
    bad_id = write(tmp_path, "id.yaml", "gpus: [{id: [a, b, c], tdp_w: 700}]\n")
    with pytest.raises(CatalogError, match=r"gpus\[0\] must be a mapping with an 'id'"):
        load_catalog(overrides=[bad_id])
    bad_date = write(tmp_path, "date.yaml", "gpus: [{id: br100, as_of: [2024, 2025]}]\n")
    with pytest.raises(CatalogError, match=r"gpus\[br100\]\.as_of"):
        load_catalog(overrides=[bad_date])


# --- finite numbers only ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("yaml_value", "phrase"),
    [
        (".nan", "price_overrides_usd.h100_sxm: Input should be a finite number"),
        (".inf", "price_overrides_usd.h100_sxm: Input should be a finite number"),
        ("-.inf", "price_overrides_usd.h100_sxm: Input should be a finite number"),
        ("1e308", "price_overrides_usd.h100_sxm: must be below 1e+09"),
        ("-1", "price_overrides_usd.h100_sxm: must be >= 0"),
    ],
)
def test_prices_from_a_scenario_file_are_finite_and_bounded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], yaml_value: str, phrase: str
) -> None:
    path = write(tmp_path, "s.yaml", f"gpus: 64\nprice_overrides_usd: {{h100_sxm: {yaml_value}}}\n")
    refused(cli(capsys, "plan", "--format", "json", "--scenario", str(path)), phrase)


@pytest.mark.parametrize(
    "field",
    ["rack_power_limit_kw", "pue_override", "electricity_usd_per_kwh", "discount_rate", "utilization"],
)
def test_facility_numbers_are_finite(field: str) -> None:
    with pytest.raises(InputError, match=rf"facility\.{field}: Input should be a finite number"):
        scenario_from_data({"facility": {field: math.nan}})


def test_link_lengths_and_fabric_are_finite() -> None:
    with pytest.raises(InputError, match=r"facility\.link_lengths\.node_leaf_m: Input should be a finite"):
        scenario_from_data({"facility": {"link_lengths": {"node_leaf_m": math.inf}}})
    with pytest.raises(InputError, match=r"fabric\.oversubscription: Input should be a finite number"):
        scenario_from_data({"fabric": {"oversubscription": math.nan}})


def test_the_largest_price_is_just_below_the_ceiling() -> None:
    below = MAX_PRICE_USD - 1
    assert scenario_from_data({"price_overrides_usd": {"br100": below}}).price_overrides_usd["br100"] == below
    with pytest.raises(InputError, match="must be below"):
        scenario_from_data({"price_overrides_usd": {"br100": MAX_PRICE_USD}})


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("gpus: [{id: br100, unit_cost_usd: .nan}]", "gpus[br100].unit_cost_usd"),
        ("gpus: [{id: br100, tdp_w: .inf}]", "gpus[br100].tdp_w"),
        ("cost_factors: [{id: spares_fraction, value: .nan}]", "cost_factors[spares_fraction].value"),
    ],
)
def test_catalog_numbers_are_finite(tmp_path: Path, text: str, field: str) -> None:
    path = write(tmp_path, "o.yaml", text)
    with pytest.raises(CatalogError, match=re.escape(f"{field}: Input should be a finite number")):
        load_catalog(overrides=[path])
    upload = read_override("o.yaml", text.encode())
    assert not upload.ok and field in upload.message


def test_json_overflow_to_infinity_is_refused_on_import(
    tmp_path: Path, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``1e999`` is valid JSON that Python reads as ``inf``: the schema catches it."""
    exported = tmp_path / "doc.json"
    assert cli(capsys, "scenarios", "--database-url", db_url, "save", "--name", "x", "--gpus", "64")[0] == 0
    assert (
        cli(capsys, "scenarios", "--database-url", db_url, "export", "1", "--output", str(exported))[0] == 0
    )
    text = exported.read_text(encoding="utf-8").replace('"discount_rate": 0.08', '"discount_rate": 1e999')
    assert "1e999" in text
    path = write(tmp_path, "inf.json", text)
    refused(cli(capsys, "scenarios", "--database-url", db_url, "import", str(path)), "discount_rate")


def test_plan_json_never_prints_nan(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "s.yaml", "gpus: 64\nprice_overrides_usd: {h100_sxm: .nan}\n")
    code, out, _ = cli(capsys, "plan", "--format", "json", "--scenario", str(path))
    assert code == 2 and "NaN" not in out


# --- URL parameters --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["rack_kw", "elec", "pue", "discount", "util", "load", "fx"])
@pytest.mark.parametrize("text", ["nan", "inf", "-inf", "NaN"])
def test_url_numbers_must_be_finite(name: str, text: str) -> None:
    values, _, problems = parse_query({name: text})
    assert name not in values and problems == [f"{name}={text}"]


def test_url_prices_must_be_finite_and_below_the_ceiling() -> None:
    _, prices, problems = parse_query({"prices": "br100:nan,h100_sxm:inf,b200:1e308,mi300x:9000"})
    assert prices == {"mi300x": 9000.0}
    assert problems == ["prices=br100:nan", "prices=h100_sxm:inf", "prices=b200:1e308"]


def test_url_problems_are_cut_and_huge_numbers_do_not_raise() -> None:
    values, _, problems = parse_query({"gpus": "9" * 5000, "rack_kw": "1" * 400})
    assert values == {}
    assert problems == [f"gpus={'9' * 80}…", f"rack_kw={'1' * 80}…"]


# --- ids bounded to the database's integer ---------------------------------------------------------


@pytest.mark.parametrize("text", [str(2**63), "9" * 30, "9" * 5000, "0", "-1", "²", "1e3", " "])
def test_share_link_ids_are_bounded(text: str) -> None:
    with pytest.raises(InputError, match=rf"^share link: scenario must be a whole number from 1 to {MAX_ID}"):
        parse_share_params({"scenario": text})


def test_share_link_at_the_largest_id_parses() -> None:
    ref = parse_share_params({"scenario": str(MAX_ID), "version": str(MAX_ID)})
    assert ref is not None and (ref.scenario_id, ref.version) == (MAX_ID, MAX_ID)


def test_id_checks_name_the_range() -> None:
    with pytest.raises(InputError, match=rf"^scenario id: must be a whole number from 1 to {MAX_ID}"):
        check_scenario_id(MAX_ID + 1)
    with pytest.raises(InputError, match=r"^version: must be a whole number from 1"):
        check_version_number(2**64)
    assert check_scenario_id(MAX_ID) == MAX_ID


@pytest.mark.parametrize(
    ("args", "phrase"),
    [
        (["show", str(2**63)], f"scenario id: must be a whole number from 1 to {MAX_ID}"),
        (["show", "1", "--version", "9" * 25], "version: must be a whole number from 1"),
        (["delete", str(2**70)], "scenario id: must be a whole number from 1"),
        (["show", str(MAX_ID)], "no saved scenario"),
    ],
)
def test_store_cli_ids_beyond_the_integer_column_exit_2(
    db_url: str, capsys: pytest.CaptureFixture[str], args: list[str], phrase: str
) -> None:
    assert cli(capsys, "scenarios", "--database-url", db_url, "save", "--name", "x", "--gpus", "64")[0] == 0
    refused(cli(capsys, "scenarios", "--database-url", db_url, *args), phrase)


# --- atomic writes ---------------------------------------------------------------------------------


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_export_to_a_full_device_leaves_no_csv(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full on this system")
    result = cli(
        capsys, "export", "--gpus", "64", "--lang", "en", "--edition", "customer",
        "--csv", str(tmp_path / "bom.csv"), "--json", "/dev/full",
    )  # fmt: skip
    refused(result, "--json /dev/full: cannot write", "no file written")
    assert _leftovers(tmp_path) == []


def test_export_failing_on_one_file_writes_none_and_keeps_the_old_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    old_csv = write(tmp_path, "bom.csv", "old,csv\n")
    original: Callable[[Path, bytes], Path] = atomic._temporary_copy

    def full_disk_on_xlsx(path: Path, content: bytes) -> Path:
        if path.suffix == ".xlsx":
            raise OSError(28, "No space left on device")
        return original(path, content)

    monkeypatch.setattr(atomic, "_temporary_copy", full_disk_on_xlsx)
    result = cli(
        capsys, "export", "--gpus", "64", "--lang", "en", "--edition", "customer",
        "--csv", str(old_csv), "--xlsx", str(tmp_path / "bom.xlsx"), "--json", str(tmp_path / "s.json"),
    )  # fmt: skip
    refused(result, f"--xlsx {tmp_path / 'bom.xlsx'}: cannot write (No space left on device)")
    assert _leftovers(tmp_path) == ["bom.csv"] and old_csv.read_text() == "old,csv\n"


def test_a_failed_rename_removes_every_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_rename(*_: Any) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "replace", no_rename)
    with pytest.raises(atomic.WriteError) as caught:
        atomic.write_all({tmp_path / "a.csv": b"a", tmp_path / "b.csv": b"b"})
    assert caught.value.path == tmp_path / "a.csv" and _leftovers(tmp_path) == []


def test_atomic_write_keeps_the_mode_and_follows_a_link(tmp_path: Path) -> None:
    target = write(tmp_path, "real.csv", "old")
    target.chmod(0o640)
    link = tmp_path / "link.csv"
    link.symlink_to(target)
    atomic.write_bytes(link, b"new")
    assert link.is_symlink() and target.read_bytes() == b"new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert _leftovers(tmp_path) == ["link.csv", "real.csv"]


def test_scenarios_export_into_a_missing_folder_leaves_nothing(
    tmp_path: Path, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli(capsys, "scenarios", "--database-url", db_url, "save", "--name", "x", "--gpus", "64")[0] == 0
    target = tmp_path / "missing" / "x.json"
    refused(
        cli(capsys, "scenarios", "--database-url", db_url, "export", "1", "--output", str(target)),
        "cannot write",
    )
    assert not target.parent.exists()


def test_import_from_a_device_is_refused(db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    refused(
        cli(capsys, "scenarios", "--database-url", db_url, "import", "/dev/zero"),
        "/dev/zero: not a regular file; name a scenario export document",
    )


# --- import validates by planning, as save does ---------------------------------------------------


@pytest.mark.parametrize(
    ("scenario", "field"),
    [
        ('{"gpus": 16, "design_id": "nope"}', "design_id: unknown designs id 'nope'"),
        ('{"gpus": 16, "gpu_id": "nope"}', "gpu_id: unknown gpus id 'nope'"),
        # 1,048,576 = 2**20 GPUs: past the 320,000 of a four-tier fat tree of 40-port switches
        ('{"gpus": 1048576, "design_id": "ib-hdr"}', "gpus: 1048576 GPUs exceed"),
        ('{"gpus": 16, "facility": {"cooling_id": "immersion"}}', "facility.cooling_id:"),
    ],
)
def test_import_refuses_what_save_refuses_and_stores_nothing(
    scenario: str, field: str, tmp_path: Path, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "s.json", scenario)
    refused(
        cli(capsys, "scenarios", "--database-url", db_url, "import", str(path)),
        "import rejected, nothing was saved",
        field,
    )
    # save refuses the same scenario with the same field named
    refused(
        cli(capsys, "scenarios", "--database-url", db_url, "save", "--name", "x", "--scenario", str(path)),
        field,
    )
    code, out, _ = cli(capsys, "scenarios", "--database-url", db_url, "list", "--format", "json")
    assert code == 0 and out.strip() == "[]"


def test_import_of_a_plannable_scenario_still_saves(
    tmp_path: Path, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "s.json", '{"gpus": 64, "design_id": "ib-ndr"}')
    code, out, err = cli(capsys, "scenarios", "--database-url", db_url, "import", str(path))
    assert (code, out.strip()) == (0, "1"), err


def test_import_is_planned_on_the_catalog_given(
    tmp_path: Path, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A GPU that only an override file defines imports with that file, and is refused without it."""
    override = write(
        tmp_path,
        "gpus.yaml",
        (ROOT / "data" / "gpus.yaml")
        .read_text(encoding="utf-8")
        .replace("id: h100_sxm", "id: h100_custom", 1),
    )
    path = write(tmp_path, "s.json", '{"gpus": 64, "gpu_id": "h100_custom"}')
    base = ["scenarios", "--database-url", db_url, "import", str(path)]
    refused(cli(capsys, *base), "gpu_id: unknown gpus id 'h100_custom'")
    code, out, err = cli(capsys, *base, "--catalog", str(override))
    assert (code, out.strip()) == (0, "1"), err


# --- standard input and other non-regular files ----------------------------------------------------


def _plan_on_stdin(stdin: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "planner", "plan", "--format", "json", "--scenario", "/dev/stdin"],
        stdin=stdin,
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
        timeout=60,
    )


def test_dev_stdin_from_a_pipe_is_refused_without_waiting() -> None:
    """A pipe is a FIFO: refused by its type, before a read that could block or never end."""
    with subprocess.Popen(["yes"], stdout=subprocess.PIPE) as endless:
        try:
            one_line_exit_2(_plan_on_stdin(endless.stdout), "/dev/stdin: not a regular file")
        finally:
            endless.kill()


def test_dev_stdin_from_a_regular_file_is_read_with_the_size_limit(tmp_path: Path) -> None:
    small = write(tmp_path, "s.yaml", "gpus: 64\n")
    with small.open("rb") as handle:
        result = _plan_on_stdin(handle)
    assert result.returncode == 0, result.stderr
    big = write(tmp_path, "big.yaml", "gpus: 64\n" + "#" * MAX_FILE_BYTES + "\n")
    with big.open("rb") as handle:
        one_line_exit_2(_plan_on_stdin(handle), "larger than 2 MB")


def test_dev_stdin_from_a_terminal_like_device_is_refused() -> None:
    with open(os.devnull, "rb") as handle:  # a character device, as a terminal is
        one_line_exit_2(_plan_on_stdin(handle), "not a regular file")


# --- sweeps go on past sizes a design cannot build --------------------------------------------------


def test_a_huge_sweep_is_refused_up_front_with_the_bound_named(capsys: pytest.CaptureFixture[str]) -> None:
    """1:200000:1 used to plan for 32 s and then fail at the first unbuildable size; the count
    of plans is now known after one probe per design and refused in one line."""
    refused(
        cli(capsys, "sweep", "--sizes", "1:200000:1"),
        "more than the 4,096 a sweep plans",
        "use a step",
    )


@pytest.mark.parametrize("fmt", ["json", "table", "csv"])
def test_a_sweep_past_a_design_limit_lists_the_skipped_sizes(
    fmt: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # ib-hdr stops at 320,000 GPUs (four tiers of 40-port switches, rail-optimized); 320,008 and
    # 640,000 cannot be built and are reported, 64 and 320,000 are planned
    code, out, err = cli(
        capsys, "sweep", "--designs", "ib-hdr", "--sizes", "64,320000,320008,640000", "--format", fmt
    )
    assert code == 0, err
    if fmt == "json":
        import json

        data = json.loads(out)
        assert [row["gpus"] for row in data["sweep"]] == [64, 320000]
        (skip,) = data["skipped"]
        assert (skip["design"], skip["gpus_from"], skip["gpus_to"], skip["sizes"]) == (
            "ib-hdr",
            320008,
            640000,
            2,
        )
        assert "four-tier limit" in skip["reason"]
    elif fmt == "table":
        assert "skipped ib-hdr: 2 size(s) from 320,008 to 640,000 GPUs: gpus: 320008 GPUs exceed" in out
    else:
        assert len(out.strip().splitlines()) == 3  # header and two rows: the CSV stays one table
        assert err.startswith("planner: note: skipped ib-hdr: 2 size(s) from 320,008 to 640,000 GPUs")
