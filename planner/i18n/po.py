"""Read and write gettext PO files (the subset this project uses), with the standard library only.

The app reads its catalogs on the first page it draws, so reading must be cheap: importing Babel
and running its ``read_po`` over the catalogs costs about 0.1 s on the reference machine, while
this reader takes a few milliseconds. Babel stays the reference: ``tests/test_i18n.py`` checks
that both read every catalog of the repository to the same translations, and the extraction
command (``tools/extract_translations.py``) validates what it writes with it.

Supported: a header entry, ``#`` comments (``#,`` flags, ``#.`` notes for translators, ``#~``
obsolete entries), ``msgid``/``msgstr`` with continuation lines and C escapes. Not used here
and refused with a ``ValueError``: ``msgctxt`` and plural forms.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\"}
_UNESCAPE = re.compile(r"\\(.)")
_KEYWORD = re.compile(r'^(msgid|msgstr|msgctxt|msgid_plural|msgstr\[\d+\])\s+(".*")\s*$')


@dataclass
class Entry:
    """One PO entry: the id, its translation and what a translator needs to know."""

    msgid: str
    msgstr: str = ""
    fuzzy: bool = False
    notes: list[str] = field(default_factory=list)
    """``#.`` lines: where the text comes from (a record and field, a source line)."""
    obsolete: bool = False

    @property
    def translated(self) -> bool:
        return bool(self.msgstr) and not self.fuzzy and not self.obsolete


def _unquote(literal: str, where: str) -> str:
    if len(literal) < 2 or literal[0] != '"' or literal[-1] != '"':
        raise ValueError(f"{where}: expected a quoted string, got {literal!r}")
    if "\\" not in literal:
        return literal[1:-1]

    def escape(match: re.Match[str]) -> str:
        char = match.group(1)
        if char not in _ESCAPES:
            raise ValueError(f"{where}: unknown escape \\{char}")
        return _ESCAPES[char]

    return _UNESCAPE.sub(escape, literal[1:-1])


def parse(text: str, *, name: str = "<po>") -> list[Entry]:
    """Every entry of a PO text, the header (``msgid ""``) included, in file order.

    Parameters
    ----------
    text : str
        The PO text.
    name : str
        The file's name, used in error messages.

    Returns
    -------
    list of Entry
        Each entry's msgid, msgstr, notes and fuzzy and obsolete flags.
    """
    entries: list[Entry] = []
    current: Entry | None = None
    part: str | None = None
    pending_fuzzy, pending_notes = False, []
    for number, raw in enumerate(text.splitlines(), start=1):
        where = f"{name}:{number}"
        line = raw.strip()
        obsolete = line.startswith("#~")
        if obsolete:
            line = line[2:].strip()
        elif line.startswith("#"):
            if line.startswith("#,") and "fuzzy" in line[2:].replace(",", " ").split():
                pending_fuzzy = True
            elif line.startswith("#."):
                pending_notes.append(line[2:].strip())
            continue
        if not line:
            part = None
            continue
        match = _KEYWORD.match(line)
        if match:
            keyword, literal = match.groups()
            if keyword not in ("msgid", "msgstr"):
                raise ValueError(f"{where}: {keyword} is not supported")
            if keyword == "msgid":
                current = Entry(_unquote(literal, where), fuzzy=pending_fuzzy, notes=pending_notes)
                current.obsolete = obsolete
                entries.append(current)
                pending_fuzzy, pending_notes = False, []
            elif current is None or part != "msgid":
                raise ValueError(f"{where}: msgstr without a msgid")
            else:
                current.msgstr = _unquote(literal, where)
            part = keyword
        elif line.startswith('"') and current is not None and part is not None:
            value = _unquote(line, where)
            if part == "msgid":
                current.msgid += value
            else:
                current.msgstr += value
        else:
            raise ValueError(f"{where}: cannot read {raw!r}")
    return entries


def read(path: Path) -> dict[str, str]:
    """The translations of a PO file: ``msgid -> msgstr``, without the header, untranslated,
    fuzzy and obsolete entries (as ``msgfmt`` would compile it).

    Parameters
    ----------
    path : Path
        The PO file.

    Returns
    -------
    dict of str to str
        msgstr by msgid.
    """
    return read_text(path.read_text(encoding="utf-8"), name=str(path))


def _quote(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t").replace("\r", "\\r")
    return '"' + escaped.replace("\n", "\\n") + '"'


def _field(keyword: str, text: str, prefix: str) -> list[str]:
    """``msgid "text"``, or an empty first line and one line per ``\\n`` for multi-line texts."""
    if "\n" not in text.rstrip("\n"):
        return [f"{prefix}{keyword} {_quote(text)}"]
    lines = [f'{prefix}{keyword} ""']
    parts = text.split("\n")
    for index, piece in enumerate(parts):
        chunk = piece if index == len(parts) - 1 else piece + "\n"
        if chunk:
            lines.append(prefix + _quote(chunk))
    return lines


def header(lang: str) -> str:
    """The header entry's text (``msgstr`` of ``msgid ""``): fixed, so rewriting a file that has
    not changed gives the same bytes.

    Parameters
    ----------
    lang : str
        Language code.

    Returns
    -------
    str
        The header text.
    """
    return (
        "Project-Id-Version: GPU Cluster Planner\n"
        f"Language: {lang}\n"
        "MIME-Version: 1.0\n"
        "Content-Type: text/plain; charset=UTF-8\n"
        "Content-Transfer-Encoding: 8bit\n"
    )


def dumps(entries: list[Entry], *, lang: str, title: str) -> str:
    """A PO file of ``entries`` (without a header entry; one is written from ``lang``).

    Parameters
    ----------
    entries : list of Entry
        The entries.
    lang : str
        Language code, for the header.
    title : str
        The file's title comment.

    Returns
    -------
    str
        The PO text.
    """
    head = [f"# {title}", *_field("msgid", "", ""), *_field("msgstr", header(lang), ""), ""]
    return "\n".join(head) + "\n" + dumps_entries(entries)


def dumps_entries(entries: list[Entry]) -> str:
    """``entries`` in PO syntax, each followed by an empty line, obsolete ones last.

    Parameters
    ----------
    entries : list of Entry
        The entries.

    Returns
    -------
    str
        The entries in PO syntax.
    """
    out: list[str] = []
    for entry in sorted(entries, key=lambda e: e.obsolete):
        out += [f"#. {note}" for note in entry.notes]
        if entry.fuzzy:
            out.append("#, fuzzy")
        prefix = "#~ " if entry.obsolete else ""
        out += _field("msgid", entry.msgid, prefix)
        out += _field("msgstr", entry.msgstr, prefix)
        out.append("")
    return "".join(line + "\n" for line in out)


def read_text(text: str, *, name: str = "<po>") -> dict[str, str]:
    """:func:`read` of a PO text.

    Parameters
    ----------
    text : str
        The PO text.
    name : str
        The file's name, used in error messages.

    Returns
    -------
    dict of str to str
        msgstr by msgid.
    """
    return {e.msgid: e.msgstr for e in parse(text, name=name) if e.msgid and e.translated}
