"""Sheets with digits and blanks from all of Unicode: a move number is ASCII digits only.

A superscript ``¹`` or a circled ``①`` passes ``str.isdigit()`` but is no number for ``int()``;
an Arabic-Indic ``١`` is one for ``int()`` but no move number a scorer writes. Every such
character in a cell, and every Unicode blank between cells, is read without an exception.
"""

from __future__ import annotations

import sys
import unicodedata

import pytest

from notation.scoresheet.layout import read_sheet

DIGITS = [chr(c) for c in range(sys.maxunicode + 1) if chr(c).isdigit() or unicodedata.category(chr(c)) in ("Nd", "No")]
NON_ASCII_DIGITS = [d for d in DIGITS if not d.isascii()]
SPACES = [chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace() or unicodedata.category(chr(c)) == "Zs"]


def test_the_character_lists_are_complete() -> None:
    assert "¹" in NON_ASCII_DIGITS and "١" in NON_ASCII_DIGITS and "①" in NON_ASCII_DIGITS
    assert "\u3000" in SPACES and "\xa0" in SPACES and "\u2028" in SPACES


@pytest.mark.parametrize("layout", ["1 e4 e5\n{d} Nf3 Nc6\n", "1  e4  e5    {d}  Rd1  Qe6\n", "1. e4 {d}{d}. e5\n"])
def test_every_unicode_digit_as_a_move_number_reads_without_an_exception(layout: str) -> None:
    for digit in NON_ASCII_DIGITS:
        read_sheet(layout.format(d=digit))


def test_a_superscript_move_number_is_a_cell_not_a_move_number() -> None:
    sheet = read_sheet("1  e4  e5    ¹  Nf3  Nc6\n")
    assert [cell.text for cell in sheet.cells] == ["e4", "e5", "¹", "Nf3", "Nc6"]
    assert [cell.number for cell in sheet.cells][:3] == [1, 1, 2]  # read on as the next move


def test_every_unicode_blank_between_cells_reads_without_an_exception() -> None:
    for blank in SPACES:
        read_sheet(f"1.{blank}e4{blank}e5\n2.{blank}Nf3{blank}Nc6\n")
