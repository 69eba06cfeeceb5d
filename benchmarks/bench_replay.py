"""Replay benchmark: SAN text -> move -> new position -> repetition key, over every ply of a real
corpus file, against python-chess ``Board.push_san`` on the same move lists, same process.

Move lists are extracted with python-chess first (outside the timed part). Rounds are
interleaved; each side's best (minimum) CPU time (``time.process_time``) is reported, which keeps
the ratio meaningful on a machine shared with other work.

    python benchmarks/bench_replay.py [PGN(.gz)] [--games N] [--rounds R]
"""

from __future__ import annotations

import argparse
import gzip
import time
from pathlib import Path

import chess
import chess.pgn

ROOT = Path(__file__).resolve().parent.parent

from notation import Position

DEFAULT = ROOT.parent / "shared" / "corpus" / "games" / "otb-pgnmentor" / "Carlsen.pgn.gz"


def extract(path: Path, limit: int | None) -> list[list[str]]:
    opener = gzip.open if path.suffix == ".gz" else open
    games: list[list[str]] = []
    with opener(path, "rt", encoding="latin-1") as fh:  # type: ignore[operator]
        while limit is None or len(games) < limit:
            game = chess.pgn.read_game(fh)
            if game is None:
                break
            if game.headers.get("Variant", "Standard").lower() not in ("standard", "chess"):
                continue
            if "FEN" in game.headers or game.errors:
                continue
            games.append(game_sans(game))
    return games


def game_sans(game: chess.pgn.Game) -> list[str]:
    """The main line of ``game`` as English SAN."""
    board = game.board()
    sans = []
    for move in game.mainline_moves():
        sans.append(board.san(move))
        board.push(move)
    return sans


def run_ours(games: list[list[str]]) -> float:
    start = Position.initial()
    t0 = time.process_time()
    for sans in games:
        pos = start
        for san in sans:
            pos = pos.play(pos.parse_san(san))
            pos.key()
    return time.process_time() - t0


def run_ours_play_san(games: list[list[str]]) -> float:
    start = Position.initial()
    t0 = time.process_time()
    for sans in games:
        pos = start
        for san in sans:
            _move, pos = pos.play_san(san)
            pos.key()
    return time.process_time() - t0


def run_python_chess(games: list[list[str]]) -> float:
    t0 = time.process_time()
    for sans in games:
        board = chess.Board()
        for san in sans:
            board.push_san(san)
    return time.process_time() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("path", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--games", type=int, default=None, help="only the first N games")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    games = extract(args.path, args.games)
    plies = sum(len(g) for g in games)
    ours: list[float] = []
    fused: list[float] = []
    theirs: list[float] = []
    for _ in range(args.rounds):
        theirs.append(run_python_chess(games))
        ours.append(run_ours(games))
        fused.append(run_ours_play_san(games))
    o, t, p = min(ours), min(theirs), min(fused)
    print(f"file: {args.path.name}  games: {len(games)}  plies: {plies}  rounds: {args.rounds}")
    print(f"notation  : {o:8.3f} s  {plies / o:10.0f} plies/s  (parse_san + play + key)")
    print(f"python-chess: {t:6.3f} s  {plies / t:10.0f} plies/s  (push_san)")
    print(f"notation play_san: {p:6.3f} s  {plies / p:10.0f} plies/s  (play_san + key)")
    print(f"ratio     : {t / o:.2f}x (parse_san + play), {t / p:.2f}x (play_san)")


if __name__ == "__main__":
    main()
