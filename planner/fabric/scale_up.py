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

References
----------
NVIDIA GB200 NVL72 product page and "NVIDIA GB200 NVL72 Delivers Trillion-Parameter LLM
Training and Real-Time Inference" (NVIDIA technical blog, 2024-03-18): 72 Blackwell GPUs in
one NVLink domain, 18 compute trays, 9 NVLink switch trays, 1.8 TB/s NVLink per GPU.
"""

from __future__ import annotations

from dataclasses import dataclass

from planner.catalog.schema import Switch
from planner.errors import InputError
from planner.i18n.message import msg
from planner.units import ceil_div


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

    @property
    def spans_servers(self) -> bool:
        return self.switch_id is not None

    @property
    def switches(self) -> int:
        """Scale-up switches of the cluster [count]."""
        return self.domains * self.switches_per_domain

    @property
    def links(self) -> int:
        """GPU-to-switch scale-up links of the cluster [count]."""
        return self.domains * self.domain_gpus * self.links_per_gpu


def in_server_domain(*, gpus: int, gpus_per_node: int, domain_gpus: int) -> ScaleUpDomain:
    """A domain inside one server: at most the server's GPUs (the engine notes the cap)."""
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
    if domain_gpus % gpus_per_node:
        raise InputError(
            msg(
                "fabric.scale_up_domain_gpus: {domain} GPUs are not whole {per_node}-GPU servers",
                domain=domain_gpus,
                per_node=gpus_per_node,
            )
        )
    if switch.family != "nvlink":
        raise InputError(
            msg(
                "fabric.scale_up_switch_id: {switch} is an {family} switch, not a scale-up (nvlink) switch",
                switch=switch.id,
                family=switch.family,
            )
        )
    link_gbit = round(scale_up_gbyte_per_s * 8 / links_per_gpu)
    radix = switch.radix_by_speed.get(link_gbit)
    if radix is None:
        raise InputError(
            msg(
                "fabric.scale_up_links_per_gpu: {links} links share {gbyte:g} GB/s as {gbit}G each; "
                "{switch} has no {gbit}G ports (allowed: {speeds})",
                links=links_per_gpu,
                gbyte=scale_up_gbyte_per_s,
                gbit=link_gbit,
                switch=switch.id,
                speeds=", ".join(f"{s}G" for s in sorted(switch.radix_by_speed)),
            )
        )
    if radix < domain_gpus:
        raise InputError(
            msg(
                "fabric.scale_up_switch_id: {switch} has {radix} ports; every GPU of a {domain}-GPU "
                "domain needs a link to every scale-up switch (allowed: domains up to {radix} GPUs)",
                switch=switch.id,
                radix=radix,
                domain=domain_gpus,
            )
        )
    per_domain = ceil_div(domain_gpus * links_per_gpu, radix)
    if links_per_gpu % per_domain:
        raise InputError(
            msg(
                "fabric.scale_up_links_per_gpu: {links} links per GPU do not spread evenly over "
                "{switches} scale-up switches",
                links=links_per_gpu,
                switches=per_domain,
            )
        )
    return ScaleUpDomain(
        domain_gpus=domain_gpus,
        domains=ceil_div(gpus, domain_gpus),
        servers_per_domain=domain_gpus // gpus_per_node,
        switch_id=switch.id,
        switches_per_domain=per_domain,
        links_per_gpu=links_per_gpu,
        link_gbit_per_s=link_gbit,
    )
