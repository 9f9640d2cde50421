"""Number formatting per language, and the text measures tables and labels share (pure: no
Streamlit, reused by exports).

English groups large figures in thousands (k, M, B); Chinese in myriads (万 = 10^4,
亿 = 10^8) written without a space, the way Chinese proposals and price lists write them.
Both use "," and ".".
"""

from __future__ import annotations

import math

Lang = str
"""``"en"`` or ``"zh"``."""

_EN_STEPS = ((1e9, "B"), (1e6, "M"), (1e3, "k"))
_ZH_STEPS = ((1e8, "亿"), (1e4, "万"))
_MONEY_EN = {"USD": "$", "CNY": "¥"}
_MONEY_ZH = {"USD": "美元", "CNY": "元"}


def number(value: float, digits: int = 0) -> str:
    """``1234.5 -> "1,234.5"``; ``-0`` shown as ``0``.

    Parameters
    ----------
    value : float
        Any figure.
    digits : int
        Decimals [count].

    Returns
    -------
    str
        The figure with thousands separators; ``—`` when not finite.

    >>> number(1234.5, 1), number(-0.0001, 2)
    ('1,234.5', '0.00')
    """
    if not math.isfinite(value):
        return "—"
    text = f"{value:,.{digits}f}"
    return text[1:] if text.startswith("-") and float(text.replace(",", "")) == 0 else text


def significant(value: float, digits: int = 3) -> str:
    """A figure with about ``digits`` significant digits and thousands separators.

    Parameters
    ----------
    value : float
        Any figure.
    digits : int
        Significant digits [count].

    Returns
    -------
    str
        The figure with thousands separators; ``—`` when not finite.

    >>> significant(205.41), significant(1.0832), significant(47151667.3), significant(0.0123)
    ('205', '1.08', '47,151,667', '0.0123')
    """
    if not math.isfinite(value):
        return "—"
    if value == 0:
        return "0"
    magnitude = math.floor(math.log10(abs(value)))
    decimals = max(0, digits - 1 - magnitude)
    return number(value, decimals)


def compact(value: float, lang: Lang, digits: int = 3, *, trim: bool = False) -> str:
    """Large figures in the language's grouping: ``47.2 M`` or ``4,715万``; ``trim`` drops
    trailing zeros (for axis ticks: ``1 k`` rather than ``1.00 k``).

    Parameters
    ----------
    value : float
        Any figure.
    lang : Lang
        ``en`` (k, M, B) or ``zh`` (万, 亿).
    digits : int
        Significant digits [count].
    trim : bool
        Drop trailing zeros.

    Returns
    -------
    str
        The grouped figure; ``—`` when not finite.

    >>> compact(47_151_667, "en"), compact(47_151_667, "zh"), compact(950, "zh")
    ('47.2 M', '4,715万', '950')
    >>> compact(339_480_000, "zh"), compact(1000, "en", trim=True), compact(2.5e7, "zh", trim=True)
    ('3.39亿', '1 k', '2,500万')
    """
    if not math.isfinite(value):
        return "—"

    def body(x: float) -> str:
        text = significant(x, digits)
        return text.rstrip("0").rstrip(".") if trim and "." in text else text

    for step, suffix in _ZH_STEPS if lang == "zh" else _EN_STEPS:
        if abs(value) >= step:
            gap = "" if lang == "zh" else " "
            return f"{body(value / step)}{gap}{suffix}"
    return body(value)


def grouped(value: float, lang: Lang) -> str:
    """A figure whose unit its label already names (an amount, a heat load): grouped as
    :func:`compact` from 10,000 up, below that whole with thousands separators.

    Parameters
    ----------
    value : float
        Any figure.
    lang : Lang
        ``en`` (k, M, B) or ``zh`` (万, 亿).

    Returns
    -------
    str
        The figure, without unit.

    >>> grouped(47_151_667, "zh"), grouped(47_151_667, "en"), grouped(9_999.4, "en")
    ('4,715万', '47.2 M', '9,999')
    """
    return compact(value, lang) if abs(value) >= 1e4 else number(value)


def money(amount: float, currency: str, lang: Lang, *, exact: bool = False) -> str:
    """An amount already in ``currency``: ``$47.2 M`` / ``4,715 万美元``; ``exact`` for prices.

    Parameters
    ----------
    amount : float
        Amount [currency].
    currency : str
        Currency code (``USD``, ``CNY``, ...).
    lang : Lang
        ``en`` or ``zh``.
    exact : bool
        Two decimals rather than grouping.

    Returns
    -------
    str
        Amount with the currency sign or name.

    >>> money(47_151_667, "USD", "en"), money(47_151_667, "USD", "zh"), money(2.087, "CNY", "zh")
    ('$47.2 M', '4,715万美元', '2.09 元')
    >>> money(1234.5, "USD", "en", exact=True), money(339_480_000, "CNY", "en")
    ('$1,234.50', '¥339 M')
    """
    if lang == "zh":
        body = number(amount, 2) if exact or abs(amount) < 1e4 else compact(amount, lang)
        gap = "" if body.endswith(("万", "亿")) else " "
        return f"{body}{gap}{_MONEY_ZH.get(currency, currency)}"
    body = number(amount, 2) if exact or abs(amount) < 1e3 else compact(amount, lang)
    sign = "-" if body.startswith("-") else ""
    return f"{sign}{_MONEY_EN.get(currency, currency + ' ')}{body.lstrip('-')}"


def percent(fraction: float, digits: int = 0, *, signed: bool = False) -> str:
    """``0.3 -> "30 %"``; ``signed`` adds ``+`` to gains.

    Parameters
    ----------
    fraction : float
        Share [fraction].
    digits : int
        Decimals of the percentage [count].
    signed : bool
        Prefix gains with ``+``.

    Returns
    -------
    str
        Percentage [%]; ``—`` when not finite.

    >>> percent(0.083, 1), percent(-0.4, signed=True), percent(0.25, signed=True)
    ('8.3 %', '-40 %', '+25 %')
    """
    if not math.isfinite(fraction):
        return "—"
    sign = "+" if signed and fraction > 0 else ""
    return f"{sign}{number(fraction * 100, digits)} %"


def display_width(text: str) -> int:
    """Columns ``text`` takes: a CJK character (from U+2E80 on) as wide as two Latin ones.

    Parameters
    ----------
    text : str
        The text.

    Returns
    -------
    int
        Display width [columns].

    >>> display_width("GPU"), display_width("轨道优化")
    (3, 8)
    """
    return sum(2 if ord(ch) > 0x2E80 else 1 for ch in text)


def markdown_cell(text: str) -> str:
    r"""``text`` as one Markdown table cell: ``|`` escaped, line breaks as spaces.

    Parameters
    ----------
    text : str
        The cell's text.

    Returns
    -------
    str
        The cell.

    >>> markdown_cell("a|b\nc")
    'a\\|b c'
    """
    return text.replace("|", "\\|").replace("\n", " ")
