"""The recommendation in one sentence: the design, the margin, the probability, and what the work
costs on each design named.

A competitor is never called cheaper or dearer without the cost of the customer's work on each
(the sentence carries both figures), and without a workload the sentence says that it compares
the price per GPU-hour, not the cost of the work.
"""

from __future__ import annotations

from planner.catalog import Catalog
from planner.decision.draws import Decision
from planner.i18n.message import Message, msg

_MEASURE = {
    "training": msg("cost per trained token"),
    "serving": msg("cost per served token"),
    "mix": msg("cost per token of the mix"),
    "none": msg("price per GPU-hour"),
}


def design_name(design_id: str, catalog: Catalog) -> str:
    """The design's catalog name (translated with the catalog's prose), else its id.

    Parameters
    ----------
    design_id : str
        The design's id.
    catalog : Catalog
        The catalog.

    Returns
    -------
    str
        The name.
    """
    design = catalog.designs.get(design_id)
    return design.name if design is not None else design_id


def money(value: float) -> str:
    """A cost per outcome for reading: three significant figures.

    Parameters
    ----------
    value : float
        Cost per outcome [USD per outcome].

    Returns
    -------
    str
        The figure, thousands separated from 100 up.

    Examples
    --------
    >>> money(0.36499), money(1.4896), money(1234.5)
    ('0.365', '1.49', '1,234')
    """
    if value >= 100:
        return f"{value:,.0f}"
    return f"{value:.3g}"


def _measure(decision: Decision) -> Message:
    kinds = {e.kind for d in decision.designs for e in d.outcome.entries}
    key = "none" if not kinds else next(iter(kinds)) if len(kinds) == 1 else "mix"
    return _MEASURE[key]


def _unit(decision: Decision) -> str:
    """The outcome unit without the no-workload remark (the sentence makes it apart)."""
    return msg("USD per GPU-hour") if decision.rule == "price_per_gpu_hour" else decision.outcome_unit


def percent(fraction: float) -> str:
    """A margin in percent: one decimal below 10 %, whole above.

    Parameters
    ----------
    fraction : float
        The margin [fraction].

    Returns
    -------
    str
        The margin [%], without the sign.

    Examples
    --------
    >>> percent(0.0788), percent(0.003), percent(0.31)
    ('7.9', '0.3', '31')
    """
    return f"{100 * fraction:.1f}" if abs(fraction) < 0.1 else f"{100 * fraction:.0f}"


def percent_of_draws(p: float) -> str:
    """A probability as a whole percent, never rounded up to 100 or down to 0 when it is not.

    Parameters
    ----------
    p : float
        Probability [fraction].

    Returns
    -------
    str
        Whole percent [%], ``>99`` or ``<1`` at the ends.

    Examples
    --------
    >>> percent_of_draws(0.9995), percent_of_draws(1.0), percent_of_draws(0.0004), percent_of_draws(0.934)
    ('>99', '100', '<1', '93')
    """
    if 0.995 <= p < 1.0:
        return ">99"
    if 0.0 < p < 0.005:
        return "<1"
    return f"{100 * p:.0f}"


def recommendation(decision: Decision, *, catalog: Catalog, compare_designs: bool = True) -> Message:
    """The recommendation sentence (English; :func:`planner.i18n.translate` gives Chinese).

    ``compare_designs=False`` (the customer edition without the comparison) names only the
    proposed design, its cost per outcome and its band.

    Parameters
    ----------
    decision : Decision
        The decision.
    catalog : Catalog
        The catalog (design names).
    compare_designs : bool
        Whether the sentence compares the recommended design with the runner-up.

    Returns
    -------
    Message
        The sentence, translatable.
    """
    best, runner = decision.recommended, decision.runner_up
    name = design_name(best.design_id, catalog)
    if not decision.feasible:
        return msg(
            "No design meets the workload's required rates: the closest, {design}, needs {share} % of "
            "the cluster's time",
            design=name,
            share=f"{100 * best.outcome.rate_share:.0f}",
        )
    if runner is None or not compare_designs:
        text = msg(
            "{design}: {cost} {unit} (P10-P90: {low} to {high})",
            design=name,
            cost=money(best.cost_per_outcome),
            unit=_unit(decision),
            low=money(best.cost_per_outcome_low),
            high=money(best.cost_per_outcome_high),
        )
    else:
        cost, other_cost = money(best.cost_per_outcome), money(runner.cost_per_outcome)
        if cost == other_cost:  # close enough to print alike: show the digit that tells them apart
            cost, other_cost = f"{best.cost_per_outcome:.4g}", f"{runner.cost_per_outcome:.4g}"
        text = msg(
            "{design}: {margin} % lower {measure} than {other} ({cost} vs {other_cost} {unit}); "
            "lowest in {p} % of draws",
            design=name,
            margin=percent(decision.margin_fraction),
            measure=_measure(decision),
            other=design_name(runner.design_id, catalog),
            cost=cost,
            other_cost=other_cost,
            unit=_unit(decision),
            p=percent_of_draws(best.p_best),
        )
    if decision.rule == "price_per_gpu_hour":
        return msg(
            "{sentence}. No workload given: this compares the price per GPU-hour, not the cost of the "
            "customer's work",
            sentence=text,
        )
    return _with_infeasible(text, decision, catalog=catalog, compare_designs=compare_designs)


def _with_infeasible(
    text: Message, decision: Decision, *, catalog: Catalog, compare_designs: bool
) -> Message:
    """The sentence, then the designs that cannot reach the required rates and the share of the
    cluster's time each would need (left out with the comparison)."""
    if not compare_designs or not decision.infeasible:
        return text
    for d in decision.infeasible:
        text = msg(
            "{sentence}; {design} cannot meet the required rates (needs {share} % of the cluster's time)",
            sentence=text,
            design=design_name(d.design_id, catalog),
            share=f"{100 * d.outcome.rate_share:.0f}",
        )
    return text


def error_note(decision: Decision) -> Message:
    """The model error behind the band: ``Model error: training (dense) +/-17 % (33 published cases); ...``.

    Parameters
    ----------
    decision : Decision
        The decision (its bands).

    Returns
    -------
    Message
        The note, translatable.
    """
    names = {
        "training_dense": msg("training (dense)"),
        "training_moe": msg("training (MoE)"),
        "serving_decode": msg("serving (decode)"),
        "collectives": msg("collectives (network terms, per design)"),
    }
    parts = [msg("{family} {band}", family=names[b.family], band=b.label()) for b in decision.band_families()]
    if not parts:
        return msg("Price uncertainty only (no workload: no model error applies)")
    joined = parts[-1]
    for part in reversed(parts[:-1]):
        joined = msg("{first}; {rest}", first=part, rest=joined)
    return msg("Model error: {parts}", parts=joined)
