"""Differential test: `validate` against python-chess (test-only reference).

For every standard-chess (and Chess960) game of ../shared/corpus/games/, both sides replay the
same raw game text (the chunk `split_games` gives, so games pair up exactly) and must agree on:
the number of legal mainline plies, the final FEN, the `threefold` and `fifty_moves` claim plies
(python-chess `is_repetition(3)` / `is_fifty_moves()` after each ply), checkmate/stalemate at the
end, and whether the game is rejected (python-chess `game.errors` vs our replay errors).

The default run checks a fixed sample of every file; `-m slow` sweeps the whole corpus.

Known, deliberate differences (counted and printed, not failures; python-chess's input is
normalised where it reads valid PGN differently):
- python-chess ends a game at a second consecutive blank line after the tags; runs of blank
  lines are folded to one before python-chess reads the text.
- python-chess reads a token with an unknown piece letter such as ``Sf3`` as the pawn move
  ``f3``; the issue demands an error (never guess). Such games are counted as `unknown_piece`.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from pathlib import Path

import chess
import chess.pgn
import pytest
from conftest import SAMPLE_GAMES, corpus_path

from notation.pgn.reader import parse_raw_game, split_games
from notation.validation.reports import check_game

_BLANK_LINES = re.compile(r"\n[ \t]*\n(?:[ \t]*\n)+")
REPLAY_ERRORS = ("san.", "fen.invalid", "game.move-after-end", "internal.error")

# corpus file -> stride of the default sample (every n-th game; 1 = all): about 700 games.
GAME_FILES: dict[str, int] = {
    "otb-pgnmentor/Anand.pgn.gz": 150,
    "otb-pgnmentor/Capablanca.pgn.gz": 40,
    "otb-pgnmentor/Carlsen.pgn.gz": 150,
    "otb-pgnmentor/Fischer.pgn.gz": 60,
    "otb-pgnmentor/Kasparov.pgn.gz": 60,
    "otb-pgnmentor/Kosteniuk.pgn.gz": 150,
    "lichess/lichess-jishanshaikh4.pgn.gz": 150,
    "lichess/lichess_DannyTheDonkey_2019-01-29.pgn.gz": 5,
    "lichess/chesscom_MagnusCarlsen_games.pgn.gz": 10,
    "classic/London1851.pgn": 10,
    "classic/WorldChamp1886.pgn": 2,
    "classic/tatamast22.pgn": 10,
    "classic/Carlsen8games.pgn": 1,
    "classic/Philidor.pgn": 1,
    "classic/Tarrasch7games.pgn": 1,
    "engine/tcec-other.pgn.gz": 25,
    "engine/tcec-chess960-first1500.pgn.gz": 50,
}


class _Quiet(chess.pgn.GameBuilder):  # type: ignore[type-arg]
    """python-chess's builder without logging every error it records."""

    def handle_error(self, error: Exception) -> None:
        self.game.errors.append(error)


def reference(text: str) -> dict[str, object] | None:
    """python-chess's view of one game (None for variants other than standard/Chess960)."""
    # python-chess ends a game at a second blank line after the tags (Anand.pgn has
    # "tags, blank, blank, 1.b3 1-0"); PGN treats any run of white space alike, so fold them.
    text = _BLANK_LINES.sub("\n\n", text.replace("\r\n", "\n"))
    game = chess.pgn.read_game(io.StringIO(text), Visitor=_Quiet)
    if game is None:
        return None
    board = game.board()
    if type(board) is not chess.Board:
        return None
    plies = 0
    threefold = fifty = None
    for move in game.mainline_moves():
        board.push(move)
        plies += 1
        if threefold is None and board.is_repetition(3):
            threefold = plies
        if fifty is None and board.is_fifty_moves():
            fifty = plies
    return {
        "rejected": bool(game.errors),
        "plies": plies,
        "fen": board.fen(),
        "threefold": threefold,
        "fifty": fifty,
        "checkmate": board.is_checkmate(),
        "stalemate": board.is_stalemate(),
    }


def compare_file(path: Path, stride: int = 1) -> tuple[Counter[str], list[str]]:
    """Counts of what was compared and a list of disagreements for one corpus file
    (every ``stride``-th game)."""
    counts: Counter[str] = Counter()
    problems: list[str] = []
    for raw in split_games(path):
        if (raw.number - 1) % stride:
            continue
        counts["games"] += 1
        report = check_game(parse_raw_game(raw))
        if report.status == "unsupported":
            counts["unsupported"] += 1
            continue
        ref = reference(raw.text)
        if ref is None:
            counts["reference_skipped"] += 1
            continue
        ours_rejected = any(d.code.startswith(REPLAY_ERRORS) and d.severity == "error" for d in report.diagnostics)
        where = f"{path.name} game {report.game} (line {report.line})"
        if any(d.code == "san.unknown-piece" for d in report.diagnostics):
            counts["unknown_piece"] += 1
            continue
        counts["compared"] += 1
        counts["plies"] += report.plies
        if ours_rejected != ref["rejected"]:
            problems.append(
                f"{where}: rejected ours={ours_rejected} python-chess={ref['rejected']}: "
                f"{[d.code for d in report.diagnostics]}"
            )
            continue
        if ours_rejected:
            # both reject: python-chess's recovery (it may drop the rest of the mainline after a
            # bad variation, or play on from a FEN it does not validate) is not comparable
            counts["rejected_both"] += 1
            continue
        if report.plies != ref["plies"]:
            problems.append(f"{where}: plies {report.plies} != {ref['plies']}")
        if report.final_fen != ref["fen"]:
            problems.append(f"{where}: final FEN {report.final_fen} != {ref['fen']}")
        if report.claims.threefold != ref["threefold"]:
            problems.append(f"{where}: threefold {report.claims.threefold} != {ref['threefold']}")
        if report.claims.fifty_moves != ref["fifty"]:
            problems.append(f"{where}: fifty {report.claims.fifty_moves} != {ref['fifty']}")
        automatic = report.claims.fivefold is not None or report.claims.seventyfive_moves is not None
        if report.outcome.termination == "dead_position":
            # the game ended at its first dead position (FIDE 5.2.2), which python-chess does not
            # look for: what was played after it can end in stalemate, never in mate
            if ref["checkmate"]:
                problems.append(f"{where}: dead position, yet python-chess ends in mate")
        elif not automatic:
            mate = report.outcome.termination == "checkmate"
            stale = report.outcome.termination == "stalemate"
            if (mate, stale) != (ref["checkmate"], ref["stalemate"]):
                problems.append(
                    f"{where}: ending {report.outcome} != mate={ref['checkmate']} stalemate={ref['stalemate']}"
                )
        counts["threefold"] += report.claims.threefold is not None
        counts["fifty_moves"] += report.claims.fifty_moves is not None
        counts["checkmate"] += ref["checkmate"]  # type: ignore[operator]
        counts["stalemate"] += ref["stalemate"]  # type: ignore[operator]
    return counts, problems


def _run(sample: bool) -> None:
    total: Counter[str] = Counter()
    problems: list[str] = []
    for name, stride in GAME_FILES.items():
        path = corpus_path("games", name)
        counts, found = compare_file(path, stride if sample else 1)
        total.update(counts)
        problems.extend(found)
    print(
        f"\ndifferential vs python-chess ({'fixed sample' if sample else 'whole corpus'}): "
        + ", ".join(f"{k} {v}" for k, v in sorted(total.items()))
    )
    assert not problems, "\n".join(problems[:50])


def test_differential_sample() -> None:
    _run(True)


def test_differential_rejections_on_the_broken_samples() -> None:
    """The corpus has no game either side rejects; the broken samples do (illegal, ambiguous,
    after mate, in a variation, invalid FEN): python-chess and we must reject the same games."""
    counts, problems = compare_file(SAMPLE_GAMES / "broken.pgn")
    print(f"\nbroken.pgn vs python-chess: {dict(sorted(counts.items()))}")
    assert not problems, problems
    assert counts["rejected_both"] == 5 and counts["unknown_piece"] == 1


@pytest.mark.slow
def test_differential_whole_corpus() -> None:
    _run(False)
