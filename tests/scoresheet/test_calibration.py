"""The cap on a move's confidence where one copy alone speaks for it (notation.scoresheet.calibration)."""

from __future__ import annotations

from notation.scoresheet.calibration import CAPS, caps, read_as
from notation.scoresheet.lattice import DONE, MATCH, OMIT, CopyOp
from notation.scoresheet.reader import read_sheets, reconstruct

BLANK = 4.4


def op(cost: float, kind: str = MATCH, blank: bool = False) -> CopyOp:
    return CopyOp(kind, None if kind in (OMIT, DONE) else 0, None, cost, None if blank else object())  # type: ignore[arg-type]


def never(_: CopyOp) -> bool:
    return False


def test_boxes_read_as_written_are_not_capped() -> None:
    read = [read_as((op(0.0),), BLANK, never) for _ in range(9)]
    assert read[0] == ("written", 1)
    assert caps(read) == [1.0] * 9


def test_a_corrected_box_alone_is_capped_below_the_flag() -> None:
    read = [read_as((op(6.0 if k == 4 else 0.0),), BLANK, never) for k in range(9)]
    assert read[4] == ("corrected", 1)
    limits = caps(read)
    assert limits[4] == CAPS["corrected"][0] < 0.99
    # one doubtful neighbour caps a written box just under the flag (98% right on sheets held out)
    assert [limits[k] for k in range(9) if k != 4] == [1.0] + [CAPS["written"][1]] * 6 + [1.0]
    assert CAPS["written"][1] < 0.99


def test_doubtful_neighbours_cap_a_box_read_as_written() -> None:
    costs = [0.0, 6.0, 6.0, 0.0, 6.0, 0.0, 0.0]  # ply 3 has three corrected neighbours within three plies
    read = [read_as((op(c),), BLANK, never) for c in costs]
    assert caps(read)[3] == CAPS["written"][3] < 0.99


def test_a_blank_box_or_no_box_is_no_witness() -> None:
    assert read_as((op(BLANK, blank=True),), BLANK, never) == ("blank", 0)
    assert read_as((op(6.7, kind=OMIT),), BLANK, never) == ("blank", 0)


def test_a_second_copy_lifts_the_cap() -> None:
    read = [read_as((op(6.0), op(6.0)), BLANK, never)]
    assert read == [("corrected", 2)] and caps(read) == [1.0]


def test_notation_habits_read_as_written() -> None:
    assert read_as((op(3.0),), BLANK, lambda _: True) == ("written", 1)
    assert read_as((op(3.0),), BLANK, never) == ("close", 1)


def test_a_settled_ply_is_neither_capped_nor_a_doubtful_neighbour() -> None:
    costs = [0.0, 6.0, 6.0, 0.0, 6.0, 0.0, 0.0]
    read = [read_as((op(c),), BLANK, never) for c in costs]
    limits = caps(read, frozenset({1, 2, 4}))
    assert limits == [1.0] * 7


OPERA = (
    "e4 e5 Nf3 d6 d4 Bg4 dxe5 Bxf3 Qxf3 dxe5 Bc4 Nf6 Qb3 Qe7 Nc3 c6 Bg5 b5 Nxb5 cxb5 Bxb5+ Nbd7 "
    "O-O-O Rd8 Rxd7 Rxd7 Rd1 Qe6 Bxd7+ Nxd7 Qb8+ Nxb8 Rd8#"
).split()


def _sheet(tokens: list[str]) -> str:
    return " ".join(f"{k // 2 + 1}. {t}" if k % 2 == 0 else t for k, t in enumerate(tokens))


def test_a_slip_on_one_copy_is_flagged_and_settled_by_the_other_copy() -> None:
    slipped = list(OPERA)
    slipped[14] = "Bc3"  # 8. Nc3 written with the wrong piece letter
    alone = reconstruct(_sheet(slipped))
    assert alone.sans == OPERA and alone.needs_human
    # the slip and the moves read as written beside it (and 10. Nxb5, from c3 or a3)
    assert 15 in {m.ply for m in alone.flagged} and all(m.confidence < 0.99 for m in alone.flagged)
    together = read_sheets([_sheet(slipped), _sheet(OPERA)])
    assert together.sans == OPERA and not together.needs_human


def test_a_reviewer_pin_settles_the_flagged_move() -> None:
    slipped = list(OPERA)
    slipped[14] = "Bc3"
    rec = reconstruct(_sheet(slipped), pins=["8.Nc3"])
    assert rec.sans == OPERA and not rec.needs_human and rec.per_move[14].confidence == 1.0


def test_what_a_reviewer_settled_is_not_held_against_the_cost_cap() -> None:
    slipped = list(OPERA)
    slipped[14] = "Bc3"
    cap = reconstruct(_sheet(slipped)).cost - 1.0  # the slip's box alone puts the reading over this cap
    assert any("above the cap" in d.message for d in reconstruct(_sheet(slipped), max_cost=cap).diagnostics)
    rec = reconstruct(_sheet(slipped), max_cost=cap, pins=["8.Nc3"])
    assert rec.sans == OPERA and rec.status == "corrected", [d.message for d in rec.diagnostics]
