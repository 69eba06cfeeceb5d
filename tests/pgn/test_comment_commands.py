"""Comment commands parsed to typed values ([%clk], [%emt], [%eval], [%csl], [%cal])."""

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
    evaluation,
    highlights,
)
from notation.pgn.model import MoveNode
from notation.pgn.reader import read_games


@pytest.mark.parametrize(
    "comment, seconds",
    [("[%clk 0:03:00]", 180.0), ("[%clk 1:05:23.5]", 3923.5), ("x [%clk 12:00:01] y", 43201.0), ("[%clk 0:01]", 60.0), ("[%clk x]", None), ("none", None)],
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
