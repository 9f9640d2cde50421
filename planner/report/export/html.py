"""Print-ready HTML documents: cover, sections, tables, figures, and the page footer.

Every piece of text passed in is escaped here (:func:`planner.report.export.safety.escape_html`), so
markup typed by a user (``<b>``, ``<script>``, ``&``) shows as the characters typed. Only
this module writes tags. :class:`planner.report.export.browser.Browser` prints the result to PDF.

The layout is for A4 portrait: each section starts on a new page, table header rows repeat on
every page a table spans, rows and figures are never cut across pages, a heading stays with what
follows it, short tables and figures move whole to the next page with their captions, and numbers
are right-aligned in tabular figures. The cover title breaks only between words (CSS ``hyphens:
manual``; ``word-break: keep-all`` keeps a Chinese word whole) and is set small enough for its
longest word to fit (:func:`cover_title_pt`); only an id too long for a line may break anywhere.
"""

from __future__ import annotations

import base64
import io
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from planner.errors import InputError
from planner.report.export.safety import escape_html as esc

FONT_STACK = '"Noto Sans CJK SC", "Noto Sans CJK JP", "Noto Sans CJK KR", "DejaVu Sans", sans-serif'
"""CJK first (its Latin is a clean sans); Arabic, Hebrew and others fall back per character."""
BRAND = "#1F3A68"
ACCENT = "#2F5FD0"
MAX_LOGO_BYTES = 2_000_000
MAX_LOGO_PIXELS = 40_000_000

Align = Literal["left", "right", "center"]


@dataclass(frozen=True)
class Strong:
    """Text shown in bold inside a paragraph."""

    text: str


Inline = str | Strong


def _inline(parts: Inline | Sequence[Inline]) -> str:
    items: Sequence[Inline] = [parts] if isinstance(parts, str | Strong) else parts
    out = []
    for part in items:
        if isinstance(part, Strong):
            out.append(f"<strong>{esc(part.text)}</strong>")
        else:
            out.append(esc(part).replace("\n", "<br>"))
    return "".join(out)


@dataclass(frozen=True)
class Cell:
    """A table cell with its own alignment or emphasis."""

    text: str
    strong: bool = False
    highlight: bool = False
    align: Align | None = None
    citation: bool = False
    """A bibliographic reference (the title of a published document): kept in the language it was
    published in, set smaller, and marked ``data-lang-exempt="citation"`` so a check for prose in
    the wrong language can tell it from the document's own text."""


@dataclass(frozen=True)
class Row:
    cells: tuple[str | Cell, ...]
    kind: Literal["body", "group", "subtotal", "total"] = "body"


@dataclass(frozen=True)
class Table:
    """Headers, rows and which columns hold numbers (right-aligned)."""

    headers: tuple[str, ...]
    rows: tuple[Row, ...]
    numeric: frozenset[int] = frozenset()
    widths: tuple[float, ...] = ()
    """Column widths [% of the table]; empty = automatic."""
    compact: bool = False
    caption: str = ""

    @staticmethod
    def of(
        headers: Sequence[str],
        rows: Iterable[Sequence[str | Cell]],
        *,
        numeric: Iterable[int] = (),
        widths: Sequence[float] = (),
        compact: bool = False,
        caption: str = "",
    ) -> Table:
        return Table(
            headers=tuple(headers),
            rows=tuple(Row(tuple(r)) for r in rows),
            numeric=frozenset(numeric),
            widths=tuple(widths),
            compact=compact,
            caption=caption,
        )


def image_data_uri(data: bytes, mime: str) -> str:
    """An image as a ``data:`` URI for an ``<img>`` of the proposal.

    Parameters
    ----------
    data : bytes
        The image file.
    mime : str
        Its MIME type (``image/png``, ``image/svg+xml``, ...).

    Returns
    -------
    str
        ``data:<mime>;base64,...``.
    """
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


def logo_data_uri(data: bytes) -> str:
    """A PNG or JPEG logo as a data URI; :class:`InputError` for anything else.

    Parameters
    ----------
    data : bytes
        The uploaded file, at most ``MAX_LOGO_BYTES`` [bytes].

    Returns
    -------
    str
        ``data:image/png;base64,...`` or the JPEG equivalent.
    """
    from PIL import Image, UnidentifiedImageError

    if len(data) > MAX_LOGO_BYTES:
        raise InputError(
            f"logo: larger than {MAX_LOGO_BYTES:,} bytes ({len(data):,}); use a smaller PNG or JPEG"
        )
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        mime, kind = "image/png", "PNG"
    elif data.startswith(b"\xff\xd8\xff"):
        mime, kind = "image/jpeg", "JPEG"
    else:
        raise InputError("logo: not a PNG or JPEG image")
    try:
        with Image.open(io.BytesIO(data)) as image:
            if image.format != kind:
                raise InputError(f"logo: the file says {kind} but holds {image.format}")
            width, height = image.size
            if width * height > MAX_LOGO_PIXELS:
                raise InputError(f"logo: {width} x {height} pixels is too large (at most 40 megapixels)")
            image.verify()
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        raise InputError(f"logo: the {kind} image is damaged ({exc})") from None
    return image_data_uri(data, mime)


KEEP_ROWS = 16
"""A table of at most this many rows moves whole to the next page rather than split (about a
third of a page); a longer one splits between rows and repeats its header row."""
TALL_ROW_CHARS = 600
"""A row with a cell longer than this [characters] may split across pages: in the narrowest
column (about 30 characters a line) it is a third of a page or more, and kept whole it would leave
the page before it mostly empty (a long catalog source in the assumptions appendix)."""
COVER_TITLE_WIDTH_MM = 156.0
"""Width of the cover title [mm]: A4 (210) less the page margins (2 x 15) and the band's padding (2 x 12)."""
COVER_TITLE_PT = (16.0, 26.0)
"""Smallest and largest cover title size [pt]."""
LONG_ID_CHARS = 40
"""A word of more characters than this is an id (a part number, a file-like name): the only text
allowed to break inside a word on the cover."""
PT_PER_MM = 72 / 25.4
_BREAK = re.compile(r"(?<=-)|\s+")


def _em_width(word: str) -> float:
    """Width of ``word`` [em] in the bold cover face: a wide (CJK) character is 1 em; a Latin
    character about 0.62 em (Noto Sans Bold averages 0.58 em for mixed case; the margin covers
    capitals and digits)."""
    return sum(1.0 if unicodedata.east_asian_width(ch) in "WF" else 0.62 for ch in word)


def cover_title_pt(title: str) -> float:
    """Cover title size [pt]: the largest (at most 26 pt, at least 16 pt) at which the title's
    longest unbreakable run fits the title width.

    With ``word-break: keep-all`` a line breaks only at spaces and after hyphens, so a run is the
    text between those; size = width / (run width in em), e.g. a 20-character Chinese run needs
    156 mm / 20 em = 7.8 mm = 22.1 pt.

    Parameters
    ----------
    title : str
        The cover title.

    Returns
    -------
    float
        Font size [pt], one decimal.

    >>> cover_title_pt("GPU cluster network proposal"), cover_title_pt("一二三四五六七八九十一二三四五六七八九十")
    (26.0, 22.1)
    """
    runs = [r for r in _BREAK.split(title) if r]
    widest = max((_em_width(r) for r in runs if len(r) <= LONG_ID_CHARS), default=0.0)
    low, high = COVER_TITLE_PT
    if widest == 0.0:
        return high
    return round(max(low, min(high, COVER_TITLE_WIDTH_MM * PT_PER_MM / widest)), 1)


def _title_html(title: str) -> str:
    """The escaped title; words longer than :data:`LONG_ID_CHARS` (ids) may break anywhere."""
    return " ".join(
        f'<span class="longid">{esc(word)}</span>' if len(word) > LONG_ID_CHARS else esc(word)
        for word in title.split(" ")
    )


@dataclass(frozen=True)
class ContentsEntry:
    """One line of the contents: a section title, its anchor and its first page (``None``:
    the page is not known, the line has no number)."""

    title: str
    anchor: str
    page: int | None = None


def _contents_html(title: str, entries: Sequence[ContentsEntry]) -> str:
    if not entries:
        return ""
    items = "".join(
        f'<li><a href="#{esc(e.anchor)}">{esc(e.title)}</a>'
        + (f'<span class="leader"></span><span class="page">{e.page}</span>' if e.page is not None else "")
        + "</li>"
        for e in entries
    )
    return f'<nav class="contents"><h3>{esc(title)}</h3><ol>{items}</ol></nav>'


CSS = f"""
* {{ box-sizing: border-box; }}
html {{ -webkit-print-color-adjust: exact; print-color-adjust: exact; }}
body {{ margin: 0; font-family: {FONT_STACK}; font-size: 9.5pt; line-height: 1.5; color: #1F2933; }}
.cover {{ min-height: 258mm; display: flex; flex-direction: column; }}
.cover .band {{ background: {BRAND}; color: #fff; padding: 12mm 12mm 10mm 12mm; margin-top: 12mm; }}
.cover .brandline {{ display: flex; justify-content: space-between; align-items: flex-start; }}
.cover .logo {{ max-height: 22mm; max-width: 60mm; object-fit: contain; }}
.cover .kicker {{ font-size: 10pt; letter-spacing: 0.08em; text-transform: uppercase; opacity: 0.85; }}
.cover h1 {{ font-size: 26pt; line-height: 1.25; margin: 6mm 0 3mm 0; font-weight: 700;
  hyphens: manual; word-break: keep-all; overflow-wrap: normal; line-break: strict; }}
.cover h1 .longid {{ overflow-wrap: anywhere; word-break: normal; }}
.cover .contents {{ margin: 7mm 12mm 0 12mm; font-size: 10pt; }}
.cover .contents h3 {{ margin: 0 0 2mm 0; font-size: 10.5pt; color: #52606D; font-weight: 600; }}
.cover .contents ol {{ list-style: none; margin: 0; padding: 0; }}
.cover .contents li {{ display: flex; align-items: baseline; padding: 0.4mm 0; }}
.cover .contents a {{ color: #1F2933; text-decoration: none; }}
.cover .contents .leader {{ flex: 1; border-bottom: 0.3mm dotted #9AA5B1; margin: 0 2mm; }}
.cover .contents .page {{ min-width: 7mm; text-align: right; font-variant-numeric: tabular-nums; }}
.cover .subtitle {{ font-size: 13pt; opacity: 0.95; }}
.cover .meta {{ margin: 9mm 12mm 0 12mm; border-collapse: collapse; width: calc(100% - 24mm); font-size: 10.5pt; }}
.cover .meta th {{ text-align: left; color: #52606D; font-weight: 400; width: 32%; padding: 1.6mm 0;
  border-bottom: 0.3mm solid #E4E7EB; vertical-align: top; }}
.cover .meta td {{ padding: 1.6mm 0; border-bottom: 0.3mm solid #E4E7EB; font-weight: 600; }}
.cover .notes {{ margin: 8mm 12mm 0 12mm; padding: 4mm 5mm; background: #F5F7FA; border-left: 1mm solid {ACCENT};
  font-size: 9.5pt; white-space: normal; }}
.cover .notes h3 {{ margin: 0 0 1.5mm 0; font-size: 9.5pt; color: #52606D; }}
.cover .edition {{ margin: auto 12mm 0 12mm; padding-bottom: 1mm; font-size: 9pt; color: #52606D; border-top: 0.3mm solid #CBD2D9; padding-top: 3mm; }}
.cover .edition strong {{ color: {BRAND}; }}
.badge {{ display: inline-block; padding: 0.6mm 2.5mm; border-radius: 1mm; font-size: 8.5pt; font-weight: 700;
  background: #FDECEA; color: #B42318; border: 0.3mm solid #F3B5AE; }}
section {{ break-before: page; }}
h2.section {{ font-size: 17pt; color: {BRAND}; margin: 0 0 4mm 0; padding-bottom: 2mm; border-bottom: 0.6mm solid {ACCENT};
  break-after: avoid; }}
h3 {{ font-size: 11.5pt; color: {BRAND}; margin: 6mm 0 2mm 0; break-after: avoid; }}
p {{ margin: 0 0 2.5mm 0; }}
p.lead {{ font-size: 10.5pt; }}
p.note {{ font-size: 8.5pt; color: #52606D; }}
.callout {{ padding: 3mm 4mm; background: #EEF3FC; border-left: 1mm solid {ACCENT}; margin: 0 0 4mm 0; break-inside: avoid; }}
.callout.warning {{ background: #FFF6E5; border-left-color: #E3821B; }}
table.data {{ width: 100%; border-collapse: collapse; margin: 0 0 4mm 0; font-size: 8.6pt; font-variant-numeric: tabular-nums; }}
table.data.compact {{ font-size: 7.8pt; }}
table.data caption {{ caption-side: bottom; text-align: left; font-size: 8pt; color: #52606D; padding-top: 1.5mm; }}
table.data thead {{ display: table-header-group; }}
table.data th {{ background: {BRAND}; color: #fff; font-weight: 600; text-align: left; padding: 1.6mm 2mm;
  vertical-align: bottom; }}
table.data td {{ padding: 1.3mm 2mm; border-bottom: 0.25mm solid #E4E7EB; vertical-align: top;
  overflow-wrap: break-word; }}
table.data.fixed {{ table-layout: fixed; }}
table.data tr {{ break-inside: avoid; }}
table.data tr.tall {{ break-inside: auto; }}
table.data.keep {{ break-inside: avoid; }}
table.data tbody tr:nth-child(even) td {{ background: #F8FAFC; }}
table.data .num {{ text-align: right; }}
table.data td.num {{ white-space: nowrap; }}
table.data tr.total, table.data tr.subtotal {{ break-before: avoid; }}
table.data .center {{ text-align: center; }}
table.data tr.group td {{ background: #E8EEF9 !important; color: {BRAND}; font-weight: 700; }}
table.data tr.subtotal td {{ font-weight: 600; border-bottom: 0.35mm solid #9AA5B1; }}
table.data tr.total td {{ font-weight: 700; background: #E8EEF9 !important; border-top: 0.5mm solid {BRAND}; }}
table.data td.citation {{ font-size: 7pt; color: #52606D; }}
table.data td.highlight {{ background: #DCF2E4 !important; font-weight: 600; }}
.kpis {{ display: grid; grid-template-columns: repeat(3, 1fr); gap: 2.5mm; margin: 0 0 4mm 0; }}
.kpi {{ border: 0.3mm solid #CBD2D9; border-radius: 1.2mm; padding: 2.2mm 3mm; break-inside: avoid; }}
.kpi .label {{ font-size: 8pt; color: #52606D; }}
.kpi .value {{ font-size: 12.5pt; font-weight: 700; color: {BRAND}; white-space: nowrap; }}
figure {{ margin: 0 0 4mm 0; break-inside: avoid; text-align: center; }}
figure img {{ max-width: 100%; }}
figure figcaption {{ font-size: 8pt; color: #52606D; text-align: left; }}
.two {{ display: grid; grid-template-columns: 1fr 1fr; gap: 4mm; }}
.user {{ unicode-bidi: plaintext; }}
"""


@dataclass
class HtmlDocument:
    """An HTML document built block by block; :meth:`render` returns the whole page."""

    lang: str
    title: str
    blocks: list[str] = field(default_factory=list)
    alt_texts: Mapping[str, str] = field(default_factory=dict)
    """Image URI -> its ``alt`` text (one sentence for a screen reader)."""
    _open_section: bool = False

    def cover(
        self,
        *,
        kicker: str,
        title: str,
        subtitle: str,
        meta: Sequence[tuple[str, str]],
        edition_label: str,
        edition_note: str,
        confidential: str = "",
        logo_uri: str | None = None,
        notes_title: str = "",
        notes: str = "",
        contents_title: str = "",
        contents: Sequence[ContentsEntry] = (),
    ) -> None:
        """The first page: brand band with title, the proposal's facts, the contents, notes and
        edition."""
        logo = f'<img class="logo" src="{logo_uri}" alt="">' if logo_uri else ""
        rows = "".join(f'<tr><th>{esc(k)}</th><td class="user">{esc(v)}</td></tr>' for k, v in meta if v)
        notes_block = (
            f'<div class="notes"><h3>{esc(notes_title)}</h3><div class="user">{_inline(notes)}</div></div>'
            if notes.strip()
            else ""
        )
        badge = f' <span class="badge">{esc(confidential)}</span>' if confidential else ""
        self.blocks.append(
            '<div class="cover">'
            f'<div class="band"><div class="brandline"><div class="kicker">{esc(kicker)}</div>{logo}</div>'
            f'<h1 class="user" style="font-size:{cover_title_pt(title):g}pt">{_title_html(title)}</h1>'
            f'<div class="subtitle user">{esc(subtitle)}</div></div>'
            f'<table class="meta">{rows}</table>{_contents_html(contents_title, contents)}{notes_block}'
            f'<div class="edition"><strong>{esc(edition_label)}</strong>{badge}<br>{esc(edition_note)}</div>'
            "</div>"
        )

    def section(self, title: str, anchor: str) -> None:
        """Start a section on a new page with a numbered-free title."""
        self._close_section()
        self.blocks.append(f'<section id="{esc(anchor)}"><h2 class="section">{esc(title)}</h2>')
        self._open_section = True

    def _close_section(self) -> None:
        if self._open_section:
            self.blocks.append("</section>")
            self._open_section = False

    def heading(self, text: str, *, anchor: str = "") -> None:
        """A sub-heading; ``anchor`` gives it an id that links and later sections can point to."""
        ident = f' id="{esc(anchor)}"' if anchor else ""
        self.blocks.append(f"<h3{ident}>{esc(text)}</h3>")

    def paragraph(self, parts: Inline | Sequence[Inline], *, style: Literal["", "lead", "note"] = "") -> None:
        css = f' class="{style}"' if style else ""
        self.blocks.append(f"<p{css}>{_inline(parts)}</p>")

    def callout(self, parts: Inline | Sequence[Inline], *, warning: bool = False) -> None:
        css = "callout warning" if warning else "callout"
        self.blocks.append(f'<div class="{css}">{_inline(parts)}</div>')

    def kpis(self, items: Sequence[tuple[str, str]]) -> None:
        cards = "".join(
            f'<div class="kpi"><div class="label">{esc(k)}</div><div class="value">{esc(v)}</div></div>'
            for k, v in items
        )
        self.blocks.append(f'<div class="kpis">{cards}</div>')

    def table(self, table: Table) -> None:
        css = "data compact" if table.compact else "data"
        if table.widths:
            css += " fixed"
        if len(table.rows) <= KEEP_ROWS:
            css += " keep"
        cols = ""
        if table.widths:
            cols = "<colgroup>" + "".join(f'<col style="width:{w:g}%">' for w in table.widths) + "</colgroup>"
        head = "".join(
            f'<th class="num">{esc(h)}</th>' if i in table.numeric else f"<th>{esc(h)}</th>"
            for i, h in enumerate(table.headers)
        )
        body = []
        width = len(table.headers)
        for row in table.rows:
            if row.kind == "group":
                first = row.cells[0]
                text = first.text if isinstance(first, Cell) else first
                body.append(f'<tr class="group"><td colspan="{width}">{esc(text)}</td></tr>')
                continue
            cells = []
            for i, cell in enumerate(row.cells):
                item = cell if isinstance(cell, Cell) else Cell(cell)
                classes = []
                align = item.align or ("right" if i in table.numeric else None)
                if align == "right":
                    classes.append("num")
                elif align == "center":
                    classes.append("center")
                if item.highlight:
                    classes.append("highlight")
                if item.citation:
                    classes.append("citation")
                attr = f' class="{" ".join(classes)}"' if classes else ""
                if item.citation:
                    attr += ' data-lang-exempt="citation"'
                text = f"<strong>{esc(item.text)}</strong>" if item.strong else esc(item.text)
                cells.append(f"<td{attr}>{text}</td>")
            row_classes: list[str] = [row.kind] if row.kind != "body" else []
            if any(len(c.text if isinstance(c, Cell) else str(c)) > TALL_ROW_CHARS for c in row.cells):
                row_classes.append("tall")
            kind = f' class="{" ".join(row_classes)}"' if row_classes else ""
            body.append(f"<tr{kind}>{''.join(cells)}</tr>")
        caption = f"<caption>{esc(table.caption)}</caption>" if table.caption else ""
        self.blocks.append(
            f'<table class="{css}">{caption}{cols}<thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'
        )

    def figure(self, image_uri: str, *, caption: str = "", width_pct: float = 100.0) -> None:
        cap = f"<figcaption>{esc(caption)}</figcaption>" if caption else ""
        alt = esc(self.alt_texts.get(image_uri, ""))
        self.blocks.append(
            f'<figure><img src="{image_uri}" style="width:{width_pct:g}%" alt="{alt}">{cap}</figure>'
        )

    def columns(self, left: HtmlDocument, right: HtmlDocument) -> None:
        """Two blocks side by side (each built as its own small document)."""
        self.blocks.append(
            f'<div class="two"><div>{"".join(left.blocks)}</div><div>{"".join(right.blocks)}</div></div>'
        )

    def render(self) -> str:
        self._close_section()
        return (
            f'<!doctype html><html lang="{esc(self.lang)}"><head><meta charset="utf-8">'
            f"<title>{esc(self.title)}</title><style>{CSS}</style></head><body>{''.join(self.blocks)}</body></html>"
        )


FOOTER_CAP_MM = 45.0
"""Widest a ``capped`` footer item may be [mm]: a customer or author name of about 30 Latin or
17 Chinese characters at 7 pt shows in full."""


@dataclass(frozen=True)
class FooterPart:
    """One item of the footer line and how it fits: ``fixed`` is never shortened (date, version,
    edition); ``capped`` shows in full up to :data:`FOOTER_CAP_MM` (a typed name); ``fill`` takes
    the width left (the title) and ends in an ellipsis only when the line is full."""

    text: str
    fit: Literal["fixed", "capped", "fill"] = "fixed"


_FOOTER_FIT = {
    "fixed": "flex:none",
    "capped": f"flex:none;max-width:{FOOTER_CAP_MM:g}mm;overflow:hidden;text-overflow:ellipsis",
    "fill": "flex:0 1 auto;min-width:12mm;overflow:hidden;text-overflow:ellipsis",
}


def footer_template(parts: Sequence[FooterPart], page_label: str) -> str:
    """Footer HTML for every page: ``parts`` joined by `` · `` on the left and ``page_label``
    (with ``{page}`` and ``{pages}``) on the right, in one flex row (see :class:`FooterPart`):
    the page label and the ``fixed`` items always keep their full width.

    Parameters
    ----------
    parts : Sequence[FooterPart]
        Footer items (empty ones skipped).
    page_label : str
        Page label text with ``{page}`` and ``{pages}``.

    Returns
    -------
    str
        HTML for Chromium's footer template (text escaped).

    >>> html = footer_template([FooterPart("Proposal", "fill"), FooterPart("v1")], "Page {page} of {pages}")
    >>> "pageNumber" in html and "totalPages" in html and "Proposal" in html
    True
    """
    page_html = (
        esc(page_label)
        .replace("{page}", '<span class="pageNumber"></span>')
        .replace("{pages}", '<span class="totalPages"></span>')
    )
    items = []
    for index, part in enumerate(p for p in parts if p.text):
        if index:
            items.append('<span style="flex:none;padding:0 0.9mm">·</span>')
        items.append(
            f'<span style="{_FOOTER_FIT[part.fit]};white-space:nowrap;unicode-bidi:plaintext">'
            f"{esc(part.text)}</span>"
        )
    # the margins are padding inside a border-box of the page's width: a margin beside
    # width:100% would push the page label past the paper's edge
    return (
        f'<div style="box-sizing:border-box;width:100%;padding:0 15mm;font-family:{esc(FONT_STACK)};'
        'font-size:7pt;color:#52606D;-webkit-print-color-adjust:exact">'
        '<div style="display:flex;justify-content:space-between;padding-top:2mm;border-top:0.3mm solid #CBD2D9">'
        f'<span style="display:flex;min-width:0;flex:0 1 auto">{"".join(items)}</span>'
        f'<span style="flex:none;white-space:nowrap;padding-left:3mm">{page_html}</span></div></div>'
    )


def header_template(text: str) -> str:
    """A small right-aligned header line (the internal edition's confidentiality mark).

    Parameters
    ----------
    text : str
        Header text; empty for no header.

    Returns
    -------
    str
        HTML for Chromium's header template (text escaped).
    """
    if not text:
        return "<span></span>"
    return (
        f'<div style="box-sizing:border-box;font-family:{esc(FONT_STACK)};font-size:7.5pt;color:#B42318;'
        f'width:100%;padding:0 15mm;text-align:right;font-weight:700">{esc(text)}</div>'
    )
