"""Squares, colours, piece types and bitboard masks (plain Python ints, a1 = bit 0).

Vocabulary follows python-chess: squares 0..63 (``a1 = 0``, ``h8 = 63``), ``WHITE = True``,
``BLACK = False``, piece types ``PAWN = 1`` .. ``KING = 6``.
"""

from __future__ import annotations

from collections.abc import Iterator

WHITE = True
BLACK = False
COLORS = (WHITE, BLACK)
COLOR_NAMES = ("black", "white")

PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = 1, 2, 3, 4, 5, 6
PIECE_TYPES = (PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING)
PIECE_SYMBOLS: list[str | None] = [None, "p", "n", "b", "r", "q", "k"]
#: Upper-case piece letters by piece type (index 0 unused): SAN's and FEN's White letters.
PIECE_LETTERS = " PNBRQK"
PIECE_NAMES: list[str | None] = [None, "pawn", "knight", "bishop", "rook", "queen", "king"]
PIECE_VALUES = (0, 1, 3, 3, 5, 9, 0)

FILE_NAMES = "abcdefgh"
RANK_NAMES = "12345678"
SQUARE_NAMES: list[str] = [f + r for r in RANK_NAMES for f in FILE_NAMES]
_SQUARE_INDEX: dict[str, int] = {name: i for i, name in enumerate(SQUARE_NAMES)}

BB_EMPTY = 0
BB_ALL = (1 << 64) - 1
BB_SQUARES: list[int] = [1 << sq for sq in range(64)]
BB_FILES: list[int] = [0x0101010101010101 << f for f in range(8)]
BB_RANKS: list[int] = [0xFF << (8 * r) for r in range(8)]
BB_LIGHT_SQUARES = 0x55AA55AA55AA55AA
BB_DARK_SQUARES = 0xAA55AA55AA55AA55
BB_BACKRANKS = BB_RANKS[0] | BB_RANKS[7]


def square(file: int, rank: int) -> int:
    """The square on ``file`` and ``rank`` (both 0..7)."""
    return rank * 8 + file


def square_file(sq: int) -> int:
    """File 0..7 (a..h) of a square."""
    return sq & 7


def square_rank(sq: int) -> int:
    """Rank 0..7 (1..8) of a square."""
    return sq >> 3


def square_name(sq: int) -> str:
    """``"e4"`` style name of a square."""
    return SQUARE_NAMES[sq]


def parse_square(name: str) -> int:
    """The square called ``name`` (``"e4"``); raises ValueError for anything else."""
    try:
        return _SQUARE_INDEX[name]
    except KeyError:
        raise ValueError(f"not a square: {name!r}") from None


def square_distance(a: int, b: int) -> int:
    """King-move distance between two squares."""
    return max(abs((a & 7) - (b & 7)), abs((a >> 3) - (b >> 3)))


def scan_forward(bb: int) -> Iterator[int]:
    """Squares of the set bits of ``bb``, lowest first."""
    while bb:
        low = bb & -bb
        yield low.bit_length() - 1
        bb ^= low


def scan_squares(bb: int) -> list[int]:
    """Squares of the set bits of ``bb`` as a list, lowest first (faster than iterating
    :func:`scan_forward` when all are wanted)."""
    out = []
    while bb:
        low = bb & -bb
        out.append(low.bit_length() - 1)
        bb ^= low
    return out


def popcount(bb: int) -> int:
    return bb.bit_count()


def lsb(bb: int) -> int:
    return (bb & -bb).bit_length() - 1


def msb(bb: int) -> int:
    return bb.bit_length() - 1
