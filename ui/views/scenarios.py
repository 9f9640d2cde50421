"""Scenarios page blocks: save, search, open, version, diff, compare, trash, import and export.

Every store call that a button makes runs in its callback (before the page redraws) and leaves a
one-time message for its section. User text (names, customers, tags, notes) is shown as plain
table cells, or escaped for Markdown and Plotly; nothing is rendered as HTML.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Sequence
from typing import Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from planner import Plan, PlannerError
from planner.access import Permission
from planner.report import charts, performance_tables, tables
from planner.report.performance_tables import escape_lines, escape_markdown
from planner.store import (
    ConflictError,
    ImportRejectedError,
    SavedScenario,
    ScenarioDiff,
    ScenarioStore,
    ScenarioSummary,
    share_query,
)
from ui import auth, engine, forms, keys, state, store, widgets, workshop
from ui.forms import FormField
from ui.state import t

FORM = keys.SAVE_FORM
SAVE_FIELDS: tuple[FormField, ...] = (
    FormField("name", "sc.field.name", "sc.help.name", "text", "", hi=200),
    FormField("customer", "sc.field.customer", "sc.help.customer", "text", "", hi=200),
    FormField("tags", "sc.field.tags", "sc.help.tags", "text", "", placeholder_key="sc.placeholder.tags"),
    FormField("notes", "sc.field.notes", "sc.help.notes", "textarea", ""),
    FormField(
        "comment", "sc.field.comment", "sc.help.comment", "text", "", placeholder_key="sc.placeholder.comment"
    ),
)
DETAIL_FIELDS = SAVE_FIELDS[:4]
SAVE_TEAM = "scenarios_save_team"
"""str: the team a new scenario is shared with ("" = its owner only)."""


def tag_list(text: str) -> list[str]:
    """Tags typed as one comma-separated line.

    >>> tag_list(" workshop, Acme ,, q4")
    ['workshop', 'Acme', 'q4']
    """
    return [tag.strip() for tag in text.split(",") if tag.strip()]


# --- one-time messages -----------------------------------------------------------------------------


_DATABASE_URL = re.compile(r"\b[a-z][a-z0-9+.-]*://\S+", re.IGNORECASE)
"""A database URL inside an error message (``postgresql://user@host/db``, ``sqlite:////path``)."""


def _public(exc: Exception) -> str:
    """An error message fit for a customer's screen: any database URL (user, host, file path)
    replaced by the store's kind, markdown escaped."""
    return escape_markdown(_DATABASE_URL.sub(t("sc.store_database"), str(exc)))


def store_label(backend: str) -> str:
    """The store as a customer may see it: ``SQLite (local)`` or ``PostgreSQL (team)``, never its
    URL (a team database URL names its host and user; a local one a file path)."""
    if backend == "sqlite":
        return t("sc.backend.sqlite")
    if backend == "postgresql":
        return t("sc.backend.postgresql")
    return t("sc.store_database")


def _flash(section: str, kind: str, message: str) -> None:
    st.session_state.setdefault(keys.FLASH, {})[section] = (kind, message)


def show_flash(section: str) -> None:
    """The message an action left for this section (shown once)."""
    kind, message = st.session_state.get(keys.FLASH, {}).pop(section, ("", ""))
    if kind == "success":
        st.success(message, icon=":material/check_circle:")
    elif kind == "info":
        st.info(message, icon=":material/info:")
    elif kind == "error":
        st.error(message, icon=":material/warning:")


def _run(section: str, action: Callable[[ScenarioStore], str]) -> None:
    """Run a store action from a callback; its message (or the store's error) goes to ``section``."""
    try:
        _flash(section, "success", action(store.store()))
    except PlannerError as exc:
        _flash(section, "error", t("sc.action_failed", message=_public(exc)))


def _quoted(name: str) -> str:
    return t("sc.quoted", name=escape_markdown(name))


def _open(s: ScenarioStore, scenario_id: int, version: int | None = None) -> str:
    saved = s.load(scenario_id=scenario_id, version=version, include_deleted=False)
    state.open_saved(saved)
    st.session_state[keys.PICKED] = saved.id
    return t("sc.opened", name=_quoted(saved.record.name), id=saved.id, version=saved.version.version)


# --- header: the store, the open scenario, its share link --------------------------------------------


def header() -> ScenarioStore:
    """The store in use (stop the page with the reason when it cannot be opened)."""
    try:
        s = store.store()
    except PlannerError as exc:
        st.error(t("sc.store_error", message=_public(exc)), icon=":material/warning:")
        st.stop()
    st.caption(t("sc.store", backend=store_label(s.backend)))
    problem = st.session_state.get(keys.SHARE_MESSAGE)
    if problem:
        st.error(t("sc.share_failed", message=escape_markdown(problem)), icon=":material/link:")
    show_flash("top")
    return s


def share_link(scenario_id: int, version: int | None) -> str:
    """The address that opens a saved scenario (the app's root with the share parameters) in the
    language it is shared from: a Chinese workshop's link opens in Chinese."""
    url = str(st.context.url or "").split("?", 1)[0]
    root = url.rsplit("/", 1)[0] if url.count("/") > 2 else url
    return f"{root}/?{share_query(scenario_id=scenario_id, version=version)}&lang={state.lang()}"


def opened_banner() -> None:
    """Which saved scenario the app works on, its share link, and how to let go of it."""
    opened = state.opened()
    if not opened:
        st.caption(t("sc.none_open"))
        return
    origin = state.base_origin()
    version = int(origin["version"]) if origin.get("kind") == "saved" else int(opened["version"])
    with st.container(border=True):
        st.markdown(t("sc.open_banner", name=_quoted(opened["name"]), id=opened["id"], version=version))
        if state.custom_fabric_active():
            st.caption(t("sc.custom_fabric_kept"))
        st.code(share_link(int(opened["id"]), version), language=None)
        st.caption(t("sc.share_caption"))
        st.button(t("sc.close"), key=keys.action("close", int(opened["id"])), on_click=_close)


def _close() -> None:
    """Stop working on the saved scenario; the app keeps showing it (no share link any more)."""
    opened = state.opened() or {}
    state.set_opened(None)
    state.detach_base(label=str(opened.get("name", "")))
    st.session_state[FORM] = {f.name: f.default for f in SAVE_FIELDS}


# --- saving ----------------------------------------------------------------------------------------


def _save_new(scenario_json: str) -> None:
    forms.commit(FORM, SAVE_FIELDS)
    values = st.session_state[FORM]

    team = str(st.session_state.get(SAVE_TEAM) or "")

    def create(s: ScenarioStore) -> str:
        saved = s.create(
            name=values["name"],
            scenario=engine.scenario_of(scenario_json),
            customer=values["customer"],
            tags=tag_list(values["tags"]),
            notes=values["notes"],
            comment=values["comment"],
            team=team,
        )
        return _opened_new(saved)

    _save(create)


def _opened_new(saved: SavedScenario) -> str:
    """Open a scenario just created (it becomes the one being edited and the one picked in the
    list); the confirmation to show."""
    state.open_saved(saved)
    st.session_state[keys.PICKED] = saved.id
    return t("sc.saved_new", name=_quoted(saved.record.name), id=saved.id)


def _save_version(scenario_json: str, scenario_id: int, expected_version: int) -> None:
    forms.commit(FORM, SAVE_FIELDS)
    values = dict(st.session_state[FORM])
    values["name"] = values["name"] or str((state.opened() or {}).get("name", ""))  # a reset form
    scenario = engine.scenario_of(scenario_json)

    def save(s: ScenarioStore) -> str:
        saved = s.save(
            scenario_id=scenario_id,
            scenario=scenario,
            expected_version=expected_version,
            comment=values["comment"],
            name=values["name"],
            customer=values["customer"],
            notes=values["notes"],
            tags=tag_list(values["tags"]),
        )
        state.open_saved(saved)
        st.session_state[keys.PICKED] = saved.id
        return t("sc.saved_version", name=_quoted(saved.record.name), version=saved.version.version)

    try:
        _save(save, raise_conflict=True)
    except ConflictError as exc:
        st.session_state[keys.CONFLICT] = {
            "id": exc.scenario_id,
            "expected": exc.expected_version,
            "current": exc.current_version,
            "scenario": exc.rejected.model_dump_json(),
            **{k: values[k] for k in ("name", "customer", "tags", "notes", "comment")},
        }


def _save(action: Callable[[ScenarioStore], str], *, raise_conflict: bool = False) -> None:
    st.session_state[keys.SAVE_ERROR] = ""
    st.session_state[keys.CONFLICT] = None
    try:
        _flash("save", "success", action(store.store()))
    except ConflictError:
        if raise_conflict:
            raise
    except PlannerError as exc:
        st.session_state[keys.SAVE_ERROR] = _DATABASE_URL.sub(t("sc.store_database"), str(exc))


def _opened_design() -> str | None:
    """The design of the saved scenario being edited, as it was opened or last saved."""
    design = st.session_state.get(keys.OPENED_DESIGN) if state.opened() else None
    return str(design) if design else None


def _form_for(plan: Plan, switched: bool) -> None:
    """Start the save form afresh when the scenario is another one: another design, or a
    different saved scenario. Customer and tags stay (same workshop); name, notes and comment
    described the other scenario. A form filled by opening a saved scenario stays as it is."""
    opened = state.opened()
    identity = f"{opened['id'] if opened else ''}:{plan.design_id}"
    before = st.session_state.get(keys.SAVE_FORM_FOR)
    st.session_state[keys.SAVE_FORM_FOR] = identity
    if before is None or before == identity or (opened and not switched):
        return
    kept = {k: v for k, v in st.session_state[FORM].items() if k in ("customer", "tags")}
    st.session_state[FORM] = {**{f.name: f.default for f in SAVE_FIELDS}, **kept}
    st.session_state[keys.SAVE_ERROR] = ""


def save_section(plan: Plan) -> None:
    """Save the current scenario as a new one, or as the next version of the open one.

    After a switch to another design, saving as a new scenario is the primary action: the open
    one keeps what it described, and "save as version N" stays available beside it.
    """
    st.subheader(t("sc.save"))
    forms.values(FORM, SAVE_FIELDS)
    opened = state.opened()
    switched = opened is not None and _opened_design() not in (None, plan.design_id)
    _form_for(plan, switched)
    scenario_json = plan.scenario.model_dump_json()
    with st.form("scenarios_save_widget", border=True):
        top = st.columns(3)
        slots: forms.Slots = {}
        for column, spec in zip(top, SAVE_FIELDS[:3], strict=True):
            slots[spec.name] = forms.draw(FORM, spec, column, live=False)
        bottom = st.columns([2, 1])
        slots["notes"] = forms.draw(FORM, SAVE_FIELDS[3], bottom[0], live=False)
        slots["comment"] = forms.draw(FORM, SAVE_FIELDS[4], bottom[1], live=False)
        _team_field()
        left, right = st.columns(2)
        left.form_submit_button(
            t("sc.save_new"),
            key=keys.SAVE_NEW,
            on_click=_save_new,
            args=(scenario_json,),
            icon=":material/add:",
            type="secondary" if opened and not switched else "primary",
            width="stretch",
        )
        if opened:
            right.form_submit_button(
                t("sc.save_version", name=_quoted(opened["name"]), version=int(opened["version"]) + 1),
                key=keys.SAVE_VERSION,
                on_click=_save_version,
                args=(scenario_json, int(opened["id"]), int(opened["version"])),
                icon=":material/save:",
                type="secondary" if switched else "primary",
                width="stretch",
            )
    if opened and switched:
        names = tables.design_names(engine.catalog(), state.lang())
        st.info(
            t(
                "sc.switched_design",
                name=_quoted(opened["name"]),
                before=names.get(str(_opened_design()), str(_opened_design())),
                after=names.get(plan.design_id, plan.design_id),
            ),
            icon=":material/info:",
        )
    st.caption(t("sc.save_caption"))
    error = st.session_state.get(keys.SAVE_ERROR)
    if error:
        forms.show_error(slots, SAVE_FIELDS, error, st)
    show_flash("save")
    conflict_box()


def _team_field() -> None:
    """Who a new scenario is shared with: one of the user's teams, or nobody; an admin may name
    any team. The store checks the choice again (``planner.access``), whatever the page sends."""
    identity = auth.identity()
    teams = ["", *identity.teams]
    nobody = t("sc.team.nobody")  # bound now: the widget may format its value outside this run
    if st.session_state.get(SAVE_TEAM) not in teams and not identity.can(Permission.ALL_SCENARIOS):
        st.session_state.pop(SAVE_TEAM, None)
    st.selectbox(
        t("sc.field.team"),
        teams,
        index=teams.index(identity.team),
        format_func=lambda team: team or nobody,
        accept_new_options=identity.can(Permission.ALL_SCENARIOS),
        help=t("sc.help.team"),
        key=SAVE_TEAM,
    )


def conflict_box() -> None:
    """A rejected save: say what happened; offer "save as new scenario" and "reload"."""
    conflict = st.session_state.get(keys.CONFLICT)
    if not conflict:
        return
    st.error(
        t(
            "sc.conflict",
            name=_quoted(conflict["name"]),
            expected=conflict["expected"],
            current=conflict["current"],
        ),
        icon=":material/warning:",
    )
    left, mid, right = st.columns(3)
    left.button(
        t("sc.conflict_save_new"),
        key=keys.CONFLICT_SAVE_NEW,
        on_click=_conflict_save_new,
        type="primary",
        icon=":material/add:",
        width="stretch",
    )
    mid.button(
        t("sc.conflict_reload", version=conflict["current"]),
        key=keys.CONFLICT_RELOAD,
        on_click=_conflict_reload,
        icon=":material/refresh:",
        width="stretch",
    )
    right.download_button(
        t("sc.conflict_download"),
        data=conflict["scenario"],
        file_name=f"scenario_{conflict['id']}_my_edit.json",
        mime="application/json",
        icon=":material/download:",
        width="stretch",
    )


def _conflict_save_new() -> None:
    conflict = st.session_state.get(keys.CONFLICT) or {}

    def create(s: ScenarioStore) -> str:
        saved = s.create(
            name=t("sc.conflict_name", name=conflict["name"])[:200],
            scenario=engine.scenario_of(conflict["scenario"]),
            customer=conflict["customer"],
            tags=tag_list(conflict["tags"]),
            notes=conflict["notes"],
            comment=conflict["comment"]
            or t("sc.conflict_comment", id=conflict["id"], version=conflict["expected"]),
        )
        return _opened_new(saved)

    _save(create)


def _conflict_reload() -> None:
    conflict = st.session_state.get(keys.CONFLICT) or {}
    st.session_state[keys.CONFLICT] = None
    _run("save", lambda s: _open(s, int(conflict["id"])) + " " + t("sc.reloaded_note"))


# --- the list and one scenario ------------------------------------------------------------------------


def browse(s: ScenarioStore) -> ScenarioSummary | None:
    """Search and filter the saved scenarios; pick one to work with."""
    lang = state.lang()
    st.subheader(t("sc.saved"))
    search, customer_col, tag_col, trash_col = st.columns([3, 2, 2, 2], vertical_alignment="bottom")
    anything = t("sc.any")
    query = search.text_input(t("sc.search"), key=keys.SEARCH, placeholder=t("sc.search_placeholder"))
    customers = ["", *s.customers()]
    customer = customer_col.selectbox(
        t("sc.filter_customer"),
        customers,
        format_func=lambda c: c or anything,
        key=keys.FILTER_CUSTOMER,
    )
    tags = ["", *s.tags()]
    tag = tag_col.selectbox(
        t("sc.filter_tag"), tags, format_func=lambda c: c or anything, key=keys.FILTER_TAG
    )
    trash = trash_col.toggle(t("sc.show_trash"), key=keys.SHOW_TRASH, help=t("sc.help.show_trash"))
    found = s.list_scenarios(
        query=query or "", customer=customer or None, tag=tag or None, state="all" if trash else "active"
    )
    if not found:
        st.info(t("sc.none_found"), icon=":material/search:")
        return None
    names = tables.design_names(engine.catalog(), lang)
    st.dataframe(performance_tables.scenario_list(found, names, lang), hide_index=True, width="stretch")
    by_id = {x.id: x for x in found}
    opened = state.opened()
    if st.session_state.get(keys.PICKED) not in by_id:
        st.session_state[keys.PICKED] = opened["id"] if opened and opened["id"] in by_id else found[0].id
    options = {
        i: t(
            "sc.pick_option",
            id=i,
            name=x.name,
            version=x.version,
            trash=t("sc.trash_mark") if x.deleted else "",
        )
        for i, x in by_id.items()
    }
    picked = st.selectbox(t("sc.pick"), list(by_id), format_func=options.__getitem__, key=keys.PICKED)
    return by_id[int(picked)]


def details(s: ScenarioStore, picked: ScenarioSummary) -> None:
    """One saved scenario: its label, actions, versions and version diff."""
    sid = picked.id
    with st.container(border=True):
        st.markdown(f"#### {t('sc.details_title', name=_quoted(picked.name), id=sid)}")
        st.caption(
            t(
                "sc.details_line",
                customer=escape_markdown(picked.customer) or "—",
                tags=escape_markdown(", ".join(picked.tags)) or "—",
                version=picked.version,
                updated=performance_tables.short_time(picked.updated_at),
            )
        )
        if picked.notes:
            st.markdown(escape_lines(picked.notes))
        if picked.deleted:
            st.warning(
                t("sc.in_trash", when=performance_tables.short_time(picked.deleted_at)),
                icon=":material/delete:",
            )
        _actions(s, picked)
        show_flash("details")
    _edit_details(picked)
    _versions(s, picked)


def _actions(s: ScenarioStore, picked: ScenarioSummary) -> None:
    sid = picked.id
    cells = st.columns(5)
    _action_button(
        cells[0],
        t("sc.open_latest"),
        verb="open",
        sid=sid,
        section="top",
        action=lambda store: _open(store, sid),
        icon=":material/open_in_new:",
        disabled=picked.deleted,
        primary=True,
    )
    _action_button(
        cells[1],
        t("sc.duplicate"),
        verb="duplicate",
        sid=sid,
        section="details",
        action=lambda store: _duplicate(store, sid),
        icon=":material/content_copy:",
    )
    verb, label, act, icon = (
        ("restore", t("sc.restore"), _restore, ":material/restore_from_trash:")
        if picked.deleted
        else ("delete", t("sc.delete"), _delete, ":material/delete:")
    )
    _action_button(
        cells[2],
        label,
        verb=verb,
        sid=sid,
        section="details",
        action=lambda store: act(store, sid),
        icon=icon,
    )
    cells[3].download_button(
        t("sc.export"),
        data=s.export_json(scenario_id=sid, audit=False),  # drawn on every run: the click is recorded
        file_name=f"scenario_{sid}_v{picked.version}.json",
        mime="application/json",
        key=keys.action("export", sid),
        on_click=store.record_export,
        args=("scenario JSON", sid, picked.version),
        icon=":material/download:",
        width="stretch",
    )
    with cells[4].popover(t("sc.share"), icon=":material/link:", width="stretch"):
        st.caption(t("sc.share_caption"))
        st.code(share_link(sid, None), language=None)


def _action_button(
    container: DeltaGenerator,
    label: str,
    *,
    verb: str,
    sid: int,
    section: str,
    action: Callable[[ScenarioStore], str],
    icon: str,
    disabled: bool = False,
    primary: bool = False,
) -> None:
    """A full-width button that runs a store ``action`` on scenario ``sid`` from its callback
    (its message goes to ``section``); the key names the verb and the scenario."""
    container.button(
        label,
        key=keys.action(verb, sid),
        on_click=_run,
        args=(section, action),
        type="primary" if primary else "secondary",
        icon=icon,
        disabled=disabled,
        width="stretch",
    )


def _duplicate(s: ScenarioStore, sid: int) -> str:
    copy = s.duplicate(scenario_id=sid)
    st.session_state[keys.PICKED] = copy.id
    return t("sc.duplicated", name=_quoted(copy.record.name), id=copy.id)


def _delete(s: ScenarioStore, sid: int) -> str:
    gone = s.delete(scenario_id=sid)
    opened = state.opened()
    if opened and opened["id"] == sid:
        _close()
    return t("sc.deleted", name=_quoted(gone.name))


def _restore(s: ScenarioStore, sid: int) -> str:
    back = s.restore(scenario_id=sid)
    return t("sc.restored", name=_quoted(back.name))


def _edit_details(picked: ScenarioSummary) -> None:
    """Rename, and change customer, tags and notes (no new version)."""
    form = f"{keys.DETAILS}_{picked.id}"
    forms.values(
        form,
        DETAIL_FIELDS,
        seed={
            "name": picked.name,
            "customer": picked.customer,
            "tags": ", ".join(picked.tags),
            "notes": picked.notes,
        },
    )
    with st.expander(t("sc.edit_details"), icon=":material/edit:"), st.form(f"{form}_widget", border=False):
        slots = {spec.name: forms.draw(form, spec, st, live=False) for spec in DETAIL_FIELDS}
        st.form_submit_button(
            t("sc.save_details"),
            key=keys.action("save_details", picked.id),
            on_click=_update_details,
            args=(form, picked.id),
            disabled=picked.deleted,
        )
        error = st.session_state.get(f"{form}_error")
        if error:
            forms.show_error(slots, DETAIL_FIELDS, error, st)


def _update_details(form: str, sid: int) -> None:
    forms.commit(form, DETAIL_FIELDS)
    values = st.session_state[form]
    st.session_state[f"{form}_error"] = ""
    try:
        s = store.store()
        before = s.get(scenario_id=sid)
        if (values["customer"], tag_list(values["tags"]), values["notes"]) == (
            before.customer,
            list(before.tags),
            before.notes,
        ):
            summary = s.rename(scenario_id=sid, name=values["name"])
        else:
            summary = s.update_details(
                scenario_id=sid,
                name=values["name"],
                customer=values["customer"],
                notes=values["notes"],
                tags=tag_list(values["tags"]),
            )
    except PlannerError as exc:
        st.session_state[f"{form}_error"] = _DATABASE_URL.sub(t("sc.store_database"), str(exc))
        return
    opened = state.opened()
    if opened and opened["id"] == sid:
        state.set_opened(sid, int(opened["version"]), summary.name)
    _flash("details", "success", t("sc.details_saved", name=_quoted(summary.name)))


def _versions(s: ScenarioStore, picked: ScenarioSummary) -> None:
    """Every version; open any; diff two (inputs changed, key results moved)."""
    lang = state.lang()
    sid = picked.id
    versions = s.versions(scenario_id=sid)
    names = tables.design_names(engine.catalog(), lang)
    st.markdown(f"**{t('sc.versions')}**")
    st.dataframe(performance_tables.versions_table(versions, names, lang), hide_index=True, width="stretch")
    numbers = [v.version for v in versions]
    version_names = {n: t("sc.version_option", version=n) for n in numbers}
    pick, button = st.columns([3, 1], vertical_alignment="bottom")
    chosen = pick.selectbox(
        t("sc.version_pick"),
        numbers[::-1],
        key=f"{keys.PICKED_VERSION}_{sid}",
        format_func=version_names.__getitem__,
    )
    _action_button(
        button,
        t("sc.open_version"),
        verb="open_version",
        sid=sid,
        section="top",
        action=lambda store: _open(store, sid, int(chosen)),
        icon=":material/history:",
        disabled=picked.deleted,
    )
    if len(numbers) < 2:
        st.caption(t("sc.one_version"))
        return
    st.markdown(f"**{t('sc.diff')}**")
    old, new = (
        column.selectbox(
            label,
            numbers,
            index=len(numbers) - back,
            key=f"{key}_{sid}",
            format_func=version_names.__getitem__,
        )
        for column, label, back, key in zip(
            st.columns(2),
            (t("sc.diff_from"), t("sc.diff_to")),
            (2, 1),  # the last two versions
            (keys.DIFF_FROM, keys.DIFF_TO),
            strict=True,
        )
    )
    diff = widgets.computed(
        lambda: s.diff(scenario_id=sid, from_version=int(old), to_version=int(new), catalog=engine.catalog())
    )
    show_diff(diff, t("sc.version_option", version=old), t("sc.version_option", version=new))


def show_diff(diff: ScenarioDiff, before: str, after: str) -> None:
    """Changed inputs and how the key results moved."""
    lang = state.lang()
    left, right = st.columns(2)
    with left:
        st.caption(t("sc.diff_inputs", count=len(diff.inputs)))
        if diff.inputs:
            st.dataframe(
                performance_tables.input_changes_table(diff, before, after, lang),
                hide_index=True,
                width="stretch",
            )
        else:
            st.caption(t("sc.diff_no_inputs"))
    with right:
        if diff.results_error:
            st.warning(
                t("sc.diff_results_error", message=escape_markdown(diff.results_error)),
                icon=":material/warning:",
            )
            return
        st.caption(t("sc.diff_results", count=len(diff.moved_results)))
        if diff.moved_results:
            moved = performance_tables.result_changes_table(diff, before, after, lang, moved_only=True)
            st.dataframe(moved, hide_index=True, width="stretch", height=38 + 35 * len(moved))
        else:
            st.caption(t("sc.diff_no_results"))


# --- two saved scenarios side by side ------------------------------------------------------------------


def compare_section(s: ScenarioStore) -> None:
    """Pick two saved scenarios: their inputs' differences, then both plans side by side."""
    st.subheader(t("sc.compare"))
    live = s.list_scenarios(state="active", limit=1000)
    if len(live) < 2:
        st.caption(t("sc.compare_need_two"))
        return
    by_id = {x.id: x for x in live}
    ids = list(by_id)

    label = {
        i: t("sc.pick_option", id=i, name=x.name, version=x.version, trash="") for i, x in by_id.items()
    }.__getitem__

    left, right = st.columns(2)
    a = left.selectbox(t("sc.compare_left"), ids, index=1, format_func=label, key=keys.COMPARE_LEFT)
    b = right.selectbox(t("sc.compare_right"), ids, index=0, format_func=label, key=keys.COMPARE_RIGHT)
    diff = widgets.computed(lambda: s.compare(left_id=int(a), right_id=int(b), catalog=engine.catalog()))
    heads = (f"#{a}", f"#{b}")
    st.caption(t("sc.diff_inputs", count=len(diff.inputs)))
    if diff.inputs:
        changed = performance_tables.input_changes_table(diff, *heads, state.lang())
        st.dataframe(changed, hide_index=True, width="stretch")
    plans = widgets.computed(lambda: _plans_of(s, (int(a), int(b))))
    names = {"left": _plot_label(by_id[int(a)]), "right": _plot_label(by_id[int(b)])}
    widgets.compare_table(
        plans, {"left": f"#{a} {by_id[int(a)].name}", "right": f"#{b} {by_id[int(b)].name}"}
    )
    widgets.chart(
        charts.compare_bars(plans, state.lang(), names, units=workshop.units()), key="scenarios_compare_bars"
    )


def _plot_label(summary: ScenarioSummary) -> str:
    """A name for a chart legend: Plotly reads a few HTML tags in text, so the name is escaped."""
    return html.escape(f"#{summary.id} {summary.name}")


def _plans_of(s: ScenarioStore, ids: Sequence[int]) -> tuple[Plan, ...]:
    scenarios = [s.load(scenario_id=i).scenario for i in ids]
    return tuple(
        performance_tables.relabeled(engine.plan_for(x), side)
        for x, side in zip(scenarios, ("left", "right"), strict=True)
    )


# --- import ------------------------------------------------------------------------------------------------


def import_section() -> None:
    """Import a scenario JSON (an export document or a bare scenario) as a new saved scenario."""
    st.subheader(t("sc.import"))
    st.caption(t("sc.import_caption"))
    uploaded = st.file_uploader(t("sc.import_label"), type=["json"], key=keys.IMPORT_FILE)
    st.button(
        t("sc.import_button"),
        key=keys.IMPORT_BUTTON,
        on_click=_import,
        disabled=uploaded is None,
        icon=":material/upload:",
    )
    show_flash("import")


def _import() -> None:
    uploaded: Any = st.session_state.get(keys.IMPORT_FILE)
    if uploaded is None:
        return
    try:
        saved = store.store().import_json(text=uploaded.getvalue(), source=uploaded.name)
    except ImportRejectedError as exc:
        _flash("import", "error", t("sc.import_rejected", message=_public(exc)))
        return
    except PlannerError as exc:
        _flash("import", "error", t("sc.action_failed", message=_public(exc)))
        return
    st.session_state[keys.PICKED] = saved.id
    _flash("import", "success", t("sc.imported", name=_quoted(saved.record.name), id=saved.id))
