"""Concurrent sessions against one app server: first load and one interaction, medians and p95.

Starts the app with ``streamlit run`` on 127.0.0.1 and opens N sessions at once with Streamlit's
own websocket protocol (``/_stcore/stream``, protobuf ``BackMsg``/``ForwardMsg``) from this
process: no browser, so the clients cost little CPU, and on a machine with two or more cores the
server is pinned to the first core and this load generator to the others (``--no-pin`` to share).
Each session:

1. **first load**: asks for the Overview page (``rerun_script``) and waits for
   ``script_finished`` -- every plan, chart and table of the page computed and sent;
2. **one interaction**: opens the Compare page (three designs planned side by side and drawn) and
   waits for ``script_finished`` again.

Reported per phase: wall time per session (median, p95, max) from the request to the last
message, and the server's CPU time for the phase (``utime + stime`` of the server process from
``/proc``) divided by the sessions: the server work one session costs, whatever the clients do.
With the shared caches of ``ui/engine.py`` (``st.cache_data``/``st.cache_resource`` keyed on the
scenario's canonical JSON, bounded), identical plans are computed once for all sessions, so the
per-session server time is mostly the page's own script run and the messages it sends.

Usage::

    .venv/bin/python bench/load_sessions.py [--sessions 20] [--rounds 1] [--no-pin]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
sys.path.insert(0, str(ROOT))

import websockets  # noqa: E402
from harness import server_pid, streamlit_server  # noqa: E402

# the wire protocol's message classes (a client of the app), not the framework an engine must avoid
from streamlit.proto.BackMsg_pb2 import BackMsg  # noqa: E402, TID251
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402, TID251

TICKS_PER_S = os.sysconf("SC_CLK_TCK")
PHASE_TIMEOUT_S = 600.0


@dataclass
class Timing:
    first_load_s: float = 0.0
    interaction_s: float = 0.0
    messages: int = 0


def cpu_s(pid: int) -> float:
    """User + system CPU time of ``pid`` and its threads [s] (``/proc/<pid>/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS_PER_S


def rerun(query: str, page_hash: str = "", page_name: str = "") -> bytes:
    msg = BackMsg()
    msg.rerun_script.query_string = query
    msg.rerun_script.page_script_hash = page_hash
    msg.rerun_script.page_name = page_name
    data: bytes = msg.SerializeToString()
    return data


async def run_until_finished(
    ws: websockets.ClientConnection, request: bytes, timing: Timing
) -> dict[str, str]:
    """Send ``request`` and read messages until the script run finishes; the app's pages
    (url path -> script hash) when the server names them."""
    await ws.send(request)
    pages: dict[str, str] = {}
    while True:
        raw = await ws.recv()
        timing.messages += 1
        message = ForwardMsg()
        message.ParseFromString(raw if isinstance(raw, bytes) else raw.encode())
        kind = message.WhichOneof("type")
        if kind in ("new_session", "navigation"):
            for app_page in getattr(message, kind).app_pages:
                pages[app_page.url_pathname] = app_page.page_script_hash
        elif kind == "script_finished":
            if message.script_finished == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                continue
            if message.script_finished != ForwardMsg.FINISHED_SUCCESSFULLY:
                raise RuntimeError(f"script run ended with status {message.script_finished}")
            return pages


async def session(url: str, start: asyncio.Event, loaded: asyncio.Barrier, timing: Timing) -> None:
    async with websockets.connect(
        f"{url.replace('http', 'ws', 1)}/_stcore/stream",
        subprotocols=[websockets.Subprotocol("streamlit")],
        max_size=None,
        open_timeout=PHASE_TIMEOUT_S,
        ping_interval=None,
    ) as ws:
        await start.wait()
        began = time.perf_counter()
        pages = await run_until_finished(ws, rerun("lang=en"), timing)
        timing.first_load_s = time.perf_counter() - began
        await loaded.wait()  # every session loaded: the interaction phase is measured on its own
        compare = pages.get("compare", "")
        began = time.perf_counter()
        await run_until_finished(ws, rerun("lang=en", compare, "" if compare else "compare"), timing)
        timing.interaction_s = time.perf_counter() - began


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def summary(name: str, values: list[float], server_cpu_s: float, sessions: int) -> str:
    return (
        f"{name:<16} median {statistics.median(values) * 1000:8.0f} ms   p95 {p95(values) * 1000:8.0f} ms   "
        f"max {max(values) * 1000:8.0f} ms   server CPU {server_cpu_s / sessions * 1000:6.0f} ms/session"
    )


async def one_round(url: str, pid: int, sessions: int) -> list[str]:
    start = asyncio.Event()
    loaded = asyncio.Barrier(sessions + 1)
    timings = [Timing() for _ in range(sessions)]
    tasks = [asyncio.create_task(session(url, start, loaded, t)) for t in timings]
    await asyncio.sleep(1.0)  # every websocket open before the clock starts
    cpu0 = cpu_s(pid)
    start.set()
    await asyncio.wait_for(loaded.wait(), PHASE_TIMEOUT_S)
    cpu1 = cpu_s(pid)
    await asyncio.wait_for(asyncio.gather(*tasks), PHASE_TIMEOUT_S)
    cpu2 = cpu_s(pid)
    return [
        summary("first load", [t.first_load_s for t in timings], cpu1 - cpu0, sessions),
        summary("open Compare", [t.interaction_s for t in timings], cpu2 - cpu1, sessions),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=20, help="concurrent sessions (default 20)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds on one server (default 2: cold, warm)")
    parser.add_argument("--no-pin", action="store_true", help="let server and clients share every core")
    args = parser.parse_args(argv)
    cores = sorted(os.sched_getaffinity(0))
    with streamlit_server() as url:
        pid = server_pid(int(url.rsplit(":", 1)[1]))
        pinned = not args.no_pin and len(cores) >= 2
        if pinned:
            os.sched_setaffinity(pid, {cores[0]})
            for task in Path(f"/proc/{pid}/task").iterdir():  # threads started before the pin
                os.sched_setaffinity(int(task.name), {cores[0]})
            os.sched_setaffinity(0, set(cores[1:]))
        where = f"server on core {cores[0]}, clients on {cores[1:]}" if pinned else "shared cores"
        print(f"{args.sessions} sessions, {len(cores)} cores ({where}), Python {sys.version.split()[0]}")
        for number in range(1, args.rounds + 1):
            label = "cold caches" if number == 1 else "warm caches (same server)"
            print(f"round {number}: {label}")
            for line in asyncio.run(one_round(url, pid, args.sessions)):
                print(f"  {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
