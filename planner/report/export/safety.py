"""Making user text safe in HTML and so in the PDF: markup shows as text, never as markup.

Spreadsheet cells (formula injection) are made safe by the one table writer,
:mod:`planner.sheets`.
"""

from __future__ import annotations

import html


def escape_html(text: str) -> str:
    """User text for HTML (and so for the PDF): markup shows as text, never as markup.

    Parameters
    ----------
    text : str
        User text.

    Returns
    -------
    str
        Text with ``&``, ``<``, ``>`` and quotes escaped.

    >>> escape_html('<b>ACME</b> & "Sons"')
    '&lt;b&gt;ACME&lt;/b&gt; &amp; &quot;Sons&quot;'
    """
    return html.escape(text, quote=True)
