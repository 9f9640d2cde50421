"""The Tenants page in both languages: the table, the placement summary and cards, the design
comparison, and a simulation run from the form."""

from __future__ import annotations

import pytest
from apptest import start

from planner.i18n import MISSING, tr


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_tenants_page_places_the_example_and_simulates(lang: str) -> None:
    MISSING.clear()
    at = start("tenants", gpus="1024", design="rail8-npo", lang=lang)
    assert at.title[0].value == tr("page.tenants", lang)
    subheaders = [s.value for s in at.subheader]
    for key in ("tn.editor", "tn.summary", "tn.cards", "tn.map", "tn.compare", "tn.sim"):
        assert tr(key, lang) in subheaders
    # the default four tenants (the README example) fit 1024 GPUs on rail8-npo: no unmet guarantee
    assert [s.value for s in at.success] == [tr("tn.all_met", lang)]
    assert len(at.get("plotly_chart")) == 1  # the placement map
    next(n for n in at.number_input if n.label == tr("tn.sim.jobs", lang)).set_value(300)
    next(b for b in at.button if b.label == tr("tn.sim.run", lang)).click().run()
    assert not at.exception, at.exception
    assert len(at.get("plotly_chart")) == 3  # the map, utilisation and fragmentation over time
    assert not MISSING, MISSING
