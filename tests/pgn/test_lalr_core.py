"""The core runs Lark's own LALR automaton of ``grammars/pgn.lark`` (``_core.lalr_parse``):
its parse equals Lark's (``parser='lalr'``, contextual lexer, tree built without the
transformer), tree for tree, and where Lark fails the core fails at the same place."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notation import _core
from notation.pgn.chunks import RawGame
from notation.pgn.reader import split_games
from notation.pgn.sources import decode
from notation.pgn.tables import TABLES_FILE, committed, export, lark_events, source_hash
from conftest import ROOT, SAMPLE_GAMES, corpus_game_files, corpus_path
from pgn_pieces import MOVETEXT_PIECES


def _same(text: str) -> bool:
    assert _core.lalr_parse(text) == lark_events(text), repr(text[:300])
    return True


def _texts(path: Path, limit: int | None) -> list[str]:
    texts: list[str] = []
    for chunk in split_games(path):
        if limit is not None and len(texts) >= limit:
            break
        if isinstance(chunk, RawGame) and not chunk.oversized:
            texts.append(chunk.data if isinstance(chunk.data, str) else decode(chunk.data)[0])
    return texts


# --------------------------------------------------------------------------- the exported file
def test_the_committed_tables_are_lark_s_for_the_current_grammar() -> None:
    text = committed()
    assert text.splitlines()[1] == f"hash {source_hash()}", (
        f"grammars/{TABLES_FILE} is stale: run `python -m notation.pgn.tables` and commit it"
    )
    assert text == export(), f"grammars/{TABLES_FILE} differs from Lark's tables: run `python -m notation.pgn.tables`"
    assert (ROOT / "grammars" / TABLES_FILE).read_text(encoding="utf-8") == text


# ------------------------------------------------------------------------------------ examples
@pytest.mark.parametrize(
    "text",
    [
        "",
        "*",
        '[Event "x"]\n[Site "y"]\n\n1. e4 e5 2. Nf3 {c} $1 (2. f4 exf4) 2... Nc6 1-0\n',
        "1. e4 (1. d4 (1. c4) d5 *) e5",
        "%escape\n1. e4 %not-an-escape *",
        "[Bad tag\n1. e4 {unclosed",
        '[A "b"] junk ] } [ 1. e4 ; line\n 0-1 ',
        "1. e4 ) e5 *",  # unmatched ')': Lark's UnexpectedToken
        "1. e4 (1. d4",  # unclosed '(': $END unexpected
        "1. e4 * e5 ",  # text after the result
        "1. e4 1-0 {after}",
        "é ♘f3 ½-½ ",
        "1.\u2028e4\x1c*\x85",  # Python's \s takes these
        "1\u0663. e4 *",  # a non-ASCII decimal digit is \d for Python
    ],
)
def test_the_core_parses_as_lark_does(text: str) -> None:
    _same(text)


def test_a_failure_is_located_at_lark_s_token() -> None:
    assert lark_events("1. e4 ) e5 *") == ([], ("token", 6, "RPAR"))
    # at the end, Lark locates '$END' at the last token (here '(', in characters, not bytes)
    assert _core.lalr_parse("1. é (") == ([], ("token", 5, "$END"))
    assert lark_events("1. é (") == ([], ("token", 5, "$END"))


def test_the_sample_games_parse_as_lark_does() -> None:
    texts = [text for path in sorted(SAMPLE_GAMES.glob("*.pgn")) for text in _texts(path, None)]
    assert len(texts) > 10
    assert all(_same(text) for text in texts)


# ----------------------------------------------------------------------------------- the corpus
def test_corpus_games_parse_as_lark_does() -> None:
    """A sample of every games file and the other parsers' PGN fixtures (malformed ones too)."""
    texts = [text for path in corpus_game_files() for text in _texts(path, 40)]
    fixtures = sorted(corpus_path("parser-tests").rglob("*.pgn"))
    texts += [text for path in fixtures[::3] for text in _texts(path, 5)]
    assert len(texts) > 500
    failures = sum(lark_events(text)[1] is not None for text in texts)
    assert all(_same(text) for text in texts)
    assert failures > 0  # the sample holds games Lark fails on, and the core fails on them alike


@pytest.mark.slow
def test_the_whole_corpus_parses_as_lark_does() -> None:
    count = 0
    for path in corpus_game_files():
        for text in _texts(path, None):
            _same(text)
            count += 1
    assert count > 50_000


# ------------------------------------------------------------------------------------- fuzzing
_PIECES = st.sampled_from(
    [
        '[Event "x"]\n',
        '[Site "a \\"b\\" c"]\n',
        "[Bad tag]\n",
        '[Event "x"\n',
        *MOVETEXT_PIECES,
        "0000",
        "{open",
        "%esc\n",
        "\x1c",
        "x",
        "]",
        "}",
        "0-1",
        "1/2-1/2",
        "½-½",
        "1-0x",
    ]
)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_PIECES, max_size=24))
def test_generated_games_parse_as_lark_does(pieces: list[str]) -> None:
    _same("".join(pieces))


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from('[]{}()"%;$!?*-/\\.01 ½\n\r\t\xa0\x1c\u2028eNxO=+#é♘\u0663'), max_size=60))
def test_any_text_parses_as_lark_does(text: str) -> None:
    _same(text)


def _sample_texts() -> list[str]:
    return [text for path in sorted(SAMPLE_GAMES.glob("*.pgn")) for text in _texts(path, None)]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False), st.integers(1, 6))
def test_mutated_games_parse_as_lark_does(rng: random.Random, edits: int) -> None:
    """A sample game with a few characters inserted, deleted or replaced: malformed games where
    Lark and the core must fail at the same token."""
    texts = _sample_texts()
    text = rng.choice(texts)
    for _ in range(edits):
        at = rng.randrange(len(text) + 1)
        piece = rng.choice(["(", ")", "{", "}", "[", "]", '"', "%", "\n", " ", "*", "1-0", "x", "é", ";", "."])
        kind = rng.randrange(3)
        if kind == 0:
            text = text[:at] + piece + text[at:]
        elif kind == 1:
            text = text[:at] + text[at + 1 :]
        else:
            text = text[:at] + piece + text[at + 1 :]
    _same(text)
