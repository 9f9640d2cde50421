"""Page count, page images and page texts of a PDF, with poppler's ``pdfinfo``, ``pdftoppm`` and ``pdftotext``."""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

from planner.report.export.browser import RenderError


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise RenderError(f"PDF preview: {name} not found (install Debian's poppler-utils)")
    return found


def _run(
    name: str, *args: str, pdf: bytes | None = None, timeout_s: int = 120
) -> subprocess.CompletedProcess[bytes]:
    """Run poppler's ``name`` with ``args`` (``pdf`` on its standard input); a failure is a
    :class:`RenderError` naming the tool and what it said."""
    result = subprocess.run(
        [_tool(name), *args], input=pdf, capture_output=True, check=False, timeout=timeout_s
    )
    if result.returncode != 0:
        raise _failed(name, result)
    return result


def _failed(name: str, result: subprocess.CompletedProcess[bytes]) -> RenderError:
    return RenderError(f"PDF preview: {name} failed ({result.stderr.decode(errors='replace').strip()})")


def page_count(pdf: bytes) -> int:
    """Pages in the PDF (``pdfinfo``).

    Parameters
    ----------
    pdf : bytes
        The PDF file.

    Returns
    -------
    int
        Pages [count].
    """
    result = _run("pdfinfo", "-", pdf=pdf, timeout_s=60)
    match = re.search(rb"^Pages:\s+(\d+)", result.stdout, re.MULTILINE)
    if match is None:
        raise _failed("pdfinfo", result)
    return int(match.group(1))


def page_images(pdf: bytes, *, first: int = 1, last: int = 2, dpi: int = 60) -> list[bytes]:
    """PNG images of pages ``first`` to ``last`` (1-based, inclusive) at ``dpi``.

    Parameters
    ----------
    pdf : bytes
        The PDF file.
    first, last : int
        First and last page, 1-based, inclusive [count].
    dpi : int
        Resolution [dots per inch].

    Returns
    -------
    list[bytes]
        One PNG file per page.
    """
    with tempfile.TemporaryDirectory(prefix="planner-preview-") as tmp:
        source = Path(tmp) / "document.pdf"
        source.write_bytes(pdf)
        _run(
            "pdftoppm",
            "-png",
            "-r",
            str(dpi),
            "-f",
            str(first),
            "-l",
            str(last),
            str(source),
            str(Path(tmp) / "page"),
        )
        pages = sorted(Path(tmp).glob("page-*.png"), key=lambda p: int(p.stem.rsplit("-", 1)[1]))
        return [p.read_bytes() for p in pages]


def page_texts(pdf: bytes) -> list[str]:
    """The text of each page, laid out as printed (``pdftotext -layout``).

    Parameters
    ----------
    pdf : bytes
        The PDF file.

    Returns
    -------
    list[str]
        Text of each page.
    """
    result = _run("pdftotext", "-layout", "-enc", "UTF-8", "-", "-", pdf=pdf)
    pages = result.stdout.decode("utf-8", errors="replace").split("\f")
    return pages[:-1] if pages and not pages[-1].strip() else pages


def first_pages(pdf: bytes, titles: Sequence[str], *, after: int = 1, ignore: str = "") -> list[int] | None:
    """The page (1-based) on which each title first heads a page, past page ``after``.

    A section starts on a new page with its title as the page's first text; ``ignore`` is a
    header line to look past (the internal edition's confidentiality mark). ``None`` when a
    title heads no page (the caller then prints no page numbers rather than wrong ones).

    Chromium's printing has no ``target-counter()``, so this reads the printed pages back.

    Parameters
    ----------
    pdf : bytes
        The printed PDF file.
    titles : Sequence[str]
        Section titles, in order.
    after : int
        Pages skipped at the start, 1-based [count].
    ignore : str
        Header line skipped at the top of a page; empty for none.

    Returns
    -------
    list[int] or None
        Page of each title, 1-based [count]; ``None`` when one is not found.
    """
    tops = []
    for text in page_texts(pdf):
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        if lines and ignore and lines[0] == ignore:
            lines = lines[1:]
        tops.append(lines[0] if lines else "")
    found = []
    for title in titles:
        page = next((i for i, top in enumerate(tops, start=1) if i > after and top.startswith(title)), None)
        if page is None:
            return None
        found.append(page)
    return found
