"""The verdict on a scoresheet reading: :class:`Reconstruction`, one frozen value.

Confidence has one meaning everywhere: the **posterior probability** the reading's lattice gives
(:mod:`notation.scoresheet.sums`), of one move (:class:`MoveConfidence`, and each
:class:`Correction` at its ply) or of the whole reading (:attr:`Reconstruction.confidence`). A
move below :data:`FLAG` is flagged for a human; a reading with a flagged move, or dearer than the
cap on its cost, needs a human (exit 1), and the words say so: a flagged move is never worded as
settled. (The whole reading's probability is reported too; it falls with the length of the game,
each box adding its small chance of a slip, so it does not decide alone.)

:func:`verdict` builds the value from the decoder's lattice: the corrections (which copy each
concerns), the view of every box of every copy (what was written, what was read, how sure), the
readings found and the diagnostics. The JSON shape (:meth:`Reconstruction.to_dict`) is one, for
one copy or several.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from notation.diagnostics import Diagnostic
from notation.scoresheet.channel import cost, is_slip, move_facts, written_cost
from notation.scoresheet.lattice import OMIT, SWAP, TRANSPOSE, Box, Choice, CopyOp, Lattice

if TYPE_CHECKING:  # pragma: no cover
    from notation.formats.position import Position
    from notation.pgn.model import Game
    from notation.rules.move import Move

#: A move, or a whole reading, is settled at this probability or more; below it a human looks.
FLAG = 0.99
#: Two moves (or readings) whose probabilities differ by less than this are worded as equally
#: likely: the sheet and the priors cannot tell them apart, and the one listed first is no better.
TIE = 0.005

_REASONS = {
    "piece.dropped": "piece letter missing",
    "piece.wrong": "wrong piece letter",
    "piece.on_pawn": "piece letter on a pawn move",
    "piece.foreign": "no piece letter here",
    "piece.lower_b": "lower-case b read as the bishop",
    "file.wrong": "wrong file",
    "rank.wrong": "wrong rank",
    "square.both": "file and rank both wrong",
    "origin.wrong": "origin square disagrees",
    "pawn.no_file": "pawn capture written as a push",
    "taken.wrong": "another piece named as taken",
    "capture.extra": "capture mark on a non-capture",
    "promotion.wrong": "another promotion piece",
    "promotion.extra": "promotion on a move that does not promote",
    "castle.side": "castling to the other side",
}


@dataclass(frozen=True, slots=True)
class Edit:
    """One place where a reading departs from the literal sheet (see :attr:`Correction.kind`)."""

    kind: str
    ply: int | None
    written: str | None
    chosen: str | None
    reasons: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "ply": self.ply,
            "written": self.written,
            "chosen": self.chosen,
            "reasons": list(self.reasons),
        }


@dataclass(frozen=True, slots=True)
class Reading:
    """One complete legal reading of the sheet: its moves, what its boxes cost, its probability
    and its edits."""

    moves: tuple[Move, ...]
    sans: tuple[str, ...]
    cost: float
    probability: float = 1.0
    edits: tuple[Edit, ...] = ()

    def to_dict(self, rank: int) -> dict[str, Any]:
        return {
            "rank": rank,
            "moves": list(self.sans),
            "cost": round(self.cost, 3),
            "probability": round(self.probability, 4),
            "corrections": [e.to_dict() for e in self.edits],
        }


@dataclass(frozen=True, slots=True)
class MoveConfidence:
    """The probability that ply ``ply`` of the reading (``san``) is right, and, where it is
    flagged, the moves weighed there (likeliest first)."""

    ply: int
    san: str
    confidence: float
    choices: tuple[Choice, ...] = ()

    @property
    def flagged(self) -> bool:
        return self.confidence < FLAG

    def to_dict(self) -> dict[str, Any]:
        return {
            "ply": self.ply,
            "san": self.san,
            "confidence": self.confidence,
            "choices": [{"move": c.san, "probability": c.probability} for c in self.choices],
        }


@dataclass(frozen=True, slots=True)
class BoxView:
    """One box as the reading used it: what was written, the move read from it (None: the box
    is no move of the game), at which ply, and how sure (the move's probability)."""

    copy: int
    box: int
    written: str
    read: str | None
    ply: int | None
    confidence: float
    line: int | None = None
    column: int | None = None
    kind: str = "read"  # read, corrected, ambiguous, blank, unreadable, extra, transposed, after-end

    def to_dict(self) -> dict[str, Any]:
        return {
            "copy": self.copy,
            "box": self.box,
            "written": self.written,
            "read": self.read,
            "ply": self.ply,
            "confidence": round(self.confidence, 3),
            "kind": self.kind,
            "line": self.line,
            "column": self.column,
        }


@dataclass(frozen=True, slots=True)
class Correction:
    """One place where the game differs from a literal reading of the sheet.

    ``kind``: ``correction`` (a written move read as a different legal move), ``ambiguous`` (a
    written move that fits several legal moves), ``omitted`` (a move missing from the sheet,
    inserted), ``extra`` (a box dropped), ``transposed`` (boxes played in swapped order),
    ``unreadable`` (a box that is no move in any notation, read as a legal move), ``blank`` (a
    box left empty). ``reasons`` name the slips (``wrong piece letter`` ...). ``alternatives``
    are the other moves weighed at that ply, likeliest first, and ``tied`` those of them as likely
    as the move chosen (within :data:`TIE`); ``confidence`` is the probability of the move chosen.
    """

    kind: str
    ply: int | None
    written: str | None
    chosen: str | None
    alternatives: tuple[str, ...] = ()
    confidence: float = 1.0
    reasons: tuple[str, ...] = ()
    line: int | None = None
    column: int | None = None
    tied: tuple[str, ...] = ()

    @property
    def confident(self) -> bool:
        return self.confidence >= FLAG

    def message(self) -> str:
        """A one-line human description (lower case, written text quoted); a move below
        :data:`FLAG` is worded as a guess, never as settled."""
        written = f"'{self.written}'" if self.written is not None else "nothing"
        sure = self.confident
        chosen = self.chosen
        if self.kind == "omitted":
            text = f"move missing from the sheet: inserted {chosen}"
        elif self.kind == "extra":
            text = f"written {written} is no move of the game: dropped"
        elif self.kind == "ambiguous":
            text = (
                f"written {written} fits several moves: {self.chosen} is the one the rest of the game needs"
                if sure
                else f"written {written} fits several moves: {chosen}"
            )
        elif self.kind == "transposed":
            text = f"written {written} in the wrong order: played {chosen}"
        elif self.kind == "unreadable":
            text = f"written {written} is unreadable: read as {chosen}"
        elif self.kind == "blank":
            text = f"box left blank: read as {chosen}"
        else:
            text = f"written {written} read as {chosen}"
        if self.reasons:
            text += f" ({', '.join(self.reasons)})"
        if sure:
            return f"{text}; confidence {self.confidence:.2f}"
        if self.tied:
            text += f", or {' or '.join(self.tied)}, equally likely: the sheet cannot tell them apart"
            others = [a for a in self.alternatives if a not in self.tied]
            if others:
                text += f" (less likely: {' or '.join(others)})"
        elif self.alternatives:
            text += f", or {' or '.join(self.alternatives)}"
        return f"perhaps: {text}; confidence only {self.confidence:.2f}"

    def to_diagnostic(self) -> Diagnostic:
        code = "sheet.unreadable" if self.kind == "unreadable" else "sheet.correction"
        severity = None if self.confident else "error"
        return Diagnostic.make(
            code,
            self.message(),
            severity=severity,
            line=self.line,
            column=self.column,
            ply=self.ply,
            san=self.written,
            candidates=(self.chosen,) + self.alternatives if self.chosen else self.alternatives,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "ply": self.ply,
            "written": self.written,
            "chosen": self.chosen,
            "alternatives": list(self.alternatives),
            "confidence": self.confidence,
            "reasons": list(self.reasons),
            "line": self.line,
            "column": self.column,
            "tied": list(self.tied),
        }


@dataclass(frozen=True, slots=True)
class Reconstruction:
    """The verdict on a scoresheet (one copy or several copies of one game).

    ``status``: ``ok`` (read as written), ``corrected`` (settled, with corrections),
    ``needs-human`` (the best reading is given; a human must look at its flagged moves).
    ``sans``/``moves`` are the best reading; ``written`` the box behind each ply (copy 1; None
    for an inserted move); ``confidence`` the probability of the whole reading; ``per_move`` each
    move's; ``boxes`` every box of every copy as read; ``readings`` the readings found, likeliest
    first; ``pins`` the moves a reviewer settled (ply, SAN).
    """

    status: str
    sans: list[str] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    written: list[str | None] = field(default_factory=list)
    start_fen: str | None = None
    tags: dict[str, str] = field(default_factory=dict)
    result: str = "*"
    corrections: list[Correction] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    cost: float = 0.0
    language: str = "en"
    layout: str = "numbered"
    readings: list[Reading] = field(default_factory=list)
    start_ply: int = 0  # plies before the first move (fullmove number and turn of the start)
    chess960: bool = False  # castling by Chess960 rules (a PGN game with a Chess960 [Variant])
    boxes: list[BoxView] = field(default_factory=list)
    per_move: list[MoveConfidence] = field(default_factory=list)
    confidence: float = 1.0
    copies: int = 1
    pins: tuple[tuple[int, str], ...] = ()

    @property
    def needs_human(self) -> bool:
        return self.status == "needs-human"

    @property
    def flagged(self) -> list[MoveConfidence]:
        """The moves below :data:`FLAG`, in game order."""
        return [m for m in self.per_move if m.flagged]

    def start_position(self) -> Position:
        from notation.formats.fen import STARTING_FEN
        from notation.formats.position import Position

        if self.chess960:
            return Position.from_fen(self.start_fen or STARTING_FEN, chess960=True)
        return Position.from_fen(self.start_fen) if self.start_fen else Position.initial()

    def position_after(self, ply: int) -> Position:
        """The position after ``ply`` plies of the reading (0: the start)."""
        pos = self.start_position()
        for move in self.moves[:ply]:
            pos = pos.play(move)
        return pos

    def corrected_plies(self) -> dict[int, Correction]:
        """Correction per ply (1-based) for plies that differ from the literal sheet."""
        return {c.ply: c for c in self.corrections if c.ply is not None}

    def game(self, *, annotate: bool = True) -> Game:
        """The reading as a :class:`notation.pgn.model.Game` (corrections as comments)."""
        from notation.pgn.model import Game, MoveNode

        per_ply = self.corrected_plies()
        nodes: list[MoveNode] = []
        for index, san in enumerate(self.sans, start=1):
            node = MoveNode(san)
            fix = per_ply.get(index)
            if annotate and fix is not None:
                node.comments.append(_comment(fix))
            nodes.append(node)
        return Game(tags=dict(self.tags), moves=nodes, result=self.result)

    def pgn(self, *, annotate: bool = True) -> str:
        """The game in PGN export format (via :func:`notation.pgn.writer.write_game`)."""
        from notation.pgn.writer import write_game

        return write_game(self.game(annotate=annotate))

    def to_dict(self) -> dict[str, Any]:
        """The verdict as data: one shape for one copy or several."""
        return {
            "status": self.status,
            "confidence": self.confidence,
            "copies": self.copies,
            "language": self.language,
            "layout": self.layout,
            "cost": self.cost,
            "moves": list(self.sans),
            "result": self.result,
            "tags": dict(self.tags),
            "pins": [{"ply": ply, "move": san} for ply, san in self.pins],
            "corrections": [c.to_dict() for c in self.corrections],
            "per_move": [m.to_dict() for m in self.per_move],
            "readings": [r.to_dict(rank) for rank, r in enumerate(self.readings, 1)],
            "boxes": [b.to_dict() for b in self.boxes],
        }


def _comment(fix: Correction) -> str:
    if fix.kind == "omitted":
        return "sheet: move missing, inserted"
    if fix.kind == "ambiguous":
        return f'sheet: "{fix.written}" ambiguous, resolved'
    if fix.kind == "transposed":
        return f'sheet: written "{fix.written}", order swapped'
    return f'sheet: written "{fix.written}", corrected'


def san_list(start: Position, moves: tuple[Move, ...] | list[Move]) -> list[str]:
    """The SAN of ``moves`` played from ``start``."""
    out: list[str] = []
    pos = start
    for move in moves:
        out.append(pos.san(move))
        pos = pos.play(move)
    return out


def implied_result(pos: Position) -> str:
    """The result the final position decides (mate, stalemate, dead position), else ``*``."""
    if pos.is_checkmate():
        return "0-1" if pos.turn else "1-0"
    if pos.is_stalemate() or pos.is_dead_position():
        return "1/2-1/2"
    return "*"


def move_label(ply: int | None, start_ply: int = 0) -> str:
    """The move number of a reading's ``ply`` (1-based) as a sheet shows it: ``6.`` or ``6...``."""
    if ply is None:
        return "?"
    absolute = start_ply + ply - 1
    return f"{absolute // 2 + 1}{'.' if absolute % 2 == 0 else '...'}"


# -- building the verdict from a lattice --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Setting:
    """What the reader knows of a game before reading its boxes: its tags (the roster), result,
    start, layout, the copies read, the cap on a confident reading's cost, the diagnostics so
    far and the reviewer's pins."""

    tags: dict[str, str]
    result: str
    start: Position
    start_fen: str | None
    start_ply: int
    layout: str
    copies: int
    max_cost: float
    diagnostics: tuple[Diagnostic, ...] = ()
    pins: tuple[tuple[int, str], ...] = ()


def _reason(part: str) -> str:
    name, _, pair = part.rpartition(".") if part.count(".") == 2 else (part, "", "")
    text = _REASONS.get(name, name.replace(".", " "))
    if pair and len(pair) == 2:
        text += f" ({pair[0]} for {pair[1]})"
    return text


def _classify(op: CopyOp, pos: Position, move: Move) -> tuple[str, tuple[str, ...]]:
    """What a copy's box says of the move read from it: ``read`` (as written, notation habits
    apart), ``ambiguous`` (a missing disambiguation), ``corrected`` (with the slips named),
    ``blank`` or ``unreadable``."""
    if op.reading is None:
        return ("blank" if op.cost == cost("box.blank") else "unreadable"), ()
    moves = pos.legal_moves()
    f = move_facts(pos, moves)[moves.index(move)]
    parts: list[str] = []
    written_cost(op.reading.written, f, parts)
    slips = [p for p in parts if is_slip(p)]
    reasons = tuple(_reason(p) for p in slips)
    if op.reading.what:
        return "corrected", (f"handwriting: {op.reading.what}",) + reasons
    if slips:
        return "corrected", reasons
    if "origin.missing" in parts:
        return "ambiguous", ()
    return "read", ()


def _views(lattice: Lattice, copies: list[list[Box]], start: Position) -> list[BoxView]:
    """The view of every box of every copy (in copy and box order) by the best reading."""
    found = lattice.readings[0]
    probability = lattice.move_probability
    views: dict[tuple[int, int], BoxView] = {}
    pos = start
    for ply, (move, ops) in enumerate(zip(found.moves, found.ops)):
        san = pos.san(move)
        p = probability[ply] if ply < len(probability) else 0.0
        for c, op in enumerate(ops):
            if op.dropped is not None:
                box = copies[c][op.dropped]
                views[(c, op.dropped)] = BoxView(
                    c + 1, op.dropped + 1, box.text, None, None, p, box.line, box.column, "extra"
                )
            if op.box is None:
                continue
            box = copies[c][op.box]
            kind, _ = _classify(op, pos, move)
            if op.kind in (TRANSPOSE, SWAP) and kind == "read":
                kind = "transposed"
            views[(c, op.box)] = BoxView(c + 1, op.box + 1, box.text, san, ply + 1, p, box.line, box.column, kind)
        pos = pos.play(move)
    for c, boxes in enumerate(copies):
        for i, box in enumerate(boxes):
            if (c, i) not in views:
                views[(c, i)] = BoxView(c + 1, i + 1, box.text, None, None, 1.0, box.line, box.column, "after-end")
    return [views[k] for k in sorted(views)]


def _edits(lattice: Lattice, index: int, copies: list[list[Box]], start: Position) -> tuple[Edit, ...]:
    """The edits of reading ``index``: each box it reads otherwise than written, each box it
    drops, each move it inserts, each pair it reads in swapped order."""
    found = lattice.readings[index]
    edits: list[Edit] = []
    pos = start
    several = len(copies) > 1
    for ply, (move, ops) in enumerate(zip(found.moves, found.ops)):
        san = pos.san(move)
        for c, op in enumerate(ops):
            tag = f"copy {c + 1}" if several else ""
            if op.dropped is not None:
                edits.append(
                    Edit(
                        "extra",
                        ply if ply > 0 else None,
                        copies[c][op.dropped].text,
                        None,
                        (f"{tag}: no move of the game",) if several else (),
                    )
                )
            if op.kind == OMIT:
                edits.append(Edit("omitted", ply + 1, None, san, (f"{tag}: no box",) if several else ()))
                continue
            if op.box is None:
                continue
            text = copies[c][op.box].text
            kind, reasons = _classify(op, pos, move)
            if several and reasons:
                reasons = (tag,) + reasons
            if op.kind in (TRANSPOSE, SWAP):
                edits.append(Edit("transposed", ply + 1, text, san, (tag,) if several else ()))
            elif kind == "corrected":
                edits.append(Edit("correction", ply + 1, text, san, reasons))
            elif kind in ("ambiguous", "unreadable", "blank"):
                edits.append(Edit(kind, ply + 1, text, san, (tag,) if several else ()))
        pos = pos.play(move)
    return tuple(edits)


def _where(boxes: list[BoxView], edit: Edit) -> tuple[int | None, int | None]:
    for view in boxes:
        if edit.written is not None and view.written == edit.written and (view.ply == edit.ply or view.kind == "extra"):
            return view.line, view.column
    for view in boxes:
        if view.ply == edit.ply:
            return view.line, view.column
    return None, None


def _ending(pos: Position) -> str:
    if pos.is_checkmate():
        return "checkmate"
    if pos.is_stalemate():
        return "stalemate"
    return "a dead position"


def _summary(reading: Reading, start_ply: int) -> str:
    """A reading in words: every edit it makes, at its move, or ``as written``."""
    parts = [
        f"{e.kind} {move_label(e.ply, start_ply)} '{e.written or ''}' -> {e.chosen or '(dropped)'}"
        for e in reading.edits
    ]
    return ", ".join(parts) or "as written"


def verdict(setting: Setting, language: str, lattice: Lattice, copies: list[list[Box]]) -> Reconstruction:
    """The verdict on the copies ``copies`` read in ``language`` into ``lattice``."""
    start, start_ply = setting.start, setting.start_ply
    diagnostics = list(setting.diagnostics)
    base = Reconstruction(
        status="ok",
        tags=dict(setting.tags),
        result=setting.result,
        language=language,
        layout=setting.layout,
        start_fen=setting.start_fen,
        start_ply=start_ply,
        copies=setting.copies,
        pins=setting.pins,
    )
    if not lattice.readings:  # no box at all
        return replace(
            base,
            status="needs-human" if any(copies) else "ok",
            diagnostics=diagnostics,
            readings=[Reading((), (), 0.0)],
        )
    readings: list[Reading] = []
    for index, found in enumerate(lattice.readings):
        probability = math.exp(-(found.weight - lattice.z) / lattice.temperature) if lattice.z < math.inf else 0.0
        # the cost shown is what the boxes cost (the opening prior orders readings, it is no edit)
        readings.append(
            Reading(
                found.moves,
                tuple(san_list(start, found.moves)),
                max(0.0, found.cost - found.prior),
                min(1.0, probability),
                _edits(lattice, index, copies, start),
            )
        )
    best = readings[0]
    confidence = round(lattice.reading_probability, 4)
    boxes = _views(lattice, copies, start)
    settled = {ply for ply, san in setting.pins if _plays(best, ply, san, start)}  # a reviewer's word
    per_move = [
        MoveConfidence(ply + 1, san, 1.0, ())
        if ply + 1 in settled
        else MoveConfidence(ply + 1, san, round(p, 4), choices)
        for ply, (san, p, choices) in enumerate(zip(best.sans, lattice.move_probability, lattice.choices))
    ]
    written: dict[int, str] = {v.ply: v.written for v in boxes if v.ply is not None and v.copy == 1}
    corrections = [
        Correction(
            kind=e.kind,
            ply=e.ply,
            written=e.written,
            chosen=e.chosen,
            alternatives=_alternatives(per_move, readings, e.ply, e.chosen),
            confidence=_confidence_at(per_move, confidence, e.ply),
            reasons=e.reasons,
            line=_where(boxes, e)[0],
            column=_where(boxes, e)[1],
            tied=_tied(per_move, e.ply, e.chosen),
        )
        for e in best.edits
    ]
    moves = list(best.moves)
    final = start
    for move in moves:
        final = final.play(move)
    ended = [v for v in boxes if v.kind == "after-end"]
    if ended:
        first = ended[0]
        if final.has_legal_moves():
            diagnostics.append(
                Diagnostic.make(
                    "sheet.unreadable",
                    f"the sheet stops reading here: from '{first.written}' on, {len(ended)} box(es) "
                    f"read as no legal move; the best reading is given up to ply {len(best.sans)}",
                    line=first.line,
                    column=first.column,
                    san=first.written,
                )
            )
        else:
            diagnostics.append(
                Diagnostic.make(
                    "sheet.after-end",
                    f"the game is over after {len(best.sans)} plies (the final position is "
                    f"{_ending(final)}), yet the sheet goes on: '{first.written}' and "
                    f"{len(ended) - 1} more box(es) read as no move",
                    line=first.line,
                    column=first.column,
                    san=first.written,
                )
            )
    tags = dict(setting.tags)
    result = setting.result
    if result == "*":  # the sheet states no result: the one the final position decides
        result = tags["Result"] = implied_result(final)
    diagnostics.extend(c.to_diagnostic() for c in corrections)
    unplayed = [(ply, san) for ply, san in setting.pins if not _plays(best, ply, san, start)]
    diagnostics.extend(
        Diagnostic.make(
            "sheet.pin",
            f"no reading of the sheet plays the pinned move {move_label(ply, start_ply)}{san} at its ply",
            ply=ply,
            san=san,
        )
        for ply, san in unplayed
    )
    # what a reviewer settled is explained: its boxes' cost is not held against the reading
    explained = sum(op.cost for ply, ops in enumerate(lattice.readings[0].ops) if ply + 1 in settled for op in ops)
    reasons = _doubts(setting, best, per_move, lattice.read_again, explained)
    if unplayed:
        reasons.append("a pinned move is not played")
    status = "needs-human" if reasons else ("corrected" if corrections else "ok")
    if reasons:
        where = min(per_move, key=lambda m: m.confidence) if per_move else None
        listed = "; ".join(
            f"{k}. {_summary(r, start_ply)} (p={r.probability:.2f})" for k, r in enumerate(readings[:3], 1)
        )
        diagnostics.append(
            Diagnostic.make(
                "sheet.needs-human",
                f"best reading of {len(best.sans)} plies, not confident: {'; '.join(reasons)}"
                + (
                    f"; least sure: {move_label(where.ply, start_ply)} {where.san} (p={where.confidence:.2f})"
                    if where
                    else ""
                )
                + f"; readings: {listed}"
                + (
                    "; readings 1 and 2 are equally likely: the sheet cannot tell them apart"
                    if len(readings) > 1 and readings[0].probability - readings[1].probability < TIE
                    else ""
                ),
                ply=where.ply if where else None,
                san=where.san if where else None,
                candidates=tuple(c.san for c in where.choices)
                if where and where.choices
                else tuple(
                    dict.fromkeys(r.sans[where.ply - 1] for r in readings if where and len(r.sans) >= where.ply)
                ),
            )
        )
    return replace(
        base,
        status=status,
        sans=list(best.sans),
        moves=moves,
        written=[written.get(k + 1) for k in range(len(best.sans))],
        tags=tags,
        result=result,
        corrections=corrections,
        diagnostics=diagnostics,
        cost=round(best.cost, 3),
        readings=readings,
        boxes=boxes,
        per_move=per_move,
        confidence=confidence,
    )


def _doubts(
    setting: Setting, best: Reading, per_move: list[MoveConfidence], read_again: bool, explained: float = 0.0
) -> list[str]:
    """Why the reading needs a human (none: it is settled: every move at :data:`FLAG` or more,
    within the cost cap less what the reviewer's pins ``explained``, found by the first pass,
    every pin played)."""
    reasons: list[str] = []
    if best.cost - explained > setting.max_cost:
        reasons.append(
            f"its cost {best.cost - explained:.1f} (the moves a reviewer settled apart) is above the cap "
            f"{setting.max_cost:g}"
            if explained
            else f"its cost {best.cost:.1f} is above the cap {setting.max_cost:g}"
        )
    flagged = [m for m in per_move if m.flagged]
    if flagged:
        reasons.append(f"{len(flagged)} move(s) below the {FLAG:.2f} needed")
    if read_again:
        # a reading the first pass dropped and a wider one found: others it dropped are not counted
        reasons.append(
            "the first pass dropped this reading and a wider second pass found it, so readings "
            "the first pass dropped are not counted in its probability"
        )
    return reasons


def _plays(best: Reading, ply: int, san: str, start: Position) -> bool:
    """True when ``best`` plays the move ``san`` names at ``ply`` (1-based)."""
    if ply > len(best.moves):
        return False
    pos = start
    for move in best.moves[: ply - 1]:
        pos = pos.play(move)
    try:
        return pos.parse_san(san) == best.moves[ply - 1]
    except ValueError:
        return False


def _confidence_at(per_move: list[MoveConfidence], whole: float, ply: int | None) -> float:
    if ply is None or not per_move:
        return whole
    return per_move[min(max(ply, 1), len(per_move)) - 1].confidence


def _tied(per_move: list[MoveConfidence], ply: int | None, chosen: str | None) -> tuple[str, ...]:
    """The other moves weighed at ``ply`` as likely as the move chosen (see :data:`TIE`)."""
    if ply is None or not 1 <= ply <= len(per_move):
        return ()
    here = per_move[ply - 1]
    return tuple(c.san for c in here.choices if c.san != chosen and here.confidence - c.probability < TIE)


def _alternatives(
    per_move: list[MoveConfidence], readings: list[Reading], ply: int | None, chosen: str | None
) -> tuple[str, ...]:
    """The other moves weighed at ``ply``: the lattice's choices there, else the readings'."""
    if ply is None:
        return ()
    if 1 <= ply <= len(per_move) and per_move[ply - 1].choices:
        return tuple(c.san for c in per_move[ply - 1].choices if c.san != chosen)[:3]
    out: list[str] = []
    for r in readings[1:]:
        if len(r.sans) >= ply and r.sans[: ply - 1] == readings[0].sans[: ply - 1] and r.sans[ply - 1] != chosen:
            if r.sans[ply - 1] not in out:
                out.append(r.sans[ply - 1])
    return tuple(out[:3])


__all__ = [
    "FLAG",
    "TIE",
    "BoxView",
    "Correction",
    "Edit",
    "MoveConfidence",
    "Reading",
    "Reconstruction",
    "Setting",
    "implied_result",
    "move_label",
    "san_list",
    "verdict",
]
