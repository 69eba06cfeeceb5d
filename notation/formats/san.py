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
from typing import Any

from notation.rules.squares import (
    BB_ALL,
    BB_FILES,
    BB_RANKS,
    BISHOP,
    KING,
    KNIGHT,
    PAWN,
    QUEEN,
    ROOK,
    SQUARE_NAMES,
)

PIECE_LETTERS = " PNBRQK"
_PIECE_OF_LETTER = {"N": KNIGHT, "B": BISHOP, "R": ROOK, "Q": QUEEN, "K": KING}
_FIGURINES = {
    "\u2654": KING, "\u2655": QUEEN, "\u2656": ROOK, "\u2657": BISHOP, "\u2658": KNIGHT,
    "\u265a": KING, "\u265b": QUEEN, "\u265c": ROOK, "\u265d": BISHOP, "\u265e": KNIGHT,
}
_LOWER_PIECES = {"q": QUEEN, "r": ROOK, "n": KNIGHT, "k": KING, "b": BISHOP}


class SanError(ValueError):
    """A SAN that cannot be turned into a move. ``code`` is a stable diagnostic code."""

    default_code = "san.invalid"

    def __init__(self, text: str, message: str, *, code: str | None = None,
                 candidates: tuple[str, ...] = ()) -> None:
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

        _PARSER = build_parser("san")
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
            f"{text!r} is not standard SAN ({'; '.join(syntax.lenient)}); the standard form is "
            f"{syntax.canonical!r}",
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
        return SanSyntax(None, None, None, False, None, None, castle, False, suffix,
                         tuple(lenient), canonical, glyph)
    if kind == "drop":
        raise InvalidSan(
            text, f"{text!r} drops a piece: a move of variants such as Crazyhouse, not of chess")
    if kind == "null":
        written = body.children[0].value
        if written != "--":
            lenient.append(f"null move written as {written!r}")
        return SanSyntax(None, None, None, False, None, None, None, True, suffix,
                         tuple(lenient), "--" + suffix, glyph)

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
                    text, f"{text!r} is ambiguous: write 'B{text[1:]}' for a bishop or "
                    f"'bx{text[1:]}' for a pawn capture")
            lenient.append("capture written without 'x'")
            capture = True
        if from_file is not None and from_file == to_file and capture:
            raise InvalidSan(text, f"{text!r}: a pawn captures diagonally, not along its file")
        if promotion is not None and to_rank not in (0, 7):
            raise InvalidSan(text, f"{text!r}: promotion on rank {to_rank + 1}")
    elif promotion is not None:
        raise InvalidSan(text, f"{text!r}: only pawns promote")
    canonical = _canonical(piece, from_file, from_rank, capture, to_square, promotion, suffix)
    return SanSyntax(piece, from_file, from_rank, capture, to_square, promotion, None, False,
                     suffix, tuple(lenient), canonical, glyph, separator,
                     _plan(piece, from_file, from_rank, capture, to_square, promotion))


def _plan(piece: int, from_file: int | None, from_rank: int | None, capture: bool, to: int,
          promotion: int | None) -> tuple[int, int, int]:
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


def _canonical(piece: int, from_file: int | None, from_rank: int | None, capture: bool,
               to_square: int, promotion: int | None, suffix: str) -> str:
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
                text, f"{text!r}: piece letters are upper case ({head.upper()!r}, not {head!r})",
                code="san.unknown-piece")
        return InvalidSan(
            text, f"{text!r}: unknown piece letter {head!r} (SAN uses K, Q, R, B, N)",
            code="san.unknown-piece")
    return InvalidSan(text, f"not a move in standard algebraic notation: {text!r}")
