"""Attack tables, all computed once at import.

Leapers are plain lists indexed by square. Sliders use occupancy-indexed dicts (the
python-chess scheme): ``_FILE_ATTACKS[sq][occ & _FILE_MASKS[sq]]`` etc., so a sliding attack
set is one masked dict lookup per line. ``BETWEEN[a][b]`` are the squares strictly between two
aligned squares, ``LINE[a][b]`` the whole line through both (0 when not aligned).
"""

from __future__ import annotations

from notation.rules.squares import BB_FILES, BB_RANKS, BB_SQUARES

_KNIGHT_DELTAS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
_KING_DELTAS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
_ROOK_DIRS = ((1, 0), (-1, 0), (0, 1), (0, -1))
_BISHOP_DIRS = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def _leaper(deltas: tuple[tuple[int, int], ...]) -> list[int]:
    table = []
    for sq in range(64):
        f, r = sq & 7, sq >> 3
        bb = 0
        for df, dr in deltas:
            nf, nr = f + df, r + dr
            if 0 <= nf < 8 and 0 <= nr < 8:
                bb |= 1 << (nr * 8 + nf)
        table.append(bb)
    return table


KNIGHT_ATTACKS: list[int] = _leaper(_KNIGHT_DELTAS)
KING_ATTACKS: list[int] = _leaper(_KING_DELTAS)
# PAWN_ATTACKS[colour][sq]: squares a pawn of ``colour`` on ``sq`` attacks (colour as index).
PAWN_ATTACKS: tuple[list[int], list[int]] = (_leaper(((-1, -1), (1, -1))), _leaper(((-1, 1), (1, 1))))


def _rays(df: int, dr: int) -> list[int]:
    """The squares from each square in the direction ``(df, dr)`` up to the board's edge."""
    table = []
    for sq in range(64):
        f, r = (sq & 7) + df, (sq >> 3) + dr
        bb = 0
        while 0 <= f < 8 and 0 <= r < 8:
            bb |= 1 << (r * 8 + f)
            f += df
            r += dr
        table.append(bb)
    return table


# (rays, towards higher squares): the nearest blocker is the lowest set bit, else the highest
_DIRECTIONS = {
    direction: (_rays(*direction), direction[1] > 0 or (direction[1] == 0 and direction[0] > 0))
    for direction in _ROOK_DIRS + _BISHOP_DIRS
}


def _ray_attacks(sq: int, occ: int, dirs: tuple[tuple[int, int], ...]) -> int:
    """The squares a slider on ``sq`` moving along ``dirs`` attacks with ``occ`` occupied:
    each ray up to and including its nearest occupied square."""
    bb = 0
    for direction in dirs:
        rays, up = _DIRECTIONS[direction]
        ray = rays[sq]
        blockers = occ & ray
        if blockers:
            nearest = (blockers & -blockers).bit_length() - 1 if up else blockers.bit_length() - 1
            ray ^= rays[nearest]
        bb |= ray
    return bb


def _edges(sq: int) -> int:
    return ((BB_RANKS[0] | BB_RANKS[7]) & ~BB_RANKS[sq >> 3]) | ((BB_FILES[0] | BB_FILES[7]) & ~BB_FILES[sq & 7])


def _subsets(mask: int) -> list[int]:
    out = []
    sub = 0
    while True:
        out.append(sub)
        sub = (sub - mask) & mask
        if sub == 0:
            return out


def _slider_tables(dirs: tuple[tuple[int, int], ...]) -> tuple[list[int], list[dict[int, int]]]:
    masks: list[int] = []
    tables: list[dict[int, int]] = []
    for sq in range(64):
        mask = _ray_attacks(sq, 0, dirs) & ~_edges(sq)
        masks.append(mask)
        tables.append({sub: _ray_attacks(sq, sub, dirs) for sub in _subsets(mask)})
    return masks, tables


DIAG_MASKS, _DIAG_ATTACKS = _slider_tables(_BISHOP_DIRS)
FILE_MASKS, _FILE_ATTACKS = _slider_tables(((0, 1), (0, -1)))
RANK_MASKS, _RANK_ATTACKS = _slider_tables(((1, 0), (-1, 0)))

BISHOP_EMPTY: list[int] = [_ray_attacks(sq, 0, _BISHOP_DIRS) for sq in range(64)]
ROOK_EMPTY: list[int] = [_ray_attacks(sq, 0, _ROOK_DIRS) for sq in range(64)]


def bishop_attacks(sq: int, occ: int) -> int:
    return _DIAG_ATTACKS[sq][occ & DIAG_MASKS[sq]]


def rook_attacks(sq: int, occ: int) -> int:
    return _RANK_ATTACKS[sq][occ & RANK_MASKS[sq]] | _FILE_ATTACKS[sq][occ & FILE_MASKS[sq]]


def queen_attacks(sq: int, occ: int) -> int:
    return (
        _DIAG_ATTACKS[sq][occ & DIAG_MASKS[sq]]
        | _RANK_ATTACKS[sq][occ & RANK_MASKS[sq]]
        | _FILE_ATTACKS[sq][occ & FILE_MASKS[sq]]
    )


def _line_tables() -> tuple[list[list[int]], list[list[int]]]:
    between = [[0] * 64 for _ in range(64)]
    line = [[0] * 64 for _ in range(64)]
    for dirs, empty in ((_ROOK_DIRS, ROOK_EMPTY), (_BISHOP_DIRS, BISHOP_EMPTY)):
        for a in range(64):
            rays = empty[a]
            for df, dr in dirs:  # each square b along the ray: the squares passed on the way
                f, r, passed = (a & 7) + df, (a >> 3) + dr, 0
                while 0 <= f < 8 and 0 <= r < 8:
                    b = r * 8 + f
                    between[a][b] = passed
                    line[a][b] = (rays & empty[b]) | BB_SQUARES[a] | BB_SQUARES[b]
                    passed |= BB_SQUARES[b]
                    f += df
                    r += dr
    return between, line


BETWEEN, LINE = _line_tables()


def piece_attacks(piece_type: int, sq: int, occ: int, colour: bool = True) -> int:
    """Squares attacked by a piece of ``piece_type`` (and ``colour`` for pawns) on ``sq``."""
    if piece_type == 1:
        return PAWN_ATTACKS[colour][sq]
    if piece_type == 2:
        return KNIGHT_ATTACKS[sq]
    if piece_type == 3:
        return bishop_attacks(sq, occ)
    if piece_type == 4:
        return rook_attacks(sq, occ)
    if piece_type == 5:
        return queen_attacks(sq, occ)
    return KING_ATTACKS[sq]
