"""The attack tables (built at import from rays and their nearest blockers) hold what walking
the board square by square gives, for every square and every occupancy the tables index."""

from __future__ import annotations

from notation.rules import attacks

_ROOK = ((1, 0), (-1, 0), (0, 1), (0, -1))
_BISHOP = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def _walk(sq: int, occ: int, dirs: tuple[tuple[int, int], ...]) -> int:
    bb = 0
    for df, dr in dirs:
        f, r = (sq & 7) + df, (sq >> 3) + dr
        while 0 <= f < 8 and 0 <= r < 8:
            bb |= 1 << (r * 8 + f)
            if occ >> (r * 8 + f) & 1:
                break
            f, r = f + df, r + dr
    return bb


def test_slider_tables_hold_the_walked_attacks_of_every_occupancy() -> None:
    for masks, tables, dirs in (
        (attacks.DIAG_MASKS, attacks._DIAG_ATTACKS, _BISHOP),
        (attacks.FILE_MASKS, attacks._FILE_ATTACKS, ((0, 1), (0, -1))),
        (attacks.RANK_MASKS, attacks._RANK_ATTACKS, ((1, 0), (-1, 0))),
    ):
        for sq in range(64):
            assert len(tables[sq]) == 1 << bin(masks[sq]).count("1")
            for occ, found in tables[sq].items():
                assert occ & ~masks[sq] == 0
                assert found == _walk(sq, occ, dirs), (sq, occ)
        assert [_walk(sq, 0, dirs) for sq in range(64)] == [tables[sq][0] for sq in range(64)]
    assert attacks.BISHOP_EMPTY == [_walk(sq, 0, _BISHOP) for sq in range(64)]
    assert attacks.ROOK_EMPTY == [_walk(sq, 0, _ROOK) for sq in range(64)]


def test_between_and_line_hold_the_walked_squares() -> None:
    for a in range(64):
        for b in range(64):
            bit_a, bit_b = 1 << a, 1 << b
            aligned = [d for d in _ROOK + _BISHOP if _walk(a, bit_b, (d,)) & bit_b]
            if a == b or not aligned:
                assert attacks.BETWEEN[a][b] == 0 and attacks.LINE[a][b] == 0, (a, b)
                continue
            (d,) = aligned
            assert attacks.BETWEEN[a][b] == _walk(a, bit_b, (d,)) & ~bit_b, (a, b)
            back = (-d[0], -d[1])
            assert attacks.LINE[a][b] == _walk(a, 0, (d, back)) | bit_a, (a, b)
