"""Read a model's coefficients from the catalog's ``sizing_rules`` family by id.

A model keeps each coefficient as one ``sizing_rules`` record (a value and its unit, with a source
or a reasoned assumption) so that ``--catalog`` overrides it like any other record; see
``data/reliability.yaml`` and ``docs/model.md``.
"""

from __future__ import annotations

from collections.abc import Sequence

from planner.catalog.load import Catalog
from planner.errors import CatalogError
from planner.i18n.message import msg


def rule_values(catalog: Catalog, ids: Sequence[str], *, needed_by: str) -> dict[str, float]:
    """The value of each ``sizing_rules`` record in ``ids``, keyed by id.

    Parameters
    ----------
    catalog
        The catalog the plan was made with (bundled data plus ``--catalog`` overrides).
    ids
        Record ids of the coefficients.
    needed_by
        The model that needs them, named in the error.

    Returns
    -------
    dict[str, float]
        Each record's value, in the unit its record names (``unit`` field, e.g. [1/h], [fraction]).

    Raises
    ------
    CatalogError
        Some records are missing; the message names every one.
    """
    rules = catalog.sizing_rules
    missing = [rule_id for rule_id in ids if rule_id not in rules]
    if missing:
        raise CatalogError(
            msg("{needed_by} needs sizing_rules {ids}", needed_by=needed_by, ids=", ".join(missing))
        )
    return {rule_id: rules[rule_id].value for rule_id in ids}
