"""What a customer document must not show besides prices: the repository's own paths and file names.

Catalog sources and assumptions sometimes say where a figure was fitted or checked
(``bench/fit_training_efficiency.py``, ``validation/cases/serving-trtllm.yaml``, "see
optics.yaml"). That is for the people who maintain the catalog; a customer reads the public
source and the reasoning, not the planner's file tree. Price references are removed by
:func:`planner.report.export.pricing.redact_prices`.
"""

from __future__ import annotations

import re

FILE_SUFFIXES = ("py", "yaml", "yml", "json", "toml", "md", "po", "csv", "ipynb")
"""Extensions of the repository's own files (code, catalog, cases, docs, translations)."""
_PATH = re.compile(
    r"(?<![\w/.-])"  # a whole token, not part of a URL or a longer path
    r"(?:[\w.-]+/)*[\w.-]+\.(?:" + "|".join(FILE_SUFFIXES) + r")\b"
    r"|(?<![\w/.-])(?:data|planner|bench|tests|validation|docs|ui|pages|locales)/[\w./-]*"
)
_BRACKETED = re.compile(r"\s*[(（]\s*[)）]")
_SPACES = re.compile(r"[ \t]{2,}")
_ORPHAN_COMMA = re.compile(r"([,;:，；：])\s*[,，]\s*")


def mentions_path(text: str) -> bool:
    """True when ``text`` names a file or a path of the repository.

    Parameters
    ----------
    text : str
        Any text.

    Returns
    -------
    bool
        Whether a repository path or file name appears.

    >>> mentions_path("fit (bench/fit_training_efficiency.py)"), mentions_path("statista.com/statistics/190680")
    (True, False)
    """
    return bool(_PATH.search(text))


def redact_paths(text: str) -> str:
    """``text`` without file names and repository paths, and without the brackets they leave empty.

    Parameters
    ----------
    text : str
        A source or assumption text.

    Returns
    -------
    str
        The text, spaces collapsed.

    >>> redact_paths("Least-squares fit (bench/fit_training_efficiency.py) of the MFU")
    'Least-squares fit of the MFU'
    >>> redact_paths("the optics' power is in optics.yaml npo_200g_port.")
    "the optics' power is in npo_200g_port."
    >>> redact_paths("case x (validation/cases/serving-trtllm.yaml): docs/source/performance.md, H100")
    'case x: H100'
    >>> redact_paths("www.example.com/a/b (2024)")
    'www.example.com/a/b (2024)'
    """
    cleaned = _BRACKETED.sub("", _PATH.sub("", text))
    cleaned = _ORPHAN_COMMA.sub(lambda m: m.group(1) + " ", cleaned)
    return _SPACES.sub(" ", cleaned).strip()
