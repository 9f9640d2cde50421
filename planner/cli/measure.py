"""``planner calibrate`` and ``planner accept``: a built cluster's measurements against its plan.

``calibrate`` fits the collective model to nccl-tests runs and writes a catalog override
(``--out``) that ``--catalog`` and the app take; ``accept`` compares the runs with the plan and
prints the verdict, the checks and the suspects (``--pdf``/``--csv`` write the report). A bad
measurement file is one line on stderr naming the file and the line, exit code 2, and nothing is
written. See ``docs/measure.md``.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from planner.cli.options import (
    add_command,
    add_format_option,
    add_scenario_options,
    plan_and_catalog_from_args,
    strict_number,
    write_result,
)

if TYPE_CHECKING:
    from planner.measure.accept import Acceptance
    from planner.measure.calibrate import Calibration


def add_parser(subparsers: Any) -> None:
    """Register ``calibrate`` and ``accept``.

    Parameters
    ----------
    subparsers : Any
        The ``planner`` parser's subparsers action.
    """
    p_cal = add_command(
        subparsers,
        "calibrate",
        help_text="fit the collective model to nccl-tests runs and write a catalog override",
        example_lines=[
            "planner calibrate --nccl all_reduce.txt --gpus 16 --design ib-ndr --out override.yaml",
            "planner plan --gpus 16 --design ib-ndr --catalog override.yaml --format json",
        ],
    )
    _add_measurement_options(p_cal, nccl_required=False)
    group = p_cal.add_argument_group("training log (fits the compute efficiency)")
    group.add_argument(
        "--training",
        metavar="FILE",
        help="Megatron-LM/NeMo log or CSV step,seconds,tokens of a job on every GPU",
    )
    group.add_argument(
        "--params-b",
        type=strict_number("--params-b"),
        metavar="P",
        help="model parameters [billions] (with --training)",
    )
    group.add_argument(
        "--seq-len",
        type=strict_number("--seq-len", whole=True),
        default=4096,
        metavar="S",
        help="sequence length [tokens] (default 4096)",
    )
    p_cal.add_argument("--out", metavar="FILE", required=True, help="catalog override file to write (YAML)")
    p_cal.add_argument(
        "--measured-on",
        metavar="YYYY-MM-DD",
        help="date of the measurements (the override's as_of; default today)",
    )
    add_format_option(p_cal, ("table", "json"))
    p_cal.set_defaults(handler=run_calibrate)

    p_acc = add_command(
        subparsers,
        "accept",
        help_text="compare nccl-tests runs with the plan: verdict, checks per size, suspects",
        example_lines=[
            "planner accept --gpus 16 --design ib-ndr --nccl run1.txt run2.txt --format json",
            "planner accept --gpus 16 --design ib-ndr --nccl runs.txt --pdf acceptance.pdf --lang zh",
        ],
    )
    _add_measurement_options(p_acc)
    p_acc.add_argument(
        "--perftest",
        metavar="FILE",
        nargs="+",
        default=[],
        help="perftest outputs (ib_write_bw, ib_read_lat), one file per host",
    )
    p_acc.add_argument("--pdf", metavar="FILE", help="write the acceptance report as PDF")
    p_acc.add_argument("--csv", metavar="FILE", help="write the checks as CSV (formula-safe)")
    p_acc.add_argument("--lang", choices=["en", "zh"], default="en", help="report language (default en)")
    add_format_option(p_acc, ("table", "json"))
    p_acc.set_defaults(handler=run_accept)


def _add_measurement_options(parser: argparse.ArgumentParser, *, nccl_required: bool = True) -> None:
    add_scenario_options(parser)
    parser.add_argument(
        "--nccl",
        metavar="FILE",
        nargs="+",
        required=nccl_required,
        default=[],
        help="nccl-tests output files (one or more runs each)",
    )


def _plan_and_runs(args: argparse.Namespace) -> tuple[Any, Any, Any, list[Any]]:
    """The plan, its catalog, every run of every ``--nccl`` file, and the files' identities."""
    from pathlib import Path

    from planner.measure.calibrate import InputFile
    from planner.measure.nccl import parse_nccl_tests
    from planner.measure.text import read_lines

    runs: list[Any] = []
    files: list[Any] = []
    for name in args.nccl:
        source = read_lines(Path(name), name=name)
        file_runs = parse_nccl_tests(source)
        runs.extend(file_runs)
        files.append(
            InputFile(
                name=Path(name).name,
                sha256=source.sha256,
                tools=tuple(sorted({r.tool for r in file_runs})),
                hosts=tuple(dict.fromkeys(h for r in file_runs for h in r.hosts)),
            )
        )
    the_plan, catalog = plan_and_catalog_from_args(args)
    return the_plan, catalog, runs, files


def run_calibrate(args: argparse.Namespace) -> int:
    """Fit, then write the override (only once everything succeeded).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (nccl-tests and training files, ``--out``).

    Returns
    -------
    int
        Exit status, 0.
    """
    from planner.atomic import write_text
    from planner.errors import InputError
    from planner.measure.calibrate import calibrate, override_yaml

    if args.measured_on is not None:
        import datetime as dt

        try:
            dt.date.fromisoformat(args.measured_on)
        except ValueError:
            raise InputError(f"--measured-on: {args.measured_on[:30]!r} is not a date YYYY-MM-DD") from None
    if not args.nccl and not args.training:
        raise InputError("calibrate: give --nccl FILE... and/or --training FILE")
    if args.training and args.params_b is None:
        raise InputError("--params-b: required with --training (model parameters in billions)")
    the_plan, catalog, runs, files = _plan_and_runs(args)
    cal = calibrate(plan=the_plan, catalog=catalog, runs=runs, files=files, measured_on=args.measured_on)
    if args.training:
        cal = _with_compute(args, cal, the_plan, catalog)
    write_text(args.out, override_yaml(cal))
    write_result(cal, fmt=args.format, to_dict=calibration_to_dict, render=_calibration_table)
    return 0


def _with_compute(args: argparse.Namespace, cal: Calibration, the_plan: Any, catalog: Any) -> Calibration:
    """The calibration with the compute efficiency fitted from ``--training``."""
    from dataclasses import replace
    from pathlib import Path

    from planner.cli.options import validated_options
    from planner.inputs.training import TrainingJob
    from planner.measure.compute import compute_override, fit_compute_efficiency
    from planner.measure.text import read_lines
    from planner.measure.training import parse_training_log

    source = read_lines(Path(args.training), name=args.training)
    log = parse_training_log(source)
    steps = log.steps[1:] or log.steps
    seqs = [s.sequences if s.sequences is not None else (s.tokens or 0) / args.seq_len for s in steps]
    job = validated_options(
        TrainingJob,
        {
            "params_b": args.params_b,
            "tokens_b": 1.0,
            "seq_len": args.seq_len,
            "global_batch_seqs": max(1, round(sorted(seqs)[len(seqs) // 2])),
        },
        {"params_b": "--params-b", "seq_len": "--seq-len"},
    )
    fit = fit_compute_efficiency(plan=the_plan, catalog=catalog, log=log, job=job)
    provenance = (
        f"measured: training log {Path(args.training).name} (sha256 {source.sha256}, {log.kind}, "
        f"{len(log.steps)} steps) of a {args.params_b:g}B-parameter job on {the_plan.gpus} x {the_plan.gpu_id}; "
        "fitted by planner calibrate (Brent's method, docs/measure.md)"
    )
    record = compute_override(fit, catalog=catalog, source=provenance, as_of=cal.measured_on)
    return replace(cal, compute_rule=record)


def calibration_to_dict(cal: Calibration) -> dict[str, Any]:
    """The calibration as JSON-ready data.

    Parameters
    ----------
    cal : Calibration
        The fitted calibration.

    Returns
    -------
    dict[str, Any]
        Design, GPU, GPUs [count], in-switch reduction, coefficients and residuals.
    """
    return {
        "design": cal.design_id,
        "gpu": cal.gpu_id,
        "gpus": cal.gpus,
        "in_switch_reduction": cal.in_switch_reduction,
        "coefficients": [
            {"name": c.name, "default": c.default, "fitted": c.fitted, "reason": str(c.reason)}
            for c in cal.coefficients
        ],
        "residuals": [
            {
                "file": r.file,
                "collective": r.collective,
                "gpus": r.gpus,
                "size_bytes": r.size_bytes,
                "measured_busbw_gbyte_per_s": r.measured_busbw_gbyte_per_s,
                "fitted_busbw_gbyte_per_s": r.fitted_busbw_gbyte_per_s,
                "residual_fraction": r.residual_fraction,
                "leave_one_out_fraction": r.leave_one_out_fraction,
            }
            for r in cal.residuals
        ],
        "files": [{"name": f.name, "sha256": f.sha256, "hosts": list(f.hosts)} for f in cal.files],
        "compute": dict(cal.compute_rule) if cal.compute_rule is not None else None,
    }


def _calibration_table(cal: Calibration) -> str:
    lines = [f"Calibration of {cal.design_id}, {cal.gpus} x {cal.gpu_id}", ""]
    if cal.in_switch_reduction:
        lines += [
            f"Fitted with in-switch reduction {cal.in_switch_reduction} (the runs say so, or only it "
            f"reproduces them): plan with --in-switch-reduction {cal.in_switch_reduction}",
            "",
        ]
    lines.append("coefficient                 default     fitted")
    for c in cal.coefficients:
        fitted = f"{c.fitted:10.4g}" if c.fitted is not None else f"  not fitted: {c.reason}"
        lines.append(f"{c.name:26s} {c.default:8.4g} {fitted}")
    if cal.compute_rule is not None:
        lines.append(
            f"{cal.compute_rule['id']}: {cal.compute_rule['value']:.4g} ({cal.compute_rule['notes']})"
        )
    lines += ["", "size [B]        measured  fitted [GB/s]  residual  leave-one-out"]
    for r in cal.residuals:
        loo = f"{r.leave_one_out_fraction:+.1%}" if r.leave_one_out_fraction is not None else "-"
        lines.append(
            f"{r.size_bytes:>12d} {r.measured_busbw_gbyte_per_s:10.2f} {r.fitted_busbw_gbyte_per_s:10.2f} "
            f"{r.residual_fraction:+9.1%} {loo:>10}"
        )
    return "\n".join(lines)


def run_accept(args: argparse.Namespace) -> int:
    """Compare, print, and write the report files asked for (only once everything succeeded).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (nccl-tests and perftest files, ``--csv``, ``--pdf``, ``--format``).

    Returns
    -------
    int
        Exit status, 0 (the verdict is in the output).
    """
    from pathlib import Path

    from planner.atomic import write_all
    from planner.measure.accept import accept
    from planner.measure.perftest import read_perftest

    perftest = [t for name in args.perftest for t in read_perftest(Path(name), name=name)]
    the_plan, catalog, runs, _ = _plan_and_runs(args)
    result = accept(plan=the_plan, catalog=catalog, runs=runs, perftest=perftest)
    outputs: dict[Any, bytes] = {}
    if args.csv or args.pdf:
        from planner.report.acceptance import acceptance_csv, acceptance_pdf

        if args.csv:
            outputs[Path(args.csv)] = acceptance_csv(result, lang=args.lang)
        if args.pdf:
            outputs[Path(args.pdf)] = acceptance_pdf(result, lang=args.lang)
    if outputs:
        write_all(outputs)
    write_result(result, fmt=args.format, to_dict=acceptance_to_dict, render=_acceptance_table)
    return 0


def acceptance_to_dict(result: Acceptance) -> dict[str, Any]:
    """The acceptance as JSON-ready data (the keys ``planner accept --format json`` prints).

    Parameters
    ----------
    result : Acceptance
        The acceptance checks.

    Returns
    -------
    dict[str, Any]
        Verdict, design, GPUs [count], checks (busbw [GB/s]) and suspect hosts.
    """
    return {
        "verdict": result.verdict,
        "design": result.design_id,
        "gpus": result.gpus,
        "checks": [
            {
                "collective": c.collective,
                "size_bytes": c.size_bytes,
                "measured_busbw_gbyte_per_s": c.measured_busbw_gbyte_per_s,
                "planned_busbw_gbyte_per_s": round(c.planned_busbw_gbyte_per_s, 3),
                "shortfall_fraction": round(c.shortfall_fraction, 4),
                "status": c.status,
                "tolerance_fraction": c.tolerance_fraction,
                "gpus": c.gpus,
                "hosts": list(c.hosts),
                "file": c.file,
                "line": c.line,
            }
            for c in result.checks
        ],
        "suspects": [{"host": s.host, "reason": str(s.reason)} for s in result.suspects],
        "latency": [
            {
                "tool": c.tool,
                "host": c.host,
                "device": c.device,
                "size_bytes": c.size_bytes,
                "measured_us": c.measured_us,
                "planned_us": round(c.planned_us, 3),
                "status": c.status,
            }
            for c in result.latency
        ],
        "commands": list(result.commands),
    }


def _acceptance_table(result: Acceptance) -> str:
    lines = [f"Verdict: {result.verdict.upper()} ({result.design_id}, {result.gpus} x {result.gpu_id})", ""]
    lines.append("collective      GPUs     size [B]  measured  planned [GB/s]  shortfall  status")
    for c in result.checks:
        lines.append(
            f"{c.collective:14s} {c.gpus:5d} {c.size_bytes:12d} {c.measured_busbw_gbyte_per_s:9.2f} "
            f"{c.planned_busbw_gbyte_per_s:9.2f} {c.shortfall_fraction:14.1%}  {c.status}"
        )
    if result.suspects:
        lines += ["", "Suspects:", *(f"  {s.host or '-'}: {s.reason}" for s in result.suspects)]
    if result.commands:
        lines += ["", "Re-run:", *(f"  {c}" for c in result.commands)]
    return "\n".join(lines)
