"""Hypothesis: arbitrary text and bytes never raise out of the reader, and games stay local."""

from __future__ import annotations

import io
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from typing import Any

from notation.pgn.chunks import Chunk, RawGame, ReadFailure
from notation.pgn.model import Game
from notation.pgn.reader import parse_raw_game, read_games, read_headers, split_games
from notation.pgn.structure import other_format
from notation.pgn.writer import write_games

_PIECES = list('[]{}()"\\;%$!?*.-+=#/ \t\n\r0123456789abcdefghKQRBNOxo@½…♘é') + [
    '[Event "',
    '"]\n',
    "1-0",
    "0-1",
    "1/2-1/2",
    "\n\n",
    "O-O",
    "e4",
    "Nf3",
]
PGNISH = st.one_of(
    st.lists(st.sampled_from(_PIECES), max_size=120).map("".join),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=200),
    st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=127), max_size=200),
)

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _exercise(games: list[Game | ReadFailure]) -> None:
    for game in games:
        assert game.number >= 1
        if isinstance(game, ReadFailure):
            assert game.diagnostic.code in ("pgn.io", "pgn.not-pgn")
            continue
        for d in game.diagnostics:
            assert d.code.startswith("pgn.")
            assert "internal parser failure" not in d.message, d
        write_games([game])


@FAST
@given(PGNISH)
def test_text_never_raises(text: str) -> None:
    games = list(read_games(io.StringIO(text)))
    _exercise(games)
    assert [g.number for g in games] == list(range(1, len(games) + 1))
    headers = list(read_headers(io.StringIO(text)))
    assert [(g.number, g.line, g.offset) for g in headers] == [(g.number, g.line, g.offset) for g in games]
    for fast, full in zip(headers, games):  # malformed tag lines may be recovered differently
        if isinstance(fast, ReadFailure) or isinstance(full, ReadFailure):
            assert fast == full
            continue
        if not any(d.code == "pgn.bad-tag" for d in fast.diagnostics + full.diagnostics):
            assert fast.tags == full.tags


@FAST
@given(st.binary(max_size=300))
def test_bytes_never_raise(data: bytes) -> None:
    _exercise(list(read_games(io.BytesIO(data))))
    list(read_headers(io.BytesIO(data)))


@FAST
@given(st.lists(PGNISH, max_size=4))
def test_a_broken_game_stays_local(junk: list[str]) -> None:
    """Whatever precedes it, a well-formed game after a tag section reads the same (unless the
    text begins like a document of another format, Markdown or HTML, which is not read as PGN)."""
    good = '[Event "Good"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 1-0\n'
    text = "\n".join(junk) + "\n\n" + good
    games = list(read_games(io.StringIO(text)))
    if other_format(text) is not None:
        assert [g.kind for g in games if isinstance(g, ReadFailure)] == ["not-pgn"] and len(games) == 1
        return
    last = games[-1]
    assert isinstance(last, Game)
    assert last.tags.get("Event") == "Good" and last.tags.get("Result") == "1-0"
    assert last.mainline() == ["e4", "e5", "Qh5", "Nc6"] and last.result == "1-0"


@FAST
@given(PGNISH)
def test_split_parse_equals_read(text: str) -> None:
    def parsed(raw: Chunk) -> Game | ReadFailure:
        return parse_raw_game(raw) if isinstance(raw, RawGame) else raw

    def seen(g: Game | ReadFailure) -> Any:
        return g if isinstance(g, ReadFailure) else (g, g.line, g.offset, g.diagnostics)

    direct = [seen(g) for g in read_games(io.StringIO(text))]
    pooled = [seen(parsed(raw)) for raw in split_games(io.StringIO(text))]
    assert direct == pooled


@FAST
@given(PGNISH, st.lists(st.integers(1, 40), min_size=1, max_size=8))
def test_read_sizes_do_not_change_the_split(text: str, sizes: list[int]) -> None:
    """However the source delivers its bytes, the games (data and locations) are the same."""
    import itertools

    from notation.pgn.reader import DEFAULT_MAX_GAME_BYTES, _structured

    data = text.encode()

    def located(r: Chunk) -> Any:
        return (r.data, r.number, r.line, r.offset, r.size) if isinstance(r, RawGame) else r

    expected = [located(r) for r in split_games(io.BytesIO(data))]
    position = 0
    steps = itertools.cycle(sizes)

    def read(_: int) -> bytes:
        nonlocal position
        step = next(steps)
        piece = data[position : position + step]
        position += step
        return piece

    from notation.pgn.sources import SafeRead

    got = [located(r) for r in _structured(SafeRead(read), None, DEFAULT_MAX_GAME_BYTES, False)]
    assert got == expected
    if got:  # the games are consecutive slices of the input (a lone CR read as LF)
        lf = re.sub(b"\r(?!\n)", b"\n", data)
        assert all(lf[r[3] : r[3] + len(r[0])] == r[0] for r in got if not isinstance(r, ReadFailure))
