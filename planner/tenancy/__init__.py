"""Multi-tenant supernode: tenants placed on a plan's fabric with isolation and bandwidth
guarantees, their chargeback, the same tenant set across designs, and a job-mix simulation.

Modules: ``tenants`` (the tenant file), ``fabric`` (the plan as placement sees it, named with the
hand-off's device ids), ``place`` (the allocator and its results), ``run`` (plan, place and compare
designs), ``jobs`` (synthetic and imported job streams), ``simulate`` (the event loop).

Layers: above ``planner.handoff`` (device ids) and ``planner.engine``, below ``planner.report``.
See docs/model.md, "Multi-tenant supernode".
"""

from __future__ import annotations
