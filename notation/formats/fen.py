"""FEN / X-FEN / Shredder-FEN: parse the fields (syntax) and format them.

:func:`parse_fen` checks the syntax of each field and returns a
:class:`notation.rules.setup.Setup`; ``Position.from_fen``
(:class:`notation.formats.position.Position`) then has the rules check the position itself (kings, pawns, check, castling, en passant). Every failure
raises :class:`FenError` naming the field at fault.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from notation.rules.setup import Setup, SetupError
from notation.rules.squares import BB_RANKS, FILE_NAMES, SQUARE_NAMES, scan_squares

if TYPE_CHECKING:  # pragma: no cover
    from notation.rules.position import Position

FEN_FIELDS = ("placement", "turn", "castling", "en_passant", "halfmove", "fullmove", "position")
STARTING_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

# piece letter -> code (piece_type | 8 for White)
PIECE_CODES: dict[str, int] = {
    "p": 1,
    "n": 2,
    "b": 3,
    "r": 4,
    "q": 5,
    "k": 6,
    "P": 9,
    "N": 10,
    "B": 11,
    "R": 12,
    "Q": 13,
    "K": 14,
}
CODE_LETTERS: dict[int, str] = {code: letter for letter, code in PIECE_CODES.items()}


class FenError(SetupError):
    """A FEN that is not a legal chess position; ``field`` names the FEN field at fault."""

    def __init__(self, field: str, message: str, fen: str | None = None) -> None:
        ValueError.__init__(self, f"invalid FEN ({field}): {message}")
        self.field = field
        self.message = message
        self.fen = fen


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


def parse_fen(text: str) -> Setup:
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
        not castling.isascii()
        or not all(c in "KQkqABCDEFGHabcdefgh" for c in castling)
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
    return Setup(tuple(board), turn_text == "w", castling, ep_square, halfmove, fullmove)


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


# ---------------------------------------------------------------------------------------------
# A position as FEN.

_BACKRANK = (BB_RANKS[7], BB_RANKS[0])  # by colour index: Black, White
_CORNERS = 1 | 1 << 7 | 1 << 56 | 1 << 63
_CORNER_FEN = {
    rights: "".join(letter for bit, letter in ((7, "K"), (0, "Q"), (63, "k"), (56, "q")) if rights >> bit & 1) or "-"
    for rights in (
        h1 | a1 | h8 | a8 for h1 in (0, 1 << 7) for a1 in (0, 1) for h8 in (0, 1 << 63) for a8 in (0, 1 << 56)
    )
}


def format_fen(pos: Position, *, shredder: bool = False, en_passant: str = "legal") -> str:
    """FEN of the position. Castling: X-FEN (``KQkq``, file letters for inner rooks) or
    Shredder-FEN (``HAha``) with ``shredder=True``. ``en_passant="legal"`` (default, like
    python-chess and the repetition key) writes the en passant square only when an en
    passant capture is legal; ``"fen"`` writes it after every double step."""
    ep = pos.ep_square
    if ep is not None and en_passant == "legal" and not pos._ep_legal():
        ep = None
    return " ".join(
        (
            format_placement(pos._board),
            "w" if pos.turn else "b",
            castling_field(pos, shredder=shredder),
            SQUARE_NAMES[ep] if ep is not None else "-",
            str(pos.halfmove_clock),
            str(pos.fullmove_number),
        )
    )


def castling_field(pos: Position, *, shredder: bool = False) -> str:
    """The castling field: X-FEN (``KQkq``, a file letter for a rook with another rook further
    out) or Shredder-FEN (rook files, ``HAha``)."""
    if not shredder and not pos.castling_rights & ~_CORNERS:
        # rights on corner rooks only (every standard game): always the outermost rooks
        return _CORNER_FEN[pos.castling_rights]
    out = ""
    for colour in (True, False):
        rights = pos.castling_rights & pos._co[colour]
        if not rights:
            continue
        king = pos.king(colour)
        rooks = pos._bb[4] & pos._co[colour] & _BACKRANK[colour]
        letters = []
        for r in sorted(scan_squares(rights), reverse=True):
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
