"""The scale-up domain: GPUs joined by their own links, inside one server or across several.

Notes
-----
A domain of ``D`` GPUs either sits inside one server (an HGX baseboard's NVSwitches, an OAM
full mesh: no switches or links of its own beyond the server's price) or spans ``D / g``
servers (compute trays of ``g`` GPUs) joined by scale-up switches (NVLink switch trays). For a
switched domain with ``L`` links per GPU on switches of ``k`` ports at the link speed
``B_up / L`` (``B_up`` the GPU's scale-up bandwidth per direction):

- links per domain ``D L``; switches per domain ``S = ceil(D L / k)``;
- every GPU reaches every switch with ``L / S`` links (a single-hop domain), so ``S`` must
  divide ``L`` and a switch must have at least ``D`` ports.

GB200 NVL72: ``D = 72``, ``L = 18`` NVLink 5 links of 50 GB/s per direction (900 GB/s),
switch trays of 2 NVLink switch chips x 72 ports = 144 ports: ``S = 72 x 18 / 144 = 9`` trays,
1,296 links, two links from every GPU to every tray.

Three variants follow from the switch record (``docs/model.md``, "Rack-scale and optical
scale-up systems"):

- **Attached per server** (``scale_up_attach: server``): the server's GPUs first meet on its
  board (on-board switches or a mesh), and the domain's switches see ``U = D / g`` servers with
  ``P = g L`` links each; a switch needs ``U`` ports. CloudMatrix 384: 48 nodes x 112 links on
  48-port UB L2 switches, ``S = 112``.
- **Twin racks** (``twin_rack``): half of a switch's ``k`` ports face its own rack's GPUs, half
  its twin in the partner rack; each half of ``D / 2`` GPUs is sized on ``k / 2`` ports and the
  domain has twice the switches and ``D L / 2`` switch-to-switch links (NVL36x2: 18 trays).
- **Circuit switches** (``kind: circuit``): rate-transparent, so the port count holds at any
  link speed; a circuit adds no switching hop, and circuits are set per job.

In every variant the switch count per domain is the smallest divisor of ``P`` that is at least
``ceil(U P / k)``, so every unit reaches every switch with the same number of links.

References
----------
NVIDIA GB200 NVL72 product page and "NVIDIA GB200 NVL72 Delivers Trillion-Parameter LLM
Training and Real-Time Inference" (NVIDIA technical blog, 2024-03-18): 72 Blackwell GPUs in
one NVLink domain, 18 compute trays, 9 NVLink switch trays, 1.8 TB/s NVLink per GPU.
NVIDIA GB200 NVL Multi-Node Tuning Guide, "Understanding Your Grace-Blackwell Systems"
(docs.nvidia.com, 2025-04): the 36x2 configuration, 9 x 2RU compute trays and 9 NVLink switch
trays per rack. Zuo et al., "Serving Large Language Models on Huawei CloudMatrix384"
(arXiv 2506.12708, 2025-06): 48 nodes of 8 Ascend 910C, seven on-board L1 UB switches per node,
L2 UB switches in seven sub-planes, 392 GB/s per NPU. Poutievski et al., "Mission Apollo:
Landing Optical Circuit Switching at Datacenter Scale" (arXiv 2208.10041, 2022-08): Palomar,
a 136 x 136-port 3D-MEMS optical circuit switch with millisecond switching.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from planner.catalog.schema import Switch
from planner.errors import InputError
from planner.i18n.message import msg
from planner.units import ceil_div

SCALE_UP_FAMILIES = ("nvlink", "scale_up")
"""Switch families that can join a scale-up domain."""


@dataclass(frozen=True)
class ScaleUpDomain:
    """The scale-up domains of a cluster (all alike)."""

    domain_gpus: int
    """GPUs in one domain [count]."""
    domains: int
    """Domains in the cluster [count]."""
    servers_per_domain: int
    """Servers (compute trays) in one domain [count]; 1 for a domain inside a server."""
    switch_id: str | None
    """Scale-up switch (tray) model; ``None`` when the domain sits inside one server."""
    switches_per_domain: int = 0
    """Scale-up switches of one domain [count]."""
    links_per_gpu: int = 0
    """Links from one GPU to the domain's switches [count] (0 inside a server)."""
    link_gbit_per_s: int = 0
    """Speed of one scale-up link per direction [Gb/s]."""
    switch_links_per_domain: int = 0
    """Switch-to-switch links of one domain [count] (twin racks: ``D L / 2``; else 0)."""
    switch_hops: int = 0
    """Packet-switch hops on the longest GPU-to-GPU path inside a domain [count]: 1 through one
    switch tray, 2 across twin racks, +2 for on-board switches of a server-attached domain, 0 for
    circuits (light passes an optical circuit switch without being switched)."""
    circuit_switched: bool = False
    """The domain's switches are optical circuit switches: circuits are set per job."""
    reconfiguration_ms: float = 0.0
    """Time to set a job's circuits [ms] (0 for packet switches)."""

    @property
    def spans_servers(self) -> bool:
        return self.switch_id is not None

    @property
    def switch_links(self) -> int:
        """Switch-to-switch scale-up links of the cluster [count]."""
        return self.domains * self.switch_links_per_domain

    @property
    def switches(self) -> int:
        """Scale-up switches of the cluster [count]."""
        return self.domains * self.switches_per_domain

    @property
    def links(self) -> int:
        """GPU-to-switch scale-up links of the cluster [count]."""
        return self.domains * self.domain_gpus * self.links_per_gpu


@functools.lru_cache(maxsize=1024, typed=True)
def in_server_domain(*, gpus: int, gpus_per_node: int, domain_gpus: int) -> ScaleUpDomain:
    """A domain inside one server: at most the server's GPUs (the engine notes the cap); made once
    per counts (a sweep's designs ask again at each size).

    Parameters
    ----------
    gpus : int
        GPUs in the cluster [count].
    gpus_per_node : int
        GPUs per server [count].
    domain_gpus : int
        Scale-up domain asked for [count].

    Returns
    -------
    ScaleUpDomain
        Domain size (at most ``gpus_per_node``) and domains [count], no scale-up switch.
    """
    domain = max(1, min(domain_gpus, gpus_per_node))
    return ScaleUpDomain(
        domain_gpus=domain, domains=max(1, ceil_div(gpus, domain)), servers_per_domain=1, switch_id=None
    )


def switched_domain(
    *,
    gpus: int,
    gpus_per_node: int,
    domain_gpus: int,
    switch: Switch,
    links_per_gpu: int,
    scale_up_gbyte_per_s: float,
) -> ScaleUpDomain:
    """A domain of ``domain_gpus`` GPUs across servers, joined by ``switch`` (see the module notes).

    ``gpus`` is a whole number of domains (:func:`planner.resolve.resolve` rounds up).

    Parameters
    ----------
    gpus : int
        GPUs in the cluster, a whole number of domains [count].
    gpus_per_node : int
        GPUs per server [count].
    domain_gpus : int
        GPUs per domain [count].
    switch : Switch
        The scale-up switch model.
    links_per_gpu : int
        Scale-up links of one GPU [count].
    scale_up_gbyte_per_s : float
        Scale-up bandwidth of one GPU [GB/s].

    Returns
    -------
    ScaleUpDomain
        Domains, servers per domain, switches per domain and in all, and links [count].

    Examples
    --------
    >>> from planner.catalog import load_catalog
    >>> tray = load_catalog().switches["nvlink5_switch_tray"]
    >>> d = switched_domain(gpus=576, gpus_per_node=4, domain_gpus=72, switch=tray,
    ...                     links_per_gpu=18, scale_up_gbyte_per_s=900)
    >>> (d.domains, d.servers_per_domain, d.switches_per_domain, d.switches, d.links)
    (8, 18, 9, 72, 10368)

    Raises
    ------
    InputError
        Naming the field: a domain that is not whole servers, a link speed the switch lacks, a
        switch with fewer ports than the domain has GPUs, links that do not spread evenly.
    """
    halves = 2 if switch.twin_rack else 1
    _check_domain_servers(domain_gpus=domain_gpus, gpus_per_node=gpus_per_node, switch=switch, halves=halves)
    link_gbit = round(scale_up_gbyte_per_s * 8 / links_per_gpu)
    radix = _ports_at_link_speed(
        switch=switch, link_gbit=link_gbit, links_per_gpu=links_per_gpu, gbyte_per_s=scale_up_gbyte_per_s
    )
    per_server = switch.scale_up_attach == "server"
    # a switch faces the units of its half of the domain with k / halves ports
    units = domain_gpus // (gpus_per_node if per_server else 1) // halves
    links_per_unit = links_per_gpu * (gpus_per_node if per_server else 1)
    ports = radix // halves
    if ports < units:
        raise _too_few_ports(
            switch=switch, radix=radix, ports=ports, units=units, domain_gpus=domain_gpus,
            gpus_per_unit=gpus_per_node if per_server else 1, halves=halves, per_server=per_server,
        )  # fmt: skip
    per_half = switches_spread_evenly(units=units, links_per_unit=links_per_unit, ports=ports)
    circuit = switch.kind == "circuit"
    hops = 0 if circuit else halves + (2 if per_server else 0)
    return ScaleUpDomain(
        domain_gpus=domain_gpus,
        domains=ceil_div(gpus, domain_gpus),
        servers_per_domain=domain_gpus // gpus_per_node,
        switch_id=switch.id,
        switches_per_domain=per_half * halves,
        links_per_gpu=links_per_gpu,
        link_gbit_per_s=link_gbit,
        switch_links_per_domain=domain_gpus * links_per_gpu // 2 if halves == 2 else 0,
        switch_hops=hops,
        circuit_switched=circuit,
        reconfiguration_ms=switch.reconfiguration_ms or 0.0,
    )


def _check_domain_servers(*, domain_gpus: int, gpus_per_node: int, switch: Switch, halves: int) -> None:
    """A domain is whole servers (two equal halves of them across twin racks) on a scale-up switch."""
    if domain_gpus % gpus_per_node:
        raise InputError(
            msg(
                "fabric.scale_up_domain_gpus: {domain} GPUs are not whole {per_node}-GPU servers",
                domain=domain_gpus,
                per_node=gpus_per_node,
            )
        )
    if domain_gpus % (gpus_per_node * halves):
        raise InputError(
            msg(
                "fabric.scale_up_domain_gpus: {switch} joins two racks; {domain} GPUs are not two "
                "equal halves of whole {per_node}-GPU servers",
                switch=switch.id,
                domain=domain_gpus,
                per_node=gpus_per_node,
            )
        )
    if switch.family not in SCALE_UP_FAMILIES:
        raise InputError(
            msg(
                "fabric.scale_up_switch_id: {switch} is an {family} switch, not a scale-up (nvlink) switch",
                switch=switch.id,
                family=switch.family,
            )
        )


def _ports_at_link_speed(*, switch: Switch, link_gbit: int, links_per_gpu: int, gbyte_per_s: float) -> int:
    """The switch's port count at the domain's link speed; an error names the field otherwise."""
    radix = switch.ports_at(link_gbit)
    if radix is None:
        raise InputError(
            msg(
                "fabric.scale_up_links_per_gpu: {links} links share {gbyte:g} GB/s as {gbit}G each; "
                "{switch} has no {gbit}G ports (allowed: {speeds})",
                links=links_per_gpu,
                gbyte=gbyte_per_s,
                gbit=link_gbit,
                switch=switch.id,
                speeds=", ".join(f"{s}G" for s in sorted(switch.radix_by_speed)),
            )
        )
    return radix


def _too_few_ports(
    *, switch: Switch, radix: int, ports: int, units: int, domain_gpus: int, gpus_per_unit: int, halves: int,
    per_server: bool,
) -> InputError:  # fmt: skip
    """The error for a switch with fewer ports than the units (GPUs or servers) it must reach."""
    limit = ports * halves * gpus_per_unit
    values = {"switch": switch.id, "ports": ports, "units": units, "domain": domain_gpus, "limit": limit}
    if limit == radix and halves == 1:
        text = msg(
            "fabric.scale_up_switch_id: {switch} has {radix} ports; every GPU of a {domain}-GPU "
            "domain needs a link to every scale-up switch (allowed: domains up to {radix} GPUs)",
            switch=switch.id,
            radix=radix,
            domain=domain_gpus,
        )
    elif per_server:
        text = msg(
            "fabric.scale_up_switch_id: {switch} gives {ports} ports to the {units} servers of a "
            "{domain}-GPU domain; every server needs a link to every scale-up switch (allowed: "
            "domains up to {limit} GPUs)",
            **values,
        )
    else:
        text = msg(
            "fabric.scale_up_switch_id: {switch} gives {ports} ports to the {units} GPUs of each "
            "rack of a {domain}-GPU domain (allowed: domains up to {limit} GPUs)",
            **values,
        )
    return InputError(text)


def switches_spread_evenly(*, units: int, links_per_unit: int, ports: int) -> int:
    """Switches so that every unit reaches every switch with the same number of links [count].

    The smallest divisor ``S`` of ``P`` (``links_per_unit``) with ``S >= ceil(U P / k)``: ``U P``
    links over switches of ``k`` ports, ``P / S`` links from every unit to every switch.

    Parameters
    ----------
    units : int
        Units to join, ``U`` (GPUs or chips) [count].
    links_per_unit : int
        Links of one unit, ``P`` [count].
    ports : int
        Ports of one switch, ``k`` [count].

    Returns
    -------
    int
        Switches ``S`` [count].

    Examples
    --------
    >>> switches_spread_evenly(units=72, links_per_unit=18, ports=144)  # NVL72: 9 trays
    9
    >>> switches_spread_evenly(units=64, links_per_unit=96, ports=136)  # TPU v4: 48 OCS
    48
    """
    least = ceil_div(units * links_per_unit, ports)
    return next(s for s in range(least, links_per_unit + 1) if links_per_unit % s == 0)


def scale_up_path_latency_ns(*, domain: ScaleUpDomain, switch_latency_ns: float) -> float:
    """Switching latency of the longest GPU-to-GPU path inside a domain [ns]: hops x per-hop.

    On-board switches of a server-attached domain are taken at the domain switch's latency
    (an assumption: the same switch silicon class). A circuit-switched domain has 0 hops.

    Parameters
    ----------
    domain : ScaleUpDomain
        The scale-up domain, with its switch hops [count].
    switch_latency_ns : float
        Latency of one switch hop [ns].

    Returns
    -------
    float
        Switching latency of the longest path [ns].
    """
    return domain.switch_hops * switch_latency_ns
