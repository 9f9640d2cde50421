"""Queueing formulas shared by the job-mix simulation and the serving model."""

from __future__ import annotations

import math


def erlang_c_wait_s(*, servers: int, arrival_per_s: float, service_per_s: float) -> float:
    """Mean queueing delay of M/M/c: ``W_q = C(c, a) / (c mu - lambda)``, ``a = lambda/mu``.

    Erlang's C formula ``C = (a^c / c!) (c / (c - a)) / (sum_{k<c} a^k/k! + (a^c/c!) c/(c - a))``
    (Kleinrock, Queueing Systems vol. 1, 1975, eq. 3.42), computed from Erlang's B by the recursion
    ``B_k = a B_{k-1} / (k + a B_{k-1})``, ``C = c B_c / (c - a (1 - B_c))``, which stays finite for
    thousands of servers (the powers and factorials of the closed form overflow).

    Parameters
    ----------
    servers : int
        Servers c [count], one or more.
    arrival_per_s : float
        Poisson arrival rate lambda [1/s].
    service_per_s : float
        Exponential service rate of one server mu [1/s], above zero.

    Returns
    -------
    float
        Mean wait in the queue before service starts [s]; ``inf`` when the offered load
        ``a = lambda/mu`` reaches ``c`` (the queue has no bound).

    >>> round(erlang_c_wait_s(servers=1, arrival_per_s=0.5, service_per_s=1.0), 6)  # M/M/1: rho/(mu-lambda)
    1.0
    >>> round(erlang_c_wait_s(servers=2, arrival_per_s=1.0, service_per_s=1.0), 6)  # C = 1/3, W = C/(2-1)
    0.333333
    """
    a = arrival_per_s / service_per_s
    if a >= servers:
        return math.inf
    blocking = 1.0
    for k in range(1, servers + 1):
        blocking = a * blocking / (k + a * blocking)
    waiting = servers * blocking / (servers - a * (1.0 - blocking))
    return waiting / (servers * service_per_s - arrival_per_s)
