"""Digits from all of Unicode in the readers outside scoresheets: numbers are ASCII digits only.

A superscript ``¹`` passes ``str.isdigit()`` and then fails ``int()``: a FEN's move number, a
rating tag, a diagram's ply and a dataset part's number read such text as no number, never with
an exception.
"""

from __future__ import annotations

import sys
import unicodedata

from notation.pgn.writer import _start_ply
from notation.pictures.diagram import parse_ply
from notation.select.criteria import _rating

DIGITS = [chr(c) for c in range(sys.maxunicode + 1)
          if not chr(c).isascii() and (chr(c).isdigit() or unicodedata.category(chr(c)) in ("Nd", "No"))]


def test_every_unicode_digit_is_no_fen_move_number() -> None:
    for digit in DIGITS:
        assert _start_ply({"FEN": f"8/8/8/4k3/8/8/8/4K3 w - - 0 {digit}"}) == (1, True)


def test_every_unicode_digit_is_no_rating() -> None:
    for digit in DIGITS:
        assert _rating(f"{digit}500") is None


def test_every_unicode_digit_is_no_diagram_ply() -> None:
    for digit in DIGITS:
        assert parse_ply(digit * 2) is None
