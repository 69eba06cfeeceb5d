"""The compiled core's LALR driver (``_core.lalr_parse``) against Lark on the same automaton.

Both parse the same game texts (decoded beforehand, in memory) with the automaton of
``grammars/pgn.lark`` as the product configures it (LALR, contextual lexer, possessive runs):

* ``lark``: Lark in Python building its tree (no transformer) -- the parse the core reproduces;
* ``lark-cython``: the same with the lark-cython plugin, when installed;
* ``core``: ``_core.lalr_parse``, the events of the same tree as a Python list;
* ``hand cut``: for scale, ``_core.lex_game``, the core's hand-written lexer of plain games
  (tokens only, and ``None`` for the games it leaves to Lark): what plain code with hand
  conditions costs against the terminals' regexes.

Reported: games/s in CPU seconds (user + system of this process), the median of interleaved
rounds. The parsers' construction is outside the timing.

Usage::

    python benchmarks/bench_lalr.py [--games 5000] [--rounds 3] [--file PATH]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from notation import _core
from notation.grammars import build_parser, lark_cython_available
from notation.pgn.chunks import RawGame
from notation.pgn.parser import pgn_grammar
from notation.pgn.reader import split_games
from notation.pgn.sources import decode
from notation.pgn.tables import reference_parser

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_FILE = ROOT.parent / "shared" / "corpus" / "games" / "lichess" / "lichess-jishanshaikh4.pgn.gz"


def game_texts(path: Path, count: int) -> list[str]:
    """The decoded texts of the first ``count`` games of ``path`` (all when ``count`` <= 0)."""
    texts: list[str] = []
    for chunk in split_games(path):
        if 0 < count <= len(texts):
            break
        if isinstance(chunk, RawGame) and not chunk.oversized:
            texts.append(chunk.data if isinstance(chunk.data, str) else decode(chunk.data)[0])
    return texts


def timed(parse: Callable[[str], Any], texts: list[str]) -> float:
    """CPU seconds to parse every text (a failure counts as a parse: Lark raises it)."""
    start = time.process_time()
    for text in texts:
        try:
            parse(text)
        except Exception:  # noqa: BLE001 - Lark's UnexpectedInput on the few malformed games
            pass
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5000, help="first N games (0: all)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--file", type=Path, default=DEFAULT_FILE)
    args = parser.parse_args()
    texts = game_texts(args.file, args.games)
    contenders: dict[str, Callable[[str], Any]] = {"lark": reference_parser().parse}
    if lark_cython_available():
        contenders["lark-cython"] = build_parser("pgn", text=pgn_grammar(), use_cython=True, lexer="contextual").parse
    contenders["core"] = _core.lalr_parse
    contenders["hand cut"] = _core.lex_game
    for parse in contenders.values():
        timed(parse, texts[:50])  # warm-up: the core loads its tables, Lark builds its scanners
    seconds: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(args.rounds):
        for name, parse in contenders.items():
            seconds[name].append(timed(parse, texts))
    size = sum(len(text.encode()) for text in texts)
    print(f"{args.file.name}: {len(texts)} games, {size / 1e6:.1f} MB, {args.rounds} rounds (median CPU time)")
    base = statistics.median(seconds["lark"])
    for name, runs in seconds.items():
        median = statistics.median(runs)
        print(f"  {name:12} {len(texts) / median:10,.0f} games/s  {median:7.3f} s  x{base / median:.2f} vs lark")


if __name__ == "__main__":
    main()
