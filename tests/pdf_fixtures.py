"""Printed proposals shared by the PDF test modules: each document printed once per run.

Test modules load this with ``pytest_plugins = ["pdf_fixtures"]`` and ask the session fixture
``printer`` for a document by its inputs (a scenario and the proposal options' data): the first
asker prints it the way the export does (:func:`planner.report.proposal.render_pdf` in the shared
browser) and reads it back with poppler (``pdfinfo``, ``pdftotext -layout``); a later asker with
the same inputs, in the same module or another, gets the same document, and a page image at a
given resolution is drawn once (``pdftoppm``). Printing is the cost (a few seconds of Chromium a
document: its charts and two prints), reading back is cheap.

The four documents of :data:`EDITIONS` (English and 中文, customer and internal edition) are
printed with :func:`edition_options` and read by more than one module (the page layout, the rack
elevations): :meth:`Printer.edition` names them, and tests/conftest.py's ``worker_group`` runs
every module that calls ``printer.edition(...)`` in one pytest-xdist group, so under ``make test``
they are printed once per run, not once per worker. A document only one module reads is asked for
with :meth:`Printer.document`; that module stays a group of its own. A document a second module
comes to read belongs in :data:`EDITIONS`.

Needs Debian's Chromium, the Noto CJK fonts and poppler-utils (``make system-deps``).

PYTEST_DONT_REWRITE: the whole-suite run imports this file for doctests before the test modules
register it as a plugin; it has no asserts to rewrite.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from planner import Scenario, load_catalog
from planner.report import proposal

LONG_WORD = "Supercalifragilisticexpialidocious"
"""A word longer than the cover title's line at its full size (the title's size must fit it)."""
PROJECTS = {"en": f"Pod-1 training cluster {LONG_WORD}", "zh": f"Pod-1 训练集群二期 {LONG_WORD}"}
CUSTOMERS = {"en": "ACME Corp", "zh": "北京某某科技有限公司"}
EDITIONS = {
    ("en", "customer"): Scenario(gpus=1024, design_id="rail8-npo"),
    ("en", "internal"): Scenario(gpus=512, design_id="ib-ndr"),
    ("zh", "customer"): Scenario(gpus=1024, design_id="rail8-npo"),
    ("zh", "internal"): Scenario(gpus=256, design_id="rail4-npo"),
}
"""The scenario of each (language, edition) document: three designs at three sizes."""


def edition_options(lang: str, edition: str) -> dict[str, Any]:
    """The proposal options' data of the :data:`EDITIONS` document of ``lang`` and ``edition``."""
    return {
        "lang": lang,
        "edition": edition,
        "customer": CUSTOMERS[lang],
        "project": PROJECTS[lang],
        "author": "Jane Doe",
        "version": "3.0",
        "pricing": {"margin": 0.17, "discount": 0.05},
    }


def poppler(*args: str) -> str:
    """The standard output of one of poppler's tools (``pdftotext``, ``pdfinfo``, ...)."""
    return subprocess.run(args, capture_output=True, text=True, check=True, timeout=300).stdout


@dataclass(frozen=True)
class Printed:
    """One printed proposal, read back with poppler."""

    proposal: proposal.Proposal
    path: Path
    pages: int
    """The page count (``pdfinfo``)."""
    text: str
    """``pdftotext -layout`` of the whole document (pages separated by form feeds)."""

    @property
    def page_texts(self) -> tuple[str, ...]:
        """``pdftotext -layout`` of each page."""
        return tuple(self.text.split("\f")[: self.pages])


def inputs_key(scenario: Scenario, options: Mapping[str, Any]) -> str:
    """The document's inputs as one string: two askers get the same document only when it is equal.

    >>> inputs_key(Scenario(gpus=8), {"lang": "en"}) == inputs_key(Scenario(gpus=8), {"lang": "en"})
    True
    >>> inputs_key(Scenario(gpus=8), {"lang": "en"}) == inputs_key(Scenario(gpus=8), {"lang": "zh"})
    False
    """
    return json.dumps(
        {"scenario": scenario.model_dump(mode="json"), "options": options},
        sort_keys=True,
        ensure_ascii=False,
    )


class Printer:
    """Prints each document once (:meth:`document`) and draws each page image once (:meth:`page_image`)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._documents: dict[str, Printed] = {}
        self._images: dict[tuple[Path, int, int], Path] = {}

    def document(self, *, scenario: Scenario, options: Mapping[str, Any]) -> Printed:
        """The proposal of ``scenario`` with ``options`` (:func:`proposal.options_from_data`), printed."""
        key = inputs_key(scenario, options)
        if key not in self._documents:
            p = proposal.build_proposal(
                scenario=scenario, catalog=load_catalog(), options=proposal.options_from_data(options)
            )
            path = self.folder / f"document-{len(self._documents)}.pdf"
            path.write_bytes(proposal.render_pdf(p))
            info = re.search(r"^Pages:\s+(\d+)", poppler("pdfinfo", str(path)), re.MULTILINE)
            if info is None:
                raise AssertionError(f"pdfinfo reads no page count from {path}")
            text = poppler("pdftotext", "-layout", str(path), "-")
            self._documents[key] = Printed(p, path, int(info.group(1)), text)
        return self._documents[key]

    def edition(self, lang: str, edition: str) -> Printed:
        """The :data:`EDITIONS` document of ``lang`` and ``edition``."""
        return self.document(scenario=EDITIONS[(lang, edition)], options=edition_options(lang, edition))

    def page_image(self, doc: Printed, *, page: int, dpi: int) -> Path:
        """The PNG of page ``page`` (1-based) of ``doc`` at ``dpi`` dots per inch (``pdftoppm``)."""
        key = (doc.path, page, dpi)
        if key not in self._images:
            stem = self.folder / f"{doc.path.stem}-{dpi}dpi-page{page}"
            poppler(
                "pdftoppm",
                "-r",
                str(dpi),
                "-png",
                "-singlefile",
                "-f",
                str(page),
                "-l",
                str(page),
                str(doc.path),
                str(stem),
            )
            self._images[key] = stem.with_suffix(".png")
        return self._images[key]


@pytest.fixture(scope="session")
def printer(tmp_path_factory: pytest.TempPathFactory) -> Printer:
    """The run's printed proposals (in a temporary folder of the run)."""
    return Printer(tmp_path_factory.mktemp("printed"))
