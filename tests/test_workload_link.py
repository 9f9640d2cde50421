"""The workload mix in the app's share link (issue 27, Deliver 1: the workload is "saved, shared and
exported with the scenario"): a compact, versioned, bounded parameter read strictly (issue 25's
hostile-input rules), and an AppTest round trip to the same recommendation."""

from __future__ import annotations

import base64
import hashlib
import json
import zlib
from pathlib import Path

import pytest
from apptest import fresh_session, rendered, start

from planner import Scenario, load_catalog
from planner.decision.draws import decide
from planner.decision.sentence import recommendation
from planner.errors import InputError
from planner.inputs.scenario import MAX_WORKLOAD_ENTRIES, workload_from_data
from planner.store.links import (
    MAX_WORKLOAD_JSON_BYTES,
    MAX_WORKLOAD_PARAM_CHARS,
    WORKLOAD_PARAM,
    parse_workload_param,
    workload_param,
)

# 554,000 tokens/s: within 8-rail NPO's reach on 1,024 cards (559,000/s), beyond 4-rail's (548,900/s)
# and ib-ndr's (539,700/s): the MoE job's throughput with goodput in the decision (BR100 at its BF16
# kernel bound; EntryOutcome.tokens_per_s of decide() on this mix)
MIX = [
    {"kind": "training", "name": "MoE <b>400B</b> **bold** 训练", "params_b": 400, "tokens_b": 2000,
     "experts": 8, "top_k": 2, "required_tokens_per_s": 554000},
    {"kind": "serving", "name": "chat 70B", "params_b": 70, "weight": 2},
]  # fmt: skip


def _packed(text: str | bytes) -> str:
    raw = text.encode("utf-8") if isinstance(text, str) else text
    return "1." + base64.urlsafe_b64encode(zlib.compress(raw)).decode("ascii").rstrip("=")


def test_a_workload_round_trips_through_the_parameter() -> None:
    mix = workload_from_data(MIX)
    text = workload_param(mix)
    assert text.startswith("1.") and text.isascii() and len(text) < 400
    assert parse_workload_param(text) == mix
    assert parse_workload_param([text]) == mix  # a repeated parameter: the last one


def test_a_mix_too_long_for_a_link_is_refused_in_one_line() -> None:
    # 32 names of 64 hash-chosen CJK characters (about 14 bits each, escaped to 6 ASCII bytes):
    # some 3,600 bytes that do not compress, over 4,000 characters once base64-encoded
    digests = [hashlib.shake_256(bytes([i])).digest(128) for i in range(MAX_WORKLOAD_ENTRIES)]
    names = ["".join(chr(0x4E00 + d[j] * 64 + d[j + 1] % 64) for j in range(0, 128, 2)) for d in digests]
    mix = workload_from_data([{**MIX[1], "name": n} for n in names])
    with pytest.raises(InputError, match=r"^share link: workload: the workload needs [\d,]+ characters"):
        workload_param(mix)


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ("", "empty"),
        ("2.eJyLjgUAARUAuQ", "another version"),
        ("1.", "no payload"),
        ("1.eJy%%%", "outside the base64url alphabet"),
        ("1." + "A" * MAX_WORKLOAD_PARAM_CHARS, "too long"),
        ("1.AAAA", "not zlib"),
        ("1." + base64.urlsafe_b64encode(zlib.compress(b"[]")[:-3]).decode().rstrip("="), "truncated"),
        (_packed(b"\0" * (MAX_WORKLOAD_JSON_BYTES + 1)), "inflates past the limit"),
        (_packed('[{"kind": "serving", "params_b": NaN}]'), "NaN"),
        (_packed('[{"kind": "serving", "params_b": \u0667\u0660}]'), "non-ASCII digits"),
        (_packed('[{"kind": "serving", "params_b": 7, "params_b": 70}]'), "repeated key"),
        (_packed("[" * 20_000 + "]" * 20_000), "nesting"),
    ],
)
def test_a_malformed_parameter_is_one_line_naming_it(value: str, why: str) -> None:
    with pytest.raises(InputError) as info:
        parse_workload_param(value)
    message = str(info.value)
    assert message.startswith(f"share link: {WORKLOAD_PARAM} must be a version-1 workload"), why
    assert "\n" not in message and len(message) < 300, why


def test_an_entry_the_file_would_refuse_names_parameter_and_field() -> None:
    with pytest.raises(InputError) as info:
        parse_workload_param(_packed(json.dumps([{**MIX[1], "weight": -1}])))
    assert str(info.value).startswith("share link: workload: workload.0.weight")
    assert "\n" not in str(info.value)


def test_a_share_link_opens_the_same_recommendation(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    mix = workload_from_data(MIX)
    decision = decide(scenario=Scenario(gpus=1024, workload=mix), catalog=load_catalog(),
                      design_ids=("rail4-npo", "rail8-npo", "ib-ndr"))  # fmt: skip
    expected = f"{recommendation(decision, catalog=load_catalog())}."
    with fresh_session(tmp_path, monkeypatch):
        at = start("compare", gpus="1024", design="rail8-npo", workload=workload_param(mix))
        assert rendered(at.success[0].value) == expected
        assert "cannot meet the required rates" in expected  # the MoE rate is out of ib-ndr's reach
        captions = " ".join(c.value for c in at.caption)
        # the entry's name is shown as text: its Markdown and HTML are escaped, not rendered
        assert r"MoE \<b\>400B\</b\> \*\*bold\*\* 训练" in captions
        assert "needs 554,000 tokens/s" in rendered(captions) and "chat 70B (share 2)" in rendered(captions)
        # and the address the page writes carries the same mix on
        written = at.query_params[WORKLOAD_PARAM]
        assert parse_workload_param(written) == mix


def test_a_malformed_link_is_listed_and_the_page_opens(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with fresh_session(tmp_path, monkeypatch):
        at = start(workload="1.AAAA")  # the Overview lists what a link got wrong
        warnings = " ".join(rendered(w.value) for w in at.warning)
        assert "share link: workload must be a version-1 workload (1.<base64url>" in warnings
        assert "'1.AAAA'" in warnings
        at.switch_page("pages/compare.py").run()
        assert not at.exception, at.exception
        assert WORKLOAD_PARAM not in at.query_params
