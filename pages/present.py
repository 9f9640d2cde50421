"""Presentation: what the customer should see on the projector, in large type: the headline
figures at the offered prices, the recommendation and the comparison of the designs."""

from __future__ import annotations

from ui import engine, widgets, workshop
from ui.views import overview, present

workshop.exit_present_button()
plan = widgets.require_plan("page.present", title=present.title())
present.headline(plan)
overview.recommendation(plan)
plans = widgets.computed(engine.compare_plans, plan.scenario, plan)
present.comparison(plans)
