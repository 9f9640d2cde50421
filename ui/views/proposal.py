"""The Proposal page's Streamlit parts: the form, the PDF preview and the downloads.

Building a PDF takes about a second with a warm browser (three the first time, when the
browser starts), so it happens when the form is submitted and is cached per distinct
(scenario, catalog, details); CSV, XLSX and JSON are cheap and always offered for the details
last submitted (or the defaults).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import time
from dataclasses import asdict, dataclass
from typing import Any

import streamlit as st

from planner import PlannerError, Scenario
from planner.access import AccessDeniedError, Permission
from planner.compare import DEFAULT_DESIGNS
from planner.errors import field_bounds
from planner.i18n import LANGUAGE_NAMES, tr
from planner.report import proposal, tables
from planner.report.export.browser import RenderError
from planner.report.export.preview import page_count, page_images
from planner.report.export.pricing import EDITIONS, Pricing
from planner.report.performance_tables import escape_markdown
from ui import auth, engine, keys, progress, state, store, workshop
from ui.inputs import LANGS, range_text
from ui.state import t

FORM = "proposal_form"
OPTIONS = keys.PROPOSAL_OPTIONS
"""dict: the details last submitted (JSON-ready, without the logo)."""
LOGO = "proposal_logo"
"""bytes | None: the logo last submitted."""
BUILT = "proposal_built"
"""BuiltPdf: the PDF last built."""
PENDING = "proposal_pending"
"""bool: the form was submitted and the PDF is to be built on this run."""
PREVIEW_PAGES = 3


@dataclass(frozen=True)
class BuiltPdf:
    key: str
    """What it was built from (scenario, catalog override, details, logo)."""
    pdf: bytes
    pages: int
    seconds: float
    preview: tuple[bytes, ...]
    file_name: str


def _defaults() -> dict[str, Any]:
    return {
        "lang": state.lang(),
        # a link may ask for an edition (?edition=internal); the build checks the role (auth.proposal_terms)
        "edition": state.url_edition() if state.url_edition() in EDITIONS else "customer",
        "customer": "",
        "project": "",
        "author": "",
        "version": "1.0",
        "date": dt.date.today().isoformat(),
        "notes": "",
        "pricing": {"margin": 0.15, "discount": 0.0},
        "design_ids": [d for d in DEFAULT_DESIGNS if d in engine.design_ids()],
        "proposed": None,
        "compare_designs": True,
    }


def _submitted() -> dict[str, Any]:
    saved: dict[str, Any] = st.session_state.get(OPTIONS) or _defaults()
    return saved


def _field(name: str) -> str:
    """Session key of a form widget."""
    return f"proposal_w_{name}"


def _on_submit() -> None:
    """Form callback: keep the details and ask for a build.

    A callback (not ``if submitted:``) because it runs before the script, so a rerun of the
    script (the frame's first-run rerun, see :func:`ui.state.ensure_frame`) cannot drop the click.
    """
    ss = st.session_state
    day = _day(ss[_field("date")], _submitted()["date"])
    ss[OPTIONS] = {
        "lang": ss[_field("lang")],
        "edition": ss[_field("edition")],
        "customer": ss[_field("customer")],
        "project": ss[_field("project")],
        "author": ss[_field("author")],
        "version": ss[_field("version")],
        "date": day.isoformat(),
        "notes": ss[_field("notes")],
        # absent for a role without internal costs (no field is drawn): auth.proposal_terms
        # sets its terms to zero anyway
        "pricing": {term: ss.get(_field(term), 0.0) for term in ("margin", "discount")},
        "design_ids": list(ss[_field("designs")]) or list(DEFAULT_DESIGNS),
        "proposed": ss[_field("proposed")],
        "compare_designs": ss[_field("compare_designs")],
    }
    logo = ss.get(_field("logo"))
    ss[LOGO] = logo.getvalue() if logo is not None else None
    ss[PENDING] = True


DATE_ERROR = "proposal_date_error"


def _day(typed: object, kept: str) -> dt.date:
    """The typed date (``YYYY-MM-DD``); a date that does not parse keeps the last one and is
    named under the form."""
    try:
        day = dt.date.fromisoformat(str(typed).strip())
    except ValueError:
        st.session_state[DATE_ERROR] = str(typed)
        return dt.date.fromisoformat(kept)
    st.session_state[DATE_ERROR] = None
    return day


def _term_input(column: Any, name: str, label: str, help_text: str, pricing: dict[str, Any]) -> None:
    """A commercial term of :class:`Pricing` (margin, discount) in the range the model accepts;
    only who may see internal cost sees or sets it (auth.proposal_terms): for anyone else no field
    is drawn at all, since a margin shown beside selling prices gives the cost away."""
    if not auth.can(Permission.INTERNAL_COST):
        return
    lo, hi = field_bounds(Pricing.model_fields[name])
    column.number_input(
        t("input.ranged", label=label, range=range_text(lo, hi)),
        min_value=lo,
        max_value=hi,
        step=0.01,
        value=float(pricing[name]),
        help=help_text,
        key=_field(name),
    )


def form() -> None:
    """The details; submitting stores them and builds the PDF."""
    values = _submitted()
    # format functions run outside the script too (AppTest): they close over plain values
    lang_ui = state.lang()
    names = tables.design_names(engine.catalog(), lang_ui)
    own = state.value("design")
    scenario_design = t("export.form.scenario_design", design=names.get(own, own))
    designs = list(engine.design_ids())
    with st.form(FORM):
        st.subheader(t("export.form.title"))
        left, mid, right = st.columns(3)
        for column, name in ((left, "customer"), (mid, "project"), (right, "author")):
            column.text_input(t(f"export.form.{name}"), value=values[name], max_chars=200, key=_field(name))
        left, mid, right = st.columns(3)
        left.text_input(
            t("export.form.version"), value=values["version"], max_chars=40, key=_field("version")
        )
        # a text field, not st.date_input: Streamlit fixes that widget's locale to en-US, so its
        # screen-reader description and calendar speak English whatever the page's language
        mid.text_input(t("export.form.date"), value=values["date"], max_chars=10, key=_field("date"))
        right.file_uploader(t("export.form.logo"), type=["png", "jpg", "jpeg"], key=_field("logo"))
        st.text_area(
            t("export.form.notes"), value=values["notes"], max_chars=4000, height=90, key=_field("notes")
        )
        left, mid, right, last = st.columns(4)
        left.selectbox(
            t("export.form.lang"),
            LANGS,
            index=LANGS.index(values["lang"]),
            format_func=LANGUAGE_NAMES.__getitem__,
            key=_field("lang"),
        )
        mid.selectbox(
            t("export.form.edition"),
            EDITIONS,
            index=EDITIONS.index(values["edition"]),
            format_func=lambda e: tr(f"export.edition.{e}", lang_ui),
            help=t("help.export.edition"),
            key=_field("edition"),
        )
        _term_input(right, "margin", t("export.form.margin"), t("help.export.margin"), values["pricing"])
        _term_input(last, "discount", t("export.form.discount"), t("help.export.discount"), values["pricing"])
        left, right = st.columns([2, 1])
        left.multiselect(
            t("export.form.designs"),
            designs,
            default=[d for d in values["design_ids"] if d in designs],
            format_func=lambda d: names.get(d, d),
            key=_field("designs"),
        )
        proposed_options: list[str | None] = [None, *designs]
        right.selectbox(
            t("export.form.proposed"),
            proposed_options,
            index=proposed_options.index(values["proposed"]) if values["proposed"] in proposed_options else 0,
            format_func=lambda d: scenario_design if d is None else names.get(d, d),
            key=_field("proposed"),
        )
        st.checkbox(
            t("export.form.compare_designs"),
            value=bool(values.get("compare_designs", True)),
            help=t("help.export.compare_designs"),
            key=_field("compare_designs"),
        )
        st.form_submit_button(
            t("export.form.build"), type="primary", icon=":material/picture_as_pdf:", on_click=_on_submit
        )
    typed = st.session_state.get(DATE_ERROR)
    if typed:
        st.error(t("export.form.date_invalid", value=escape_markdown(str(typed))), icon=":material/warning:")


def _scenario() -> Scenario:
    current = engine.current()
    if current.scenario is None:
        st.stop()
    return current.scenario


def _key(scenario: Scenario) -> str:
    logo = st.session_state.get(LOGO)
    parts = [
        scenario.model_dump_json(),
        state.catalog_override(),
        json.dumps(_submitted(), sort_keys=True),
        json.dumps(asdict(workshop.units()), sort_keys=True),
        hashlib.sha256(logo).hexdigest() if logo else "",
    ]
    return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()


def _proposal(scenario: Scenario) -> proposal.Proposal:
    # the PDF writes its figures in the display units the reader chose in the sidebar
    units = asdict(workshop.units())
    try:
        data = auth.proposal_terms({**_submitted(), "logo": st.session_state.get(LOGO), "units": units})
    except AccessDeniedError:
        store.record_refusal(f"proposal edition {_submitted().get('edition')}")  # the audit log
        raise
    options = proposal.options_from_data(data)
    return proposal.build_proposal(scenario=scenario, catalog=engine.catalog(), options=options)


@st.cache_data(show_spinner=False, max_entries=8)
def _preview(pdf: bytes) -> tuple[int, tuple[bytes, ...]]:
    return page_count(pdf), tuple(page_images(pdf, first=1, last=PREVIEW_PAGES, dpi=55))


def _build(*, scenario: Scenario) -> bool:
    """Build the PDF of the details submitted (unless built already); ``False`` when the engine
    refused them (the error is shown)."""
    key = _key(scenario)
    built: BuiltPdf | None = st.session_state.get(BUILT)
    if built is not None and built.key == key:
        return True
    started = time.perf_counter()
    try:
        p = _proposal(scenario)
        pdf = progress.run(
            name="proposal",
            label=t("export.building"),
            compute=lambda steps: proposal.render_pdf(p, steps=steps),
        )
    except PlannerError as exc:
        st.error(t("export.error", message=escape_markdown(str(exc))), icon=":material/warning:")
        return False
    if pdf is None:  # cancelled: the line is shown, the PDF built before (if any) is kept
        return False
    seconds = time.perf_counter() - started
    try:
        pages, images = _preview(pdf)
    except RenderError:
        pages, images = 0, ()
    st.session_state[BUILT] = BuiltPdf(
        key=key, pdf=pdf, pages=pages, seconds=seconds, preview=images, file_name=proposal.file_name(p, "pdf")
    )
    return True


def preview_and_downloads() -> None:
    """The preview of the PDF last built and the four downloads."""
    scenario = _scenario()
    built: BuiltPdf | None = st.session_state.get(BUILT)
    try:
        p = _proposal(scenario)
    except PlannerError as exc:
        st.error(t("export.error", message=escape_markdown(str(exc))), icon=":material/warning:")
        return
    if p.recommended_id != p.proposed_id:
        st.info(
            t("export.form.recommended", design=p.names[p.recommended_id], proposed=p.names[p.proposed_id]),
            icon=":material/recommend:",
        )
    st.subheader(t("export.downloads"))
    columns = st.columns(4)
    pending = bool(st.session_state.get(PENDING))
    fresh = built is not None and built.key == _key(scenario) and not pending
    if built is not None or pending:
        # only the PDF of the details shown is offered: while a new one is built, or when the
        # details changed since, the button is off (a customer edition was downloaded as the
        # internal one while the internal edition was being built)
        columns[0].download_button(
            t("export.download.pdf"),
            data=built.pdf if fresh and built is not None else b"",
            file_name=built.file_name if built is not None else "proposal.pdf",
            mime="application/pdf",
            icon=":material/picture_as_pdf:",
            type="primary",
            disabled=not fresh,
            on_click=store.record_export,  # the audit log: who exported what, when
            args=(f"proposal PDF ({p.options.edition} edition) {built.file_name if built else ''}",),
        )
    files = (
        ("csv", t("export.download.csv"), "text/csv"),
        (
            "xlsx",
            t("export.download.xlsx"),
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        ),
        ("json", t("export.download.json"), "application/json"),
    )
    for column, (kind, label, mime) in zip(columns[1:], files, strict=True):
        column.download_button(
            label,
            data=proposal.WRITERS[kind](p),
            file_name=proposal.file_name(p, kind),  # type: ignore[arg-type]
            mime=mime,
            icon=":material/download:",
            on_click=store.record_export,
            args=(f"proposal {kind} ({p.options.edition} edition)",),
        )
    st.caption(t("export.files_caption"))
    if st.session_state.get(PENDING, False):  # cleared once built, refused or cancelled (ui/progress.py)
        done = _build(scenario=scenario)
        st.session_state.pop(PENDING, None)
        if done:  # the old PDF's button is off
            st.rerun()  # draw the new PDF's button and preview
    if built is None:
        st.info(t("export.pdf_pending"))
        return
    if built.key != _key(scenario):
        st.warning(t("export.stale"))
    st.subheader(t("export.preview"))
    if not built.preview:
        st.caption(t("export.preview_missing"))
        return
    st.caption(t("export.preview_caption", pages=built.pages, seconds=f"{built.seconds:.1f}"))
    for column, image in zip(st.columns(len(built.preview)), built.preview, strict=True):
        column.image(image, width="stretch")
