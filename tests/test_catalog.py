"""Catalog loading: every record traceable, required fields enforced, overrides and references checked."""

from __future__ import annotations

import copy
import functools
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from planner import Catalog, CatalogError, Scenario, load_catalog, plan, plan_to_dict
from planner.catalog import DATA_DIR, FAMILIES, catalog_files, load_catalog_from_data

WriteYaml = Callable[[str, Any], Path]


def test_bundled_catalog_covers_the_issue_list(catalog: Catalog) -> None:
    for gpu in ("br100", "br104", "h100_sxm", "h200_sxm", "b200_hgx", "mi300x", "ascend_910b"):
        assert gpu in catalog.gpus
    assert any(s.gpus_per_node == 16 for s in catalog.servers.values())
    assert {n.port_speed_gbit_per_s for n in catalog.nics.values()} >= {200, 400, 800}
    assert {o.kind for o in catalog.optics.values()} >= {"pluggable", "lpo", "npo", "cpo"}
    assert {c.kind for c in catalog.cables.values()} >= {"dac", "aec", "fiber_mmf", "fiber_smf"}
    assert {c.kind for c in catalog.cooling.values()} == {"air", "direct_liquid", "immersion"}
    eth_51t = [
        s for s in catalog.switches.values() if s.capacity_gbit_per_s == 51200 and s.family == "ethernet"
    ]
    assert any(s.radix_by_speed == {800: 64, 400: 128, 200: 256} for s in eth_51t)
    assert catalog.switches["qm9700_ndr"].radix_by_speed[400] == 64
    assert catalog.switches["q3400_xdr"].radix_by_speed[800] == 144
    assert set(catalog.designs) >= {"rail4-npo", "rail8-npo", "ib-ndr"}


def test_every_record_is_traceable(catalog: Catalog) -> None:
    for family, record in catalog.records():
        sourced = bool(record.source and record.as_of)
        assumed = record.assumption and bool(record.reason)
        assert sourced or assumed, f"{family}.{record.id} has neither source+as_of nor a reasoned assumption"


@functools.cache
def _parsed_first_raw_records() -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for path in catalog_files():
        for family, items in (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).items():
            found.setdefault(family, items[0])
    return found


def _first_raw_records() -> dict[str, dict[str, Any]]:
    """The first raw record of every family in the bundled files (the files parsed once for the
    module, ~0.3 s of CPU; each caller gets its own copy to change)."""
    return copy.deepcopy(_parsed_first_raw_records())


REQUIRED = [
    (family, name)
    for family, model in FAMILIES.items()
    for name, field in model.model_fields.items()
    if field.is_required() and name != "id"
]


@pytest.mark.parametrize(("family", "field"), REQUIRED)
def test_new_record_missing_a_required_field_is_rejected(family: str, field: str) -> None:
    # pandapower-style: take a real record, give it a new id, drop one required field.
    raw = dict(_first_raw_records()[family])
    raw["id"] = "test_new_record"
    raw.pop(field)
    with pytest.raises(CatalogError, match=rf"{family}\[test_new_record\]\.{field}: Field required"):
        load_catalog_from_data({family: [raw]})


def test_untraceable_record_is_rejected() -> None:
    raw = dict(_first_raw_records()["gpus"], id="no_source_gpu")
    for key in ("source", "as_of", "assumption", "reason"):
        raw.pop(key, None)
    with pytest.raises(CatalogError, match="needs source and as_of"):
        load_catalog_from_data({"gpus": [raw]})


def test_out_of_range_value_names_field_and_range(write_yaml: WriteYaml) -> None:
    path = write_yaml("bad.yaml", {"gpus": [{"id": "h100_sxm", "tdp_w": -5}]})
    with pytest.raises(CatalogError, match=r"gpus\[h100_sxm\]\.tdp_w: .*allowed: 50 to 3000"):
        load_catalog(overrides=[path])


def test_duplicate_id_in_a_file_is_rejected(write_yaml: WriteYaml) -> None:
    path = write_yaml(
        "dup.yaml", {"gpus": [{"id": "h100_sxm", "tdp_w": 700}, {"id": "h100_sxm", "tdp_w": 600}]}
    )
    with pytest.raises(CatalogError, match="duplicate id 'h100_sxm' in gpus"):
        load_catalog(overrides=[path])


def test_dangling_reference_is_rejected(write_yaml: WriteYaml) -> None:
    path = write_yaml("dangling.yaml", {"gpus": [{"id": "h100_sxm", "default_server_id": "no_such_server"}]})
    with pytest.raises(
        CatalogError, match=r"gpus\[h100_sxm\]\.default_server_id refers to unknown servers id"
    ):
        load_catalog(overrides=[path])


def test_design_referring_to_unknown_switch_is_rejected(write_yaml: WriteYaml) -> None:
    design = yaml.safe_load((DATA_DIR / "designs.yaml").read_text(encoding="utf-8"))["designs"][0]
    design = {**design, "id": "my-design", "fabric": {**design["fabric"], "switch_id": "ghost_switch"}}
    with pytest.raises(CatalogError, match="ghost_switch"):
        load_catalog(overrides=[write_yaml("d.yaml", {"designs": [design]})])


def test_unknown_section_and_bad_yaml(write_yaml: WriteYaml, tmp_path: Path) -> None:
    with pytest.raises(CatalogError, match="unknown section 'gpu'"):
        load_catalog(overrides=[write_yaml("s.yaml", {"gpu": []})])
    broken = tmp_path / "broken.yaml"
    broken.write_text("gpus: [ {id: x", encoding="utf-8")
    with pytest.raises(CatalogError, match="not valid YAML/JSON"):
        load_catalog(overrides=[broken])
    with pytest.raises(CatalogError, match="cannot read"):
        load_catalog(overrides=[tmp_path / "missing.yaml"])


def test_override_changes_a_field_and_adds_records(write_yaml: WriteYaml) -> None:
    base = load_catalog()
    new_gpu = {**base.gpus["h100_sxm"].model_dump(), "id": "h100_custom", "name": "H100 custom", "tdp_w": 650}
    path = write_yaml("o.yaml", {"gpus": [{"id": "h100_sxm", "unit_cost_usd": 1.0}, new_gpu]})
    catalog = load_catalog(overrides=[path])
    assert catalog.gpus["h100_sxm"].unit_cost_usd == 1.0
    assert catalog.gpus["h100_sxm"].tdp_w == base.gpus["h100_sxm"].tdp_w
    assert catalog.gpus["h100_custom"].tdp_w == 650
    assert "h100_custom" not in base.gpus


def test_results_do_not_depend_on_catalog_order(tmp_path: Path) -> None:
    # Reverse every section and the file order: every plan must come out identical.
    reordered = tmp_path / "data"
    reordered.mkdir()
    for index, path in enumerate(reversed(catalog_files())):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        reversed_data = {family: list(reversed(items)) for family, items in reversed(list(data.items()))}
        (reordered / f"{index:02d}_{path.name}").write_text(yaml.safe_dump(reversed_data), encoding="utf-8")
    shuffled = load_catalog(data_dir=reordered)
    original = load_catalog()
    for design in ("rail4-npo", "rail8-npo", "ib-ndr"):
        scenario = Scenario(gpus=512, design_id=design)
        assert plan_to_dict(plan(scenario=scenario, catalog=shuffled)) == plan_to_dict(
            plan(scenario=scenario, catalog=original)
        )


def test_catalog_dir_is_copyable(tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(DATA_DIR, copy)
    assert set(load_catalog(data_dir=copy).gpus) == set(load_catalog().gpus)


UNIT_SUFFIXES = (
    "_w",
    "_kw",
    "_usd",
    "_m",
    "_ns",
    "_gbit_per_s",
    "_gbyte_per_s",
    "_gbyte",
    "_tbyte",
    "_tflops",
)


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_every_field_is_described_with_its_unit(family: str) -> None:
    # the Catalog page renders this schema as its field reference
    for name, field in FAMILIES[family].model_fields.items():
        assert field.description, f"{family}.{name} has no description"
        if name.endswith(UNIT_SUFFIXES) and not name.endswith("_id"):
            assert "[" in field.description, f"{family}.{name}: give the unit in brackets"


# A reader of the Assumptions page, the BOM or the customer PDF sees these texts: they must cite
# public material, never a file of this repository or of the team's private notes.
OUTSIDE_REFERENCES = (".md", "../", "reference/", "DESIGN", "/work/", ".txt")


def _strings(value: object) -> list[str]:
    """Every string inside a dumped record (nested models, lists and dicts included)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for item in value.values() for s in _strings(item)]
    if isinstance(value, (list, tuple)):
        return [s for item in value for s in _strings(item)]
    return []


def _outside_references(record_data: dict[str, Any]) -> list[str]:
    return [
        f"{marker!r} in {text!r}"
        for text in _strings(record_data)
        for marker in OUTSIDE_REFERENCES
        if marker in text
    ]


def test_catalog_texts_cite_no_repository_or_private_file(catalog: Catalog) -> None:
    found = [
        f"{family}.{record.id}: {hit}"
        for family, record in catalog.records()
        for hit in _outside_references(record.model_dump())
    ]
    assert not found, "catalog text cites a file instead of a public source:\n" + "\n".join(found)


@pytest.mark.parametrize(
    "text",
    ["see ../notes/parts.md section 6", "DESIGN section 5", "/work/private/x", "reference/doc.txt"],
)
def test_outside_reference_check_catches_file_citations(text: str) -> None:
    # the check above must be able to fail: plant each kind of citation in a real record's fields
    raw = {**_first_raw_records()["gpus"], "id": "planted_gpu", "notes": text}
    record = load_catalog_from_data({"gpus": [raw]}).gpus["planted_gpu"]
    assert _outside_references(record.model_dump())
