"""Differential test against python-chess (test-only reference) over the shared corpus games.

For every compared standard-chess game: the SAN text of every move (ours from our move vs
python-chess's), our parse of python-chess's SAN, the FEN after every ply, the legal move sets
on a sample of plies, and the repetition keys' equality classes (two positions share our key
iff python-chess's ``_transposition_key()`` is equal), checked across all compared positions.
The default run compares a fixed sample of games per file; the full sweep is marked slow.
"""

from __future__ import annotations

import gzip
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

import chess
import chess.pgn
import pytest

from notation import Move, Position
from conftest import corpus_path

SAMPLE_PER_FILE = 12
LEGAL_EVERY = 7  # compare full legal move sets on every 7th ply (and at the game end)


def _files(root: Path) -> list[Path]:
    files = sorted(p for p in root.rglob("*") if p.name.endswith((".pgn", ".pgn.gz")))
    assert files, f"no PGN files under {root}"
    return files


def _open(path: Path) -> TextIO:
    if path.name.endswith(".gz"):
        return gzip.open(path, "rt", encoding="utf-8", errors="replace")
    return open(path, encoding="utf-8", errors="replace")


def _standard_games(path: Path, limit: int | None, chess960: bool = False) -> Iterator[chess.pgn.Game]:
    with _open(path) as fh:
        yield from _read(fh, limit, chess960)


def _read(fh: TextIO, limit: int | None, chess960: bool) -> Iterator[chess.pgn.Game]:
    taken = scanned = 0
    while limit is None or (taken < limit and scanned < 3 * limit):
        scanned += 1
        try:
            game = chess.pgn.read_game(fh)
        except Exception:  # noqa: BLE001  (python-chess gave up on the rest of this file)
            return
        if game is None:
            return
        board = game.board()
        if type(board) is not chess.Board or board.chess960 != chess960 or game.errors:
            continue
        variant = game.headers.get("Variant", "Standard").lower()
        if not chess960 and variant not in ("standard", "from position", "chess"):
            continue
        taken += 1
        yield game


class _Classes:
    """Checks that our key and python-chess's transposition key induce the same partition."""

    def __init__(self) -> None:
        self.ours: dict[int, object] = {}
        self.theirs: dict[object, int] = {}

    def add(self, ours: int, theirs: object, where: str) -> None:
        prev = self.ours.setdefault(ours, theirs)
        assert prev == theirs, f"{where}: our key collides for different positions"
        prev_key = self.theirs.setdefault(theirs, ours)
        assert prev_key == ours, f"{where}: same position, different keys"


def _compare_game(game: chess.pgn.Game, classes: _Classes, label: str) -> int:
    board = game.board()
    pos = Position.from_fen(board.fen(), chess960=board.chess960)
    assert pos.fen() == board.fen(), label
    classes.add(pos.key(), board._transposition_key(), label)
    plies = 0
    for mv in game.mainline_moves():
        where = f"{label} ply {plies + 1} ({board.fen()})"
        if plies % LEGAL_EVERY == 0:
            assert sorted(m.uci() for m in pos.legal_moves()) == sorted(m.uci() for m in board.legal_moves), where
        their_san = board.san(mv)
        ours = pos.parse_san(their_san, strict=True)
        assert ours == Move(mv.from_square, mv.to_square, mv.promotion), where
        assert pos.san(ours) == their_san, where
        board.push(mv)
        pos = pos.play(ours)
        plies += 1
        assert pos.fen() == board.fen(), where
        classes.add(pos.key(), board._transposition_key(), where)
    assert sorted(m.uci() for m in pos.legal_moves()) == sorted(m.uci() for m in board.legal_moves), label
    assert pos.is_checkmate() == board.is_checkmate(), label
    assert pos.is_stalemate() == board.is_stalemate(), label
    return plies


def _sweep(limit: int | None, capsys: pytest.CaptureFixture[str], chess960: bool = False) -> None:
    root = corpus_path("games")
    classes = _Classes()
    games = plies = 0
    per_file = []
    for path in _files(root):
        n = 0
        for number, game in enumerate(_standard_games(path, limit, chess960), 1):
            plies += _compare_game(game, classes, f"{path.name} game {number}")
            n += 1
        per_file.append(f"{path.name}: {n}")
        games += n
    with capsys.disabled():
        kind = "Chess960" if chess960 else "standard"
        print(
            f"\n[differential vs python-chess, {kind}] compared {games} games, {plies} plies, "
            f"{len(classes.ours)} distinct positions ({'; '.join(per_file)})"
        )
    assert games > 0 and plies > 0


def test_differential_sample(capsys: pytest.CaptureFixture[str]) -> None:
    _sweep(SAMPLE_PER_FILE, capsys)


def test_differential_chess960_sample(capsys: pytest.CaptureFixture[str]) -> None:
    _sweep(8, capsys, chess960=True)


@pytest.mark.slow
def test_differential_full_corpus(capsys: pytest.CaptureFixture[str]) -> None:
    _sweep(None, capsys)


@pytest.mark.slow
def test_differential_chess960_full(capsys: pytest.CaptureFixture[str]) -> None:
    _sweep(None, capsys, chess960=True)
