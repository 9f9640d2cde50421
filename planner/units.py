"""Unit conversions, in one place.

Names carry their unit; this module is the only place that converts between them.
"""

from __future__ import annotations

import math

BITS_PER_BYTE = 8
W_PER_KW = 1000.0
HOURS_PER_YEAR = 8760.0
BTU_PER_H_PER_KW = 3412.142
"""1 kW = 3,412.142 BTU/h (1 BTU = 1,055.056 J, the International Table BTU; NIST SP 811,
Appendix B.8: 1 W = 3.412 142 BTU_IT/h)."""
KW_PER_REFRIGERATION_TON = 3.516853  # 1 ton of refrigeration = 12,000 BTU/h = 3.516853 kW
WATER_SPECIFIC_HEAT_KJ_PER_KG_K = 4.186  # liquid water near 25 degC
WATER_DENSITY_KG_PER_L = 0.997
AIR_SPECIFIC_HEAT_KJ_PER_KG_K = 1.005
AIR_DENSITY_KG_PER_M3 = 1.2
M3_PER_S_TO_CFM = 2118.88
FIBER_PROPAGATION_NS_PER_M = 5.0  # light in glass, group index ~1.47: ~4.9 ns/m
KIB = 1024
MIB = 1024**2
GIB = 1024**3


def gbit_per_s_to_gbyte_per_s(rate_gbit_per_s: float) -> float:
    """Convert a link rate from gigabits to gigabytes per second (1 GB = 1e9 bytes).

    Parameters
    ----------
    rate_gbit_per_s : float
        Rate [Gb/s].

    Returns
    -------
    float
        The same rate [GB/s]: ``rate_gbit_per_s / 8``.

    >>> gbit_per_s_to_gbyte_per_s(400)
    50.0
    """
    return rate_gbit_per_s / BITS_PER_BYTE


def w_to_kw(power_w: float) -> float:
    """Convert a power from watts to kilowatts.

    Parameters
    ----------
    power_w : float
        Power [W].

    Returns
    -------
    float
        The same power [kW]: ``power_w / 1000``.
    """
    return power_w / W_PER_KW


def kw_to_btu_per_h(power_kw: float) -> float:
    """Convert a heat load from kilowatts to BTU per hour.

    Parameters
    ----------
    power_kw : float
        Heat load [kW].

    Returns
    -------
    float
        The same load [BTU/h]: ``power_kw * 3412.142`` (NIST SP 811, Appendix B).
    """
    return power_kw * BTU_PER_H_PER_KW


def kw_to_refrigeration_tons(power_kw: float) -> float:
    """Convert a heat load from kilowatts to refrigeration tons.

    Parameters
    ----------
    power_kw : float
        Heat load [kW].

    Returns
    -------
    float
        The same load [TR]: ``power_kw / 3.516853`` (1 TR = 12,000 BTU/h).
    """
    return power_kw / KW_PER_REFRIGERATION_TON


def coolant_flow_l_per_min(*, heat_kw: float, delta_t_k: float) -> float:
    """Water flow that carries ``heat_kw`` at a temperature rise ``delta_t_k``.

    Parameters
    ----------
    heat_kw : float
        Heat to carry away [kW]; zero or less needs no flow.
    delta_t_k : float
        Temperature rise of the water from supply to return [K], above zero.

    Returns
    -------
    float
        Water flow [L/min].

    Notes
    -----
    m_dot [kg/s] = Q [kW] / (c_p [kJ/(kg K)] * dT [K]); volume = m_dot / rho * 60, with liquid water
    near 25 degC (c_p = 4.186 kJ/(kg K), rho = 0.997 kg/L).
    """
    if heat_kw <= 0:
        return 0.0
    mass_kg_per_s = heat_kw / (WATER_SPECIFIC_HEAT_KJ_PER_KG_K * delta_t_k)
    return mass_kg_per_s / WATER_DENSITY_KG_PER_L * 60.0


def airflow_m3_per_s(*, heat_kw: float, delta_t_k: float) -> float:
    """Air flow that carries ``heat_kw`` at a temperature rise ``delta_t_k``.

    Parameters
    ----------
    heat_kw : float
        Heat to carry away [kW]; zero or less needs no flow.
    delta_t_k : float
        Temperature rise of the air from inlet to exhaust [K], above zero.

    Returns
    -------
    float
        Air flow [m^3/s]: ``Q / (c_p * dT * rho)`` with c_p = 1.005 kJ/(kg K), rho = 1.2 kg/m^3.
    """
    if heat_kw <= 0:
        return 0.0
    return heat_kw / (AIR_SPECIFIC_HEAT_KJ_PER_KG_K * delta_t_k * AIR_DENSITY_KG_PER_M3)


def ceil_div(numerator: int, denominator: int) -> int:
    """Integer ceiling of ``numerator / denominator`` for non-negative integers.

    Parameters
    ----------
    numerator : int
        Count to divide [count], zero or more.
    denominator : int
        Group size [count], above zero.

    Returns
    -------
    int
        Groups needed to hold ``numerator`` [count]: ``-(-numerator // denominator)``.

    Raises
    ------
    ValueError
        ``denominator`` is zero or negative.

    >>> ceil_div(1000, 8)
    125
    """
    if denominator <= 0:
        raise ValueError("denominator must be positive")
    return -(-numerator // denominator)


def annuity_factor(*, rate: float, years: int) -> float:
    """Capital recovery factor: the yearly payment per unit of present value.

    Parameters
    ----------
    rate : float
        Discount rate per year [fraction/year], e.g. 0.08.
    years : int
        Number of end-of-year payments [years], above zero.

    Returns
    -------
    float
        CRF [1/year].

    Raises
    ------
    ValueError
        ``years`` is zero or negative.

    Notes
    -----
    CRF = r (1+r)^n / ((1+r)^n - 1); CRF = 1/n when r = 0.

    >>> round(annuity_factor(rate=0.0, years=5), 3)
    0.2
    >>> round(annuity_factor(rate=0.08, years=5), 5)
    0.25046
    """
    if years <= 0:
        raise ValueError("years must be positive")
    if math.isclose(rate, 0.0):
        return 1.0 / years
    growth = (1.0 + rate) ** years
    return rate * growth / (growth - 1.0)


def present_value_factor(*, rate: float, years: int) -> float:
    """Sum of discount factors for ``years`` end-of-year payments: 1/CRF.

    Parameters
    ----------
    rate : float
        Discount rate per year [fraction/year].
    years : int
        Number of end-of-year payments [years], above zero.

    Returns
    -------
    float
        Present value of one unit paid at the end of each year [years]:
        ``sum_{k=1..n} (1+r)^-k = 1 / CRF`` (:func:`annuity_factor`).

    >>> present_value_factor(rate=0.0, years=4)
    4.0
    """
    return 1.0 / annuity_factor(rate=rate, years=years)
