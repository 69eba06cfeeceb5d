"""UCI (``e2e4``, ``e7e8q``, Chess960 castling as king-takes-rook) and long algebraic notation
(``e2-e4``, ``Ng1-f3``, ``e7xd8=Q``), both directions, against a position."""

from __future__ import annotations

from typing import TYPE_CHECKING

from notation.formats.san import IllegalSan, InvalidSan, parse_san_syntax, resolve_san
from notation.rules.move import MOVES, NULL_MOVE, Move
from notation.rules.squares import KING, PAWN, PIECE_LETTERS, SQUARE_NAMES

if TYPE_CHECKING:
    from notation.rules.position import Position


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
        text = ("" if ptype == PAWN else PIECE_LETTERS[ptype]) + SQUARE_NAMES[f]
        text += "x" if pos.is_capture(move) else "-"
        text += SQUARE_NAMES[t]
        if promo:
            text += "=" + PIECE_LETTERS[promo]
    after = pos.play(move)
    if after.is_check():
        text += "#" if not after.has_legal_moves() else "+"
    return text


def parse_lan(pos: Position, text: str) -> Move:
    """The legal move written in long algebraic notation (``e2-e4``, ``Ng1xf3``, ``e7-e8=Q``;
    castling ``O-O``/``O-O-O`` and ``--`` too). The text is read by the SAN grammar (long
    algebraic is SAN with the whole origin square and a separator), so the two never disagree
    on spelling; a LAN must give the origin square and ``-`` or ``x`` (or ``:``)."""
    if not isinstance(text, str):
        raise InvalidSan(str(text), f"not a move: {text!r}")
    syntax = parse_san_syntax(text)
    if syntax.castle is not None or syntax.null:
        return resolve_san(pos, syntax)
    if syntax.from_file is None or syntax.from_rank is None or syntax.separator not in ("-", "x"):
        raise InvalidSan(text, f"not a move in long algebraic notation: {text!r}")
    f = syntax.from_rank * 8 + syntax.from_file
    t = syntax.to_square
    assert t is not None
    if pos.piece_type_at(f) != syntax.piece or pos.color_at(f) != pos.turn:
        raise IllegalSan(text, f"illegal move {text!r}: no such piece on {SQUARE_NAMES[f]}")
    promo = syntax.promotion
    move = Move(f, t, promo) if promo else MOVES[f][t]
    if not pos.is_legal(move):
        raise IllegalSan(text, f"illegal move {text!r} in this position")
    if syntax.capture != pos.is_capture(move):
        raise IllegalSan(text, f"illegal move {text!r}: capture mark does not match the position")
    return move
