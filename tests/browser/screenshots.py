"""Refresh the README's screenshots in ``docs/screenshots/`` (``make screenshots``).

The tests save their screenshots to ``artifacts/screenshots/`` (ignored by git), so ``make test``
never changes a tracked image; this command is the one place that does, on purpose. It shoots
exactly the images the README shows (``docs/screenshots/<lang>_<page>.png``), with the browser
harness the tests use: the same server, page set-up and fixed 1440 px wide viewport, and a
scenario store holding the tests' saved scenarios for the Scenarios page.

Usage::

    .venv/bin/python tests/browser/screenshots.py [--out docs/screenshots]
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from harness import (  # noqa: E402
    CHROMIUM,
    ROOT,
    fill_store,
    full_page_screenshot,
    launch,
    new_context,
    open_page,
    streamlit_server,
)
from playwright.sync_api import expect, sync_playwright  # noqa: E402

README = ROOT / "README.md"
DOCS = ROOT / "docs" / "screenshots"
TIMEOUT_MS = 60_000
IMAGE = re.compile(r"docs/screenshots/(en|zh)_([a-z]+)\.png")


def readme_images(readme: Path = README) -> list[tuple[str, str]]:
    """The (language, page) of every screenshot the README shows, in order, each once.

    Examples
    --------
    >>> import tempfile
    >>> text = "![a](docs/screenshots/en_overview.png) ![b](docs/screenshots/zh_compare.png)"
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = (Path(d) / "README.md").write_text(text + text, encoding="utf-8")
    ...     readme_images(Path(d) / "README.md")
    [('en', 'overview'), ('zh', 'compare')]
    """
    found = IMAGE.findall(readme.read_text(encoding="utf-8"))
    return list(dict.fromkeys((lang, page) for lang, page in found))


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--out", type=Path, default=DOCS, help="folder for the images")
    args = parser.parse_args()
    if not CHROMIUM.exists():
        print(f"{CHROMIUM} is missing: run .ci/setup-system.sh first", file=sys.stderr)
        return 1
    images = readme_images()
    expect.set_options(timeout=TIMEOUT_MS)
    with tempfile.TemporaryDirectory(prefix="planner-screenshots-") as scratch:
        db = Path(scratch) / "scenarios.db"
        saved_id = fill_store(db)
        with streamlit_server(db_path=db) as url, sync_playwright() as playwright:
            browser = launch(playwright)
            context = new_context(browser, TIMEOUT_MS)
            page = context.new_page()
            for lang, name in images:
                open_page(page, url, name, lang, scenario_id=saved_id if name == "scenarios" else None)
                shot = full_page_screenshot(page, args.out / f"{lang}_{name}.png")
                print(f"{shot.relative_to(ROOT) if shot.is_relative_to(ROOT) else shot}")
            context.close()
            browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
