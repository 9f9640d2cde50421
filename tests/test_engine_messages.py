"""Engine messages of the catalog, scenario, file, store and facility code are translatable.

They are :class:`~planner.i18n.message.Message` objects: English exactly as before (the CLI, the
JSON and the other tests read it), and a template with named parameters that
:func:`planner.i18n.translate` fills again in Chinese from ``locales/zh/LC_MESSAGES/engine_data.po``.
"""

from __future__ import annotations

import math
from typing import Literal

import pytest
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from planner import CatalogError, InputError, load_catalog
from planner.catalog import load_catalog_from_data
from planner.errors import describe_validation_error, joined
from planner.facility.power import rack_layout
from planner.i18n import error_text, translate
from planner.i18n.message import Message, msg
from planner.inputs.scenario import scenario_from_data
from planner.store.fields import clean_tags


class _Sample(BaseModel):
    model_config = ConfigDict(extra="forbid")

    count: int = Field(default=1, ge=1, le=10)
    share: float = Field(default=0.5, gt=0, lt=1)
    ratio: float = 1.0
    label: str = Field(default="a", max_length=3, pattern=r"^[a-z]+$")
    code: str = Field(default="a", min_length=2)
    flag: bool = False
    kind: Literal["x", "y"] = "x"
    items: list[int] = Field(default_factory=list, min_length=1)
    table: dict[str, int] = Field(default_factory=dict)
    needed: int

    @field_validator("ratio")
    @classmethod
    def _finite(cls, value: float) -> float:
        if not math.isfinite(value):
            raise ValueError(msg("{name} is not a number JSON allows", name="ratio"))
        return value


def _errors(data: dict[str, object]) -> list[Message]:
    with pytest.raises(ValidationError) as caught:
        _Sample.model_validate(data)
    text = describe_validation_error(caught.value, model=_Sample)
    parts: list[Message] = []
    while isinstance(text, Message) and text.template == "{first}; {rest}":
        parts.append(text.params["first"])
        text = text.params["rest"]
    parts.append(text)  # type: ignore[arg-type]
    return parts


@pytest.mark.parametrize(
    ("data", "english"),
    [
        ({"count": 0}, "count: Input should be greater than or equal to 1 (got 0) (allowed: 1 to 10)"),
        ({"count": 11}, "count: Input should be less than or equal to 10 (got 11) (allowed: 1 to 10)"),
        ({"share": 0}, "share: Input should be greater than 0 (got 0) (allowed: 0 to 1)"),
        ({"share": 1}, "share: Input should be less than 1 (got 1) (allowed: 0 to 1)"),
        (
            {"count": "many"},
            "count: Input should be a valid integer, unable to parse string as an integer (got 'many') "
            "(allowed: 1 to 10)",
        ),
        (
            {"count": 2.5},
            "count: Input should be a valid integer, got a number with a fractional part (got 2.5) "
            "(allowed: 1 to 10)",
        ),
        (
            {"ratio": "half"},
            "ratio: Input should be a valid number, unable to parse string as a number (got 'half')",
        ),
        ({"ratio": math.inf}, "ratio: Value error, ratio is not a number JSON allows (got inf)"),
        ({"label": "abcd"}, "label: String should have at most 3 characters (got 'abcd')"),
        ({"label": "A"}, "label: String should match pattern '^[a-z]+$' (got 'A')"),
        ({"code": "a"}, "code: String should have at least 2 characters (got 'a')"),
        ({"flag": "maybe"}, "flag: Input should be a valid boolean, unable to interpret input (got 'maybe')"),
        ({"kind": "z"}, "kind: Input should be 'x' or 'y' (got 'z')"),
        ({"items": []}, "items: List should have at least 1 item after validation, not 0"),
        ({"table": 3}, "table: Input should be a valid dictionary (got 3)"),
        ({"colour": "red"}, "colour: unknown key"),
        ({}, "needed: Field required"),
    ],
)
def test_validation_english_is_unchanged_and_chinese_is_filled(data: dict[str, object], english: str) -> None:
    payload = {"needed": 1, **data} if "needed" not in data and data else data
    parts = _errors(payload)
    assert len(parts) == 1
    assert parts[0] == english, "the English text is pydantic's, byte for byte"
    chinese = translate(parts[0], "zh")
    # pydantic says "at least 1 item": the template's "{min_length} items" agrees with a count of 1
    # in English (planner/i18n/counts.py), so that message is found and translated too
    assert chinese != english
    assert not any(
        word in chinese for word in ("Input should", "String should", "List should", "Field required")
    )


def test_a_check_across_fields_is_its_own_line_in_either_language() -> None:
    """A model-level check words its own message and names its fields: no "(top level): Value error"."""
    from planner.inputs.training import training_job

    data = {"params_b": 30, "tokens_b": 100, "experts": 8, "top_k": 9}
    with pytest.raises(InputError) as caught:
        training_job(data, source="options")
    english = error_text(caught.value)
    assert english == "options: top_k (9) must not exceed experts (8)"
    assert translate(english, "zh") == "options：top_k（9）不得超过专家数（8）"


def test_several_problems_are_one_line_of_translatable_parts() -> None:
    parts = _errors({"count": 0, "share": 2, "needed": 1})
    assert [p.template for p in parts] == ["{field}: {problem} (got {value}) (allowed: {low} to {high})"] * 2
    with pytest.raises(ValidationError) as caught:
        _Sample.model_validate({"count": 0, "share": 2, "needed": 1})
    line = describe_validation_error(caught.value, model=_Sample)
    assert line == (
        "count: Input should be greater than or equal to 1 (got 0) (allowed: 1 to 10); "
        "share: Input should be less than 1 (got 2) (allowed: 0 to 1)"
    )
    assert translate(line, "zh") == (
        "count：输入值应大于或等于 1（输入值 0）（允许范围：1 至 10）；"
        "share：输入值应小于 1（输入值 2）（允许范围：0 至 1）"
    )


def test_joined_keeps_every_part() -> None:
    line = joined([msg("unknown key"), "plain", msg("Field required")])
    assert line == "unknown key; plain; Field required"
    assert translate(line, "zh") == "未知字段；plain；缺少必填字段"
    assert joined([]) == "" and joined(["one"]) == "one"


def test_a_scenario_error_translates_from_source_to_range() -> None:
    with pytest.raises(InputError) as caught:
        scenario_from_data({"gpus": 0, "facility": {"years": 99}})
    message = error_text(caught.value)
    assert str(caught.value) == (
        "scenario: gpus: Input should be greater than or equal to 1 (got 0) (allowed: 1 to 1048576); "
        "facility.years: Input should be less than or equal to 15 (got 99) (allowed: 1 to 15)"
    )
    assert translate(message, "zh") == (
        "场景：gpus：输入值应大于或等于 1（输入值 0）（允许范围：1 至 1048576）；"
        "facility.years：输入值应小于或等于 15（输入值 99）（允许范围：1 至 15）"
    )


def test_catalog_reference_problems_translate_each() -> None:
    with pytest.raises(CatalogError) as caught:
        load_catalog_from_data({"designs": [{"id": "rail4-npo", "default_gpu_id": "nope"}]}, name="o.yaml")
    assert str(caught.value) == "designs[rail4-npo].default_gpu_id refers to unknown gpus id 'nope'"
    assert translate(error_text(caught.value), "zh") == (
        "designs[rail4-npo].default_gpu_id 引用了未知的 gpus id 'nope'"
    )
    with pytest.raises(CatalogError) as unknown:
        load_catalog().get("gpus", "ghost")
    assert translate(error_text(unknown.value), "zh").startswith("未知的 gpus id 'ghost'（已有：")


def test_facility_and_store_messages_translate() -> None:
    with pytest.raises(InputError) as caught:
        rack_layout(
            nodes=4,
            node_kw=12.0,
            node_rack_units=8,
            rack_power_limit_kw=10.0,
            usable_rack_units=42,
            infra_rack_units=4,
            infra_kw=1.0,
            network_fill_fraction=0.8,
        )
    assert str(caught.value) == (
        "facility.rack_power_limit_kw: one server needs 12.0 kW and 8 U; the rack allows 10 kW and 42 U "
        "(allowed: 12.0 to 300 kW)"
    )
    assert translate(error_text(caught.value), "zh") == (
        "facility.rack_power_limit_kw：单台服务器需要 12.0 kW 和 8 U，而机柜仅允许 10 kW 和 42 U"
        "（允许范围：12.0 至 300 kW）"
    )
    with pytest.raises(InputError) as tags:
        clean_tags("a,b")
    assert translate(error_text(tags.value), "zh") == "tags：必须是标签列表，而不是单个字符串"
