"""SAN is written once (``grammars/tokens.lark``): a lone SAN read by ``san.lark`` and a move
token inside PGN movetext read by ``pgn.lark`` accept exactly the same spellings, and report
the same lenient ones with the same standard spelling."""

from __future__ import annotations

import functools
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from lark.exceptions import LarkError

from notation.formats.san import SanError, _parser, parse_san_syntax
from notation.pgn.parser import parse_game_text, standard_spelling
from notation.pgn.reader import read_games
from conftest import corpus_path


def san_grammar_accepts(text: str) -> bool:
    try:
        _parser().parse(text)
    except LarkError:
        return False
    return True


def pgn_reading(text: str) -> tuple[bool, list[str]]:
    """(whether ``1. TEXT *`` holds exactly one move written ``TEXT``, the reader's codes)."""
    game = parse_game_text(f'[Event "x"]\n\n1. {text} *\n')
    one = len(game.moves) == 1 and game.moves[0].san == text and not game.moves[0].variations
    return one, [d.code for d in game.diagnostics]


def check_same(text: str) -> None:
    grammar = san_grammar_accepts(text)
    one, codes = pgn_reading(text)
    if grammar:
        assert one and "pgn.syntax" not in codes, (text, codes)
    else:
        assert not one, (text, codes)
        return
    try:
        syntax = parse_san_syntax(text)
    except SanError:
        assert "pgn.lenient-token" not in codes, (text, codes)
        return
    expected = syntax.canonical if syntax.lenient else None
    assert standard_spelling(text) == expected, text
    assert ("pgn.lenient-token" in codes) == bool(syntax.lenient), (text, codes)
    if expected is not None:
        game = parse_game_text(f'[Event "x"]\n\n1. {text} *\n')
        (warning,) = [d for d in game.diagnostics if d.code == "pgn.lenient-token"]
        assert repr(expected) in warning.message and game.moves[0].lenient == expected


def test_the_spellings_named_in_the_grammar_read_the_same() -> None:
    for text in (
        "e4",
        "exd5",
        "e8=Q",
        "exd8=Q+",
        "Nf3",
        "Nbd7",
        "R1e2",
        "Qh4xe1",
        "O-O",
        "O-O-O#",
        "--",
        "0-0",
        "o-o",
        "ed5",
        "e5:d6",
        "e8Q",
        "e8(Q)",
        "e8/Q",
        "e8=q",
        "Ng1-f3",
        "e2-e4",
        "e2e4",
        "Pe4",
        "♘f3",
        "exd6e.p.",
        "Qxf7++",
        "Z0",
        "0000",
        "@@@@",
        "N@f3",
        "Sf3",
        "nf3",
        "e9",
        "Qf7#+",
    ):
        check_same(text)


@functools.lru_cache(maxsize=1)
def corpus_tokens() -> tuple[frozenset[str], frozenset[str]]:
    """Every distinct move token of the shared corpus games, and every token the reader
    rejected as no move (``pgn.syntax``)."""
    moves: set[str] = set()
    junk: set[str] = set()
    root = corpus_path("games")
    for path in sorted(Path(root).rglob("*.pgn*")):
        for game in read_games(path):
            pending = [game.moves]
            while pending:
                for node in pending.pop():
                    moves.add(node.san)
                    pending.extend(node.variations)
            junk.update(d.san for d in game.diagnostics if d.code == "pgn.syntax" and d.san)
    return frozenset(moves), frozenset(junk)


def test_every_corpus_spelling_reads_the_same_both_ways() -> None:
    moves, junk = corpus_tokens()
    assert len(moves) > 5000  # the sweep saw the corpus
    for text in sorted(moves):
        check_same(text)
    for text in sorted(junk):
        assert not san_grammar_accepts(text), text


_PIECES = ["K", "Q", "R", "B", "N", "P", "♘", "♞", "♙", "q", "r", "n", "k", "b", "S"]
_CHUNKS = (
    _PIECES
    + list("abcdefgh")
    + list("12345678")
    + [
        "x",
        ":",
        "-",
        "=",
        "(",
        ")",
        "/",
        "+",
        "#",
        "++",
        "O",
        "0",
        "o",
        "Z",
        "@",
        "e.p.",
        " e.p.",
        "9",
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_CHUNKS), min_size=1, max_size=7))
def test_random_spellings_read_the_same_both_ways(chunks: list[str]) -> None:
    text = "".join(chunks).strip()
    if text:
        check_same(text)


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(["", *_PIECES[:7]]),
    st.sampled_from(["", "a", "e", "h"]),
    st.sampled_from(["", "1", "7"]),
    st.sampled_from(["", "x", ":", "-"]),
    st.sampled_from("abcdefgh"),
    st.sampled_from("12345678"),
    st.sampled_from(["", "=Q", "Q", "=q", "(Q)", "/N", "=b", "e.p."]),
    st.sampled_from(["", "+", "#", "++"]),
)
def test_move_shaped_spellings_read_the_same_both_ways(
    piece: str, file: str, rank: str, sep: str, to_file: str, to_rank: str, promo: str, suffix: str
) -> None:
    check_same(piece + file + rank + sep + to_file + to_rank + promo + suffix)
