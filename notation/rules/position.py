"""``Position``: an immutable chess position (FIDE Laws articles 1-5, 9, 10) on integer bitboards.

``pos.play(move)`` returns a **new** position and leaves ``pos`` unchanged. Internally a position
holds a 64-square mailbox (piece codes: piece type, ``| 8`` for White), one bitboard per piece
type (index 0: all pieces), one per colour (index ``False`` Black, ``True`` White), and the
incrementally updated Zobrist hash of pieces, side to move and castling rights, with Polyglot's
numbers (:mod:`notation.rules.zobrist`). The repetition key adds the en passant file only when
an en passant capture is legal (FIDE 10.10); it is otherwise the Polyglot key.

This module keeps the rules only and reads no text: a position is built from a
:class:`notation.rules.setup.Setup` (:meth:`Position.from_setup`); legal move generation is in
:mod:`notation.rules.movegen` and the replay fast path in :mod:`notation.rules.step`. Text (FEN,
SAN, UCI/LAN) is :mod:`notation.formats`'s, and so is the position users meet,
:class:`notation.formats.position.Position` (``notation.Position``): this class with the
python-chess-style ``from_fen()``/``fen()``/``san()``/``parse_san()``/``parse_uci()`` methods.
Every new position is of its parent's class (``play`` keeps it), so what the text class starts
stays of it.
"""

from __future__ import annotations

from notation.rules import zobrist
from notation.rules.attacks import (
    BISHOP_EMPTY,
    KING_ATTACKS,
    KNIGHT_ATTACKS,
    PAWN_ATTACKS,
    ROOK_EMPTY,
    bishop_attacks,
    rook_attacks,
)
from notation.rules.squares import (
    BB_DARK_SQUARES,
    BB_LIGHT_SQUARES,
    BB_RANKS,
    KING,
    PAWN,
    PIECE_VALUES,
    ROOK,
    SQUARE_NAMES,
    scan_squares,
)
from typing import TypeVar, cast

from notation.rules import movegen as _movegen
from notation.rules.move import Move
from notation.rules.setup import STARTING_SETUP, Setup, SetupError

_Z = zobrist.PIECE
_Z_TURN = zobrist.TURN
_Z_EP = zobrist.EP_FILE
_new = object.__new__
_BACKRANK = (BB_RANKS[7], BB_RANKS[0])  # by colour index: Black, White
_BB_ALL = (1 << 64) - 1
_P = TypeVar("_P", bound="Position")


class Position:
    """An immutable position: placement, side to move, castling rights, en passant, clocks."""

    __slots__ = (
        "_bb",
        "_board",
        "_co",
        "_hash",
        "castling_rights",
        "chess960",
        "ep_square",
        "fullmove_number",
        "halfmove_clock",
        "turn",
    )

    _board: bytearray  # 64 piece codes (not tracked by the garbage collector)
    _bb: list[int]
    _co: list[int]
    turn: bool
    castling_rights: int
    ep_square: int | None
    halfmove_clock: int
    fullmove_number: int
    chess960: bool
    _hash: int

    def __init__(self) -> None:
        raise TypeError("use Position.initial() or Position.from_fen(text)")

    # ------------------------------------------------------------------ construction
    @classmethod
    def initial(cls: type[_P]) -> _P:
        """The standard starting position (one per class, made once)."""
        found = _INITIAL.get(cls)
        if found is None:
            found = _INITIAL[cls] = _set_up(cls, STARTING_SETUP, None)
        return cast(_P, found)

    @classmethod
    def from_setup(cls: type[_P], setup: Setup, *, chess960: bool | None = None) -> _P:
        """A validated position from ``setup`` (raises :class:`notation.rules.setup.SetupError`).

        ``chess960=None`` decides from the castling rights: rights that only make sense in
        Chess960 (king or rook off its standard square, Shredder file letters) make it a
        Chess960 position.
        """
        return _set_up(cls, setup, chess960)

    def _compute_hash(self) -> int:
        h = 0
        for sq, code in enumerate(self._board):
            if code:
                h ^= _Z[code][sq]
        if self.turn:
            h ^= _Z_TURN
        return h ^ zobrist.castling_hash_of(self.castling_rights, self._bb[6], self._co[1])

    def copy(self) -> Position:
        """Positions are immutable; returns ``self``."""
        return self

    # ------------------------------------------------------------------ queries
    def piece_at(self, sq: int) -> tuple[bool, int] | None:
        """(colour, piece type) of the piece on ``sq``, or None."""
        code = self._board[sq]
        return (bool(code & 8), code & 7) if code else None

    def piece_type_at(self, sq: int) -> int | None:
        code = self._board[sq]
        return code & 7 if code else None

    def color_at(self, sq: int) -> bool | None:
        code = self._board[sq]
        return bool(code & 8) if code else None

    def king(self, colour: bool) -> int:
        """The square of ``colour``'s king."""
        return (self._bb[KING] & self._co[colour]).bit_length() - 1

    def pieces(self, piece_type: int, colour: bool) -> int:
        """Bitboard of ``colour``'s pieces of ``piece_type``."""
        return self._bb[piece_type] & self._co[colour]

    @property
    def occupied(self) -> int:
        return self._bb[0]

    def occupied_by(self, colour: bool) -> int:
        return self._co[colour]

    def material(self) -> tuple[int, int]:
        """(White, Black) material in pawns: P1 N3 B3 R5 Q9."""
        bb = self._bb
        out = []
        for colour in (True, False):
            c = self._co[colour]
            out.append(sum(PIECE_VALUES[pt] * (bb[pt] & c).bit_count() for pt in range(1, 6)))
        return out[0], out[1]

    def only_king(self, colour: bool) -> bool:
        """True when ``colour`` has nothing but its king."""
        return self._co[colour] == self._bb[KING] & self._co[colour]

    def is_capture(self, move: Move) -> bool:
        t = move[1]
        code = self._board[t]
        if code:
            return (code & 8) != (self._board[move[0]] & 8)
        return self.is_en_passant(move)

    def is_en_passant(self, move: Move) -> bool:
        f, t = move[0], move[1]
        return t == self.ep_square and self._board[f] & 7 == PAWN and (f - t) & 7 != 0 and not self._board[t]

    def is_castling(self, move: Move) -> bool:
        f, t = move[0], move[1]
        code = self._board[f]
        if code & 7 != KING or f == t:
            return False
        target = self._board[t]
        if target and target & 7 == ROOK and (target & 8) == (code & 8):
            return True
        return not self.chess960 and (f - t == 2 or t - f == 2)

    # ------------------------------------------------------------------ attacks
    def _attacked_by(self, colour: bool, sq: int, occ: int, removed: int = 0) -> bool:
        co = self._co[colour] & ~removed
        bb = self._bb
        if (KNIGHT_ATTACKS[sq] & bb[2] | KING_ATTACKS[sq] & bb[6] | PAWN_ATTACKS[not colour][sq] & bb[1]) & co:
            return True
        queens = bb[5]
        rq = (bb[4] | queens) & co & ROOK_EMPTY[sq]
        if rq and rook_attacks(sq, occ) & rq:
            return True
        bq = (bb[3] | queens) & co & BISHOP_EMPTY[sq]
        return bool(bq and bishop_attacks(sq, occ) & bq)

    def attackers(self, colour: bool, sq: int) -> int:
        """Bitboard of ``colour``'s pieces attacking ``sq``."""
        bb = self._bb
        occ = bb[0]
        queens = bb[5]
        return (
            KNIGHT_ATTACKS[sq] & bb[2]
            | KING_ATTACKS[sq] & bb[6]
            | PAWN_ATTACKS[not colour][sq] & bb[1]
            | rook_attacks(sq, occ) & (bb[4] | queens)
            | bishop_attacks(sq, occ) & (bb[3] | queens)
        ) & self._co[colour]

    def is_attacked_by(self, colour: bool, sq: int) -> bool:
        return self._attacked_by(colour, sq, self._bb[0])

    def checkers(self) -> int:
        """Bitboard of the pieces giving check to the side to move."""
        return self.attackers(not self.turn, self.king(self.turn))

    def is_check(self) -> bool:
        us = self.turn
        return self._attacked_by(not us, (self._bb[6] & self._co[us]).bit_length() - 1, self._bb[0])

    def _is_safe(self, f: int, t: int) -> bool:
        """Does the (pseudo-legal, not castling, not en passant) move f->t keep our king safe?"""
        us = self.turn
        bb = self._bb
        tbit = 1 << t
        enemy = self._co[not us] & ~tbit
        king = (bb[6] & self._co[us]).bit_length() - 1
        if f == king:
            sq = t
            occ = bb[0] ^ (1 << f)
        else:
            sq = king
            occ = (bb[0] ^ (1 << f)) | tbit
        if (KNIGHT_ATTACKS[sq] & bb[2] | KING_ATTACKS[sq] & bb[6] | PAWN_ATTACKS[us][sq] & bb[1]) & enemy:
            return False
        queens = bb[5]
        rq = (bb[4] | queens) & enemy & ROOK_EMPTY[sq]
        if rq and rook_attacks(sq, occ) & rq:
            return False
        bq = (bb[3] | queens) & enemy & BISHOP_EMPTY[sq]
        return not (bq and bishop_attacks(sq, occ) & bq)

    def _ep_safe(self, f: int, ep: int) -> bool:
        us = self.turn
        bb = self._bb
        king = (bb[6] & self._co[us]).bit_length() - 1
        cap = 1 << (ep - 8 if us else ep + 8)
        occ = (bb[0] ^ (1 << f) ^ cap) | (1 << ep)
        return not self._attacked_by(not us, king, occ, cap)

    def _ep_legal(self) -> bool:
        ep = self.ep_square
        if ep is None:
            return False
        us = self.turn
        cands = PAWN_ATTACKS[not us][ep] & self._bb[1] & self._co[us]
        while cands:
            low = cands & -cands
            cands ^= low
            if self._ep_safe(low.bit_length() - 1, ep):
                return True
        return False

    def has_legal_en_passant(self) -> bool:
        """True when the side to move has a legal en passant capture."""
        return self._ep_legal()

    # ------------------------------------------------------------------ move generation
    def legal_moves(self) -> list[Move]:
        """All legal moves (castling encoded per ``chess960``, see :class:`Move`)."""
        return _movegen.generate(self, _BB_ALL)

    def is_legal(self, move: Move) -> bool:
        if not move or not (0 <= move[0] < 64 and 0 <= move[1] < 64):
            return False
        return move in _movegen.generate(self, 1 << move[0])

    def has_legal_moves(self) -> bool:
        us = self.turn
        king = self.king(us)
        occ_wo_king = self._bb[0] ^ (1 << king)
        own = self._co[us]
        them = not us
        for t in scan_squares(KING_ATTACKS[king] & ~own):
            if not self._attacked_by(them, t, occ_wo_king, 1 << t):
                return True
        return bool(_movegen.generate(self, _BB_ALL & ~(1 << king)))

    def legal_moves_to(self, to_mask: int, *, castling: bool = True) -> list[Move]:
        """The legal moves that end on a square of ``to_mask``, plus every legal castling move
        when ``castling`` (whatever its encoding's target square)."""
        return _movegen.generate(self, _BB_ALL, to_mask & _BB_ALL, castling)

    # ------------------------------------------------------------------ playing moves
    def play(self: _P, move: Move) -> _P:
        """The position after ``move`` (a legal move); ``self`` is left unchanged.

        ``move`` is trusted: check untrusted moves with :meth:`is_legal` (or get them from
        :meth:`legal_moves`, :meth:`parse_san`, :meth:`parse_uci`). A null move passes the turn.
        """
        f, t, promo = move
        if f == t:
            return self.play_null()
        board = self._board
        code = board[f]
        if not code:
            raise ValueError(f"no piece on {SQUARE_NAMES[f]} to move")
        us = self.turn
        board = board[:]
        bb = self._bb[:]
        co = self._co[:]
        h = self._hash ^ _Z_TURN
        ptype = code & 7
        fbit = 1 << f
        tbit = 1 << t
        cr = self.castling_rights
        half = self.halfmove_clock + 1
        ep = None
        captured = board[t]
        if ptype == 6:
            cr &= ~_BACKRANK[us]
            if (captured and (captured & 8) == (code & 8)) or (not self.chess960 and (t - f == 2 or f - t == 2)):
                r = t if captured else (f + 3 if t > f else f - 4)
                base = f & 56
                a_side = r < f
                kt = base + (2 if a_side else 6)
                rt = base + (3 if a_side else 5)
                rcode = board[r]
                board[f] = 0
                board[r] = 0
                board[kt] = code
                board[rt] = rcode
                kmask = fbit ^ (1 << kt)
                rmask = (1 << r) ^ (1 << rt)
                bb[6] ^= kmask
                bb[4] ^= rmask
                co[us] ^= kmask ^ rmask
                h ^= _Z[code][f] ^ _Z[code][kt] ^ _Z[rcode][r] ^ _Z[rcode][rt]
                bb[0] = co[0] | co[1]
                return self._finish(board, bb, co, h, cr, half, None)
        if captured:
            bb[captured & 7] ^= tbit
            co[not us] ^= tbit
            h ^= _Z[captured][t]
            half = 0
            if cr & tbit:
                cr &= ~tbit
        elif ptype == 1 and t == self.ep_square and (f - t) & 7:
            cap = t - 8 if us else t + 8
            ccode = board[cap]
            board[cap] = 0
            bb[1] ^= 1 << cap
            co[not us] ^= 1 << cap
            h ^= _Z[ccode][cap]
        board[f] = 0
        mask = fbit | tbit
        co[us] ^= mask
        if ptype == 1:
            half = 0
            if promo:
                bb[1] ^= fbit
                bb[promo] ^= tbit
                ncode = promo | (code & 8)
                board[t] = ncode
                h ^= _Z[code][f] ^ _Z[ncode][t]
            else:
                bb[1] ^= mask
                board[t] = code
                h ^= _Z[code][f] ^ _Z[code][t]
                if t - f == 16 or f - t == 16:
                    ep = (f + t) >> 1
        else:
            bb[ptype] ^= mask
            board[t] = code
            h ^= _Z[code][f] ^ _Z[code][t]
            if cr & fbit:
                cr &= ~fbit
        bb[0] = co[0] | co[1]
        new = _new(type(self))
        new._board = board
        new._bb = bb
        new._co = co
        if cr != self.castling_rights:
            h ^= zobrist.castling_hash_of(cr ^ self.castling_rights, self._bb[6], self._co[1])
        new._hash = h
        new.castling_rights = cr
        new.ep_square = ep
        new.halfmove_clock = half
        new.turn = not us
        new.fullmove_number = self.fullmove_number if us else self.fullmove_number + 1
        new.chess960 = self.chess960
        return new

    def _finish(
        self: _P, board: bytearray, bb: list[int], co: list[int], h: int, cr: int, half: int, ep: int | None
    ) -> _P:
        new = _new(type(self))
        new._board = board
        new._bb = bb
        new._co = co
        if cr != self.castling_rights:
            h ^= zobrist.castling_hash_of(cr ^ self.castling_rights, self._bb[6], self._co[1])
        new._hash = h
        new.castling_rights = cr
        new.ep_square = ep
        new.halfmove_clock = half
        us = self.turn
        new.turn = not us
        new.fullmove_number = self.fullmove_number if us else self.fullmove_number + 1
        new.chess960 = self.chess960
        return new

    def play_null(self: _P) -> _P:
        """The position after a null move (turn passes, en passant right lost)."""
        new = _new(type(self))
        new._board = self._board
        new._bb = self._bb
        new._co = self._co
        new._hash = self._hash ^ _Z_TURN
        new.castling_rights = self.castling_rights
        new.ep_square = None
        new.halfmove_clock = self.halfmove_clock + 1
        new.turn = not self.turn
        new.fullmove_number = self.fullmove_number if self.turn else self.fullmove_number + 1
        new.chess960 = self.chess960
        return new

    def gives_check(self, move: Move) -> bool:
        return self.play(move).is_check()

    # ------------------------------------------------------------------ outcome
    def is_checkmate(self) -> bool:
        return self.is_check() and not self.has_legal_moves()

    def is_stalemate(self) -> bool:
        return not self.is_check() and not self.has_legal_moves()

    def is_dead_position(self) -> bool:
        """Dead positions recognised: K v K, K v K+B, K v K+N, and bishops only, all on one colour."""
        bb = self._bb
        if bb[1] | bb[4] | bb[5]:
            return False
        minors = bb[2] | bb[3]
        if not minors & (minors - 1):
            return True
        if bb[2]:
            return False
        return not bb[3] & BB_LIGHT_SQUARES or not bb[3] & BB_DARK_SQUARES

    def is_insufficient_material(self, colour: bool) -> bool:
        """True when ``colour`` can never checkmate (conservative: a bare king, or king and one
        minor piece against a bare king). For 10.5/10.14 "only the king" use :meth:`only_king`."""
        bb = self._bb
        mine = self._co[colour]
        if mine & (bb[1] | bb[4] | bb[5]):
            return False
        minors = mine & (bb[2] | bb[3])
        if not minors:
            return True
        if minors & (minors - 1):
            return False
        # a single minor piece can only mate with help from the opponent's pieces
        return not (self._co[not colour] & ~bb[6])

    # ------------------------------------------------------------------ keys and equality
    def key(self) -> int:
        """The 64-bit FIDE 10.10 repetition key: the Polyglot hash (Chess960 castling rights
        short or long by their rook's side of the king), except that the en passant file counts
        only when an en passant capture is **legal**. Polyglot (and python-chess's
        ``chess.polyglot.zobrist_hash``) count it when the capture is pseudo-legal, so the keys
        differ exactly where it is pseudo-legal but illegal (pinned pawn, or the capture exposes
        the king or does not answer a check). See :mod:`notation.rules.zobrist`."""
        ep = self.ep_square
        if ep is not None and self._ep_legal():
            return self._hash ^ _Z_EP[ep & 7]
        return self._hash

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return (
            self._board == other._board
            and self.turn == other.turn
            and self.castling_rights == other.castling_rights
            and self.ep_square == other.ep_square
            and self.halfmove_clock == other.halfmove_clock
            and self.fullmove_number == other.fullmove_number
            and self.chess960 == other.chess960
        )

    def __hash__(self) -> int:
        return self.key()

    def __repr__(self) -> str:
        extra = ", chess960" if self.chess960 else ""
        return f"<Position key={self.key():#018x}{extra}>"

    # ------------------------------------------------------------------ moves to a square
    def piece_moves_to(self, piece_type: int, to: int) -> list[Move]:
        """The legal moves of the side to move's pieces of ``piece_type`` (knight to king; not
        pawns, not castling) that end on ``to``: a reverse lookup from ``to``, no move list."""
        return _movegen.piece_moves_to(self, piece_type, to)


def _validate_placement(bb: list[int], co: list[int]) -> None:
    for colour, name in ((True, "White"), (False, "Black")):
        kings = (bb[6] & co[colour]).bit_count()
        if kings != 1:
            raise SetupError("placement", f"{name} has {kings} kings (exactly one needed)")
        if (bb[1] & co[colour]).bit_count() > 8:
            raise SetupError("placement", f"{name} has more than 8 pawns")
        if co[colour].bit_count() > 16:
            raise SetupError("placement", f"{name} has more than 16 pieces")
    if bb[1] & (BB_RANKS[0] | BB_RANKS[7]):
        raise SetupError("placement", "a pawn stands on the first or eighth rank")


def _parse_castling(text: str, bb: list[int], co: list[int], chess960: bool | None) -> tuple[int, bool]:
    """Rook-square mask of the castling rights, and whether they need Chess960 rules."""
    if text == "-":
        return 0, False
    rights = 0
    needs_960 = False
    seen: set[tuple[bool, bool]] = set()
    for ch in text:
        colour = ch.isupper()
        name = "White" if colour else "Black"
        base = 0 if colour else 56
        king = (bb[6] & co[colour]).bit_length() - 1
        if king >> 3 != base >> 3:
            raise SetupError("castling", f"castling right {ch!r} but the {name} king is not on its first rank")
        rooks = bb[4] & co[colour] & BB_RANKS[base >> 3]
        lower = ch.lower()
        if lower == "k":
            side_rooks = rooks & ~((2 << king) - 1)
            if not side_rooks:
                raise SetupError("castling", f"castling right {ch!r} but no {name} rook on the king side")
            rook = side_rooks.bit_length() - 1
        elif lower == "q":
            side_rooks = rooks & ((1 << king) - 1)
            if not side_rooks:
                raise SetupError("castling", f"castling right {ch!r} but no {name} rook on the queen side")
            rook = (side_rooks & -side_rooks).bit_length() - 1
        else:
            rook = base + "abcdefgh".index(lower)
            if not rooks >> rook & 1:
                raise SetupError("castling", f"castling right {ch!r} but no {name} rook on {SQUARE_NAMES[rook]}")
            if rook == king:
                raise SetupError("castling", f"castling right {ch!r} names the king's own file")
        side = rook > king
        if (colour, side) in seen:
            raise SetupError("castling", f"two castling rights on the same side for {name}: {text!r}")
        seen.add((colour, side))
        rights |= 1 << rook
        if king != base + 4 or rook not in (base, base + 7):
            needs_960 = True
    if chess960 is False and needs_960:
        raise SetupError(
            "castling", f"castling rights {text!r} need Chess960 rules (king or rook off its standard square)"
        )
    return rights, needs_960


def _validate_ep(ep: int, turn: bool, board: bytearray) -> None:
    name = SQUARE_NAMES[ep]
    rank = ep >> 3
    if rank != (5 if turn else 2):
        raise SetupError("en_passant", f"en passant square {name} is not on the {'sixth' if turn else 'third'} rank")
    pawn_sq = ep - 8 if turn else ep + 8
    origin = ep + 8 if turn else ep - 8
    pawn_code = PAWN if turn else PAWN | 8  # the pawn of the side that just moved
    if board[pawn_sq] != pawn_code:
        raise SetupError("en_passant", f"en passant square {name} but no pawn that just double-stepped past it")
    if board[ep] or board[origin]:
        raise SetupError("en_passant", f"en passant square {name} but the pawn could not have just double-stepped")


def _set_up(cls: type[_P], fields: Setup, chess960: bool | None) -> _P:
    """A validated position of class ``cls`` from ``fields`` (raises SetupError)."""
    board = bytearray(fields.board)
    pos = _new(cls)
    pos._board = board
    bb = [0] * 7
    co = [0, 0]
    for sq, code in enumerate(board):
        if code:
            bit = 1 << sq
            bb[code & 7] |= bit
            co[code >> 3] |= bit
    bb[0] = co[0] | co[1]
    pos._bb = bb
    pos._co = co
    pos.turn = fields.turn
    pos.halfmove_clock = fields.halfmove_clock
    pos.fullmove_number = fields.fullmove_number
    _validate_placement(bb, co)
    rights, needs_960 = _parse_castling(fields.castling, bb, co, chess960)
    pos.castling_rights = rights
    pos.chess960 = bool(chess960) if chess960 is not None else needs_960
    pos.ep_square = fields.ep_square
    if fields.ep_square is not None:
        _validate_ep(fields.ep_square, fields.turn, board)
    them = not pos.turn
    if pos._attacked_by(pos.turn, pos.king(them), bb[0]):
        side = "White" if them else "Black"
        raise SetupError("position", f"the side not to move ({side}) is in check")
    pos._hash = pos._compute_hash()
    return pos


#: The standard starting position of each class (:meth:`Position.initial`).
_INITIAL: dict[type[Position], Position] = {}
