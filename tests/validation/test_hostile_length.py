"""Lines of play longer than any game can last (FIDE 9.6.2: at most 17,697 plies).

A line -- the mainline or a variation, plies counted from the game's first move -- is replayed
up to :data:`~notation.pgn.model.MAX_LINE_PLIES`; its next move is reported as ``game.too-long``
(located, with the text as written) and the line stops there. The reader keeps no move of a
line past that one, and lexes a run of moves in constant memory, so a game of 400,000 plies
costs what a game of 17,697 does. Before: every ply was kept (577 MB for 400,000 plies in
``validate``, 824 MB in ``import``; MemoryError at 1.2 million).
"""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from conftest import OUTSIDE
from notation.compiled import core_module
from notation.pgn.model import MAX_LINE_PLIES, Game, MoveNode
from notation.pgn.parser import parse_game_text
from notation.pgn.reader import parse_raw_game, split_games
from notation.pgn.writer import write_game
from notation.validation import core
from notation.validation.replay import replay
from notation.validation.reports import check_game
from notation.validation.run import validate

SHUFFLE = ("Nf3", "Nf6", "Ng1", "Ng8")
HEAD = '[Event "Long"]\n[Site "?"]\n[Date "2024.01.01"]\n[Round "1"]\n[White "A"]\n[Black "B"]\n[Result "*"]\n\n'


def knights(plies: int, first: int = 0) -> str:
    """``plies`` knight moves back and forth (legal for ever), starting at SHUFFLE[first]."""
    return " ".join(SHUFFLE[(first + i) % 4] for i in range(plies))


def reports(text: str) -> tuple[str, str]:
    """(jsonl through the core when built, jsonl through the reference) of a one-game text."""
    (raw,) = split_games(io.StringIO(text))
    fast = json.dumps(core.check_raw(raw, None).to_dict())
    slow = json.dumps(check_game(parse_raw_game(raw)).to_dict())
    return fast, slow


def test_the_longest_game_is_replayed_whole() -> None:
    fast, slow = reports(HEAD + knights(MAX_LINE_PLIES) + " *\n")
    assert fast == slow
    report = json.loads(slow)
    assert report["plies"] == MAX_LINE_PLIES
    assert "game.too-long" not in {d["code"] for d in report["diagnostics"]}


def test_a_longer_mainline_stops_with_a_located_diagnostic() -> None:
    text = HEAD + knights(MAX_LINE_PLIES + 5_000) + " *\n"
    fast, slow = reports(text)
    assert fast == slow
    report = json.loads(slow)
    assert report["plies"] == MAX_LINE_PLIES and report["status"] == "error"
    (long,) = [d for d in report["diagnostics"] if d["code"] == "game.too-long"]
    column = 4 * MAX_LINE_PLIES + 1  # every move is 3 letters and a blank, on line 9
    assert (long["line"], long["column"], long["ply"], long["san"]) == (9, column, MAX_LINE_PLIES + 1, "Nf6")
    assert long["severity"] == "error" and "17697" in long["message"]
    assert report["diagnostics"][-1] == long  # nothing is reported past it, and it only once
    assert "result.mismatch" not in {d["code"] for d in report["diagnostics"]}


def test_the_cap_is_per_line_and_counts_from_the_first_move() -> None:
    # a variation of Black's first move: its plies are 2, 3, ...; 17,696 of them fit
    fits = HEAD + "1. Nf3 Nc6 (1... " + knights(MAX_LINE_PLIES - 1, 1) + ") 2. Nc3 *\n"
    fast, slow = reports(fits)
    assert fast == slow
    assert "game.too-long" not in slow
    assert json.loads(slow)["plies"] == 3
    longer = HEAD + "1. Nf3 Nc6 (1... " + knights(MAX_LINE_PLIES + 100, 1) + " (" + knights(3, 1) + ")) 2. Nc3 *\n"
    fast, slow = reports(longer)
    assert fast == slow
    report = json.loads(slow)
    assert report["plies"] == 3  # the mainline goes on after its variation stopped
    (long,) = [d for d in report["diagnostics"] if d["code"] == "game.too-long"]
    assert long["ply"] == MAX_LINE_PLIES + 1 and long["san"] == SHUFFLE[(MAX_LINE_PLIES) % 4]


def test_the_reader_keeps_no_move_past_the_first_beyond_the_cap() -> None:
    text = HEAD + knights(MAX_LINE_PLIES + 10) + " {after} $1 (" + knights(2) + ") " + knights(4, 3) + " *\n"
    game = parse_game_text(text)
    assert len(game.moves) == MAX_LINE_PLIES + 1
    assert game.moves[-1].variations == [] and game.moves[-1].comments == []
    assert game.result == "*"
    # the reader says where it stopped keeping the line (replay, stopping there, says no more)
    (long,) = game.diagnostics
    assert (long.code, long.line, long.column, long.ply, long.san) == (
        "game.too-long",
        9,
        4 * MAX_LINE_PLIES + 1,
        MAX_LINE_PLIES + 1,
        "Nf6",
    )
    rep = replay(game)
    assert rep.diagnostics == [] and rep.stopped_at == MAX_LINE_PLIES + 1
    # a variation's cap counts from its first ply
    game = parse_game_text(HEAD + "1. Nf3 Nc6 (1... " + knights(MAX_LINE_PLIES + 10, 1) + ") *\n")
    assert len(game.moves[1].variations[0]) == MAX_LINE_PLIES
    assert [(d.code, d.ply) for d in game.diagnostics] == [("game.too-long", MAX_LINE_PLIES + 1)]


def test_a_game_built_by_hand_stops_too() -> None:
    moves = [MoveNode(SHUFFLE[i % 4]) for i in range(MAX_LINE_PLIES + 3)]
    game = Game(tags={"Result": "*"}, moves=moves, result="*")
    rep = replay(game)
    assert len(rep.plies) == MAX_LINE_PLIES and rep.stopped_at == MAX_LINE_PLIES + 1
    assert [d.code for d in rep.diagnostics if d.severity == "error"] == ["game.too-long"]
    assert [d.code for d in check_game(game).diagnostics].count("game.too-long") == 1
    assert write_game(game).count("N") == MAX_LINE_PLIES + 3  # the writer writes what it is given


@pytest.mark.parametrize("use_cython", [False, True])
def test_the_run_terminals_lex_possessively(use_cython: bool) -> None:
    from notation.grammars import lark_cython_available
    from notation.pgn.parser import POSSESSIVE_RUNS, get_parser

    if use_cython and not lark_cython_available():
        pytest.skip("lark-cython is not installed")
    parser, _ = get_parser(use_cython)
    patterns = {terminal.name: terminal.pattern.value for terminal in parser.terminals}
    for name, (_, possessive) in POSSESSIVE_RUNS.items():
        assert patterns[name].endswith(possessive), name  # the grammar's runs still end so
    text = HEAD + "1. e4 {a} $1 e5 ; b\n 2. Nf3 Nc6 (2... d6 3. d4) 3. Bb5 *\n"
    game = parse_game_text(text, use_cython=use_cython)
    assert game.mainline() == ["e4", "e5", "Nf3", "Nc6", "Bb5"] and game.diagnostics == []


_MEASURE = r"""
import io, resource, sys, tempfile
from pathlib import Path
from notation.validation.run import validate
from notation.tables.dataset import import_files

def peak():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024

folder = Path(tempfile.mkdtemp())
small = folder / "small.pgn"
small.write_text('[Result "*"]\n\n1. e4 e5 *\n')
list(validate(small)); import_files([small], folder / "warm")
base = peak()
moves = ("Nf3", "Nf6", "Ng1", "Ng8")
path = folder / "long.pgn"
path.write_text('[Event "Long"]\n[Result "*"]\n\n' + " ".join(moves[i % 4] for i in range(400_000)) + " *\n")
(report,) = validate(path)
assert report.plies == 17697 and report.diagnostics[-1].code == "game.too-long", report
after_validate = peak()
import_files([path], folder / "ds")
print(base, after_validate, peak())
"""


@pytest.mark.parametrize("engine", ["core", "python"])
def test_memory_stays_bounded_on_400000_plies(engine: str) -> None:
    if engine == "core" and core_module() is None:
        pytest.skip("the compiled core is not built")
    env = {"NOTATION_CORE": "python"} if engine == "python" else {}
    import os

    environment = {k: v for k, v in os.environ.items() if k != "NOTATION_CORE"} | env
    out = subprocess.run(
        [sys.executable, "-c", _MEASURE], capture_output=True, text=True, cwd=OUTSIDE, env=environment, check=True
    )
    base, after_validate, after_import = map(int, out.stdout.split())
    # generous: ~30 MB now; over 500 MB when every ply was kept
    assert after_validate - base < 150, (base, after_validate)
    assert after_import - base < 150, (base, after_import)


def test_the_cap_holds_through_validate_and_its_summary() -> None:
    (report,) = validate(io.StringIO(HEAD + knights(MAX_LINE_PLIES + 2) + " *\n"))
    assert report.plies == MAX_LINE_PLIES
    assert report.errors == 1
