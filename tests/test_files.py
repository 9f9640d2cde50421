"""One reader for the YAML/JSON files users hand over: the CLI and the upload agree byte for byte.

The same bytes go through the command line (``planner plan --catalog FILE``, ``--scenario FILE``:
a path read by :mod:`planner.files`) and through the catalog page's upload (``ui.upload``: the
uploaded bytes) and must give the same data or the same one-line message naming the file. Before
the two paths shared a reader, a JSON file saved with a byte-order mark was accepted by the
upload and refused by the CLI, and a file that was not UTF-8 crashed the CLI with a traceback.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from planner import CatalogError, InputError, load_catalog
from planner.catalog import load_catalog_from_data
from planner.cli import run
from planner.errors import shorten
from planner.files import CATALOG_FILE, parse_text, read_mapping
from planner.i18n import error_text, translate
from planner.i18n.message import Message
from planner.inputs.scenario import load_scenario
from planner.report.export.scenario_json import import_scenario_json
from planner.store.exchange import parse_document
from ui.upload import read_override

ROOT = Path(__file__).resolve().parents[1]
BOM = b"\xef\xbb\xbf"
OVERRIDE_JSON = b'{"gpus": [{"id": "br100", "unit_cost_usd": 9000}]}'
OVERRIDE_YAML = b"gpus:\n  - id: br100\n    unit_cost_usd: 9000\n"

# (file name, bytes, None when accepted else a phrase of the message both paths must give)
SAME_BYTES = [
    ("bom.json", BOM + OVERRIDE_JSON, None),
    ("plain.json", OVERRIDE_JSON, None),
    ("plain.yaml", OVERRIDE_YAML, None),
    ("bom.yaml", BOM + OVERRIDE_YAML, None),
    ("json-in.yml", OVERRIDE_JSON, None),
    ("latin1.yaml", "gpus: [{id: br100, name: Ünit}]\n".encode("latin-1"), "not UTF-8 text"),
    ("utf16.json", OVERRIDE_JSON.decode().encode("utf-16"), "not UTF-8 text"),
    ("broken.yaml", b"gpus: [{id: br100", "not valid YAML/JSON"),
    ("broken.json", b'{"gpus": [', "not valid JSON"),
    ("yaml-in.json", OVERRIDE_YAML, "not valid JSON"),
    ("list.yaml", b"- 1\n- 2\n", "must be a mapping"),
    ("empty.yaml", b"", "the catalog file is empty"),
    ("bom-only.json", BOM, "not valid JSON"),
    ("range.json", BOM + b'{"gpus": [{"id": "br100", "tdp_w": 1e9}]}', "gpus[br100].tdp_w"),
]


def _cli_override(path: Path) -> tuple[float | None, str]:
    """What the CLI's catalog loading makes of a file: (br100 price, message)."""
    try:
        catalog = load_catalog(overrides=[path])
    except CatalogError as exc:
        return None, str(exc)
    return catalog.gpus["br100"].unit_cost_usd, ""


def _upload_override(name: str, content: bytes) -> tuple[float | None, str]:
    """What the catalog page's upload makes of the same bytes: (br100 price, message)."""
    result = read_override(name, content)
    if not result.ok:
        return None, result.message
    catalog = load_catalog_from_data(json.loads(result.override_json), name=name)
    return catalog.gpus["br100"].unit_cost_usd, ""


@pytest.mark.parametrize(("name", "content", "expected"), SAME_BYTES, ids=[c[0] for c in SAME_BYTES])
def test_the_cli_and_the_upload_read_the_same_bytes_alike(
    tmp_path: Path, name: str, content: bytes, expected: str | None
) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    through_cli = _cli_override(path)
    through_upload = _upload_override(str(path), content)
    assert through_cli == through_upload
    price, message = through_cli
    if expected is None:
        assert price == 9000 and message == ""
    else:
        assert price is None and expected in message
        # the file as given, or cut in its middle when long (pytest-xdist's folders are)
        named = message.startswith((f"{path}: ", f"{shorten(str(path))}: "))
        assert named or "gpus[br100]" in message, "the message names the file"
        assert "\n" not in message


def test_a_json_scenario_with_a_byte_order_mark_plans_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "scenario.json"
    path.write_bytes(BOM + b'{"gpus": 64, "design_id": "rail4-npo"}')
    assert load_scenario(path).gpus == 64
    assert run(["plan", "--scenario", str(path), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["gpus"] == 64


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"gpus: 64\nname: \xe9t\xe9\n", "not UTF-8 text (invalid byte at offset 15)"),
        (b"", "the scenario file is empty"),
        (b"[64]", "a scenario file must be a mapping"),
    ],
)
def test_a_bad_scenario_file_is_one_line_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, expected: str
) -> None:
    path = tmp_path / "scenario.yaml"
    path.write_bytes(content)
    with pytest.raises(InputError) as caught:
        load_scenario(path)
    assert str(caught.value) in {f"{path}: {expected}", f"{shorten(str(path))}: {expected}"}
    assert run(["plan", "--scenario", str(path)]) == 2
    err = capsys.readouterr().err
    assert expected in err and "Traceback" not in err


def test_bytes_and_path_give_the_same_data(tmp_path: Path) -> None:
    path = tmp_path / "o.yaml"
    path.write_bytes(BOM + OVERRIDE_YAML)
    from_path = read_mapping(path, what=CATALOG_FILE, error=CatalogError)
    from_bytes = read_mapping(path.read_bytes(), name=str(path), what=CATALOG_FILE, error=CatalogError)
    assert from_path == from_bytes == {"gpus": [{"id": "br100", "unit_cost_usd": 9000}]}
    with pytest.raises(TypeError):
        read_mapping(b"gpus: []", what=CATALOG_FILE, error=CatalogError)


def test_a_missing_file_is_named() -> None:
    with pytest.raises(CatalogError, match=r"^/no/such/file.yaml: cannot read catalog file \("):
        read_mapping(Path("/no/such/file.yaml"), what=CATALOG_FILE, error=CatalogError)


def test_the_suffix_picks_the_syntax() -> None:
    # YAML reads JSON, so a .yaml file may hold either; a .json file must be strict JSON
    assert parse_text(b'{"a": 1}', name="x.yaml", error=InputError) == {"a": 1}
    with pytest.raises(InputError, match="not valid JSON"):
        parse_text(b"a: 1", name="x.json", error=InputError)


def test_file_messages_translate(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_bytes(b"\xff")
    with pytest.raises(CatalogError) as caught:
        load_catalog(overrides=[path])
    message = error_text(caught.value)
    assert isinstance(message, Message)
    assert translate(message, "zh") == f"{path}：不是 UTF-8 文本（偏移 0 处的字节无效）"
    empty = read_override("empty.yaml", b"")
    assert translate(empty.message, "zh") == "empty.yaml：组件目录文件为空"


# --- one JSON reader: the scenario JSON of a proposal and the store's import read through it -------

JSON_READERS: dict[str, Callable[[bytes], object]] = {
    "planner.files": lambda data: parse_text(data, name="doc.json", error=InputError),
    "scenario_json": lambda data: import_scenario_json(data, source="doc.json"),
    "store import": lambda data: parse_document(data, source="doc.json"),
}


@pytest.mark.parametrize("reader", list(JSON_READERS))
@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b'{"gpus": 64, "price_overrides_usd": {"br100": NaN}}', "doc.json: not valid JSON (NaN is not"),
        (b'{"gpus": Infinity}', "doc.json: not valid JSON (Infinity is not a number JSON allows)"),
        (b'{"gpus": -Infinity}', "doc.json: not valid JSON (-Infinity is not a number JSON allows)"),
        # '{"gpus": 64,' then a new line: the value is missing at line 2 column 1
        (b'{"gpus": 64,\n', "doc.json: not valid JSON (Expecting property name enclosed in double quotes"),
        (b"\xef\xbb\xbf", "doc.json: not valid JSON (Expecting value at line 1 column 1)"),
        (b"gpus: 64", "doc.json: not valid JSON (Expecting value at line 1 column 1)"),
        (b'{"gpus": 64}\xff', "doc.json: not UTF-8 text (invalid byte at offset 12)"),
    ],
)
def test_every_json_reader_refuses_alike(reader: str, content: bytes, expected: str) -> None:
    """The same bytes give the same one-line message through every reader of JSON documents:
    NaN and Infinity refused, a syntax error placed by line and column, bad UTF-8 by offset."""
    with pytest.raises(InputError) as caught:
        JSON_READERS[reader](content)
    assert str(caught.value).startswith(expected), str(caught.value)
    if b"\n" in content:
        assert str(caught.value).endswith("at line 2 column 1)")


def test_strict_json_messages_translate() -> None:
    with pytest.raises(InputError) as caught:
        parse_text(b'{"a": 1,', name="doc.json", error=InputError)
    assert translate(error_text(caught.value), "zh").startswith("doc.json：不是有效的 JSON（")
    assert "第 1 行第 9 列" in translate(error_text(caught.value), "zh")


PARSE_CALLS = {"json.loads", "json.load", "yaml.safe_load", "yaml.load", "yaml.full_load"}
INTERNAL_JSON = {
    # the store's own column, written by the store (not a file a user hands over)
    "planner/store/repository.py",
    # reformats the JSON pandas just wrote
    "planner/cli/options.py",
}


def _parse_calls(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and ast.unparse(node.func) in PARSE_CALLS
    ]


def test_planner_has_one_yaml_json_reader() -> None:
    """Every file a user hands over is parsed by planner.files; only internal round trips
    (listed, with the reason) parse JSON themselves."""
    found = [
        call
        for path in sorted((ROOT / "planner").rglob("*.py"))
        if path.relative_to(ROOT).as_posix() not in {"planner/files.py", *INTERNAL_JSON}
        for call in _parse_calls(path)
    ]
    assert not found, f"parse through planner.files instead: {found}"
    assert _parse_calls(ROOT / "planner" / "files.py"), "the check can fail: files.py parses"
