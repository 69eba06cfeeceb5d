"""Learning the scoresheet channel's costs from real sheets whose games are known.

Each sheet is aligned with its game (:func:`notation.scoresheet.decoder.read_copies` with the
game's moves forced: which box holds which move, which boxes are extra, which moves have no
box), and every box is explained by the channel's cheapest reading of it as its move. The named
parts of those explanations are counted, each against the number of boxes where it could have
happened (a wrong file against the boxes of moves to that file, a missing disambiguation against
the moves that need one ...), and each cost becomes the negative log of its smoothed frequency.
Two rounds: the second aligns with the costs the first learned.

:func:`load_hcs` reads the HCS corpus (real handwritten sheets box by box, CC BY 3.0; see
``channel_costs.json`` for the attribution); ``python -m notation.cli.build_sheet_costs``
writes the table the package ships.
"""

from __future__ import annotations

import csv
import math
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from notation.scoresheet import channel
from notation.scoresheet.channel import (
    MoveFacts,
    box_readings,
    check_cost,
    core_board,
    move_facts,
    position_moves,
    written_cost,
)
from notation.scoresheet.tokens import PAWN

if TYPE_CHECKING:  # pragma: no cover
    from notation.rules.move import Move
    from notation.formats.position import Position

#: The lowest cost of reading a box as a move it does not spell (the channel's floor).
FLOOR = 9.0
#: How many chances (boxes, moves of a kind ...) at the channel's default rate each learned
#: rate starts from: a part seen rarely keeps near its default rather than the few sheets' rate.
PRIOR = 0.0

_BOX = re.compile(r"^(\d+)_(\d+)_(\d+)_(white|black)\.png$")


@dataclass(frozen=True, slots=True)
class HcsCopy:
    """One copy of a game's sheet: what was written in each box, in ply order (``?`` blank)."""

    game: str
    copy: int
    boxes: tuple[str, ...]

    def text(self) -> str:
        """The copy as a numbered move list, as a club would type it."""
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
    """Every game of the HCS folder ``root`` (``training_tags.txt``, ``answers.tsv``)."""
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
        games.setdefault(game, []).append(HcsCopy(game, copy, tuple(boxes.get(p, "?") for p in range(last + 1))))
    out = []
    for game, copies in sorted(games.items()):
        answer, corroborated = answers.get(game, (None, False))
        out.append(HcsGame(game, tuple(copies), answer, corroborated))
    return out


class _Counts:
    def __init__(self) -> None:
        self.events: dict[str, float] = {}
        self.chances: Counter[str] = Counter()

    def event(self, name: str, weight: float = 1.0) -> None:
        self.events[name] = self.events.get(name, 0.0) + weight

    def chance(self, *names: str) -> None:
        for name in names:
            self.chances[name] += 1


def _chances(counts: _Counts, f: MoveFacts, check: int) -> None:
    """Count where each part could have happened for a box of move ``f``."""
    c = counts.chance
    c("box", f"file.{'abcdefgh'[f.to_square % 8]}", f"rank.{f.to_square // 8 + 1}")
    if f.castle is not None:
        c("castle")
        return
    if f.piece == PAWN:
        c("pawn")
        c("pawn.capture" if f.taken is not None else "pawn.push")
    else:
        c("piece", f"piece.{'PNBRQK'[f.piece - 1]}")
        c("disambiguation" if f.needs_file or f.needs_rank else "no.disambiguation")
        c("piece.capture" if f.taken is not None else "piece.push")
    if f.taken is not None:
        c("capture")
    else:
        c("no.capture")
    if f.promotion is not None:
        c("promotion")
    else:
        c("no.promotion")
    c("check" if check == 1 else "mate" if check == 2 else "no.check")


#: Which chances each part is counted against.
_AGAINST: dict[str, str] = {
    "piece.dropped": "piece",
    "piece.wrong": "piece",
    "piece.on_pawn": "pawn",
    "piece.foreign": "box",
    "piece.lowercase": "piece",
    "piece.lower_b": "piece",
    "square.both": "box",
    "origin.missing": "disambiguation",
    "origin.extra": "no.disambiguation",
    "origin.wrong": "box",
    "origin.square": "box",
    "pawn.no_file": "pawn.capture",
    "pawn.files_only": "pawn.capture",
    "target.file_only": "piece",
    "target.rank_only": "box",
    "taken": "capture",
    "taken.square": "capture",
    "taken.wrong": "capture",
    "capture.missing": "piece.capture",
    "capture.missing_pawn": "pawn.capture",
    "capture.extra": "no.capture",
    "check.missing": "check",
    "check.extra": "no.check",
    "mate.missing": "mate",
    "mate.extra": "check",
    "promotion.missing": "promotion",
    "promotion.wrong": "promotion",
    "promotion.extra": "no.promotion",
    "castle.side": "castle",
    "castle.as_king": "castle",
    "coordinates": "box",
    "char.delete": "box",
    "char.insert": "box",
    "char.replace": "box",
    "box.blank": "box",
    "box.unreadable": "box",
    "edit.omitted": "box",
    "edit.extra": "box",
    "edit.transposed": "box",
    "edit.swapped": "box",
}


def _explain(counts: _Counts, pos: Position, move: Move, op: object) -> None:
    from notation.scoresheet.lattice import EXTRA_MATCH, MATCH, OMIT, SWAP, TRANSPOSE, CopyOp

    assert isinstance(op, CopyOp)
    if op.kind == OMIT:
        counts.event("edit.omitted")
        return
    if op.kind not in (MATCH, EXTRA_MATCH, SWAP, TRANSPOSE):
        return
    if op.kind == EXTRA_MATCH:
        counts.event("edit.extra")
    if op.kind == TRANSPOSE and op.box is not None:
        counts.event("edit.transposed", 1 / 3)  # the three boxes of one transposition
    if op.kind == SWAP:
        counts.event("edit.swapped", 0.5)
    moves = pos.legal_moves()
    f = move_facts(pos, moves)[moves.index(move)]
    after = pos.play(move)
    check = 0 if not after.is_check() else (2 if not after.has_legal_moves() else 1)
    _chances(counts, f, check)
    if op.reading is None:
        counts.event("box.blank" if op.cost == channel.cost("box.blank") else "box.unreadable")
        return
    parts: list[str] = []
    written_cost(op.reading.written, f, parts)
    if op.reading.what:
        what = op.reading.what
        parts.append("char.delete" if "dropped" in what else "char.insert" if "added" in what else "char.replace")
    mark = check_cost(op.reading.written, check)
    if mark:
        w = op.reading.written
        if check == 0:
            parts.append("check.extra")
        elif check == 1:
            parts.append("mate.extra" if w.check == "#" else "check.missing")
        else:
            parts.append("mate.missing")
    for part in parts:
        counts.event(part)


def _align(
    copies: list[list[str]], answer: tuple[str, ...], lang: str
) -> list[tuple[Position, Move, tuple[object, ...]]]:
    from notation.formats.position import Position
    from notation.scoresheet.decoder import read_copies
    from notation.scoresheet.lattice import Box

    pos = Position.initial()
    moves: list[Move] = []
    positions: list[Position] = []
    for san in answer:
        move, after = pos.play_san(san)
        positions.append(pos)
        moves.append(move)
        pos = after
    boxes = [[Box(text, blank=text == "?") for text in copy] for copy in copies]
    lattice = read_copies(boxes, Position.initial(), lang, forced=moves)
    if not lattice.readings:
        return []
    best = lattice.readings[0]
    return [(positions[k], best.moves[k], best.ops[k]) for k in range(len(best.moves))]


def learn_costs(
    sheets: list[tuple[list[str], tuple[str, ...]]], lang: str = "en", rounds: int = 2, prior: float | None = None
) -> dict[str, float]:
    """The channel's costs learned from ``sheets`` (each: the boxes of one copy, the game's
    SAN moves). Puts each round's figures in force as it goes (the table in force before is
    put back on return) and returns the last round's.

    The first round aligns with the channel's :data:`~notation.scoresheet.channel.DEFAULTS`,
    not with the table in force, and each round with the costs of the round before (the
    readings of the boxes' texts, which carry the costs of their character edits, read again):
    the figures depend on the sheets and the code alone. (Aligned with the table the package
    ships, two rounds do not give that table back: ``char.delete`` at 7.622 finds no box read
    through a dropped character, and the next table, with no figure for it, falls back to 5.0,
    which finds them again.)"""
    learned: dict[str, float] = {}
    before = dict(channel.COSTS)
    try:
        _use(dict(channel.DEFAULTS))
        for _ in range(rounds):
            counts = _Counts()
            for boxes, answer in sheets:
                for pos, move, ops in _align([list(boxes)], answer, lang):
                    for op in ops:
                        _explain(counts, pos, move, op)
            learned = _costs_from(counts, PRIOR if prior is None else prior)
            learned["prior.leave"] = _book_leave([answer for _, answer in sheets])
            learned.update(move_prior([answer for _, answer in sheets]))
            _use({**channel.DEFAULTS, **learned})
    finally:
        _use(before)
    return learned


def _use(costs: dict[str, float]) -> None:
    """Put ``costs`` in force for the readings that follow (the cached readings of box texts,
    priced with the costs before, dropped)."""
    channel.COSTS.clear()
    channel.COSTS.update(costs)
    box_readings.cache_clear()


def move_prior(games: list[tuple[str, ...]]) -> dict[str, float]:
    """``prior.move.*``: per class of :func:`notation.scoresheet.plausibility.move_class`, the
    negative log of how much likelier a played move is of that class than a legal move at random
    (each distinct game counted once; smoothed by half a move)."""
    from notation.formats.position import Position
    from notation.scoresheet.plausibility import CLASSES, move_class

    played: Counter[str] = Counter()
    legal: Counter[str] = Counter()
    for answer in sorted(set(games)):
        pos = Position.initial()
        board = core_board(pos)
        last: int | None = None
        for san in answer:
            move, after = pos.play_san(san)
            found = position_moves(board)
            for other, gives in zip(found.moves, found.gives):
                kind = move_class(gives, last)
                legal[kind] += 1
                if other == move:
                    played[kind] += 1
            last = found.gives[found.moves.index(move)][1]
            board = board.play(*move)
            pos = after
    n_played, n_legal = sum(played.values()), sum(legal.values())
    out: dict[str, float] = {}
    for kind in CLASSES:
        if legal[kind]:
            ratio = ((played[kind] + 0.5) / (n_played + 0.5 * len(CLASSES))) / (legal[kind] / n_legal)
            out["prior.move." + kind] = round(-math.log(ratio), 3)
    return out


def _book_leave(games: list[tuple[str, ...]]) -> float:
    """``prior.leave``: how often a move played from a position of the opening table leaves it
    (negative log of the share, over the first plies of ``games``)."""
    from notation.formats.position import Position
    from notation.scoresheet.book import BOOK_PLIES, book_counts

    known = book_counts()
    stay = leave = 0
    for answer in set(games):
        pos = Position.initial()
        for depth, san in enumerate(answer[:BOOK_PLIES]):
            _, after = pos.play_san(san)
            if depth == 0 or pos.key() in known:
                if after.key() in known:
                    stay += 1
                else:
                    leave += 1
            pos = after
    return round(-math.log((leave + 0.5) / (stay + leave + 1.0)), 3)


def _costs_from(counts: _Counts, prior: float = 0.0) -> dict[str, float]:
    """The costs from ``counts``: each part's rate, shrunk toward the channel's default by
    ``prior`` chances at the default's rate (see :data:`PRIOR`)."""
    out: dict[str, float] = {}
    events, chances = counts.events, counts.chances
    general: dict[str, float] = {}
    for part, count in events.items():
        base = part.split(".")
        name = ".".join(base[:2])
        if name in ("file.wrong", "rank.wrong", "piece.wrong"):
            continue
        against = chances.get(_AGAINST.get(name, "box"), 0) or chances["box"]
        # a box read as no move it spells: any of the legal moves (about 30) may be meant
        spread = math.log(30.0) if name == "box.unreadable" else 0.0
        default = math.exp(-(channel.DEFAULTS[name] - spread)) if name in channel.DEFAULTS else 0.0
        rate = (count + 0.5 + prior * default) / (against + 1.0 + prior)
        if name == "box.unreadable":
            out[name] = round(max(-math.log(rate) + spread, FLOOR), 3)
        else:
            out[name] = round(-math.log(rate), 3)
    # wrong file, rank, piece: the general figure per other character, and per pair
    for name, kinds, letters in (
        ("file.wrong", "file", "abcdefgh"),
        ("rank.wrong", "rank", "12345678"),
        ("piece.wrong", "piece", "PNBRQK"),
    ):
        pairs = {p: n for p, n in events.items() if p.startswith(name + ".")}
        total = sum(pairs.values())
        against = sum(chances.get(f"{kinds}.{c}", 0) for c in letters) or chances["box"]
        default = math.exp(-channel.DEFAULTS[name]) * (len(letters) - 1)
        per_pair = (total + 0.5 + prior * default) / (against + 1.0 + prior) / (len(letters) - 1)
        general[name] = per_pair
        out[name] = round(-math.log(per_pair), 3)
        for pair, n in pairs.items():
            actual = pair[-1]
            seen = chances.get(f"{kinds}.{actual}", 0) or against / len(letters)
            p = (n + per_pair * 5.0) / (seen + 5.0)
            out[pair] = round(-math.log(p), 3)
    return out


__all__ = ["HcsCopy", "HcsGame", "learn_costs", "load_hcs"]
