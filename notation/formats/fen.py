"""FEN / X-FEN / Shredder-FEN: parse the fields (syntax) and format them.

:func:`parse_fen` checks the syntax of each field and returns a :class:`FenFields`;
``Position.from_fen`` then checks the position itself (kings, pawns, check, castling,
en passant). Every failure raises :class:`FenError` naming the field at fault.
"""

from __future__ import annotations

from dataclasses import dataclass

from notation.rules.squares import SQUARE_NAMES

FEN_FIELDS = ("placement", "turn", "castling", "en_passant", "halfmove", "fullmove", "position")
STARTING_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

# piece letter -> code (piece_type | 8 for White)
PIECE_CODES: dict[str, int] = {
    "p": 1, "n": 2, "b": 3, "r": 4, "q": 5, "k": 6,
    "P": 9, "N": 10, "B": 11, "R": 12, "Q": 13, "K": 14,
}
CODE_LETTERS: dict[int, str] = {code: letter for letter, code in PIECE_CODES.items()}


class FenError(ValueError):
    """A FEN that is not a legal chess position; ``field`` names the FEN field at fault."""

    def __init__(self, field: str, message: str, fen: str | None = None) -> None:
        super().__init__(f"invalid FEN ({field}): {message}")
        self.field = field
        self.message = message
        self.fen = fen


@dataclass(frozen=True, slots=True)
class FenFields:
    """The six fields of a FEN, syntax-checked but not yet validated as a position."""

    board: tuple[int, ...]  # 64 piece codes (0 = empty), a1 first
    turn: bool
    castling: str
    ep_square: int | None
    halfmove_clock: int
    fullmove_number: int


def parse_placement(text: str) -> list[int]:
    """The 64 piece codes of a FEN placement field (raises FenError 'placement')."""
    rows = text.split("/")
    if len(rows) != 8:
        raise FenError("placement", f"expected 8 ranks separated by '/', found {len(rows)}")
    board = [0] * 64
    for i, row in enumerate(rows):
        rank = 7 - i
        file = 0
        prev_digit = False
        for ch in row:
            if ch in "12345678":
                if prev_digit:
                    raise FenError("placement", f"two digits in a row in rank {rank + 1}: {row!r}")
                file += int(ch)
                prev_digit = True
            elif ch in PIECE_CODES:
                if file >= 8:
                    raise FenError("placement", f"rank {rank + 1} has more than 8 squares: {row!r}")
                board[rank * 8 + file] = PIECE_CODES[ch]
                file += 1
                prev_digit = False
            else:
                raise FenError("placement", f"unexpected character {ch!r} in rank {rank + 1}")
        if file != 8:
            raise FenError("placement", f"rank {rank + 1} has {file} squares, not 8: {row!r}")
    return board


def parse_fen(text: str) -> FenFields:
    """Split and syntax-check a FEN. Missing half-move/full-move fields default to ``0 1``."""
    parts = text.split()
    if not parts:
        raise FenError("placement", "empty FEN")
    if len(parts) > 6:
        raise FenError("position", f"expected at most 6 fields, found {len(parts)}")
    board = parse_placement(parts[0])
    turn_text = parts[1] if len(parts) > 1 else "w"
    if turn_text not in ("w", "b"):
        raise FenError("turn", f"side to move must be 'w' or 'b', not {turn_text!r}")
    castling = parts[2] if len(parts) > 2 else "-"
    if castling != "-" and (
        not castling.isascii() or not all(c in "KQkqABCDEFGHabcdefgh" for c in castling)
        or len(set(castling)) != len(castling)
    ):
        raise FenError("castling", f"not a castling field: {castling!r}")
    ep_text = parts[3] if len(parts) > 3 else "-"
    ep_square: int | None = None
    if ep_text != "-":
        if ep_text not in SQUARE_NAMES:
            raise FenError("en_passant", f"not a square: {ep_text!r}")
        ep_square = SQUARE_NAMES.index(ep_text)
    halfmove = _parse_int(parts[4] if len(parts) > 4 else "0", "halfmove", 0)
    fullmove = _parse_int(parts[5] if len(parts) > 5 else "1", "fullmove", 0)
    if fullmove == 0:
        fullmove = 1  # common in the wild; FEN says move numbers start at 1
    return FenFields(tuple(board), turn_text == "w", castling, ep_square, halfmove, fullmove)


def _parse_int(text: str, field: str, minimum: int) -> int:
    if not text.isdigit() or not text.isascii():
        raise FenError(field, f"not a non-negative number: {text!r}")
    value = int(text)
    if value < minimum:
        raise FenError(field, f"must be at least {minimum}: {text!r}")
    return value


def format_placement(board: bytearray | list[int] | tuple[int, ...]) -> str:
    """The placement field for 64 piece codes."""
    data = bytes(board)
    known = _RANKS
    rows = []
    for start in (56, 48, 40, 32, 24, 16, 8, 0):
        codes = data[start : start + 8]
        row = known.get(codes)
        if row is None:
            row = _format_rank(codes)
        rows.append(row)
    return "/".join(rows)


# FEN text of one rank by its 8 piece codes (the same few hundred ranks recur in every game);
# cleared when it grows large
_RANKS: dict[bytes, str] = {}


def _format_rank(codes: bytes) -> str:
    row = ""
    empty = 0
    for code in codes:
        if code:
            if empty:
                row += str(empty)
                empty = 0
            row += CODE_LETTERS[code]
        else:
            empty += 1
    if empty:
        row += str(empty)
    if len(_RANKS) >= 50_000:
        _RANKS.clear()
    _RANKS[codes] = row
    return row
