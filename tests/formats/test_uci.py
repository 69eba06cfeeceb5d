"""UCI and long algebraic notation in both directions."""

from __future__ import annotations

import pytest

from notation import IllegalSan, InvalidSan, Move, Position, SanError
from notation.rules.squares import QUEEN

START = Position.initial()


def test_move_value_type() -> None:
    m = Move.from_uci("e7e8q")
    assert (m.from_square, m.to_square, m.promotion) == (52, 60, QUEEN)
    assert m.uci() == "e7e8q" and str(m) == "e7e8q"
    assert Move.from_uci("e2e4") == Move(12, 28) and hash(Move.from_uci("e2e4")) == hash(Move(12, 28))
    null = Move.null()
    assert not null and null.uci() == "0000" and Move.from_uci("0000") == null
    assert bool(Move(12, 28))
    for bad in ("e2e9", "e2", "e7e8k", "e2e2", "xxxx"):
        with pytest.raises(ValueError):
            Move.from_uci(bad)
    with pytest.raises(AttributeError):
        m.from_square = 3  # type: ignore[misc]


def test_parse_uci() -> None:
    assert START.parse_uci("e2e4") == Move.from_uci("e2e4")
    assert START.uci(START.parse_uci("g1f3")) == "g1f3"
    with pytest.raises(IllegalSan) as info:
        START.parse_uci("e2e5")
    assert info.value.code == "san.illegal"
    with pytest.raises(InvalidSan):
        START.parse_uci("e2-e4")
    assert not START.parse_uci("0000")


def test_standard_castling_accepts_king_takes_rook() -> None:
    pos = Position.from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert pos.parse_uci("e1g1").uci() == "e1g1"
    assert pos.parse_uci("e1h1").uci() == "e1g1"
    assert pos.parse_uci("e1a1").uci() == "e1c1"


def test_chess960_castling_is_king_takes_rook() -> None:
    pos = Position.from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", chess960=True)
    castles = sorted(m.uci() for m in pos.legal_moves() if pos.is_castling(m))
    assert castles == ["e1a1", "e1h1"]
    assert pos.parse_uci("e1h1").uci() == "e1h1"
    assert pos.parse_san("O-O").uci() == "e1h1"
    assert pos.play(pos.parse_uci("e1h1")).board_fen() == "r3k2r/8/8/8/8/8/8/R4RK1"


def test_lan_both_directions() -> None:
    assert START.lan(Move.from_uci("e2e4")) == "e2-e4"
    assert START.lan(Move.from_uci("g1f3")) == "Ng1-f3"
    assert START.parse_lan("e2-e4") == Move.from_uci("e2e4")
    assert START.parse_lan("Ng1-f3") == Move.from_uci("g1f3")
    promo = Position.from_fen("3r4/4P3/8/8/8/8/8/k1K5 w - - 0 1")
    assert promo.lan(Move.from_uci("e7d8q")) == "e7xd8=Q"
    assert promo.parse_lan("e7xd8=Q") == Move.from_uci("e7d8q")
    castle = Position.from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert castle.lan(Move.from_uci("e1g1")) == "O-O"
    assert castle.parse_lan("O-O-O") == Move.from_uci("e1c1")
    for bad, err in (
        ("Ng1-g3", IllegalSan),
        ("Bg1-f3", IllegalSan),
        ("e2e4", InvalidSan),
        ("e2xe4", InvalidSan),
        ("Zg1-f3", InvalidSan),
    ):
        with pytest.raises(err):
            START.parse_lan(bad)
    with pytest.raises(SanError):
        START.parse_lan(None)  # type: ignore[arg-type]
