"""Hypothesis properties of the rules engine over positions reached by random play."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notation import Move, Position, SanError
from notation.rules.squares import SQUARE_NAMES
from notation.formats.fen import FenError
from notation.rules.step import advance

STARTS = [
    Position.initial(),
    Position.from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    Position.from_fen("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
    Position.from_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"),
    Position.from_fen("rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1"),
    Position.from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", chess960=True),
]

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def positions(draw: st.DrawFn) -> Position:
    pos = draw(st.sampled_from(STARTS))
    for choice in draw(st.lists(st.integers(0, 10_000), max_size=60)):
        moves = pos.legal_moves()
        if not moves:
            break
        pos = pos.play(moves[choice % len(moves)])
    return pos


@SETTINGS
@given(positions())
def test_fen_round_trip(pos: Position) -> None:
    for shredder in (False, True):
        text = pos.fen(shredder=shredder)
        again = Position.from_fen(text, chess960=pos.chess960)
        assert again.fen(shredder=shredder) == text
        assert again.key() == pos.key()  # the incremental key equals a fresh one
        assert sorted(again.legal_moves()) == sorted(pos.legal_moves())


@SETTINGS
@given(positions())
def test_san_round_trip_for_every_legal_move(pos: Position) -> None:
    for move in pos.legal_moves():
        san = pos.san(move)
        assert pos.parse_san(san) == move
        assert pos.parse_san(san, strict=True) == move
        assert pos.parse_uci(move.uci()) == move
        assert pos.parse_lan(pos.lan(move)) == move
        assert pos.is_legal(move)


@SETTINGS
@given(positions(), st.integers(0, 63), st.integers(0, 63), st.sampled_from([None, 2, 3, 4, 5]))
def test_legal_iff_resolves(pos: Position, f: int, t: int, promo: int | None) -> None:
    if f == t:
        return
    move = Move(f, t, promo)
    legal = pos.legal_moves()
    assert pos.is_legal(move) == (move in legal)
    try:
        resolved = pos.parse_uci(move.uci())
    except SanError:
        resolved = None
    if move in legal:
        assert resolved == move
    elif resolved is not None:  # only the standard-chess king-takes-rook castling alias
        assert resolved in legal and pos.is_castling(resolved) and not pos.chess960
    # SAN built for the move's piece and target: whatever it resolves to is legal
    kind = pos.piece_type_at(f)
    if kind is not None and kind != 1:
        text = " PNBRQK"[kind] + "abcdefgh"[f & 7] + "12345678"[f >> 3] + "abcdefgh"[t & 7] + "12345678"[t >> 3]
        try:
            got = pos.parse_san(text)
        except SanError:
            got = None
        assert (got == move) == (move in legal and not pos.is_castling(move))


@SETTINGS
@given(positions(), st.text(max_size=12))
def test_parse_san_raises_only_san_errors(pos: Position, text: str) -> None:
    try:
        move = pos.parse_san(text)
    except SanError as err:
        assert err.code.startswith("san.") and err.message
    else:
        assert not move or move in pos.legal_moves()


@SETTINGS
@given(st.text(max_size=90))
def test_from_fen_raises_only_fen_errors(text: str) -> None:
    try:
        Position.from_fen(text)
    except FenError as err:
        assert err.field in ("placement", "turn", "castling", "en_passant", "halfmove", "fullmove", "position")


@SETTINGS
@given(positions())
def test_outcome_consistency(pos: Position) -> None:
    has_moves = bool(pos.legal_moves())
    assert pos.has_legal_moves() == has_moves
    assert pos.is_checkmate() == (pos.is_check() and not has_moves)
    assert pos.is_stalemate() == (not pos.is_check() and not has_moves)
    for move in pos.legal_moves()[:10]:
        after = pos.play(move)
        assert pos.gives_check(move) == after.is_check()
        assert pos.san(move).endswith(("+", "#")) == after.is_check()


@SETTINGS
@given(positions())
def test_agrees_with_python_chess(pos: Position) -> None:
    import chess

    board = chess.Board(pos.fen(), chess960=pos.chess960)
    assert board.fen() == pos.fen()
    assert sorted(m.uci() for m in pos.legal_moves()) == sorted(m.uci() for m in board.legal_moves)
    assert pos.is_check() == board.is_check()
    for move in pos.legal_moves():
        assert pos.san(move) == board.san(chess.Move.from_uci(move.uci()))


@SETTINGS
@given(positions())
def test_play_san_fast_path_agrees_with_parse_and_play(pos: Position) -> None:
    for move in pos.legal_moves():
        san = pos.san(move)
        got, after = pos.play_san(san)
        expected = pos.play(move)
        assert got == move
        assert after == expected and after.key() == expected.key() and after.fen() == expected.fen()
        # also through a lenient spelling that keeps the fast path (superfluous origin square)
        kind = pos.piece_type_at(move.from_square)
        if kind != 1 and not pos.is_castling(move):
            text = (
                " PNBRQK"[kind or 0]
                + SQUARE_NAMES[move.from_square]
                + ("x" if pos.is_capture(move) else "")
                + SQUARE_NAMES[move.to_square]
            )
            assert pos.play_san(text) == (move, expected)


@SETTINGS
@given(positions(), st.integers(0, 63))
def test_advance_agrees_with_resolve_play_and_check(pos: Position, other: int) -> None:
    """``Position.advance`` (replay's fused fast path) is either None or exactly the general
    resolver, ``play`` and ``is_check`` in turn, for every legal move's SAN, the same SAN with
    the capture mark flipped, and the same piece sent to another square."""
    from notation.formats.san import SanError, parse_san_syntax

    texts = set()
    for move in pos.legal_moves():
        san = pos.san(move).rstrip("+#")
        texts.add(san)
        texts.add(san.replace("x", "") if "x" in san else san[:-2] + "x" + san[-2:])
        texts.add(san[:-2] + SQUARE_NAMES[other])
    for text in sorted(texts):
        try:
            syntax = parse_san_syntax(text)
        except SanError:
            continue
        kind, target, mask = syntax.fast
        if not kind or syntax.lenient:
            continue
        got = advance(pos, kind, target, mask, syntax.capture, pos.is_check() if other % 2 else None)
        try:
            move, _, notes = pos.resolve_san_detailed(syntax)
        except SanError:
            assert got is None, text
            continue
        if got is None:
            continue
        assert not notes, text
        after = pos.play(move)
        assert got[0] == move and got[2] == after.is_check(), text
        assert got[1] == after and got[1].key() == after.key() and got[1].fen() == after.fen(), text


@SETTINGS
@given(positions(), st.integers(0, (1 << 64) - 1))
def test_legal_moves_to_is_legal_moves_filtered(pos: Position, mask: int) -> None:
    every = pos.legal_moves()
    expected = sorted(m.uci() for m in every if mask >> m.to_square & 1 or pos.is_castling(m))
    assert sorted(m.uci() for m in pos.legal_moves_to(mask)) == expected
    no_castling = sorted(m.uci() for m in every if mask >> m.to_square & 1 and not pos.is_castling(m))
    assert sorted(m.uci() for m in pos.legal_moves_to(mask, castling=False) if not pos.is_castling(m)) == no_castling


@SETTINGS
@given(positions())
def test_castling_fast_path_iff_legal(pos: Position) -> None:
    _check_castling(pos)


def _check_castling(pos: Position) -> None:
    castles = {pos.san(m).rstrip("+#"): m for m in pos.legal_moves() if pos.is_castling(m)}
    for text in ("O-O", "O-O-O"):
        try:
            got = pos.play_san(text)
        except SanError:
            got = None
        if text in castles:
            assert got == (castles[text], pos.play(castles[text]))
        else:
            assert got is None


CASTLING_STARTS = [
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
    "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
]


@SETTINGS
@given(st.sampled_from(CASTLING_STARTS), st.lists(st.integers(0, 10_000), max_size=12))
def test_castling_fast_path_near_castling(fen: str, choices: list[int]) -> None:
    pos = Position.from_fen(fen)
    for choice in choices:
        _check_castling(pos)
        moves = pos.legal_moves()
        if not moves:
            break
        pos = pos.play(moves[choice % len(moves)])
