"""Layout: racks in rows, one elevation per rack type, and the hand-off downloads."""

from __future__ import annotations

from ui import widgets
from ui.views import layout

plan = widgets.require_plan("page.layout")
params = layout.floor_inputs()
handoff = layout.handoff(plan, params)
layout.summary(handoff)
layout.downloads(handoff, params)
layout.rows(handoff)
layout.elevations(handoff)
