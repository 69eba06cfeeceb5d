"""``Position``: an immutable chess position (FIDE Laws articles 1-5, 9, 10) on integer bitboards.

``pos.play(move)`` returns a **new** position and leaves ``pos`` unchanged. Internally a position
holds a 64-square mailbox (piece codes: piece type, ``| 8`` for White), one bitboard per piece
type (index 0: all pieces), one per colour (index ``False`` Black, ``True`` White), and the
incrementally updated Zobrist hash of pieces, side to move and castling rights. The repetition
key adds the en passant file only when an en passant capture is legal (FIDE 10.10).

SAN is resolved by reverse lookup from the target square (attack tables give the pieces of the
named type that reach it; disambiguation filters them; only those candidates are checked for
king safety), so no move list is generated per ply.
"""

from __future__ import annotations

from typing import NamedTuple

from notation.rules import zobrist
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
from notation.rules.squares import (
    BB_DARK_SQUARES,
    BB_FILES,
    BB_LIGHT_SQUARES,
    BB_RANKS,
    BISHOP,
    FILE_NAMES,
    KING,
    KNIGHT,
    PAWN,
    PIECE_VALUES,
    QUEEN,
    RANK_NAMES,
    ROOK,
    SQUARE_NAMES,
)
from notation.formats.fen import STARTING_FEN, FenError, format_placement, parse_fen
from notation.rules.move import MOVES, NULL_MOVE, Move
from notation.formats.san import (
    AmbiguousSan,
    IllegalSan,
    InvalidSan,
    SanSyntax,
    parse_san_syntax,
)

_Z = zobrist.PIECE
_Z_TURN = zobrist.TURN
_Z_EP = zobrist.EP_FILE
_new = object.__new__
_BACKRANK = (BB_RANKS[7], BB_RANKS[0])  # by colour index: Black, White
_PROMOTIONS = (QUEEN, ROOK, BISHOP, KNIGHT)
_LETTERS = " PNBRQK"
_BB_ALL = (1 << 64) - 1
_CORNERS = 1 | 1 << 7 | 1 << 56 | 1 << 63
_CORNER_FEN = {
    rights: "".join(letter for bit, letter in ((7, "K"), (0, "Q"), (63, "k"), (56, "q")) if rights >> bit & 1) or "-"
    for rights in (
        h1 | a1 | h8 | a8
        for h1 in (0, 1 << 7) for a1 in (0, 1) for h8 in (0, 1 << 63) for a8 in (0, 1 << 56)
    )
}
# lenient SAN text -> (fast-path kind, target, origin mask, syntax) (see SanSyntax.fast); real
# files use few distinct SAN strings, so this stays small (cleared if it ever grows too big)
_FAST: dict[str, tuple[int, int, int, SanSyntax]] = {}


class SanResolution(NamedTuple):
    """A resolved SAN: the move, its syntax, and every lenient spelling used (with position)."""

    move: Move
    syntax: SanSyntax
    lenient: tuple[str, ...]


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


def _scan(bb: int) -> list[int]:
    out = []
    while bb:
        low = bb & -bb
        out.append(low.bit_length() - 1)
        bb ^= low
    return out


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
    def initial(cls) -> Position:
        """The standard starting position."""
        return _INITIAL

    @classmethod
    def from_fen(cls, text: str, *, chess960: bool | None = None) -> Position:
        """A validated position from FEN, X-FEN or Shredder-FEN (raises :class:`FenError`).

        ``chess960=None`` decides from the castling field: rights that only make sense in
        Chess960 (king or rook off its standard square, Shredder file letters) make it a
        Chess960 position. Four-field (EPD-like) FENs get ``0 1`` clocks.
        """
        if not isinstance(text, str):
            raise FenError("placement", f"not a FEN string: {text!r}")
        fields = parse_fen(text)
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
            raise FenError("position", f"the side not to move ({side}) is in check")
        pos._hash = pos._compute_hash()
        return pos

    def _compute_hash(self) -> int:
        h = 0
        for sq, code in enumerate(self._board):
            if code:
                h ^= _Z[code][sq]
        if self.turn:
            h ^= _Z_TURN
        return h ^ zobrist.castling_hash(self.castling_rights)

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
        return (
            t == self.ep_square and self._board[f] & 7 == PAWN and (f - t) & 7 != 0
            and not self._board[t]
        )

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
            KNIGHT_ATTACKS[sq] & bb[2] | KING_ATTACKS[sq] & bb[6] | PAWN_ATTACKS[not colour][sq] & bb[1]
            | rook_attacks(sq, occ) & (bb[4] | queens) | bishop_attacks(sq, occ) & (bb[3] | queens)
        ) & self._co[colour]

    def is_attacked_by(self, colour: bool, sq: int) -> bool:
        return self._attacked_by(colour, sq, self._bb[0])

    def checkers(self) -> int:
        """Bitboard of the pieces giving check to the side to move."""
        return self.attackers(not self.turn, self.king(self.turn))

    def is_check(self) -> bool:
        us = self.turn
        return self._attacked_by(not us, (self._bb[6] & self._co[us]).bit_length() - 1, self._bb[0])

    def _pinned(self, us: bool, king: int) -> int:
        bb = self._bb
        occ = bb[0]
        own = self._co[us]
        snipers = (
            ROOK_EMPTY[king] & (bb[4] | bb[5]) | BISHOP_EMPTY[king] & (bb[3] | bb[5])
        ) & self._co[not us]
        pinned = 0
        while snipers:
            low = snipers & -snipers
            snipers ^= low
            b = BETWEEN[king][low.bit_length() - 1] & occ
            if b and not (b & (b - 1)) and b & own:
                pinned |= b
        return pinned

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
        return self._generate(_BB_ALL)

    def is_legal(self, move: Move) -> bool:
        if not move or not (0 <= move[0] < 64 and 0 <= move[1] < 64):
            return False
        return move in self._generate(1 << move[0])

    def has_legal_moves(self) -> bool:
        us = self.turn
        king = self.king(us)
        occ_wo_king = self._bb[0] ^ (1 << king)
        own = self._co[us]
        them = not us
        for t in _scan(KING_ATTACKS[king] & ~own):
            if not self._attacked_by(them, t, occ_wo_king, 1 << t):
                return True
        return bool(self._generate(_BB_ALL & ~(1 << king)))

    def legal_moves_to(self, to_mask: int, *, castling: bool = True) -> list[Move]:
        """The legal moves that end on a square of ``to_mask``, plus every legal castling move
        when ``castling`` (whatever its encoding's target square)."""
        return self._generate(_BB_ALL, to_mask & _BB_ALL, castling)

    def _generate(self, from_mask: int, to_mask: int = _BB_ALL, castling: bool = True) -> list[Move]:
        us = self.turn
        them = not us
        bb = self._bb
        co = self._co
        own = co[us]
        enemy = co[them]
        occ = bb[0]
        king = (bb[6] & own).bit_length() - 1
        moves: list[Move] = []
        append = moves.append
        queens = bb[5]
        checkers = (
            KNIGHT_ATTACKS[king] & bb[2] | PAWN_ATTACKS[us][king] & bb[1]
            | rook_attacks(king, occ) & (bb[4] | queens) | bishop_attacks(king, occ) & (bb[3] | queens)
        ) & enemy
        if not checkers & (checkers - 1):
            if checkers:
                target = (BETWEEN[king][checkers.bit_length() - 1] | checkers) & to_mask
            else:
                target = ~own & to_mask
            pinned = self._pinned(us, king)
            line = LINE[king]
            for f in _scan(bb[2] & own & from_mask & ~pinned):
                for t in _scan(KNIGHT_ATTACKS[f] & target):
                    append(MOVES[f][t])
            for pt, fn in ((3, bishop_attacks), (4, rook_attacks), (5, queen_attacks)):
                for f in _scan(bb[pt] & own & from_mask):
                    att = fn(f, occ) & target & ~own
                    if pinned >> f & 1:
                        att &= line[f]
                    for t in _scan(att):
                        append(MOVES[f][t])
            step = 8 if us else -8
            start_rank = BB_RANKS[1] if us else BB_RANKS[6]
            pawn_att = PAWN_ATTACKS[us]
            for f in _scan(bb[1] & own & from_mask):
                dest = pawn_att[f] & enemy
                t = f + step
                if not (occ >> t) & 1:
                    dest |= 1 << t
                    if (start_rank >> f) & 1 and not (occ >> (t + step)) & 1:
                        dest |= 1 << (t + step)
                dest &= target
                if pinned >> f & 1:
                    dest &= line[f]
                for t in _scan(dest):
                    if t >= 56 or t < 8:
                        for p in _PROMOTIONS:
                            append(Move(f, t, p))
                    else:
                        append(MOVES[f][t])
            ep = self.ep_square
            if ep is not None and to_mask >> ep & 1:
                for f in _scan(PAWN_ATTACKS[them][ep] & bb[1] & own & from_mask):
                    if self._ep_safe(f, ep):
                        append(MOVES[f][ep])
        if (from_mask >> king) & 1:
            occ_wo_king = occ ^ (1 << king)
            for t in _scan(KING_ATTACKS[king] & ~own & to_mask):
                if not self._attacked_by(them, t, occ_wo_king, 1 << t):
                    append(MOVES[king][t])
            if castling and not checkers and self.castling_rights & own:
                moves.extend(self._castling_moves())
        return moves

    def _castling_moves(self, side: str | None = None) -> list[Move]:
        us = self.turn
        them = not us
        bb = self._bb
        own = self._co[us]
        occ = bb[0]
        king = (bb[6] & own).bit_length() - 1
        kbit = 1 << king
        base = 0 if us else 56
        out = []
        for r in _scan(self.castling_rights & own & bb[4] & _BACKRANK[us]):
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
                if self._attacked_by(them, low.bit_length() - 1, occ_k):
                    attacked = True
                    break
            if attacked:
                continue
            if self._attacked_by(them, kt, occ_k ^ rbit | (1 << rt)):
                continue
            out.append(MOVES[king][r] if self.chess960 else MOVES[king][kt])
        return out

    # ------------------------------------------------------------------ playing moves
    def play(self, move: Move) -> Position:
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
            if (captured and (captured & 8) == (code & 8)) or (
                not self.chess960 and (t - f == 2 or f - t == 2)
            ):
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
        new = _new(Position)
        new._board = board
        new._bb = bb
        new._co = co
        if cr != self.castling_rights:
            h ^= zobrist.castling_hash(cr ^ self.castling_rights)
        new._hash = h
        new.castling_rights = cr
        new.ep_square = ep
        new.halfmove_clock = half
        new.turn = not us
        new.fullmove_number = self.fullmove_number if us else self.fullmove_number + 1
        new.chess960 = self.chess960
        return new

    def _finish(self, board: bytearray, bb: list[int], co: list[int], h: int, cr: int,
                half: int, ep: int | None) -> Position:
        new = _new(Position)
        new._board = board
        new._bb = bb
        new._co = co
        if cr != self.castling_rights:
            h ^= zobrist.castling_hash(cr ^ self.castling_rights)
        new._hash = h
        new.castling_rights = cr
        new.ep_square = ep
        new.halfmove_clock = half
        us = self.turn
        new.turn = not us
        new.fullmove_number = self.fullmove_number if us else self.fullmove_number + 1
        new.chess960 = self.chess960
        return new

    def play_null(self) -> Position:
        """The position after a null move (turn passes, en passant right lost)."""
        new = _new(Position)
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
        """64-bit FIDE 10.10 repetition key (en passant counted only when an ep capture is legal)."""
        ep = self.ep_square
        if ep is not None and self._ep_legal():
            return self._hash ^ _Z_EP[ep & 7]
        return self._hash

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return (
            self._board == other._board and self.turn == other.turn
            and self.castling_rights == other.castling_rights and self.ep_square == other.ep_square
            and self.halfmove_clock == other.halfmove_clock
            and self.fullmove_number == other.fullmove_number and self.chess960 == other.chess960
        )

    def __hash__(self) -> int:
        return self.key()

    def __repr__(self) -> str:
        extra = ", chess960=True" if self.chess960 else ""
        return f"Position.from_fen({self.fen()!r}{extra})"

    # ------------------------------------------------------------------ FEN
    def board_fen(self) -> str:
        return format_placement(self._board)

    def fen(self, *, shredder: bool = False, en_passant: str = "legal") -> str:
        """FEN of the position. Castling: X-FEN (``KQkq``, file letters for inner rooks) or
        Shredder-FEN (``HAha``) with ``shredder=True``. ``en_passant="legal"`` (default, like
        python-chess and the repetition key) writes the en passant square only when an en
        passant capture is legal; ``"fen"`` writes it after every double step."""
        ep = self.ep_square
        if ep is not None and en_passant == "legal" and not self._ep_legal():
            ep = None
        return " ".join((
            format_placement(self._board),
            "w" if self.turn else "b",
            self.castling_fen(shredder=shredder),
            SQUARE_NAMES[ep] if ep is not None else "-",
            str(self.halfmove_clock),
            str(self.fullmove_number),
        ))

    def castling_fen(self, *, shredder: bool = False) -> str:
        if not shredder and not self.castling_rights & ~_CORNERS:
            # rights on corner rooks only (every standard game): always the outermost rooks
            return _CORNER_FEN[self.castling_rights]
        out = ""
        for colour in (True, False):
            rights = self.castling_rights & self._co[colour]
            if not rights:
                continue
            king = self.king(colour)
            rooks = self._bb[4] & self._co[colour] & _BACKRANK[colour]
            letters = []
            for r in sorted(_scan(rights), reverse=True):
                if shredder:
                    letter = FILE_NAMES[r & 7]
                elif r > king:
                    outer = rooks & ~((2 << r) - 1)  # rooks further towards h
                    letter = FILE_NAMES[r & 7] if outer else "k"
                else:
                    outer = rooks & ((1 << r) - 1)
                    letter = FILE_NAMES[r & 7] if outer else "q"
                letters.append(letter.upper() if colour else letter)
            out += "".join(letters)
        return out or "-"

    # ------------------------------------------------------------------ SAN
    def san(self, move: Move) -> str:
        """Standard algebraic notation of a legal ``move``, with ``+``/``#``."""
        text = self._san_body(move)
        if move:
            after = self.play(move)
            if after.is_check():
                text += "#" if not after.has_legal_moves() else "+"
        return text

    def san_without_suffix(self, move: Move) -> str:
        """SAN of ``move`` without the check/mate suffix."""
        return self._san_body(move)

    def _san_body(self, move: Move) -> str:
        f, t, promo = move
        if f == t:
            return "--"
        code = self._board[f]
        ptype = code & 7
        if ptype == KING and self.is_castling(move):
            return "O-O" if t > f else "O-O-O"
        if ptype == PAWN:
            if (f - t) & 7:
                text = FILE_NAMES[f & 7] + "x" + SQUARE_NAMES[t]
            else:
                text = SQUARE_NAMES[t]
            if promo:
                text += "=" + _LETTERS[promo]
            return text
        text = _LETTERS[ptype] + self._disambiguation(ptype, f, t)
        if self._board[t]:
            text += "x"
        return text + SQUARE_NAMES[t]

    def _origins(self, ptype: int, t: int) -> int:
        """Squares from which a piece of ``ptype`` (side to move) could reach ``t`` (pseudo)."""
        bb = self._bb
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
        return att & bb[ptype] & self._co[self.turn]

    def piece_moves_to(self, piece_type: int, to: int) -> list[Move]:
        """The legal moves of the side to move's pieces of ``piece_type`` (knight to king; not
        pawns, not castling) that end on ``to``: a reverse lookup from ``to``, no move list."""
        if self._co[self.turn] >> to & 1:
            return []
        out = []
        cands = self._origins(piece_type, to)
        while cands:
            low = cands & -cands
            cands ^= low
            f = low.bit_length() - 1
            if self._is_safe(f, to):
                out.append(MOVES[f][to])
        return out

    def _disambiguation(self, ptype: int, f: int, t: int) -> str:
        if ptype == KING:
            return ""
        others = self._origins(ptype, t) & ~(1 << f)
        if not others:
            return ""
        legal = 0
        for o in _scan(others):
            if self._is_safe(o, t):
                legal |= 1 << o
        if not legal:
            return ""
        if not legal & BB_FILES[f & 7]:
            return FILE_NAMES[f & 7]
        if not legal & BB_RANKS[f >> 3]:
            return RANK_NAMES[f >> 3]
        return SQUARE_NAMES[f]

    def parse_san(self, text: str, *, strict: bool = False) -> Move:
        """The legal move named by SAN ``text`` (lenient by default; ``strict=True`` follows the
        PGN standard). Raises :class:`InvalidSan`, :class:`IllegalSan` or :class:`AmbiguousSan`."""
        if strict:
            return self._resolve(parse_san_syntax(text, strict=True), text, True)[0]
        fast = _FAST.get(text)
        if fast is None:
            syn = parse_san_syntax(text)
            fast = (*syn.fast, syn)
            if len(_FAST) > 200_000:
                _FAST.clear()
            _FAST[text] = fast
        kind, to, mask, syn = fast
        if kind:
            f = self._fast_from(kind, to, mask)
            if f >= 0:
                return MOVES[f][to]
        return self._resolve(syn, text, False)[0]

    def play_san(self, text: str) -> tuple[Move, Position]:
        """``(move, position after it)`` for lenient SAN ``text`` (raises like
        :meth:`parse_san`): a convenience for ``m = pos.parse_san(text); (m, pos.play(m))``.
        Replay's fused fast path is :meth:`advance`."""
        move = self.parse_san(text)
        return move, self.play(move)

    def advance(
        self, kind: int, to: int, mask: int, capture: bool, in_check: bool | None = None
    ) -> tuple[Move, Position, bool] | None:
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
        us = self.turn
        bb = self._bb
        co = self._co
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
            in_check = self._attacked_by(not us, king, occ)
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
        board = self._board[:]
        bb = bb[:]
        co = co[:]
        code = board[f]
        zc = _Z[code]
        h = self._hash ^ _Z_TURN ^ zc[f] ^ zc[to]
        half = self.halfmove_clock + 1
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
        new = _new(Position)
        new._board = board
        new._bb = bb
        new._co = co
        cr = self.castling_rights
        if cr:
            ncr = cr & ~moved
            if piece == 6:
                ncr &= ~_BACKRANK[us]
            if ncr != cr:
                h ^= zobrist.castling_hash(ncr ^ cr)
                cr = ncr
        new._hash = h
        new.castling_rights = cr
        new.ep_square = ep
        new.halfmove_clock = half
        new.turn = not us
        new.fullmove_number = self.fullmove_number if us else self.fullmove_number + 1
        new.chess960 = self.chess960
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
                piece != 3 and ROOK_EMPTY[to] >> sq & 1 and rook_attacks(to, occ) >> sq & 1
                or piece != 4 and BISHOP_EMPTY[to] >> sq & 1 and bishop_attacks(to, occ) >> sq & 1
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

    def _standard_castle(self, side: str) -> Move | None:
        """The castling move of a standard position when legal, else None (no explanation)."""
        us = self.turn
        plan = _STANDARD_CASTLING[us][side == "Q"]
        king, rook, need_empty, crossed, leapers_n, leapers_p, leapers_k, move = plan
        bb = self._bb
        own = self._co[us]
        if not (self.castling_rights >> rook & 1) or not (bb[6] & own) >> king & 1:
            return None
        occ = bb[0]
        if occ & need_empty:
            return None
        them = self._co[not us]
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

    def resolve_san(self, syntax: SanSyntax, *, strict: bool = False) -> Move:
        """The legal move named by an already parsed SAN (raises like :meth:`parse_san`)."""
        return self._resolve(syntax, syntax.canonical, strict)[0]

    def parse_san_detailed(self, text: str, *, strict: bool = False) -> SanResolution:
        """Like :meth:`parse_san`, also returning the syntax and every lenient spelling used,
        including the position-dependent ones (missing or superfluous ``x``, superfluous or
        non-standard disambiguation)."""
        syntax = parse_san_syntax(text, strict=strict)
        move, notes = self._resolve(syntax, text, strict)
        return SanResolution(move, syntax, syntax.lenient + notes)

    def resolve_san_detailed(self, syntax: SanSyntax, *, strict: bool = False) -> SanResolution:
        move, notes = self._resolve(syntax, syntax.canonical, strict)
        return SanResolution(move, syntax, syntax.lenient + notes)

    def _fast_from(self, kind: int, to: int, mask: int) -> int:
        """The origin square when exactly one piece of the planned kind can legally go to ``to``
        (reverse lookup from the target, king safety checked for that one candidate); -1 when
        there is none or several (the general resolver then explains why)."""
        us = self.turn
        bb = self._bb
        co = self._co
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

    def _resolve(self, syn: SanSyntax, text: str, strict: bool) -> tuple[Move, tuple[str, ...]]:
        kind, target, mask = syn.fast
        if kind:
            f = self._fast_from(kind, target, mask)
            if f >= 0:
                move = MOVES[f][target]
                if kind == 1 or kind == 7:
                    return move, ()
                capture = bool(self._co[not self.turn] >> target & 1)
                if not mask and capture == syn.capture:
                    return move, ()
                return move, self._san_notes(syn, text, move, kind, capture, strict)
        to = syn.to_square
        if to is None:
            if syn.null:
                return NULL_MOVE, ()
            return self._resolve_castle(syn, text), ()
        piece = syn.piece
        us = self.turn
        co = self._co
        tbit = 1 << to
        if piece == PAWN:
            return self._resolve_pawn(syn, text, to, tbit), ()
        if co[us] & tbit:
            raise IllegalSan(text, f"illegal move {text!r}: {SQUARE_NAMES[to]} holds a piece of the side to move")
        bb = self._bb
        occ = bb[0]
        if piece == 2:
            cands = KNIGHT_ATTACKS[to] & bb[2]
        elif piece == 3:
            cands = bishop_attacks(to, occ) & bb[3]
        elif piece == 4:
            cands = rook_attacks(to, occ) & bb[4]
        elif piece == 5:
            cands = queen_attacks(to, occ) & bb[5]
        else:
            cands = KING_ATTACKS[to] & bb[6]
        cands &= co[us]
        allc = cands
        ff = syn.from_file
        fr = syn.from_rank
        if ff is not None:
            cands &= BB_FILES[ff]
        if fr is not None:
            cands &= BB_RANKS[fr]
        if not cands:
            raise IllegalSan(text, f"illegal move {text!r}: no {_piece_name(piece or 0)} can go to {SQUARE_NAMES[to]}")
        if not cands & (cands - 1):
            f = cands.bit_length() - 1
            if not self._is_safe(f, to):
                raise IllegalSan(text, f"illegal move {text!r}: it leaves the king in check")
        else:
            legal = [o for o in _scan(cands) if self._is_safe(o, to)]
            if not legal:
                raise IllegalSan(text, f"illegal move {text!r}: it leaves the king in check")
            if len(legal) > 1:
                names = tuple(self.san(MOVES[o][to]) for o in legal)
                raise AmbiguousSan(text, f"ambiguous move {text!r}: could be {', '.join(names)}",
                                   candidates=names)
            f = legal[0]
        move = MOVES[f][to]
        notes: tuple[str, ...] = ()
        capture = bool(co[not us] & tbit)
        if (capture != syn.capture and syn.separator != "-") or ff is not None or fr is not None \
                or allc & (allc - 1):
            notes = self._san_notes(syn, text, move, piece, capture, strict)  # type: ignore[arg-type]
        return move, notes

    def _san_notes(self, syn: SanSyntax, text: str, move: Move, piece: int, capture: bool,
                   strict: bool) -> tuple[str, ...]:
        notes = []
        if syn.separator != "-":
            if syn.capture and not capture:
                notes.append("'x' written for a move that captures nothing")
            elif capture and not syn.capture:
                notes.append("capture written without 'x'")
        needed = self._disambiguation(piece, move[0], move[1])
        written = (FILE_NAMES[syn.from_file] if syn.from_file is not None else "") + (
            RANK_NAMES[syn.from_rank] if syn.from_rank is not None else "")
        if written != needed and syn.separator != "-":
            if len(written) > len(needed) and needed in written:
                notes.append("superfluous disambiguation")
            else:
                notes.append("non-standard disambiguation")
        if strict and notes:
            standard = self.san(move)
            raise InvalidSan(text, f"{text!r} is not standard SAN ({'; '.join(notes)}); "
                                   f"the standard form is {standard!r}", candidates=(standard,))
        return tuple(notes)

    def _resolve_pawn(self, syn: SanSyntax, text: str, to: int, tbit: int) -> Move:
        us = self.turn
        bb = self._bb
        co = self._co
        own_pawns = bb[1] & co[us]
        ff = syn.from_file
        if syn.capture or (ff is not None and ff != to & 7):
            cands = PAWN_ATTACKS[not us][to] & own_pawns
            if ff is not None:
                cands &= BB_FILES[ff]
            if syn.from_rank is not None:
                cands &= BB_RANKS[syn.from_rank]
            if not cands:
                raise IllegalSan(text, f"illegal move {text!r}: no pawn can capture on {SQUARE_NAMES[to]}")
            is_ep = to == self.ep_square and not bb[0] & tbit
            if not is_ep and not co[not us] & tbit:
                raise IllegalSan(text, f"illegal move {text!r}: nothing to capture on {SQUARE_NAMES[to]}")
            legal = [f for f in _scan(cands) if (self._ep_safe(f, to) if is_ep else self._is_safe(f, to))]
        else:
            if bb[0] & tbit:
                raise IllegalSan(text, f"illegal move {text!r}: {SQUARE_NAMES[to]} is occupied")
            step = 8 if us else -8
            f = to - step
            legal = []
            if 0 <= f < 64:
                if own_pawns >> f & 1:
                    legal = [f]
                elif not bb[0] >> f & 1 and (to >> 3) == (3 if us else 4) and own_pawns >> (f - step) & 1:
                    legal = [f - step]
            if legal and syn.from_rank is not None and legal[0] >> 3 != syn.from_rank:
                legal = []
            if not legal:
                raise IllegalSan(text, f"illegal move {text!r}: no pawn can move to {SQUARE_NAMES[to]}")
            if not self._is_safe(legal[0], to):
                legal = []
        if not legal:
            raise IllegalSan(text, f"illegal move {text!r}: it leaves the king in check")
        if len(legal) > 1:  # cannot happen with a file given; kept for safety
            names = tuple(self.san(MOVES[o][to]) for o in legal)
            raise AmbiguousSan(text, f"ambiguous move {text!r}", candidates=names)
        f = legal[0]
        last = (to >> 3) == (7 if us else 0)
        promo = syn.promotion
        if last:
            if promo is None:
                names = tuple(self.san(Move(f, to, p)) for p in _PROMOTIONS)
                raise AmbiguousSan(text, f"ambiguous move {text!r}: the promotion piece is missing "
                                         f"({', '.join(names)})", candidates=names)
            return Move(f, to, promo)
        if promo is not None:
            raise IllegalSan(text, f"illegal move {text!r}: a pawn promotes only on the last rank")
        return MOVES[f][to]

    def _resolve_castle(self, syn: SanSyntax, text: str) -> Move:
        side = syn.castle
        if not self.chess960 and side is not None:
            fast = self._standard_castle(side)
            if fast is not None:
                return fast
        moves = self._castling_moves(side)  # includes "the king is not in check"
        if len(moves) == 1:
            return moves[0]
        if len(moves) > 1:  # impossible with validated rights
            raise AmbiguousSan(text, f"ambiguous castling {text!r}")
        what = "king" if side == "K" else "queen"
        if not self.castling_rights & self._co[self.turn] & _rights_side(self, side):
            reason = f"no {what}side castling right"
        elif self.is_check():
            reason = "the king is in check"
        else:
            reason = "a square between king and rook is occupied, or the king passes through or lands on an attacked square"
        raise IllegalSan(text, f"illegal castling {text!r}: {reason}")

    # ------------------------------------------------------------------ UCI and LAN
    def uci(self, move: Move) -> str:
        return move.uci()

    def parse_uci(self, text: str) -> Move:
        """The legal move for UCI ``text`` (``e2e4``, ``e7e8q``, ``0000``; in standard positions
        ``e1h1`` king-takes-rook castling is accepted as ``e1g1``)."""
        from notation.formats.uci import parse_uci

        return parse_uci(self, text)

    def lan(self, move: Move) -> str:
        """Long algebraic notation: ``e2-e4``, ``Ng1-f3``, ``e7xd8=Q``, ``O-O`` (with ``+``/``#``)."""
        from notation.formats.uci import format_lan

        return format_lan(self, move)

    def parse_lan(self, text: str) -> Move:
        from notation.formats.uci import parse_lan

        return parse_lan(self, text)


def _standard_castling_plan(colour: bool, queen_side: bool) -> tuple[int, int, int, tuple[int, ...], int, int, int, Move]:
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


def _rights_side(pos: Position, side: str | None) -> int:
    king = pos.king(pos.turn)
    below = (1 << king) - 1
    return below if side == "Q" else _BB_ALL & ~below


def _piece_name(piece: int) -> str:
    return ("", "pawn", "knight", "bishop", "rook", "queen", "king")[piece]


def _validate_placement(bb: list[int], co: list[int]) -> None:
    for colour, name in ((True, "White"), (False, "Black")):
        kings = (bb[6] & co[colour]).bit_count()
        if kings != 1:
            raise FenError("placement", f"{name} has {kings} kings (exactly one needed)")
        if (bb[1] & co[colour]).bit_count() > 8:
            raise FenError("placement", f"{name} has more than 8 pawns")
        if co[colour].bit_count() > 16:
            raise FenError("placement", f"{name} has more than 16 pieces")
    if bb[1] & (BB_RANKS[0] | BB_RANKS[7]):
        raise FenError("placement", "a pawn stands on the first or eighth rank")


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
            raise FenError("castling", f"castling right {ch!r} but the {name} king is not on its first rank")
        rooks = bb[4] & co[colour] & BB_RANKS[base >> 3]
        lower = ch.lower()
        if lower == "k":
            side_rooks = rooks & ~((2 << king) - 1)
            if not side_rooks:
                raise FenError("castling", f"castling right {ch!r} but no {name} rook on the king side")
            rook = side_rooks.bit_length() - 1
        elif lower == "q":
            side_rooks = rooks & ((1 << king) - 1)
            if not side_rooks:
                raise FenError("castling", f"castling right {ch!r} but no {name} rook on the queen side")
            rook = (side_rooks & -side_rooks).bit_length() - 1
        else:
            rook = base + "abcdefgh".index(lower)
            if not rooks >> rook & 1:
                raise FenError("castling", f"castling right {ch!r} but no {name} rook on {SQUARE_NAMES[rook]}")
            if rook == king:
                raise FenError("castling", f"castling right {ch!r} names the king's own file")
        side = rook > king
        if (colour, side) in seen:
            raise FenError("castling", f"two castling rights on the same side for {name}: {text!r}")
        seen.add((colour, side))
        rights |= 1 << rook
        if king != base + 4 or rook not in (base, base + 7):
            needs_960 = True
    if chess960 is False and needs_960:
        raise FenError("castling", f"castling rights {text!r} need Chess960 rules (king or rook off its standard square)")
    return rights, needs_960


def _validate_ep(ep: int, turn: bool, board: bytearray) -> None:
    name = SQUARE_NAMES[ep]
    rank = ep >> 3
    if rank != (5 if turn else 2):
        raise FenError("en_passant", f"en passant square {name} is not on the {'sixth' if turn else 'third'} rank")
    pawn_sq = ep - 8 if turn else ep + 8
    origin = ep + 8 if turn else ep - 8
    pawn_code = PAWN if turn else PAWN | 8  # the pawn of the side that just moved
    if board[pawn_sq] != pawn_code:
        raise FenError("en_passant", f"en passant square {name} but no pawn that just double-stepped past it")
    if board[ep] or board[origin]:
        raise FenError("en_passant", f"en passant square {name} but the pawn could not have just double-stepped")


_INITIAL = Position.from_fen(STARTING_FEN)
