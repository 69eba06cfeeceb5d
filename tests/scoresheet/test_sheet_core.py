"""The position-bound facts of the scoresheet reader, computed by the compiled core
(:class:`notation.scoresheet.channel.PositionMoves`), are those the rules engine gives: the legal
moves in the reader's tie order, each move's :data:`~notation.scoresheet.channel.MoveFacts`, its
check level, the square of what it takes and whether it leaves material hanging, over positions
of real games, random playouts and Chess960 playouts. The reference below is written on
:mod:`notation.rules` (the reader's own definitions before the core took them over)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from notation.formats.position import Position
from notation.rules.move import Move
from notation.scoresheet.channel import MoveFacts, core_board, move_facts, position_moves
from notation.scoresheet.plausibility import HANG, move_class
from notation.scoresheet.tokens import BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK

HCS = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus" / "scoresheets" / "hcs"
VALUE = {PAWN: 1, KNIGHT: 3, BISHOP: 3, ROOK: 5, QUEEN: 9}


def _facts(pos: Position, moves: list[Move]) -> list[MoveFacts]:
    by_target: dict[tuple[int, int], list[int]] = {}
    pieces: list[int] = []
    for move in moves:
        piece = pos.piece_type_at(move.from_square) or PAWN
        pieces.append(piece)
        by_target.setdefault((piece, move.to_square), []).append(move.from_square)
    out: list[MoveFacts] = []
    for move, piece in zip(moves, pieces):
        castle = None
        to = move.to_square
        if piece == KING and pos.is_castling(move):
            if pos.chess960:
                to = (move.from_square & ~7) | (6 if move.to_square > move.from_square else 2)
            castle = "K" if to % 8 == 6 else "Q"
        taken = pos.piece_type_at(move.to_square) if castle is None else None
        if taken is None and piece == PAWN and move.to_square % 8 != move.from_square % 8:
            taken = PAWN
        needs_file = needs_rank = False
        if piece == PAWN:
            needs_file = taken is not None
        elif piece != KING:
            rivals = [sq for sq in by_target[(piece, move.to_square)] if sq != move.from_square]
            if rivals:
                if all(sq % 8 != move.from_square % 8 for sq in rivals):
                    needs_file = True
                elif all(sq // 8 != move.from_square // 8 for sq in rivals):
                    needs_rank = True
                else:
                    needs_file = needs_rank = True
        out.append(MoveFacts(piece, move.from_square, to, taken, move.promotion, castle, needs_file, needs_rank))
    return out


def _en_prise(pos: Position, colour: bool) -> int:
    best = 0
    for piece_type in (KNIGHT, BISHOP, ROOK, QUEEN):
        bb = pos.pieces(piece_type, colour)
        while bb:
            low = bb & -bb
            bb ^= low
            sq = low.bit_length() - 1
            attackers = pos.attackers(not colour, sq)
            if not attackers:
                continue
            if not pos.attackers(colour, sq):
                best = max(best, VALUE[piece_type])
                continue
            cheapest = 99
            while attackers:
                a = attackers & -attackers
                attackers ^= a
                cheapest = min(cheapest, VALUE.get(pos.piece_type_at(a.bit_length() - 1) or 0, 99))
            best = max(best, VALUE[piece_type] - cheapest)
    return best


def _gives(pos: Position, move: Move) -> tuple[int, int | None, bool]:
    after = pos.play(move)
    check = 0 if not after.is_check() else (1 if after.has_legal_moves() else 2)
    victim = pos.piece_type_at(move.to_square)
    taken = victim is not None or pos.is_en_passant(move)
    gained = VALUE.get(victim, 0) if victim is not None else (1 if taken else 0)
    hangs = after.has_legal_moves() and _en_prise(after, pos.turn) - gained >= HANG
    return check, move.to_square if taken else None, hangs


def _check_position(pos: Position) -> None:
    found = position_moves(core_board(pos))
    moves = sorted(pos.legal_moves(), key=lambda m: (-m.from_square, -m.to_square, -(m.promotion or 0)))
    assert found.moves == moves, pos.fen()
    assert found.facts == _facts(pos, moves), pos.fen()
    assert found.gives == [_gives(pos, m) for m in moves], pos.fen()
    assert move_facts(pos, moves[::-1]) == found.facts[::-1]


def _playout(pos: Position, rng: random.Random, plies: int) -> list[Position]:
    seen = [pos]
    board = core_board(pos)
    for _ in range(plies):
        moves = pos.legal_moves()
        if not moves:
            break
        move = rng.choice(moves)
        pos, board = pos.play(move), board.play(*move)
        assert position_moves(board).moves == position_moves(core_board(pos)).moves
        seen.append(pos)
    return seen


def test_facts_of_random_playouts_are_the_rules_engine_s() -> None:
    rng = random.Random(2026)
    for _ in range(12):
        for pos in _playout(Position.initial(), rng, 120)[::3]:
            _check_position(pos)


def test_facts_of_chess960_playouts_are_the_rules_engine_s() -> None:
    rng = random.Random(960)
    starts = [
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "nrbbqkrn/pppppppp/8/8/8/8/PPPPPPPP/NRBBQKRN w GBgb - 0 1",
        "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w CAca - 0 1",
    ]
    for fen in starts:
        for _ in range(4):
            for pos in _playout(Position.from_fen(fen, chess960=True), rng, 80)[::2]:
                _check_position(pos)


def test_castling_promotion_and_en_passant_positions() -> None:
    for fen in (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    ):
        _check_position(Position.from_fen(fen))


def test_facts_along_real_games() -> None:
    if not HCS.is_dir():
        pytest.skip("the shared HCS corpus (../shared/corpus/scoresheets/hcs) is absent")
    from notation.scoresheet.learn import load_hcs

    games = [g.answer for g in load_hcs(HCS) if g.answer is not None][:30]
    for answer in games:
        pos = Position.initial()
        for san in answer:
            _check_position(pos)
            _, pos = pos.play_san(san)


def test_move_class_reads_the_facts() -> None:
    assert move_class((0, None, False), None) == "quiet"
    assert move_class((1, 20, False), 20) == "r+"
    assert move_class((2, 20, True), 21) == "hx+"
    assert move_class((0, None, True), 21) == "h"
