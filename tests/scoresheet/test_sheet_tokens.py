"""Scoresheet tokens (grammars/sheet.lark via notation.scoresheet.tokens) and layouts (sheet_layout)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lark import Lark

from notation.grammars import build_parser
from notation.scoresheet.layout import read_sheet
from notation.scoresheet.tokens import (
    BISHOP,
    KING,
    KNIGHT,
    LANGUAGES,
    QUEEN,
    ROOK,
    detect_languages,
    language_grammar,
    parse_token,
)

# (language, as written, canonical English reading, form)
CASES = [
    ("en", "Nf3", "Nf3", "san"),
    ("en", "nf3", "Nf3", "san"),
    ("en", "Nbd2", "Nbd2", "san"),
    ("en", "R1e2", "R1e2", "san"),
    ("en", "exd5", "exd5", "san"),
    ("en", "ed5", "ed5", "san"),
    ("en", "e:d5", "exd5", "san"),
    ("en", "e2-e4", "e2-e4", "long"),
    ("en", "Ng1-f3", "Ng1-f3", "long"),
    ("en", "Ng1xf3", "Ng1xf3", "long"),
    ("en", "e2e4", "e2-e4", "coordinates"),
    ("en", "g1f3", "g1-f3", "coordinates"),
    ("en", "e7e8q", "e7-e8=Q", "coordinates"),
    ("en", "e7e8b", "e7-e8=B", "coordinates"),
    ("de", "b7a8b", "b7-a8=B", "coordinates"),
    ("en", "f1b5", "f1-b5", "coordinates"),
    ("en", "♘f3", "Nf3", "san"),
    ("en", "♞xe4", "Nxe4", "san"),
    ("en", "Qxf7#", "Qxf7#", "san"),
    ("en", "Qh5++", "Qh5++", "san"),
    ("en", "Nf3!?", "Nf3", "san"),
    ("en", "Pe4", "e4", "san"),
    ("en", "e4ch", "e4+", "san"),
    ("zh", "马f3", "Nf3", "san"),
    ("zh", "馬xe5", "Nxe5", "san"),
    ("zh", "車e1", "Re1", "san"),
    ("zh", "车e1", "Re1", "san"),
    ("zh", "象b5", "Bb5", "san"),
    ("zh", "后h5", "Qh5", "san"),
    ("zh", "王g1", "Kg1", "san"),
    ("zh", "兵e4", "e4", "san"),
    ("de", "Sf3", "Nf3", "san"),
    ("de", "sf3", "Nf3", "san"),
    ("de", "Lb5", "Bb5", "san"),
    ("de", "Dd1", "Qd1", "san"),
    ("de", "Txe1", "Rxe1", "san"),
    ("de", "Kg1", "Kg1", "san"),
    ("de", "e8D", "e8=Q", "san"),
    ("fr", "Cf3", "Nf3", "san"),
    ("fr", "Fb5", "Bb5", "san"),
    ("fr", "Rg1", "Kg1", "san"),
    ("fr", "Tf1", "Rf1", "san"),
    ("fr", "Dd1", "Qd1", "san"),
    ("es", "Ab5", "Bb5", "san"),
    ("es", "Cf3", "Nf3", "san"),
    ("es", "Re2", "Ke2", "san"),
    ("it", "Ab5", "Bb5", "san"),
    ("it", "Td1", "Rd1", "san"),
    ("nl", "Pf3", "Nf3", "san"),
    ("nl", "Ld3", "Bd3", "san"),
    ("nl", "Dd1", "Qd1", "san"),
    ("ru", "Крe1", "Ke1", "san"),
    ("ru", "Кf3", "Nf3", "san"),
    ("ru", "кf3", "Nf3", "san"),
    ("ru", "Фd1", "Qd1", "san"),
    ("ru", "Лe1", "Re1", "san"),
    ("ru", "Сb5", "Bb5", "san"),
]


@pytest.mark.parametrize(("lang", "text", "canonical", "form"), CASES)
def test_token_readings(lang: str, text: str, canonical: str, form: str) -> None:
    written = parse_token(text, lang)
    assert written is not None, text
    assert written.canonical() == canonical
    assert written.form == form


@pytest.mark.parametrize("text", ["e8=Q", "e8Q", "e8(Q)", "e8/Q"])
def test_promotion_spellings(text: str) -> None:
    written = parse_token(text, "en")
    assert written is not None
    assert written.promotion == QUEEN and written.to_square == 60


@pytest.mark.parametrize(
    ("text", "side"),
    [
        ("O-O", "K"),
        ("0-0", "K"),
        ("o-o", "K"),
        ("OO", "K"),
        ("O-O-O", "Q"),
        ("0-0-0", "Q"),
        ("o-o-o", "Q"),
        ("O-O+", "K"),
    ],
)
def test_castling_spellings(text: str, side: str) -> None:
    written = parse_token(text, "en")
    assert written is not None and written.castle == side


@pytest.mark.parametrize("text", ["exd6e.p.", "exd6ep", "exd6 e.p.", "exd6e.p.+"])
def test_en_passant_marks(text: str) -> None:
    written = parse_token(text, "en")
    assert written is not None and written.ep and written.to_square == 43


def test_piece_types_per_language() -> None:
    for lang, letters in LANGUAGES.items():
        for piece, spellings in letters.items():
            for spelling in spellings:
                written = parse_token(spelling + "d4", lang)
                assert written is not None, (lang, spelling)
                assert written.piece == piece and not written.foreign


def test_a_letter_as_the_language_writes_it_is_not_lower_case() -> None:
    # Russian's king "Кр" is partly lower case as written: no lower-case slip (it cost a clean
    # "Крh1" 1.5 nats, and a typed Russian sheet ending in a king move was not confident)
    for lang, letters in LANGUAGES.items():
        for spellings in letters.values():
            for spelling in spellings:
                assert not parse_token(spelling + "d4", lang).lowercase, (lang, spelling)  # type: ignore[union-attr]
    assert parse_token("крd4", "ru").lowercase  # type: ignore[union-attr]
    assert parse_token("фd4", "ru").lowercase  # type: ignore[union-attr]
    assert parse_token("nf3", "en").lowercase  # type: ignore[union-attr]


def test_romance_r_is_the_king_and_english_r_the_rook() -> None:
    assert parse_token("Re1", "fr").piece == KING  # type: ignore[union-attr]
    assert parse_token("Re1", "es").piece == KING  # type: ignore[union-attr]
    assert parse_token("Re1", "it").piece == KING  # type: ignore[union-attr]
    assert parse_token("Re1", "en").piece == ROOK  # type: ignore[union-attr]
    assert parse_token("Cc3", "fr").piece == KNIGHT  # type: ignore[union-attr]
    assert parse_token("Fc4", "fr").piece == BISHOP  # type: ignore[union-attr]
    assert parse_token("Ac4", "es").piece == BISHOP  # type: ignore[union-attr]


def test_lower_case_b_is_a_file_not_a_bishop() -> None:
    written = parse_token("bc4", "en")
    assert written is not None and written.piece is None and written.from_file == 1
    # lower-case letters that are no file are pieces
    assert parse_token("qd1", "en").piece == QUEEN  # type: ignore[union-attr]
    assert parse_token("td1", "de").piece == ROOK  # type: ignore[union-attr]


def test_foreign_letter_is_read_and_flagged() -> None:
    written = parse_token("Sf3", "en")
    assert written is not None and written.foreign and written.letter == "S"
    assert parse_token("Nf3", "de").foreign  # type: ignore[union-attr]


@pytest.mark.parametrize("text", ["", "xyz", "Nf9", "i4", "Q", "1-0", "e4e4e4", "{comment}", "Nf3Nf3"])
def test_unreadable_tokens_are_none(text: str) -> None:
    assert parse_token(text, "en") is None


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=12))
def test_parse_token_never_raises(text: str) -> None:
    for lang in ("en", "ru", "zh"):
        parse_token(text, lang)


def test_grammar_is_parametrised_by_letters() -> None:
    plain = build_parser("sheet")  # the file itself is a valid (English) grammar
    assert isinstance(plain, Lark)
    german = language_grammar("de")
    assert 'KNIGHT: "S" | "s" | "♘" | "♞"' in german
    assert 'QUEEN: "D" | "♕" | "♛"' in german  # lower-case d would be the d-file
    with pytest.raises(ValueError):
        language_grammar("xx")


@pytest.mark.parametrize(
    ("tokens", "expected"),
    [
        (["e4", "e5", "Nf3", "Nc6", "Bb5"], "en"),
        (["e4", "e5", "Sf3", "Sc6", "Lb5"], "de"),
        (["e4", "e5", "Cf3", "Cc6", "Fb5"], "fr"),
        (["e4", "e5", "Cf3", "Cc6", "Ab5"], "es"),
        (["e4", "e5", "Pf3", "Pc6", "Lb5"], "nl"),
        (["e4", "e5", "Кf3", "Кc6", "Сb5", "Крe2"], "ru"),
        (["e4", "e5", "马f3", "馬c6", "象b5"], "zh"),
        (["e4", "e5", "d4", "exd4"], "en"),
    ],
)
def test_language_detection(tokens: list[str], expected: str) -> None:
    assert detect_languages(tokens)[0] == expected


def test_detection_keeps_only_distinct_readings() -> None:
    # es and it read every letter the same way: only one of them is tried
    ranked = detect_languages(["Cf3", "Ab5", "Dd1", "Te1"])
    assert ranked == ["es"]


# --- layouts --------------------------------------------------------------------------------


def _cells(text: str) -> list[tuple[str, int | None, str | None]]:
    return [(c.text, c.number, c.colour) for c in read_sheet(text).moves]


EXPECTED = [("e4", 1, "w"), ("e5", 1, "b"), ("Nf3", 2, "w"), ("Nc6", 2, "b")]


@pytest.mark.parametrize(
    ("text", "layout"),
    [
        ("1. e4 e5 2. Nf3 Nc6", "numbered"),
        ("1.e4 e5 2.Nf3 Nc6", "numbered"),
        ("1) e4, e5\n2) Nf3, Nc6", "numbered"),
        ("1 e4 e5\n2 Nf3 Nc6\n", "columns"),
        ("1. e4\n1... e5\n2. Nf3\n2... Nc6\n", "one-per-line"),
        ("#,White,Black\n1,e4,e5\n2,Nf3,Nc6\n", "csv"),
        ("Nr;Weiß;Schwarz\n1;e4;e5\n2;Nf3;Nc6\n", "csv"),
    ],
)
def test_layouts(text: str, layout: str) -> None:
    sheet = read_sheet(text)
    assert sheet.layout == layout
    assert _cells(text) == EXPECTED


def test_unnumbered_one_move_per_line() -> None:
    sheet = read_sheet("e4\ne5\nNf3\n")
    assert sheet.layout == "one-per-line"
    assert [c.text for c in sheet.moves] == ["e4", "e5", "Nf3"]


def test_header_block_result_and_placeholders() -> None:
    text = '[Event "Open"]\nWhite: Anna\nSchwarz: Bernd\nRunde: 4\n\n12. ... Nf6 13. exd6 e.p. Qxd6 ½-½\n'
    sheet = read_sheet(text)
    assert sheet.tags == {"Event": "Open", "White": "Anna", "Black": "Bernd", "Round": "4"}
    assert sheet.result == "1/2-1/2"
    assert sheet.cells[0].placeholder
    assert [(c.text, c.number, c.colour) for c in sheet.moves] == [
        ("Nf6", 12, "b"),
        ("exd6e.p.", 13, "w"),
        ("Qxd6", 13, "b"),
    ]
    assert sheet.moves[0].line == 6 and sheet.moves[0].column == 9


def test_castling_with_zeros_is_not_a_result() -> None:
    sheet = read_sheet("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0-0 0-1")
    assert [c.text for c in sheet.moves][-1] == "0-0"
    assert sheet.result == "0-1"


def test_two_blocks_side_by_side_are_put_in_move_order() -> None:
    text = " 1  e4   e5     3  Bb5  a6\n 2  Nf3  Nc6    4  Ba4  Nf6\n"
    sheet = read_sheet(text)
    assert sheet.layout == "blocks"
    assert [c.text for c in sheet.moves] == ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6"]
