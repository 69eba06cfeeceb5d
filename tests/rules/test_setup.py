"""The rules build a position from a set-up value and read no text; FEN is the formats' work."""

from __future__ import annotations

import pytest

import notation
from notation.formats.fen import FenError, parse_fen
from notation.formats.position import Position
from notation.rules import position as rules
from notation.rules.setup import STARTING_SETUP, SetupError


def test_the_rules_position_has_no_text() -> None:
    for name in ("from_fen", "fen", "san", "parse_san", "parse_uci", "lan", "_repr_svg_"):
        assert not hasattr(rules.Position, name), name
    assert notation.Position is Position and issubclass(Position, rules.Position)


def test_a_setup_builds_the_position_a_fen_gives() -> None:
    plain = rules.Position.from_setup(STARTING_SETUP)
    assert plain == Position.initial() and plain.key() == Position.initial().key()
    assert parse_fen(Position.initial().fen()) == STARTING_SETUP
    assert type(rules.Position.initial()) is rules.Position and type(Position.initial()) is Position


def test_play_keeps_the_class() -> None:
    pos = Position.initial()
    after = pos.play(pos.parse_san("e4")).play_null()
    assert type(after) is Position and after.fen().startswith("rnbqkbnr/pppppppp/8/8/4P3")


def test_a_bad_setup_is_a_setup_error_and_a_bad_fen_a_fen_error() -> None:
    two_kings = parse_fen("4k3/8/8/8/8/8/8/KK6 w - - 0 1")
    with pytest.raises(SetupError) as plain:
        rules.Position.from_setup(two_kings)
    assert not isinstance(plain.value, FenError) and plain.value.field == "placement"
    with pytest.raises(FenError) as fen:
        Position.from_fen("4k3/8/8/8/8/8/8/KK6 w - - 0 1")
    assert str(fen.value) == "invalid FEN (placement): White has 2 kings (exactly one needed)"
