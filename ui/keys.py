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
