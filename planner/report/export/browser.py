"""One long-lived headless Chromium, through kaleido's public API: chart images and HTML printed to PDF.

Starting Chromium costs about 3 s (about 5 s per image when each export starts its own), so one
:class:`Browser` is started once per process (:func:`shared_browser`) and kept: the CLI exports
several files with it, the web app serves every session with it. It runs on its own thread with
its own event loop, inside ``async with kaleido.Kaleido(...)`` (kaleido 1.x's documented way to
hold a browser open); callers on any thread submit work to that loop, so concurrent exports are
safe.

Charts are drawn by ``Kaleido.calc_fig`` (public). kaleido reloads its page after every image
(about 0.1-0.2 s each), so the figures of one proposal are drawn concurrently on
:data:`CHART_TABS` tabs. Documents are printed in one more tab that the ``Kaleido`` object (a
``choreographer.Browser``) opens with its public ``create_tab``; the tab prints with the Chrome
DevTools command ``Page.printToPDF`` sent through choreographer's public ``Tab.send_command``.
kaleido itself has no call that prints an HTML page (its ``pdf`` format draws one figure), and
``kaleido.start_sync_server`` is not used: its server only calls ``Kaleido``'s own methods, and
its ``call_function`` pairs requests with answers through two shared queues, so two sessions
exporting at once could receive each other's images.

Why Chromium prints the PDF (not reportlab): Debian's CJK fonts (``fonts-noto-cjk``) have
PostScript (CFF) outlines, which reportlab cannot embed ("postscript outlines are not
supported"); Chromium embeds every font it uses (CFF ones as Type 3), shapes every script
(Arabic joins and runs right to left) and falls back per character through fontconfig, so
user text in any script renders with the fonts the machine has.
"""

from __future__ import annotations

import asyncio
import atexit
import base64
import concurrent.futures
import os
import shutil
import tempfile
import threading
from collections.abc import Coroutine, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeVar

from planner.errors import PlannerError

T = TypeVar("T")
ImageFormat = Literal["svg", "png"]
MM_PER_INCH = 25.4
A4_MM = (210.0, 297.0)


class RenderError(PlannerError):
    """The browser that draws charts and prints PDFs is missing or failed."""


@dataclass(frozen=True)
class ChartSpec:
    """One chart to draw: a Plotly figure (or its dict) and its size on paper [CSS px]."""

    figure: Any
    width_px: int
    height_px: int


@dataclass(frozen=True)
class PageSetup:
    """Paper and margins [mm]; header and footer are HTML drawn in the top and bottom margins.

    Chromium fills elements of class ``pageNumber``, ``totalPages``, ``title`` and ``date`` in
    the header and footer templates.
    """

    footer_html: str = ""
    header_html: str = ""
    paper_mm: tuple[float, float] = A4_MM
    margins_mm: tuple[float, float, float, float] = (16.0, 15.0, 18.0, 15.0)
    """Top, right, bottom, left."""

    def cdp_params(self) -> dict[str, Any]:
        """Parameters of Chrome DevTools ``Page.printToPDF``."""
        top, right, bottom, left = (m / MM_PER_INCH for m in self.margins_mm)
        width, height = (p / MM_PER_INCH for p in self.paper_mm)
        return {
            "paperWidth": width,
            "paperHeight": height,
            "marginTop": top,
            "marginRight": right,
            "marginBottom": bottom,
            "marginLeft": left,
            "printBackground": True,
            "displayHeaderFooter": bool(self.footer_html or self.header_html),
            "headerTemplate": self.header_html or "<span></span>",
            "footerTemplate": self.footer_html or "<span></span>",
            "generateTaggedPDF": True,
            "generateDocumentOutline": True,
        }


def chromium_path() -> str | None:
    """Debian's Chromium (or ``$BROWSER_PATH``); ``None`` lets kaleido search its usual places."""
    configured = os.environ.get("BROWSER_PATH")
    if configured:
        return configured
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    return None


CHART_TABS = 2
"""Tabs kaleido draws charts in at once (kaleido reloads a tab after each image)."""


class Browser:
    """A headless Chromium kept open: ``start()`` once, then ``images()`` and ``print_pdf()``."""

    def __init__(self, *, path: str | None = None, timeout_s: float = 60.0) -> None:
        self._path = path if path is not None else chromium_path()
        self._timeout_s = timeout_s
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._kaleido: Any = None
        self._print_tab: Any = None
        self._print_lock: asyncio.Lock | None = None
        self._closing: asyncio.Event | None = None
        self._served: concurrent.futures.Future[None] | None = None

    @property
    def running(self) -> bool:
        return self._kaleido is not None

    def start(self) -> None:
        """Open the browser and its tabs (about 3 s); nothing when it is already open."""
        with self._lock:
            if self._kaleido is not None:
                return
            loop = asyncio.new_event_loop()
            thread = threading.Thread(target=loop.run_forever, name="planner-export-browser", daemon=True)
            thread.start()
            self._loop, self._thread = loop, thread
            ready: concurrent.futures.Future[Any] = concurrent.futures.Future()
            self._served = asyncio.run_coroutine_threadsafe(self._serve(ready), loop)
            try:
                self._kaleido = ready.result(timeout=self._timeout_s * 4)
            except BaseException:
                self._served.cancel()
                self._shutdown_loop()
                raise

    async def _serve(self, ready: concurrent.futures.Future[Any]) -> None:
        """Hold the browser open until :meth:`stop`: the body of ``async with Kaleido()``."""
        import kaleido

        self._closing, self._print_lock = asyncio.Event(), asyncio.Lock()
        try:
            async with kaleido.Kaleido(
                n=CHART_TABS, path=self._path, mathjax=False, timeout=self._timeout_s
            ) as browser:
                self._print_tab = await browser.create_tab("about:blank")
                await self._print_tab.send_command("Page.enable")
                ready.set_result(browser)
                await self._closing.wait()
        except Exception as exc:
            if ready.done():
                raise
            where = self._path or "the default locations"
            ready.set_exception(
                RenderError(
                    f"chart and PDF renderer: cannot start Chromium at {where} "
                    f"({type(exc).__name__}: {exc}); install Debian's chromium package or set BROWSER_PATH"
                )
            )

    def stop(self) -> None:
        """Close the browser and its thread (safe to call twice)."""
        with self._lock:
            if self._kaleido is None:
                return
            try:
                loop, closing, served = self._loop, self._closing, self._served
                if loop is not None and closing is not None and served is not None:
                    loop.call_soon_threadsafe(closing.set)
                    served.result(timeout=self._timeout_s)
            finally:
                self._kaleido = self._print_tab = None
                self._shutdown_loop()

    def _shutdown_loop(self) -> None:
        loop, thread = self._loop, self._thread
        if loop is not None and thread is not None:
            loop.call_soon_threadsafe(loop.stop)
            thread.join(timeout=self._timeout_s)
            loop.close()
        self._loop = self._thread = None
        self._served = self._closing = None

    def _submit(self, coroutine: Coroutine[Any, Any, T]) -> T:
        if self._loop is None:
            coroutine.close()
            raise RenderError("chart and PDF renderer: the browser is not running")
        future = asyncio.run_coroutine_threadsafe(coroutine, self._loop)
        return future.result(timeout=self._timeout_s * 4)

    def _require(self) -> None:
        if self._kaleido is None:
            self.start()

    def images(
        self, charts: Sequence[ChartSpec], *, fmt: ImageFormat = "svg", scale: float = 2.0
    ) -> list[bytes]:
        """Each chart as an SVG (vector) or PNG (``scale`` x its CSS size) image, in order."""
        self._require()
        try:
            return self._submit(self._draw(charts, fmt, scale))
        except RenderError:
            raise
        except Exception as exc:
            raise RenderError(f"chart renderer: {type(exc).__name__}: {exc}") from None

    async def _draw(self, charts: Sequence[ChartSpec], fmt: ImageFormat, scale: float) -> list[bytes]:
        browser = self._kaleido
        if browser is None:
            raise RenderError("chart renderer: the browser is not running")
        drawn = await asyncio.gather(
            *(
                browser.calc_fig(
                    chart.figure,
                    opts={"format": fmt, "width": chart.width_px, "height": chart.height_px, "scale": scale},
                )
                for chart in charts
            )
        )
        return [bytes(image) for image in drawn]

    def print_pdf(self, html: str, *, setup: PageSetup | None = None) -> bytes:
        """The HTML document printed to PDF by the browser."""
        self._require()
        params = (setup or PageSetup()).cdp_params()
        with tempfile.TemporaryDirectory(prefix="planner-pdf-") as tmp:
            path = Path(tmp) / "document.html"
            path.write_text(html, encoding="utf-8")
            try:
                response = self._submit(self._print(path, params))
            except RenderError:
                raise
            except Exception as exc:
                raise RenderError(f"PDF printer: {type(exc).__name__}: {exc}") from None
        if "error" in response:
            raise RenderError(f"PDF printer: {response['error'].get('message', response['error'])}")
        return base64.b64decode(response["result"]["data"])

    async def _navigate(self, tab: Any, url: str) -> None:
        loaded = tab.subscribe_once("Page.loadEventFired")
        response = await tab.send_command("Page.navigate", params={"url": url})
        if "error" in response:
            raise RenderError(f"PDF printer: cannot open {url} ({response['error']})")
        await asyncio.wait_for(loaded, self._timeout_s)

    async def _print(self, path: Path, params: Mapping[str, Any]) -> Mapping[str, Any]:
        if self._print_lock is None or self._print_tab is None:
            raise RenderError("PDF printer: the browser is not running")
        async with self._print_lock:
            tab = self._print_tab
            await self._navigate(tab, path.as_uri())
            await tab.send_command(
                "Runtime.evaluate",
                params={"expression": "document.fonts.ready.then(() => true)", "awaitPromise": True},
            )
            response: Mapping[str, Any] = await tab.send_command("Page.printToPDF", params=dict(params))
            # leave the tab blank so the temporary document can be deleted
            await self._navigate(tab, "about:blank")
            return response


_SHARED: Browser | None = None
_SHARED_LOCK = threading.Lock()


def shared_browser() -> Browser:
    """The process's one browser, started on first use and closed when the process exits."""
    global _SHARED
    with _SHARED_LOCK:
        if _SHARED is None:
            _SHARED = Browser()
        browser = _SHARED
    if not browser.running:
        browser.start()
        # registered after start: atexit runs last-in first-out, so the browser closes before
        # the interpreter's own clean-up of the temporary files Chromium's launcher made
        atexit.register(browser.stop)
    return browser
