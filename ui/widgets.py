"""Streamlit renderers the pages compose: headers, KPI cards, tables, charts, notes.

Each function draws one block from engine results; the arithmetic lives in :mod:`planner.report.tables`.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from planner import Plan, PlannerError
from planner.i18n import error_text
from planner.report import charts, fmt, performance_tables, tables
from planner.report.performance_tables import escape_markdown
from planner.sheets import frame_csv
from ui import engine, keys, state, store, workshop
from ui.state import t, tx

T = TypeVar("T")
PLOTLY_CONFIG = {"displaylogo": False, "modeBarButtonsToRemove": ["lasso2d", "select2d"]}


SCREEN_READER_ONLY = (
    "position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;"
    "clip:rect(0,0,0,0);white-space:nowrap;border:0"
)
"""Inline style that hides a text from sight but not from screen readers."""
SCREEN_READER_NOTE = '<p role="note" style="' + SCREEN_READER_ONLY + '">{text}</p>'
"""A paragraph only screen readers read; ``{text}`` is HTML-escaped by the caller."""


def chart(fig: go.Figure, key: str | None = None) -> None:
    """The figure, followed by its one-sentence description for screen readers (the canvas has
    no text of its own). The note is an ``st.html`` element, not Markdown with HTML allowed: that
    made every new session's browser fetch and run Streamlit's raw-HTML Markdown module (0.19 MB)
    for one hidden paragraph per chart."""
    st.plotly_chart(fig, width="stretch", config=PLOTLY_CONFIG, key=key)
    st.html(SCREEN_READER_NOTE.format(text=html.escape(charts.figure_alt_text(fig, state.lang()))))


def page_title(title_key: str, *, title: str | None = None, caption_key: str | None = None) -> None:
    """The page's frame (language, theme) and title (``title``, already escaped for Markdown, else
    the page's own), and its caption when ``caption_key`` names one: every page starts here."""
    state.ensure_frame()
    st.title(title if title else t(title_key))
    if caption_key is not None:
        st.caption(t(caption_key))


def require_plan(title_key: str, *, title: str | None = None) -> Plan:
    """Page title (``title``, already escaped for Markdown, else the page's own), scenario line
    and the current plan; stop the page if there is none."""
    page_title(title_key, title=title)
    current = engine.current()
    if current.error is not None:
        st.error(t("error.page", message=escape_markdown(tx(current.error))), icon=":material/warning:")
    plan = current.plan
    if plan is None:
        st.stop()
    if current.stale:
        st.warning(t("error.stale"))
    scenario_line(plan)
    return plan


def choice(label: str, labels: Mapping[str, str], *, key: str, help: str) -> str:
    """A horizontal radio over the keys of ``labels`` (value -> translation key of its label);
    returns the chosen value."""
    return str(
        st.radio(
            label,
            options=list(labels),
            format_func={value: t(label_key) for value, label_key in labels.items()}.__getitem__,
            horizontal=True,
            key=key,
            help=help,
        )
    )


def computed(fn: Callable[..., T], *args: Any) -> T:
    """Run a cached engine call; on an engine error show it and stop this page (not the app)."""
    try:
        return fn(*args)
    except PlannerError as exc:
        st.error(t("error.page", message=escape_markdown(tx(error_text(exc)))), icon=":material/warning:")
        st.stop()


def scenario_line(plan: Plan) -> None:
    names = tables.design_names(engine.catalog(), state.lang(), (plan,))
    st.caption(
        t(
            "scenario.line",
            gpus=fmt.number(plan.gpus),
            gpu=plan.gpu_name,
            design=names.get(plan.design_id, plan.design_name),
            nodes=fmt.number(plan.nodes),
            racks=fmt.number(plan.racks.total),
            currency=t(f"currency.{plan.cost.currency}"),
        )
    )


def url_problems() -> None:
    problems = st.session_state.get(keys.URL_PROBLEMS) or []
    if problems:
        # the parameters as typed into the URL: shown as text, never as Markdown (an image link would
        # make the reader's browser fetch it)
        st.warning(t("error.url", problems=escape_markdown("; ".join(problems))), icon=":material/link:")


def design_labels(plans: tuple[Plan, ...]) -> dict[str, str]:
    """The label of each design id of ``plans``, as the tables name the designs (catalog and
    language of this session)."""
    labels = performance_tables.design_labels(plans, engine.catalog(), state.lang())
    return dict(zip([p.design_id for p in plans], labels, strict=True))


def compare_table(plans: tuple[Plan, ...], names: dict[str, str]) -> None:
    starred_table(tables.compare_table(plans, names, state.lang(), units=workshop.units()))


def starred_table(frame: pd.DataFrame) -> None:
    """A side-by-side table with the best cell of each row (marked ★) highlighted, and its caption."""

    def highlight(cell: object) -> str:
        return "background-color: #DCF2E4; font-weight: 600" if str(cell).endswith("★") else ""

    st.table(frame.style.map(highlight))
    st.caption(t("compare.table_caption"))


def csv_download(
    where: Any, label: str, frame: pd.DataFrame, *, file_name: str, audit: str | None = None
) -> None:
    """A download button for ``frame`` as CSV: formula-safe cells (:func:`planner.sheets.frame_csv`),
    UTF-8 with a byte-order mark so Excel reads Chinese text, written when clicked; ``audit`` names
    the export in the audit log (who exported what, when)."""
    where.download_button(
        label,
        data=lambda: frame_csv(frame).encode("utf-8-sig"),
        file_name=file_name,
        mime="text/csv",
        icon=":material/download:",
        on_click="rerun" if audit is None else store.record_export,
        args=None if audit is None else (audit,),
    )


def table(frame: pd.DataFrame, *, wide: str | None = None, narrow: tuple[str, ...] = ()) -> None:
    """A static table that shows every cell in full (text wraps; nothing is cut off).

    ``wide`` names the column that gets the room (long text); ``narrow`` columns never wrap.
    """
    styler = frame.style.hide(axis="index")
    if wide is not None:
        styler = styler.set_properties(subset=[wide], **{"min-width": "24em"})
    if narrow:
        styler = styler.set_properties(subset=list(narrow), **{"white-space": "nowrap", "min-width": "5em"})
    st.table(styler)


def model_notes(notes: Iterable[str]) -> None:
    """The engine's further notes on a result, each once and in the reader's language
    (:func:`ui.state.tx`), in an expander below the result."""
    shown = sorted({escape_markdown(tx(note)) for note in notes})
    if shown:
        with st.expander(t("note.engine_notes")):
            st.markdown("\n".join(f"- {line}" for line in shown))
