"""The grid of a design-space sweep: scenario fields by dotted path, each with its values.

A grid file maps scenario fields to the values they take::

    gpus: {start: 64, stop: 1024, step: 64}     # inclusive, as ``planner sweep --sizes``
    design_id: [rail4-npo, rail8-npo, ib-ndr]
    facility.cooling_id: [air, direct_liquid]
    price_overrides_usd.h100_sxm: {start: 20000, stop: 30000, step: 2500}

One key is not a scenario field: ``uncertainty: {samples: N, seed: S}`` (the fields of
:class:`planner.performance.uncertainty.MonteCarloSpec`) adds, to every point, the P10/P50/P90 of
its TCO and cost per GPU-hour under uncertain hardware and electricity prices, as the Monte Carlo
of ``planner workload --monte-carlo`` draws them (columns ``cost.tco_usd.p10`` ...). It is a
setting, not an axis: the point count stays the same, each point costs five more plans (one per
price input, the response being exactly linear), and every point draws the same samples (one
seed), so the spread between two points is not sampling noise.

The points are the Cartesian product of the fields, the last field varying fastest (as
:func:`itertools.product`). A point is addressed by its index, so a batch of points is two
integers and the grid is never materialised: ``count = prod_k n_k`` and point ``i`` takes value
``(i // prod_{j>k} n_j) mod n_k`` of field ``k``.

Every value is checked before any point is planned (a list's every value, a range's first and
last), so a bad grid fails at once with one line naming the field, not after hours on a cluster.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, get_args

from pydantic import BaseModel, ConfigDict, StrictBool, StrictFloat, StrictInt, ValidationError

from planner.catalog import Catalog
from planner.catalog.schema import FAMILIES
from planner.errors import InputError, shorten
from planner.files import read_mapping
from planner.i18n.message import msg
from planner.inputs import parse
from planner.inputs.scenario import Scenario, scenario_from_data
from planner.performance.uncertainty import MonteCarloSpec

MAX_POINTS = 1_000_000_000
"""Largest grid planned without ``--yes`` [points]: 1e9 plans at ~3 ms each is ~35 CPU-days."""

UNCERTAINTY = "uncertainty"
"""The grid key of the price Monte Carlo (a setting of every point, not a scenario field)."""

PRICES = "price_overrides_usd"
"""The scenario field whose keys are catalog ids: ``price_overrides_usd.<id>`` is one grid field."""

GRID_FILE = msg("grid file")

Scalar = StrictBool | StrictInt | StrictFloat | str | None
"""One value of a field; bool before int so that ``true`` stays a bool."""


class Range(BaseModel):
    """``{start, stop, step}``: ``start, start + step, ...`` up to and including ``stop``."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    start: StrictInt | StrictFloat
    stop: StrictInt | StrictFloat
    step: StrictInt | StrictFloat

    @property
    def integral(self) -> bool:
        """Whole numbers only: the values stay ``int`` (a GPU count must be one)."""
        return all(isinstance(v, int) for v in (self.start, self.stop, self.step))

    def count(self) -> int:
        """Number of values: ``floor((stop - start) / step) + 1``, 0 when empty.

        A float range allows a relative 1e-9 of rounding, so ``0.1..0.3 step 0.1`` has 3 values.
        """
        if self.step <= 0 or self.stop < self.start:
            return 0
        if self.integral:
            return int((int(self.stop) - int(self.start)) // int(self.step)) + 1
        return math.floor((self.stop - self.start) / self.step * (1 + 1e-12) + 1e-9) + 1

    def value(self, index: int) -> int | float:
        """The ``index``-th value (0-based); floats rounded to 12 significant digits."""
        if self.integral:
            return int(self.start) + index * int(self.step)
        return float(f"{self.start + index * self.step:.12g}")


Axis = list[Scalar] | Range


class GridFile(BaseModel):
    """A grid as read from its file: dotted scenario field -> a list of values or a range."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    fields: dict[str, Axis]


@dataclass(frozen=True)
class Grid:
    """A checked grid: its fields in file order, each with its values (list or range)."""

    paths: tuple[str, ...]
    axes: tuple[tuple[Scalar, ...] | Range, ...]
    uncertainty: MonteCarloSpec | None = None
    """The price Monte Carlo run at every point, if the grid asks for it."""

    def sizes(self) -> tuple[int, ...]:
        """Values per field [count]."""
        return tuple(len(a) if isinstance(a, tuple) else a.count() for a in self.axes)

    def count(self) -> int:
        """Points in the grid: the product of :meth:`sizes`."""
        return math.prod(self.sizes())

    def point(self, index: int) -> dict[str, Scalar]:
        """Field -> value of point ``index`` (the last field varies fastest)."""
        values: list[Scalar] = []
        rest = index
        for axis, size in zip(reversed(self.axes), reversed(self.sizes()), strict=True):
            rest, digit = divmod(rest, size)
            values.append(axis[digit] if isinstance(axis, tuple) else axis.value(digit))
        return dict(zip(self.paths, reversed(values), strict=True))


def scenario_data(base: Mapping[str, Any], point: Mapping[str, Scalar]) -> dict[str, Any]:
    """``base`` (a scenario's ``model_dump()``) with each dotted field of ``point`` set.

    Only the mappings along each path are copied, so the base stays untouched and a point costs
    microseconds, not a deep copy.

    Parameters
    ----------
    base : Mapping[str, Any]
        A scenario as plain data (each field in the unit its name says).
    point : Mapping[str, Scalar]
        Dotted field (``facility.pue``) to value, in the field's unit.

    Returns
    -------
    dict[str, Any]
        The scenario data of the point, to validate with
        :func:`planner.inputs.scenario.scenario_from_data`.
    """
    data = dict(base)
    for path, value in point.items():
        *parents, leaf = path.split(".")
        node = data
        for part in parents:
            child = dict(node.get(part) or {})
            node[part] = child
            node = child
        node[leaf] = value
    return data


def _model_of(annotation: Any) -> type[BaseModel] | None:
    """The pydantic model inside a field's type (``Facility``, ``FabricParams | None``), if any."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in get_args(annotation):
        found = _model_of(arg)
        if found is not None:
            return found
    return None


def _check_path(path: str, *, source: str, catalog: Catalog) -> None:
    """Raise :class:`InputError` unless ``path`` names one scenario field (or a priced id)."""
    parts = path.split(".")
    model: type[BaseModel] = Scenario
    for depth, part in enumerate(parts):
        if model is Scenario and part == PRICES:
            record_id = ".".join(parts[depth + 1 :])
            if not record_id or not any(record_id in catalog.family(f) for f in FAMILIES):
                raise InputError(
                    msg(
                        "{source}: {field}: not a field; name a catalog id as price_overrides_usd.<id>",
                        source=source,
                        field=shorten(path),
                    )
                )
            return
        field = model.model_fields.get(part)
        if field is None:
            raise InputError(
                msg(
                    "{source}: {field}: unknown scenario field (known here: {known})",
                    source=source,
                    field=shorten(path),
                    known=", ".join(model.model_fields),
                )
            )
        inner = _model_of(field.annotation)
        if depth == len(parts) - 1:
            if inner is not None:
                raise InputError(
                    msg(
                        "{source}: {field}: a group of fields; name one of them ({known})",
                        source=source,
                        field=shorten(path),
                        known=", ".join(inner.model_fields),
                    )
                )
            return
        if inner is None:
            raise InputError(
                msg(
                    "{source}: {field}: unknown scenario field ({parent} has no sub-fields)",
                    source=source,
                    field=shorten(path),
                    parent=".".join(parts[: depth + 1]),
                )
            )
        model = inner


def _axis(path: str, raw: Any, *, source: str) -> tuple[Scalar, ...] | Range:
    try:
        axis = GridFile.model_validate({"fields": {path: raw}}).fields[path]
    except ValidationError:
        raise InputError(
            msg(
                "{source}: {field}: give a list of values or {{start, stop, step}}",
                source=source,
                field=shorten(path),
            )
        ) from None
    if isinstance(axis, Range):
        if axis.count() == 0:
            raise InputError(
                msg(
                    "{source}: {field}: empty range (start {start}, stop {stop}, step {step}; "
                    "step must be > 0 and stop >= start)",
                    source=source,
                    field=shorten(path),
                    start=axis.start,
                    stop=axis.stop,
                    step=axis.step,
                )
            )
        return axis
    if not axis:
        raise InputError(msg("{source}: {field}: empty list of values", source=source, field=shorten(path)))
    return tuple(axis)


def _uncertainty(raw: Any, *, source: str) -> MonteCarloSpec:
    """The ``uncertainty`` setting; one line naming its bad field otherwise."""
    if not isinstance(raw, Mapping):
        raise InputError(
            msg(
                "{source}: uncertainty: give a mapping such as {{samples: 1000, seed: 0}} (fields: {known})",
                source=source,
                known=", ".join(MonteCarloSpec.model_fields),
            )
        )
    return parse(MonteCarloSpec, raw, source=msg("{source}: uncertainty", source=source))


def _check_values(grid: Grid, *, base: Mapping[str, Any], source: str) -> None:
    """Plan-free check of every listed value and each range's first and last value against the
    scenario model (the values between lie between them)."""
    for path, axis in zip(grid.paths, grid.axes, strict=True):
        ends = (axis.value(0), axis.value(axis.count() - 1)) if isinstance(axis, Range) else ()
        values: Sequence[Scalar] = axis if isinstance(axis, tuple) else ends
        for value in values:
            scenario_from_data(scenario_data(base, {path: value}), source=source)


def grid_from_data(
    data: Any,
    *,
    base: Scenario,
    catalog: Catalog,
    source: str = GRID_FILE,
    max_points: int | None = MAX_POINTS,
) -> Grid:
    """Check a grid mapping against the scenario model and the catalog.

    Parameters
    ----------
    data
        The parsed grid file: dotted field -> list or ``{start, stop, step}``.
    base
        The scenario every point starts from (the CLI's ``--scenario`` and flags).
    catalog
        Where ``price_overrides_usd.<id>`` ids must exist.
    source
        How messages name the grid (its file name).
    max_points
        Largest point count accepted [count]; ``None`` accepts any (``--yes``).

    Returns
    -------
    Grid
        The fields in file order, each with its values (in the field's unit), and the price
        Monte Carlo when the grid asks for one.

    Raises
    ------
    InputError
        One line naming the field: unknown field, empty range or list, a value the scenario
        refuses, or more than ``max_points`` points.
    """
    if not isinstance(data, Mapping) or not data:
        raise InputError(msg("{source}: a mapping of scenario fields to values is required", source=source))
    base_data = base.model_dump()
    paths: list[str] = []
    axes: list[tuple[Scalar, ...] | Range] = []
    uncertainty = _uncertainty(data.get(UNCERTAINTY), source=source) if UNCERTAINTY in data else None
    for key, raw in data.items():
        path = str(key)
        if path == UNCERTAINTY:
            continue
        _check_path(path, source=source, catalog=catalog)
        paths.append(path)
        axes.append(_axis(path, raw, source=source))
    if not paths:
        raise InputError(msg("{source}: a mapping of scenario fields to values is required", source=source))
    grid = Grid(paths=tuple(paths), axes=tuple(axes), uncertainty=uncertainty)
    count = grid.count()
    if max_points is not None and count > max_points:
        largest = max(zip(grid.sizes(), grid.paths, strict=True))
        raise InputError(
            msg(
                "{source}: {field}: {size} values make the grid {count} points, over {limit}; "
                "narrow it or pass --yes",
                source=source,
                field=shorten(largest[1]),
                count=f"{count:.3g}",
                size=f"{largest[0]:,}",
                limit=f"{max_points:.0e}",
            )
        )
    _check_values(grid, base=base_data, source=source)
    return grid


def load_grid(
    path: str | Path, *, base: Scenario, catalog: Catalog, max_points: int | None = MAX_POINTS
) -> Grid:
    """Read and check a grid file (YAML or JSON); see :func:`grid_from_data`.

    Parameters
    ----------
    path : str or Path
        The grid file.
    base : Scenario
        The scenario every point starts from.
    catalog : Catalog
        Where price-override ids must exist.
    max_points : int or None
        Largest point count accepted [count]; ``None`` accepts any.

    Returns
    -------
    Grid
        The checked grid.

    Raises
    ------
    InputError
        The file cannot be read or parsed, or the grid is refused (names the field).
    """
    file = Path(path)
    data = read_mapping(file, what=GRID_FILE, error=InputError)
    return grid_from_data(data, base=base, catalog=catalog, source=str(file), max_points=max_points)
