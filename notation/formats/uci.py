"""UCI (``e2e4``, ``e7e8q``, Chess960 castling as king-takes-rook) and long algebraic notation
(``e2-e4``, ``Ng1-f3``, ``e7xd8=Q``), both directions, against a position."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from notation.rules.squares import KING, PAWN, SQUARE_NAMES
from notation.rules.move import MOVES, NULL_MOVE, Move
from notation.formats.san import IllegalSan, InvalidSan

if TYPE_CHECKING:
    from notation.rules.position import Position

_LETTERS = " PNBRQK"
_PIECES = {"N": 2, "B": 3, "R": 4, "Q": 5, "K": 6}
_LAN = re.compile(
    r"^(?P<piece>[KQRBN])?(?P<from>[a-h][1-8])(?P<sep>[-x:])(?P<to>[a-h][1-8])"
    r"(?:=?(?P<promo>[QRBNqrbn]))?(?P<suffix>[+#])?(?:[!?]{1,2})?$"
)


def parse_uci(pos: Position, text: str) -> Move:
    """The legal move written in UCI; raises InvalidSan (syntax) or IllegalSan."""
    try:
        move = Move.from_uci(text)
    except (ValueError, TypeError):
        raise InvalidSan(str(text), f"not a UCI move: {text!r}") from None
    if not move:
        return NULL_MOVE
    f, t, _ = move
    if not pos.chess960 and pos.piece_type_at(f) == KING:
        # king-takes-own-rook castling in a standard position -> king's destination
        target = pos.piece_at(t)
        if target is not None and target == (pos.turn, 4) and abs(t - f) in (3, 4):
            move = MOVES[f][(f & 56) + (6 if t > f else 2)]
    if not pos.is_legal(move):
        raise IllegalSan(text, f"illegal move {text!r} in this position")
    return move


def format_lan(pos: Position, move: Move) -> str:
    """Long algebraic notation with check suffix."""
    if not move:
        return "--"
    f, t, promo = move
    if pos.is_castling(move):
        text = "O-O" if t > f else "O-O-O"
    else:
        ptype = pos.piece_type_at(f) or PAWN
        text = ("" if ptype == PAWN else _LETTERS[ptype]) + SQUARE_NAMES[f]
        text += "x" if pos.is_capture(move) else "-"
        text += SQUARE_NAMES[t]
        if promo:
            text += "=" + _LETTERS[promo]
    after = pos.play(move)
    if after.is_check():
        text += "#" if not after.has_legal_moves() else "+"
    return text


def parse_lan(pos: Position, text: str) -> Move:
    """The legal move written in long algebraic notation; castling ``O-O``/``O-O-O`` too."""
    if not isinstance(text, str):
        raise InvalidSan(str(text), f"not a move: {text!r}")
    stripped = text.rstrip("+#!?")
    if stripped in ("O-O", "O-O-O", "0-0", "0-0-0", "--"):
        return pos.parse_san(text)
    m = _LAN.match(text)
    if m is None:
        raise InvalidSan(text, f"not a move in long algebraic notation: {text!r}")
    f = SQUARE_NAMES.index(m["from"])
    t = SQUARE_NAMES.index(m["to"])
    piece = _PIECES[m["piece"]] if m["piece"] else PAWN
    if pos.piece_type_at(f) != piece or pos.color_at(f) != pos.turn:
        raise IllegalSan(text, f"illegal move {text!r}: no such piece on {m['from']}")
    promo = _PIECES[m["promo"].upper()] if m["promo"] else None
    if promo == KING:
        raise InvalidSan(text, f"{text!r}: a pawn cannot promote to a king")
    move = Move(f, t, promo) if promo else MOVES[f][t]
    if not pos.is_legal(move):
        raise IllegalSan(text, f"illegal move {text!r} in this position")
    if (m["sep"] == "x") != pos.is_capture(move) and m["sep"] != ":":
        raise IllegalSan(text, f"illegal move {text!r}: capture mark does not match the position")
    return move
