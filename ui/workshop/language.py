"""The page's language beyond its texts: ``<html lang>`` (screen readers, hyphenation) and the
file uploader's own English words, drawn over in the reader's language."""

from __future__ import annotations

import streamlit as st

from planner.i18n import tr
from ui import keys, state
from ui.workshop import preload

UPLOADER_CSS = """
[data-testid="stFileUploaderDropzone"] button [data-testid="stMarkdownContainer"],
[data-testid="stFileUploaderDropzoneInstructions"] span { display: none !important; }
[data-testid="stFileUploaderDropzone"] button [data-testid="stIconMaterial"]::after {
  content: "{button}"; font-family: inherit; font-size: 0.875rem; margin-left: 0.4rem; }
[data-testid="stFileUploaderDropzone"] button [data-testid="stIconMaterial"] { display: inline-flex; width: auto; }
[data-testid="stFileUploaderDropzoneInstructions"] > div::after { content: "{limit}"; font-size: 0.875rem; }
"""
"""The file uploader in a language Streamlit does not speak: its own button text ("Upload") and
size limit ("2MB per file • YAML") are English with no parameter to change them, so they are
hidden and the reader's text is drawn in their place (``{button}``, ``{limit}``; CSS content is
not in the document's text, so the page's own text carries no English either)."""


def uploader_css(lang: str) -> str:
    """:data:`UPLOADER_CSS` in ``lang``; nothing in English (Streamlit's own texts are English)."""
    if lang == "en":
        return ""
    limit = tr("upload.limit", lang, size=st.get_option("server.maxUploadSize"))
    return UPLOADER_CSS.replace("{button}", tr("upload.button", lang)).replace("{limit}", limit)


HTML_LANG = {"en": "en", "zh": "zh-CN"}


def page_language() -> None:
    """Set ``<html lang>`` to the reader's language (Streamlit's page says ``en`` whatever the
    content); a one-line script, since the document element is outside any element's reach.
    On a session's first run the same script starts loading the chart module
    (:func:`ui.workshop.preload.preload_charts`)."""
    code = HTML_LANG[state.lang()]
    st.session_state[keys.HTML_LANG] = code
    st.html(
        f'<script>document.documentElement.lang = "{code}";{preload.preload_charts()}</script>',
        unsafe_allow_javascript=True,
    )
