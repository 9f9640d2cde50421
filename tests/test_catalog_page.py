"""The Catalog page shows every family readably, in English and Chinese (issue 13).

The page is rendered headless (Streamlit's AppTest, ``tests/apptest.py``) once per language and
switched through every family. Each table must hold no raw Python repr (a design's ``fabric``
and ``claims`` used to show as ``{'family': 'ethernet', ...}``, a server's cooling as
``('air', 'direct_liquid')``, a switch's radix as ``{800: 136}``), no ``None``/``nan`` cell, a
header per field with its unit, headers in Chinese in 中文, and the designs' vendor claims in
their own table labelled as vendor claims with the design's source. ``docs/catalog.md`` is the
field reference generated from the schema and must be current.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest
from apptest import start
from prose import english_runs
from streamlit.testing.v1 import AppTest

from planner import load_catalog
from planner.catalog import FAMILIES
from planner.catalog.schema import Record
from planner.i18n import tr, tr_enum
from planner.report import catalog_table
from ui import keys

LANGS = ("en", "zh")
RAW_REPR = re.compile(r"[{\[(]'|\{-?\d+(\.\d+)?: |^\(\)$|^\[\]$|^\{\}$")
"""What ``str()`` of a dict, list or tuple looks like: ``{'``, ``['``, ``('``, ``{800: ``, or empty."""
CJK = re.compile(r"[\u4e00-\u9fff]")


def raw_cells(frame: pd.DataFrame) -> list[str]:
    """Cells that show a Python repr or a missing value instead of text."""
    found = []
    for column in frame.columns:
        for value in frame[column]:
            text = str(value)
            if RAW_REPR.search(text) or text in ("None", "nan", "NaN", "<NA>"):
                found.append(f"{column}: {text[:80]}")
    return found


def test_the_raw_repr_check_can_fail() -> None:
    frame = pd.DataFrame(
        {
            "a": [str({"family": "ethernet"}), str(("air", "direct_liquid")), str({800: 136}), None],
            "b": ["air, direct_liquid", "136 × 800G", "—", "planes (2 x 400G)"],
        }
    )
    assert raw_cells(frame) == [
        "a: {'family': 'ethernet'}",
        "a: ('air', 'direct_liquid')",
        "a: {800: 136}",
        "a: None",
    ]


@pytest.fixture(scope="module", params=LANGS)
def page(request: pytest.FixtureRequest) -> AppTest:
    """The Catalog page in one language, started once per module and language."""
    return start("catalog", lang=request.param)


def _families(at: AppTest) -> Iterator[str]:
    for family in FAMILIES:
        at.selectbox(key=keys.FAMILY).set_value(family).run()
        assert not at.exception, (family, at.exception)
        yield family


def _lang(at: AppTest) -> str:
    return "zh" if at.title[0].value == tr("page.catalog", "zh") else "en"


def test_every_family_renders_without_raw_values(page: AppTest) -> None:
    found = []
    for family in _families(page):
        frames = [d.value for d in page.dataframe]
        assert len(frames) == (3 if family == "designs" else 2), family  # records, (claims,) reference
        found += [f"{family} {cell}" for frame in frames for cell in raw_cells(frame)]
    assert not found, "\n".join(found)


def test_the_record_count_reads_as_a_count(page: AppTest) -> None:
    """One record is "1 record", not "1 records" (data/economics.yaml holds one exchange rate)."""
    lang = _lang(page)
    counts = {family: len(load_catalog().family(family)) for family in FAMILIES}
    assert counts["exchange_rates"] == 1 and counts["designs"] > 1
    for family in _families(page):
        expected = (
            tr("catalog.record_one", lang)
            if counts[family] == 1
            else tr("catalog.records", lang, count=counts[family])
        )
        assert expected in [c.value for c in page.caption], family


def test_every_header_is_a_label_with_its_unit_and_chinese_in_chinese(page: AppTest) -> None:
    """Records headers are labels, never field names (``tdp_w``); in 中文 every header of every
    table holds Chinese and no English phrase (``tests/prose.py``)."""
    lang = _lang(page)
    found = []
    for family in _families(page):
        records, *others = [d.value for d in page.dataframe]
        fields = catalog_table.family_records(load_catalog(), family, lang).columns
        assert list(records.columns) == [catalog_table.column_label(family, f, lang) for f in fields]
        found += [f"{family}: field name {c!r} as header" for c in records.columns if "_" in c]
        if lang == "zh":
            headers = [c for frame in (records, *others) for c in frame.columns]
            found += [f"{family}: {c!r} not Chinese" for c in headers if not CJK.search(c)]
            found += [f"{family}: {c!r}: {run!r}" for c in headers for run in english_runs(c)]
    assert not found, "\n".join(found)


@pytest.mark.parametrize(
    ("family", "field", "header"),
    [
        ("gpus", "tdp_w", "Board power [W]"),
        ("switches", "capacity_gbit_per_s", "Switching capacity [Gb/s]"),
        ("cables", "cost_usd_per_m", "Price per metre [USD/m]"),
        ("cooling", "capex_usd_per_kw", "Cooling capital cost per kW [USD/kW]"),
        ("energy_prices", "usd_per_kwh", "Electricity price [USD/kWh]"),
        ("designs", "fabric.port_speed_gbit_per_s", "Port speed [Gb/s]"),
        ("designs", "fabric.oversubscription", "Leaf oversubscription"),  # [-]: no unit shown
        ("servers", "gpus_per_node", "GPUs per server"),  # [count]
    ],
)
def test_headers_carry_the_schema_unit(family: str, field: str, header: str) -> None:
    assert catalog_table.column_label(family, field, "en") == header
    assert header in catalog_table.readable_records(load_catalog(), family, "en").columns


def test_every_schema_field_has_a_label() -> None:
    """A new schema field without a short label fails here, not with a KeyError on the page."""
    missing = [
        f"{family}.{path}"
        for family, model in FAMILIES.items()
        for path, _ in catalog_table.schema_fields(model)
        if path.rsplit(".", 1)[-1] not in catalog_table.FIELD_LABELS
    ]
    assert not missing, missing


def test_nested_values_are_flattened_to_columns() -> None:
    """A design's fabric is one column per fabric field; its claims are not a column; a
    switch's radix, a server's cooling methods and an empty CDU capacity read as text."""
    catalog = load_catalog()
    designs = catalog_table.family_records(catalog, "designs", "en").set_index("id")
    assert "fabric" not in designs and "claims" not in designs
    rail8 = designs.loc["rail8-npo"]
    # data/designs.yaml, rail8-npo: ports_per_gpu 8, port_speed 200, planes 8, rail_optimized false
    assert (rail8["fabric.ports_per_gpu"], rail8["fabric.port_speed_gbit_per_s"]) == (8, 200)
    assert (rail8["fabric.planes"], rail8["fabric.rail_optimized"]) == (8, "no")
    assert rail8["fabric.spine_switch_id"] == "—", "unset spine: defaults to the leaf switch"
    switches = catalog_table.family_records(catalog, "switches", "en").set_index("id")
    # data/switches.yaml, mgmt_inband_100g_32p: radix_by_speed {100: 32, 25: 128}
    assert switches.loc["mgmt_inband_100g_32p", "radix_by_speed"] == "32 × 100G, 128 × 25G"
    cooling = catalog_table.family_records(catalog, "cooling", "zh").set_index("id")
    assert cooling.loc["air", "cdu_capacity_kw"] == "—", "air cooling has no CDU"
    assert cooling.loc["direct_liquid", "cdu_capacity_kw"] == "1200"
    assert cooling.loc["air", "kind"] == tr_enum("cooling", "air", "zh")


def test_every_record_shows_where_its_figures_come_from(page: AppTest) -> None:
    """Each row shows a source with its date, or is marked assumed with the reason."""
    lang = _lang(page)
    found = []
    for family in _families(page):
        rows = page.dataframe[0].value
        label = {f: catalog_table.column_label(family, f, lang) for f in catalog_table.PROVENANCE}
        yes = str(catalog_table.cell(family, "assumption", True, lang))
        for _, row in rows.iterrows():
            cited = row[label["source"]] != "—" and row[label["as_of"]] != "—"
            assumed = row[label["assumption"]] == yes and row[label["reason"]] != "—"
            if not (cited or assumed):
                found.append(f"{family}: {row.iloc[0]}")
    assert not found, found


def test_vendor_claims_have_their_own_labelled_table_with_the_source(page: AppTest) -> None:
    lang = _lang(page)
    page.selectbox(key=keys.FAMILY).set_value("designs").run()
    assert tr("catalog.claims", lang) in [s.value for s in page.subheader]
    assert tr("catalog.claims_caption", lang) in [c.value for c in page.caption]
    records, claims = page.dataframe[0].value, page.dataframe[1].value
    catalog = load_catalog()
    expected = sum(len(d.claims) for d in catalog.designs.values())
    assert expected > 0 and len(claims) == expected
    assert list(claims.columns) == [
        tr(f"col.{c}", lang) for c in ("design", "claim", "claimed", "status", "source")
    ]
    statuses = {tr_enum("claim_status", s, lang) for s in ("not verified", "consistent", "verified")}
    assert set(claims[tr("col.status", lang)]) <= statuses
    assert all(s != "—" for s in claims[tr("col.source", lang)]), "every claim cites its design's source"
    texts = {c.text_zh if lang == "zh" else c.text_en for d in catalog.designs.values() for c in d.claims}
    assert set(claims[tr("col.claim", lang)]) == texts
    shown = {str(v) for column in records.columns for v in records[column]}
    assert not texts & shown, "a claim appears among the design's figures"


def test_the_field_reference_lists_nested_fields_in_both_languages() -> None:
    for lang in LANGS:
        fields = list(catalog_table.field_reference("designs", lang)[tr("col.field", lang)])
        assert {"fabric.port_speed_gbit_per_s", "fabric.link_media", "claims[].status"} <= set(fields)
        for family in FAMILIES:
            defaults = catalog_table.field_reference(family, lang)[tr("col.required", lang)]
            raw = [d for d in defaults if str(d).endswith((": None", ": False", ": True", ": ()", ": {}"))]
            assert not raw, (family, lang, raw)
    meaning = catalog_table.field_reference("designs", "zh").set_index(tr("col.field", "zh"))
    assert CJK.search(str(meaning.loc["fabric.planes", tr("col.description_field", "zh")]))


def test_docs_catalog_md_is_current() -> None:
    """``docs/catalog.md`` is what ``python -m planner.report.catalog_table`` writes now."""
    current = catalog_table.DOCS_PATH.read_text(encoding="utf-8")
    assert current == catalog_table.reference_markdown(), (
        "docs/catalog.md is stale: run .venv/bin/python -m planner.report.catalog_table"
    )
    for family, model in FAMILIES.items():
        assert f"(`{family}`)" in current
        own = [p for p, _ in catalog_table.schema_fields(model) if p not in Record.model_fields]
        assert all(f"| `{p}` |" in current for p in own), family


def test_the_docs_check_reports_a_stale_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    stale = tmp_path / "catalog.md"
    stale.write_text("# old\n", encoding="utf-8")
    monkeypatch.setattr(catalog_table, "DOCS_PATH", stale)
    assert catalog_table.main(["--check"]) == 1
    assert stale.read_text(encoding="utf-8") == "# old\n", "--check writes nothing"
    monkeypatch.setattr(catalog_table, "ROOT", tmp_path)
    assert catalog_table.main([]) == 0 and catalog_table.main(["--check"]) == 0
