"""Position: immutability, special moves, outcome, dead positions, repetition keys, queries."""

from __future__ import annotations

import pytest

from notation import IllegalSan, Move, Position, perft
from notation.rules.squares import (
    BISHOP,
    BLACK,
    KING,
    KNIGHT,
    PAWN,
    QUEEN,
    WHITE,
    parse_square,
)


def play(pos: Position, *sans: str) -> Position:
    for san in sans:
        pos = pos.play(pos.parse_san(san))
    return pos


def test_play_is_immutable() -> None:
    start = Position.initial()
    fen = start.fen()
    after = start.play(start.parse_san("e4"))
    assert start.fen() == fen and after.fen() != fen
    assert after.turn is BLACK and start.turn is WHITE
    assert Position.initial() == start
    with pytest.raises(TypeError):
        Position()
    with pytest.raises(AttributeError):
        start.foo = 1  # type: ignore[attr-defined]


def test_clocks_and_move_numbers() -> None:
    pos = play(Position.initial(), "Nf3", "Nf6", "Ng1")
    assert (pos.halfmove_clock, pos.fullmove_number, pos.turn) == (3, 2, BLACK)
    pos = play(pos, "e5")
    assert (pos.halfmove_clock, pos.fullmove_number) == (0, 3)


def test_null_move() -> None:
    pos = play(Position.initial(), "e4")
    null = pos.play_null()
    assert null.turn is WHITE and null.ep_square is None and null.fullmove_number == 2
    assert pos.play(Move.null()).fen() == null.fen()


def test_castling_conditions() -> None:
    # all four conditions of 5.1: unmoved, path empty, not in check, no attacked square crossed
    base = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    pos = Position.from_fen(base)
    assert {m.uci() for m in pos.legal_moves() if pos.is_castling(m)} == {"e1g1", "e1c1"}
    no_rights = Position.from_fen("r3k2r/8/8/8/8/8/8/R3K2R w kq - 0 1")
    assert not [m for m in no_rights.legal_moves() if no_rights.is_castling(m)]
    blocked = Position.from_fen("r3k2r/8/8/8/8/8/8/RN2K1NR w KQkq - 0 1")
    assert not [m for m in blocked.legal_moves() if blocked.is_castling(m)]
    in_check = Position.from_fen("r3k2r/8/8/8/8/8/4q3/R3K2R w KQkq - 0 1")
    assert not [m for m in in_check.legal_moves() if in_check.is_castling(m)]
    crossed = Position.from_fen("r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1")  # f1 attacked
    assert {m.uci() for m in crossed.legal_moves() if crossed.is_castling(m)} == {"e1c1"}
    # b1 attacked does not stop queen-side castling (the king does not cross b1)
    b_file = Position.from_fen("1r2k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1")
    assert "e1c1" in {m.uci() for m in b_file.legal_moves()}
    # king and rook moves lose the rights
    moved = play(pos, "Kf1", "Kf8", "Ke1", "Ke8")
    assert moved.castling_rights == 0
    rook = play(pos, "Rb1")
    assert rook.fen().split()[2] == "Kkq"
    # capturing a rook removes that right
    capture = play(pos, "Rxa8+")
    assert capture.fen().split()[2] == "Kk"


def test_en_passant_rules() -> None:
    pos = play(Position.initial(), "e4", "a6", "e5", "d5")
    assert pos.parse_san("exd6").uci() == "e5d6"
    after = pos.play(pos.parse_san("exd6"))
    assert after.piece_at(parse_square("d5")) is None
    assert pos.is_en_passant(Move.from_uci("e5d6")) and pos.is_capture(Move.from_uci("e5d6"))
    # only on the very next move
    later = play(pos, "Nf3", "Nf6")
    assert "e5d6" not in {m.uci() for m in later.legal_moves()}
    # horizontal pin: capturing would expose the king along the rank
    pinned = Position.from_fen("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1")
    assert "e5d6" not in {m.uci() for m in pinned.legal_moves()}
    assert pinned.key() == Position.from_fen("8/8/8/K2pP2r/8/8/8/7k w - - 0 1").key()


def test_promotion_always_and_only_to_four_pieces() -> None:
    pos = Position.from_fen("3r4/4P3/8/8/8/8/8/k1K5 w - - 0 1")
    promos = sorted(m.uci() for m in pos.legal_moves() if m.from_square == parse_square("e7"))
    assert promos == sorted(["e7e8q", "e7e8r", "e7e8b", "e7e8n", "e7d8q", "e7d8r", "e7d8b", "e7d8n"])
    after = pos.play(Move.from_uci("e7e8n"))
    assert after.piece_at(parse_square("e8")) == (WHITE, KNIGHT)


def test_check_mate_stalemate() -> None:
    mate = play(Position.initial(), "f3", "e5", "g4", "Qh4")
    assert mate.is_check() and mate.is_checkmate() and not mate.is_stalemate()
    assert not mate.has_legal_moves() and mate.legal_moves() == []
    stale = Position.from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert stale.is_stalemate() and not stale.is_check() and not stale.is_checkmate()
    start = Position.initial()
    assert not start.is_check() and start.has_legal_moves()
    assert mate.checkers().bit_count() == 1


@pytest.mark.parametrize(
    ("fen", "dead"),
    [
        ("8/8/4k3/8/8/3K4/8/8 w - - 0 1", True),  # K v K
        ("8/8/4k3/8/8/3KB3/8/8 w - - 0 1", True),  # K+B v K
        ("8/8/4k3/8/8/3KN3/8/8 w - - 0 1", True),  # K+N v K
        ("8/8/4kb2/8/8/3KB3/8/8 w - - 0 1", True),  # same-coloured bishops (f6 dark? see below)
        ("8/8/4k1b1/8/8/3KB3/8/8 w - - 0 1", False),  # opposite colours
        ("8/8/2b1kb2/8/8/3KB1B1/8/8 w - - 0 1", False),
        ("b7/1b6/2b1k3/8/8/3K4/6B1/7B w - - 0 1", True),  # all bishops on the long light diagonal
        ("8/8/4k3/8/8/3KNN2/8/8 w - - 0 1", False),
        ("8/8/4kn2/8/8/3KB3/8/8 w - - 0 1", False),
        ("8/8/4k3/8/8/3K4/4P3/8 w - - 0 1", False),
        ("8/8/3k4/8/8/4KR2/8/8 w - - 0 1", False),
    ],
)
def test_dead_positions(fen: str, dead: bool) -> None:
    pos = Position.from_fen(fen)
    bishops = [sq for sq in range(64) if pos.piece_type_at(sq) == BISHOP]
    if fen.startswith("8/8/4kb2"):  # e3 and f6 are both dark squares
        assert all((sq // 8 + sq % 8) % 2 == 0 for sq in bishops)
    assert pos.is_dead_position() is dead


def test_key_equality_classes() -> None:
    start = Position.initial()
    # transposition: same position, same key
    a = play(start, "Nf3", "Nf6", "Nc3", "Nc6")
    b = play(start, "Nc3", "Nc6", "Nf3", "Nf6")
    assert a.key() == b.key() and a.fen() == b.fen()
    # knights out and back: same placement as the start, and the key ignores the clocks
    back = play(start, "Nf3", "Nf6", "Ng1", "Ng8")
    assert back.key() == start.key() and back.halfmove_clock == 4
    # side to move matters
    assert start.key() != start.play_null().key()
    # castling rights matter
    lost = play(start, "Nf3", "Nf6", "Rg1", "Ng8", "Rh1", "Nf6", "Ng1", "Ng8")
    assert lost.board_fen() == start.board_fen() and lost.key() != start.key()
    # en passant matters only when the capture is legal
    e4 = play(start, "e4")
    assert e4.ep_square is not None
    assert e4.key() == Position.from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").key()
    legal_ep = Position.from_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3")
    no_ep = Position.from_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3")
    assert legal_ep.key() != no_ep.key()
    assert hash(a) == hash(a.key()) == hash(b)


def test_key_is_incremental_equal_to_fresh() -> None:
    pos = Position.initial()
    for san in [
        "e4",
        "d5",
        "exd5",
        "Qxd5",
        "Nc3",
        "Qa5",
        "d4",
        "c6",
        "Nf3",
        "Bg4",
        "Bf4",
        "e6",
        "h3",
        "Bxf3",
        "Qxf3",
        "Bb4",
        "Be2",
        "Nd7",
        "a3",
        "O-O-O",
        "axb4",
        "Qxa1+",
        "Kd2",
        "Qxh1",
        "Qxc6+",
        "bxc6",
        "Ba6#",
    ]:
        pos = pos.play(pos.parse_san(san))
        assert pos.key() == Position.from_fen(pos.fen()).key()
    assert pos.is_checkmate()


def test_queries() -> None:
    pos = Position.initial()
    e1, e2, e4 = parse_square("e1"), parse_square("e2"), parse_square("e4")
    assert pos.piece_at(e1) == (WHITE, KING) and pos.piece_at(e4) is None
    assert pos.piece_type_at(e2) == PAWN and pos.piece_type_at(e4) is None
    assert pos.king(WHITE) == e1 and pos.king(BLACK) == parse_square("e8")
    assert pos.material() == (39, 39)
    assert not pos.only_king(WHITE)
    assert Position.from_fen("8/8/2k5/8/8/3KQ3/8/8 w - - 0 1").only_king(BLACK)
    assert Position.from_fen("8/8/2k5/8/8/3KQ3/8/8 w - - 0 1").material() == (9, 0)
    assert not pos.is_capture(Move.from_uci("e2e4")) and not pos.is_castling(Move.from_uci("e2e4"))
    check = Position.from_fen("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")
    assert check.gives_check(Move.from_uci("a1a8")) and not check.gives_check(Move.from_uci("a1a7"))
    assert check.is_castling(Move.from_uci("e1c1"))
    assert pos.is_legal(Move.from_uci("e2e4")) and not pos.is_legal(Move.from_uci("e2e5"))
    assert not pos.is_legal(Move.null())
    assert pos.piece_at(parse_square("d1")) == (WHITE, QUEEN)


def test_perft_chess960_castling_through_rook() -> None:
    # king b1, rook a1 (queen side): king goes to c1, rook to d1
    pos = Position.from_fen("4k2r/8/8/8/8/8/8/RK5R w KQk - 0 1")
    assert pos.chess960
    assert "b1a1" in {m.uci() for m in pos.legal_moves()}
    assert perft(pos, 2) == sum(len(pos.play(m).legal_moves()) for m in pos.legal_moves())


def test_en_passant_edge_cases() -> None:
    # the double-stepped pawn gives check; capturing it en passant is the legal answer
    evasion = Position.from_fen("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1")
    assert "e4d3" in {m.uci() for m in evasion.legal_moves()}
    assert evasion.parse_san("exd3").uci() == "e4d3"
    # capturing en passant would open a diagonal onto the king (the captured pawn was the shield)
    diagonal = Position.from_fen("7k/8/8/8/3Pp3/8/8/B3K3 b - d3 0 1")
    assert not diagonal.is_legal(Move.from_uci("e4d3"))
    assert not diagonal.has_legal_en_passant()
    with pytest.raises(IllegalSan):
        diagonal.parse_san("exd3")
    # en passant square but no pawn able to take: key and FEN ignore it
    idle = Position.from_fen("4k3/8/8/8/3P4/8/8/4K3 b - d3 0 1")
    assert idle.fen().split()[3] == "-" and not idle.has_legal_en_passant()
    assert idle.key() == Position.from_fen("4k3/8/8/8/3P4/8/8/4K3 b - - 0 1").key()
