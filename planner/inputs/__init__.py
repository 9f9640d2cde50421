"""Every input of the planner, declared once: the pydantic models and what each field is on screen.

A model field is the one declaration of an input. Its type and ``Field(ge=..., le=...,
description=...)`` say what the engine accepts; an :class:`Input` in its ``Annotated`` metadata
says how the command line and the web form offer it (the flag, the form's label and help keys,
the catalog record whose value is its default). The CLI's options (:mod:`planner.cli.options`) and
the web forms (``ui/forms.py``) are generated from these declarations, and :func:`parse` turns
every validation error into the product's one-line message naming the field and its range.
Adding an input is one field here plus its translations. A kind of input that recurs is declared
by one factory (:func:`count_option`, :func:`switch_option`, or a module's own, such as a searched
layout degree) that joins its :class:`Input` to the pydantic ``Field`` (:func:`offered`).

This package sits just above :mod:`planner.errors` and :mod:`planner.i18n`: it imports pydantic
and nothing heavier (see ``docs/architecture.md``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, get_args, get_origin

from pydantic import BaseModel, Field, ValidationError
from pydantic.fields import FieldInfo

from planner.errors import InputError, PlannerError, describe_validation_error, field_bounds, with_source

if TYPE_CHECKING:
    from planner.i18n.message import Message

__all__ = [
    "Declared",
    "Input",
    "count_option",
    "declared",
    "input_of",
    "offered",
    "parse",
    "read_input_file",
    "switch_option",
]

M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True, kw_only=True)
class Input:
    """How one model field is offered to people: put it in ``Annotated[type, Field(...), Input(...)]``.

    Several ``Input`` on one field (a shared ``Annotated`` alias and the field's own) merge, the
    later one's given attributes winning. The unit, range, description and default are the
    field's own (``Field(ge=..., le=..., description="... [unit] ...")``), never repeated here.
    """

    flag: str | None = None
    """Command-line option (``--restart-min``); ``None``: not on the command line."""
    negative_flag: str | None = None
    """For a field that defaults to ``True``: the option that sets it to ``False``."""
    cli_note: str | None = None
    """Extra words for ``--help`` beyond the field's description (``"required unless --hf-config"``)."""
    label: str | None = None
    """UI label key (``ui.po``); ``None``: not in the generated form."""
    help: str | None = None
    """UI help key; defaults to the label key with ``.field.`` read as ``.help.``."""
    group: str | None = None
    """UI group key: the generated form draws fields in groups, in declaration order."""
    catalog_rule: str | None = None
    """Id of the ``sizing_rules`` record whose value is used when the field is left empty; help texts
    read that value from the catalog instead of repeating it."""
    form_default: Any = None
    """The form's starting value when it differs from the model's (a required field's example)."""
    step: float | None = None
    """Form: the number input's step."""
    number_format: str | None = None
    """Form: printf format of the number input (``"%.1f"``)."""
    placeholder: str | None = None
    """Form: key of the text shown in an empty optional field (what the engine does instead)."""
    choices: Mapping[str, str] | None = None
    """Form: choice value -> UI label key, in display order (for a ``Literal`` field)."""
    widget: str | None = None
    """Form: ``radio`` instead of a select box for a choice, ``textarea`` for long text."""

    def merged(self, other: Input) -> Input:
        """This declaration with ``other``'s given (not ``None``) attributes over it."""
        given = {f.name: getattr(other, f.name) for f in dataclasses.fields(other)}
        return dataclasses.replace(self, **{k: v for k, v in given.items() if v is not None})


def input_of(info: FieldInfo) -> Input | None:
    """The merged :class:`Input` declarations of a field, or ``None`` when it has none.

    Parameters
    ----------
    info : FieldInfo
        A pydantic field.

    Returns
    -------
    Input or None
        The field's input declaration, merged over its metadata.
    """
    found: Input | None = None
    for meta in info.metadata:
        if isinstance(meta, Input):
            found = meta if found is None else found.merged(meta)
    return found


def offered(info: Any, spec: Input) -> Any:
    """``info`` (a pydantic ``Field(...)``) offered as ``spec`` says: the :class:`Input` joins the
    field's metadata, as it would from ``Annotated[type, spec] = Field(...)``.

    For a factory that declares one kind of input (a searched layout degree, a latency target) in a
    single call, its shared range and form settings written once; the field's type stays in the
    model.

    Parameters
    ----------
    info : Any
        A pydantic ``Field(...)``.
    spec : Input
        How the field is offered (option flag, form widget, range).

    Returns
    -------
    Any
        ``info``, with ``spec`` in its metadata.

    Raises
    ------
    TypeError
        ``info`` is not a pydantic field.

    Examples
    --------
    >>> from pydantic import BaseModel, Field
    >>> class Job(BaseModel):
    ...     pp: int | None = offered(Field(default=None, ge=1, le=64), Input(flag="--pp"))
    >>> [d.spec.flag for d in declared(Job)], Job(pp=4).pp
    (['--pp'], 4)
    """
    if not isinstance(info, FieldInfo):
        raise TypeError(f"offered() takes a pydantic Field, not {type(info).__name__}")
    info.metadata.append(spec)
    return info


def count_option(flag: str, *, le: int, description: str, ge: int = 1) -> Any:
    """An optional whole number from ``ge`` to ``le`` offered as the command-line option ``flag``
    only; empty means what the description says the engine does instead.

    Parameters
    ----------
    flag : str
        The command-line option (``--pp``).
    le : int
        Largest value allowed [count].
    description : str
        What the number is, and what an empty value means.
    ge : int
        Smallest value allowed [count].

    Returns
    -------
    Any
        The field, default ``None``.
    """
    return offered(Field(default=None, ge=ge, le=le, description=description), Input(flag=flag))


def switch_option(flag: str, *, description: str, label: str | None = None, group: str | None = None) -> Any:
    """A setting that is off unless the command-line option ``flag`` turns it on.

    Parameters
    ----------
    flag : str
        The command-line option that turns it on.
    description : str
        What the setting does.
    label : str or None
        UI label key: with it the generated form offers the setting as a toggle; ``None``: CLI only.
    group : str or None
        UI group key of the toggle.

    Returns
    -------
    Any
        The field, default ``False``.
    """
    return offered(Field(default=False, description=description), Input(flag=flag, label=label, group=group))


@dataclass(frozen=True)
class Declared:
    """One field of a model with its :class:`Input`: where it sits and what it accepts."""

    path: tuple[str, ...]
    """Field names from the top model down (``("facility", "rack_power_limit_kw")``)."""
    info: FieldInfo
    spec: Input
    lo: float | None
    hi: float | None

    @property
    def name(self) -> str:
        """Dotted path, as error messages name the field (``facility.rack_power_limit_kw``)."""
        return ".".join(self.path)

    @property
    def default(self) -> Any:
        """The model's default (``None`` for a required field)."""
        return None if self.info.is_required() else self.info.get_default(call_default_factory=True)

    @property
    def required(self) -> bool:
        return self.info.is_required()

    @property
    def kind(self) -> str:
        """``bool``, ``int``, ``float``, ``choice`` or ``text``: what the value is."""
        kinds = _plain_types(self.info.annotation)
        if kinds == {bool}:
            return "bool"
        if self.spec.choices or _literal_values(self.info.annotation):
            return "choice"
        if kinds <= {int}:
            return "int"
        if kinds <= {int, float}:
            return "float"
        return "text"

    @property
    def choices(self) -> tuple[str, ...]:
        """The allowed values of a choice field, in the declared order."""
        if self.spec.choices:
            return tuple(self.spec.choices)
        return tuple(str(v) for v in _literal_values(self.info.annotation))

    @property
    def description(self) -> str:
        return self.info.description or ""


def _flatten(annotation: Any) -> Iterator[Any]:
    args = get_args(annotation)
    if args and get_origin(annotation) is not None and str(get_origin(annotation)) != "typing.Literal":
        for arg in args:
            yield from _flatten(arg)
    else:
        yield annotation


def _plain_types(annotation: Any) -> set[Any]:
    return {a for a in _flatten(annotation) if a is not type(None)}


def _literal_values(annotation: Any) -> tuple[Any, ...]:
    values: list[Any] = []
    for part in _flatten(annotation):
        if str(get_origin(part)) == "typing.Literal":
            values.extend(get_args(part))
    return tuple(values)


def _submodel(annotation: Any) -> type[BaseModel] | None:
    found = [a for a in _plain_types(annotation) if isinstance(a, type) and issubclass(a, BaseModel)]
    return found[0] if len(found) == 1 else None


def declared(model: type[BaseModel], *, _path: tuple[str, ...] = ()) -> tuple[Declared, ...]:
    """Every field of ``model`` that carries an :class:`Input`, in declaration order, with the fields
    of a sub-model in its place when the sub-model's field carries an (empty) ``Input()`` too.

    Parameters
    ----------
    model : type of BaseModel
        The pydantic model.
    _path : tuple of str
        Field path of ``model`` inside the outer model (set by the recursion only).

    Returns
    -------
    tuple of Declared
        Each input field's path, pydantic field, declaration and range (``lo``, ``hi``, in the
        field's unit; ``None`` where open).

    Examples
    --------
    >>> from planner.inputs.reliability import ReliabilityParams
    >>> [d.spec.flag for d in declared(ReliabilityParams)][:3]
    ['--params-b', '--checkpoint-gbyte', '--checkpoint-bytes-per-param']
    """
    found: list[Declared] = []
    for name, info in model.model_fields.items():
        path = (*_path, name)
        spec = input_of(info)
        if spec is not None and _submodel(info.annotation) is None:
            lo, hi = field_bounds(info)
            found.append(Declared(path=path, info=info, spec=spec, lo=lo, hi=hi))
        sub = _submodel(info.annotation)
        if sub is not None and spec is not None:  # a sub-model's inputs count where its field declares it
            found.extend(declared(sub, _path=path))
    return tuple(found)


def parse(
    model: type[M],
    data: Mapping[str, Any] | object,
    *,
    source: str | None = None,
    prefix: str = "",
    error: type[PlannerError] = InputError,
) -> M:
    """Validate ``data`` into ``model``; any problem is one :class:`InputError` line.

    The line names each bad field (``prefix`` + its dotted path), the value given and the allowed
    range, after ``source`` (a file, ``options``, ``workload``) when one is given.

    Parameters
    ----------
    model
        The pydantic model (frozen, ``extra="forbid"``).
    data
        The values, keyed by field name (anything else is refused with pydantic's message).
    source
        What the values came from, opening the message.
    prefix
        Put before each field name (``"tenants.3."``).
    error
        The error class raised (:class:`~planner.errors.CatalogError` for catalog files).

    Returns
    -------
    M
        The validated model instance.

    Examples
    --------
    >>> from planner.inputs.reliability import ReliabilityParams
    >>> parse(ReliabilityParams, {"params_b": 70}).params_b
    70.0
    >>> parse(ReliabilityParams, {"params_b": 70, "restart_min": -1}, source="options")
    Traceback (most recent call last):
    planner.errors.InputError: options: restart_min: Input should be greater than or equal to 0 (got -1) (allowed: 0 to 1440)
    """
    try:
        return model.model_validate(dict(data) if isinstance(data, Mapping) else data)
    except ValidationError as exc:
        problem = describe_validation_error(exc, model=model, prefix=prefix)
        raise error(problem if source is None else with_source(source, problem)) from None


def given(values: Mapping[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """The entries of ``values`` among ``names`` that are not ``None`` (left out = the default).

    >>> given({"tp": 8, "pp": None, "x": 1}, ["tp", "pp"])
    {'tp': 8}
    """
    return {n: values[n] for n in names if values.get(n) is not None}


def read_input_file(
    source: str | Path | bytes, *, name: str | None = None, what: Message, mapping: bool = True
) -> tuple[Any, str]:
    """The parsed content of an input file (a path, or an upload's bytes named by ``name``) and the
    name messages give it; :class:`~planner.errors.InputError` when it cannot be read or is empty.

    The loaders of scenarios, workloads and calibrations read their files through this one path
    and validate what it returns with their own model.

    Parameters
    ----------
    source : str, Path or bytes
        The file, or an upload's bytes.
    name : str or None
        The upload's file name (used in messages, its suffix picks YAML or JSON); ``None``: the path.
    what : Message
        What the file is, for messages (``msg("scenario file")``).
    mapping : bool
        The file must hold a mapping (``False``: any YAML or JSON value, such as a list).

    Returns
    -------
    tuple of (Any, str)
        The parsed content (never ``None``) and the file's name for messages.

    Raises
    ------
    InputError
        The file cannot be read or parsed, holds no mapping where one is required, or is empty.
    """
    from planner.files import empty_file_error, parse_text, read_bytes, read_mapping  # yaml: when read

    name = name or str(source)
    raw = source if isinstance(source, bytes) else Path(source)
    if mapping:
        data = read_mapping(raw, name=name, what=what, error=InputError)
    else:
        data = parse_text(
            read_bytes(raw, name=name, what=what, error=InputError), name=name, error=InputError
        )
    if data is None:
        raise empty_file_error(name=name, what=what, error=InputError)
    return data, name
