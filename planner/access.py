"""Who may see what: roles, their permissions, the role from an OpenID Connect identity, and the
customer's (priced) view of the catalog.

Four roles, each with everything the one before it has (see ``docs/architecture.md``, "Sign-in
and roles"):

========== =====================================================================================
viewer     customer-facing numbers only: selling prices on the customer pages, the customer
           edition of the proposal; no saved scenarios
architect  every page and the saved scenarios of their own and their teams, still at selling
           prices (customer edition)
commercial internal costs: unit costs, price overrides, margins, the internal edition
admin      catalog overrides, every team's scenarios and the audit log
========== =====================================================================================

With sign-in off (the laptop default) the one user is :data:`LOCAL_IDENTITY`, an admin: the app
behaves as it always has.

Roles that may not see internal costs never receive them: their sessions plan on
:func:`priced_catalog`, whose every hardware price is the offered price (cost x price factor),
so each page, chart, table and download built from those plans shows selling prices without
knowing about roles.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

from planner.catalog import Catalog
from planner.errors import InputError, PlannerError
from planner.files import check_plain_text
from planner.i18n.message import msg
from planner.inputs import parse
from planner.inputs.scenario import Scenario

Role = Literal["viewer", "architect", "commercial", "admin"]
ROLES: tuple[Role, ...] = get_args(Role)
"""The roles, least privileged first (each holds every permission of the ones before it)."""

LOCAL_USER = "local"
"""Owner of scenarios saved with sign-in off (and of rows that existed before owners did)."""
USER_MAX_CHARS = 200
TEAM_MAX_CHARS = 100
"""Longest user id and team name [characters] (the store's ``owner`` and ``team`` columns)."""


class Permission(StrEnum):
    """What a role may do or see."""

    PRICES = "prices"
    """Selling prices and the customer edition of the proposal."""
    ALL_PAGES = "all_pages"
    """Every page of the app (a viewer sees the customer-facing ones)."""
    SCENARIOS = "scenarios"
    """Save, open, import and export the scenarios of one's own and one's teams."""
    INTERNAL_COST = "internal_cost"
    """Unit costs, price overrides, margins, discounts and the internal edition."""
    CATALOG_OVERRIDE = "catalog_override"
    """Upload a catalog override."""
    ALL_SCENARIOS = "all_scenarios"
    """Every team's scenarios, and the audit log."""


_ADDED: Mapping[Role, frozenset[Permission]] = {
    "viewer": frozenset({Permission.PRICES}),
    "architect": frozenset({Permission.ALL_PAGES, Permission.SCENARIOS}),
    "commercial": frozenset({Permission.INTERNAL_COST}),
    "admin": frozenset({Permission.CATALOG_OVERRIDE, Permission.ALL_SCENARIOS}),
}


def _cumulative() -> dict[Role, frozenset[Permission]]:
    held: frozenset[Permission] = frozenset()
    out: dict[Role, frozenset[Permission]] = {}
    for role in ROLES:
        held = held | _ADDED[role]
        out[role] = held
    return out


GRANTS: Mapping[Role, frozenset[Permission]] = _cumulative()
"""The permissions of each role.

>>> sorted(GRANTS["commercial"] - GRANTS["architect"])
[<Permission.INTERNAL_COST: 'internal_cost'>]
"""

VIEWER_PAGES: frozenset[str] = frozenset(
    {"overview", "compare", "scaling", "topology", "proposal", "present"}
)
"""Pages a role without :attr:`Permission.ALL_PAGES` may open (url paths): the customer-facing
ones. The BOM, the analyses, the catalog and the saved scenarios are for architects."""


class AccessDeniedError(PlannerError, PermissionError):
    """The signed-in user's role does not allow what was asked; nothing was shown or changed."""


@dataclass(frozen=True, kw_only=True)
class Identity:
    """Who is using the planner."""

    user: str
    """Stable id: the e-mail address, else the ``sub`` claim; :data:`LOCAL_USER` when signed out."""
    name: str
    """Name to show."""
    role: Role
    teams: tuple[str, ...] = ()
    """Teams the user belongs to (scenarios saved to one of them are shared with its members)."""
    signed_in: bool = False

    def can(self, permission: Permission) -> bool:
        """Whether this identity's role holds ``permission``."""
        return permission in GRANTS[self.role]

    @property
    def team(self) -> str:
        """The team new scenarios are shared with: the first of :attr:`teams`, or none (``""``)."""
        return self.teams[0] if self.teams else ""


LOCAL_IDENTITY = Identity(user=LOCAL_USER, name=LOCAL_USER, role="admin")
"""The one user of a planner without sign-in: an admin, so nothing changes for a laptop."""


_REFUSALS: Mapping[Permission, str] = {
    Permission.PRICES: "{what}: not available to the {role} role",
    Permission.ALL_PAGES: "{what}: this page is not available to the {role} role; ask an architect",
    Permission.SCENARIOS: "{what}: saved scenarios are not available to the {role} role",
    Permission.INTERNAL_COST: (
        "{what}: internal costs, margins and the internal edition are for the commercial role; "
        "your role is {role}"
    ),
    Permission.CATALOG_OVERRIDE: "{what}: only an admin may override the catalog; your role is {role}",
    Permission.ALL_SCENARIOS: "{what}: only an admin may see every team's records; your role is {role}",
}


def require(*, identity: Identity, permission: Permission, what: str) -> None:
    """Raise :class:`AccessDeniedError` unless ``identity`` holds ``permission``.

    Parameters
    ----------
    identity : Identity
        Who asks.
    permission : Permission
        What is needed.
    what : str
        What is refused, opening the message (an option, a page).

    Raises
    ------
    AccessDeniedError
        ``identity``'s role lacks ``permission``.

    Examples
    --------
    >>> require(identity=LOCAL_IDENTITY, permission=Permission.INTERNAL_COST, what="edition")
    >>> viewer = Identity(user="v@example.com", name="V", role="viewer", signed_in=True)
    >>> require(identity=viewer, permission=Permission.INTERNAL_COST, what="edition=internal")
    Traceback (most recent call last):
    ...
    planner.access.AccessDeniedError: edition=internal: internal costs, margins and the internal edition are for the commercial role; your role is viewer
    """
    if not identity.can(permission):
        raise AccessDeniedError(msg(_REFUSALS[permission], what=what, role=identity.role))


def signed_out_error() -> AccessDeniedError:
    """The refusal of every guard when sign-in is on and nobody has signed in.

    Returns
    -------
    AccessDeniedError
        The error, to raise.
    """
    return AccessDeniedError(msg("sign-in: sign in with your company account to use the planner"))


def check_edition(*, identity: Identity, edition: str) -> None:
    """Refuse the internal edition (of a proposal, a BOM file) to roles without internal costs.

    Parameters
    ----------
    identity : Identity
        Who asks.
    edition : str
        ``customer`` or ``internal``.

    Raises
    ------
    AccessDeniedError
        An edition other than ``customer`` for a role without internal costs.
    """
    if edition != "customer":
        require(identity=identity, permission=Permission.INTERNAL_COST, what=f"edition={edition}")


def may_open_page(*, identity: Identity, page: str) -> bool:
    """Whether ``identity`` may open the page at url path ``page`` (``""``: the default page,
    the overview).

    Parameters
    ----------
    identity : Identity
        Who asks.
    page : str
        The page's url path.

    Returns
    -------
    bool
        Whether the role may open it.
    """
    return identity.can(Permission.ALL_PAGES) or (page or "overview") in VIEWER_PAGES


# -- sharing of saved scenarios --------------------------------------------------------------------


def may_read(*, identity: Identity, owner: str, team: str) -> bool:
    """A saved scenario is read by its owner, the members of its team, and admins.

    Parameters
    ----------
    identity : Identity
        Who asks.
    owner : str
        The scenario's owner (user id).
    team : str
        The team it is shared with (``""``: none).

    Returns
    -------
    bool
        Whether ``identity`` may read it.

    Examples
    --------
    >>> a = Identity(user="a@x", name="A", role="architect", teams=("emea",), signed_in=True)
    >>> may_read(identity=a, owner="b@x", team="emea"), may_read(identity=a, owner="b@x", team="apac")
    (True, False)
    """
    if not identity.can(Permission.SCENARIOS):
        return False
    if identity.can(Permission.ALL_SCENARIOS) or owner == identity.user:
        return True
    return bool(team) and team in identity.teams


may_write = may_read
"""Team members edit a shared scenario (new versions, labels) as its owner does: whoever may read
a saved scenario may save versions of it (:func:`may_read`)."""


def may_delete(*, identity: Identity, owner: str) -> bool:
    """Only the owner (or an admin) moves a scenario to the trash or restores it.

    Parameters
    ----------
    identity : Identity
        Who asks.
    owner : str
        The scenario's owner (user id).

    Returns
    -------
    bool
        Whether ``identity`` may trash or restore it.
    """
    return identity.can(Permission.SCENARIOS) and (
        owner == identity.user or identity.can(Permission.ALL_SCENARIOS)
    )


def strip_internal_pricing(*, identity: Identity, scenario: Scenario) -> Scenario:
    """``scenario`` as ``identity`` may see it: without the price overrides (internal unit
    costs) unless the role holds :attr:`Permission.INTERNAL_COST`.

    Parameters
    ----------
    identity : Identity
        Who looks.
    scenario : Scenario
        The scenario.

    Returns
    -------
    Scenario
        ``scenario``, or a copy without ``price_overrides_usd``.
    """
    if identity.can(Permission.INTERNAL_COST) or not scenario.price_overrides_usd:
        return scenario
    return scenario.model_copy(update={"price_overrides_usd": {}})


# -- the customer's view of the catalog ------------------------------------------------------------

HARDWARE_PRICE_FIELDS: frozenset[str] = frozenset(
    {"unit_cost_usd", "chassis_cost_usd", "cost_usd_per_m", "capex_usd_per_kw", "cdu_unit_cost_usd"}
)
"""Catalog fields that are what the seller pays for hardware [USD, USD/m, USD/kW]; the priced
view multiplies them by the price factor."""

PASS_THROUGH_MONEY_FIELDS: frozenset[str] = frozenset({"usd_per_kwh", "per_usd"})
"""Money fields that are not the seller's costs (the customer pays the utility; an exchange
rate), kept as they are, as :func:`planner.report.export.pricing.priced_plan` keeps them."""


def priced_catalog(*, catalog: Catalog, price_factor: float) -> Catalog:
    """``catalog`` with every hardware price at the offered price, cost x ``price_factor``.

    Equation: offered unit price = unit cost x (1 + margin) x (1 - discount), the same factor as
    :attr:`planner.report.export.pricing.Pricing.price_factor`; energy prices, exchange rates
    and cost fractions (installation, spares, maintenance) are unchanged, so installation and
    maintenance follow the priced hardware as they follow the cost.

    Parameters
    ----------
    catalog : Catalog
        The catalog at cost.
    price_factor : float
        Offered price over cost, above 0 and at most 10 [dimensionless].

    Returns
    -------
    Catalog
        The catalog at offered prices [USD].

    Raises
    ------
    InputError
        ``price_factor`` is out of range.

    Examples
    --------
    >>> from planner.catalog import load_catalog
    >>> bundled = load_catalog()
    >>> priced = priced_catalog(catalog=bundled, price_factor=1.15)
    >>> gpu = next(iter(bundled.gpus))
    >>> round(priced.gpus[gpu].unit_cost_usd / bundled.gpus[gpu].unit_cost_usd, 6)
    1.15
    """
    if not 0 < price_factor <= 10:
        raise InputError(
            msg("price_factor: must be above 0 and at most 10 (got {value})", value=price_factor)
        )
    families: dict[str, Any] = {}
    for name in catalog.__dataclass_fields__:
        records = getattr(catalog, name)
        families[name] = {
            record_id: _priced_record(record, price_factor) for record_id, record in records.items()
        }
    return type(catalog)(**families)


def _priced_record(record: BaseModel, price_factor: float) -> BaseModel:
    update = {
        field: getattr(record, field) * price_factor
        for field in type(record).model_fields
        if field in HARDWARE_PRICE_FIELDS
    }
    return record.model_copy(update=update) if update else record


_PRICED_PREFIX = "priced:"


def catalog_view_key(*, override_json: str, price_factor: float | None) -> str:
    """One string naming a session's catalog: the uploaded override (canonical JSON, ``""`` for
    the bundled catalog) and, for a priced view, its price factor. Cache keys of every engine call
    include it, so a priced session never shares a cached result with a cost session.

    Parameters
    ----------
    override_json : str
        The uploaded override as canonical JSON; ``""`` for the bundled catalog.
    price_factor : float or None
        Offered price over cost [dimensionless]; ``None`` at cost.

    Returns
    -------
    str
        The key.

    Examples
    --------
    >>> catalog_view_key(override_json="", price_factor=None)
    ''
    >>> read_catalog_view_key(catalog_view_key(override_json='{"gpus": {}}', price_factor=1.15))
    ('{"gpus": {}}', 1.15)
    """
    if price_factor is None:
        return override_json
    return f"{_PRICED_PREFIX}{json.dumps(price_factor)}:{override_json}"


def read_catalog_view_key(key: str) -> tuple[str, float | None]:
    """The override JSON and the price factor (``None``: at cost) of :func:`catalog_view_key`.

    Parameters
    ----------
    key : str
        A key of :func:`catalog_view_key`.

    Returns
    -------
    tuple of (str, float or None)
        The override JSON and the price factor [dimensionless].
    """
    if not key.startswith(_PRICED_PREFIX):
        return key, None
    factor, _, override_json = key[len(_PRICED_PREFIX) :].partition(":")
    return override_json, float(factor)


# -- the role from an OpenID Connect identity -------------------------------------------------------


class RoleMapping(BaseModel):
    """How the identity provider's claims give a role and teams.

    The claim named :attr:`role_claim` (a string or a list, e.g. Keycloak's ``roles`` or Entra
    ID's ``groups``) is read; each value is a role name itself or a key of :attr:`groups`; the
    highest role found wins, and a user with none gets :attr:`default_role`.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    role_claim: str = Field(default="roles", min_length=1, max_length=100)
    team_claim: str = Field(default="teams", min_length=1, max_length=100)
    groups: dict[str, Role] = Field(default_factory=dict)
    default_role: Role = "viewer"


ENV_ROLE_CLAIM = "PLANNER_ROLE_CLAIM"
ENV_TEAM_CLAIM = "PLANNER_TEAM_CLAIM"
ENV_ROLE_MAP = "PLANNER_ROLE_MAP"
ENV_DEFAULT_ROLE = "PLANNER_DEFAULT_ROLE"


def mapping_from_env(env: Mapping[str, str]) -> RoleMapping:
    """The :class:`RoleMapping` of the environment.

    ``PLANNER_ROLE_CLAIM`` (default ``roles``), ``PLANNER_TEAM_CLAIM`` (default ``teams``),
    ``PLANNER_ROLE_MAP`` (``group=role`` pairs separated by commas, e.g.
    ``pre-sales=architect,finance=commercial``) and ``PLANNER_DEFAULT_ROLE`` (default ``viewer``).

    Parameters
    ----------
    env : mapping of str to str
        The environment.

    Returns
    -------
    RoleMapping
        The role and team claim names, the group-to-role map and the default role.

    Examples
    --------
    >>> mapping_from_env({"PLANNER_ROLE_MAP": "finance=commercial, ops = admin"}).groups
    {'finance': 'commercial', 'ops': 'admin'}
    """
    data: dict[str, Any] = {}
    for variable, field in ((ENV_ROLE_CLAIM, "role_claim"), (ENV_TEAM_CLAIM, "team_claim")):
        if env.get(variable, "").strip():
            data[field] = env[variable].strip()
    if env.get(ENV_DEFAULT_ROLE, "").strip():
        data["default_role"] = env[ENV_DEFAULT_ROLE].strip()
    groups: dict[str, str] = {}
    for pair in env.get(ENV_ROLE_MAP, "").split(","):
        if not pair.strip():
            continue
        group, sep, role = pair.partition("=")
        if not sep or not group.strip():
            raise InputError(
                msg(
                    "{variable}: expected group=role pairs separated by commas (got {value})",
                    variable=ENV_ROLE_MAP,
                    value=repr(pair.strip()),
                )
            )
        groups[group.strip()] = role.strip()
    data["groups"] = groups
    return parse(RoleMapping, data, source=msg("role mapping from the environment"))


def _values(claim: Any) -> list[str]:
    if isinstance(claim, str):
        return [part for part in claim.replace(",", " ").split() if part]
    if isinstance(claim, list | tuple):
        return [str(item) for item in claim if isinstance(item, str | int)]
    return []


def role_from_claims(*, claims: Mapping[str, Any], mapping: RoleMapping) -> Role:
    """The highest role named by the claims (directly or through :attr:`RoleMapping.groups`).

    Parameters
    ----------
    claims : mapping of str to Any
        The ID token's claims.
    mapping : RoleMapping
        Which claim holds roles, and the group-to-role map.

    Returns
    -------
    Role
        The highest role found, at least the mapping's default.

    Examples
    --------
    >>> m = RoleMapping(groups={"finance": "commercial"})
    >>> role_from_claims(claims={"roles": ["finance", "viewer"]}, mapping=m)
    'commercial'
    >>> role_from_claims(claims={"sub": "x"}, mapping=m)
    'viewer'
    """
    found: list[Role] = [mapping.default_role]
    for value in _values(claims.get(mapping.role_claim)):
        if value in ROLES:
            found.append(value)  # type: ignore[arg-type,unused-ignore]  # a Role, checked above
        elif value in mapping.groups:
            found.append(mapping.groups[value])
    return max(found, key=ROLES.index)


def identity_from_claims(*, claims: Mapping[str, Any], mapping: RoleMapping) -> Identity:
    """The :class:`Identity` of a signed-in user's ID-token claims.

    Parameters
    ----------
    claims : mapping of str to Any
        The ID token's claims (``email`` or ``sub``, ``name``, roles, teams).
    mapping : RoleMapping
        Which claims hold roles and teams.

    Returns
    -------
    Identity
        The signed-in user, their role and teams.

    Raises
    ------
    AccessDeniedError
        The claims name neither an email nor a subject.

    Examples
    --------
    >>> identity_from_claims(claims={"sub": "u1", "email": "ann@example.com", "roles": "architect",
    ...                              "teams": ["emea"]}, mapping=RoleMapping())
    Identity(user='ann@example.com', name='ann@example.com', role='architect', teams=('emea',), signed_in=True)
    """
    user = str(claims.get("email") or claims.get("sub") or "").strip()
    if not user:
        raise AccessDeniedError(msg("sign-in: the identity provider gave neither an email nor a subject"))
    name = str(claims.get("name") or user)
    teams = tuple(dict.fromkeys(_values(claims.get(mapping.team_claim))))
    return Identity(
        user=user[:USER_MAX_CHARS],
        name=name[:USER_MAX_CHARS],
        role=role_from_claims(claims=claims, mapping=mapping),
        teams=tuple(team[:TEAM_MAX_CHARS] for team in teams),
        signed_in=True,
    )


# -- the command line's identity -------------------------------------------------------------------

ENV_USER = "PLANNER_USER"
ENV_TEAM = "PLANNER_TEAM"
ENV_ROLE = "PLANNER_ROLE"


def _cli_text(value: str, *, option: str, variable: str, limit: int) -> str:
    text = check_plain_text(value.strip(), field=f"{option} (or {variable})")
    if len(text) > limit:
        raise InputError(
            msg(
                "{option} (or {variable}): at most {limit} characters (got {count})",
                option=option,
                variable=variable,
                limit=limit,
                count=len(text),
            )
        )
    return text


def cli_identity(
    *,
    user: str | None,
    teams: str | None,
    role: str | None,
    env: Mapping[str, str],
    held: Identity | None = None,
) -> Identity:
    """Who ``planner scenarios`` acts as: ``--user``/``--team``/``--role``, else the environment's
    ``PLANNER_USER``/``PLANNER_TEAM``/``PLANNER_ROLE``, else ``held``'s values (the identity a
    team database binds its login to, :mod:`planner.store.rowsecurity`), else
    :data:`LOCAL_IDENTITY`'s.

    ``teams`` is comma-separated; the first is the team new scenarios are shared with. Without a
    bound login (a SQLite file, the database owner's URL) the role defaults to ``admin``: that
    credential can read every row anyway, so its role narrows what it lists and edits; with one,
    the store refuses a claim beyond it (row-level security holds it in the database too).

    Parameters
    ----------
    user : str or None
        ``--user``; ``None`` when not given.
    teams : str or None
        ``--team``, comma-separated; ``None`` when not given.
    role : str or None
        ``--role``; ``None`` when not given.
    env : mapping of str to str
        The environment.
    held : Identity or None
        The identity the database login is bound to, if any.

    Returns
    -------
    Identity
        The acting user, role and teams (not signed in).

    Raises
    ------
    InputError
        An option or variable is too long or not plain text, or the role is unknown.

    Examples
    --------
    >>> cli_identity(user=None, teams="emea, apac", role=None, env={"PLANNER_USER": "ann@example.com"})
    Identity(user='ann@example.com', name='ann@example.com', role='admin', teams=('emea', 'apac'), signed_in=False)
    """
    user_text = user if user is not None else env.get(ENV_USER, "")
    name = _cli_text(user_text, option="--user", variable=ENV_USER, limit=USER_MAX_CHARS) or (
        held.user if held is not None else LOCAL_USER
    )
    team_text = teams if teams is not None else env.get(ENV_TEAM, "")
    team_names = [
        _cli_text(part, option="--team", variable=ENV_TEAM, limit=TEAM_MAX_CHARS)
        for part in team_text.split(",")
    ]
    if held is not None and not any(team_names):
        team_names = list(held.teams)
    role_text = (role if role is not None else env.get(ENV_ROLE, "")).strip() or (
        held.role if held is not None else "admin"
    )
    if role_text not in ROLES:
        raise InputError(
            msg(
                "--role (or {variable}): one of {roles} (got {value})",
                variable=ENV_ROLE,
                roles=", ".join(ROLES),
                value=repr(role_text),
            )
        )
    return Identity(
        user=name,
        name=name,
        role=role_text,  # one of ROLES, checked above
        teams=tuple(dict.fromkeys(team for team in team_names if team)),
    )


# -- the deployment's sign-in settings ---------------------------------------------------------------

ENV_SECRETS_FILES = "STREAMLIT_SECRETS_FILES"
ENV_ALLOW_ANONYMOUS = "PLANNER_ALLOW_ANONYMOUS"
OIDC_PREFIX = "PLANNER_OIDC_"
LOOPBACK_ADDRESSES = frozenset({"localhost", "127.0.0.1", "::1", "[::1]"})
"""Listening addresses that only this machine can reach (``127.*`` counts too)."""


class SignInConfigError(PlannerError):
    """Sign-in is configured but cannot work: the app must not serve pages (it fails closed)."""


def _secrets_text(path: Path) -> str:
    """The text of one secrets file; :class:`SignInConfigError` naming it when it is unusable."""
    if path.suffix != ".toml":
        raise SignInConfigError(
            msg(
                "secrets file {file}: the name must end in .toml (Streamlit ignores it otherwise)",
                file=str(path),
            )
        )
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or type(exc).__name__
        raise SignInConfigError(
            msg("secrets file {file}: cannot read it ({reason})", file=str(path), reason=reason)
        ) from None


def auth_section(*, environ: Mapping[str, str], secret_files: Sequence[str]) -> dict[str, Any] | None:
    """The ``[auth]`` section Streamlit will sign users in with; ``None`` when sign-in is off.

    Sign-in counts as configured when any ``PLANNER_OIDC_*`` variable or ``STREAMLIT_SECRETS_FILES``
    is set, or any secrets file exists (it may hold an ``[auth]`` section). Configured sign-in
    that cannot work raises :class:`SignInConfigError` in one line, so callers stop instead of
    serving every visitor as the local admin (Streamlit itself only logs "Failed to load secrets"
    and carries on without sign-in): a named file that is missing, unreadable, not named
    ``*.toml`` or not valid TOML, or no ``[auth]`` section with a ``client_id`` (or a named
    provider) anywhere.

    Parameters
    ----------
    environ
        The process environment.
    secret_files
        Streamlit's ``secrets.files`` (by default ``~/.streamlit/secrets.toml`` and
        ``.streamlit/secrets.toml`` in the working folder); a path that does not exist is skipped
        unless ``STREAMLIT_SECRETS_FILES`` names it. A directory (Kubernetes style) is read as
        Streamlit does: ``DIR/auth/KEY`` files.

    Returns
    -------
    dict of str to Any or None
        The ``[auth]`` settings; ``None`` when sign-in is not configured.
    """
    named = set(environ.get(ENV_SECRETS_FILES, "").split())
    oidc = sorted(k for k, v in environ.items() if k.startswith(OIDC_PREFIX) and v.strip())
    section: dict[str, Any] = {}
    found = False
    for text in secret_files:
        path = Path(text).expanduser()
        if path.is_dir():
            folder = path / "auth"
            if folder.is_dir():
                section.update(
                    {p.name: p.read_text(encoding="utf-8").strip() for p in folder.iterdir() if p.is_file()}
                )
            found = True
            continue
        if not path.exists() and not path.is_symlink() and text not in named:
            continue
        found = True
        try:
            data = tomllib.loads(_secrets_text(path))
        except tomllib.TOMLDecodeError as exc:
            raise SignInConfigError(
                msg("secrets file {file}: not valid TOML ({detail})", file=str(path), detail=str(exc))
            ) from None
        if isinstance(data.get("auth"), dict):
            section.update(data["auth"])
    configured = bool(oidc or named or found)
    if not configured:
        return None
    if section.get("client_id") or any(
        isinstance(v, Mapping) and v.get("client_id") for v in section.values()
    ):
        return section
    if not oidc and not named and not section:
        return None  # a secrets file for other settings: sign-in off, as Streamlit sees it
    reason = oidc[0] if oidc else ENV_SECRETS_FILES if named else "[auth]"
    raise SignInConfigError(
        msg(
            "sign-in is configured ({reason}) but no [auth] section with a client_id was loaded from {files}",
            reason=reason,
            files=", ".join(secret_files) or "-",
        )
    )


def is_loopback(address: str) -> bool:
    """Whether ``address`` is reachable from this machine only.

    Parameters
    ----------
    address : str
        A host address.

    Returns
    -------
    bool
        Whether it is a loopback address.

    Examples
    --------
    >>> is_loopback("127.0.0.1"), is_loopback("::1"), is_loopback("0.0.0.0"), is_loopback("")
    (True, True, False, False)
    """
    value = address.strip().lower()
    return value in LOOPBACK_ADDRESSES or value.startswith("127.")


def exposure_error(*, address: str, signed_in: bool, environ: Mapping[str, str]) -> SignInConfigError | None:
    """The refusal to serve everyone on the network as the local admin, or ``None``.

    Listening on anything but loopback (an empty address is every interface) without sign-in
    needs ``PLANNER_ALLOW_ANONYMOUS=1``; the app then shows a banner on every page.

    Parameters
    ----------
    address : str
        The address the server listens on (``""``: every interface).
    signed_in : bool
        Whether sign-in is configured.
    environ : mapping of str to str
        The environment (``PLANNER_ALLOW_ANONYMOUS``).

    Returns
    -------
    SignInConfigError or None
        The error to raise; ``None`` when serving is safe or allowed.
    """
    if signed_in or is_loopback(address) or environ.get(ENV_ALLOW_ANONYMOUS, "").strip() == "1":
        return None
    return SignInConfigError(
        msg(
            "listening on {address} without sign-in: every visitor would be an admin; configure sign-in "
            "(PLANNER_OIDC_*), listen on 127.0.0.1, or set PLANNER_ALLOW_ANONYMOUS=1",
            address=address or "every interface",
        )
    )


ENV_PUBLISHED_ADDRESS = "PLANNER_PUBLISHED_ADDRESS"


def listening_address(*, environ: Mapping[str, str], server_address: str) -> str:
    """Where the app can be reached: ``PLANNER_PUBLISHED_ADDRESS`` (the host address a container's
    port is published on, which the container cannot see) when set, else the server's address.

    Parameters
    ----------
    environ : mapping of str to str
        The environment.
    server_address : str
        The server's own listening address.

    Returns
    -------
    str
        The address users reach the app at.
    """
    return environ.get(ENV_PUBLISHED_ADDRESS, "").strip() or server_address
