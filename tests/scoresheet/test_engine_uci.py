"""The UCI client (notation.engines.uci): the handshake, scores read from ``info`` lines, the
engine always quit (killed when it will not go), and an engine that dies, hangs or is no UCI
engine at all giving an EngineError that says so, never a hang. A fake engine (tests/uci_support.py)
stands in for a real one; one test runs Stockfish when it is installed."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

import notation.engines.uci as uci
from uci_support import commands, fake_engine
from notation.engines.uci import MATE_SCORE, EngineError, Score, UciEngine, parse_info

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
STOCKFISH = shutil.which("stockfish") or ("/usr/games/stockfish" if os.path.exists("/usr/games/stockfish") else None)


def test_parse_info_reads_scores_bounds_and_the_first_move() -> None:
    info = parse_info("info depth 12 seldepth 15 multipv 2 score cp -31 nodes 1000 nps 5 pv g1f3 d7d5 c2c4")
    assert info is not None
    assert (info.multipv, info.score, info.bound, info.move) == (2, Score(-31, None, 12), False, "g1f3")
    mate = parse_info("info depth 3 score mate 2 pv d8h4")
    assert mate is not None and mate.score == Score(MATE_SCORE - 2, 2, 3)
    mated = parse_info("info depth 3 score mate -1 lowerbound pv e1e2")
    assert mated is not None and mated.score is not None and mated.score.cp == -(MATE_SCORE - 1) and mated.bound
    assert parse_info("info depth 0 score mate 0") is not None
    for line in ("info string NNUE enabled score cp 3", "info depth 5 nodes 10", "bestmove e2e4", "",
                 "info score cp", "info score cp x pv e2e4", "info multipv"):
        assert parse_info(line) is None


def test_handshake_and_scores_of_the_moves_searched(tmp_path: Path) -> None:
    path = fake_engine(tmp_path, {"e2e4": 40, "g1h3": -60})
    with UciEngine(path) as engine:
        assert engine.name == "Fake Engine 1.0" and "multipv" in engine.options
        got = engine.scores(START, ["e2e4", "g1h3", "a2a3"], movetime=0.05)
        assert engine.alive
    # the exact depth-2 scores, not the depth-1 bounds before them
    assert {m: s.cp for m, s in got.items()} == {"e2e4": 40, "g1h3": -60, "a2a3": 0}
    sent = commands(tmp_path)
    assert sent[:2] == ["uci", "isready"] and "setoption name MultiPV value 3" in sent
    assert f"position fen {START}" in sent
    assert "go movetime 50 searchmoves e2e4 g1h3 a2a3" in sent
    assert sent[-1] == "quit"


def test_an_engine_without_multipv_is_asked_move_by_move(tmp_path: Path) -> None:
    path = fake_engine(tmp_path, {"e2e4": 40, "g1h3": -60}, mode="no-multipv")
    with UciEngine(path) as engine:
        got = engine.scores(START, ["e2e4", "g1h3"], nodes=100)
    assert {m: s.cp for m, s in got.items()} == {"e2e4": 40, "g1h3": -60}
    assert f"position fen {START} moves g1h3" in commands(tmp_path)


def test_the_engine_is_always_quit(tmp_path: Path) -> None:
    path = fake_engine(tmp_path)
    engine = UciEngine(path)
    process = engine._process
    try:
        raise RuntimeError("the caller fails")
    except RuntimeError:
        engine.close()
    assert process.poll() is not None and commands(tmp_path)[-1] == "quit"
    with pytest.raises(KeyError), UciEngine(path) as engine:
        process = engine._process
        raise KeyError("inside the block")
    assert process.poll() is not None
    engine.close()  # closing twice is harmless


def test_an_engine_that_ignores_quit_is_killed(tmp_path: Path) -> None:
    path = fake_engine(tmp_path, mode="ignore-quit")
    began = time.monotonic()
    with UciEngine(path) as engine:
        process = engine._process
    assert process.poll() is not None
    assert time.monotonic() - began < uci.QUIT_TIMEOUT + 5


@pytest.mark.parametrize(("mode", "words"), [("exit", "exited"), ("silent", "did not answer 'uci'")])
def test_a_program_that_is_no_uci_engine_is_an_error_not_a_hang(tmp_path: Path, mode: str, words: str) -> None:
    path = fake_engine(tmp_path, mode=mode)
    began = time.monotonic()
    with pytest.raises(EngineError, match=words):
        UciEngine(path, startup_timeout=0.5)
    assert time.monotonic() - began < 5


def test_a_missing_or_unrunnable_program_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(EngineError, match="cannot start the engine"):
        UciEngine(str(tmp_path / "no-such-engine"))
    text = tmp_path / "plain.txt"
    text.write_text("not a program\n", encoding="utf-8")
    with pytest.raises(EngineError, match="cannot start the engine"):
        UciEngine(str(text))


def test_an_engine_that_dies_when_searching_is_an_error(tmp_path: Path) -> None:
    path = fake_engine(tmp_path, mode="die-on-go")
    with UciEngine(path) as engine:
        with pytest.raises(EngineError, match="exited"):
            engine.scores(START, ["e2e4", "d2d4"], movetime=0.05)
        assert not engine.alive
        with pytest.raises(EngineError):
            engine.scores(START, ["e2e4"], movetime=0.05)


def test_an_engine_that_stops_answering_times_out_and_is_killed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                                ) -> None:
    monkeypatch.setattr(uci, "GRACE", 0.2)
    monkeypatch.setattr(uci, "QUIT_TIMEOUT", 0.2)
    path = fake_engine(tmp_path, mode="hang-on-go")
    began = time.monotonic()
    with UciEngine(path) as engine:
        process = engine._process
        with pytest.raises(EngineError, match="did not answer 'go' in time"):
            engine.scores(START, ["e2e4", "d2d4"], movetime=0.05)
        assert not engine.alive
    assert process.poll() is not None
    assert time.monotonic() - began < 5


@pytest.mark.skipif(STOCKFISH is None, reason="Stockfish is not installed")
def test_stockfish_scores_a_blunder_below_a_good_move() -> None:
    assert STOCKFISH is not None
    # 1. e4 e5 2. Qh5 Nc6 3. Bc4: Black's Nf6?? allows Qxf7#, g6 does not
    fen = "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3"
    with UciEngine(STOCKFISH) as engine:
        got = engine.scores(fen, ["g8f6", "g7g6"], movetime=0.2)
        process = engine._process
    assert set(got) == {"g8f6", "g7g6"}
    assert got["g8f6"].mate is not None and got["g8f6"].mate < 0
    assert got["g7g6"].cp > got["g8f6"].cp + 1000
    assert process.poll() is not None
