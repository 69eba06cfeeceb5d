"""SAN: syntax table, strict vs lenient resolution, typed errors, formatting."""

from __future__ import annotations

import pytest

from notation import AmbiguousSan, IllegalSan, InvalidSan, Move, Position, SanError
from notation.rules.squares import KNIGHT, PAWN, QUEEN, parse_square
from notation.formats.san import parse_san_syntax

START = Position.initial()
CASTLE = Position.from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
PROMO = Position.from_fen("3r4/4P3/8/8/8/8/8/k1K5 w - - 0 1")
TWO_KNIGHTS = Position.from_fen("k7/8/8/8/8/8/8/KN3N2 w - - 0 1")
EP = Position.from_fen("k7/8/8/3pP3/8/8/8/K7 w - d6 0 1")

# (position, text, uci in lenient mode or error class, strict: uci or error class)
TABLE = [
    (START, "e4", "e2e4", "e2e4"),
    (START, "Nf3", "g1f3", "g1f3"),
    (START, "Nf3+", "g1f3", "g1f3"),  # the suffix is checked elsewhere (san.check-suffix)
    (START, "Nf3!?", "g1f3", "g1f3"),
    (START, "Ngf3", "g1f3", InvalidSan),  # superfluous disambiguation
    (START, "Ng1f3", "g1f3", InvalidSan),
    (START, "Nxf3", "g1f3", InvalidSan),  # superfluous x
    (START, "Ng1-f3", "g1f3", InvalidSan),
    (START, "e2-e4", "e2e4", InvalidSan),
    (START, "e2e4", "e2e4", InvalidSan),
    (START, "Pe4", "e2e4", InvalidSan),
    (START, "\u2658f3", "g1f3", InvalidSan),  # figurine
    (START, "Sf3", InvalidSan, InvalidSan),
    (START, "nf3", InvalidSan, InvalidSan),
    (START, "Nf4", IllegalSan, IllegalSan),
    (START, "e5", IllegalSan, IllegalSan),
    (START, "O-O", IllegalSan, IllegalSan),
    (START, "Ke2", IllegalSan, IllegalSan),
    (START, "", InvalidSan, InvalidSan),
    (START, "e9", InvalidSan, InvalidSan),
    (START, "hello", InvalidSan, InvalidSan),
    (CASTLE, "O-O", "e1g1", "e1g1"),
    (CASTLE, "O-O-O", "e1c1", "e1c1"),
    (CASTLE, "0-0", "e1g1", InvalidSan),
    (CASTLE, "0-0-0", "e1c1", InvalidSan),
    (CASTLE, "o-o", "e1g1", InvalidSan),
    (CASTLE, "Rab1", "a1b1", InvalidSan),
    (CASTLE, "Rxa8", "a1a8", "a1a8"),
    (CASTLE, "Ra8", "a1a8", InvalidSan),  # missing x
    (PROMO, "e8=Q", "e7e8q", "e7e8q"),
    (PROMO, "e8Q", "e7e8q", InvalidSan),
    (PROMO, "e8(Q)", "e7e8q", InvalidSan),
    (PROMO, "e8/Q", "e7e8q", InvalidSan),
    (PROMO, "e8=q", "e7e8q", InvalidSan),
    (PROMO, "e8=N", "e7e8n", "e7e8n"),
    (PROMO, "exd8=R", "e7d8r", "e7d8r"),
    (PROMO, "ed8=Q", "e7d8q", InvalidSan),  # missing x (pawn)
    (PROMO, "e8", AmbiguousSan, AmbiguousSan),  # promotion piece missing
    (PROMO, "e8=K", InvalidSan, InvalidSan),
    (PROMO, "Ne8=Q", InvalidSan, InvalidSan),
    (TWO_KNIGHTS, "Nd2", AmbiguousSan, AmbiguousSan),
    (TWO_KNIGHTS, "Nbd2", "b1d2", "b1d2"),
    (TWO_KNIGHTS, "Nfd2", "f1d2", "f1d2"),
    (TWO_KNIGHTS, "N1d2", AmbiguousSan, AmbiguousSan),
    (TWO_KNIGHTS, "Nc3", "b1c3", "b1c3"),
    (TWO_KNIGHTS, "Nbc3", "b1c3", InvalidSan),
    (EP, "exd6", "e5d6", "e5d6"),
    (EP, "exd6e.p.", "e5d6", InvalidSan),
    (EP, "ed6", "e5d6", InvalidSan),
    (EP, "bc4", InvalidSan, InvalidSan),  # never guess between Bc4 and bxc4
]


@pytest.mark.parametrize(
    ("pos", "text", "lenient", "strict"), TABLE, ids=[f"{i}-{row[1]}" for i, row in enumerate(TABLE)]
)
def test_san_table(pos: Position, text: str, lenient: object, strict: object) -> None:
    for expected, is_strict in ((lenient, False), (strict, True)):
        if isinstance(expected, str):
            assert pos.parse_san(text, strict=is_strict).uci() == expected
        else:
            with pytest.raises(expected) as info:  # type: ignore[call-overload]
                pos.parse_san(text, strict=is_strict)
            err = info.value
            assert isinstance(err, SanError) and isinstance(err, ValueError)
            assert err.text == text and err.message and err.code.startswith("san.")


def test_unknown_piece_codes() -> None:
    for text in ("Sf3", "nf3", "Tf3", "Lxe5", "qd4"):
        with pytest.raises(InvalidSan) as info:
            START.parse_san(text)
        assert info.value.code == "san.unknown-piece"
    with pytest.raises(InvalidSan) as info:
        START.parse_san("e9")
    assert info.value.code == "san.invalid"


def test_sf3_is_never_the_pawn_move() -> None:
    for text in ("Sf3", "nf3", "sf3"):
        with pytest.raises(InvalidSan):
            START.parse_san(text)


def test_ambiguous_lists_candidates() -> None:
    with pytest.raises(AmbiguousSan) as info:
        TWO_KNIGHTS.parse_san("Nd2")
    assert info.value.code == "san.ambiguous"
    assert info.value.candidates == ("Nbd2", "Nfd2")
    with pytest.raises(AmbiguousSan) as info:
        PROMO.parse_san("e8")
    assert info.value.candidates == ("e8=Q", "e8=R", "e8=B", "e8=N")


def test_pinned_piece_does_not_count_for_ambiguity() -> None:
    # the knight on d4 is pinned by the rook on d8 against the king on d1
    pos = Position.from_fen("3r3k/8/8/8/3N4/8/8/3K2N1 w - - 0 1")
    assert pos.parse_san("Nf3").uci() == "g1f3"  # Nd4-f3 would expose the king
    assert pos.san(Move.from_uci("g1f3")) == "Nf3"
    with pytest.raises(IllegalSan):
        pos.parse_san("Ndf3")


def test_lenient_notes_from_detailed() -> None:
    res = START.parse_san_detailed("Ngf3")
    assert res.move.uci() == "g1f3" and res.lenient == ("superfluous disambiguation",)
    res = PROMO.parse_san_detailed("ed8Q")
    assert set(res.lenient) == {"promotion written without '='", "capture written without 'x'"}
    assert START.parse_san_detailed("e4").lenient == ()
    with pytest.raises(InvalidSan) as info:
        START.parse_san("Nxf3", strict=True)
    assert info.value.candidates == ("Nf3",)


def test_syntax_fields() -> None:
    s = parse_san_syntax("Nbxd7+")
    assert (s.piece, s.from_file, s.from_rank, s.capture, s.to_square, s.promotion) == (
        KNIGHT,
        1,
        None,
        True,
        parse_square("d7"),
        None,
    )
    assert (s.castle, s.null, s.suffix, s.lenient, s.canonical) == (None, False, "+", (), "Nbxd7+")
    s = parse_san_syntax("exd8=Q#")
    assert (s.piece, s.from_file, s.capture, s.promotion, s.suffix) == (PAWN, 4, True, QUEEN, "#")
    s = parse_san_syntax("0-0-0")
    assert s.castle == "Q" and s.canonical == "O-O-O" and s.lenient == ("castling written with zeros",)
    s = parse_san_syntax("--")
    assert s.null and s.piece is None
    assert parse_san_syntax("e8Q").canonical == "e8=Q"
    with pytest.raises(InvalidSan):
        parse_san_syntax("0-0", strict=True)
    assert parse_san_syntax("e4") is parse_san_syntax("e4")  # cached


def test_null_move() -> None:
    move = START.parse_san("--")
    assert not move and move == Move.null()
    assert START.san(move) == "--"


def test_san_formatting() -> None:
    pos = Position.initial()
    for text in ("e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6"):
        pos = pos.play(pos.parse_san(text))
    mate = pos.parse_san("Qxf7")
    assert pos.san(mate) == "Qxf7#"
    assert pos.san_without_suffix(mate) == "Qxf7"
    check = Position.from_fen("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")
    assert check.san(check.parse_san("Ra8")) == "Ra8+"
    assert check.san(check.parse_san("O-O-O")) == "O-O-O"
    assert EP.san(Move.from_uci("e5d6")) == "exd6"
    assert PROMO.san(Move.from_uci("e7d8n")) == "exd8=N"
    # file, rank and square disambiguation
    rooks = Position.from_fen("4k3/8/8/8/R7/8/4K3/R6R w - - 0 1")
    assert rooks.san(Move.from_uci("a1a2")) == "R1a2"
    assert rooks.san(Move.from_uci("a1b1")) == "Rab1"
    queens = Position.from_fen("k7/8/8/2Q1Q3/8/2Q5/8/K7 w - - 0 1")
    assert queens.san(Move.from_uci("c5d4")) == "Qc5d4"


def test_chess960_castling_san() -> None:
    pos = Position.from_fen("bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKR1 w GEge - 0 1")
    assert pos.chess960
    pos = Position.from_fen("1q2rkr1/pppppppp/8/8/8/8/PPPPPPPP/4RKR1 w GEge - 0 1")
    short = pos.parse_san("O-O")
    assert short.uci() == "f1g1"  # king takes own rook
    assert pos.san(short) == "O-O"
    after = pos.play(short)
    assert after.piece_type_at(parse_square("g1")) == 6 and after.piece_type_at(parse_square("f1")) == 4
    long = pos.parse_san("O-O-O")
    assert long.uci() == "f1e1"
    after = pos.play(long)
    assert after.board_fen().endswith("2KR2R1")


SYNTAX_SAMPLES = [
    "e4",
    "exd5",
    "e8=Q",
    "exd8=N+",
    "Nf3",
    "Nbd7",
    "R1e2",
    "Qh4xe1#",
    "O-O",
    "O-O-O+",
    "--",
    "0-0",
    "o-o-o",
    "ed5",
    "e8Q",
    "e8(Q)",
    "e8/Q",
    "e8=q",
    "Ng1-f3",
    "e2-e4",
    "e2e4",
    "Pe4",
    "\u2658f3",
    "exd6e.p.",
    "Z0",
    "Nf3!?",
    "Sf3",
    "nf3",
    "bc4",
    "e8=K",
    "Ne8=Q",
    "e9",
    "",
]


def _outcome(text: str) -> object:
    from notation.formats.san import _read

    try:
        return _read(text)
    except InvalidSan as err:
        return (err.code, err.message)


def test_pure_lark_and_lark_cython_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    import notation.formats.san as san_module
    from notation.grammars import build_parser, lark_cython_available

    if not lark_cython_available():
        pytest.skip("lark-cython not installed")
    monkeypatch.setattr(san_module, "_PARSER", build_parser("san", use_cython=True))
    fast = [_outcome(t) for t in SYNTAX_SAMPLES]
    monkeypatch.setattr(san_module, "_PARSER", build_parser("san", use_cython=False))
    pure = [_outcome(t) for t in SYNTAX_SAMPLES]
    assert fast == pure
