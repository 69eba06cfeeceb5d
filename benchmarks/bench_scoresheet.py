"""Benchmark: scoresheet reconstruction time per sheet.

* clean sheets: real ~80-ply games (70..90 plies) written as plain numbered English SAN;
* sloppy sheets: the same games rendered by the test generator (languages, notations, marks);
* damaged sheets: each game with 3 errors (a move omitted in the first third, a wrong piece
  letter in the middle third, a square one off in the last third; only sheets that no longer
  replay as written), with the recovery outcome.

Times are CPU seconds of this process (``time.process_time``), so that other jobs on the
machine do not inflate them; the process is single-threaded (one core).

Reference: python-chess replaying the clean SAN (``Board.push_san``), for scale.
Targets (one core): < 50 ms per clean 80-ply sheet, < 1 s per sheet with 3 errors.

    python benchmarks/bench_scoresheet.py [--games 40] [--rounds 3]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# the sheet generators are the acceptance test's own (tests/scoresheet/test_scoresheet_corpus.py)
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "scoresheet")]

import chess

from notation.scoresheet.reader import reconstruct
from test_scoresheet_corpus import (
    FILES,
    _replays,
    corpus_games,
    layout,
    localise,
    sloppy_sheet,
)


def _sans(moves: tuple[str, ...]) -> list[str]:
    board = chess.Board()
    out = []
    for uci in moves:
        move = chess.Move.from_uci(uci)
        out.append(board.san(move))
        board.push(move)
    return out


def clean_sheet(sans: list[str]) -> str:
    return " ".join((f"{i // 2 + 1}. " if i % 2 == 0 else "") + s for i, s in enumerate(sans)) + " *\n"


def three_errors(sans: list[str], rng: random.Random) -> list[str] | None:
    """An omitted move, a wrong piece letter and a square one off, in separate thirds."""
    n = len(sans)
    for _ in range(60):
        bad = list(sans)
        pieces = [i for i in range(n // 3, 2 * n // 3) if bad[i][0] in "NBRQK"]
        if not pieces:
            return None
        i = rng.choice(pieces)
        bad[i] = rng.choice([p for p in "NBRQK" if p != bad[i][0]]) + bad[i][1:]
        j = rng.randrange(2 * n // 3, n - 1)
        core = bad[j].rstrip("+#").split("=")[0]
        if core.startswith("O-O"):
            continue
        f, r = core[-2], int(core[-1])
        if rng.random() < 0.5 and 0 <= FILES.index(f) + 1 < 8:
            new = FILES[FILES.index(f) + 1] + str(r)
        elif r < 8:
            new = f + str(r + 1)
        else:
            continue
        bad[j] = core[:-2] + new
        k = rng.randrange(2, n // 3)
        del bad[k]
        if not _replays(bad):
            return bad
    return None


def _time(texts: list[str], rounds: int) -> tuple[list[float], list[object]]:
    per_sheet: list[list[float]] = [[] for _ in texts]
    recs: list[object] = []
    for round_ in range(rounds):
        for index, text in enumerate(texts):
            started = time.process_time()  # CPU time of this (single-threaded) process
            rec = reconstruct(text)
            per_sheet[index].append(time.process_time() - started)
            if round_ == 0:
                recs.append(rec)
    return [min(times) for times in per_sheet], recs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    pool = [g for g in corpus_games(600) if 70 <= len(g) <= 90][: args.games]
    sans = [_sans(g) for g in pool]
    for lang in ("en", "zh", "de", "fr", "es", "nl", "ru"):  # build every parser once
        reconstruct("1. e4", lang=lang)

    clean = [clean_sheet(s) for s in sans]
    sloppy = [sloppy_sheet(g, seed)[0] for seed, g in enumerate(pool)]
    rng = random.Random(6)
    damaged_sans = [three_errors(s, rng) for s in sans]
    damaged = [(layout(localise(b, "en", rng), rng, kind="pairs"), k) for k, b in enumerate(damaged_sans) if b]

    ref = []
    for s in sans:
        started = time.process_time()
        board = chess.Board()
        for san in s:
            board.push_san(san)
        ref.append(time.process_time() - started)

    t_clean, _ = _time(clean, args.rounds)
    t_sloppy, _ = _time(sloppy, args.rounds)
    t_damaged, recs = _time([t for t, _ in damaged], max(1, args.rounds - 2))
    recovered = sum(1 for rec, (_, k) in zip(recs, damaged) if rec.status != "needs-human" and rec.sans == sans[k])
    flagged = sum(1 for rec in recs if rec.status == "needs-human")

    def row(name: str, times: list[float]) -> str:
        ms = [t * 1000 for t in times]
        return f"| {name} | {len(ms)} | {statistics.median(ms):.1f} | {statistics.mean(ms):.1f} | {max(ms):.1f} |"

    plies = statistics.mean(len(s) for s in sans)
    print(f"games: {len(pool)} real games, mean {plies:.1f} plies; best of {args.rounds} rounds per sheet")
    print("| sheet | sheets | median ms | mean ms | max ms |")
    print("|---|---:|---:|---:|---:|")
    print(row("python-chess push_san, clean SAN (reference)", ref))
    print(row("clean 80-ply sheet", t_clean))
    print(row("sloppy sheet (languages, notations, marks)", t_sloppy))
    print(row("sheet with 3 errors", t_damaged))
    print(
        f"3-error sheets: {recovered}/{len(damaged)} recovered exactly, {flagged} flagged for a human, "
        f"{len(damaged) - recovered - flagged} other"
    )
    print(f"clean sheet vs python-chess replay: {statistics.median(t_clean) / statistics.median(ref):.1f}x")


if __name__ == "__main__":
    main()
