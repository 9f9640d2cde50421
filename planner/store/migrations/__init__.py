"""Alembic migration environment of the scenario store (see :mod:`planner.store.migrate`)."""
