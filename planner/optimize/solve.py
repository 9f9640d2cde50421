"""The one module that knows the solver: HiGHS through highspy when installed, else PuLP's CBC.

PuLP 3.3 marks its bundled-CBC wrapper as deprecated for PuLP 4; the warning is silenced here
only, where the fallback is chosen on purpose (the project pins ``pulp<4``).
"""

from __future__ import annotations

import os
import sys
import time
import warnings
from dataclasses import dataclass

import pulp

STATUS_NAMES = {
    1: "optimal",
    2: "feasible",
    0: "not solved",
    -1: "infeasible",
    -2: "unbounded",
    -3: "undefined",
}


@dataclass(frozen=True)
class SolveOutcome:
    status: str
    """optimal, feasible (time limit hit with an integer solution), infeasible, ..."""
    solver: str
    solve_time_s: float
    gap: float | None
    """Relative MIP gap proven at the end [-], when the solver reports one."""

    @property
    def has_solution(self) -> bool:
        """True when the solver ended with an integer solution (proven optimal or at the time limit)."""
        return self.status in ("optimal", "feasible")


_banner_silenced = False


def _silence_highs_banner() -> None:
    """Make the first HiGHS instance with stdout pointed at /dev/null.

    HiGHS prints a licence banner on the process's stdout (file descriptor 1) when its first
    instance is created, whatever ``msg`` says; the CLI's JSON output must stay clean.
    """
    global _banner_silenced
    if _banner_silenced:
        return
    import highspy

    sys.stdout.flush()
    saved = os.dup(1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 1)
        highspy.Highs()  # type: ignore[no-untyped-call]
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(devnull)
    _banner_silenced = True


def _solver(time_limit_s: float) -> tuple[pulp.LpSolver, str]:
    highs = pulp.HiGHS(msg=False, timeLimit=time_limit_s, gapRel=0.0)
    if highs.available():
        _silence_highs_banner()
        return highs, "HiGHS"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return pulp.PULP_CBC_CMD(msg=False, timeLimit=time_limit_s, gapRel=0.0), "CBC"


def solve(lp: pulp.LpProblem, *, time_limit_s: float) -> SolveOutcome:
    """Solve ``lp`` in place; report status, solver, wall time and gap.

    Parameters
    ----------
    lp : pulp.LpProblem
        The model; solved in place.
    time_limit_s : float
        Solver time limit [s].

    Returns
    -------
    SolveOutcome
        Status, solver name, wall time [s] and relative MIP gap [fraction] (``None`` when
        unknown).
    """
    solver, name = _solver(time_limit_s)
    start = time.perf_counter()
    lp.solve(solver)
    elapsed = time.perf_counter() - start
    status = STATUS_NAMES.get(int(lp.sol_status), "undefined")
    gap: float | None = None
    if name == "HiGHS" and getattr(lp, "solverModel", None) is not None:
        gap = float(lp.solverModel.getInfo().mip_gap)
    elif status == "optimal":
        gap = 0.0  # CBC proved optimality with a relative gap tolerance of 0
    return SolveOutcome(status=status, solver=name, solve_time_s=elapsed, gap=gap)


def value(item: object) -> float:
    """Numeric value of a variable, expression or constant after a solve.

    Parameters
    ----------
    item : object
        A PuLP variable, expression or number.

    Returns
    -------
    float
        Its value after the solve; 0 when it has none.
    """
    result = pulp.value(item)
    return float(result) if result is not None else 0.0
