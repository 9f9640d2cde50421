"""Page count and page images of a PDF, with poppler's ``pdfinfo`` and ``pdftoppm``."""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from planner.report.export.browser import RenderError


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise RenderError(f"PDF preview: {name} not found (install Debian's poppler-utils)")
    return found


def page_count(pdf: bytes) -> int:
    """Pages in the PDF (``pdfinfo``)."""
    result = subprocess.run([_tool("pdfinfo"), "-"], input=pdf, capture_output=True, check=False, timeout=60)
    match = re.search(rb"^Pages:\s+(\d+)", result.stdout, re.MULTILINE)
    if result.returncode != 0 or match is None:
        raise RenderError(f"PDF preview: pdfinfo failed ({result.stderr.decode(errors='replace').strip()})")
    return int(match.group(1))


def page_images(pdf: bytes, *, first: int = 1, last: int = 2, dpi: int = 60) -> list[bytes]:
    """PNG images of pages ``first`` to ``last`` (1-based, inclusive) at ``dpi``."""
    with tempfile.TemporaryDirectory(prefix="planner-preview-") as tmp:
        source = Path(tmp) / "document.pdf"
        source.write_bytes(pdf)
        result = subprocess.run(
            [
                _tool("pdftoppm"),
                "-png",
                "-r",
                str(dpi),
                "-f",
                str(first),
                "-l",
                str(last),
                str(source),
                str(Path(tmp) / "page"),
            ],
            capture_output=True,
            check=False,
            timeout=120,
        )
        if result.returncode != 0:
            raise RenderError(
                f"PDF preview: pdftoppm failed ({result.stderr.decode(errors='replace').strip()})"
            )
        pages = sorted(Path(tmp).glob("page-*.png"), key=lambda p: int(p.stem.rsplit("-", 1)[1]))
        return [p.read_bytes() for p in pages]
