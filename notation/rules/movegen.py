"""Legal move generation: every legal move of a position, or those from or to given squares.

Pseudo-legal moves are filtered with pins and check evasion masks (only pinned pieces are
confined to their line; in check only blocks, captures of the checker and king moves remain), so
no move is played to test legality. Castling is encoded as the king's move to its destination in
standard positions and as king takes own rook in Chess960 (see :class:`notation.rules.move.Move`).
These functions read the position's bitboards directly; :class:`Position` offers them as
``legal_moves()``, ``legal_moves_to()``, ``is_legal()`` and ``has_legal_moves()``.
"""

from __future__ import annotations

from typing import Protocol

from notation.rules.attacks import (
    BETWEEN,
    BISHOP_EMPTY,
    KING_ATTACKS,
    KNIGHT_ATTACKS,
    LINE,
    PAWN_ATTACKS,
    ROOK_EMPTY,
    bishop_attacks,
    queen_attacks,
    rook_attacks,
)
from notation.rules.move import MOVES, Move
from notation.rules.squares import BB_ALL, BB_RANKS, BISHOP, KNIGHT, QUEEN, ROOK, scan_squares


class Position(Protocol):
    """What move generation reads of a position (:class:`notation.rules.position.Position`,
    which imports this module: so the generator names the parts it needs, not the class)."""

    _bb: list[int]
    _co: list[int]
    turn: bool
    castling_rights: int
    ep_square: int | None
    chess960: bool

    def _attacked_by(self, colour: bool, sq: int, occ: int, removed: int = 0) -> bool: ...

    def _is_safe(self, f: int, t: int) -> bool: ...

    def _ep_safe(self, f: int, ep: int) -> bool: ...


_BACKRANK = (BB_RANKS[7], BB_RANKS[0])  # by colour index: Black, White
_PROMOTIONS = (QUEEN, ROOK, BISHOP, KNIGHT)


def pinned_pieces(pos: Position, us: bool, king: int) -> int:
    bb = pos._bb
    occ = bb[0]
    own = pos._co[us]
    snipers = (ROOK_EMPTY[king] & (bb[4] | bb[5]) | BISHOP_EMPTY[king] & (bb[3] | bb[5])) & pos._co[not us]
    pinned = 0
    while snipers:
        low = snipers & -snipers
        snipers ^= low
        b = BETWEEN[king][low.bit_length() - 1] & occ
        if b and not (b & (b - 1)) and b & own:
            pinned |= b
    return pinned


def generate(pos: Position, from_mask: int, to_mask: int = BB_ALL, castling: bool = True) -> list[Move]:
    us = pos.turn
    them = not us
    bb = pos._bb
    co = pos._co
    own = co[us]
    enemy = co[them]
    occ = bb[0]
    king = (bb[6] & own).bit_length() - 1
    moves: list[Move] = []
    append = moves.append
    queens = bb[5]
    checkers = (
        KNIGHT_ATTACKS[king] & bb[2]
        | PAWN_ATTACKS[us][king] & bb[1]
        | rook_attacks(king, occ) & (bb[4] | queens)
        | bishop_attacks(king, occ) & (bb[3] | queens)
    ) & enemy
    if not checkers & (checkers - 1):
        if checkers:
            target = (BETWEEN[king][checkers.bit_length() - 1] | checkers) & to_mask
        else:
            target = ~own & to_mask
        pinned = pinned_pieces(pos, us, king)
        line = LINE[king]
        for f in scan_squares(bb[2] & own & from_mask & ~pinned):
            for t in scan_squares(KNIGHT_ATTACKS[f] & target):
                append(MOVES[f][t])
        for pt, fn in ((3, bishop_attacks), (4, rook_attacks), (5, queen_attacks)):
            for f in scan_squares(bb[pt] & own & from_mask):
                att = fn(f, occ) & target & ~own
                if pinned >> f & 1:
                    att &= line[f]
                for t in scan_squares(att):
                    append(MOVES[f][t])
        step = 8 if us else -8
        start_rank = BB_RANKS[1] if us else BB_RANKS[6]
        pawn_att = PAWN_ATTACKS[us]
        for f in scan_squares(bb[1] & own & from_mask):
            dest = pawn_att[f] & enemy
            t = f + step
            if not (occ >> t) & 1:
                dest |= 1 << t
                if (start_rank >> f) & 1 and not (occ >> (t + step)) & 1:
                    dest |= 1 << (t + step)
            dest &= target
            if pinned >> f & 1:
                dest &= line[f]
            for t in scan_squares(dest):
                if t >= 56 or t < 8:
                    for p in _PROMOTIONS:
                        append(Move(f, t, p))
                else:
                    append(MOVES[f][t])
        ep = pos.ep_square
        if ep is not None and to_mask >> ep & 1:
            for f in scan_squares(PAWN_ATTACKS[them][ep] & bb[1] & own & from_mask):
                if pos._ep_safe(f, ep):
                    append(MOVES[f][ep])
    if (from_mask >> king) & 1:
        occ_wo_king = occ ^ (1 << king)
        for t in scan_squares(KING_ATTACKS[king] & ~own & to_mask):
            if not pos._attacked_by(them, t, occ_wo_king, 1 << t):
                append(MOVES[king][t])
        if castling and not checkers and pos.castling_rights & own:
            moves.extend(castling_moves(pos))
    return moves


def castling_moves(pos: Position, side: str | None = None) -> list[Move]:
    us = pos.turn
    them = not us
    bb = pos._bb
    own = pos._co[us]
    occ = bb[0]
    king = (bb[6] & own).bit_length() - 1
    kbit = 1 << king
    base = 0 if us else 56
    out = []
    for r in scan_squares(pos.castling_rights & own & bb[4] & _BACKRANK[us]):
        a_side = r < king
        if side is not None and (side == "Q") != a_side:
            continue
        kt = base + (2 if a_side else 6)
        rt = base + (3 if a_side else 5)
        rbit = 1 << r
        path = BETWEEN[king][kt] | (1 << kt) | BETWEEN[r][rt] | (1 << rt)
        if (occ ^ kbit ^ rbit) & path:
            continue
        occ_k = occ ^ kbit
        crossed = BETWEEN[king][kt] | kbit
        attacked = False
        while crossed:
            low = crossed & -crossed
            crossed ^= low
            if pos._attacked_by(them, low.bit_length() - 1, occ_k):
                attacked = True
                break
        if attacked:
            continue
        if pos._attacked_by(them, kt, occ_k ^ rbit | (1 << rt)):
            continue
        out.append(MOVES[king][r] if pos.chess960 else MOVES[king][kt])
    return out


def origins(pos: Position, ptype: int, t: int) -> int:
    """Squares from which a piece of ``ptype`` (side to move) could reach ``t`` (pseudo)."""
    bb = pos._bb
    occ = bb[0]
    if ptype == 2:
        att = KNIGHT_ATTACKS[t]
    elif ptype == 3:
        att = bishop_attacks(t, occ)
    elif ptype == 4:
        att = rook_attacks(t, occ)
    elif ptype == 5:
        att = queen_attacks(t, occ)
    else:
        att = KING_ATTACKS[t]
    return att & bb[ptype] & pos._co[pos.turn]


def piece_moves_to(pos: Position, piece_type: int, to: int) -> list[Move]:
    """The legal moves of the side to move's pieces of ``piece_type`` (knight to king; not
    pawns, not castling) that end on ``to``: a reverse lookup from ``to``, no move list."""
    if pos._co[pos.turn] >> to & 1:
        return []
    out = []
    cands = origins(pos, piece_type, to)
    while cands:
        low = cands & -cands
        cands ^= low
        f = low.bit_length() - 1
        if pos._is_safe(f, to):
            out.append(MOVES[f][to])
    return out
