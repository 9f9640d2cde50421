"""In-switch reduction as a scenario option: NVLS tree across domains, SHARP, none."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from planner.fabric.collectives import collective_time, two_level_fabric, with_reduction


def _fabric(domains: int) -> object:
    # 8 GPUs per domain, 364.5 GB/s ring and 274.5 GB/s NVLS algbw inside (H100), 47 GB/s per GPU
    # on the network (NDR through NCCL)
    return two_level_fabric(
        gpus=8 * domains, domain_gpus=8, scale_up_gbyte_per_s=364.5, network_gbyte_per_s=47.0,
        nvls_gbyte_per_s=274.5,
    )  # fmt: skip


def test_nvls_tree_on_two_domains_sends_each_shard_once() -> None:
    # two domains: the shard S/8 crosses once per direction, S / (8 x 47) = S / 376 GB/s, faster
    # than the NVLS phase S / 274.5 GB/s: busbw = 274.5 x 2 x 15 / 16 = 514.7 GB/s
    t = collective_time(fabric=_fabric(2), collective="all_reduce", message_bytes=8 * 2**30, algorithm="nvls")
    assert t.busbw_gbyte_per_s == pytest.approx(514.7, rel=0.005)
    assert t.bound_level == "scale-up"


def test_nvls_tree_on_many_domains_is_network_bound_like_a_ring() -> None:
    # 16 domains: twice the shard per direction, algbw 376 / 2 = 188 GB/s; busbw 188 x 2 x 127/128
    t = collective_time(
        fabric=_fabric(16), collective="all_reduce", message_bytes=8 * 2**30, algorithm="nvls"
    )
    assert t.busbw_gbyte_per_s == pytest.approx(188 * 2 * 127 / 128, rel=0.01)
    assert t.bound_level == "leaf"


def test_none_turns_nvls_off_and_sharp_without_capable_switches_is_noted() -> None:
    f = _fabric(2)
    off = collective_time(fabric=with_reduction(f, "none"), collective="all_reduce", message_bytes=2**30)  # type: ignore[arg-type]
    auto = collective_time(fabric=with_reduction(f, "auto"), collective="all_reduce", message_bytes=2**30)  # type: ignore[arg-type]
    assert off.algorithm != "nvls" and auto.algorithm == "nvls"
    assert auto.busbw_gbyte_per_s > off.busbw_gbyte_per_s
    no_sharp = two_level_fabric(gpus=16, domain_gpus=8, scale_up_gbyte_per_s=300, network_gbyte_per_s=50)
    assert with_reduction(no_sharp, "sharp").notes  # the leaf cannot reduce: said, not dropped


def _plan_json(*flags: str) -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, "-m", "planner", "plan", "--gpus", "16", "--design", "ib-ndr", "--format", "json", *flags],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return json.loads(out.stdout)  # type: ignore[no-any-return]


def test_plan_takes_the_in_switch_reduction_option() -> None:
    auto, none = _plan_json(), _plan_json("--in-switch-reduction", "none")
    assert auto["bandwidth"]["allreduce_busbw_gbyte_per_s"] > none["bandwidth"]["allreduce_busbw_gbyte_per_s"]  # type: ignore[index]
    bad = subprocess.run(
        [sys.executable, "-m", "planner", "plan", "--gpus", "16", "--in-switch-reduction", "magic"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert bad.returncode == 2 and "in_switch_reduction" in bad.stderr and bad.stderr.count("\n") == 1


def test_compare_takes_the_in_switch_reduction_option() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "planner", "compare", "--gpus", "16", "--designs", "ib-ndr,rail8-npo",
         "--in-switch-reduction", "sharp", "--format", "json"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "SHARP" in out.stdout  # rail8-npo's Ethernet switches cannot reduce: said in its notes
