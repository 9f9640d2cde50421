"""Catalog page blocks: browse a family, its field reference, and the override upload."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from planner.access import Permission
from planner.catalog import FAMILIES
from planner.i18n import tr_enum, translate
from planner.report import catalog_table
from planner.report.performance_tables import escape_markdown
from ui import auth, engine, keys, state
from ui.state import t
from ui.upload import SUFFIXES, UploadResult, read_override


def family_picker() -> str:
    lang = state.lang()
    family = st.selectbox(
        t("catalog.family"),
        options=list(FAMILIES),
        format_func=lambda f: tr_enum("family", f, lang),
        key=keys.FAMILY,
    )
    return str(family)


def records(family: str) -> None:
    """The family's records, one labelled column per field (units in the headers); a design's
    vendor claims follow in their own table, labelled as claims with the design's source."""
    lang = state.lang()
    frame = catalog_table.readable_records(engine.catalog(), family, lang)
    st.caption(t("catalog.record_one") if len(frame) == 1 else t("catalog.records", count=len(frame)))
    _table(frame)
    if family == "designs":
        st.subheader(t("catalog.claims"))
        st.caption(t("catalog.claims_caption"))
        _table(catalog_table.claim_records(engine.catalog(), lang))


def _table(frame: pd.DataFrame) -> None:
    # the first column (id, design) stays in view while a wide family scrolls sideways
    pinned = {frame.columns[0]: st.column_config.Column(pinned=True)} if len(frame.columns) else {}
    st.dataframe(frame, hide_index=True, width="stretch", column_config=pinned)


def field_reference(family: str) -> None:
    st.subheader(t("catalog.reference"))
    st.caption(t("catalog.reference_caption"))
    reference = catalog_table.field_reference(family, state.lang())
    st.dataframe(reference, hide_index=True, width="stretch", height=38 + 35 * len(reference))


def apply_upload(name: str, content: bytes) -> UploadResult:
    """Validate an upload; on success make it the session's catalog override."""
    auth.require_permission(Permission.CATALOG_OVERRIDE, what="catalog override")
    result = read_override(name, content)
    if result.ok:
        state.set_catalog_override(result.override_json, name)
    st.session_state[keys.UPLOAD_MESSAGE] = result
    return result


def upload() -> None:
    """The override uploader: errors shown here, the page keeps working."""
    st.subheader(t("catalog.upload"))
    if not auth.can(Permission.CATALOG_OVERRIDE):
        st.caption(t("auth.catalog_refused"))
        return
    st.caption(t("catalog.upload_caption"))
    uploaded = st.file_uploader(t("catalog.upload_label"), type=list(SUFFIXES), key=keys.UPLOAD)
    if uploaded is not None and st.session_state.get(keys.UPLOAD_SEEN) != uploaded.file_id:
        st.session_state[keys.UPLOAD_SEEN] = uploaded.file_id
        apply_upload(uploaded.name, uploaded.getvalue())
    result: UploadResult | None = st.session_state.get(keys.UPLOAD_MESSAGE)
    if result is not None and not result.ok:
        st.error(
            t("catalog.upload_error", message=escape_markdown(translate(result.message, state.lang()))),
            icon=":material/warning:",
        )
    if state.has_catalog_override():
        name = st.session_state.get(keys.CATALOG_OVERRIDE_NAME, "")
        count = len(result.records) if result is not None and result.ok else 0
        st.success(
            t("catalog.override_active", name=escape_markdown(str(name)), count=count),
            icon=":material/check_circle:",
        )  # the upload's file name, as text
        st.button(t("catalog.remove_override"), key=keys.CLEAR_OVERRIDE, on_click=_clear)


def _clear() -> None:
    state.set_catalog_override("", "")
    st.session_state[keys.UPLOAD_MESSAGE] = None
