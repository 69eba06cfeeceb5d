"""Zobrist numbers for the 64-bit repetition key (FIDE 10.10 "same position").

The key covers the pieces on their squares, the side to move, the castling rights (one number
per rook square that keeps a right) and the en passant file, the last **only when an en passant
capture is legal** (``Position.key`` decides that). Numbers come from a fixed-seed generator so
keys are stable across runs and processes.
"""

from __future__ import annotations

import random

_rng = random.Random(0x5EED_C0DE_2026)


def _rand() -> int:
    return _rng.getrandbits(64)


# PIECE[code][sq], code = piece_type | 8 for White (index 0 and 7 unused).
PIECE: list[list[int]] = [[_rand() for _ in range(64)] for _ in range(16)]
TURN: int = _rand()  # xor-ed in when White is to move
CASTLING: list[int] = [_rand() for _ in range(64)]  # by rook square
EP_FILE: list[int] = [_rand() for _ in range(8)]


def castling_hash(rights: int) -> int:
    """Xor of the castling numbers of every rook square in ``rights``."""
    h = 0
    while rights:
        low = rights & -rights
        h ^= CASTLING[low.bit_length() - 1]
        rights ^= low
    return h
