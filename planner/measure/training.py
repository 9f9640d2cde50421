"""Training throughput from a job's log: Megatron-LM or NeMo iteration lines, or a CSV of
``step,seconds,tokens``.

- Megatron-LM prints one line per logged iteration with ``iteration N/ M``, ``elapsed time per
  iteration (ms): X`` and ``global batch size: B`` (``|``-separated); tokens per step are
  ``B x seq_len``.
- NeMo (PyTorch Lightning's progress bar) prints ``global_step=N``, ``consumed_samples=C`` and
  ``train_step_timing in s=X``; sequences per step are the growth of ``consumed_samples`` per
  step between two lines.
- A CSV whose first line is ``step,seconds,tokens`` gives each step's time and tokens directly.

A log holds much else; only the iteration lines are read, and an iteration line whose figures
cannot be read is refused with its line number. A CSV is read whole and strictly.

References
----------
NVIDIA Megatron-LM, ``megatron/training/training.py`` (``training_log``: the iteration line);
NVIDIA NeMo, ``nemo/utils/exp_manager.py`` (``train_step_timing``).
"""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass

from planner.i18n.message import msg
from planner.measure.text import Reader, Source, refuse

_MEGATRON = re.compile(r"\biteration\s+(\d+)\s*/\s*\d+\s*\|")
_ELAPSED = re.compile(r"elapsed time per iteration \((ms|s)\):\s*([^\s|]+)")
_BATCH = re.compile(r"global batch size:\s*([^\s|]+)")
_NEMO_TIME = re.compile(r"train_step_timing in s=([0-9.eE+-]+)")
_NEMO_STEP = re.compile(r"global_step=([0-9.eE+]+)")
_NEMO_SAMPLES = re.compile(r"consumed_samples=([0-9.eE+]+)")
CSV_HEADER = "step,seconds,tokens"

WARMUP_STEPS = 1
"""Logged steps left out at the start (the first iterations compile kernels and fill caches)."""


@dataclass(frozen=True)
class Step:
    """One logged step (or the mean of the iterations one Megatron line covers)."""

    step: int
    seconds: float
    sequences: float | None
    """Sequences in the step (Megatron, NeMo); ``None`` in a CSV, which gives tokens."""
    tokens: float | None
    line: int


@dataclass(frozen=True)
class TrainingLog:
    """The steps of one log."""

    file: str
    kind: str
    """``megatron``, ``nemo`` or ``csv``."""
    steps: tuple[Step, ...]

    def tokens_per_s(self, *, seq_len: int) -> float:
        """Median throughput over the steps after :data:`WARMUP_STEPS` [tokens/s]."""
        steps = self.steps[WARMUP_STEPS:] or self.steps
        rates = [
            (s.tokens if s.tokens is not None else (s.sequences or 0.0) * seq_len) / s.seconds for s in steps
        ]
        return statistics.median(rates)


def parse_training_log(src: Source) -> TrainingLog:
    """The steps of an already-read training log (see :func:`read_training_log`).

    Parameters
    ----------
    src : Source
        The file's name, lines and hash (:func:`planner.measure.text.read_lines`).

    Returns
    -------
    TrainingLog
        The file name, the log's kind (``megatron``, ``nemo`` or ``csv``) and its steps.
    """
    first = next((i for i, line in enumerate(src.lines) if line.strip()), 0)
    if src.lines[first].strip().lower() == CSV_HEADER:
        return TrainingLog(src.name, "csv", _csv(src, first))
    steps: list[Step] = []
    kind = ""
    last_nemo: tuple[float, float] | None = None
    for number, raw in enumerate(src.lines, start=1):
        if _MEGATRON.search(raw) or "elapsed time per iteration" in raw:
            steps.append(_megatron(src.name, number, raw))
            kind = "megatron"
        elif "train_step_timing in s=" in raw:
            step, last_nemo = _nemo(src.name, number, raw, last_nemo)
            kind = "nemo"
            if step is not None:
                steps.append(step)
    if not steps:
        raise refuse(
            src.name,
            1,
            msg(
                "no training steps found: expected Megatron-LM iteration lines, NeMo "
                "'train_step_timing in s=' lines, or a CSV with the header step,seconds,tokens"
            ),
        )
    return TrainingLog(src.name, kind, tuple(steps))


def _positive(name: str, number: int, field: str, text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise refuse(
            name, number, msg("{field}: {text!r} is not a number", field=field, text=text[:30])
        ) from None
    if not 0 < value < float("inf"):
        raise refuse(name, number, msg("{field}: {text!r} must be above 0", field=field, text=text[:30]))
    return value


def _megatron(name: str, number: int, line: str) -> Step:
    iteration = _MEGATRON.search(line)
    elapsed = _ELAPSED.search(line)
    batch = _BATCH.search(line)
    if not (iteration and elapsed and batch):
        missing = [
            label
            for label, found in (
                ("iteration N/ M", iteration),
                ("elapsed time per iteration (ms)", elapsed),
                ("global batch size", batch),
            )
            if not found
        ]
        raise refuse(
            name, number, msg("a Megatron-LM iteration line without {missing}", missing=", ".join(missing))
        )
    seconds = _positive(name, number, "elapsed time per iteration", elapsed.group(2))
    if elapsed.group(1) == "ms":
        seconds /= 1000.0
    sequences = _positive(name, number, "global batch size", batch.group(1))
    return Step(int(iteration.group(1)), seconds, sequences, None, number)


def _nemo(
    name: str, number: int, line: str, last: tuple[float, float] | None
) -> tuple[Step | None, tuple[float, float] | None]:
    """A NeMo step, once two lines give the samples per step; and this line's (step, samples)."""
    timing, step, samples = _NEMO_TIME.search(line), _NEMO_STEP.search(line), _NEMO_SAMPLES.search(line)
    if not (timing and step and samples):
        raise refuse(
            name,
            number,
            msg("a NeMo progress line without global_step, consumed_samples and train_step_timing"),
        )
    seconds = _positive(name, number, "train_step_timing in s", timing.group(1))
    here = (float(step.group(1)), float(samples.group(1)))
    if last is None or here[0] <= last[0]:
        return None, here
    per_step = (here[1] - last[1]) / (here[0] - last[0])
    if per_step <= 0:
        raise refuse(name, number, msg("consumed_samples does not grow with global_step"))
    return Step(int(here[0]), seconds, per_step, None, number), here


def _csv(src: Source, header: int) -> tuple[Step, ...]:
    steps = []
    for number, raw in enumerate(src.lines[header + 1 :], start=header + 2):
        if not raw.strip():
            continue
        fields = [f.strip() for f in raw.split(",")]
        if len(fields) != 3:
            raise refuse(
                src.name, number, msg("{found} fields where step,seconds,tokens has 3", found=len(fields))
            )
        try:
            step = int(fields[0])
        except ValueError:
            raise refuse(
                src.name, number, msg("step: {text!r} is not a whole number", text=fields[0][:30])
            ) from None
        seconds = _positive(src.name, number, "seconds", fields[1])
        tokens = _positive(src.name, number, "tokens", fields[2])
        steps.append(Step(step, seconds, None, tokens, number))
    if not steps:
        raise refuse(src.name, header + 1, msg("the CSV has a header and no steps"))
    return tuple(steps)


read_training_log = Reader(parse_training_log)
"""The steps of a training log (a path, or an upload's bytes with its ``name``): the file name, the
log's kind (``megatron``, ``nemo`` or ``csv``) and its steps."""
