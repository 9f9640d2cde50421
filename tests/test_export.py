"""Export writers without a browser: pricing, CSV, XLSX, scenario JSON, escaping, file names.

Each test opens what was written (parses the CSV, loads the workbook, re-imports the JSON) and
checks it against the engine's numbers; the PDF itself is tested in ``test_export_pdf.py``.
"""

from __future__ import annotations

import csv
import doctest
import io
import math
from html import escape as html_escape
from types import ModuleType

import openpyxl
import pytest
from hypothesis import given
from hypothesis import strategies as st

import planner.report.export.browser
import planner.report.export.csv
import planner.report.export.html
import planner.report.export.names
import planner.report.export.pricing
import planner.report.export.safety
import planner.report.export.scenario_json
import planner.report.export.xlsx
from planner import Catalog, InputError, Scenario, load_catalog, plan
from planner.catalog import load_catalog_from_data
from planner.design import FabricParams
from planner.i18n import tr
from planner.report import charts, proposal
from planner.report.export import (
    Column,
    Pricing,
    Sheet,
    bom_records,
    export_scenario_json,
    import_scenario_json,
    neutralize_cell,
    priced_plan,
    pricing_from_data,
    read_bom_csv,
    read_xlsx,
    restore_cell,
    safe_filename,
    write_bom_csv,
    write_xlsx,
)
from planner.report.export.csv import CUSTOMER_COLUMNS, INTERNAL_COLUMNS
from planner.report.export.pricing import mentions_money, redact_prices
from planner.sheets import FORMULA_TRIGGERS

INJECTIONS = ("=cmd|' /C calc'!A0", "+1+1", "-2+3", "@SUM(A1:A9)", "\t=1", "\r=1", "＝1+1")


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


@pytest.fixture(scope="module")
def proposals(catalog: Catalog) -> dict[str, proposal.Proposal]:
    made = {}
    for edition in ("customer", "internal"):
        options = proposal.options_from_data(
            {
                "edition": edition,
                "customer": INJECTIONS[0],
                "project": "+Project",
                "notes": "@notes -5",
                "pricing": {"margin": 0.17, "discount": 0.05},
            }
        )
        made[edition] = proposal.build_proposal(scenario=Scenario(gpus=512), catalog=catalog, options=options)
    return made


@pytest.mark.parametrize(
    "module",
    [
        planner.report.export.safety,
        planner.report.export.names,
        planner.report.export.pricing,
        planner.report.export.xlsx,
        planner.report.export.html,
    ],
)
def test_export_doctests(module: ModuleType) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


# --- safety and names --------------------------------------------------------------------------


@pytest.mark.parametrize("text", INJECTIONS)
def test_formula_triggers_get_an_apostrophe(text: str) -> None:
    assert neutralize_cell(text) == "'" + text
    assert restore_cell(neutralize_cell(text)) == text


@given(st.text())
def test_neutralize_is_exactly_undone_and_never_leaves_a_trigger(text: str) -> None:
    safe = neutralize_cell(text)
    assert restore_cell(safe) == text
    assert not safe.startswith(FORMULA_TRIGGERS)


@pytest.mark.parametrize(
    ("parts", "expected"),
    [
        (("../../etc/passwd",), "etc_passwd.pdf"),
        (("C:\\Windows\\system32",), "C_Windows_system32.pdf"),
        (("ACME <script>", "2026/05"), "ACME_script_2026_05.pdf"),
        (("北京 某某科技", "方案"), "北京_某某科技_方案.pdf"),
        (("NUL",), "_NUL.pdf"),
        (("...",), "export.pdf"),
        (("a\x00b\nc",), "a_b_c.pdf"),
    ],
)
def test_file_names_are_sanitized(parts: tuple[str, ...], expected: str) -> None:
    assert safe_filename(*parts, ext="pdf") == expected


@given(st.lists(st.text(), max_size=4))
def test_any_text_gives_a_safe_file_name(parts: list[str]) -> None:
    name = safe_filename(*parts, ext="csv")
    assert name.endswith(".csv") and "/" not in name and "\\" not in name and "\x00" not in name
    assert not name.startswith((".", "-")) and len(name.encode("utf-8")) <= 130


def test_a_bad_extension_is_refused() -> None:
    with pytest.raises(InputError, match="extension"):
        safe_filename("x", ext="pdf/../sh")


def test_proposal_file_names_use_sanitized_user_text(proposals: dict[str, proposal.Proposal]) -> None:
    name = proposal.file_name(proposals["customer"], "pdf")
    assert name == "cmd_C_calc_A0_Project_proposal_customer_v1.0.pdf"
    assert proposal.file_name(proposals["internal"], "json") == "cmd_C_calc_A0_Project_scenario.json"


# --- pricing -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "field"),
    [({"margin": -0.1}, "margin"), ({"margin": 3.5}, "margin"), ({"discount": 0.95}, "discount")],
)
def test_pricing_out_of_range_names_the_field_and_range(data: dict[str, float], field: str) -> None:
    with pytest.raises(InputError, match=rf"{field}: .*allowed: 0\.0 to"):
        pricing_from_data(data)


def test_zero_margin_prices_equal_costs(catalog: Catalog) -> None:
    cost = plan(scenario=Scenario(gpus=256), catalog=catalog)
    priced = priced_plan(cost, catalog=catalog, pricing=Pricing(margin=0.0))
    assert priced.cost.capex_usd == pytest.approx(cost.cost.capex_usd, abs=0.01 * len(cost.bom))
    assert priced.cost.tco_usd == pytest.approx(cost.cost.tco_usd, rel=1e-9)
    assert priced.cost.usd_per_gpu_hour == pytest.approx(cost.cost.usd_per_gpu_hour, rel=1e-9)


def test_prices_scale_capex_but_not_energy(catalog: Catalog) -> None:
    cost = plan(scenario=Scenario(gpus=256), catalog=catalog)
    pricing = Pricing(margin=0.25, discount=0.2)  # factor (1.25)(0.8) = 1.0
    assert pricing.price_factor == 1.0
    pricing = Pricing(margin=0.2)
    priced = priced_plan(cost, catalog=catalog, pricing=pricing)
    # each unit price is rounded to the cent: at most half a cent per unit off
    slack = sum(line.quantity for line in cost.bom) * 0.005
    assert priced.cost.capex_usd == pytest.approx(cost.cost.capex_usd * 1.2, abs=slack)
    energy = "energy"
    assert priced.cost.opex_by_item_usd_per_year[energy] == cost.cost.opex_by_item_usd_per_year[energy]
    assert priced.cost.opex_by_item_usd_per_year["maintenance"] == pytest.approx(
        cost.cost.opex_by_item_usd_per_year["maintenance"] * 1.2, rel=1e-6
    )
    assert priced.topology == cost.topology and priced.power == cost.power


def test_recommendation_is_the_same_in_both_editions(proposals: dict[str, proposal.Proposal]) -> None:
    customer, internal = proposals["customer"], proposals["internal"]
    assert customer.recommended_id == internal.recommended_id
    best = min(customer.priced_plans, key=lambda p: p.cost.usd_per_gpu_hour)
    assert customer.recommended_id == best.design_id
    assert customer.plan is not customer.cost_plan, "the customer edition shows the priced plan"
    assert internal.plan is internal.cost_plan


def test_customer_assumptions_lose_every_price_reference(proposals: dict[str, proposal.Proposal]) -> None:
    p = proposals["customer"]
    texts = [redact_prices(a.text) for a in p.cost_plan.assumptions] + [
        redact_prices(line.source) for line in p.cost_plan.bom
    ]
    assert not [t for t in texts if mentions_money(t)]
    assert any(mentions_money(a.text) for a in p.cost_plan.assumptions), "the catalog does cite prices"


# --- CSV ------------------------------------------------------------------------------------------------


def test_csv_columns_are_the_documented_ones() -> None:
    assert CUSTOMER_COLUMNS == (
        "line",
        "category",
        "id",
        "description",
        "quantity",
        "unit_price",
        "total_price",
        "currency",
        "customer",
        "project",
        "version",
    )
    internal = (
        *CUSTOMER_COLUMNS,
        "unit_cost",
        "total_cost",
        "margin_fraction",
        "discount_fraction",
        "source",
    )
    assert internal == INTERNAL_COLUMNS
    for column in INTERNAL_COLUMNS:
        assert f"``{column}``" in (planner.report.export.csv.__doc__ or ""), column


@pytest.mark.parametrize("edition", ["customer", "internal"])
def test_csv_round_trips(proposals: dict[str, proposal.Proposal], edition: str) -> None:
    p = proposals[edition]
    data = proposal.bom_csv(p)
    assert data.startswith(b"\xef\xbb\xbf"), "UTF-8 with BOM, so Excel reads Chinese"
    read_edition, records = read_bom_csv(data)
    assert read_edition == edition
    o = p.options
    expected = bom_records(
        p.cost_plan,
        pricing=o.pricing,
        edition=o.edition,
        customer=o.customer,
        project=o.project,
        version=o.version,
    )
    assert records == expected
    assert [r["quantity"] for r in records] == [line.quantity for line in p.cost_plan.bom]
    for r in records:
        assert r["total_price"] == round(float(r["unit_price"]) * int(r["quantity"]), 2)


def test_csv_totals_match_the_priced_plan(proposals: dict[str, proposal.Proposal]) -> None:
    p = proposals["customer"]
    _, records = read_bom_csv(proposal.bom_csv(p))
    assert set(records[0]) == set(CUSTOMER_COLUMNS), "no cost column in the customer edition"
    total = sum(float(r["total_price"]) for r in records)
    assert total == pytest.approx(p.plan.cost.capex_usd, abs=0.01)


def test_csv_neutralizes_injection_in_every_text_cell(catalog: Catalog) -> None:
    hostile = load_catalog_from_data({"gpus": [{"id": "br100", "name": INJECTIONS[3]}]}, name="test")
    cost = plan(scenario=Scenario(gpus=64, design_id="rail8-npo"), catalog=hostile)
    for customer in INJECTIONS:
        records = bom_records(cost, pricing=Pricing(), edition="internal", customer=customer, project="-p")
        rows = list(csv.reader(io.StringIO(write_bom_csv(records, edition="internal").decode("utf-8-sig"))))
        header = rows[0]
        text_cells = [
            row[header.index(c)] for row in rows[1:] for c in ("customer", "project", "description")
        ]
        assert all(not cell.startswith(FORMULA_TRIGGERS) for cell in text_cells), customer
        assert rows[1][header.index("customer")] == "'" + customer
        assert rows[1][header.index("description")] == "GPU " + INJECTIONS[3], "starts with GPU: left alone"
    names = [r["description"] for r in bom_records(cost, pricing=Pricing(), edition="customer")]
    assert names[0] == "GPU @SUM(A1:A9)"


def test_csv_with_unknown_columns_is_refused() -> None:
    with pytest.raises(InputError, match="unknown columns"):
        read_bom_csv(b"a,b\r\n1,2\r\n")


# --- XLSX ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("edition", ["customer", "internal"])
def test_workbook_has_the_sheets_and_the_bom(proposals: dict[str, proposal.Proposal], edition: str) -> None:
    p = proposals[edition]
    data = proposal.workbook(p)
    sheets = read_xlsx(data)
    lang = p.lang
    assert list(sheets) == [
        tr("export.sheet.proposal", lang),
        tr("export.sheet.bom", lang),
        tr("export.sheet.compare", lang),
        tr("export.sheet.cabling", lang),
        tr("export.sheet.assumptions", lang),
    ]
    bom = sheets[tr("export.sheet.bom", lang)]
    records = read_bom_csv(proposal.bom_csv(p))[1]
    assert len(bom) == len(records)
    amount = tr("export.col.amount", lang, currency="USD")
    assert [row[amount] for row in bom] == [r["total_price"] for r in records]
    cost_header = tr("export.col.unit_cost", lang, currency="USD")
    assert (cost_header in bom[0]) == (edition == "internal")
    comparison = sheets[tr("export.sheet.compare", lang)]
    assert [row[tr("col.design", lang)] for row in comparison] == [
        p.names[q.design_id] for q in p.shown_plans
    ]
    info = {
        row[tr("col.item", lang)]: row[tr("col.value", lang)]
        for row in sheets[tr("export.sheet.proposal", lang)]
    }
    assert info[tr("export.meta.customer", lang)] == INJECTIONS[0]
    assert info[tr("export.notes", lang)] == "@notes -5"


def test_workbook_cells_are_never_formulas_and_numbers_are_formatted(
    proposals: dict[str, proposal.Proposal],
) -> None:
    book = openpyxl.load_workbook(io.BytesIO(proposal.workbook(proposals["internal"])))
    for ws in book.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                assert cell.data_type != "f", f"{ws.title}!{cell.coordinate} is a formula"
                if isinstance(cell.value, str):
                    assert not cell.value.startswith(FORMULA_TRIGGERS), f"{ws.title}!{cell.coordinate}"
    info = book.worksheets[0]
    assert info["B2"].value == "'" + INJECTIONS[0]
    bom = book.worksheets[1]
    header = [c.value for c in bom[1]]
    price = header.index(tr("export.col.unit_price", "en", currency="USD")) + 1
    quantity = header.index(tr("col.quantity", "en")) + 1
    assert bom.cell(row=2, column=price).number_format == "#,##0.00"
    assert bom.cell(row=2, column=quantity).number_format == "#,##0"
    assert isinstance(bom.cell(row=2, column=price).value, int | float), "a number, not text"
    assert bom.freeze_panes == "A2"


def test_xlsx_writer_round_trips_any_text() -> None:
    texts = ["plain", *INJECTIONS, "'quoted", "中文 العربية", "x\x07y"]
    sheet = Sheet(
        title="T[1]/x",
        columns=(Column("text", "Text"), Column("n", "N", "money")),
        rows=tuple({"text": t, "n": i * 1.5} for i, t in enumerate(texts)),
    )
    read = read_xlsx(write_xlsx([sheet]))
    assert list(read) == ["T(1)_x"]
    # XML keeps no bare carriage return (it reads back as a line feed); other control
    # characters cannot be stored at all and are dropped
    expected = [t.replace("\r", "\n") for t in texts[:-1]] + ["xy"]
    assert [r["Text"] for r in read["T(1)_x"]] == expected
    assert [r["N"] for r in read["T(1)_x"]] == [i * 1.5 for i in range(len(texts))]


# --- scenario JSON -------------------------------------------------------------------------------------------


SCENARIOS = [
    Scenario(),
    Scenario(name="北京 <pod> =1", gpus=200, design_id="ib-ndr", price_overrides_usd={"br100": 9999.99}),
    Scenario(
        gpus=96,
        design_id="rail4-npo",
        fabric=FabricParams.model_validate(
            {**load_catalog().designs["rail4-npo"].fabric.model_dump(), "oversubscription": 2.0}
        ),
        facility={"currency": "CNY", "usd_to_cny": 7.1, "years": 7, "electricity_usd_per_kwh": 0.123456789},
    ),
]


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_scenario_json_round_trips_exactly(scenario: Scenario) -> None:
    data = export_scenario_json(scenario)
    again = import_scenario_json(data)
    assert again == scenario
    assert export_scenario_json(again) == data, "byte for byte"
    assert import_scenario_json(data.decode("utf-8")) == scenario


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"{", "not valid JSON"),
        (b"[1, 2]", "JSON object"),
        (b'{"gpus": 0}', "gpus"),
        (b'{"robots": 1}', "robots: unknown key"),
        (b"\xff\xfe", "not UTF-8"),
        (b" " * 1_000_001, "larger than"),
    ],
)
def test_bad_scenario_json_is_refused_with_a_message(data: bytes, message: str) -> None:
    with pytest.raises(InputError, match=message):
        import_scenario_json(data)


# --- HTML --------------------------------------------------------------------------------------------------


def test_user_markup_is_escaped_in_the_document(catalog: Catalog) -> None:
    options = proposal.options_from_data(
        {"customer": "ACME <b>Corp</b>", "project": "<script>alert(1)</script>", "notes": "a & b <img src=x>"}
    )
    p = proposal.build_proposal(scenario=Scenario(gpus=64), catalog=catalog, options=options)
    images = {key: "data:," for key, _ in proposal.chart_figures(p)}
    html = proposal.proposal_html(p, images)
    assert "<script>" not in html and "<b>Corp" not in html and "<img src=x>" not in html
    assert "ACME &lt;b&gt;Corp&lt;/b&gt;" in html and "a &amp; b &lt;img src=x&gt;" in html
    footer = proposal.page_setup(p).footer_html
    assert "&lt;script&gt;" in footer and "<script>" not in footer


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"pricing": {"margin": 9}}, r"pricing\.margin.*allowed"),
        ({"version": ""}, "version"),
        ({"lang": "fr"}, "lang"),
        ({"edition": "secret"}, "edition"),
        ({"logo": b"GIF89a..."}, "not a PNG or JPEG"),
        ({"logo": b"\x89PNG\r\n\x1a\nbroken"}, "damaged"),
    ],
)
def test_bad_proposal_options_are_refused(data: dict[str, object], message: str) -> None:
    with pytest.raises(InputError, match=message):
        proposal.options_from_data(data)


def test_an_unknown_proposed_design_is_refused(catalog: Catalog) -> None:
    options = proposal.options_from_data({"proposed": "no-such-design"})
    with pytest.raises(InputError, match="proposed"):
        proposal.build_proposal(scenario=Scenario(gpus=64), catalog=catalog, options=options)


def test_the_architect_can_propose_another_design(catalog: Catalog) -> None:
    base = proposal.build_proposal(
        scenario=Scenario(gpus=512), catalog=catalog, options=proposal.ProposalOptions()
    )
    other = next(p.design_id for p in base.cost_plans if p.design_id != base.recommended_id)
    chosen = proposal.build_proposal(
        scenario=Scenario(gpus=512), catalog=catalog, options=proposal.ProposalOptions(proposed=other)
    )
    assert (chosen.proposed_id, chosen.recommended_id) == (other, base.recommended_id)
    assert chosen.plan.design_id == other
    assert math.isfinite(chosen.plan.cost.capex_usd)


def test_the_browser_module_imports_without_starting_anything() -> None:
    assert (
        planner.report.export.browser.chromium_path() is None or planner.report.export.browser.chromium_path()
    )


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_chart_in_the_proposal_carries_its_alt_text(catalog: Catalog, lang: str) -> None:
    """The PDF's images describe themselves (charts.figure_alt_text) for screen readers."""
    options = proposal.options_from_data({"lang": lang})
    p = proposal.build_proposal(scenario=Scenario(gpus=64), catalog=catalog, options=options)
    figures = dict(proposal.chart_figures(p))
    images = {key: f"data:,{key}" for key in figures}
    alts = {key: charts.figure_alt_text(fig, p.lang) for key, fig in figures.items()}
    html = proposal.proposal_html(p, images, alt_texts=alts)
    for key in figures:
        assert f'src="data:,{key}"' in html
        assert f'alt="{html_escape(alts[key])}"' in html and alts[key]


def test_the_proposal_shows_the_three_pools(catalog: Catalog) -> None:
    """Compute, storage and front-end pools side by side in the comparison section (tables.pools_table)."""
    for lang in ("en", "zh"):
        p = proposal.build_proposal(
            scenario=Scenario(gpus=64), catalog=catalog, options=proposal.options_from_data({"lang": lang})
        )
        html = proposal.proposal_html(p, {key: "data:," for key, _ in proposal.chart_figures(p)})
        for key in ("pools.row.compute", "pools.row.storage_units", "pools.row.frontend"):
            assert html_escape(tr(key, lang)) in html
