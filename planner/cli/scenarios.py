"""``planner scenarios ...``: saved scenarios from the command line.

Subcommands: ``list``, ``show``, ``save``, ``versions``, ``diff``, ``delete``, ``restore``,
``export``, ``import``, ``rename``, ``duplicate``, ``tag``, ``audit``. The database is the one
:func:`planner.store.open_store` picks (``PLANNER_DATABASE_URL``, ``PLANNER_DB_PATH`` or the
per-user SQLite file), or ``--db FILE`` / ``--database-url URL``. The command acts as
``--user``/``--team``/``--role`` (or ``PLANNER_USER``/``PLANNER_TEAM``/``PLANNER_ROLE``;
:func:`planner.access.cli_identity`): the owner of what it saves and the actor of its audit lines.
Against a team database whose login is bound to one user (row-level security,
:mod:`planner.store.rowsecurity`) it acts as that login by default and a claim beyond it exits 2.

Examples: ``planner scenarios --help`` (:data:`EXAMPLES`).

Bad input and stale saves exit with code 2 and one line on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from planner.cli.options import (
    Parser,
    add_catalog_option,
    add_command,
    add_format_option,
    add_scenario_options,
    catalog_from_args,
    error_line,
    positive_int,
    scenario_from_args,
    write,
    write_json,
    write_result,
)

if TYPE_CHECKING:
    from planner.inputs.scenario import Scenario
    from planner.store import SavedScenario, ScenarioDiff, ScenarioStore, ScenarioSummary

EXIT_CONFLICT = 2

Action = Callable[[argparse.Namespace, "ScenarioStore"], int]


_STORE_OPTIONS: tuple[tuple[str, tuple[tuple[str, str, str], ...]], ...] = (
    ("database", (
        ("--db", "FILE",
         "SQLite file (default: $PLANNER_DB_PATH, else ~/.local/share/gpu-cluster-planner/scenarios.db)"),
        ("--database-url", "URL",
         "database URL, e.g. postgresql://user:password@host/db (default: $PLANNER_DATABASE_URL)"),
    )),
    ("who (recorded as owner and in the audit log)", (
        ("--user", "NAME",
         "act as this user, e.g. ann@example.com (default: $PLANNER_USER, else the team "
         "database login's user, else local)"),
        ("--team", "TEAMS",
         "the user's teams, comma-separated; new scenarios are shared with the first "
         "(default: $PLANNER_TEAM, else none)"),
        ("--role", "ROLE",
         "viewer, architect, commercial or admin: what is listed and may be changed, as in "
         "the app (default: $PLANNER_ROLE, else the team database login's role, else admin; "
         "never more than that login holds)"),
    )),
)  # fmt: skip
"""Option groups of every ``scenarios`` command: (title, ((flag, metavar, help), ...))."""


def _add_store_options(parser: argparse.ArgumentParser, *, default: Any) -> None:
    """Which database, and who acts on it (each option given once, before or after the subcommand)."""
    for title, flags in _STORE_OPTIONS:
        group = parser.add_argument_group(title)
        for flag, metavar, help_text in flags:
            group.add_argument(flag, metavar=metavar, default=default, help=help_text)


def add_parser(subparsers: Any) -> None:
    """Register ``planner scenarios`` and its subcommands.

    Parameters
    ----------
    subparsers : Any
        The ``planner`` parser's subparsers action.
    """
    parser = add_command(
        subparsers,
        "scenarios",
        help_text="saved scenarios: list, show, save, versions, diff, delete, restore, export, import",
        description="Saved scenarios in a SQLite file (default) or a PostgreSQL database (team).",
        example_lines=EXAMPLES,
    )
    _add_store_options(parser, default=None)
    sub = parser.add_subparsers(
        dest="scenarios_command", required=True, metavar="COMMAND", parser_class=Parser
    )
    _add_browse_commands(sub)
    _add_edit_commands(sub)
    _add_file_commands(sub)
    parser.set_defaults(handler=run)


EXAMPLES = (
    'planner scenarios save --name "Acme 1024" --gpus 1024 --design rail4-npo --customer Acme',
    "planner scenarios save --id 3 --expected-version 1 --rack-kw 60",
    "planner scenarios save --id 3 --expected-version 2 --calibration override.yaml",
    "planner scenarios list --format json",
    "planner scenarios diff 3@1 3@2",
    "planner scenarios export 3 --output acme.json && planner scenarios import acme.json",
    "planner scenarios --user ann@example.com --team emea list",
)


def _command(sub: Any, name: str, help_text: str, *example_lines: str) -> argparse.ArgumentParser:
    """A ``scenarios`` subcommand; its handler is ``ACTIONS[name]``."""
    p = add_command(sub, name, help_text=help_text, example_lines=example_lines)
    # The database and identity options work before or after the subcommand.
    _add_store_options(p, default=argparse.SUPPRESS)
    return p


def _add_id(parser: argparse.ArgumentParser, *, version: str | None = None) -> None:
    parser.add_argument("id", type=positive_int, help="id of the saved scenario")
    if version is not None:
        parser.add_argument("--version", type=positive_int, help=version)


def _add_browse_commands(sub: Any) -> None:
    """``list``, ``show``, ``versions`` and ``diff``: read-only."""
    p_list = _command(
        sub, "list", "list or search saved scenarios, most recently changed first",
        "planner scenarios list -q acme", "planner scenarios list --deleted --format csv",
    )  # fmt: skip
    p_list.add_argument("--query", "-q", default="", help="text in the name, customer or a tag")
    p_list.add_argument("--tag", help="only scenarios with this tag")
    p_list.add_argument("--customer", help="only scenarios whose customer contains this text")
    state = p_list.add_mutually_exclusive_group()
    state.add_argument(
        "--deleted", action="store_const", dest="state", const="deleted", help="the trash only"
    )
    state.add_argument("--all", action="store_const", dest="state", const="all", help="live and deleted")
    p_list.set_defaults(state="active")
    p_list.add_argument("--limit", type=positive_int, default=200, help="at most this many (1 to 1000)")
    add_format_option(p_list, ["table", "json", "csv"])

    p_show = _command(
        sub, "show", "show one saved scenario (the latest version unless --version)",
        "planner scenarios show 3", "planner scenarios show 3 --version 1 --format json",
    )  # fmt: skip
    _add_id(p_show, version="version to open (default: the latest)")
    add_format_option(p_show, ["table", "json"])

    p_versions = _command(
        sub, "versions", "list the versions of a saved scenario", "planner scenarios versions 3"
    )
    _add_id(p_versions)
    add_format_option(p_versions, ["table", "json"])

    p_diff = _command(
        sub,
        "diff",
        "compare two versions: changed inputs and how the key results moved "
        "(REF is ID or ID@VERSION; one ID compares its last two versions)",
        "planner scenarios diff 3", "planner scenarios diff 3@1 4 --format json",
    )  # fmt: skip
    p_diff.add_argument("refs", nargs="+", metavar="REF", help="ID, ID@VERSION; one or two")
    add_format_option(p_diff, ["table", "json"])


def _add_edit_commands(sub: Any) -> None:
    """``save``, ``delete``, ``restore``, ``rename``, ``duplicate`` and ``tag``."""
    p_save = _command(
        sub, "save", "save a new scenario (--name) or a new version of one (--id)",
        'planner scenarios save --name "Acme 1024" --gpus 1024 --design rail4-npo',
        "planner scenarios save --id 3 --expected-version 1 --rack-kw 60 --comment 'denser racks'",
    )  # fmt: skip
    p_save.add_argument("--name", help="name of the scenario (required for a new one)")
    p_save.add_argument("--id", type=positive_int, help="add a version to this scenario instead")
    p_save.add_argument(
        "--expected-version",
        type=positive_int,
        help="with --id: the version your edit is based on; a newer save makes this a conflict",
    )
    p_save.add_argument("--customer", help="customer name")
    p_save.add_argument("--tag", action="append", help="tag (repeat for several; replaces the tags)")
    p_save.add_argument("--notes", help="free notes")
    p_save.add_argument("--comment", default="", help="what this version changes")
    p_save.add_argument("--author", default="", help="who saves it")
    calibration = p_save.add_mutually_exclusive_group()
    calibration.add_argument(
        "--calibration",
        metavar="FILE",
        help="save this calibration with the scenario (the override planner calibrate --out wrote)",
    )
    calibration.add_argument(
        "--no-calibration", action="store_true", help="remove the scenario's calibration"
    )
    add_scenario_options(p_save)
    add_format_option(p_save, ["text", "json"])

    help_delete = "move a scenario to the trash (restore brings it back)"
    _add_id(_command(sub, "delete", help_delete, "planner scenarios delete 3"))
    help_restore = "bring a scenario back from the trash"
    _add_id(_command(sub, "restore", help_restore, "planner scenarios restore 3"))

    p_rename = _command(
        sub, "rename", "rename a scenario (no new version)", 'planner scenarios rename 3 "Acme pod 2"'
    )
    _add_id(p_rename)
    p_rename.add_argument("name", help="the new name")

    p_duplicate = _command(
        sub, "duplicate", "copy a scenario version into a new scenario; prints its id",
        'planner scenarios duplicate 3 --version 2 --name "Acme what-if"',
    )  # fmt: skip
    _add_id(p_duplicate, version="version to copy (default: the latest)")
    p_duplicate.add_argument("--name", help="name of the copy (default: '<name> (copy)')")

    p_tag = _command(
        sub, "tag", "set a scenario's tags (no new version); no TAG clears them",
        "planner scenarios tag 3 workshop npo", "planner scenarios tag 3",
    )  # fmt: skip
    _add_id(p_tag)
    p_tag.add_argument("tags", nargs="*", metavar="TAG", help="tags to set (none: clear them)")


def _add_file_commands(sub: Any) -> None:
    """``export`` and ``import``: JSON export documents."""
    p_export = _command(
        sub, "export", "write a scenario version as a JSON export document",
        "planner scenarios export 3 --output acme.json",
    )  # fmt: skip
    _add_id(p_export, version="version (default: the latest)")
    p_export.add_argument("--output", "-o", metavar="FILE", help="file to write (default: stdout)")

    p_import = _command(
        sub, "import", "save an exported JSON document as a new scenario; prints its id",
        "planner scenarios import acme.json --name 'Acme (from Bob)'", "cat acme.json | planner scenarios import -",
    )  # fmt: skip
    p_import.add_argument("file", metavar="FILE", help="JSON export document, or - for stdin")
    p_import.add_argument("--name", help="name of the new scenario (default: the document's)")
    p_import.add_argument("--author", default="", help="who imports it")
    add_catalog_option(p_import)  # the import is planned on it, as a save is

    p_audit = _command(
        sub, "audit", "the audit log: every save, import, export, delete and restore (who, what, when)",
        "planner scenarios audit", "planner scenarios audit --format json --limit 50",
    )  # fmt: skip
    p_audit.add_argument(
        "--limit", type=positive_int, default=200, help="newest first, at most this many (1 to 1000)"
    )
    add_format_option(p_audit, ["table", "json"])


def run(args: argparse.Namespace) -> int:
    """Open the store, run the subcommand, close the store.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (store, identity, subcommand).

    Returns
    -------
    int
        The subcommand's exit status, or ``EXIT_CONFLICT`` (2) on a version conflict.
    """
    import os

    from planner.access import cli_identity
    from planner.store import ConflictError, open_store

    action = ACTIONS[args.scenarios_command]
    identity = cli_identity(user=args.user, teams=args.team, role=args.role, env=os.environ)
    with open_store(url=args.database_url, path=args.db) as opened:
        held = opened.credential.held if opened.credential is not None else None
        if held is not None:  # a team database's login bound to one user: its defaults, no more
            identity = cli_identity(
                user=args.user, teams=args.team, role=args.role, env=os.environ, held=held
            )
        store = opened.as_user(identity=identity)
        try:
            return action(args, store)
        except ConflictError as exc:
            sys.stderr.write(
                error_line(
                    f"{exc} (save as new: planner scenarios save --name NAME ...; "
                    f"reload: planner scenarios show {exc.scenario_id})"
                )
            )
            return EXIT_CONFLICT


# -- output helpers --------------------------------------------------------------------------------


def _stamp(value: Any) -> str:
    return "" if value is None else value.strftime("%Y-%m-%d %H:%M UTC")


def _table(rows: list[dict[str, Any]], columns: Sequence[str]) -> str:
    import pandas as pd

    if not rows:
        return "(none)"
    frame = pd.DataFrame(rows, columns=list(columns))
    with pd.option_context("display.max_columns", None, "display.width", 200, "display.max_colwidth", 40):
        return str(frame.to_string(index=False))


def _write_records(
    args: argparse.Namespace, records: Sequence[Any], row: Callable[[Any], dict[str, Any]]
) -> int:
    """``--format json``: each record's own dictionary; else a table of ``row(record)``, its
    columns in the row's order."""
    if args.format == "json":
        write_json([r.to_dict() for r in records])
        return 0
    rows = [row(r) for r in records]
    write(_table(rows, list(rows[0]) if rows else []))
    return 0


def _summary_row(s: ScenarioSummary) -> dict[str, Any]:
    return {
        "id": s.id,
        "name": s.name,
        "customer": s.customer,
        "tags": ", ".join(s.tags),
        "version": s.version,
        "gpus": s.gpus,
        "design": s.design_id,
        "owner": s.owner,
        "team": s.team,
        "updated": _stamp(s.updated_at),
        "deleted": _stamp(s.deleted_at),
    }


def _describe(summary: ScenarioSummary, verb: str) -> str:
    return f"{verb} scenario {summary.id} ({summary.name!r}, version {summary.version})"


# -- subcommands -----------------------------------------------------------------------------------


def _list(args: argparse.Namespace, store: ScenarioStore) -> int:
    found = store.list_scenarios(
        query=args.query, tag=args.tag, customer=args.customer, state=args.state, limit=args.limit
    )
    if args.format == "json":
        write_json([s.to_dict() for s in found])
    elif args.format == "csv":
        import pandas as pd

        from planner.sheets import frame_csv
        from planner.store import ScenarioSummary

        rows = [{**s.to_dict(), "tags": ";".join(s.tags)} for s in found]
        write(frame_csv(pd.DataFrame(rows, columns=list(ScenarioSummary.__dataclass_fields__))))
    else:
        columns = ["id", "name", "customer", "tags", "version", "gpus", "design", "owner", "team", "updated"]
        if args.state != "active":
            columns.append("deleted")
        write(_table([_summary_row(s) for s in found], columns))
    return 0


def _show_dict(saved: SavedScenario) -> dict[str, Any]:
    record = saved.record.to_dict()
    return {
        **record,
        "version": saved.version.version,
        "latest_version": saved.record.version,
        "saved_at": saved.version.to_dict()["saved_at"],
        "author": saved.version.author,
        "comment": saved.version.comment,
        "scenario": saved.scenario.model_dump(mode="json"),
    }


def _show(args: argparse.Namespace, store: ScenarioStore) -> int:
    from planner.inputs.scenario import scenario_to_json

    saved = store.load(scenario_id=args.id, version=args.version, include_deleted=True)
    if args.format == "json":
        write_json(_show_dict(saved))
        return 0
    r, v = saved.record, saved.version
    lines = [
        f"Scenario {r.id}: {r.name}" + ("  [in the trash]" if r.deleted else ""),
        f"Customer   {r.customer or '-'}",
        f"Tags       {', '.join(r.tags) or '-'}",
        f"Version    {v.version} of {r.version}, saved {_stamp(v.saved_at)}"
        + (f" by {v.author}" if v.author else ""),
    ]
    if v.comment:
        lines.append(f"Comment    {v.comment}")
    if r.notes:
        lines.append(f"Notes      {r.notes}")
    if saved.scenario.calibration is not None:
        lines.append(f"Calibrated {saved.scenario.calibration.label}")
    lines += ["", scenario_to_json(saved.scenario)]
    write("\n".join(lines))
    return 0


def _scenario_on_top_of(base: Scenario, args: argparse.Namespace) -> Scenario:
    """The saved scenario with the command's scenario flags applied (a --scenario file replaces it)."""
    from planner.inputs.scenario import scenario_to_json

    if args.scenario:
        return scenario_from_args(args)
    with tempfile.TemporaryDirectory(prefix="planner-") as folder:
        # scenario_from_args layers the flags on a scenario file: hand it the saved scenario.
        path = Path(folder) / "base.json"
        path.write_text(scenario_to_json(base), encoding="utf-8")
        return scenario_from_args(argparse.Namespace(**{**vars(args), "scenario": str(path)}))


def _with_calibration(scenario: Scenario, args: argparse.Namespace) -> Scenario:
    """The scenario with ``--calibration FILE`` set on it, or (``--no-calibration``) none."""
    from planner.inputs.calibration import load_calibration

    if args.calibration:
        calibration = load_calibration(args.calibration)
        mode = calibration.in_switch_reduction
        if mode is not None and scenario.in_switch_reduction != mode:
            # the fitted values reproduce the runs with this reduction only: say so, never silently
            sys.stderr.write(
                f"note: in-switch reduction set to {mode} (was {scenario.in_switch_reduction}): "
                "the calibration was fitted with it\n"
            )
            return scenario.with_updates(calibration=calibration, in_switch_reduction=mode)
        return scenario.with_updates(calibration=calibration)
    if args.no_calibration:
        return scenario.with_updates(calibration=None)
    return scenario


def _save(args: argparse.Namespace, store: ScenarioStore) -> int:
    from planner.engine import plan
    from planner.errors import InputError
    from planner.store.fields import clean_name

    catalog = catalog_from_args(args)
    if args.id is None:
        if args.expected_version is not None:
            raise InputError("save: --expected-version goes with --id (the scenario you edited)")
        if args.name is None:
            raise InputError("save: --name is required for a new scenario (or --id to add a version)")
        scenario = _with_calibration(scenario_from_args(args), args).with_updates(name=clean_name(args.name))
        plan(scenario=scenario, catalog=catalog)  # refuse what cannot be planned, before saving
        saved = store.create(
            name=args.name,
            scenario=scenario,
            customer=args.customer or "",
            tags=args.tag or (),
            notes=args.notes or "",
            author=args.author,
            comment=args.comment,
        )
    else:
        if args.expected_version is None:
            latest = store.get(scenario_id=args.id).version
            raise InputError(
                f"save --id {args.id}: --expected-version is required (the version you edited; "
                f"the latest is {latest})"
            )
        base = store.load(scenario_id=args.id, version=args.expected_version)
        scenario = _with_calibration(_scenario_on_top_of(base.scenario, args), args)
        if args.name is not None:
            scenario = scenario.with_updates(name=clean_name(args.name))
        plan(scenario=scenario, catalog=catalog)
        saved = store.save(
            scenario_id=args.id,
            scenario=scenario,
            expected_version=args.expected_version,
            author=args.author,
            comment=args.comment,
            name=args.name,
            customer=args.customer,
            notes=args.notes,
            tags=args.tag,
        )
    if args.format == "json":
        write_json({"id": saved.id, "version": saved.version.version})
    else:
        write(str(saved.id))
    return 0


def _versions(args: argparse.Namespace, store: ScenarioStore) -> int:
    return _write_records(
        args,
        store.versions(scenario_id=args.id),
        lambda v: {
            "version": v.version,
            "saved": _stamp(v.saved_at),
            "author": v.author,
            "gpus": v.gpus,
            "design": v.design_id,
            "comment": v.comment,
        },
    )


def _parse_ref(text: str) -> tuple[int, int | None]:
    from planner.errors import InputError

    scenario, _, version = text.partition("@")
    try:
        scenario_id = positive_int(scenario)
        return scenario_id, (positive_int(version) if version else None)
    except argparse.ArgumentTypeError:
        raise InputError(f"diff: {text!r} is not ID or ID@VERSION (whole numbers >= 1)") from None


def _value(value: Any) -> str:
    return "(not set)" if value is None else json.dumps(value, ensure_ascii=False)


def _render_diff(diff: ScenarioDiff) -> str:
    a, b = diff.before, diff.after
    lines = [
        f"scenario {a.scenario_id} version {a.version}  ->  scenario {b.scenario_id} version {b.version}",
        "",
    ]
    if diff.inputs:
        lines.append("Inputs changed:")
        width = max(len(c.field) for c in diff.inputs)
        lines += [f"  {c.field:<{width}}  {_value(c.before)} -> {_value(c.after)}" for c in diff.inputs]
    else:
        lines.append("Inputs: no change")
    lines.append("")
    if diff.results_error:
        lines.append(f"Key results: not compared ({diff.results_error})")
    elif not diff.moved_results:
        lines.append("Key results: no change")
    else:
        lines.append("Key results that moved:")
        width = max(len(r.metric) for r in diff.moved_results)
        for r in diff.moved_results:
            share = "" if r.relative_change is None else f" ({r.relative_change:+.1%})"
            lines.append(f"  {r.metric:<{width}}  {r.before:>16,.2f} -> {r.after:>16,.2f}{share}")
        unchanged = len(diff.results) - len(diff.moved_results)
        if unchanged:
            lines.append(f"  ({unchanged} other key results unchanged)")
    return "\n".join(lines)


def _diff(args: argparse.Namespace, store: ScenarioStore) -> int:
    from planner.errors import InputError

    if len(args.refs) > 2:
        raise InputError("diff: give one or two REFs (ID or ID@VERSION)")
    refs = [_parse_ref(r) for r in args.refs]
    if len(refs) == 1:
        scenario_id, version = refs[0]
        if version is None:
            latest = store.get(scenario_id=scenario_id).version
            if latest < 2:
                raise InputError(f"diff: scenario {scenario_id} has one version; nothing to compare")
            refs = [(scenario_id, latest - 1), (scenario_id, latest)]
        else:
            refs.append((scenario_id, None))
    (left_id, left_version), (right_id, right_version) = refs
    diff = store.compare(
        left_id=left_id, left_version=left_version, right_id=right_id, right_version=right_version
    )
    write_result(diff, fmt=args.format, to_dict=lambda d: d.to_dict(), render=_render_diff)
    return 0


def _delete(args: argparse.Namespace, store: ScenarioStore) -> int:
    from planner.errors import InputError

    if store.get(scenario_id=args.id).deleted:  # the store is idempotent; the report says what happened
        raise InputError(f"scenario {args.id}: already in the trash; nothing changed")
    summary = store.delete(scenario_id=args.id)
    write(_describe(summary, "moved to the trash:") + f"; undo with: planner scenarios restore {summary.id}")
    return 0


def _restore(args: argparse.Namespace, store: ScenarioStore) -> int:
    from planner.errors import InputError

    if not store.get(scenario_id=args.id).deleted:
        raise InputError(f"scenario {args.id}: not in the trash; nothing changed")
    write(_describe(store.restore(scenario_id=args.id), "restored"))
    return 0


def _export(args: argparse.Namespace, store: ScenarioStore) -> int:
    from planner.errors import InputError

    text = store.export_json(scenario_id=args.id, version=args.version)
    if args.output:
        from planner.atomic import write_text

        try:
            write_text(args.output, text)
        except OSError as exc:
            raise InputError(f"export: cannot write {args.output} ({exc.strerror})") from None
    else:
        write(text)
    return 0


def _import(args: argparse.Namespace, store: ScenarioStore) -> int:
    from planner.errors import InputError
    from planner.files import read_bytes
    from planner.i18n.message import msg
    from planner.store.exchange import MAX_IMPORT_BYTES

    source = "stdin" if args.file == "-" else args.file
    # bounded reads: one byte over the limit is enough for the store to refuse the document
    if args.file == "-":
        data = sys.stdin.buffer.read(MAX_IMPORT_BYTES + 1)
    else:
        data = read_bytes(
            Path(args.file),
            name=args.file,
            what=msg("scenario export document"),
            error=InputError,
            limit=MAX_IMPORT_BYTES + 1,
        )
    saved = store.import_json(
        text=data, source=source, name=args.name, author=args.author, catalog=catalog_from_args(args)
    )
    write(str(saved.id))
    return 0


def _rename(args: argparse.Namespace, store: ScenarioStore) -> int:
    write(_describe(store.rename(scenario_id=args.id, name=args.name), "renamed"))
    return 0


def _duplicate(args: argparse.Namespace, store: ScenarioStore) -> int:
    saved = store.duplicate(scenario_id=args.id, version=args.version, name=args.name)
    write(str(saved.id))
    return 0


def _audit(args: argparse.Namespace, store: ScenarioStore) -> int:
    return _write_records(
        args,
        store.audit_log(limit=args.limit),
        lambda e: {
            "when": _stamp(e.at),
            "who": e.actor,
            "role": e.role,
            "action": e.action,
            "scenario": "" if e.scenario_id is None else e.scenario_id,
            "version": "" if e.version is None else e.version,
            "detail": e.detail,
        },
    )


def _tag(args: argparse.Namespace, store: ScenarioStore) -> int:
    summary = store.set_tags(scenario_id=args.id, tags=args.tags)
    write(f"scenario {summary.id} tags: {', '.join(summary.tags) or '(none)'}")
    return 0


ACTIONS: dict[str, Action] = {
    "list": _list,
    "show": _show,
    "save": _save,
    "versions": _versions,
    "diff": _diff,
    "delete": _delete,
    "restore": _restore,
    "export": _export,
    "import": _import,
    "rename": _rename,
    "duplicate": _duplicate,
    "tag": _tag,
    "audit": _audit,
}
"""``planner scenarios <name>`` -> its action."""
