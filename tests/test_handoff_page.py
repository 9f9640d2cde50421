"""The Layout page (AppTest): renders in both languages with the floor plan, one elevation per rack
type and the five hand-off downloads; a row too short for a rack shows the one-line error."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from apptest import rendered, reset_caches
from streamlit.testing.v1 import AppTest

from planner import i18n, load_catalog, plan
from planner.i18n import tr
from planner.inputs.layout import LayoutParams
from planner.inputs.scenario import scenario_from_data
from ui import inputs, keys
from ui.views.layout import LINK_KEYS

APP = Path(__file__).resolve().parents[1] / "app.py"


@pytest.fixture(autouse=True)
def _fresh_caches() -> Iterator[None]:
    reset_caches()  # each module from empty caches (tests/apptest.py)
    i18n.MISSING.clear()
    yield
    assert not i18n.MISSING, f"UI strings looked up without a translation: {sorted(i18n.MISSING)}"


def open_page(lang: str, design: str = "ib-ndr") -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=180)
    at.query_params.update({"lang": lang, "gpus": "256", "design": design})
    at.run()
    at.switch_page("pages/layout.py").run()
    assert not at.exception, at.exception
    return at


def _html(at: AppTest) -> str:
    """The page's markup: ``st.html`` bodies and the Markdown HTML blocks the drawings are in
    (``st.html`` drops SVG, see :func:`ui.views.layout.drawing`)."""
    return "\n".join([*(e.proto.body for e in at.get("html")), *(m.value for m in at.markdown)])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_page_shows_rows_elevations_and_downloads(lang: str) -> None:
    at = open_page(lang)
    assert at.title[0].value == tr("page.layout", lang)
    headers = [h.value for h in at.subheader]
    for key in ("layout.floor", "layout.elevations", "layout.downloads", "layout.lengths", "layout.prices"):
        assert tr(key, lang) in headers
    html = _html(at)
    assert html.count('class="elevation"') >= 2  # compute and network racks at least
    assert 'class="floor-plan"' in html and 'data-rack="R01-01"' in html
    labels = [b.proto.label for b in at.get("download_button")]
    assert len(labels) == 5
    assert tr("layout.download_netbox", lang) in labels
    assert [m.label for m in at.metric][:2] == [tr("layout.racks", lang), tr("layout.rows", lang)]


def test_a_row_shorter_than_a_rack_names_the_field() -> None:
    at = open_page("en")
    at.number_input(key=keys.widget("row_m")).set_value(0.5).run()
    assert not at.exception
    assert any("layout.row_length_m" in rendered(e.value) for e in at.error)


def _order_list(at: AppTest) -> dict[tuple[str, str], str]:
    """The Layout page's order list: (link class label, part) -> "n x L m, ..." as shown."""
    header = tr("layout.col.ordered_lengths", "en")
    [frame] = [d.value for d in at.dataframe if header in d.value.columns]
    link, part = tr("layout.col.link_class", "en"), tr("layout.col.cable_part", "en")
    return {(str(r[link]), str(r[part])): str(r[header]) for _, r in frame.iterrows()}


def test_a_six_metre_floor_is_the_scenarios_and_the_bom_orders_its_cables() -> None:
    """Row length 6 m typed on the Layout page: the scenario carries the floor (the address too,
    and undo takes it back), and the BOM of that scenario orders exactly the page's order list,
    which differs from the default floor's."""
    at = open_page("en")
    before = _order_list(at)
    at.number_input(key=keys.widget("row_m")).set_value(6.0).run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert at.query_params["row_m"] in ("6", ["6"])
    scenario = scenario_from_data(inputs.scenario_data(at.session_state[keys.INPUTS], {}))
    assert scenario.floor == LayoutParams(row_length_m=6.0)
    bom = plan(scenario=scenario, catalog=load_catalog())
    names = {c: tr(k, "en") for c, k in LINK_KEYS.items()}
    bins: dict[tuple[str, str], dict[float, int]] = {}
    for line in bom.bom:
        if line.category == "cables" and line.length_m is not None:
            bins.setdefault((names[line.link_classes[0]], line.id), {})[line.length_m] = line.quantity
    from_bom = {key: ", ".join(f"{n} x {m:g} m" for m, n in sorted(b.items())) for key, b in bins.items()}
    assert _order_list(at) == from_bom
    assert _order_list(at) != before
    assert [s.value for s in at.success] == [tr("layout.prices_agree", "en")]
    at.button(key=keys.UNDO).click().run()
    assert at.session_state[keys.INPUTS]["row_m"] == 12.0 and _order_list(at) == before
