"""One declaration per input (planner/inputs): the CLI options and the web forms are generated from
the model fields, help texts read catalog defaults from the catalog, and :func:`parse` turns every
validation error into the product's one line."""

from __future__ import annotations

import argparse
from types import SimpleNamespace
from typing import Annotated, Any

import pytest
from pydantic import Field, create_model

from planner.cli import build_parser, run
from planner.cli.options import Parser, add_model_options, model_options
from planner.errors import CatalogError, InputError
from planner.inputs import Input, declared, parse, reliability, serving, training
from ui import forms

NEW_FIELD = Annotated[
    float | None,
    Field(default=None, ge=0.5, le=4.0, description="Warm-up share of the run [-]; empty = none."),
    Input(flag="--warmup-share", label="wl.field.mfu", group="wl.group.compute", step=0.1),
]


def _job_with_a_new_field() -> type[training.TrainingJob]:
    """The training job with one more input, declared the way a new input is: one field."""
    return create_model("TrainingJob", __base__=training.TrainingJob, warmup_share=NEW_FIELD)


def _help(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert run([*argv, "--help"]) == 0
    return " ".join(capsys.readouterr().out.split())  # argparse wraps lines


def test_a_field_added_to_a_model_is_on_the_cli_and_in_the_form(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The "Must show" of issue 24: adding an input is one field definition (plus translations)."""
    assert "--warmup-share" not in _help(["workload"], capsys)  # the check can fail
    extended = _job_with_a_new_field()
    monkeypatch.setattr(training, "TrainingJob", extended)
    text = _help(["workload"], capsys)
    # the description, its range from ge/le and what "empty" means, all from the one declaration
    assert "--warmup-share X Warm-up share of the run [-] (0.5 to 4; default: none)" in text
    compute = dict(forms.model_groups(extended))["wl.group.compute"]
    added = next(f for f in compute if f.name == "warmup_share")
    assert (added.kind, added.lo, added.hi, added.step, added.optional) == ("float", 0.5, 4.0, 0.1, True)
    assert "warmup_share" not in {f.name for f in forms.model_fields(training.TrainingJob.__base__)}


def test_the_new_option_reaches_the_model_and_its_range_is_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    extended = _job_with_a_new_field()
    parser = Parser(prog="t")
    add_model_options(parser, extended, "job")
    data = model_options(parser.parse_args(["--warmup-share", "2", "--params-b", "7"]), extended)
    assert data == {"params_b": 7.0, "warmup_share": 2.0}
    with pytest.raises(InputError, match=r"warmup_share: .*\(allowed: 0.5 to 4.0\)"):
        parse(extended, {**data, "tokens_b": 1, "warmup_share": 9})


def test_every_declared_flag_is_an_option_of_its_command() -> None:
    commands = {a.dest: a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)}[
        "command"
    ].choices
    for command, models in {
        "workload": (training.TrainingJob, reliability.ReliabilityParams),
        "reliability": (reliability.ReliabilityParams,),
        "serve": (serving.ServingRequest,),
    }.items():
        flags = {s for a in commands[command]._actions for s in a.option_strings}
        declared_flags = {d.spec.flag or d.spec.negative_flag for m in models for d in declared(m)} - {None}
        assert declared_flags <= flags, (command, declared_flags - flags)


def test_help_reads_catalog_defaults_from_the_catalog(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from planner.catalog import load_catalog

    restart = load_catalog().sizing_rules["checkpoint_restart_min"].value
    assert f"the catalog's checkpoint_restart_min, now {restart:g})" in _help(["reliability"], capsys)

    def changed(**_: Any) -> Any:
        return SimpleNamespace(sizing_rules={"checkpoint_restart_min": SimpleNamespace(value=12.5)})

    monkeypatch.setattr("planner.catalog.load_catalog", changed)
    assert "the catalog's checkpoint_restart_min, now 12.5)" in _help(["reliability"], capsys)


def test_parse_names_the_field_the_range_and_the_source() -> None:
    with pytest.raises(InputError) as caught:
        parse(reliability.ReliabilityParams, {"params_b": 7, "restart_min": 2000}, source="file.yaml")
    assert str(caught.value) == (
        "file.yaml: restart_min: Input should be less than or equal to 1440 (got 2000) (allowed: 0 to 1440)"
    )
    with pytest.raises(CatalogError, match=r"^x\.serving\.tp: .*\(allowed: 1 to 1024\)$"):
        parse(serving.ServingRequest, {"params_b": 1, "tp": 0}, prefix="x.serving.", error=CatalogError)
    assert parse(serving.ServingRequest, {"params_b": 1}).params_b == 1.0


def test_the_cli_error_names_the_flag_of_a_generated_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["serve", "--params-b", "70", "--kv-lora-rank", "0"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--kv-lora-rank (kv_lora_rank): " in err and "allowed: 1 to 65536" in err
