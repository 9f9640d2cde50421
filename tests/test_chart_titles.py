"""Chart titles and notes are broken over lines, never cut at the chart's edge mid-word (issue 29,
"Smaller"). Plotly neither wraps nor shrinks a title or an annotation. Measured in Chromium at
1280 px: the Scaling page's charts are 402 px wide and their "lines coincide" notes (up to 112
characters, from the plot's left edge 75-81 px in) ran 40-70 px past the edge, en and zh; the
"Power per rack" title (76 characters at 16 px) needs about 670 px. After the change the same scan
of the Scaling, Compare, Topology, Workload, Reliability and Serving pages finds no text past
its chart's edge."""

from __future__ import annotations

import re

import plotly.graph_objects as go
import pytest

from planner import Scenario, load_catalog
from planner.compare import compare
from planner.report import charts

CATALOG = load_catalog()
TAGS = re.compile(r"<[^>]+>")


def width(text: str) -> int:
    return sum(2 if ord(ch) > 0x2E80 else 1 for ch in TAGS.sub("", text))


def figures(gpus: int, lang: str) -> list[tuple[str, go.Figure]]:
    plans = compare(scenario=Scenario(gpus=gpus), catalog=CATALOG)
    names = {p.design_id: p.design_name for p in plans}
    return [
        ("compare_bars", charts.compare_bars(plans, lang, names)),
        ("cost_stack", charts.cost_stack(plans, lang, names)),
        ("busbw", charts.busbw_curve(plans, lang, names)),
        ("latency", charts.latency_breakdown(plans[0], lang)),
        ("racks", charts.rack_layout(plans[0], lang)),
    ]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("gpus", [8, 1024])
def test_titles_and_notes_fit_the_narrowest_chart(gpus: int, lang: str) -> None:
    for name, fig in figures(gpus, lang):
        title = str(fig.layout.title.text or "")
        assert all(width(line) <= charts.TITLE_WIDTH for line in title.split("<br>")), (name, title)
        notes = [str(a.text) for a in fig.layout.annotations if a.yref == "paper" and a.yanchor == "bottom"]
        for note in notes:
            assert all(width(line) <= charts.NOTE_WIDTH for line in note.split("<br>")), (name, note)


def test_a_long_title_is_broken_at_spaces_with_room_above_the_plot() -> None:
    """The 1,024-GPU rack chart's title: every word kept, broken between words, and the top
    margin one title line (20 px) taller."""
    fig = charts.rack_layout(compare(scenario=Scenario(), catalog=CATALOG)[0], "en")
    title = str(fig.layout.title.text)
    assert title.replace("<br>", " ") == (
        "Power per rack: 26 compute racks (5 servers each when full), 5 network racks"
    )
    assert title.count("<br>") == 1 and fig.layout.margin.t == 50 + charts.TITLE_LINE_PX


def test_notes_above_the_plot_stack_by_their_lines() -> None:
    """Two coincidence notes, the first broken over two lines: the second sits above both of
    its lines, and the margin holds three note lines."""
    fig = charts.styled(go.Figure(), "t")
    long: dict[str, object] = {"text": "a " * 50 + "<br>b", "yanchor": "bottom"}
    short: dict[str, object] = {"text": "c", "yanchor": "bottom"}
    charts._with_notes(fig, [long, short])
    first, second = fig.layout.annotations
    assert (first.yshift, second.yshift) == (4, 4 + 2 * charts.NOTE_LINE_PX)
    assert fig.layout.margin.t == 50 + 3 * charts.NOTE_LINE_PX
