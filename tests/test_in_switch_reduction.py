"""In-switch reduction as a scenario option: NVLS tree across domains, SHARP, none."""

from __future__ import annotations

import json

import pytest

from planner.cli import run
from planner.fabric.collectives import CollectiveFabric, collective_time, two_level_fabric, with_reduction


def _fabric(domains: int) -> CollectiveFabric:
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
    off = collective_time(fabric=with_reduction(f, "none"), collective="all_reduce", message_bytes=2**30)
    auto = collective_time(fabric=with_reduction(f, "auto"), collective="all_reduce", message_bytes=2**30)
    assert off.algorithm != "nvls" and auto.algorithm == "nvls"
    assert auto.busbw_gbyte_per_s > off.busbw_gbyte_per_s
    no_sharp = two_level_fabric(gpus=16, domain_gpus=8, scale_up_gbyte_per_s=300, network_gbyte_per_s=50)
    assert with_reduction(no_sharp, "sharp").notes  # the leaf cannot reduce: said, not dropped


def _planner(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``planner ARGV`` in this process (``planner.cli.run``): (exit code, stdout, stderr)."""
    code = run(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _plan_json(capsys: pytest.CaptureFixture[str], *flags: str) -> dict[str, object]:
    code, out, err = _planner(
        capsys, "plan", "--gpus", "16", "--design", "ib-ndr", "--format", "json", *flags
    )
    assert code == 0, err
    return json.loads(out)  # type: ignore[no-any-return]


def test_plan_takes_the_in_switch_reduction_option(capsys: pytest.CaptureFixture[str]) -> None:
    auto, none = _plan_json(capsys), _plan_json(capsys, "--in-switch-reduction", "none")
    assert auto["bandwidth"]["allreduce_busbw_gbyte_per_s"] > none["bandwidth"]["allreduce_busbw_gbyte_per_s"]  # type: ignore[index]
    code, _, err = _planner(capsys, "plan", "--gpus", "16", "--in-switch-reduction", "magic")
    assert code == 2 and "in_switch_reduction" in err and err.count("\n") == 1


def test_compare_takes_the_in_switch_reduction_option(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _planner(
        capsys, "compare", "--gpus", "16", "--designs", "ib-ndr,rail8-npo", "--in-switch-reduction", "sharp",
        "--format", "json",
    )  # fmt: skip
    assert code == 0, err
    assert "SHARP" in out  # rail8-npo's Ethernet switches cannot reduce: said in its notes
