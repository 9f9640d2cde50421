"""Options and helpers every ``planner`` subcommand shares: the parser class, the scenario options,
``--format``, and turning parsed options into a scenario and a catalog.

Light on purpose: building the parser imports this module, so it imports only the standard
library at module level; the engine (pydantic, YAML, pandas) is imported inside the functions
that run after parsing. See ``docs/architecture.md`` (the CLI sits on top of the engine).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, NoReturn, TypeVar

if TYPE_CHECKING:
    import pandas as pd
    from pydantic import BaseModel

    from planner.catalog import Catalog
    from planner.engine import Plan
    from planner.inputs import Declared
    from planner.inputs.scenario import Scenario

M = TypeVar("M", bound="BaseModel")
R = TypeVar("R")
T = TypeVar("T")

CATALOG_DEFAULT = "%(catalog_default)s"
"""Stands in a generated help text for a default the catalog holds: :class:`HelpFormatter` reads
the value when the help is shown, so the help never repeats a number an override can change."""

EXIT_BAD_INPUT = 2
"""Exit code of bad input: one line on stderr naming the field and the allowed range."""

MAX_GPUS_TEXT = "1048576"
"""``planner.inputs.scenario.MAX_GPUS`` as shown in help texts (tests/test_cli_startup.py keeps them equal;
importing the scenario module would load pydantic just to print ``--help``)."""


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Examples (see :func:`examples`) keep their lines; other descriptions wrap to the terminal; a
    default the catalog holds is read from the bundled catalog when the help is shown."""

    def _expand_help(self, action: argparse.Action) -> str:
        rule = getattr(action, "catalog_rule", None)
        if rule is None:
            return super()._expand_help(action)
        params = {**vars(action), "prog": self._prog, "catalog_default": catalog_rule_text(rule)}
        return str(self._get_help_string(action) or "") % params

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if text.startswith(EXAMPLES_HEADING):
            return super()._fill_text(text, width, indent)
        return argparse.HelpFormatter._fill_text(self, text, width, indent)


def error_line(text: str) -> str:
    """The line a failed command writes on stderr, the same for every command.

    Parameters
    ----------
    text : str
        What went wrong (one line).

    Returns
    -------
    str
        ``planner: error: <text>`` and a newline.
    """
    return f"planner: error: {text}\n"


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit with :data:`EXIT_BAD_INPUT`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, error_line(message))


EXAMPLES_HEADING = "examples:\n"


def examples(*lines: str) -> str:
    """An ``epilog`` listing example command lines, one a line.

    Parameters
    ----------
    *lines : str
        Command lines.

    Returns
    -------
    str
        The epilog text.
    """
    return EXAMPLES_HEADING + "\n".join(f"  {line}" for line in lines)


def add_command(
    subparsers: Any,
    name: str,
    *,
    help_text: str,
    example_lines: Sequence[str] = (),
    doc: str | None = None,
    scenario: Literal["design", "designs"] | None = None,
    handler: Callable[[argparse.Namespace], int] | None = None,
    **kwargs: Any,
) -> argparse.ArgumentParser:
    """A subcommand with its one-line help (also its description) and an examples epilog: the
    ``example_lines``, or the lines of ``doc``'s (the module docstring's) ``Examples::`` block that
    run this command, so that the module's documentation and ``--help`` show the same examples.

    ``scenario`` adds the scenario's options first (:func:`add_scenario_options`), with ``--design``
    (``"design"``) or with ``--designs`` (``"designs"``, :func:`add_designs_option`); ``handler``
    runs the command.

    Parameters
    ----------
    subparsers : Any
        The parent parser's subparsers action.
    name : str
        Command name.
    help_text : str
        One-line help.
    example_lines : Sequence[str]
        Example command lines (ignored when ``doc`` is given).
    doc : str or None
        Module docstring holding an ``Examples::`` block.
    scenario : {"design", "designs"} or None
        Which scenario options to add; ``None`` for none.
    handler : Callable[[argparse.Namespace], int] or None
        Function that runs the command and returns its exit status.
    **kwargs : Any
        Passed to ``add_parser``.

    Returns
    -------
    argparse.ArgumentParser
        The command's parser.
    """
    kwargs.setdefault("description", help_text)
    if doc is not None:
        example_lines = documented_examples(doc, f"{subparsers._prog_prefix} {name}")
    parser: argparse.ArgumentParser = subparsers.add_parser(
        name, help=help_text, epilog=examples(*example_lines), **kwargs
    )
    if scenario is not None:
        add_scenario_options(parser, design=scenario == "design")
    if scenario == "designs":
        add_designs_option(parser)
    if handler is not None:
        parser.set_defaults(handler=handler)
    return parser


def documented_examples(doc: str, command: str) -> list[str]:
    """The command lines of ``doc``'s ``Examples::`` block that start with ``command`` (a line
    ending in a backslash continues on the next).

    Parameters
    ----------
    doc : str
        A module docstring.
    command : str
        Command prefix, e.g. ``planner plan``.

    Returns
    -------
    list[str]
        The matching command lines, continuations joined.

    >>> doc = "\\n".join(["Examples::", "", "    planner a --x 1", "    planner ab", "    planner a"])
    >>> documented_examples(doc, "planner a")
    ['planner a --x 1', 'planner a']
    """
    block = doc.partition("Examples::\n")[2]
    lines: list[str] = []
    for raw in block.splitlines()[1:]:
        if raw and not raw.startswith("    "):
            break
        text = raw.strip()
        if lines and lines[-1].endswith("\\"):
            lines[-1] = lines[-1].rstrip("\\").rstrip() + " " + text
        elif text:
            lines.append(text)
    return [line for line in lines if line == command or line.startswith(command + " ")]


def catalog_rule_text(rule_id: str) -> str:
    """The value of a ``sizing_rules`` record of the bundled catalog, as help texts show it.

    Parameters
    ----------
    rule_id : str
        Sizing rule id.

    Returns
    -------
    str
        ``now <value>`` (the rule's unit) or ``missing``.
    """
    from planner.catalog import load_catalog

    rule = load_catalog().sizing_rules.get(rule_id)
    return "missing" if rule is None else f"now {rule.value:g}"


def gpu_count(text: str) -> int:
    """``--gpus``: a whole number of GPUs within the engine's range.

    Parameters
    ----------
    text : str
        The option's text.

    Returns
    -------
    int
        GPUs, 1 to ``MAX_GPUS`` [count].
    """
    from planner.errors import InputError
    from planner.files import parse_whole
    from planner.inputs.scenario import MAX_GPUS

    try:
        value = parse_whole(text, field="gpus")  # ASCII digits only: "１２８" and " 12 " are refused
    except InputError:
        raise argparse.ArgumentTypeError(
            f"gpus must be a whole number between 1 and {MAX_GPUS} in ASCII digits 0-9 (got {text!r})"
        ) from None
    if not 1 <= value <= MAX_GPUS:
        raise argparse.ArgumentTypeError(f"gpus must be between 1 and {MAX_GPUS} (got {value})")
    return value


def positive_int(text: str) -> int:
    """An argparse ``type=`` for a count of at least 1 in ASCII digits, as :func:`gpu_count` and
    :func:`strict_number` read numbers (``+5``, ``１２``, `` 12 `` and ``1_000`` are refused).

    Parameters
    ----------
    text : str
        The option's text.

    Returns
    -------
    int
        The count, at least 1 [count].

    Examples
    --------
    >>> positive_int("12")
    12
    >>> positive_int("+5")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: must be a whole number >= 1 (got '+5')
    """
    if not text.isascii() or not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number >= 1 (got {text!r})")
    return int(text)


def add_scenario_options(parser: argparse.ArgumentParser, *, design: bool = True) -> None:
    """The options that describe a scenario (the facility's and the pools' generated from
    :class:`~planner.inputs.scenario.Scenario`); :func:`scenario_from_args` reads them back.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The command's parser (options added).
    design : bool
        Add ``--design``.
    """
    from planner.inputs.scenario import Scenario

    group = parser.add_argument_group("scenario")
    group.add_argument(
        "--gpus", type=gpu_count, help=f"GPU count (1 to {MAX_GPUS_TEXT}; 8-1024 is the focus)"
    )
    if design:
        group.add_argument("--design", help="design preset id (rail4-npo, rail8-npo, ib-ndr, ...)")
    group.add_argument("--gpu", help="GPU catalog id (default: the design's GPU)")
    group.add_argument("--server", help="server catalog id (default: the GPU's server)")
    group.add_argument("--scenario", metavar="FILE", help="scenario YAML/JSON file; flags override it")
    add_catalog_option(group)
    add_model_options(parser, Scenario, "", skip=_POOLS, group=group)
    add_model_options(parser, Scenario, "pools (sized independently of the GPU count)", only=_POOLS)


_POOLS = "pools."
"""The disaggregated pools' targets (docs/model.md, "Disaggregated pools"), an option group of their own."""


def add_catalog_option(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """``--catalog FILE``, repeatable; :func:`catalog_from_args` applies the files.

    Parameters
    ----------
    parser : argparse.ArgumentParser or argparse._ArgumentGroup
        Where the option is added.
    """
    parser.add_argument(
        "--catalog",
        metavar="FILE",
        action="append",
        default=[],
        help="catalog override file (YAML/JSON), may be repeated",
    )


def add_designs_option(
    parser: argparse.ArgumentParser, *, help_text: str = "comma list of design ids"
) -> None:
    """``--designs a,b,c``; :func:`design_ids_from_args` reads it (default: the preset designs).

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The command's parser.
    help_text : str
        Help text (the default is appended).
    """
    parser.add_argument("--designs", help=f"{help_text} (default: the preset designs)")


def add_side_by_side_designs_option(parser: argparse.ArgumentParser) -> None:
    """``--designs a,b,c`` of a command that evaluates one scenario per design: the same scenario
    and GPU on each listed design (:func:`plans_from_args`), the scenario's own design without it.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The command's parser.
    """
    parser.add_argument("--designs", help="comma list of design ids, side by side with the same GPU")


def add_format_option(parser: argparse.ArgumentParser, choices: Sequence[str]) -> None:
    """``--format``, defaulting to the first choice.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The command's parser.
    choices : Sequence[str]
        Formats, the first the default.
    """
    parser.add_argument(
        "--format", choices=list(choices), default=choices[0], help=f"output format (default {choices[0]})"
    )


def _help_text(item: Declared) -> str:
    """``--help`` of a generated option: the field's description, its range and its default (a
    catalog default is read from the catalog when the help is shown, see :class:`HelpFormatter`).

    The description's ``"; empty = X"`` (what the engine does without a value) becomes the default.
    """
    text, _, empty = item.description.rstrip(".").partition("; empty = ")
    if item.spec.negative_flag:
        text = f"turn off: {text}"
    extras = [item.spec.cli_note] if item.spec.cli_note else []
    if item.kind == "choice":
        extras.append("one of " + ", ".join(item.choices))
    elif item.lo is not None or item.hi is not None:
        extras.append(f"{_plain(item.lo, '-inf')} to {_plain(item.hi, 'inf')}")
    if item.spec.catalog_rule:
        extras.append(f"default: the catalog's {item.spec.catalog_rule}, {CATALOG_DEFAULT}")
    elif empty:
        extras.append(f"default: {empty}")
    elif item.kind != "bool" and item.default is not None:
        extras.append(f"default {_plain(item.default, '')}")
    text = (text + (f" ({'; '.join(extras)})" if extras else "")).replace("%", "%%")
    return text.replace(f"%%{CATALOG_DEFAULT[1:]}", CATALOG_DEFAULT)


def _plain(value: Any, none: str) -> str:
    if value is None:
        return none
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < 1e15 else f"{value:g}"
    return str(value)


def strict_number(flag: str, *, whole: bool = False) -> Callable[[str], Any]:
    """An argparse ``type=`` that reads ASCII decimal numbers only (``planner.files.parse_decimal``;
    ``１２８``, ``1_000`` or `` 12 `` exit 2 with one line naming ``flag``), imported when an option is
    given, so that ``--help`` stays light.

    Parameters
    ----------
    flag : str
        The option, named in errors.
    whole : bool
        Accept whole numbers only.

    Returns
    -------
    Callable[[str], Any]
        Converter from text to ``int`` or ``float``.
    """

    def convert(text: str) -> Any:
        from planner.files import argparse_number

        try:
            return argparse_number(flag, whole=whole)(text)
        except argparse.ArgumentTypeError as exc:  # argparse names the option itself
            raise argparse.ArgumentTypeError(str(exc).removeprefix(f"{flag}: ")) from None

    convert.__name__ = "whole number" if whole else "number"
    return convert


def add_number_option(
    parser: argparse.ArgumentParser | argparse._ArgumentGroup,
    flag: str,
    *,
    default: float,
    help_text: str,
    whole: bool = False,
    **kwargs: Any,
) -> None:
    """``flag N`` read by :func:`strict_number`, its help ending in ``(default N)``.

    Parameters
    ----------
    parser : argparse.ArgumentParser or argparse._ArgumentGroup
        Where the option is added.
    flag : str
        The option.
    default : float
        Default value (the option's unit).
    help_text : str
        Help text.
    whole : bool
        Accept whole numbers only.
    **kwargs : Any
        Passed to ``add_argument``.
    """
    parser.add_argument(
        flag,
        type=strict_number(flag, whole=whole),
        default=default,
        help=f"{help_text} (default {_plain(default, '')})",
        **kwargs,
    )


def _option_type(item: Declared, flag: str) -> Callable[[str], Any]:
    if item.kind == "int" or (item.kind == "choice" and all(c.lstrip("-").isdigit() for c in item.choices)):
        return strict_number(flag, whole=True)
    return strict_number(flag) if item.kind == "float" else str


def add_model_options(
    parser: argparse.ArgumentParser,
    model: type[BaseModel],
    title: str,
    *,
    skip: Sequence[str] | str = (),
    only: str = "",
    group: argparse._ArgumentGroup | None = None,
) -> argparse._ArgumentGroup:
    """An argument group (``title``, or ``group``) with one option per field of ``model`` that
    declares a flag (see :class:`planner.inputs.Input`), leaving out the fields in ``skip`` (or,
    a string, under that dotted prefix) and keeping those under ``only``; :func:`model_options`
    reads them back. Returned for further options.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The command's parser.
    model : type[BaseModel]
        Input model whose fields declare flags.
    title : str
        Title of a new group.
    skip : Sequence[str] or str
        Field names, or a dotted prefix, left out.
    only : str
        Dotted prefix of the fields kept; empty keeps all.
    group : argparse._ArgumentGroup or None
        Existing group to add to.

    Returns
    -------
    argparse._ArgumentGroup
        The group.
    """
    from planner.inputs import declared

    group = parser.add_argument_group(title) if group is None else group
    for item in declared(model):
        flag = item.spec.negative_flag or item.spec.flag
        skipped = item.name.startswith(skip) if isinstance(skip, str) else item.name in skip
        if skipped or flag is None or not item.name.startswith(only):
            continue
        dest = f"{model.__name__}.{item.name}"
        if item.kind == "bool":
            action = "store_false" if item.spec.negative_flag else "store_true"
            added = group.add_argument(flag, dest=dest, action=action, default=None, help=_help_text(item))
        else:
            added = group.add_argument(
                flag,
                dest=dest,
                type=_option_type(item, flag),
                help=_help_text(item),
                metavar=_metavar(item),
            )
        added.catalog_rule = item.spec.catalog_rule  # type: ignore[attr-defined]
    return group


def _metavar(item: Declared) -> str:
    if item.kind == "choice":
        return "{" + ",".join(item.choices) + "}"
    return {"int": "N", "float": "X"}.get(item.kind, item.path[-1].upper())


def model_options(args: argparse.Namespace, model: type[BaseModel]) -> dict[str, Any]:
    """The options :func:`add_model_options` added for ``model`` that were given, keyed by field
    (nested fields as nested mappings); an option left out stays out: the model's default.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.
    model : type[BaseModel]
        The input model.

    Returns
    -------
    dict[str, Any]
        Given values by field (the fields' units).
    """
    prefix = f"{model.__name__}."
    data: dict[str, Any] = {}
    for dest, value in sorted(vars(args).items()):
        if dest.startswith(prefix) and value is not None:
            *parents, name = dest.removeprefix(prefix).split(".")
            inner = data
            for parent in parents:
                inner = inner.setdefault(parent, {})
            inner[name] = value
    return data


def model_flags(model: type[BaseModel]) -> dict[str, str]:
    """field -> flag of every option of ``model`` (for :func:`validated_options`).

    Parameters
    ----------
    model : type[BaseModel]
        The input model.

    Returns
    -------
    dict[str, str]
        Flag per field name.
    """
    from planner.inputs import declared

    return {
        d.name: str(d.spec.flag or d.spec.negative_flag)
        for d in declared(model)
        if d.spec.flag or d.spec.negative_flag
    }


def collect_options(args: argparse.Namespace, fields: Sequence[str]) -> dict[str, Any]:
    """The given options among ``fields`` (an option left out stays out: the model's default).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.
    fields : Sequence[str]
        Option destinations.

    Returns
    -------
    dict[str, Any]
        Given values by destination.
    """
    return {f: getattr(args, f) for f in fields if getattr(args, f, None) is not None}


def validated_options(model: type[M], data: Mapping[str, Any], flags: Mapping[str, str] | None = None) -> M:
    """Validate options into ``model``; the one-line error names the flag, the field and the range
    (``flags``: field -> flag; default: the model's declared flags).

    Parameters
    ----------
    model : type[M]
        The input model.
    data : Mapping[str, Any]
        Field values.
    flags : Mapping[str, str] or None
        Flag per field; ``None`` takes the model's.

    Returns
    -------
    M
        The validated model.
    """
    from planner.errors import InputError
    from planner.inputs import parse

    try:
        return parse(model, data)
    except InputError as exc:
        text = with_flags(str(exc), model_flags(model) if flags is None else flags)
        raise InputError(f"options: {text}") from None


def with_flags(text: str, flags: Mapping[str, str]) -> str:
    """An error line with each field it opens a problem with (``field:`` at its start, after
    ``options:`` or after ``;``) named with its option too: ``--max-rows (max_rows):``.

    Parameters
    ----------
    text : str
        Error line.
    flags : Mapping[str, str]
        Flag per field.

    Returns
    -------
    str
        The line with flags named.
    """
    import re

    for field, flag in flags.items():
        text = re.sub(rf"(^|: |; ){re.escape(field)}:", rf"\g<1>{flag} ({field}):", text)
    return text


def read_hf_config(path: str) -> dict[str, Any]:
    """A Hugging Face ``config.json`` as a mapping (empty file: empty mapping); a file that cannot be
    read is an :class:`~planner.errors.InputError` naming it.

    Parameters
    ----------
    path : str
        Path of the file.

    Returns
    -------
    dict[str, Any]
        The config's keys and values.
    """
    from pathlib import Path

    from planner.errors import InputError
    from planner.files import read_mapping
    from planner.i18n.message import msg

    return read_mapping(Path(path), what=msg("Hugging Face model config"), error=InputError) or {}


def options_over_hf_config(
    *,
    args: argparse.Namespace,
    model: type[BaseModel],
    config_fields: Callable[[Mapping[str, Any]], dict[str, Any]],
) -> dict[str, Any]:
    """The fields of ``model`` that ``--hf-config`` gives (none without the option), with the
    options given for ``model`` over them: a flag overrides the file.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (``--hf-config`` and the options of ``model``).
    model : type[BaseModel]
        The input model the options were generated from.
    config_fields : Callable[[Mapping[str, Any]], dict[str, Any]]
        The model's fields a ``config.json`` gives.

    Returns
    -------
    dict[str, Any]
        Field values by name (the fields' units), not yet validated.
    """
    path = getattr(args, "hf_config", None)
    data = config_fields(read_hf_config(path)) if path else {}
    data.update(model_options(args, model))
    return data


def design_ids_from_args(args: argparse.Namespace) -> tuple[str, ...]:
    """The ``--designs`` list, or the preset designs when it is not given.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    tuple[str, ...]
        Design ids.
    """
    if args.designs is None:
        from planner.compare import DEFAULT_DESIGNS

        return tuple(DEFAULT_DESIGNS)
    return tuple(d.strip() for d in args.designs.split(",") if d.strip())


def scenario_from_args(args: argparse.Namespace) -> Scenario:
    """The scenario file (if any) with flags applied on top, validated; a command with the floor
    options (``--row-length-m`` ..., :func:`planner.cli.handoff.add_layout_options`) lays those
    over the file's ``floor``.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    Scenario
        The validated scenario.
    """
    from planner.errors import InputError
    from planner.inputs.layout import LayoutParams
    from planner.inputs.scenario import Scenario, load_scenario, scenario_from_data

    data: dict[str, Any] = load_scenario(args.scenario).model_dump() if args.scenario else {}
    if args.gpus is not None:
        data["gpus"] = args.gpus
    if getattr(args, "design", None):
        data["design_id"] = args.design
        data["fabric"] = None
    if args.gpu:
        data["gpu_id"] = args.gpu
    if args.server:
        data["server_id"] = args.server
    for key, value in model_options(args, Scenario).items():
        data[key] = {**(data.get(key) or {}), **value} if isinstance(value, dict) else value
    floor = model_options(args, LayoutParams)  # a command with the floor options (layout, export)
    if not floor:
        return scenario_from_data(data, source="options")
    data["floor"] = {**(data.get("floor") or {}), **floor}  # over the file's floor, for this command
    try:
        return scenario_from_data(data, source="options")
    except InputError as exc:  # name the option: "--row-length-m (floor.row_length_m): ..."
        flags = {f"floor.{field}": flag for field, flag in model_flags(LayoutParams).items()}
        raise InputError(with_flags(str(exc), flags)) from None


def plans_from_args(args: argparse.Namespace, scenario: Scenario, catalog: Catalog) -> tuple[Plan, ...]:
    """The scenario's plan, or (``--designs a,b``) the same scenario on each listed design.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (``--designs``).
    scenario : Scenario
        The scenario.
    catalog : Catalog
        The catalog.

    Returns
    -------
    tuple[Plan, ...]
        One plan per design.
    """
    from planner.compare import compare
    from planner.engine import plan

    if not args.designs:
        return (plan(scenario=scenario, catalog=catalog),)
    return compare(scenario=scenario, catalog=catalog, design_ids=design_ids_from_args(args))


def plan_and_catalog_from_args(args: argparse.Namespace) -> tuple[Plan, Catalog]:
    """The scenario's plan and the catalog it was planned on, for a command that reads both
    (the catalog is read first: a bad ``--catalog`` file is reported before a bad scenario).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (scenario and ``--catalog`` options).

    Returns
    -------
    tuple[Plan, Catalog]
        The plan and its catalog.
    """
    from planner.engine import plan

    catalog = catalog_from_args(args)
    return plan(scenario=scenario_from_args(args), catalog=catalog), catalog


def catalog_from_args(args: argparse.Namespace) -> Catalog:
    """The bundled catalog with the ``--catalog`` override files applied, then the calibration
    of the ``--scenario`` file, if it carries one (as :func:`planner.engine.plan` applies it).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (``--catalog``, ``--scenario``).

    Returns
    -------
    Catalog
        The catalog.
    """
    from planner.catalog import load_catalog, with_calibration
    from planner.inputs.scenario import load_scenario

    catalog = load_catalog(overrides=args.catalog)
    scenario_file = getattr(args, "scenario", None)
    if not scenario_file:
        return catalog
    return with_calibration(catalog, load_scenario(scenario_file).calibration)


def write(text: str) -> None:
    """Write ``text`` to stdout, ending in exactly one newline.

    Parameters
    ----------
    text : str
        Text to print.
    """
    sys.stdout.write(text if text.endswith("\n") else text + "\n")


def write_json(data: Any) -> None:
    """Write ``data`` as indented JSON (non-ASCII kept as is).

    Parameters
    ----------
    data : Any
        JSON-ready data.
    """
    write(json.dumps(data, indent=2, ensure_ascii=False))


def write_results(
    results: Sequence[R],
    *,
    fmt: str,
    as_list: bool,
    to_dict: Callable[[R], Any],
    render: Callable[[Sequence[R]], str],
) -> None:
    """Per-design results as JSON (``as_list``: a list, else the first result's object) or as the
    text ``render`` makes of them.

    Parameters
    ----------
    results : Sequence[R]
        One result per design.
    fmt : str
        ``json`` or a text format.
    as_list : bool
        JSON as a list of every result.
    to_dict : Callable[[R], Any]
        JSON form of a result.
    render : Callable[[Sequence[R]], str]
        Text form of the results.
    """
    write_result(
        results,
        fmt=fmt,
        to_dict=(lambda rs: [to_dict(r) for r in rs]) if as_list else (lambda rs: to_dict(rs[0])),
        render=render,
    )


def write_result(result: T, *, fmt: str, to_dict: Callable[[T], Any], render: Callable[[T], str]) -> None:
    """A command's result as JSON (``--format json``) or as the text ``render`` makes of it.

    Parameters
    ----------
    result : T
        What the command found.
    fmt : str
        ``json`` or a text format.
    to_dict : Callable[[T], Any]
        JSON form of the result.
    render : Callable[[T], str]
        Text form of the result.
    """
    if fmt == "json":
        write_json(to_dict(result))
    else:
        write(render(result))


def notes_block(notes: Iterable[str]) -> list[str]:
    """The lines that end a per-design table: a blank line, ``Notes:`` and each distinct note once,
    sorted (none without notes).

    Parameters
    ----------
    notes : Iterable[str]
        Notes, repeats allowed.

    Returns
    -------
    list[str]
        The lines.
    """
    distinct = sorted(set(notes))
    return ["", "Notes:", *(f"  - {n}" for n in distinct)] if distinct else []


def frame_records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """A data frame as JSON-ready records (numpy scalars and NaN made plain by pandas' JSON).

    Parameters
    ----------
    frame : pd.DataFrame
        A data frame.

    Returns
    -------
    list[dict[str, Any]]
        One mapping per row.
    """
    records: list[dict[str, Any]] = json.loads(frame.to_json(orient="records"))
    return records


JSON_DECIMALS = 10
"""Decimal places of a float in JSON records: pandas' ``to_json`` default (``double_precision``),
kept by :func:`plain_records` so the rows a command writes without pandas read the same."""


def plain_records(rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Rows of plain values as :func:`frame_records` writes them, without pandas: a float rounded
    to :data:`JSON_DECIMALS` places, NaN and infinities as ``null``.

    Parameters
    ----------
    rows : Iterable[Mapping[str, Any]]
        Rows of plain values.

    Returns
    -------
    list[dict[str, Any]]
        The rows with floats rounded and non-finite values ``None``.

    >>> plain_records([{"a": 207.04013285140123, "b": float("nan"), "c": 8}])
    [{'a': 207.0401328514, 'b': None, 'c': 8}]
    """
    import math

    def plain(value: Any) -> Any:
        if isinstance(value, float):
            return round(value, JSON_DECIMALS) if math.isfinite(value) else None
        return value

    return [{key: plain(value) for key, value in row.items()} for row in rows]


def designs_as_columns(rows: Sequence[Mapping[str, Any]], formats: Mapping[str, str]) -> str:
    """Rows with one design each (a ``design`` key) as a text table with the designs as columns,
    each figure (row) formatted by ``formats[row]`` (``str.format`` pattern; as it is when missing).

    Plain Python, laid out as pandas' ``DataFrame.to_string`` lays out text (the figure names left
    aligned, the values right aligned, two spaces apart), so the commands that print it need no
    pandas.

    Parameters
    ----------
    rows : Sequence[Mapping[str, Any]]
        One row per design.
    formats : Mapping[str, str]
        Format pattern per figure.

    Returns
    -------
    str
        The table text.

    >>> print(designs_as_columns([{"design": "a", "gpus": 8}, {"design": "bb", "gpus": 1024}], {"gpus": "{:,}"}))
          a     bb
    gpus  8  1,024
    """
    designs = [str(r["design"]) for r in rows]
    figures = [k for k in (rows[0] if rows else {}) if k != "design"]
    cells = [[formats.get(f, "{}").format(r[f]) for r in rows] for f in figures]
    label_width = max((len(f) for f in figures), default=0)
    widths = [max([len(d)] + [len(row[i]) for row in cells]) for i, d in enumerate(designs)]
    lines = [" " * label_width + "".join(f"  {d:>{w}}" for d, w in zip(designs, widths, strict=True))]
    lines += [
        f"{f:<{label_width}}" + "".join(f"  {c:>{w}}" for c, w in zip(row, widths, strict=True))
        for f, row in zip(figures, cells, strict=True)
    ]
    return "\n".join(lines)


def emit_frame(frame: pd.DataFrame, fmt: str) -> str:
    """A data frame as CSV, a JSON list of records, or an aligned text table.

    Parameters
    ----------
    frame : pd.DataFrame
        A data frame.
    fmt : str
        ``csv``, ``json`` or ``table``.

    Returns
    -------
    str
        The text (CSV formula-safe).
    """
    import pandas as pd

    if fmt == "csv":
        from planner.sheets import frame_csv

        return frame_csv(frame).rstrip("\n")
    if fmt == "json":
        return json.dumps(frame_records(frame), indent=2, ensure_ascii=False)
    with pd.option_context("display.max_columns", None, "display.width", 200):
        return str(frame.to_string(index=False, float_format=lambda v: f"{v:,.2f}"))


def emit_rows(*, rows: Sequence[Mapping[str, Any]], fmt: str) -> str:
    """Rows of plain values as :func:`emit_frame` writes their frame, for a command that holds
    rows, not a frame (it then needs no pandas of its own).

    Parameters
    ----------
    rows : Sequence[Mapping[str, Any]]
        One mapping per row, the columns in the first row's order.
    fmt : str
        The output format, one of :func:`emit_frame`'s.

    Returns
    -------
    str
        What :func:`emit_frame` writes of the rows.
    """
    import pandas as pd

    return emit_frame(pd.DataFrame(rows), fmt)
