"""Making user text safe in every export format: spreadsheets and HTML/PDF.

Spreadsheet formula injection (CWE-1236): a cell whose text starts with ``=``, ``+``, ``-`` or
``@`` (or a tab or carriage return, which some importers strip before looking) is run as a
formula by Excel, LibreOffice and Google Sheets when a CSV or XLSX file is opened. Such text
gets a leading apostrophe, which every spreadsheet shows as text and does not evaluate. Text that
already starts with an apostrophe gets one too, so :func:`restore_cell` undoes
:func:`neutralize_cell` exactly. The full-width forms (``＝＋－＠``) are included: some East
Asian spreadsheet locales convert them to their ASCII forms on input.

References
----------
OWASP, "CSV Injection", https://owasp.org/www-community/attacks/CSV_Injection
"""

from __future__ import annotations

import html

FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r", "＝", "＋", "－", "＠")
"""First characters that make a spreadsheet evaluate a cell."""

APOSTROPHE = "'"


def neutralize_cell(text: str) -> str:
    """Text that a spreadsheet shows as typed, never as a formula.

    >>> neutralize_cell("=cmd|' /C calc'!A0"), neutralize_cell("@SUM(A1)"), neutralize_cell("ACME")
    ("'=cmd|' /C calc'!A0", "'@SUM(A1)", 'ACME')
    >>> neutralize_cell("-5"), neutralize_cell("'quoted")
    ("'-5", "''quoted")
    """
    if text.startswith((*FORMULA_TRIGGERS, APOSTROPHE)):
        return APOSTROPHE + text
    return text


def restore_cell(text: str) -> str:
    """The text before :func:`neutralize_cell` (exact inverse).

    >>> restore_cell(neutralize_cell("=1+1")), restore_cell(neutralize_cell("'x")), restore_cell("plain")
    ('=1+1', "'x", 'plain')
    """
    return text[1:] if text.startswith(APOSTROPHE) else text


def escape_html(text: str) -> str:
    """User text for HTML (and so for the PDF): markup shows as text, never as markup.

    >>> escape_html('<b>ACME</b> & "Sons"')
    '&lt;b&gt;ACME&lt;/b&gt; &amp; &quot;Sons&quot;'
    """
    return html.escape(text, quote=True)
