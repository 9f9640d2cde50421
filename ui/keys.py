"""Session-state keys, in one place. Widget keys derive from input names (``w_<name>``)."""

from __future__ import annotations

INPUTS = "inputs"
"""dict: canonical value of every shared input (see :mod:`ui.inputs`)."""
PRICES = "price_overrides_usd"
"""dict: unit-price overrides by catalog id [USD]."""
CATALOG_OVERRIDE = "catalog_override"
"""str: canonical JSON of the uploaded catalog override; "" = bundled catalog."""
CATALOG_OVERRIDE_NAME = "catalog_override_name"
URL_PROBLEMS = "url_problems"
"""list[str]: URL parameters ignored when the session started."""
LAST_GOOD = "last_good_scenario"
"""str: JSON of the last scenario the engine accepted (shown while the inputs are invalid)."""
KPI_CURRENT = "kpi_current_scenario"
KPI_PREVIOUS = "kpi_previous_scenario"
"""str: scenario JSON before the last change, for the KPI deltas."""
BOM_EDITOR_VERSION = "bom_editor_version"
"""int: bumped when prices change, so the BOM editor starts from the new prices."""
UPLOAD = "catalog_upload"
UPLOAD_SEEN = "catalog_upload_seen"
UPLOAD_MESSAGE = "catalog_upload_message"
RESET_PRICES = "reset_prices"
CLEAR_OVERRIDE = "clear_catalog_override"
FAMILY = "catalog_family"
ASSUMPTION_KIND = "assumption_kind"


def widget(name: str) -> str:
    """Key of the sidebar widget that edits input ``name``."""
    return f"w_{name}"


def preset_button(preset_id: str) -> str:
    return f"preset_{preset_id}"


def bom_editor(version: int) -> str:
    return f"bom_editor_{version}"


# --- the current scenario beyond the sidebar inputs ----------------------------------------------
BASE_SCENARIO = "base_scenario"
"""str: JSON of a scenario loaded from the optimizer or the store. It carries what the sidebar
inputs cannot (an explicit fabric, link lengths, server, storage, name); the inputs are laid
over it. "" = none (the inputs alone make the scenario)."""
BASE_ORIGIN = "base_origin"
"""dict: where :data:`BASE_SCENARIO` came from: ``{"kind": "optimizer", "label": ...}`` or
``{"kind": "saved", "id": ..., "version": ..., "name": ...}``."""
OPENED = "opened_saved"
"""dict | None: the saved scenario the user works on ``{"id", "version", "name"}``; a new
version is saved with ``expected_version = version``."""
SHARE_MESSAGE = "share_message"
"""str: why a share link could not be opened ("" = it opened, or there was none)."""
TENANTS = "scenario_tenants"
"""str: JSON list of the tenant set the Tenants page gave the scenario; absent = the loaded
scenario's own tenants (none without one)."""
SERVING = "scenario_serving"
"""str: JSON of the serving request the Serving page gave the scenario ("null" = none); absent =
the loaded scenario's own request (none without one)."""
WORKLOAD = "scenario_workload"
"""str: JSON list of the workload mix the Compare page gave the scenario ("[]" = none); absent =
the loaded scenario's own mix (none without one)."""
CALIBRATION = "scenario_calibration"
"""str: JSON of the calibration the Measurements page saved with the scenario ("null" = removed);
absent = the loaded scenario's own calibration (none without one)."""
CALIBRATION_STATUS = "calibration_status"
"""(str, dict) | None: the UI key and parameters of the last calibration action's status line."""
WORKLOAD_LINK_PROBLEM = "workload_link_problem"
"""str: why the address leaves the workload mix out (too long for a link); "" = it carries it."""

# --- Optimize ------------------------------------------------------------------------------------
OPT_FORM = "optimize_form"
"""dict: the optimizer form's values (kept across page switches)."""
OPT_RUN = "optimize_run"
"""dict | None: the last submitted run: ``{"scenario": json, "request": json}``."""
OPT_ERRORS = "optimize_errors"
"""dict: field -> message of the last submit's rejected inputs."""
OPT_PARETO_KIND = "optimize_pareto_kind"
OPT_PARETO_CHART = "optimize_pareto_chart"
OPT_LOADED = "optimize_loaded"
"""str: label of the design last loaded from this page ("" = none)."""
OPT_SUBMIT = "optimize_submit"
OPT_LOAD_RESULT = "optimize_load_result"
OPT_ACCEPT_CHANGES = "optimize_accept_changes"
"""Checkbox: take the result over although it changes cooling, facility power or racks a lot."""

# --- Workload and Reliability ----------------------------------------------------------------------
WORKLOAD_FORM = "workload_form"
"""dict: the training job's inputs (kept across page switches)."""
WORKLOAD_LAST_GOOD = "workload_last_good"
"""dict: the last job inputs the engine accepted (shown while the form has an error)."""
WORKLOAD_TORNADO_OUTPUT = "workload_tornado_output"
RELIABILITY_FORM = "reliability_form"
RELIABILITY_LAST_GOOD = "reliability_last_good"

# --- Scenarios -------------------------------------------------------------------------------------
SAVE_FORM = "scenarios_save_form"
SAVE_NEW = "scenarios_save_new"
SAVE_VERSION = "scenarios_save_version"
CONFLICT = "scenarios_conflict"
"""dict | None: a rejected save: ``{"id", "expected", "current", "scenario", "name", ...}``."""
CONFLICT_SAVE_NEW = "scenarios_conflict_save_new"
CONFLICT_RELOAD = "scenarios_conflict_reload"
FLASH = "scenarios_flash"
"""dict: section -> (kind, message) shown once after an action (kind: success, info, error)."""
SAVE_ERROR = "scenarios_save_error"
"""str: the store's message about the save form's last submit ("" = none)."""
SEARCH = "scenarios_search"
FILTER_CUSTOMER = "scenarios_customer"
FILTER_TAG = "scenarios_tag"
SHOW_TRASH = "scenarios_show_trash"
PICKED = "scenarios_picked"
PICKED_VERSION = "scenarios_picked_version"
RENAME = "scenarios_rename"
DETAILS = "scenarios_details"
DIFF_FROM = "scenarios_diff_from"
DIFF_TO = "scenarios_diff_to"
COMPARE_LEFT = "scenarios_compare_left"
COMPARE_RIGHT = "scenarios_compare_right"
IMPORT_FILE = "scenarios_import_file"
IMPORT_BUTTON = "scenarios_import_button"


def field(form: str, name: str) -> str:
    """Key of the widget that edits field ``name`` of ``form``."""
    return f"{form}__{name}"


def action(name: str, scenario_id: int) -> str:
    """Key of a button acting on one saved scenario (open, duplicate, delete, ...)."""
    return f"scenarios_{name}_{scenario_id}"


# --- workshop use: presentation, onboarding, history, display units --------------------------------
PRESENT = "present"
"""bool: presentation mode (large type, sidebar collapsed, only what the customer should see);
the URL carries it as ``present=1``."""
PRESENT_TOGGLE = "present_toggle"
WELCOME_DISMISSED = "welcome_dismissed"
"""bool: the "start here" box was closed (it shows once per session)."""
WELCOME_CLOSE = "welcome_close"
HISTORY = "scenario_history"
"""list[str]: JSON snapshots of the scenario state (inputs without the language, prices, loaded
scenario), oldest first, bounded; :data:`HISTORY_POS` points at the current one."""
HISTORY_POS = "scenario_history_pos"
UNDO = "scenario_undo"
REDO = "scenario_redo"
LAST_URL = "last_url"
"""dict: the query parameters the app last wrote; a different URL on a later run is the browser's
Back/Forward (or an edited address) and is followed."""
KEEP_SCENARIO_ONCE = "keep_scenario_once"
"""bool: this run comes from a click in the app, not from the browser's address: the address it
carries may be the one before the last edit (the edit's new address still on its way to the
browser), so it is not followed (:func:`ui.history.follow_url`)."""
RANGE_ERRORS = "range_errors"
"""dict: input name -> the out-of-range value last typed into it (cleared by a valid value)."""
FORM_RANGE_ERRORS = "form_range_errors"
"""dict: (form, field) -> the out-of-range number last typed into a page form's field."""
RESET_SCENARIO_STATE = "reset_scenario_state"
"""Button: drop the loaded optimizer/saved design and the price overrides in one click."""
UNITS = "display_units"
"""dict: the reader's display units: ``bandwidth`` (GB/s, Gb/s), ``power`` (kW, BTU/h), ``money``
(``short``: k/M or 万/亿; ``full``: every digit)."""
OPENED_DESIGN = "opened_saved_design"
"""str: the design of :data:`OPENED` as it was opened or last saved."""
SAVE_FORM_FOR = "scenarios_save_form_for"
"""str: identity of the scenario the save form was filled for (the form resets on a change)."""
HTML_LANG = "html_lang"
CHARTS_PRELOADED = "charts_preloaded"
"""True once the session asked the browser for the Plotly module (``workshop.preload_charts``)."""
PROPOSAL_OPTIONS = "proposal_options"
"""dict: the proposal details last submitted on the Proposal page (JSON-ready, without the logo);
presentation mode reads the customer, the project and the commercial terms from it."""
MEASURE_NCCL = "measure_nccl"
"""tuple[(name, bytes)]: the nccl-tests files uploaded on the Measurements page."""
MEASURE_PERFTEST = "measure_perftest"
"""tuple[(name, bytes)]: the perftest files uploaded on the Measurements page."""
MEASURE_NCCL_UPLOAD = "measure_nccl_upload"
MEASURE_PERFTEST_UPLOAD = "measure_perftest_upload"
SCENARIO_DETAILS = "overview_scenario_details"
"""bool: the Overview's "Scenario details" expander is open (its table is built only then)."""
