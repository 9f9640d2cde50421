"""One strict reading of numbers and keys (the hostile-input issue, item 4), the same on the
command line, in files, uploads, URL parameters and the store's import.

Measured before: ``１２８``, ``١٢٨``, ``1_000`` and `` 12 `` were accepted as numbers on the
command line and in URLs; duplicate keys silently took the last value; YAML 1.1's ``1:20`` (= 80)
and ``0x40`` read as numbers; a NUL byte in a YAML file ended in a traceback.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from planner.cli import run
from planner.errors import InputError
from planner.files import parse_decimal, parse_text, parse_whole
from ui.inputs import parse_query
from ui.upload import read_override

pytest_plugins = ["store_fixtures"]


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    capsys.readouterr()
    code = run(list(args))
    return code, capsys.readouterr().err


def one_line(code: int, err: str, *phrases: str) -> None:
    assert code == 2, err
    assert err.startswith("planner: error: ") and err.count("\n") == 1 and "Traceback" not in err, err
    for phrase in phrases:
        assert phrase in err, err


@pytest.mark.parametrize("text", ["１２８", "١٢٨", "1_000", " 12 ", "12 ", "0x40", "1e3", "+-1", ""])
def test_only_ascii_whole_numbers(text: str) -> None:
    with pytest.raises(InputError, match="ASCII digits 0-9"):
        parse_whole(text, field="gpus")


@pytest.mark.parametrize("text", ["１.５", "1_0.5", "nan", "inf", "-Infinity", "0x1p3", " 1.5"])
def test_only_ascii_decimal_numbers(text: str) -> None:
    with pytest.raises(InputError, match="ASCII digits 0-9"):
        parse_decimal(text, field="rack_kw")


def test_the_message_for_other_digits_says_what_to_write() -> None:
    with pytest.raises(InputError, match="write 128"):
        parse_whole("١٢٨", field="--gpus")


def test_cli_gpus_in_full_width_digits_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    one_line(*cli(capsys, "plan", "--gpus", "１２８"), "ASCII digits")


@pytest.mark.parametrize(
    ("name", "content", "phrase"),
    [
        ("s.yaml", b"gpus: 64\x00\n", "unacceptable character #x0000"),
        ("s.json", b'{"gpus": 64, "gpus": 128}', "duplicate key 'gpus'"),
        ("s.yaml", b"gpus: 64\ngpus: 128\n", "duplicate key 'gpus' (line 2)"),
        ("s.yaml", b"gpus: 1:20\n", "'1:20' (line 1)"),
        ("s.yaml", b"gpus: 0x40\n", "'0x40' (line 1)"),
        ("s.yaml", b"gpus: 0100\n", "'0100' (line 1)"),
        ("s.yaml", b"gpus: 1_024\n", "'1_024' (line 1)"),
        ("s.yaml", b"force_scale_out_fabric: yes\n", "'yes' (line 1)"),
        ("s.yaml", 'gpus: "１２８"\n'.encode(), "write 128"),
        ("s.json", b'{"gpus": " 64 "}', "' 64 '"),
    ],
)
def test_a_scenario_file_is_read_strictly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, content: bytes, phrase: str
) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    one_line(*cli(capsys, "plan", "--scenario", str(path)), phrase)


def test_plain_yaml_still_reads() -> None:
    data = parse_text(
        b"gpus: 64\nrack_kw: 40.5\nexp: 1.5e+3\nflag: true\nneg: -3\nname: '0x40'\ntag: \"yes\"\n",
        name="s.yaml",
        error=InputError,
    )
    assert data == {
        "gpus": 64,
        "rack_kw": 40.5,
        "exp": 1500.0,
        "flag": True,
        "neg": -3,
        "name": "0x40",
        "tag": "yes",
    }


def test_uploads_read_the_same_way() -> None:
    result = read_override("c.json", b'{"gpus": [{"id": "br100", "tdp_w": 400, "tdp_w": 500}]}')
    assert not result.ok and "duplicate key 'tdp_w'" in result.message


@pytest.mark.parametrize("value", ["１２８", "1_024", " 64 ", "0x40"])
def test_url_parameters_read_the_same_way(value: str) -> None:
    values, prices, problems = parse_query({"gpus": value, "prices": f"br100:{value}"})
    assert values == {} and prices == {}
    assert problems == [f"gpus={value}", f"prices=br100:{value}"]


def test_the_store_import_refuses_duplicate_keys(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    document = tmp_path / "in.json"
    document.write_text('{"format": 1, "format": 2}', encoding="utf-8")
    code, err = cli(capsys, "scenarios", "--db", str(tmp_path / "s.db"), "import", str(document))
    one_line(code, err, "duplicate key 'format'")


@pytest.mark.parametrize("value", ['"eighty"', "[1]", "80.5", "true", "-1"])
def test_a_hugging_face_config_with_a_non_count_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    config = tmp_path / "config.json"
    config.write_text(f'{{"num_hidden_layers": {value}, "hidden_size": 8192, "num_attention_heads": 64}}')
    code, err = cli(capsys, "workload", "--hf-config", str(config), "--tokens-b", "100", "--gpus", "64")
    one_line(code, err, "num_hidden_layers must be a whole number")
