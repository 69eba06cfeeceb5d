"""Benchmark: scoresheets you can trust (injected errors on real games, ranked readings, time).

Sheets are made from real games of ``../shared/corpus/games/otb-pgnmentor/`` (the first
:data:`SKIP` games of each file are left out: the older tests use the start of some of these
files). Each sheet carries ``--errors`` injected errors (1, 2 or 3), the kinds in turn:

* ``piece``: a wrong piece letter (``Bf3`` for ``Nf3``);
* ``square``: the target square one file or one rank off;
* ``omitted``: a move left out;
* ``transposed``: two moves of one side written in swapped order (cells *i* and *i* + 2);
* ``confusion``: a handwriting confusion, one character read as a confusable one
  (``1/l/7``, ``5/S``, ``6/b/G``, ``8/B``, ``0/O/D``, ``9/g``, ``c/e``, ``h/b/n``, ``a/d``, ``x/+``).

The generator enforces, for every sheet: it is unplayable as written (no reading of it as
written, an ambiguous move resolved either way, replays legally: python-chess is the judge), and
each error leaves no legal game identical to the original: the erroneous cell does not read, as
written, as the original move (an omission or a swap of two different moves always changes the
game), and each error *on its own* makes the original sheet unplayable (an error that is itself
a legal move to the end, a different legal game, cannot be seen by anyone). Errors of one sheet
are drawn on the original sheet at least 7 cells apart and then applied together. Draws that
break a rule are redrawn (up to 40 times per error).

Outcomes per sheet: ``exact`` (exit 0 with the original game), ``wrong`` (exit 0 with a different
game: must never happen), ``first`` (exact, or exit 1 with the original as reading 1),
``listed`` (the original among the readings listed); ``tied``: not first, but the original
is exactly as likely as the first (a tie nothing in the sheet or the priors breaks: two
transpositions of the same boxes that give two games, two moves left out that the boxes after
them both fit). The reader says so (a correction's ``tied`` moves: "equally likely: the sheet
cannot tell them apart"), so ``first or tied first`` (first, or tied with the first) is reported
beside the strict ``ranked first``: a coin flip lost is no misreading, but not a win either.
Times are CPU seconds of this process.

    nice python benchmarks/bench_scoresheet_trust.py --sheets 1000 --errors 1
"""

from __future__ import annotations

import argparse
import gzip
import io
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import chess
import chess.pgn

ROOT = Path(__file__).resolve().parent.parent
# the replay check and the square shift are the acceptance test's own (tests/scoresheet/test_scoresheet_corpus.py)
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "scoresheet")]

from bench_replay import game_sans
from test_scoresheet_corpus import _replays as replays
from test_scoresheet_corpus import shift_square

CORPUS = ROOT.parent / "shared" / "corpus" / "games" / "otb-pgnmentor"
KINDS = ("piece", "square", "omitted", "transposed", "confusion")
SKIP = 700  # games per file left out (the start of Carlsen and Capablanca is used by older tests)
CONFUSABLE_GROUPS = ("1l7", "5S", "6bG", "8B", "0OD", "9g", "ce", "hbn", "ad", "x+")
_CONFUSABLE: dict[str, str] = {}
for _group in CONFUSABLE_GROUPS:
    for _char in _group:
        _CONFUSABLE[_char] = _CONFUSABLE.get(_char, "") + _group.replace(_char, "")


def games(count: int, skip: int = SKIP, corpus: Path = CORPUS) -> list[list[str]]:
    """``count`` standard games of 20..200 plies (English SAN), in turn from each file after ``skip``."""
    files = sorted(corpus.glob("*.pgn*"))
    if not files:
        raise FileNotFoundError(f"no games in {corpus}")
    readers = [_read(path, skip) for path in files]
    out: list[list[str]] = []
    while len(out) < count and readers:
        for reader in list(readers):
            game = next(reader, None)
            if game is None:
                readers.remove(reader)
            elif len(out) < count:
                out.append(game)
    return out


def _read(path: Path, skip: int) -> Iterator[list[str]]:
    raw = gzip.open(path, "rb") if path.suffix == ".gz" else open(path, "rb")
    handle = io.TextIOWrapper(raw, encoding="latin-1", newline="")
    for _ in range(skip):
        if not chess.pgn.skip_game(handle):
            return
    while True:
        game = chess.pgn.read_game(handle)
        if game is None:
            return
        if "FEN" in game.headers or game.errors or game.headers.get("Variant", "Standard") not in ("Standard", ""):
            continue
        sans = game_sans(game)
        if 20 <= len(sans) <= 200:
            yield sans


def _same_text(token: str, original: str) -> bool:
    def norm(text: str) -> str:
        return text.replace("0", "O").replace("x", "").replace("+", "").replace("#", "")

    return norm(token) == norm(original)


def _reads_as(token: str, original: str, sans: list[str], index: int) -> bool:
    """True when ``token`` written for ply ``index`` of ``sans`` says the ``original`` move: it
    reads (python-chess, as written) as the same move, or (where an earlier error leaves no
    board) it is the same text up to capture and check marks and 0/O."""
    if _same_text(token, original):
        return True
    board = chess.Board()
    try:
        for san in sans[:index]:
            board.push_san(san)
    except ValueError:
        return False
    try:
        return board.parse_san(token) == board.parse_san(original)
    except ValueError:
        return False


def inject(sans: list[str], kind: str, rng: random.Random, avoid: set[int]) -> tuple[list[str], int] | None:
    """``sans`` with one error of ``kind`` (cells in ``avoid`` left alone), and its cell."""
    n = len(sans)
    for _ in range(40):
        bad = list(sans)
        if kind == "piece":
            options = [i for i, s in enumerate(sans) if s[0] in "NBRQK" and i not in avoid]
            if not options:
                return None
            i = rng.choice(options)
            bad[i] = rng.choice([p for p in "NBRQK" if p != sans[i][0]]) + sans[i][1:]
        elif kind == "square":
            i = rng.randrange(n)
            shifted = None if i in avoid else shift_square(sans[i], rng)
            if shifted is None:
                continue
            bad[i] = shifted
        elif kind == "omitted":
            i = rng.randrange(n - 2)  # an omission among the last plies cannot be seen
            if i in avoid:
                continue
            del bad[i]
        elif kind == "transposed":
            i = rng.randrange(n - 2)
            if {i, i + 2} & avoid or bad[i] == bad[i + 2]:
                continue
            bad[i], bad[i + 2] = bad[i + 2], bad[i]
        else:  # confusion: one character read as a confusable one
            i = rng.randrange(n)
            token = sans[i]
            spots = [(k, c) for k, c in enumerate(token) if c in _CONFUSABLE]
            if not spots or i in avoid:
                continue
            k, c = rng.choice(spots)
            bad[i] = token[:k] + rng.choice(_CONFUSABLE[c]) + token[k + 1 :]
        if kind in ("piece", "square", "confusion") and _reads_as(bad[i], sans[i], sans, i):
            continue  # the cell still says the original move: no error
        if replays(bad):
            continue  # on its own the error leaves a legal game: nobody could see it
        return bad, i
    return None


def _apply(sans: list[str], kind: str, i: int, single: list[str]) -> list[str]:
    """``sans`` with the error that made ``single`` (at cell ``i``) applied (cells after ``i``
    in ``sans`` still at the original places)."""
    out = list(sans)
    if kind == "omitted":
        del out[i]
    elif kind == "transposed":
        out[i], out[i + 2] = out[i + 2], out[i]
    else:
        out[i] = single[i]
    return out


def error_sheet(
    sans: list[str], errors: int, seed: int, kinds: tuple[str, ...] = KINDS
) -> tuple[str, list[str]] | None:
    """(sheet text, kinds injected) with ``errors`` errors, unplayable as written; None if none fits."""
    rng = random.Random(seed)
    for _ in range(20):
        avoid: set[int] = set()
        chosen: list[tuple[int, str, list[str]]] = []
        for e in range(errors):
            kind = kinds[(seed + e) % len(kinds)] if e == 0 else rng.choice(kinds)
            made = inject(sans, kind, rng, avoid)  # each error on its own makes the sheet unplayable
            if made is None:
                break
            single, i = made
            avoid |= set(range(i - 6, i + 7))  # errors apart from each other
            chosen.append((i, kind, single))
        else:
            bad = list(sans)
            for i, kind, single in sorted(chosen, key=lambda item: -item[0]):  # last first: no shifts
                bad = _apply(bad, kind, i, single)
            if not replays(bad):
                return layout(bad), [kind for _, kind, _ in chosen]
    return None


def layout(sans: list[str]) -> str:
    parts = [(f"{i // 2 + 1}. " if i % 2 == 0 else "") + s for i, s in enumerate(sans)]
    return "\n".join(" ".join(parts[k : k + 12]) for k in range(0, len(parts), 12)) + "\n"


def classify(rec: object, original: list[str]) -> dict[str, bool]:
    """The outcome flags of one reconstruction against the original game."""
    readings = [list(r.sans) for r in rec.readings]  # type: ignore[attr-defined]
    confident = rec.status != "needs-human"  # type: ignore[attr-defined]
    exact = confident and list(rec.sans) == original  # type: ignore[attr-defined]
    first = exact or (not confident and bool(readings) and readings[0] == original)
    scored = getattr(rec, "readings", [])
    tied = not first and any(
        list(r.sans) == original and abs(r.probability - scored[0].probability) < 1e-9 for r in scored
    )  # a coin flip lost
    return {
        "exact": exact,
        "wrong": confident and not exact,
        "first": first,
        "listed": exact or original in readings,
        "tied": tied,
    }


def run(
    count: int, errors: int, seed0: int = 0, *, verbose: bool = False, pool: list[list[str]] | None = None
) -> dict[str, object]:
    """Outcomes of ``count`` sheets made from ``pool`` (default: ``games(count * 2)``)."""
    from notation.scoresheet.reader import reconstruct

    reconstruct("1. e4")  # build the parser once
    if pool is None:
        pool = games(count * 2)
    outcomes: dict[str, Counter[str]] = {kind: Counter() for kind in (*KINDS, "all")}
    times: list[float] = []
    wrong: list[str] = []
    made_count = 0
    for k, sans in enumerate(pool):
        if made_count >= count:
            break
        made = error_sheet(sans, errors, seed0 + k)
        if made is None:
            continue
        made_count += 1
        text, kinds = made
        started = time.process_time()
        rec = reconstruct(text)
        times.append(time.process_time() - started)
        flags = classify(rec, sans)
        for bucket in (kinds[0], "all"):
            outcomes[bucket]["sheets"] += 1
            outcomes[bucket].update(name for name, on in flags.items() if on)
        if flags["wrong"]:
            wrong.append(f"game {k} ({'+'.join(kinds)})")
        if verbose and not flags["first"]:
            tie = "tied with the first" if flags["tied"] else "first reading differs"
            print(f"game {k} {kinds}: status {rec.status}, {tie}", file=sys.stderr)
    return {"outcomes": outcomes, "times": times, "wrong": wrong}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sheets", type=int, default=100)
    parser.add_argument("--errors", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    started = time.perf_counter()
    result = run(args.sheets, args.errors, args.seed, verbose=args.verbose)
    outcomes: dict[str, Counter[str]] = result["outcomes"]  # type: ignore[assignment]
    times: list[float] = result["times"]  # type: ignore[assignment]
    print(
        f"{args.errors} error(s) per sheet, {outcomes['all']['sheets']} sheets, seed {args.seed}, "
        f"{time.perf_counter() - started:.0f} s wall"
    )
    print(
        "| kind (first error) | sheets | exact, exit 0 | ranked first | first or tied first | listed | "
        "confident wrong |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for kind in (*KINDS, "all"):
        c = outcomes[kind]
        n = c["sheets"]
        if not n:
            continue
        print(
            f"| {kind} | {n} | {c['exact'] / n:.1%} | {c['first'] / n:.1%} | {(c['first'] + c['tied']) / n:.1%} | "
            f"{c['listed'] / n:.1%} | {c['wrong']} |"
        )
    ms = sorted(t * 1000 for t in times)
    print(
        f"time per sheet (CPU): median {statistics.median(ms):.0f} ms, mean {statistics.mean(ms):.0f} ms, "
        f"p95 {ms[int(len(ms) * 0.95)]:.0f} ms, max {ms[-1]:.0f} ms, over 5 s: {sum(t > 5000 for t in ms)}"
    )
    if result["wrong"]:
        print("confident wrong:", ", ".join(result["wrong"]))  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
