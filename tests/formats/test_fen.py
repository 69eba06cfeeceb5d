"""FEN / X-FEN / Shredder-FEN parsing, validation (field named) and formatting."""

from __future__ import annotations

import pytest

from notation import FenError, Position
from notation.formats.fen import STARTING_FEN

INVALID = [
    ("", "placement"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "placement"),  # 7 ranks
    ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement"),
    ("rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "placement"),
    ("rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "placement"),  # no black king
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w kq - 0 1", "placement"),  # two white kings
    ("Pnbqkbnr/1ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQk - 0 1", "placement"),  # pawn on rank 8
    ("4k3/8/8/8/8/8/8/p3K3 w - - 0 1", "placement"),  # pawn on rank 1
    ("4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", "placement"),  # 9 pawns
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "turn"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR W KQkq - 0 1", "turn"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqX - 0 1", "castling"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", "castling"),  # no h1 rook
    ("4k3/8/8/8/8/8/4K3/R6R w KQ - 0 1", "castling"),  # king off its first rank
    ("4k3/8/8/8/8/8/8/R3K2R w KQC - 0 1", "castling"),  # C: no rook on c1
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKkq - 0 1", "castling"),
    ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1", "en_passant"),  # wrong rank
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1", "en_passant"),  # no pawn
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1", "en_passant"),
    ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPPBPPP/RNBQK1NR b KQkq e3 0 1", "en_passant"),  # e2 occupied
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1", "en_passant"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "halfmove"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1", "halfmove"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 one", "fullmove"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra", "position"),
    ("4k3/8/8/8/8/8/8/4K2R w - - 0 1", None),  # fine: a control row
    ("4k2R/8/8/8/8/8/8/4K3 w - - 0 1", "position"),  # black (not to move) in check
]


@pytest.mark.parametrize(("fen", "field"), INVALID)
def test_invalid_fen_names_the_field(fen: str, field: str | None) -> None:
    if field is None:
        Position.from_fen(fen)
        return
    with pytest.raises(FenError) as info:
        Position.from_fen(fen)
    err = info.value
    assert isinstance(err, ValueError)
    assert err.field == field, err.message
    assert err.message


ROUND_TRIP = [
    STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "4k3/8/8/8/8/8/8/4K2R b K - 12 40",
]


@pytest.mark.parametrize("fen", ROUND_TRIP)
def test_round_trip(fen: str) -> None:
    assert Position.from_fen(fen).fen() == fen


def test_epd_like_four_fields_default_clocks() -> None:
    pos = Position.from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -")
    assert (pos.halfmove_clock, pos.fullmove_number) == (0, 1)
    assert pos.fen() == STARTING_FEN


def test_ep_square_written_only_when_legal_by_default() -> None:
    # after 1.e4 no black pawn can capture on e3
    pos = Position.initial()
    pos = pos.play(pos.parse_san("e4"))
    assert pos.ep_square is not None
    assert pos.fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    assert pos.fen(en_passant="fen") == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    # a legal en passant is written
    legal = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"
    assert Position.from_fen(legal).fen() == legal


def test_chess960_detection_and_formats() -> None:
    shredder = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
    pos = Position.from_fen(shredder)
    assert pos.chess960
    assert pos.fen(shredder=True) == shredder
    assert pos.fen() == "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9"
    # X-FEN KQkq with the king off the e-file -> Chess960
    xfen = Position.from_fen("rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1")
    assert xfen.chess960
    assert xfen.fen(shredder=True).split()[2] == "CAca"
    # inner rook: file letter in X-FEN
    inner = Position.from_fen("4k3/8/8/8/8/8/8/1R2K1RR w G - 0 1", chess960=True)
    assert inner.fen().split()[2] == "G"
    # standard-looking Shredder field stays standard
    assert not Position.from_fen("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1").chess960
    assert Position.from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", chess960=True).chess960
    with pytest.raises(FenError) as info:
        Position.from_fen("rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1", chess960=False)
    assert info.value.field == "castling"


def test_castling_rights_mask_and_board_fen() -> None:
    pos = Position.initial()
    assert pos.castling_rights == (1 << 0) | (1 << 7) | (1 << 56) | (1 << 63)
    assert pos.board_fen() == STARTING_FEN.split()[0]


def test_non_string_input() -> None:
    with pytest.raises(FenError):
        Position.from_fen(None)  # type: ignore[arg-type]
