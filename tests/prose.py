"""The one detector of English prose in Chinese output, shared by the PDF and the i18n tests.

A Chinese document keeps names, ids and units as they are (``InfiniBand``, ``QM9700``, ``kW``);
what it must not hold is an English phrase: two or more English words in a row that are not an
allowed name or unit. Bibliographic references are not the document's prose: the HTML marks them
with :data:`EXEMPT_ATTRIBUTE` and :func:`hide_exempt` hides exactly those elements before the
text is read.
"""

from __future__ import annotations

import re
import unicodedata

ALLOWED_WORDS = frozenset(
    # tiers, collectives and fabric terms a Chinese data-centre document keeps in English
    {"Leaf", "Spine", "Core", "all-reduce", "all-to-all", "All-reduce", "All-to-all", "scale-up"}
    | {"scale-out", "rail", "rails"}
    # vendors and product names
    | {"Biren", "Hearten", "Huawei", "Ascend", "Instinct", "Quantum", "Spectrum", "Broadcom", "Tomahawk"}
    | {"Thor", "Ultra", "Pensando", "Pollara"}
    # firms named in cited sources (a citation keeps its names as published)
    | {"Raymond", "James"}
    # units
    | {"ns", "us", "ms", "mm", "min", "kWh", "kW", "Gb", "GB", "Gbps", "TB"}
)
"""Words of the allowed names and units that look like English words (lowercase or Capitalized).

Acronyms, part numbers and mixed-case names (GPU, NPO, USD, CAPEX, InfiniBand, RoCE, QM9700,
ConnectX-7, BR100) never count as prose, so they need no entry here."""
_PROSE_WORD = re.compile(r"^[A-Z]?[a-z]+(?:-[a-z]+)*$")
_EDGE = "()[]{},.;:!?\"'“”‘’·•…*/"
_CITED_TITLE = re.compile(r"《[^》]*》")

EXEMPT_ATTRIBUTE = 'data-lang-exempt="citation"'
"""What :class:`planner.report.export.html.Cell` writes on a citation (a source's title)."""
HIDE_EXEMPT_CSS = "<style>[data-lang-exempt] { visibility: hidden; }</style>"
"""Hidden, not removed: every other line of the document keeps its place and wrapping, and the
printed PDF then holds no text of those elements (Chromium writes no glyphs it does not paint)."""


def english_runs(text: str) -> list[str]:
    """Runs of two or more consecutive English prose words that are not allowed names or units.

    A word is a lowercase or Capitalized letters-only token (``fiber``, ``Server``,
    ``rail-optimized``); a run breaks at anything else: a CJK character, a number, an acronym, a
    line end, or a gap of two spaces (a table column boundary in ``pdftotext -layout``).

    >>> english_runs("建议采用 InfiniBand NDR 轨道优化胖树，Leaf switch NVIDIA QM9700")
    []
    >>> english_runs("服务器 Server without GPUs and fabric NICs  trunk  10 m")
    ['Server without', 'and fabric']

    A title between Chinese title marks (《Data Center Best Practices》) is a cited document, not
    prose, and is skipped:

    >>> english_runs("见 NVIDIA《Data Center Best Practices with DGX B200》资料")
    []
    """
    runs: list[str] = []
    for line in _CITED_TITLE.sub(" ", unicodedata.normalize("NFKC", text)).splitlines():
        for cell in re.split(r"\s{2,}", line):
            run: list[str] = []
            for token in [*cell.split(" "), ""]:
                word = token.strip(_EDGE)
                if word and _PROSE_WORD.match(word) and len(word) > 1 and word not in ALLOWED_WORDS:
                    run.append(word)
                    continue
                if len(run) >= 2:
                    runs.append(" ".join(run))
                run = []
    return runs


def hide_exempt(html: str) -> str:
    """``html`` with the elements marked :data:`EXEMPT_ATTRIBUTE` hidden (see :data:`HIDE_EXEMPT_CSS`).

    >>> hide_exempt("<html><head></head><body></body></html>").count("visibility: hidden")
    1
    """
    head, found, rest = html.partition("</head>")
    assert found, "no </head> in the document"
    return head + HIDE_EXEMPT_CSS + found + rest
