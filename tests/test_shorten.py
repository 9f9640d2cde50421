"""``planner.errors.shorten`` keeps the file name of a long path.

An error line echoes at most :data:`~planner.errors.SHORTEN_CHARS` characters of what it was given.
Cutting the end of a long path would cut the file name the message is meant to name (a deep
folder, or pytest's ``popen-gwN`` folders under pytest-xdist): the middle of the path goes instead.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.errors import PATH_SCAN_CHARS, SHORTEN_CHARS, InputError, shorten
from planner.files import SCENARIO_FILE, read_bytes
from planner.i18n import error_text, translate

DEEP = "/srv/planning/customers/" + "a-rather-long-folder-name/" * 4 + "cluster-plan.yaml"
"""A path of 145 characters (24 + 4 × 26 + 17), well over 80."""


def test_a_long_path_keeps_its_file_name_and_its_first_folders() -> None:
    short = shorten(DEEP)
    # the budget for the folders is 80 - 18 ("/cluster-plan.yaml") = 62 characters of DEEP's
    # start, cut back to its last "/": "/srv/planning/customers/" (24) + one folder (26) = 50
    assert short == "/srv/planning/customers/a-rather-long-folder-name/…/cluster-plan.yaml"
    assert len(short) <= SHORTEN_CHARS + 1


def test_the_text_around_a_path_stays_whole() -> None:
    text = f"cannot open '{DEEP}' (Permission denied)"
    short = shorten(text)
    assert short.startswith("cannot open '/srv/planning/")
    assert short.endswith("…/cluster-plan.yaml' (Permission denied)")
    assert len(short) <= SHORTEN_CHARS + 1


def test_a_windows_path_and_a_folder_path_keep_their_last_part() -> None:
    windows = "C:\\Users\\planner\\" + "Documents\\" * 10 + "plan.yaml"
    assert shorten(windows).endswith("…\\plan.yaml")
    assert shorten(windows).startswith("C:\\Users\\planner\\")
    folder = "/data/" + "x" * 90 + "/results/"
    assert shorten(folder) == "/data/…/results/"


@pytest.mark.parametrize(
    "text",
    [
        "x" * 100,
        "a value of 400 GB/s is more than the link carries; " * 3,  # one "/" per word: no path
        "无法读取文件，名称太长了。" * 10,
        "文件“" + "很长的名字" * 20 + "”不存在",
    ],
)
def test_a_text_without_a_path_is_cut_at_its_end_as_before(text: str) -> None:
    assert shorten(text) == text[:SHORTEN_CHARS] + "…"


@pytest.mark.parametrize("text", ["short", DEEP[:SHORTEN_CHARS], "/a/b/" + "c" * (SHORTEN_CHARS - 5)])
def test_a_text_within_the_limit_is_unchanged(text: str) -> None:
    assert shorten(text) is text


def test_what_does_not_fit_even_cut_is_cut_at_its_end() -> None:
    huge_name = "/tmp/x/" + "n" * 200 + ".yaml"  # the file name alone is over the limit
    assert shorten(huge_name) == huge_name[:SHORTEN_CHARS] + "…"
    long_text = "/a/b/c.yaml " + "y" * 100  # the text around the path is over the limit
    assert shorten(long_text) == long_text[:SHORTEN_CHARS] + "…"
    beyond_scan = "/a/" * (PATH_SCAN_CHARS // 3) + "name.yaml"  # longer than any real path
    assert shorten(beyond_scan) == beyond_scan[:SHORTEN_CHARS] + "…"


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet=st.sampled_from("ab/\\ '.文"), max_size=300), limit=st.integers(0, 120))
def test_the_result_is_bounded_and_cut_only_when_too_long(text: str, limit: int) -> None:
    short = shorten(text, limit)
    assert len(short) <= limit + 1
    assert (short == text) == (len(text) <= limit)


def test_an_unreadable_file_at_a_long_path_is_named_in_english_and_chinese(tmp_path: Path) -> None:
    missing = tmp_path.joinpath(*["a-deep-folder-of-the-customer"] * 4, "计划-方案.yaml")
    with pytest.raises(InputError) as caught:
        read_bytes(missing, name=str(missing), what=SCENARIO_FILE, error=InputError)
    english = str(caught.value)
    chinese = translate(error_text(caught.value), "zh")
    for line in (english, chinese):
        assert "…/计划-方案.yaml" in line
    assert "cannot read" in english
    assert "cannot read" not in chinese  # the template was translated; only the path was cut
