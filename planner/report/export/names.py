"""Download file names that are safe on every operating system and in HTTP headers.

User text (customer, project, version) goes into the names of exported files. A safe name has
no path separators, no characters Windows forbids (``<>:"/\\|?*``), no control characters, no
leading dot (hidden file) or dash (read as an option), is not a Windows device name (``CON``,
``NUL``, ``COM1`` ...), and is at most :data:`MAX_NAME_BYTES` bytes of UTF-8. Letters of any
script are kept: a Chinese customer's name stays readable.
"""

from __future__ import annotations

import re
import unicodedata

from planner.errors import InputError

MAX_NAME_BYTES = 120
"""Longest stem [bytes of UTF-8]; file systems allow 255 bytes per name."""

_UNSAFE = re.compile(r'[\x00-\x1f\x7f<>:"/\\|?*\s]+')
_KEEP = re.compile(r"[^\w.()\-]+")
_DEVICES = re.compile(r"^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$", re.IGNORECASE)
_EXTENSION = re.compile(r"^[a-z0-9]{1,8}$")


def safe_stem(text: str, *, fallback: str = "export") -> str:
    """``text`` reduced to a safe file-name stem (``fallback`` when nothing is left).

    Parameters
    ----------
    text : str
        Any user text.
    fallback : str
        Stem used when nothing safe is left.

    Returns
    -------
    str
        At most ``MAX_NAME_BYTES`` bytes of letters, digits, ``.``, ``-`` and ``_``.

    >>> safe_stem("../../etc/passwd"), safe_stem("ACME <Beijing> 2026/05"), safe_stem("北京 某公司")
    ('etc_passwd', 'ACME_Beijing_2026_05', '北京_某公司')
    >>> safe_stem("CON"), safe_stem(" .hidden"), safe_stem("-rf"), safe_stem("???")
    ('_CON', 'hidden', 'rf', 'export')
    """
    normal = unicodedata.normalize("NFKC", text)
    stem = _KEEP.sub("_", _UNSAFE.sub("_", normal))
    stem = re.sub(r"_+", "_", stem).strip("._- ")
    encoded = stem.encode("utf-8")[:MAX_NAME_BYTES]
    stem = encoded.decode("utf-8", errors="ignore").rstrip("._- ")
    if not stem:
        return fallback
    return f"_{stem}" if _DEVICES.match(stem) else stem


def safe_filename(*parts: str, ext: str, fallback: str = "export") -> str:
    """A file name from ``parts`` (empty parts skipped) joined with ``_``, and an extension.

    Parameters
    ----------
    *parts : str
        Name parts (user text).
    ext : str
        Extension without the dot: 1 to 8 letters or digits.
    fallback : str
        Stem used when nothing safe is left.

    Returns
    -------
    str
        ``<stem>.<ext>``.

    >>> safe_filename("ACME", "", "proposal", "v1.0", ext="pdf")
    'ACME_proposal_v1.0.pdf'
    >>> safe_filename("=cmd|calc", ext="csv"), safe_filename("", ext="xlsx")
    ('cmd_calc.csv', 'export.xlsx')
    """
    if not _EXTENSION.match(ext):
        raise InputError(f"file extension: letters and digits only, 1 to 8 of them (got {ext!r})")
    joined = "_".join(p for p in (safe_stem(part, fallback="") for part in parts) if p)
    return f"{safe_stem(joined, fallback=fallback)}.{ext}"
