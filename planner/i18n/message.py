"""Engine text that can be shown in another language.

The engine speaks English: notes, errors, BOM descriptions and assumption texts are ``str``.
Those built with :func:`msg` are :class:`Message` objects, a ``str`` subclass that also keeps the
English template and the parameters it was filled with, so a front end (the app, the PDF) can
look the template up in a translation catalog and fill it again in the reader's language. Code
that only needs English (the CLI, JSON, logs, tests) treats a message as the plain string it is.

A template is a :meth:`str.format` pattern with named fields. A parameter that is itself a
:class:`Message` is translated too; any other parameter is shown as given (numbers, ids, names).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from planner.i18n.counts import agree

Lookup = Callable[[str, str], str | None]
"""``lookup(template, lang)``: the template's translation in ``lang``, or ``None``."""


class Message(str):
    """An English string that remembers the template and parameters it was made from.

    >>> m = msg("{count} GPUs rounded up to {nodes} servers", count=10, nodes=2)
    >>> str(m), m.template, m.params["nodes"]
    ('10 GPUs rounded up to 2 servers', '{count} GPUs rounded up to {nodes} servers', 2)
    >>> m == "10 GPUs rounded up to 2 servers"
    True
    """

    template: str
    params: Mapping[str, Any]

    def __new__(cls, template: str, params: Mapping[str, Any] | None = None) -> Message:
        values = dict(params or {})
        text = agree(template, values).format(**values) if values else template
        self = super().__new__(cls, text)
        self.template = template
        self.params = values
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # keep template and parameters through pickling (st.cache_data, process pools)
        return (Message, (self.template, dict(self.params)))

    def __copy__(self) -> Message:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Message:
        return self


def msg(template: str, /, **params: Any) -> Message:
    """Mark ``template`` as translatable and fill it with ``params`` (English).

    Parameters
    ----------
    template : str
        The English template with ``{field}`` placeholders.
    **params : Any
        Values of the fields.

    Returns
    -------
    Message
        The filled text (a ``str``) that keeps its template and parameters.
    """
    return Message(template, params)


_KEPT: dict[tuple[Any, ...], Message] = {}
"""Messages :func:`kept_msg` made, by template and parameters (:func:`_value_key`)."""
KEPT_MAX = 4096
"""Messages :func:`kept_msg` keeps before it starts over [count]."""


_PLAIN_TYPES = frozenset((str, int))
"""Parameter types whose values alone tell two messages apart (not a float: ``-0.0 == 0.0``; not a
bool: ``True == 1``; not a message: equal texts may come from different templates)."""


def _value_key(value: Any) -> tuple[Any, ...]:
    """What a parameter contributes to a message: its type and value, a float by its ``repr``
    (``-0.0`` equals ``0.0`` but prints ``-0``), a message by its template and parameters (two
    messages of the same English text may translate differently)."""
    if isinstance(value, Message):
        return (Message, value.template, *((name, _value_key(v)) for name, v in value.params.items()))
    if type(value) is float:
        return (float, repr(value))
    return (type(value), value)


def kept_msg(template: str, /, **params: Any) -> Message:
    """:func:`msg`, the same object for the same template and parameters.

    For texts a plan writes again at every size of a sweep (a BOM line's description, an
    assumption): filling the template and checking its counts once saves most of the cost of a
    message. A message is never changed after it is made, so one object can serve every plan.
    Parameters that cannot be hashed are filled each time.

    Parameters
    ----------
    template : str
        The English ``str.format`` template (the translation key).
    **params : Any
        The values of its fields.

    Returns
    -------
    Message
        The message; the same object as an earlier call's with the same template and parameters
        (at most :data:`KEPT_MAX` are kept).

    Examples
    --------
    >>> a = kept_msg("GPU {name}", name="B200")
    >>> a is kept_msg("GPU {name}", name="B200"), a == msg("GPU {name}", name="B200")
    (True, True)
    >>> str(kept_msg("{x:g} m", x=-0.0)), str(kept_msg("{x:g} m", x=0.0))
    ('-0 m', '0 m')
    """
    try:
        if _PLAIN_TYPES.issuperset(map(type, params.values())):
            key: tuple[Any, ...] = (template, *params.items())  # the common case, made quickly
        else:  # a key of another shape than the one above, so the two never meet
            key = (template, None, *((name, _value_key(value)) for name, value in params.items()))
        kept = _KEPT.get(key)
    except TypeError:  # a parameter that cannot be hashed
        return Message(template, params)
    if kept is None:
        if len(_KEPT) >= KEPT_MAX:
            _KEPT.clear()
        kept = _KEPT[key] = Message(template, params)
    return kept


def render(text: str, lang: str, lookup: Lookup) -> str:
    """``text`` in ``lang``: a :class:`Message` whose template ``lookup`` knows is filled again in
    that language (its message parameters translated the same way); anything else as it is.

    Parameters
    ----------
    text : str
        A :class:`Message` or a plain string.
    lang : str
        Language code.
    lookup : Lookup
        ``(template, lang) -> translated template or None``.

    Returns
    -------
    str
        The text in ``lang``.

    Examples
    --------
    >>> table = {"{n} servers": "{n} 台服务器"}
    >>> render(msg("{n} servers", n=3), "zh", lambda t, lang: table.get(t))
    '3 台服务器'
    >>> render("plain text", "zh", lambda t, lang: None)
    'plain text'
    """
    if not isinstance(text, Message) or lang == "en":
        return str(text)
    template = lookup(text.template, lang)
    if template is None:
        return str(text)
    params = {
        name: render(value, lang, lookup) if isinstance(value, Message) else value
        for name, value in text.params.items()
    }
    return template.format(**params)
