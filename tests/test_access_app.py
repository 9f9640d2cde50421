"""Roles in the web app, through the real server code path (Streamlit's AppTest).

Sign-in is configured with an ``[auth]`` secrets section and the signed-in user is handed to the
app as ``st.user`` (``AppTest.user``), the boundary Streamlit's OIDC login fills after a real
sign-in (``tests/browser/test_signin.py`` does that against a real provider). Each role x each
internal view, download or export is allowed or refused with a message.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from apptest import AUTH
from streamlit.testing.v1 import AppTest

from planner import Scenario, load_catalog, plan
from planner.access import VIEWER_PAGES, priced_catalog
from planner.i18n import tr
from planner.report import fmt, tables
from ui.auth import PRICE_FACTOR

APP = Path(__file__).resolve().parents[1] / "app.py"

REFUSED_PAGE = "not available to the {role} role"


@pytest.fixture(autouse=True)
def _own_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PLANNER_DATABASE_URL", raising=False)
    monkeypatch.setenv("PLANNER_DB_PATH", str(tmp_path / "scenarios.db"))


def start_as(role: str | None, page: str | None = None, **query: str) -> AppTest:
    """The app with sign-in on and ``role`` signed in (``None``: nobody signed in)."""
    at = AppTest.from_file(str(APP), default_timeout=90)
    at.secrets["auth"] = AUTH
    at.user = (
        {"is_logged_in": False}
        if role is None
        else {"is_logged_in": True, "email": f"{role}@example.com", "name": role.title(), "roles": [role]}
    )
    at.query_params.update(query)
    at.run()
    assert not at.exception, at.exception
    if page is not None:
        at.switch_page(f"pages/{page}.py").run()
        assert not at.exception, at.exception
    return at


def errors(at: AppTest) -> list[str]:
    return [e.value for e in at.error]


def capex_shown(at: AppTest) -> str:
    return next(m.value for m in at.metric if m.label == tr("kpi.capex", "en"))


def capex_text(*, priced: bool) -> str:
    """The CAPEX card of the default scenario at cost, or at the offered price (cost x 1.15)."""
    catalog = load_catalog()
    if priced:
        catalog = priced_catalog(catalog=catalog, price_factor=PRICE_FACTOR)
    p = plan(scenario=Scenario(), catalog=catalog)
    money = tables.money_of(p)
    return fmt.money(money(p.cost.capex_usd), money.currency, "en")


def test_sign_in_off_by_default_the_laptop_user_sees_costs() -> None:
    at = AppTest.from_file(str(APP), default_timeout=90).run()
    assert not at.exception
    assert capex_shown(at) == capex_text(priced=False)
    assert not any(b.label == tr("auth.sign_out", "en") for b in at.button)


def test_a_visitor_sees_only_the_sign_in_screen() -> None:
    at = start_as(None)
    assert [b.label for b in at.button] == [tr("auth.sign_in", "en")]
    assert not at.metric, "no figure reaches a visitor who is not signed in"


def test_a_named_provider_section_turns_sign_in_on_too() -> None:
    """``[auth.keycloak]`` (one named provider) instead of a flat ``[auth]``."""
    at = AppTest.from_file(str(APP), default_timeout=90)
    provider = {k: v for k, v in AUTH.items() if k not in ("redirect_uri", "cookie_secret")}
    at.secrets["auth"] = {"redirect_uri": AUTH["redirect_uri"], "cookie_secret": AUTH["cookie_secret"]}
    at.secrets["auth"]["keycloak"] = provider
    at.user = {"is_logged_in": False}
    at.run()
    assert not at.exception, at.exception
    assert [b.label for b in at.button] == [tr("auth.sign_in", "en")]


def test_price_factor_is_the_customer_editions_default() -> None:
    assert pytest.approx(1.15) == PRICE_FACTOR  # 15 % margin, no discount (pricing.Pricing defaults)
    assert capex_text(priced=True) != capex_text(priced=False)


@pytest.mark.parametrize(
    ("role", "priced"), [("viewer", True), ("architect", True), ("commercial", False), ("admin", False)]
)
def test_overview_money_is_at_selling_prices_unless_the_role_sees_costs(role: str, priced: bool) -> None:
    at = start_as(role)
    assert capex_shown(at) == capex_text(priced=priced)
    assert any(
        f"({tr(f'auth.role.{role}', 'en')})" in c.value for c in at.text
    )  # the sign-in name is shown as text


@pytest.mark.parametrize(
    "page", ["bom", "scenarios", "catalog", "optimize", "assumptions", "workload", "measurements"]
)
def test_a_viewer_is_refused_internal_pages(page: str) -> None:
    at = start_as("viewer", page)
    assert any(REFUSED_PAGE.format(role="viewer") in e for e in errors(at)), errors(at)
    assert not at.metric


@pytest.mark.parametrize(
    ("role", "allowed"), [("viewer", False), ("architect", False), ("commercial", True), ("admin", True)]
)
def test_forged_url_to_the_internal_edition(role: str, allowed: bool) -> None:
    at = start_as(role, "proposal", edition="internal")
    shown = [e.replace("\\", "") for e in errors(at)]  # as rendered: the message is escaped Markdown
    refusals = [e for e in shown if "edition=internal" in e]
    if allowed:
        assert not refusals, errors(at)
        assert any(b.label == tr("export.download.csv", "en") for b in at.download_button)
    else:
        assert refusals and "commercial role" in refusals[0]
        assert not list(at.download_button), "no file of the internal edition is offered"


@pytest.mark.parametrize("role", ["viewer", "architect", "commercial"])
def test_the_customer_edition_is_offered_to_every_role(role: str) -> None:
    at = start_as(role, "proposal")
    assert not errors(at), errors(at)
    assert any(b.label == tr("export.download.csv", "en") for b in at.download_button)


@pytest.mark.parametrize(("role", "priced"), [("architect", True), ("commercial", False)])
def test_bom_page_and_its_download(role: str, priced: bool) -> None:
    at = start_as(role, "bom")
    assert not errors(at)
    assert capex_shown(at) == capex_text(priced=priced)
    csv = next(b for b in at.download_button if b.label == tr("bom.download_csv", "en"))
    assert csv is not None


def test_url_price_overrides_are_ignored_for_roles_without_costs() -> None:
    """``?prices=`` are internal unit costs: an architect's URL cannot set (or read) them."""
    architect = start_as("architect", "bom", prices="br100:1")
    assert capex_shown(architect) == capex_text(priced=True)
    assert "prices" not in architect.query_params
    commercial = start_as("commercial", "bom", prices="br100:1")
    assert capex_shown(commercial) != capex_text(priced=False)  # the override is applied


@pytest.mark.parametrize(("role", "allowed"), [("architect", False), ("commercial", False), ("admin", True)])
def test_catalog_override_upload_only_for_admins(role: str, allowed: bool) -> None:
    at = start_as(role, "catalog")
    refused = any(c.value == tr("auth.catalog_refused", "en") for c in at.caption)
    assert refused is not allowed


@pytest.mark.parametrize(("role", "shown"), [("viewer", False), ("architect", False), ("commercial", True)])
def test_margin_and_discount_are_the_commercial_roles(role: str, shown: bool) -> None:
    """Not even a disabled field for the others: a margin beside selling prices gives the cost
    away (price / 1.15)."""
    at = start_as(role, "proposal")
    keys = {w.key for w in at.number_input}
    for field in ("margin", "discount"):
        assert (f"proposal_w_{field}" in keys) is shown


def _page_text(at: AppTest) -> str:
    """Every text an element of the page shows (labels, values, captions, tables)."""
    parts: list[str] = []
    for node in at.main:
        for attr in ("label", "value", "body", "help", "placeholder"):
            value = getattr(node, attr, None)
            if isinstance(value, str):
                parts.append(value)
            elif hasattr(value, "to_csv"):
                parts.append(value.to_csv())
    return "\n".join(parts)


@pytest.mark.parametrize("page", sorted(VIEWER_PAGES - {"present"}))
def test_a_viewers_pages_show_no_cost_margin_or_discount(page: str) -> None:
    """Every page a viewer may open (the presentation page shows the overview's figures): no
    margin or discount field or figure, and no figure at internal cost."""
    at = start_as("viewer", page)
    text = _page_text(at)
    for key in ("export.form.margin", "export.form.discount"):
        assert tr(key, "en").lower() not in text.lower(), (page, key)
    assert capex_text(priced=False) not in text, page
    assert "unit_cost" not in text and "margin_fraction" not in text, page


def test_the_audit_log_records_sign_ins_refusals_share_links_and_reads(tmp_path: Path) -> None:
    """Each line carries the server-side identity (the signed-in user), never a client's claim."""
    from planner import Scenario
    from planner.access import Identity
    from planner.store import open_store

    admin = Identity(user="root@example.com", name="Root", role="admin", signed_in=True)
    with open_store(path=tmp_path / "scenarios.db") as store:
        sid = store.as_user(identity=admin).create(name="Shared", scenario=Scenario()).id
    start_as("viewer", "bom")  # signs in, then a page the viewer may not open
    start_as("architect", None, scenario=str(sid))  # opens a share link (the admin's: refused)
    with open_store(path=tmp_path / "scenarios.db") as store:
        lines = [(e.actor, e.action, e.detail) for e in store.as_user(identity=admin).audit_log()]
    assert ("viewer@example.com", "sign_in", "") in lines
    assert ("viewer@example.com", "refused", "page bom") in lines
    assert ("architect@example.com", "sign_in", "") in lines
    with open_store(path=tmp_path / "scenarios.db") as store:
        store.as_user(identity=admin).load(scenario_id=sid, audit="open_share")
        store.as_user(identity=admin).load(scenario_id=sid)
        actions = [(e.actor, e.action) for e in store.as_user(identity=admin).audit_log(limit=2)]
    assert actions == [("root@example.com", "read"), ("root@example.com", "open_share")]
