r"""Digits and blanks from all of Unicode in the readers outside scoresheets (the sheets:
tests/scoresheet/test_sheet_unicode.py): numbers are ASCII digits only, except where the PGN
grammar's ``\d`` reads a move number (any decimal digit, category Nd: ``١.`` is move 1).

A superscript ``¹`` passes ``str.isdigit()`` and then fails ``int()``: a FEN's move number, a
rating tag, a diagram's ply and a dataset part's number read such text as no number, never with
an exception. Every digit (categories Nd and No) and every blank (category Zs, and what
``str.isspace`` takes: ``\x0b``, ``\x0c``, ``\x1c``-``\x1f``, ``\x85``, ``\u2028``...) is
tried in FENs (placement, counters, between fields), in PGN games (move numbers, tags, NAGs,
clock and eval commands, between tokens: both readers, the Python parser and the compiled core,
give the same report), in ``--tags`` and in ``--pin``.
"""

from __future__ import annotations

import io
import sys
import unicodedata
from typing import Any

import pytest

from notation.compiled import core_module
from notation.formats.fen import FenError
from notation.formats.position import Position
from notation.pgn.chunks import RawGame
from notation.pgn.reader import parse_raw_game, split_games
from notation.pgn.writer import _start_ply
from notation.pictures.diagram import parse_ply
from notation.scoresheet.reader import PinError, parse_pin
from notation.scoresheet.tags import parse_tags
from notation.select.criteria import _rating
from notation.validation.reports import check_game

DIGITS = [
    chr(c)
    for c in range(sys.maxunicode + 1)
    if not chr(c).isascii() and (chr(c).isdigit() or unicodedata.category(chr(c)) in ("Nd", "No"))
]
SPACES = [chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace() or unicodedata.category(chr(c)) == "Zs"]


def test_the_character_lists_are_complete() -> None:
    assert {"¹", "١", "①", "５", "𝟙"} <= set(DIGITS) and len(DIGITS) > 1000
    assert {" ", "\t", "\x0b", "\x0c", "\x1c", "\x85", "\xa0", "\u2028", "\u3000"} <= set(SPACES)


def test_every_unicode_digit_is_no_fen_move_number() -> None:
    for digit in DIGITS:
        assert _start_ply({"FEN": f"8/8/8/4k3/8/8/8/4K3 w - - 0 {digit}"}) == (1, True)


def test_every_unicode_digit_is_no_rating() -> None:
    for digit in DIGITS:
        assert _rating(f"{digit}500") is None


def test_every_unicode_digit_is_no_diagram_ply() -> None:
    for digit in DIGITS:
        assert parse_ply(digit * 2) is None


def test_every_unicode_digit_in_a_fen_is_a_fen_error_or_a_position() -> None:
    for digit in DIGITS:
        for fen in (
            f"8/8/8/4k3/8/8/8/{digit}K3 w - - 0 1",
            f"8/8/8/4k3/8/8/8/4K3 w - - {digit} {digit}{digit}",
            f"8/8/8/4k3/8/8/8/4K3 w - e{digit} 0 1",
        ):
            try:
                Position.from_fen(fen)
            except FenError:
                pass


def test_every_unicode_blank_between_fen_fields_is_a_fen_error_or_a_position() -> None:
    for blank in SPACES:
        try:
            position = Position.from_fen(f"8/8/8/4k3/8/8/8/4K3{blank}b{blank}-{blank}-{blank}3{blank}40")
        except FenError:
            continue
        assert not position.turn and position.fullmove_number == 40, repr(blank)  # read as the blank it is


def _reports(text: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]] | None]:
    """The reports of every game of ``text``: (the Python parser's, the compiled core's or None)."""

    def shown(chunk: Any, report: Any) -> dict[str, Any]:
        out: dict[str, Any] = report.to_dict() if isinstance(chunk, RawGame) else chunk.diagnostic.to_dict()
        out.pop("file", None)
        return out

    python = [
        shown(raw, check_game(parse_raw_game(raw)) if isinstance(raw, RawGame) else None)
        for raw in split_games(io.StringIO(text))
    ]
    if core_module() is None:
        return python, None
    from notation.validation import core

    compiled = [
        shown(raw, core.check_raw(raw, None) if isinstance(raw, RawGame) else None)
        for raw in split_games(io.BytesIO(text.encode("utf-8")))
    ]
    return python, compiled


def _same_reports(text: str) -> list[dict[str, Any]]:
    python, compiled = _reports(text)
    assert compiled is None or python == compiled, (text, python, compiled)
    return python


@pytest.mark.parametrize("where", ["move number", "tags", "nag and commands"])
def test_every_unicode_digit_in_a_pgn_game_reads_the_same_in_both_readers(where: str) -> None:
    for d in DIGITS:
        if where == "move number":
            text = f'[Event "x"]\n[Result "*"]\n\n{d}. e4 e5 {d}{d}... Nf3 {d} Nc6 *\n'
        elif where == "tags":
            text = (
                f'[Event "x"]\n[WhiteElo "{d}{d}"]\n[Round "{d}.{d}"]\n[Date "{d}{d}{d}{d}.0{d}.{d}"]\n'
                f'[TimeControl "{d}+{d}"]\n[SetUp "1"]\n[FEN "8/8/8/4k3/8/8/8/4K3 w - - 0 {d}"]\n[Result "*"]\n\n*\n'
            )
        else:
            text = f'[Event "x"]\n[Result "*"]\n\n1. e4 ${d} e5 {{[%clk 0:0{d}:00] [%eval {d}.5]}} *\n'
        (report,) = _same_reports(text)
        assert report.get("plies", 0) <= 4, (d, report)


def test_an_arabic_indic_move_number_is_a_move_number_and_a_superscript_is_not() -> None:
    (arabic,) = _same_reports('[Event "x"]\n[Result "*"]\n\n\u0661. e4 e5 *\n')
    assert arabic["plies"] == 2 and "pgn.syntax" not in [d["code"] for d in arabic["diagnostics"]]
    (superscript,) = _same_reports('[Event "x"]\n[Result "*"]\n\n\u00b9. e4 e5 *\n')
    assert "pgn.syntax" in [d["code"] for d in superscript["diagnostics"]]


def test_every_unicode_blank_in_a_pgn_game_reads_the_same_in_both_readers() -> None:
    for s in SPACES:
        reports = _same_reports(f'[Event{s}"x"]\n[Result "*"]\n{s}\n1.{s}e4{s}e5{s}2.{s}Nf3{s}Nc6{s}*{s}\n')
        assert reports, repr(s)


def test_every_unicode_digit_and_blank_in_tags_and_pins_is_read_or_refused() -> None:
    for d in DIGITS:
        parse_tags(f"WhiteElo={d}{d},Round={d},Date={d}{d}{d}{d}.01.01")
        for pin in (f"{d}...Nf6", f"{d}{d}.Nf3", f"1{d}.e4"):
            try:
                parse_pin(pin, 0)
            except PinError:
                pass
    for s in SPACES:
        tags, bad = parse_tags(f"White={s}Anna{s},Black=Bernd{s}Berg")
        assert tags.get("Black", "").startswith("Bernd") or bad, repr(s)
        try:
            parse_pin(f"12{s}Nf3", 0)
        except PinError:
            pass
