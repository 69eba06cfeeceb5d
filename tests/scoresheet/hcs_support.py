"""The shared HCS scoresheets (real handwritten sheets, box by box) as typed move lists.

``../shared/corpus/scoresheets/hcs/training_tags.txt`` holds one line per box
(``GGG_P_N_colour.png LABEL``); a box with no line was blank or unreadable. Each copy ``P`` of a
game becomes a numbered move list as a club would type it, ``?`` for a blank box, up to the
copy's last written box. ``answers.tsv`` gives the game each sheet records (for 80 games).
Used by the CI test at a fixed sample and by ``benchmarks/bench_scoresheet_hcs.py``.
"""

from __future__ import annotations

from notation.scoresheet.learn import HcsCopy, HcsGame, load_hcs

__all__ = ["HcsCopy", "HcsGame", "load_hcs", "score_reading"]


def score_reading(reading: tuple[str, ...], answer: tuple[str, ...], boxes: tuple[str, ...]) -> tuple[bool, int, int]:
    """(exact, plies right, plies counted) of ``reading`` against ``answer`` for a sheet of
    ``boxes``: exact when the reading is the answer as far as the sheet goes (a prefix of the
    answer at least as long as the boxes, one box of slack for an extra or missing last box);
    plies are compared position by position up to the longer of the sheet and the reading (at
    most the whole game)."""
    exact = reading == answer[: len(reading)] and len(reading) >= min(len(answer), len(boxes) - 1)
    counted = min(len(answer), max(len(boxes), len(reading)))
    right = sum(1 for k in range(min(counted, len(reading))) if reading[k] == answer[k])
    return exact, right, counted
