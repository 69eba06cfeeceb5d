"""The replay fast path: one step of a move named by its piece kind and target square.

:func:`advance` resolves, plays and tests for check in one go when exactly one piece of the
named kind can legally go to the target and nothing needs explaining; :func:`fast_from` is the
resolving half alone. They read the position's bitboards directly (these functions are part of
the rules engine, split from :mod:`notation.rules.position` only to keep that module short).
A property test keeps them equal to resolving the SAN, :meth:`Position.play` and
:meth:`Position.is_check` done one after the other.

Kinds (``notation.formats.san.SanSyntax.fast``): 1 pawn push, 7 pawn capture (not en passant),
2..6 the piece type; ``mask`` restricts the origin (0: no restriction).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from notation.rules import zobrist
from notation.rules.attacks import (
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
from notation.rules.squares import BB_RANKS

if TYPE_CHECKING:  # pragma: no cover
    from notation.rules.position import Position

_P = TypeVar("_P", bound="Position")

_Z = zobrist.PIECE
_Z_TURN = zobrist.TURN
_new = object.__new__
_BACKRANK = (BB_RANKS[7], BB_RANKS[0])  # by colour index: Black, White


def _push_source(us: bool, to: int, tbit: int, pawns: int, occ: int) -> int:
    """The pawn among ``pawns`` (the side to move's) that a push to the empty square ``to``
    would move: one step back, or two from the start rank across an empty square."""
    if us:
        cands = (tbit >> 8) & pawns
        if not cands and to >> 3 == 3 and not occ & (tbit >> 8):
            cands = (tbit >> 16) & pawns
    else:
        cands = (tbit << 8) & pawns
        if not cands and to >> 3 == 4 and not occ & (tbit << 8):
            cands = (tbit << 16) & pawns
    return cands


def advance(
    pos: _P, kind: int, to: int, mask: int, capture: bool, in_check: bool | None = None
) -> tuple[Move, _P, bool] | None:
    """The replay fast path: ``(move, position after it, whether it gives check)`` for a SAN
    whose resolver plan is ``(kind, to, mask)`` (see ``SanSyntax.fast``) and whose capture
    mark is ``capture``, when the move is the one legal candidate and needs no remark;
    None otherwise (then the general resolver decides and explains).

    None is returned for: no or several candidates, a king left in check, a piece move
    with a disambiguation (``mask``) or a capture mark that disagrees with the board. When
    not None, the result equals ``resolve_san_detailed`` (with no lenient notes), ``play``
    and ``is_check`` done one after the other (a property test keeps them agreeing).
    ``in_check`` is whether the side to move is in check (computed when None; replay
    passes what it learnt from the previous move): when it is not, a piece that shares no
    line with its king and an enemy slider cannot expose the king, and no ray is looked at.
    """
    us = pos.turn
    bb = pos._bb
    co = pos._co
    own = co[us]
    tbit = 1 << to
    if own & tbit:
        return None
    occ = bb[0]
    them = co[not us]
    if kind == 2:
        if mask or bool(them & tbit) != capture:
            return None
        cands = KNIGHT_ATTACKS[to] & bb[2] & own
    elif kind == 1:
        if occ & tbit:
            return None
        cands = _push_source(us, to, tbit, bb[1] & own, occ)
    elif kind == 7:
        if not them & tbit:
            return None
        cands = PAWN_ATTACKS[not us][to] & bb[1] & own
    else:
        if mask or bool(them & tbit) != capture:
            return None
        if kind == 3:
            cands = bishop_attacks(to, occ) & bb[3] & own
        elif kind == 4:
            cands = rook_attacks(to, occ) & bb[4] & own
        elif kind == 5:
            cands = queen_attacks(to, occ) & bb[5] & own
        else:
            cands = KING_ATTACKS[to] & bb[6] & own
    if mask:
        cands &= mask
    if not cands or cands & (cands - 1):
        return None
    f = cands.bit_length() - 1
    fbit = 1 << f
    # king safety: attackers of our king's square after the move (the captured piece, on
    # tbit, no longer attacks); skipped for a piece off every line through the king when
    # not in check (it can neither expose the king nor was there a check to answer)
    king = (bb[6] & own).bit_length() - 1
    if in_check is None:
        in_check = pos._attacked_by(not us, king, occ)
    if f == king or in_check or LINE[king][f] & them & (bb[3] | bb[4] | bb[5]):
        if f == king:
            sq = to
            occ2 = occ ^ fbit
        else:
            sq = king
            occ2 = (occ ^ fbit) | tbit
        att = (KNIGHT_ATTACKS[sq] & bb[2] | KING_ATTACKS[sq] & bb[6] | PAWN_ATTACKS[us][sq] & bb[1]) & them
        if att and att != tbit:
            return None
        queens = bb[5]
        rq = (bb[4] | queens) & them & ROOK_EMPTY[sq]
        if rq and rq != tbit:
            att = rook_attacks(sq, occ2) & rq
            if att and att != tbit:
                return None
        bq = (bb[3] | queens) & them & BISHOP_EMPTY[sq]
        if bq and bq != tbit:
            att = bishop_attacks(sq, occ2) & bq
            if att and att != tbit:
                return None
    # play it (no castling, promotion or en passant on this path)
    board = pos._board[:]
    bb = bb[:]
    co = co[:]
    code = board[f]
    zc = _Z[code]
    h = pos._hash ^ _Z_TURN ^ zc[f] ^ zc[to]
    half = pos.halfmove_clock + 1
    ep = None
    captured = board[to]
    if captured:
        bb[captured & 7] ^= tbit
        them ^= tbit
        co[not us] = them
        h ^= _Z[captured][to]
        half = 0
    board[f] = 0
    board[to] = code
    moved = fbit | tbit
    own ^= moved
    co[us] = own
    piece = code & 7
    bb[piece] ^= moved
    if piece == 1:
        half = 0
        if to - f == 16 or f - to == 16:
            ep = (f + to) >> 1
    occ = own | them
    bb[0] = occ
    new = _new(type(pos))
    new._board = board
    new._bb = bb
    new._co = co
    cr = pos.castling_rights
    if cr:
        ncr = cr & ~moved
        if piece == 6:
            ncr &= ~_BACKRANK[us]
        if ncr != cr:
            h ^= zobrist.castling_hash_of(ncr ^ cr, pos._bb[6], pos._co[1])
            cr = ncr
    new._hash = h
    new.castling_rights = cr
    new.ep_square = ep
    new.halfmove_clock = half
    new.turn = not us
    new.fullmove_number = pos.fullmove_number if us else pos.fullmove_number + 1
    new.chess960 = pos.chess960
    # does it give check? Directly, by the moved piece from ``to``, or by discovery, through
    # ``f`` (only possible when ``f`` is on a line through the opponent's king)
    sq = (bb[6] & them).bit_length() - 1
    if piece == 2:
        check = bool(KNIGHT_ATTACKS[to] >> sq & 1)
    elif piece == 1:
        check = bool(PAWN_ATTACKS[us][to] >> sq & 1)
    elif piece == 6:
        check = False
    else:
        check = bool(
            piece != 3
            and ROOK_EMPTY[to] >> sq & 1
            and rook_attacks(to, occ) >> sq & 1
            or piece != 4
            and BISHOP_EMPTY[to] >> sq & 1
            and bishop_attacks(to, occ) >> sq & 1
        )
    if not check and LINE[sq][f] & own & (bb[3] | bb[4] | bb[5]):
        queens = bb[5]
        rq = (bb[4] | queens) & own & ROOK_EMPTY[sq]
        if rq and rook_attacks(sq, occ) & rq:
            check = True
        else:
            bq = (bb[3] | queens) & own & BISHOP_EMPTY[sq]
            check = bool(bq and bishop_attacks(sq, occ) & bq)
    return MOVES[f][to], new, check


def fast_from(pos: Position, kind: int, to: int, mask: int) -> int:
    """The origin square when exactly one piece of the planned kind can legally go to ``to``
    (reverse lookup from the target, king safety checked for that one candidate); -1 when
    there is none or several (the general resolver then explains why)."""
    us = pos.turn
    bb = pos._bb
    co = pos._co
    own = co[us]
    tbit = 1 << to
    occ = bb[0]
    if own & tbit:
        return -1
    if kind == 2:
        cands = KNIGHT_ATTACKS[to] & bb[2] & own
    elif kind == 1:  # pawn push
        if occ & tbit:
            return -1
        cands = _push_source(us, to, tbit, bb[1] & own, occ)
    elif kind == 7:  # pawn capture (not en passant)
        if not co[not us] & tbit:
            return -1
        cands = PAWN_ATTACKS[not us][to] & bb[1] & own
    elif kind == 3:
        cands = bishop_attacks(to, occ) & bb[3] & own
    elif kind == 4:
        cands = rook_attacks(to, occ) & bb[4] & own
    elif kind == 5:
        cands = queen_attacks(to, occ) & bb[5] & own
    else:
        cands = KING_ATTACKS[to] & bb[6] & own
    if mask:
        cands &= mask
    if not cands or cands & (cands - 1):
        return -1
    f = cands.bit_length() - 1
    them = co[not us]
    king = (bb[6] & own).bit_length() - 1
    if f == king:
        sq = to
        occ ^= 1 << f
    else:
        sq = king
        occ = (occ ^ (1 << f)) | tbit
    # attackers of the king's square after the move; the captured piece (tbit) does not count
    att = (KNIGHT_ATTACKS[sq] & bb[2] | KING_ATTACKS[sq] & bb[6] | PAWN_ATTACKS[us][sq] & bb[1]) & them
    if att and att != tbit:
        return -1
    queens = bb[5]
    rq = (bb[4] | queens) & them & ROOK_EMPTY[sq]
    if rq and rq != tbit:
        att = rook_attacks(sq, occ) & rq
        if att and att != tbit:
            return -1
    bq = (bb[3] | queens) & them & BISHOP_EMPTY[sq]
    if bq and bq != tbit:
        att = bishop_attacks(sq, occ) & bq
        if att and att != tbit:
            return -1
    return f


def standard_castle(pos: Position, side: str) -> Move | None:
    """The castling move of a standard position when legal, else None (no explanation)."""
    us = pos.turn
    plan = _STANDARD_CASTLING[us][side == "Q"]
    king, rook, need_empty, crossed, leapers_n, leapers_p, leapers_k, move = plan
    bb = pos._bb
    own = pos._co[us]
    if not (pos.castling_rights >> rook & 1) or not (bb[6] & own) >> king & 1:
        return None
    occ = bb[0]
    if occ & need_empty:
        return None
    them = pos._co[not us]
    if (leapers_n & bb[2] | leapers_p & bb[1] | leapers_k & bb[6]) & them:
        return None
    queens = bb[5]
    rq = (bb[4] | queens) & them
    bq = (bb[3] | queens) & them
    occ_k = occ ^ (1 << king)
    for sq in crossed:
        if rq and ROOK_EMPTY[sq] & rq and rook_attacks(sq, occ_k) & rq:
            return None
        if bq and BISHOP_EMPTY[sq] & bq and bishop_attacks(sq, occ_k) & bq:
            return None
    return move


def _standard_castling_plan(
    colour: bool, queen_side: bool
) -> tuple[int, int, int, tuple[int, ...], int, int, int, Move]:
    base = 0 if colour else 56
    king = base + 4
    rook = base + (0 if queen_side else 7)
    king_to = base + (2 if queen_side else 6)
    empty = range(base + 1, base + 4) if queen_side else range(base + 5, base + 7)
    crossed = (king, base + 3, base + 2) if queen_side else (king, base + 5, base + 6)
    need_empty = 0
    for sq in empty:
        need_empty |= 1 << sq
    n = p = k = 0
    for sq in crossed:
        n |= KNIGHT_ATTACKS[sq]
        p |= PAWN_ATTACKS[colour][sq]
        k |= KING_ATTACKS[sq]
    # crossed squares of a standard castling: the rook's move never changes the attacks on them
    return king, rook, need_empty, crossed, n, p, k, MOVES[king][king_to]


# _STANDARD_CASTLING[colour][queen_side]
_STANDARD_CASTLING = (
    (_standard_castling_plan(False, False), _standard_castling_plan(False, True)),
    (_standard_castling_plan(True, False), _standard_castling_plan(True, True)),
)
