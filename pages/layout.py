"""Layout: the floor (scenario inputs), racks in rows, one elevation per rack type, and the
hand-off downloads."""

from __future__ import annotations

from ui import widgets
from ui.views import layout

plan = widgets.require_plan("page.layout")
layout.floor_inputs()
handoff = layout.handoff(plan)
layout.summary(handoff)
layout.downloads(handoff)
layout.rows(handoff)
layout.elevations(handoff)
