"""GPU-to-GPU path latency of the compute fabric (what is not a collective).

Collective time and busbw, and the plan's bandwidth figures, live in
:mod:`planner.fabric.collectives` (one model for every number the product shows).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Latency:
    """One-way GPU-to-GPU latency over the network, broken down [ns]."""

    min_switch_hops: int
    max_switch_hops: int
    components_ns: tuple[tuple[str, float], ...]
    """Worst-case path: (component, ns)."""
    gpu_to_gpu_min_ns: float
    gpu_to_gpu_ns: float
    """Worst case (across the top tier) [ns]."""
    allreduce_small_us: float
    """All-reduce of 8 bytes over all GPUs [us] (:func:`planner.fabric.collectives.collective_time`)."""


def path_latency_ns(
    *,
    link_latency_ns: tuple[float, ...],
    nic_latency_ns: float,
    switch_latency_ns: tuple[float, ...],
    serdes_fec_ns_per_link: float,
) -> tuple[tuple[str, float], ...]:
    """Latency components [ns] of a path over the given links and through the given switches.

    Parameters
    ----------
    link_latency_ns : tuple of float
        Optics DSP and propagation latency of each link crossed [ns].
    nic_latency_ns : float
        Host and NIC latency [ns].
    switch_latency_ns : tuple of float
        Latency of each switch crossed [ns].
    serdes_fec_ns_per_link : float
        SerDes+FEC latency per link [ns].

    Returns
    -------
    tuple of (str, float)
        ``(component, latency [ns])`` for ``host_nic``, ``serdes_fec``,
        ``optics_and_propagation`` and ``switches``.

    Notes
    -----
    latency = host/NIC + links x (SerDes+FEC) + optics DSP and propagation per link
    + the latency of every switch crossed. Propagation is about 5 ns per metre of fiber;
    SerDes+FEC per link is a catalog coefficient (``sizing_rules.serdes_fec_ns_per_link``).
    """
    links = len(link_latency_ns)
    return (
        ("host_nic", nic_latency_ns),
        ("serdes_fec", links * serdes_fec_ns_per_link),
        ("optics_and_propagation", sum(link_latency_ns)),
        ("switches", sum(switch_latency_ns)),
    )
