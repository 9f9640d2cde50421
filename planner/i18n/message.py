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
