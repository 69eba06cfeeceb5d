"""The shared HCS scoresheets (real handwritten sheets, box by box) as typed move lists.

``../shared/corpus/scoresheets/hcs/training_tags.txt`` holds one line per box
(``GGG_P_N_colour.png LABEL``); a box with no line was blank or unreadable. Each copy ``P`` of a
game becomes a numbered move list as a club would type it, ``?`` for a blank box, up to the
copy's last written box. ``answers.tsv`` gives the game each sheet records (for 80 games).
Used by the CI test at a fixed sample and by ``benchmarks/bench_scoresheet_hcs.py``.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from pathlib import Path

_BOX = re.compile(r"^(\d+)_(\d+)_(\d+)_(white|black)\.png$")


@dataclass(frozen=True, slots=True)
class HcsCopy:
    game: str
    copy: int
    boxes: tuple[str, ...]  # what was written, in ply order ("?" for a blank box)

    def text(self) -> str:
        parts: list[str] = []
        for ply, box in enumerate(self.boxes):
            if ply % 2 == 0:
                parts.append(f"{ply // 2 + 1}.")
            parts.append(box)
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class HcsGame:
    game: str
    copies: tuple[HcsCopy, ...]
    answer: tuple[str, ...] | None
    corroborated: bool


def load_hcs(root: Path) -> list[HcsGame]:
    """Every HCS game under ``root`` (the ``hcs`` folder), in game order."""
    labels: dict[tuple[str, int], dict[int, str]] = {}
    for line in (root / "training_tags.txt").read_text(encoding="utf-8").splitlines():
        name, _, label = line.partition(" ")
        found = _BOX.match(name.strip())
        if not found or not label.strip():
            continue
        game, copy, number, colour = found.groups()
        ply = (int(number) - 1) * 2 + (0 if colour == "white" else 1)
        labels.setdefault((game, int(copy)), {})[ply] = label.strip()
    answers: dict[str, tuple[tuple[str, ...], bool]] = {}
    with (root / "answers.tsv").open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            answers[row["game"]] = (tuple(row["san"].split()), row["corroborated"] == "yes")
    games: dict[str, list[HcsCopy]] = {}
    for (game, copy), boxes in sorted(labels.items()):
        last = max(boxes)
        games.setdefault(game, []).append(
            HcsCopy(game, copy, tuple(boxes.get(ply, "?") for ply in range(last + 1))))
    out = []
    for game, copies in sorted(games.items()):
        answer, corroborated = answers.get(game, (None, False))
        out.append(HcsGame(game, tuple(copies), answer, corroborated))
    return out


def expected(answer: tuple[str, ...], copy: HcsCopy) -> tuple[str, ...]:
    """The answer as far as ``copy`` goes (its number of boxes, at most the whole game)."""
    return answer[: len(copy.boxes)]


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
