"""Zobrist numbers of the 64-bit repetition key (FIDE 10.10 "same position"): Polyglot's.

The key is the **Polyglot** hash (the opening-book format by Fabien Letouzey): the xor of the
Random64 numbers of every piece on its square, of each castling right (white short, white long,
black short, black long), of the en passant file and of the turn (xor-ed in when White is to
move). The 781 numbers are read at import time from ``polyglot.txt`` in this package (one data
file, also read by Rust code): indices 0..767 piece on square (``64 * kind + square``, ``kind =
2 * (piece_type - 1) + (1 if white)``), 768..771 castling, 772..779 en passant file, 780 turn.

Castling rights are rook squares here (Chess960 included); each right counts as *short* when its
rook stands on a higher file than its king and *long* otherwise (:func:`castling_hash`), which is
what python-chess's ``has_kingside_castling_rights`` decides as well.

En passant: the file's number is xor-ed in **only when an en passant capture is legal**
(``Position.key`` decides that), as FIDE 10.10 requires. Polyglot (and python-chess's
``chess.polyglot.zobrist_hash``) include it when the capture is pseudo-legal, that is when a
pawn of the side to move merely stands beside the pawn that just double-stepped. The two keys
therefore differ exactly at the positions where that capture is pseudo-legal but illegal because
it would leave the king in check (the capturing pawn is pinned, both pawns leave a rank the king
shares with an enemy rook or queen, or it does not answer a check); everywhere else
``Position.key()`` equals the Polyglot key.
"""

from __future__ import annotations

from importlib.resources import files

NUMBERS_FILE = "polyglot.txt"


def _load() -> tuple[int, ...]:
    text = files("notation.rules").joinpath(NUMBERS_FILE).read_text(encoding="ascii")
    numbers = tuple(int(line, 16) for line in text.splitlines() if line and not line.startswith("#"))
    if len(numbers) != 781:
        raise RuntimeError(f"notation/rules/{NUMBERS_FILE}: {len(numbers)} numbers, 781 expected")
    return numbers


#: The 781 Polyglot Random64 numbers, in Polyglot's index order.
RANDOM64: tuple[int, ...] = _load()


def _piece_table() -> list[list[int]]:
    table = [[0] * 64 for _ in range(16)]  # codes 0, 7 and 8 (no piece) stay all zero
    for piece_type in range(1, 7):
        for white in (0, 1):
            kind = 2 * (piece_type - 1) + white
            table[piece_type | (8 if white else 0)] = list(RANDOM64[64 * kind : 64 * kind + 64])
    return table


#: PIECE[code][sq], code = piece_type | 8 for White (Polyglot indices 0..767).
PIECE: list[list[int]] = _piece_table()
#: White short, white long, black short, black long (Polyglot 768..771).
CASTLING: tuple[int, int, int, int] = (RANDOM64[768], RANDOM64[769], RANDOM64[770], RANDOM64[771])
#: By file a..h (Polyglot 772..779).
EP_FILE: list[int] = list(RANDOM64[772:780])
#: Xor-ed in when White is to move (Polyglot 780).
TURN: int = RANDOM64[780]

_WS, _WL, _BS, _BL = CASTLING


def castling_hash(rights: int, white_king: int, black_king: int) -> int:
    """Xor of the Polyglot castling numbers of the rights in ``rights`` (a mask of rook squares
    on the first and eighth ranks): short when the rook is on a higher file than the king of its
    colour (``white_king``/``black_king``: the kings' squares), long otherwise.

    Xor-ing it for the rights a move removes (with the kings' squares before the move) keeps an
    incremental key equal to a fresh one: a colour keeps rights only while its king has never
    left its square, so a right is short or long for its whole life.
    """
    h = 0
    while rights:
        low = rights & -rights
        sq = low.bit_length() - 1
        if sq < 8:
            h ^= _WS if sq > white_king else _WL
        else:
            h ^= _BS if sq > black_king else _BL
        rights ^= low
    return h


def castling_hash_of(rights: int, kings: int, white: int) -> int:
    """:func:`castling_hash` with the kings' squares taken from a position's bitboards:
    ``kings`` both kings, ``white`` White's pieces (those of the position *before* a move)."""
    return castling_hash(rights, (kings & white).bit_length() - 1, (kings & ~white).bit_length() - 1)
