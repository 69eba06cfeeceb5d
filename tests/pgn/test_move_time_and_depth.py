"""Move time (``[%emt]``, engine comments' ``mt=``) and search depth (``[%eval …,depth]``, ``d=``)
read from comments; hostile numbers in any comment command are no value, never an exception."""

from __future__ import annotations

import pytest

from notation.pgn.comment_commands import (
    clock_seconds,
    emt_seconds,
    engine_evaluation,
    evaluation,
    move_time_ms,
    search_depth,
)

HUGE = "9" * 5000  # more digits than Python's int() converts


@pytest.mark.parametrize(
    "comments, ms",
    [
        (["d=17, sd=17, mt=3076, tl=57924, wv=0.62,"], 3076),  # cutechess / TCEC: milliseconds
        (["ev=0.00, d=1, mt=00:00:00, tl=02:00:00, s=0"], 0),  # older TCEC: h:mm:ss
        (["ev=0.31, d=22, mt=00:02:04, tl=00:19:12"], 124_000),
        (["{mt=5}"], 5),
        (["mt=12"], 12),  # the comment's end
        (["[%emt 0:00:05]"], 5000),
        (["[%emt 1:02:03.25]"], 3_723_250),
        (["[%emt 0:01]"], 60_000),  # h:mm
        (["[%emt 0:00:07] mt=3076,"], 7000),  # [%emt] wins over mt=
        (["mt=3076,", "[%emt 0:00:07]"], 7000),
        (["mt=1, mt=2,"], 1),  # the first
        (["mt=-5,"], None),  # negative: not a move time
        (["mt=abc,"], None),
        (["mt=12ms,"], None),
        (["mt=1.5,"], None),
        (["pmt=3076,"], None),  # another key
        (["[%emt x]"], None),
        ([], None),
        (["book"], None),
        (["mt=99999999999999999999999,"], 99999999999999999999999),  # read; the table cannot hold it
        ([f"mt={HUGE},"], None),
        ([f"[%emt {HUGE}:00:00]"], None),
        ([f"mt={HUGE}:00:00,"], None),
    ],
)
def test_move_time_ms(comments: list[str], ms: int | None) -> None:
    assert move_time_ms(comments) == ms


@pytest.mark.parametrize(
    "comments, depth",
    [
        (["d=34, sd=50, pd=e6, mt=12345, wv=1.38,"], 34),
        (["{d=9}"], 9),
        (["sd=50, Rd=-11, Rr=-11,"], None),  # selective depth and adjudication counters are not depth
        (["[%eval 0.35,18]"], 18),
        (["[%eval 0.35,18] d=30,"], 18),  # the [%eval]'s own depth wins
        (["[%eval 0.35] d=30,"], 30),
        (["[%eval #-3,20]"], 20),
        (["d=-3,"], None),
        (["d=deep,"], None),
        (["d=99999,"], 99999),  # read; the table's Int16 cannot hold it
        ([f"d={HUGE},"], None),
        ([f"[%eval 0.1,{HUGE}]"], None),
        ([], None),
    ],
)
def test_search_depth(comments: list[str], depth: int | None) -> None:
    assert search_depth(comments) == depth


@pytest.mark.parametrize(
    "reader, comment",
    [
        (clock_seconds, f"[%clk {HUGE}:00:00]"),
        (clock_seconds, "[%clk " + "9" * 400 + ":00:00]"),
        (emt_seconds, f"[%emt {HUGE}:00:00]"),
        (evaluation, "[%eval " + "9" * 400 + "]"),
        (evaluation, f"[%eval #{HUGE}]"),
        (engine_evaluation, "wv=" + "9" * 400 + ","),
        (engine_evaluation, f"wv=-M{HUGE},"),
    ],
)
def test_hostile_numbers_are_no_value(reader: object, comment: str) -> None:
    assert callable(reader)
    assert reader([comment]) is None


def test_evaluation_keeps_its_value_when_only_the_depth_is_unreadable() -> None:
    found = evaluation([f"[%eval 0.5,{HUGE}]"])
    assert found is not None and found.cp == 50 and found.depth is None
