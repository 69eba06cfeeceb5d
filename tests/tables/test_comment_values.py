"""The compiled core reads a move's comments (``src/commands.rs``) exactly as the reference,
:func:`notation.tables.moves_rows.read_comments`, with the same patterns (handed over as
``CORE_PATTERNS``): the clock, move time, evaluation, depth, the cleaned comment and the values
that do not fit their column, over every comment of the corpus (a fixed sample by default, all of
them under ``-m slow``) and over generated comment texts."""

from __future__ import annotations

import gzip
import re
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import corpus_game_files
from notation.tables.moves_rows import COMMENT_COLUMNS, CORE_PATTERNS, read_comments
from notation.validation import core

#: a brace comment of PGN (its body)
_BRACES = re.compile(r"\{([^}]*)\}")
#: comments per corpus file in the fixed sample
_SAMPLE = 3_000


def _core() -> Any:
    if not core.core_available():
        pytest.fail("the compiled core is not built (pip install builds it)")
    from notation import _core

    return _core


def _compare(texts: list[tuple[str, bool]]) -> None:
    """Both readings of ``(text, white moved)`` agree, value for value and problem for problem."""
    found = _core().comment_values(CORE_PATTERNS, texts)
    frame = pl.DataFrame(
        {"text": [text for text, _ in texts], "white": [white for _, white in texts]},
        schema={"text": pl.String, "white": pl.Boolean},
    )
    values, problems = read_comments(frame)
    expected: list[list[tuple[str, str]]] = [[] for _ in texts]
    for row, column, text in problems:
        expected[row].append((column, text))
    for row, (got, want) in enumerate(zip(found, values.iter_rows(), strict=True)):
        got_values, got_problems = got[:-1], got[-1]
        assert got_values == want, (texts[row], dict(zip(COMMENT_COLUMNS, got_values, strict=True)))
        assert got_problems == expected[row], texts[row]


def _comments(path: Path, limit: int | None) -> list[tuple[str, bool]]:
    """The brace comments of a corpus file (up to ``limit``), each read as after a White and a
    Black move."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rb") as handle:
        text = handle.read().decode("utf-8", "replace")
    bodies = [m.group(1) for m in _BRACES.finditer(text)]
    if limit is not None:
        bodies = bodies[:limit]
    return [(body, white) for body in bodies for white in (True, False)]


def _check_corpus(limit: int | None) -> None:
    counted = 0
    for path in corpus_game_files():
        texts = _comments(path, limit)
        counted += len(texts)
        _compare(texts)
    assert counted > 10_000


def test_core_reads_the_corpus_comments_as_the_reference() -> None:
    _check_corpus(_SAMPLE)


@pytest.mark.slow
def test_core_reads_every_corpus_comment_as_the_reference() -> None:
    _check_corpus(None)


def test_examples() -> None:
    _compare(
        [
            ("[%eval 0.17] [%clk 0:03:00]", True),
            ("[%eval #-3,20] [%emt 0:00:05.5] book", False),
            ("d=34, sd=50, mt=3076, tl=57236, wv=-M15, n=1", True),
            ("tl=00:19:12 mt=00:02:04 wv=0.62,", False),
            ("+0.18/23 239", False),
            ("-M5/30 1.2s", True),
            ("[%clk ٣:00:00] tl=1000", True),
            ("[%eval -0.00] [%eval 1e5]", False),
            ("[%clk " + "9" * 400 + ":00:00] [%eval #99999999999999999999] d=99999", True),
            ("[%emt 99999999999999:00:00] mt=99999999999999999999", True),
            ("  several   [%csl Ge4]  words\u00a0\u2003here  ", False),
            ("[%eval .5,3] [%eval 2.]", True),
        ]
    )


_DIGITS = st.sampled_from(["0", "1", "5", "9", "00", "59", "60", "99", "٣", "١٢", "9" * 25, "0" * 8 + "7"])
_NUMBER = st.builds(
    lambda sign, whole, frac: sign + whole + frac,
    st.sampled_from(["", "+", "-"]),
    _DIGITS,
    st.sampled_from(["", ".", ".5", ".25", ".125", ".٣", ".005", ".0"]),
)
_SEP = st.sampled_from(["", " ", ",", ", ", "  ", "\t", "\n", "{", "}"])
_PIECES = st.one_of(
    st.builds(lambda h, m, s: f"[%clk {h}:{m}{s}]", _DIGITS, _DIGITS, st.sampled_from(["", ":00", ":5.5", ":٣", ":"])),
    st.builds(lambda h, m, s: f"[%emt {h}:{m}{s}]", _DIGITS, _DIGITS, st.sampled_from(["", ":00", ":59.99", ":1."])),
    st.builds(lambda v, d: f"[%eval {v}{d}]", _NUMBER, st.sampled_from(["", ",", ",20", ", 7", "," + "9" * 6])),
    st.builds(lambda s, v: f"[%eval #{s}{v}]", st.sampled_from(["", "+", "-"]), _DIGITS),
    st.builds(
        lambda v: f"wv={v}", st.one_of(_NUMBER, st.builds(lambda s, d: f"{s}M{d}", st.sampled_from(["", "-"]), _DIGITS))
    ),
    st.builds(
        lambda v: f"tl={v}", st.one_of(_DIGITS, st.builds(lambda h, m, s: f"{h}:{m}:{s}", _DIGITS, _DIGITS, _DIGITS))
    ),
    st.builds(
        lambda v: f"mt={v}", st.one_of(_DIGITS, st.builds(lambda h, m, s: f"{h}:{m}:{s}", _DIGITS, _DIGITS, _DIGITS))
    ),
    st.builds(lambda v: f"d={v}", _DIGITS),
    st.builds(lambda v: f"sd={v}", _DIGITS),
    st.builds(
        lambda v, d: f"{v}/{d}",
        st.one_of(_NUMBER, st.builds(lambda s, d: f"{s}M{d}", st.sampled_from(["", "+", "-"]), _DIGITS)),
        _DIGITS,
    ),
    st.sampled_from(["[%csl Ge4]", "[%", "]", "[%clk]", "[%eval]", "book", "1/2", "=", "#", "M", "\u00a0", "-0"]),
    st.text(alphabet="[]%:.,=/#+-M0123456789٣ \tabcdeklmtvw", max_size=12),
)
_COMMENT = st.lists(st.tuples(_SEP, _PIECES), max_size=6).map(lambda parts: "".join(s + p for s, p in parts))


@given(st.lists(st.tuples(_COMMENT, st.booleans()), min_size=1, max_size=20))
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_generated_comments(texts: list[tuple[str, bool]]) -> None:
    _compare(texts)
