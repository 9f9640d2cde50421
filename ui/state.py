"""Session state of the shared inputs, kept in step with the URL.

The canonical values live in ``st.session_state[keys.INPUTS]`` (a dict keyed by input name);
widgets have their own keys and copy their value back on change. The URL's query parameters
are written from the canonical values on every run, so a copied link opens the same view, and
read once when a session starts.
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Mapping
from typing import Any

import streamlit as st
from streamlit.runtime.pages_manager import PagesManager

from planner import PlannerError, Scenario, scenario_from_data
from planner.access import Permission, catalog_view_key
from planner.errors import shorten
from planner.i18n import error_text, tr, translate
from planner.inputs.calibration import CalibrationOverride
from planner.inputs.scenario import WorkloadEntry, workload_from_data
from planner.store import SavedScenario, parse_share_params, share_params
from planner.store.links import WORKLOAD_PARAM, parse_workload_param, workload_param
from ui import auth, inputs, keys, store
from ui.presets import BY_ID as PRESETS
from ui.presets import PREFERENCES


def ensure_frame() -> None:
    """Make sure ``app.py`` (the frame) runs around this page.

    A folder named ``pages/`` beside the entry script puts Streamlit in its legacy multipage
    mode until ``st.navigation`` first runs in the process. If a server's very first request
    is a page URL (a shared link after a restart), Streamlit runs that page file on its own,
    without the frame. Switching the legacy mode off and rerunning sends the same URL through
    ``app.py``, whose navigation resolves it to the same page (url paths match file names).
    """
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()


def init() -> None:
    """Create the session's state from the URL on its first run."""
    ss = st.session_state
    if keys.INPUTS in ss:
        return
    values, prices, problems = inputs.parse_query(st.query_params.to_dict())
    ss[keys.INPUTS] = {**inputs.defaults(), **values}
    ss[keys.PRICES] = prices
    ss[keys.URL_PROBLEMS] = problems
    ss[keys.CATALOG_OVERRIDE] = ""
    ss[keys.CATALOG_OVERRIDE_NAME] = ""
    ss[keys.BOM_EDITOR_VERSION] = 0
    ss[keys.PRESENT] = st.query_params.get(PRESENT_PARAM) == "1"
    ss[URL_EDITION] = str(st.query_params.get(EDITION_PARAM, "customer"))
    _open_share_link(st.query_params.to_dict())
    _open_workload_param(st.query_params.to_dict())


EDITION_PARAM = "edition"
"""URL parameter naming the proposal's edition (``?edition=internal``); the build checks the role."""
URL_EDITION = "url_edition"


def url_edition() -> str:
    """The edition the session's first URL asked for (``customer`` when it named none)."""
    return str(st.session_state.get(URL_EDITION, "customer"))


def values() -> dict[str, Any]:
    result: dict[str, Any] = st.session_state[keys.INPUTS]
    return result


def value(name: str) -> Any:
    return values()[name]


def set_value(name: str, new: Any) -> None:
    values()[name] = new


def lang() -> str:
    current = st.session_state.get(keys.INPUTS, {}).get("lang", "en")
    return str(current) if current in inputs.LANGS else "en"


def t(key: str, **params: Any) -> str:
    """The UI string ``key`` in the session's language."""
    return tr(key, lang(), **params)


def tx(text: str) -> str:
    """An engine text (a note, an error message) in the session's language where it has a
    translation; as the engine wrote it otherwise (see :func:`planner.i18n.translate`)."""
    return translate(text, lang())


def prices() -> dict[str, float]:
    """The price overrides (internal unit costs [USD]): none for a role without internal costs,
    whatever the URL or a loaded scenario carried."""
    if not auth.can(Permission.INTERNAL_COST):
        return {}
    result: dict[str, float] = st.session_state[keys.PRICES]
    return result


def set_prices(new: dict[str, float]) -> None:
    st.session_state[keys.PRICES] = dict(new) if auth.can(Permission.INTERNAL_COST) else {}
    st.session_state[keys.BOM_EDITOR_VERSION] += 1


def catalog_override() -> str:
    """The session's catalog as every engine call's cache key: the uploaded override's canonical
    JSON (``""`` for the bundled catalog), marked priced for a role without internal costs
    (:func:`planner.access.catalog_view_key`), so such a session plans on selling prices only."""
    uploaded = str(st.session_state.get(keys.CATALOG_OVERRIDE, ""))
    return catalog_view_key(override_json=uploaded, price_factor=auth.price_factor())


def has_catalog_override() -> bool:
    """Whether a catalog override was uploaded in this session."""
    return bool(st.session_state.get(keys.CATALOG_OVERRIDE, ""))


def set_catalog_override(override_json: str, name: str) -> None:
    st.session_state[keys.CATALOG_OVERRIDE] = override_json
    st.session_state[keys.CATALOG_OVERRIDE_NAME] = name


def sync_from_widget(name: str) -> None:
    """Widget callback: copy the widget's value into the canonical inputs."""
    new = st.session_state[keys.widget(name)]
    if name == "lang" and new is None:  # a segmented control can be cleared; keep the language
        return
    if not in_range(keys.RANGE_ERRORS, name, inputs.BY_NAME[name], new):
        return  # the last good value stays; the sidebar names the field and its range under the input
    if name == "design" and new != value(name):
        drop_base()  # a loaded fabric belongs to its design
    set_value(name, new)


def in_range(errors_key: str, entry: Hashable, spec: inputs.Ranged, typed: Any) -> bool:
    """Whether a number typed into a field is in its range; one that is not is remembered under
    ``entry`` in ``st.session_state[errors_key]`` (the field says so under it, and the caller keeps
    the last good value), and an earlier one for the field is forgotten."""
    errors = dict(st.session_state.get(errors_key) or {})
    errors.pop(entry, None)
    accepted = not inputs.out_of_range(spec, typed)
    if not accepted:
        errors[entry] = typed
    st.session_state[errors_key] = errors
    return accepted


def range_error_text(*, label: str, spec: inputs.Ranged, typed: Any, kept: Any) -> str:
    """The field a number out of range was typed into, its range, and the value still in use
    (written as the range and the typed number are: no ``1e+06``; ``—`` for none)."""
    return t(
        "error.range",
        field=label,
        value=inputs.plain_number(typed),
        range=inputs.range_text(spec.lo, spec.hi),
        kept=_kept_text(kept),
    )


def _kept_text(value: Any) -> str:
    if value is None:
        return "—"
    return inputs.plain_number(value) if isinstance(value, int | float) else str(value)


def prepare_widget(name: str) -> str:
    """Set a widget's state from the canonical value before it renders; return its key.

    A field holding an out-of-range number keeps showing it (with the message under it) rather
    than the value still in use: reset to that value, retyping it changed nothing in the widget,
    so no callback cleared the message, and it stayed on every page after a valid value.
    """
    key = keys.widget(name)
    typed = dict(st.session_state.get(keys.RANGE_ERRORS) or {})
    st.session_state[key] = typed[name] if name in typed else value(name)
    return key


def apply_preset(preset_id: str) -> None:
    """Button callback: load a preset (the user's language and currency stay)."""
    kept = {name: value(name) for name in PREFERENCES}
    st.session_state[keys.INPUTS] = {**inputs.defaults(), **preset_values(preset_id), **kept}
    set_prices({})
    drop_base()
    # every input now comes from the preset, so what a link once got wrong no longer applies
    st.session_state[keys.URL_PROBLEMS] = []


def preset_values(preset_id: str) -> dict[str, Any]:
    """The inputs a preset sets, an unset (``None``) optional input given its widget value.

    A preset writes ``None`` for "the design's default"; the widgets hold their own empty value
    (``""`` for the GPU), and anything else would be flagged as an unknown option.
    """
    return {
        name: inputs.BY_NAME[name].default if new is None else new
        for name, new in PRESETS[preset_id].values.items()
    }


def active_preset() -> str | None:
    """The preset the current inputs match, if any."""
    current = values()
    for preset_id in PRESETS:
        expected = {**inputs.defaults(), **preset_values(preset_id)}
        if all(current[k] == v for k, v in expected.items() if k not in PREFERENCES) and not prices():
            return preset_id
    return None


SCENARIO_PARTS = {
    "tenants": keys.TENANTS,
    "serving": keys.SERVING,
    "workload": keys.WORKLOAD,
    "calibration": keys.CALIBRATION,
}
"""Scenario field -> session key of the JSON a page gave it (absent: the loaded scenario's own)."""


def scenario() -> Scenario:
    """The scenario of the current inputs; :class:`planner.InputError` names a bad field.

    When a whole scenario was loaded (:func:`load_scenario`), the inputs are laid over it, so
    what the sidebar cannot show (an explicit fabric, link lengths, ...) is kept.
    """
    data = inputs.scenario_data(values(), prices())
    base = base_scenario()
    if base is not None:
        data = over_base(base, data)
    given = {field: st.session_state.get(key) for field, key in SCENARIO_PARTS.items()}
    data = {**data, **{field: json.loads(text) for field, text in given.items() if text is not None}}
    return scenario_from_data(data)


def calibration() -> CalibrationOverride | None:
    """The calibration the scenario carries: the one saved on the Measurements page, else the
    loaded scenario's own (none without one)."""
    chosen = st.session_state.get(keys.CALIBRATION)
    if chosen is None:
        chosen = json.dumps((base_scenario() or {}).get("calibration"))
    data = json.loads(chosen)
    return None if data is None else CalibrationOverride.model_validate(data)


def set_calibration(new: CalibrationOverride | None) -> None:
    """The calibration the scenario carries from now on (``None``: removed); refused (with
    :class:`planner.access.AccessDeniedError`) for a role that may not save scenarios."""
    auth.require_permission(Permission.SCENARIOS, what=tr("meas.save_with_scenario", lang()))
    st.session_state[keys.CALIBRATION] = "null" if new is None else new.model_dump_json()


def _set_part(field: str, value: Any) -> None:
    """What the scenario's ``field`` holds from now on (see :data:`SCENARIO_PARTS`)."""
    st.session_state[SCENARIO_PARTS[field]] = json.dumps(value, sort_keys=True, ensure_ascii=False)


def set_tenants(items: list[dict[str, Any]]) -> None:
    """The tenant set the scenario carries from now on (the Tenants page's table; [] = none)."""
    _set_part("tenants", items)


def set_serving(request: dict[str, Any] | None) -> None:
    """The serving request the scenario carries from now on (the Serving page's form; None = none)."""
    _set_part("serving", request)


def set_workload(entries: list[dict[str, Any]]) -> None:
    """The workload mix the scenario carries from now on (the Compare page's file; [] = none)."""
    _set_part("workload", entries)


def write_url() -> None:
    """Put the inputs in the URL (only when they differ, to avoid needless browser updates).

    While a saved scenario is loaded, its share parameters go along, so the address opens the
    saved scenario (with its explicit fabric) and then applies the inputs on top.
    """
    wanted = inputs.to_query(values(), prices())
    wanted.update(_share_query())
    wanted.update(_workload_query())
    if present():
        wanted[PRESENT_PARAM] = "1"
    if st.query_params.to_dict() != wanted:
        st.query_params.from_dict(wanted)  # the browser gets a new history entry: Back works
    st.session_state[keys.LAST_URL] = wanted


def last_url() -> dict[str, str]:
    """The query parameters :func:`write_url` wrote last."""
    return dict(st.session_state.get(keys.LAST_URL) or {})


PRESENT_PARAM = "present"
"""URL parameter of presentation mode (``present=1``)."""


def present() -> bool:
    """True in presentation mode (large type, no sidebar, what the customer should see)."""
    return bool(st.session_state.get(keys.PRESENT, False))


def set_present(on: bool) -> None:
    st.session_state[keys.PRESENT] = bool(on)


def toggle_present() -> None:
    """Button callback: enter or leave presentation mode, on the session's scenario (a click right
    after an edit may carry the address from before it: see :data:`ui.keys.KEEP_SCENARIO_ONCE`)."""
    set_present(not present())
    st.session_state[keys.KEEP_SCENARIO_ONCE] = True


# --- a scenario loaded whole: optimizer designs, saved scenarios, share links ---------------------


def inputs_of_scenario(scenario: Scenario) -> tuple[dict[str, Any], dict[str, float]]:
    """The sidebar inputs and price overrides that express ``scenario`` (inverse of
    :func:`ui.inputs.scenario_data`; an explicit fabric has no input)."""
    f = scenario.facility
    floor = scenario.layout_floor
    values = {
        "gpus": scenario.gpus,
        "design": scenario.design_id,
        "gpu": scenario.gpu_id or "",
        "cooling": f.cooling_id,
        "rack_kw": float(f.rack_power_limit_kw),
        "elec": f.electricity_usd_per_kwh,
        "years": f.years,
        "currency": f.currency,
        "discount": float(f.discount_rate),
        "load": float(f.load_factor),
        "util": float(f.utilization),
        "pue": f.pue_override,
        "fx": f.usd_to_cny,
        "reduction": scenario.in_switch_reduction,
        **{name: getattr(floor, field) for name, field in inputs.FLOOR_FIELDS.items()},
    }
    return values, dict(scenario.price_overrides_usd)


def over_base(base: Mapping[str, Any], data: Mapping[str, Any]) -> dict[str, Any]:
    """The scenario mapping of the inputs (``data``) laid over a loaded scenario (``base``).

    The base's fabric is kept only while the design is the one it was made for, and its server
    only while the GPU is the same; its floor keeps what the floor inputs do not set (aisles, rack
    footprint, slack).
    """
    taken = ("gpus", "design_id", "gpu_id", "price_overrides_usd", "in_switch_reduction")
    merged = {**base, **{k: data[k] for k in taken if k in data}}
    if base.get("floor"):
        shown = data.get("floor") or {f: inputs.BY_NAME[n].default for n, f in inputs.FLOOR_FIELDS.items()}
        merged["floor"] = {**base["floor"], **shown}
    else:
        merged["floor"] = data.get("floor")
    merged["facility"] = {**base.get("facility", {}), **data["facility"]}
    if base.get("design_id") != data["design_id"]:
        merged["fabric"] = None
    if base.get("gpu_id") != data["gpu_id"]:
        merged["server_id"] = None
    return merged


def load_scenario(scenario: Scenario, *, origin: Mapping[str, Any]) -> None:
    """Make ``scenario`` the app's current scenario; every page shows it from the next run.

    The sidebar inputs take its values (the language stays the user's); the whole scenario is
    kept in the session as the base the inputs are laid over. ``origin`` says where it came
    from (``{"kind": "optimizer", "label": ...}`` or ``{"kind": "saved", "id", "version", "name"}``).
    """
    new_values, new_prices = inputs_of_scenario(scenario)
    st.session_state[keys.INPUTS] = {**inputs.defaults(), **new_values, "lang": lang()}
    set_prices(new_prices)
    st.session_state[keys.BASE_SCENARIO] = scenario.model_dump_json()
    st.session_state[keys.BASE_ORIGIN] = dict(origin)
    for key in SCENARIO_PARTS.values():  # the loaded scenario's own tenants, serving request,
        st.session_state.pop(key, None)  # workload mix and calibration apply


def base_scenario() -> dict[str, Any] | None:
    """The loaded scenario's mapping, or ``None`` when the inputs alone make the scenario."""
    text = st.session_state.get(keys.BASE_SCENARIO, "")
    if not text:
        return None
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def base_origin() -> dict[str, Any]:
    """Where the loaded scenario came from (``{}`` when there is none)."""
    if not st.session_state.get(keys.BASE_SCENARIO):
        return {}
    return dict(st.session_state.get(keys.BASE_ORIGIN) or {})


def custom_fabric_active() -> bool:
    """True when the current scenario carries an explicit fabric the sidebar cannot show."""
    base = base_scenario()
    return bool(base and base.get("fabric") and base.get("design_id") == value("design"))


def detach_base(*, label: str) -> None:
    """Keep the loaded scenario but no longer as a saved one (its share link stops)."""
    if base_scenario() is not None:
        st.session_state[keys.BASE_ORIGIN] = {"kind": "detached", "label": label}


def drop_base() -> None:
    """Forget the loaded scenario: the inputs alone make the scenario again."""
    st.session_state[keys.BASE_SCENARIO] = ""
    st.session_state[keys.BASE_ORIGIN] = {}


def opened() -> dict[str, Any] | None:
    """The saved scenario being edited (``{"id", "version", "name"}``), if any."""
    found = st.session_state.get(keys.OPENED)
    return dict(found) if found else None


def set_opened(scenario_id: int | None, version: int = 0, name: str = "") -> None:
    st.session_state[keys.OPENED] = (
        None if scenario_id is None else {"id": scenario_id, "version": version, "name": name}
    )


def _share_query() -> dict[str, str]:
    origin = base_origin()
    if origin.get("kind") != "saved":
        return {}
    wanted = share_params(scenario_id=int(origin["id"]), version=int(origin["version"]))
    # the saved scenario's price overrides come back when the link opens unless the URL says
    # otherwise, so an emptied list must be written too
    wanted.setdefault(inputs.PRICES_PARAM, "")
    return wanted


def workload() -> tuple[WorkloadEntry, ...]:
    """The scenario's workload mix: the Compare page's, else the loaded scenario's (none without)."""
    text = st.session_state.get(keys.WORKLOAD)
    items = json.loads(text) if text is not None else (base_scenario() or {}).get("workload") or []
    return workload_from_data(items) if items else ()


def _workload_query() -> dict[str, str]:
    """The address's ``workload`` parameter (:func:`planner.store.links.workload_param`); left out,
    with the reason kept for the Compare page, when the mix is too long for a link."""
    st.session_state[keys.WORKLOAD_LINK_PROBLEM] = ""
    try:
        mix = workload()
        return {WORKLOAD_PARAM: workload_param(mix)} if mix else {}
    except PlannerError as exc:
        st.session_state[keys.WORKLOAD_LINK_PROBLEM] = error_text(exc)
        return {}


def _open_workload_param(params: Mapping[str, Any]) -> None:
    """Start-up: a ``workload=1.…`` parameter sets the scenario's workload mix (after a saved
    scenario the link opens, whose own mix it replaces). A malformed one is listed with the
    ignored parameters, as one line naming it."""
    if WORKLOAD_PARAM not in params:
        return
    try:
        mix = parse_workload_param(params[WORKLOAD_PARAM])
    except PlannerError as exc:
        st.session_state[keys.URL_PROBLEMS] = [
            *st.session_state.get(keys.URL_PROBLEMS, []),
            tx(error_text(exc)),
        ]
        return
    set_workload([e.model_dump(mode="json") for e in mix])


def _open_share_link(params: Mapping[str, Any]) -> None:
    """Start-up: a ``?scenario=ID[&version=N]`` link opens that saved scenario.

    Other input parameters in the same URL are applied on top (a copied address keeps its
    edits). A link that cannot be opened is listed with the ignored URL parameters, and the
    reason is kept for the Scenarios page.
    """

    st.session_state[keys.SHARE_MESSAGE] = ""
    try:
        ref = parse_share_params(params)
        if ref is None:
            return
        saved = store.store().load(scenario_id=ref.scenario_id, version=ref.version, audit="open_share")
    except PlannerError as exc:
        raw = params.get("scenario", "")
        st.session_state[keys.URL_PROBLEMS] = [
            *st.session_state.get(keys.URL_PROBLEMS, []),
            f"scenario={shorten(str(raw))}",
        ]
        st.session_state[keys.SHARE_MESSAGE] = str(exc)
        return
    url_values, url_prices, _ = inputs.parse_query(params)
    open_saved(saved)
    st.session_state[keys.BASE_ORIGIN]["via"] = "link"  # the banner says it came as a link
    values().update(url_values)
    if inputs.PRICES_PARAM in params:
        set_prices(url_prices)


def open_saved(saved: SavedScenario) -> None:
    """Make a saved version the app's current scenario, and the one a new version is saved to."""
    load_scenario(
        saved.scenario,
        origin={"kind": "saved", "id": saved.id, "version": saved.version.version, "name": saved.record.name},
    )
    set_opened(saved.id, saved.record.version, saved.record.name)
    st.session_state[keys.OPENED_DESIGN] = saved.scenario.design_id  # the save form compares it
    st.session_state[keys.SAVE_FORM] = {
        "name": saved.record.name,
        "customer": saved.record.customer,
        "tags": ", ".join(saved.record.tags),
        "notes": saved.record.notes,
        "comment": "",
    }
