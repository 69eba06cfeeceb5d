"""Comment commands parsed to typed values ([%clk], [%emt], [%eval], [%csl], [%cal]) and the
score/depth engine comments of Arena and cutechess."""

from __future__ import annotations

import io

import pytest

from notation.pgn.comment_commands import (
    Arrow,
    Eval,
    Highlight,
    arrows,
    clock_seconds,
    emt_seconds,
    engine_evaluation,
    evaluation,
    highlights,
    search_depth,
)
from notation.pgn.model import MoveNode
from notation.pgn.reader import read_games


@pytest.mark.parametrize(
    "comment, seconds",
    [
        ("[%clk 0:03:00]", 180.0),
        ("[%clk 1:05:23.5]", 3923.5),
        ("x [%clk 12:00:01] y", 43201.0),
        ("[%clk 0:01]", 60.0),
        ("[%clk x]", None),
        ("none", None),
    ],
)
def test_clock(comment: str, seconds: float | None) -> None:
    assert clock_seconds([comment]) == seconds


def test_emt_and_first_command_wins() -> None:
    assert emt_seconds(["[%clk 1:00:00]", "[%emt 0:00:07.25] [%emt 0:00:09]"]) == 7.25
    assert emt_seconds(["nothing"]) is None


@pytest.mark.parametrize(
    "comment, value",
    [
        ("[%eval 0.35]", Eval(35, None, None)),
        ("[%eval -1.2,23]", Eval(-120, None, 23)),
        ("[%eval +0.05]", Eval(5, None, None)),
        ("[%eval #-3]", Eval(None, -3, None)),
        ("[%eval #4,30]", Eval(None, 4, 30)),
        ("[%eval .5]", Eval(50, None, None)),
        ("[%eval abc]", None),
    ],
)
def test_eval(comment: str, value: Eval | None) -> None:
    assert evaluation([comment]) == value


def test_arrows_and_highlights() -> None:
    comments = ["[%csl Ge4,Rd5,Xz9] text [%cal Ge2e4,Yh1a8]", "[%csl Ba1]"]
    assert highlights(comments) == [Highlight("green", 28), Highlight("red", 35), Highlight("blue", 0)]
    assert arrows(comments) == [Arrow("green", 12, 28), Arrow("yellow", 7, 56)]


def test_properties_on_move_nodes_from_the_reader() -> None:
    text = '[Event "x"]\n\n1. e4 { [%eval 0.2] [%clk 0:03:00] } 1... e5 { [%clk 0:02:58] [%cal Rd8d1] } *\n'
    (game,) = read_games(io.StringIO(text))
    e4, e5 = game.moves
    assert (e4.clock_seconds, e4.eval, e4.emt_seconds) == (180.0, Eval(20, None, None), None)
    assert e5.clock_seconds == 178.0 and e5.arrows == [Arrow("red", 59, 3)] and e5.highlights == []
    assert MoveNode("e4").clock_seconds is None


@pytest.mark.parametrize(
    ("comment", "white_moved", "value"),
    [
        ("+0.18/23 239", True, Eval(cp=18, mate=None, depth=23)),
        ("+0.18/23 239", False, Eval(cp=-18, mate=None, depth=23)),  # the mover's view, turned to White's
        ("-1.05/17 2.4s", True, Eval(cp=-105, mate=None, depth=17)),
        ("+M5/30 1.2s", False, Eval(cp=None, mate=-5, depth=30)),
        ("-M3/12", True, Eval(cp=None, mate=-3, depth=12)),
        ("1/2 was agreed later", True, None),  # no decimal point: not a score
        ("book", True, None),
        ("after 0.18/23 the engine", True, None),  # only at the start of the comment
    ],
)
def test_score_depth_engine_comments(comment: str, white_moved: bool, value: Eval | None) -> None:
    assert engine_evaluation([comment], white_moved=white_moved) == value
    assert search_depth([comment]) == (value.depth if value else None)


def test_score_depth_is_read_only_when_the_mover_is_known_and_after_other_commands() -> None:
    assert engine_evaluation(["+0.18/23 239"]) is None
    assert engine_evaluation(["+0.18/23 239 [%eval -0.5]"], white_moved=True) == Eval(cp=-50, mate=None)
    assert engine_evaluation(["+0.18/23 wv=0.40,"], white_moved=False) == Eval(cp=40, mate=None)
