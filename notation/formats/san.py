"""SAN: position-free syntax (:func:`parse_san_syntax`) and the typed SAN errors.

Parsing happens in two steps, as in pgn-reader/shakmaty: the text is first read into a
:class:`SanSyntax` (no position needed; the grammar is ``grammars/san.lark``; results are cached
per text because real files use few distinct SAN strings), then ``Position.resolve_san`` finds
the one legal move it names or raises a :class:`SanError` subclass.

Strict mode accepts only the PGN standard's spellings. Lenient mode (the default) also accepts
the forms listed in ``SanSyntax.lenient`` (``0-0``, ``e8Q``, ``e8(Q)``, ``e8/Q``, ``ed5``,
``Ng1-f3``, figurines, ...). It never guesses: ``Sf3`` or ``nf3`` is an unknown-piece error,
not the pawn move ``f3``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

from notation.rules.attacks import (
    KING_ATTACKS,
    KNIGHT_ATTACKS,
    PAWN_ATTACKS,
    bishop_attacks,
    queen_attacks,
    rook_attacks,
)
from notation.rules.move import MOVES, NULL_MOVE, Move
from notation.rules.squares import (
    BB_ALL,
    BB_FILES,
    BB_RANKS,
    BISHOP,
    FILE_NAMES,
    KING,
    KNIGHT,
    PAWN,
    PIECE_LETTERS,
    PIECE_NAMES,
    QUEEN,
    RANK_NAMES,
    ROOK,
    SQUARE_NAMES,
    scan_squares,
)
from notation.rules.movegen import castling_moves, origins
from notation.rules.step import fast_from, standard_castle

if TYPE_CHECKING:  # pragma: no cover
    from notation.rules.position import Position

_PIECE_OF_LETTER = {"N": KNIGHT, "B": BISHOP, "R": ROOK, "Q": QUEEN, "K": KING}
_FIGURINES = {
    "\u2654": KING,
    "\u2655": QUEEN,
    "\u2656": ROOK,
    "\u2657": BISHOP,
    "\u2658": KNIGHT,
    "\u265a": KING,
    "\u265b": QUEEN,
    "\u265c": ROOK,
    "\u265d": BISHOP,
    "\u265e": KNIGHT,
}
_LOWER_PIECES = {"q": QUEEN, "r": ROOK, "n": KNIGHT, "k": KING, "b": BISHOP}


class SanError(ValueError):
    """A SAN that cannot be turned into a move. ``code`` is a stable diagnostic code."""

    default_code = "san.invalid"

    def __init__(self, text: str, message: str, *, code: str | None = None, candidates: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.text = text
        self.message = message
        self.code = code or self.default_code
        self.candidates = candidates


class InvalidSan(SanError):
    """Not SAN at all (``san.invalid``) or an unknown piece letter (``san.unknown-piece``)."""

    default_code = "san.invalid"


class IllegalSan(SanError):
    """Well-formed SAN that names no legal move in the position (``san.illegal``)."""

    default_code = "san.illegal"


class AmbiguousSan(SanError):
    """Several legal moves match (``san.ambiguous``); ``candidates`` holds their SAN."""

    default_code = "san.ambiguous"


@dataclass(frozen=True, slots=True)
class SanSyntax:
    """What a SAN text says, before any position is consulted."""

    piece: int | None  # piece type (PAWN for pawn moves); None for castling and null moves
    from_file: int | None
    from_rank: int | None
    capture: bool
    to_square: int | None
    promotion: int | None
    castle: str | None  # "K" (O-O), "Q" (O-O-O) or None
    null: bool
    suffix: str  # "", "+" or "#"
    lenient: tuple[str, ...]  # non-standard spellings used (empty for standard SAN)
    canonical: str  # the standard spelling of what was written
    glyph: str = ""  # "!", "?!", ... written after the move
    separator: str = ""  # "x", "-" or "" as written between origin and target
    # resolver plan (kind, target, origin mask or 0 for none): kind 0 = general resolver,
    # 1 = pawn push, 7 = pawn capture (not en passant), 2..6 = piece type; internal to Position
    fast: tuple[int, int, int] = (0, 0, 0)


_PARSER: Any = None


def _parser() -> Any:
    global _PARSER
    if _PARSER is None:
        from notation.grammars import build_parser

        _PARSER = build_parser("san", cache=True)  # Lark keeps the built parser in the temporary folder
    return _PARSER


def parse_san_syntax(text: str, *, strict: bool = False) -> SanSyntax:
    """Read ``text`` as SAN syntax; raises :class:`InvalidSan`. Cached per (text, strict)."""
    return _parse_cached(text, strict)


@lru_cache(maxsize=65536)
def _parse_cached(text: str, strict: bool) -> SanSyntax:
    syntax = _read(text)
    if strict and syntax.lenient:
        raise InvalidSan(
            text,
            f"{text!r} is not standard SAN ({'; '.join(syntax.lenient)}); the standard form is {syntax.canonical!r}",
            candidates=(syntax.canonical,),
        )
    return syntax


def _read(text: str) -> SanSyntax:
    from lark.exceptions import LarkError

    if not isinstance(text, str) or not text or len(text) > 32:
        raise InvalidSan(str(text), f"not a move: {text!r}")
    try:
        tree = _parser().parse(text)
    except LarkError:
        raise _classify_invalid(text) from None
    body, suffix_tree = tree.children
    suffix = ""
    glyph = ""
    lenient: list[str] = []
    for tok in suffix_tree.children:
        if tok.type == "CHECK":
            suffix = tok.value
            if suffix == "++":
                suffix = "#"
                lenient.append("checkmate written as '++'")
            elif len(suffix) > 1:
                raise InvalidSan(text, f"{text!r}: {suffix!r} is not a check or mate mark")
        elif tok.type == "GLYPH":
            glyph = tok.value
        elif tok.type == "EP":
            lenient.append("'e.p.' written after an en passant capture")
    kind = body.data
    if kind == "castle":
        written = body.children[0].value
        if "0" in written:
            lenient.append("castling written with zeros")
        if "o" in written:
            lenient.append("castling written with lower-case o")
        castle = "Q" if len(written) == 5 else "K"
        canonical = ("O-O-O" if castle == "Q" else "O-O") + suffix
        return SanSyntax(None, None, None, False, None, None, castle, False, suffix, tuple(lenient), canonical, glyph)
    if kind == "drop":
        raise InvalidSan(text, f"{text!r} drops a piece: a move of variants such as Crazyhouse, not of chess")
    if kind == "null":
        written = body.children[0].value
        if written != "--":
            lenient.append(f"null move written as {written!r}")
        return SanSyntax(None, None, None, False, None, None, None, True, suffix, tuple(lenient), "--" + suffix, glyph)

    tokens = list(body.children)
    promotion: int | None = None
    if tokens and _is_tree(tokens[-1]):  # the promotion subtree
        promotion = _promotion(text, tokens.pop(), lenient)
    piece = PAWN
    first = tokens[0]
    if first.type == "PIECE":
        piece = _PIECE_OF_LETTER[first.value]
        tokens = tokens[1:]
    elif first.type == "FIGURINE":
        piece = _FIGURINES[first.value]
        lenient.append("figurine piece symbol")
        tokens = tokens[1:]
    elif first.type == "PAWN":
        lenient.append("pawn written with a letter or figurine")
        tokens = tokens[1:]
    to_file = "abcdefgh".index(tokens[-2].value)
    to_rank = "12345678".index(tokens[-1].value)
    to_square = to_rank * 8 + to_file
    from_file: int | None = None
    from_rank: int | None = None
    capture = False
    separator = ""
    for tok in tokens[:-2]:
        if tok.type == "FILE":
            from_file = "abcdefgh".index(tok.value)
        elif tok.type == "RANK":
            from_rank = "12345678".index(tok.value)
        elif tok.type == "CAPTURE":
            capture = True
            separator = "x"
            if tok.value == ":":
                lenient.append("capture written with ':'")
        elif tok.type == "DASH":
            separator = "-"
    if separator == "-":
        lenient.append("long algebraic '-' between origin and target")
    if piece == PAWN:
        if from_rank is not None:
            if from_file is None:
                raise InvalidSan(text, f"{text!r}: a pawn move cannot give only the origin rank")
            if separator != "-":
                lenient.append("pawn move written with its origin square")
        elif from_file is not None and not capture:
            if from_file == 1:
                raise InvalidSan(
                    text,
                    f"{text!r} is ambiguous: write 'B{text[1:]}' for a bishop or 'bx{text[1:]}' for a pawn capture",
                )
            lenient.append("capture written without 'x'")
            capture = True
        if from_file is not None and from_file == to_file and capture:
            raise InvalidSan(text, f"{text!r}: a pawn captures diagonally, not along its file")
        if promotion is not None and to_rank not in (0, 7):
            raise InvalidSan(text, f"{text!r}: promotion on rank {to_rank + 1}")
    elif promotion is not None:
        raise InvalidSan(text, f"{text!r}: only pawns promote")
    canonical = _canonical(piece, from_file, from_rank, capture, to_square, promotion, suffix)
    return SanSyntax(
        piece,
        from_file,
        from_rank,
        capture,
        to_square,
        promotion,
        None,
        False,
        suffix,
        tuple(lenient),
        canonical,
        glyph,
        separator,
        _plan(piece, from_file, from_rank, capture, to_square, promotion),
    )


def _plan(
    piece: int, from_file: int | None, from_rank: int | None, capture: bool, to: int, promotion: int | None
) -> tuple[int, int, int]:
    if promotion is not None or (piece == PAWN and (to >> 3) in (0, 7)):
        return 0, 0, 0
    mask = 0  # 0: no origin restriction
    if from_file is not None:
        mask = BB_FILES[from_file]
    if from_rank is not None:
        mask = (mask or BB_ALL) & BB_RANKS[from_rank]
    if piece == PAWN:
        if capture:
            return 7, to, mask
        if from_rank is not None:
            return 0, 0, 0
        return 1, to, mask
    return piece, to, mask


def _promotion(text: str, tree: Any, lenient: list[str]) -> int:
    children = list(tree.children)
    head = children[0]
    if not _is_tree(head):
        if head.type == "EQUALS":
            children = children[1:]
        elif head.type == "LPAR":
            lenient.append("promotion piece in parentheses")
            children = children[1:2]
        elif head.type == "SLASH":
            lenient.append("promotion written with '/'")
            children = children[1:]
    else:
        lenient.append("promotion written without '='")
    item = children[0]
    tok = item.children[0] if _is_tree(item) else item
    letter = tok.value
    if tok.type == "FIGURINE":
        lenient.append("figurine piece symbol")
        piece = _FIGURINES[letter]
    elif tok.type in ("LOWER_PIECE", "FILE"):
        if letter not in _LOWER_PIECES:
            raise InvalidSan(text, f"{text!r}: {letter!r} is not a promotion piece")
        lenient.append("lower-case promotion piece")
        piece = _LOWER_PIECES[letter]
    else:
        piece = _PIECE_OF_LETTER[letter]
    if piece == KING:
        raise InvalidSan(text, f"{text!r}: a pawn cannot promote to a king")
    return piece


def _is_tree(node: Any) -> bool:
    return hasattr(node, "data")


def _canonical(
    piece: int,
    from_file: int | None,
    from_rank: int | None,
    capture: bool,
    to_square: int,
    promotion: int | None,
    suffix: str,
) -> str:
    if piece == PAWN:
        out = ""
        if from_file is not None and from_file != to_square & 7:
            out = "abcdefgh"[from_file] + "x"
    else:
        out = PIECE_LETTERS[piece]
        if from_file is not None:
            out += "abcdefgh"[from_file]
        if from_rank is not None:
            out += "12345678"[from_rank]
        if capture:
            out += "x"
    out += SQUARE_NAMES[to_square]
    if promotion:
        out += "=" + PIECE_LETTERS[promotion]
    return out + suffix


def _classify_invalid(text: str) -> InvalidSan:
    head = text[0]
    if head.isalpha() and head not in "abcdefghKQRBNPOoZ":
        if head in "qrnk":
            return InvalidSan(
                text,
                f"{text!r}: piece letters are upper case ({head.upper()!r}, not {head!r})",
                code="san.unknown-piece",
            )
        return InvalidSan(
            text, f"{text!r}: unknown piece letter {head!r} (SAN uses K, Q, R, B, N)", code="san.unknown-piece"
        )
    return InvalidSan(text, f"not a move in standard algebraic notation: {text!r}")


# ---------------------------------------------------------------------------------------------
# SAN against a position: the move a SAN names, and the SAN of a move.

_PROMOTIONS = (QUEEN, ROOK, BISHOP, KNIGHT)
# lenient SAN text -> (fast-path kind, target, origin mask, syntax) (see SanSyntax.fast); real
# files use few distinct SAN strings, so this stays small (cleared if it ever grows too big)
_FAST: dict[str, tuple[int, int, int, SanSyntax]] = {}


class SanResolution(NamedTuple):
    """A resolved SAN: the move, its syntax, and every lenient spelling used (with position)."""

    move: Move
    syntax: SanSyntax
    lenient: tuple[str, ...]


def _rights_side(pos: Position, side: str | None) -> int:
    king = pos.king(pos.turn)
    below = (1 << king) - 1
    return below if side == "Q" else BB_ALL & ~below


def san(pos: Position, move: Move) -> str:
    """Standard algebraic notation of a legal ``move``, with ``+``/``#``."""
    text = _san_body(pos, move)
    if move:
        after = pos.play(move)
        if after.is_check():
            text += "#" if not after.has_legal_moves() else "+"
    return text


def san_without_suffix(pos: Position, move: Move) -> str:
    """SAN of ``move`` without the check/mate suffix."""
    return _san_body(pos, move)


def _san_body(pos: Position, move: Move) -> str:
    f, t, promo = move
    if f == t:
        return "--"
    code = pos._board[f]
    ptype = code & 7
    if ptype == KING and pos.is_castling(move):
        return "O-O" if t > f else "O-O-O"
    if ptype == PAWN:
        if (f - t) & 7:
            text = FILE_NAMES[f & 7] + "x" + SQUARE_NAMES[t]
        else:
            text = SQUARE_NAMES[t]
        if promo:
            text += "=" + PIECE_LETTERS[promo]
        return text
    text = PIECE_LETTERS[ptype] + disambiguation(pos, ptype, f, t)
    if pos._board[t]:
        text += "x"
    return text + SQUARE_NAMES[t]


def disambiguation(pos: Position, ptype: int, f: int, t: int) -> str:
    if ptype == KING:
        return ""
    others = origins(pos, ptype, t) & ~(1 << f)
    if not others:
        return ""
    legal = 0
    for o in scan_squares(others):
        if pos._is_safe(o, t):
            legal |= 1 << o
    if not legal:
        return ""
    if not legal & BB_FILES[f & 7]:
        return FILE_NAMES[f & 7]
    if not legal & BB_RANKS[f >> 3]:
        return RANK_NAMES[f >> 3]
    return SQUARE_NAMES[f]


def parse_san(pos: Position, text: str, *, strict: bool = False) -> Move:
    """The legal move named by SAN ``text`` (lenient by default; ``strict=True`` follows the
    PGN standard). Raises :class:`InvalidSan`, :class:`IllegalSan` or :class:`AmbiguousSan`."""
    if strict:
        return _resolve(pos, parse_san_syntax(text, strict=True), text, True)[0]
    fast = _FAST.get(text)
    if fast is None:
        syn = parse_san_syntax(text)
        fast = (*syn.fast, syn)
        if len(_FAST) > 200_000:
            _FAST.clear()
        _FAST[text] = fast
    kind, to, mask, syn = fast
    if kind:
        f = fast_from(pos, kind, to, mask)
        if f >= 0:
            return MOVES[f][to]
    return _resolve(pos, syn, text, False)[0]


def resolve_san(pos: Position, syntax: SanSyntax, *, strict: bool = False) -> Move:
    """The legal move named by an already parsed SAN (raises like :meth:`parse_san`)."""
    return _resolve(pos, syntax, syntax.canonical, strict)[0]


def parse_san_detailed(pos: Position, text: str, *, strict: bool = False) -> SanResolution:
    """Like :meth:`parse_san`, also returning the syntax and every lenient spelling used,
    including the position-dependent ones (missing or superfluous ``x``, superfluous or
    non-standard disambiguation)."""
    syntax = parse_san_syntax(text, strict=strict)
    move, notes = _resolve(pos, syntax, text, strict)
    return SanResolution(move, syntax, syntax.lenient + notes)


def resolve_san_detailed(pos: Position, syntax: SanSyntax, *, strict: bool = False) -> SanResolution:
    move, notes = _resolve(pos, syntax, syntax.canonical, strict)
    return SanResolution(move, syntax, syntax.lenient + notes)


def _resolve(pos: Position, syn: SanSyntax, text: str, strict: bool) -> tuple[Move, tuple[str, ...]]:
    kind, target, mask = syn.fast
    if kind:
        f = fast_from(pos, kind, target, mask)
        if f >= 0:
            move = MOVES[f][target]
            if kind == 1 or kind == 7:
                return move, ()
            capture = bool(pos._co[not pos.turn] >> target & 1)
            if not mask and capture == syn.capture:
                return move, ()
            return move, _san_notes(pos, syn, text, move, kind, capture, strict)
    to = syn.to_square
    if to is None:
        if syn.null:
            return NULL_MOVE, ()
        return _resolve_castle(pos, syn, text), ()
    piece = syn.piece
    us = pos.turn
    co = pos._co
    tbit = 1 << to
    if piece == PAWN:
        return _resolve_pawn(pos, syn, text, to, tbit), ()
    if co[us] & tbit:
        raise IllegalSan(text, f"illegal move {text!r}: {SQUARE_NAMES[to]} holds a piece of the side to move")
    bb = pos._bb
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
        raise IllegalSan(text, f"illegal move {text!r}: no {PIECE_NAMES[piece or 0]} can go to {SQUARE_NAMES[to]}")
    if not cands & (cands - 1):
        f = cands.bit_length() - 1
        if not pos._is_safe(f, to):
            raise IllegalSan(text, f"illegal move {text!r}: it leaves the king in check")
    else:
        legal = [o for o in scan_squares(cands) if pos._is_safe(o, to)]
        if not legal:
            raise IllegalSan(text, f"illegal move {text!r}: it leaves the king in check")
        if len(legal) > 1:
            names = tuple(san(pos, MOVES[o][to]) for o in legal)
            raise AmbiguousSan(text, f"ambiguous move {text!r}: could be {', '.join(names)}", candidates=names)
        f = legal[0]
    move = MOVES[f][to]
    notes: tuple[str, ...] = ()
    capture = bool(co[not us] & tbit)
    if (capture != syn.capture and syn.separator != "-") or ff is not None or fr is not None or allc & (allc - 1):
        notes = _san_notes(pos, syn, text, move, piece, capture, strict)  # type: ignore[arg-type]
    return move, notes


def _san_notes(
    pos: Position, syn: SanSyntax, text: str, move: Move, piece: int, capture: bool, strict: bool
) -> tuple[str, ...]:
    notes = []
    if syn.separator != "-":
        if syn.capture and not capture:
            notes.append("'x' written for a move that captures nothing")
        elif capture and not syn.capture:
            notes.append("capture written without 'x'")
    needed = disambiguation(pos, piece, move[0], move[1])
    written = (FILE_NAMES[syn.from_file] if syn.from_file is not None else "") + (
        RANK_NAMES[syn.from_rank] if syn.from_rank is not None else ""
    )
    if written != needed and syn.separator != "-":
        if len(written) > len(needed) and needed in written:
            notes.append("superfluous disambiguation")
        else:
            notes.append("non-standard disambiguation")
    if strict and notes:
        standard = san(pos, move)
        raise InvalidSan(
            text,
            f"{text!r} is not standard SAN ({'; '.join(notes)}); the standard form is {standard!r}",
            candidates=(standard,),
        )
    return tuple(notes)


def _resolve_pawn(pos: Position, syn: SanSyntax, text: str, to: int, tbit: int) -> Move:
    us = pos.turn
    bb = pos._bb
    co = pos._co
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
        is_ep = to == pos.ep_square and not bb[0] & tbit
        if not is_ep and not co[not us] & tbit:
            raise IllegalSan(text, f"illegal move {text!r}: nothing to capture on {SQUARE_NAMES[to]}")
        legal = [f for f in scan_squares(cands) if (pos._ep_safe(f, to) if is_ep else pos._is_safe(f, to))]
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
        if not pos._is_safe(legal[0], to):
            legal = []
    if not legal:
        raise IllegalSan(text, f"illegal move {text!r}: it leaves the king in check")
    if len(legal) > 1:  # cannot happen with a file given; kept for safety
        names = tuple(san(pos, MOVES[o][to]) for o in legal)
        raise AmbiguousSan(text, f"ambiguous move {text!r}", candidates=names)
    f = legal[0]
    last = (to >> 3) == (7 if us else 0)
    promo = syn.promotion
    if last:
        if promo is None:
            names = tuple(san(pos, Move(f, to, p)) for p in _PROMOTIONS)
            raise AmbiguousSan(
                text, f"ambiguous move {text!r}: the promotion piece is missing ({', '.join(names)})", candidates=names
            )
        return Move(f, to, promo)
    if promo is not None:
        raise IllegalSan(text, f"illegal move {text!r}: a pawn promotes only on the last rank")
    return MOVES[f][to]


def _resolve_castle(pos: Position, syn: SanSyntax, text: str) -> Move:
    side = syn.castle
    if not pos.chess960 and side is not None:
        fast = standard_castle(pos, side)
        if fast is not None:
            return fast
    moves = castling_moves(pos, side)  # includes "the king is not in check"
    if len(moves) == 1:
        return moves[0]
    if len(moves) > 1:  # impossible with validated rights
        raise AmbiguousSan(text, f"ambiguous castling {text!r}")
    what = "king" if side == "K" else "queen"
    if not pos.castling_rights & pos._co[pos.turn] & _rights_side(pos, side):
        reason = f"no {what}side castling right"
    elif pos.is_check():
        reason = "the king is in check"
    else:
        reason = "a square between king and rook is occupied, or the king passes through or lands on an attacked square"
    raise IllegalSan(text, f"illegal castling {text!r}: {reason}")
