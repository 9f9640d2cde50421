"""Roles and what each may see (planner.access): the role matrix, the role from OIDC claims, the
priced catalog of roles without internal costs, and the sharing rules of saved scenarios."""

from __future__ import annotations

import itertools

import pytest

from planner import Scenario, load_catalog, plan
from planner.access import (
    GRANTS,
    HARDWARE_PRICE_FIELDS,
    LOCAL_IDENTITY,
    PASS_THROUGH_MONEY_FIELDS,
    ROLES,
    AccessDeniedError,
    Identity,
    Permission,
    RoleMapping,
    catalog_view_key,
    check_edition,
    identity_from_claims,
    mapping_from_env,
    may_delete,
    may_open_page,
    may_read,
    priced_catalog,
    read_catalog_view_key,
    require,
    role_from_claims,
    strip_internal_pricing,
)
from planner.catalog.schema import FAMILIES
from planner.errors import InputError
from planner.report.export.pricing import Pricing, priced_plan


def who(role: str, *, user: str = "u@example.com", teams: tuple[str, ...] = ()) -> Identity:
    return Identity(user=user, name=user, role=role, teams=teams, signed_in=True)  # type: ignore[arg-type]


# -- the role matrix -------------------------------------------------------------------------------

# role -> (prices, all pages, scenarios, internal cost, catalog override, every team's scenarios)
MATRIX = {
    "viewer": (True, False, False, False, False, False),
    "architect": (True, True, True, False, False, False),
    "commercial": (True, True, True, True, False, False),
    "admin": (True, True, True, True, True, True),
}
ORDER = (
    Permission.PRICES,
    Permission.ALL_PAGES,
    Permission.SCENARIOS,
    Permission.INTERNAL_COST,
    Permission.CATALOG_OVERRIDE,
    Permission.ALL_SCENARIOS,
)


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("permission", ORDER)
def test_role_matrix(role: str, permission: Permission) -> None:
    allowed = MATRIX[role][ORDER.index(permission)]
    assert who(role).can(permission) is allowed
    if allowed:
        require(identity=who(role), permission=permission, what="x")
    else:
        with pytest.raises(AccessDeniedError, match=rf"^x: .*{role}"):
            require(identity=who(role), permission=permission, what="x")


def test_every_permission_is_in_the_matrix_and_roles_are_cumulative() -> None:
    assert set(ORDER) == set(Permission)
    assert set(MATRIX) == set(ROLES) == {"viewer", "architect", "commercial", "admin"}
    for lower, higher in itertools.pairwise(ROLES):
        assert GRANTS[lower] < GRANTS[higher]


@pytest.mark.parametrize(("role", "allowed"), [("viewer", False), ("architect", False), ("commercial", True)])
def test_internal_edition_only_for_commercial_roles(role: str, allowed: bool) -> None:
    check_edition(identity=who(role), edition="customer")
    if allowed:
        check_edition(identity=who(role), edition="internal")
    else:
        with pytest.raises(AccessDeniedError, match=r"edition=internal: .*commercial role; your role is"):
            check_edition(identity=who(role), edition="internal")


def test_without_sign_in_the_laptop_user_is_an_admin() -> None:
    assert LOCAL_IDENTITY.role == "admin" and not LOCAL_IDENTITY.signed_in
    assert all(LOCAL_IDENTITY.can(p) for p in Permission)


@pytest.mark.parametrize(
    ("page", "viewer_may"),
    [
        ("", True),
        ("overview", True),
        ("proposal", True),
        ("bom", False),
        ("scenarios", False),
        ("catalog", False),
    ],
)
def test_pages_of_a_viewer(page: str, viewer_may: bool) -> None:
    assert may_open_page(identity=who("viewer"), page=page) is viewer_may
    assert may_open_page(identity=who("architect"), page=page)


# -- the role from the identity provider -----------------------------------------------------------


def test_role_from_claims_takes_the_highest_role_found() -> None:
    mapping = RoleMapping(groups={"finance": "commercial", "presales": "architect"})
    assert role_from_claims(claims={"roles": ["presales", "finance"]}, mapping=mapping) == "commercial"
    assert role_from_claims(claims={"roles": "presales"}, mapping=mapping) == "architect"
    assert role_from_claims(claims={"roles": ["unknown-group"]}, mapping=mapping) == "viewer"
    assert role_from_claims(claims={"roles": 3}, mapping=mapping) == "viewer"  # malformed: least privilege


def test_identity_from_claims() -> None:
    found = identity_from_claims(
        claims={"sub": "abc", "name": "Ann", "groups": ["emea", "apac"], "roles": ["admin"]},
        mapping=RoleMapping(team_claim="groups"),
    )
    assert (found.user, found.name, found.role, found.teams, found.team) == (
        "abc",
        "Ann",
        "admin",
        ("emea", "apac"),
        "emea",
    )
    with pytest.raises(AccessDeniedError, match="neither an email nor a subject"):
        identity_from_claims(claims={"name": "nobody"}, mapping=RoleMapping())


def test_role_mapping_from_the_environment() -> None:
    mapping = mapping_from_env(
        {
            "PLANNER_ROLE_CLAIM": "groups",
            "PLANNER_ROLE_MAP": "fin=commercial",
            "PLANNER_DEFAULT_ROLE": "architect",
        }
    )
    assert (mapping.role_claim, mapping.groups, mapping.default_role) == (
        "groups",
        {"fin": "commercial"},
        "architect",
    )
    with pytest.raises(InputError, match="PLANNER_ROLE_MAP: expected group=role"):
        mapping_from_env({"PLANNER_ROLE_MAP": "finance"})
    with pytest.raises(InputError, match=r"role mapping from the environment: .*groups"):
        mapping_from_env({"PLANNER_ROLE_MAP": "fin=boss"})
    with pytest.raises(InputError, match="default_role"):
        mapping_from_env({"PLANNER_DEFAULT_ROLE": "root"})


# -- the priced catalog ----------------------------------------------------------------------------


def test_every_money_field_of_the_catalog_is_priced_or_passed_through() -> None:
    """A new money field must be classified, or a role without costs would see it at cost."""
    money = {
        field
        for model in FAMILIES.values()
        for field in model.model_fields
        if "usd" in field or "cost" in field or "price" in field
    }
    assert money == HARDWARE_PRICE_FIELDS | PASS_THROUGH_MONEY_FIELDS


def test_a_plan_on_the_priced_catalog_is_the_customer_edition_of_the_plan() -> None:
    """Planning on the priced catalog gives the figures of pricing.priced_plan (the customer
    edition), which prices the BOM of the cost plan: line price = cost x 1.15 (15 % margin, no
    discount), rounded to the cent per unit by priced_plan, not by the catalog, hence rel=1e-6."""
    catalog = load_catalog()
    pricing = Pricing()
    at_cost = plan(scenario=Scenario(), catalog=catalog)
    customer = priced_plan(at_cost, catalog=catalog, pricing=pricing)
    priced = plan(
        scenario=Scenario(), catalog=priced_catalog(catalog=catalog, price_factor=pricing.price_factor)
    )
    assert priced.cost.capex_usd == pytest.approx(customer.cost.capex_usd, rel=1e-6)
    assert priced.cost.tco_usd == pytest.approx(customer.cost.tco_usd, rel=1e-6)
    assert priced.cost.capex_usd == pytest.approx(at_cost.cost.capex_usd * 1.15, rel=1e-6)
    costs = {line.description: line.unit_cost_usd for line in at_cost.bom}
    for line in priced.bom:
        assert line.unit_cost_usd == pytest.approx(costs[line.description] * 1.15, rel=1e-9)
    assert priced.cost.electricity_usd_per_kwh == at_cost.cost.electricity_usd_per_kwh


def test_priced_catalog_refuses_a_silly_factor() -> None:
    with pytest.raises(InputError, match="price_factor"):
        priced_catalog(catalog=load_catalog(), price_factor=0.0)


def test_catalog_view_key() -> None:
    assert catalog_view_key(override_json='{"a":1}', price_factor=None) == '{"a":1}'  # admins: as before
    key = catalog_view_key(override_json='{"a":1}', price_factor=1.15)
    assert key != '{"a":1}' and read_catalog_view_key(key) == ('{"a":1}', 1.15)
    assert read_catalog_view_key(catalog_view_key(override_json="", price_factor=1.15)) == ("", 1.15)


def test_price_overrides_are_internal() -> None:
    scenario = Scenario(price_overrides_usd={"h100_sxm": 20_000.0})
    assert strip_internal_pricing(identity=who("architect"), scenario=scenario).price_overrides_usd == {}
    assert strip_internal_pricing(identity=who("commercial"), scenario=scenario) is scenario


# -- sharing ---------------------------------------------------------------------------------------


def test_sharing_rules() -> None:
    ann = who("architect", user="ann", teams=("emea",))
    assert may_read(identity=ann, owner="ann", team="")
    assert may_read(identity=ann, owner="bob", team="emea")
    assert not may_read(identity=ann, owner="bob", team="apac")
    assert not may_read(identity=ann, owner="bob", team="")
    assert not may_read(identity=who("viewer", user="ann"), owner="ann", team="")  # viewers have no store
    assert may_read(identity=who("admin"), owner="bob", team="apac")
    assert may_delete(identity=ann, owner="ann") and not may_delete(identity=ann, owner="bob")
