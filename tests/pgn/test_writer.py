"""The PGN writer: export format, options, and round trips (corpus and generated games)."""

from __future__ import annotations

import io
import itertools
import random
import re
from pathlib import Path

import chess
import chess.pgn
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notation.pgn.model import SEVEN_TAG_ROSTER, Game, MoveNode
from notation.pgn.reader import read_games
from notation.pgn.writer import write_game, write_games
from conftest import corpus_game_files

ANNOTATED = (
    '[White "Tal, \\"Misha\\""]\n[Result "1-0"]\n[Event "Riga"]\n[Annotator "me"]\n\n'
    "{Intro} 1. e4! {Best by test} e5 (1... c5 {Sicilian} 2. Nf3 (2. c3 d5) 2... d6) "
    "2. Nf3 $14 Nc6 3. Bb5 a6 $2 1-0\n"
)


def _read_one(text: str) -> Game:
    games = list(read_games(io.StringIO(text)))
    assert len(games) == 1
    return games[0]


def check_export_format(text: str) -> None:
    """Tags: roster first in order, one per line; movetext lines < 80 chars (single long words
    excepted); one blank line between the tags and the movetext."""
    for chunk in text.strip("\n").split("\n\n"):
        lines = chunk.split("\n")
        if lines[0].startswith("["):
            names = [re.match(r"\[(\S+) ", line).group(1) for line in lines]  # type: ignore[union-attr]
            roster = [n for n in names if n in SEVEN_TAG_ROSTER]
            assert names[: len(roster)] == roster
            assert roster == [n for n in SEVEN_TAG_ROSTER if n in roster]
            continue
        for line in lines:
            assert len(line) < 80 or " " not in line, line


def test_export_format_of_annotated_game() -> None:
    game = _read_one(ANNOTATED)
    text = write_game(game)
    assert text == (
        '[Event "Riga"]\n[White "Tal, \\"Misha\\""]\n[Result "1-0"]\n[Annotator "me"]\n\n'
        "{Intro} 1. e4 $1 {Best by test} 1... e5 (1... c5 {Sicilian} 2. Nf3 (2. c3 d5)\n"
        "2... d6) 2. Nf3 $14 Nc6 3. Bb5 a6 $2 1-0\n"
    )
    check_export_format(text)
    assert _read_one(text) == game


def test_strip_options_and_compact() -> None:
    game = _read_one(ANNOTATED)
    bare = write_game(game, comments=False, variations=False, nags=False)
    assert bare.endswith("\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n")
    compact = write_game(_read_one(ANNOTATED * 1 + ""), compact=True)
    movetext = compact.split("\n\n")[1]
    assert movetext.count("\n") == 1 and len(movetext) > 80
    assert _read_one(compact) == game


def test_black_first_from_fen_and_numbers_after_comments() -> None:
    game = Game(
        tags={"FEN": "8/8/8/8/8/8/k7/7K b - - 0 40", "SetUp": "1"},
        moves=[MoveNode("Kb2"), MoveNode("Kh2", comments=["note"]), MoveNode("Kc2")],
        result="*",
    )
    assert write_game(game).endswith("\n\n40... Kb2 41. Kh2 {note} 41... Kc2 *\n")


def test_programmatic_game_and_result_fallbacks() -> None:
    assert write_game(Game(moves=[MoveNode("e4")])) == "1. e4 *\n"
    assert write_game(Game(tags={"Result": "0-1"}, moves=[])).endswith("\n\n0-1\n")
    filled = write_game(Game(tags={"White": "A"}), fill_roster=True)
    assert filled.startswith('[Event "?"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "?"]\n[White "A"]')


def test_comment_with_closing_brace_and_long_words() -> None:
    long_word = "x" * 100
    game = Game(moves=[MoveNode("e4", comments=["a } b", long_word]), MoveNode("e5")], result="*")
    text = write_game(game)
    assert "; a } b\n" in text
    assert _read_one(text) == game
    check_export_format(text)


def test_write_games_to_stream_and_string() -> None:
    games = list(read_games(io.StringIO(ANNOTATED + "\n" + ANNOTATED)))
    text = write_games(games)
    assert isinstance(text, str) and text.count("\n\n[Event") == 1
    out = io.StringIO()
    assert write_games(games, out) is None
    assert out.getvalue() == text
    assert list(read_games(io.StringIO(text))) == games


# --- corpus round trip --------------------------------------------------------------------------


def _corpus_files() -> list[Path]:
    return corpus_game_files()


def _round_trip(path: Path, limit: int | None) -> int:
    games = list(itertools.islice(read_games(path), limit))
    text = write_games(games)
    assert isinstance(text, str)
    check_export_format(text)
    back = list(read_games(io.StringIO(text)))
    assert len(back) == len(games)
    for a, b in zip(games, back):
        assert a == b, (path, a.number)
    return len(games)


def test_corpus_round_trip_sampled() -> None:
    for path in _corpus_files():
        _round_trip(path, 25)


@pytest.mark.slow
def test_corpus_round_trip_full() -> None:
    total = sum(_round_trip(path, None) for path in _corpus_files())
    print(f"round trip: {total} games")


# --- generated games (python-chess makes the legal moves; test-only) ------------------------------

_WORDS = st.text(alphabet="abcxyz 0123.,:;!?}[]%\n\"'é♘", max_size=30)


def _random_line(rnd: random.Random, board: chess.Board, plies: int, depth: int, comments: list[str]) -> list[MoveNode]:
    nodes: list[MoveNode] = []
    board = board.copy()
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        move = rnd.choice(moves)
        node = MoveNode(board.san(move))
        if rnd.random() < 0.2:
            node.nags = [rnd.randint(1, 255) for _ in range(rnd.randint(1, 2))]
        if rnd.random() < 0.2:
            node.comments = [" ".join(rnd.choice(comments).split())]
        if depth < 3 and rnd.random() < 0.15:
            variation = _random_line(rnd, board, rnd.randint(1, 4), depth + 1, comments)
            if variation:
                if rnd.random() < 0.3:
                    variation[0].pre_comments = [" ".join(rnd.choice(comments).split())]
                node.variations.append(variation)
        nodes.append(node)
        board.push(move)
    return nodes


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), comments=st.lists(_WORDS, min_size=1, max_size=4), plies=st.integers(0, 60))
def test_generated_games_round_trip(seed: int, comments: list[str], plies: int) -> None:
    rnd = random.Random(seed)
    game = Game(
        tags={"Event": "Generated", "White": 'A "quoted" \\ name', "Result": "*"},
        moves=_random_line(rnd, chess.Board(), plies, 0, comments),
        result=rnd.choice(["1-0", "0-1", "1/2-1/2", "*"]),
        intro_comments=[" ".join(comments[0].split())] if rnd.random() < 0.3 else [],
    )
    for compact in (False, True):
        text = write_game(game, compact=compact)
        if not compact:
            check_export_format(text)
        back = _read_one(text)
        assert back == game
        errors = [d for d in back.diagnostics if d.code not in ("pgn.result-mismatch", "pgn.empty-game")]
        assert errors == []
    # python-chess reads our export with the same mainline
    reference = chess.pgn.read_game(io.StringIO(write_game(game)))
    assert reference is not None
    assert [reference.board().san(m) for m in []] == []
    assert [n.san() for n in reference.mainline()] == game.mainline()
