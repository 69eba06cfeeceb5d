"""Reading one game from one or more copies of its sheet with the noisy channel and the beam search.

:mod:`notation.scoresheet.channel` says how likely each box's text is for each legal move (the
ways people write moves and the slips they make, learned from real handwritten sheets);
:mod:`notation.scoresheet.viterbi` reads the game ply by ply, every copy an independent witness.
:func:`reconstruct_copies` turns that into a :class:`~notation.scoresheet.reconstruct.Reconstruction`:
the best complete reading (never empty while a copy has a box), its corrections (which copy each
concerns), the per-box view (what was written, what was read, how sure), the other readings found,
and probabilities from the search's lattice. A reading whose probability is below
:data:`READING_THRESHOLD` (or whose cost is above ``max_cost``) needs a human (exit 1). A blank
box (typed ``?``) stands for a move that was played; boxes after the end of the game, or after
the point where the sheet stops reading, are reported.

``notation scoresheet A.txt B.txt --same-game`` reads the copies of one game through it; the
single-sheet default is still the repair search of :mod:`notation.scoresheet.reconstruct`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from notation.diagnostics import Diagnostic
from notation.scoresheet.channel import cost, move_facts, written_cost
from notation.scoresheet.layout import Sheet, read_sheet
from notation.scoresheet.readings import Edit, Reading
from notation.scoresheet.model import (
    MAX_READINGS,
    Correction,
    Reconstruction,
    _implied_result,
    _san_list,
    merge_tags,
    roster_tags,
)
from notation.scoresheet.tokens import LANGUAGES, MAX_TOKEN_LENGTH, detect_languages, too_long
from notation.scoresheet.viterbi import OMIT, SWAP, TRANSPOSE, Box, CopyOp, Lattice, collector_paused, read_copies

if TYPE_CHECKING:  # pragma: no cover
    from notation.engines.uci import UciEngine
    from notation.rules.move import Move
    from notation.formats.position import Position
    from notation.scoresheet.engine import EngineSettings, Judged

#: Default cap on the cost of a confident reading (nats: the sum of its boxes' costs).
MAX_COST = 60.0


@dataclass(frozen=True, slots=True)
class MoveConfidence:
    """The probability that ply ``ply`` of the reading (``san``) is right."""

    ply: int
    san: str
    confidence: float

    def to_dict(self) -> dict[str, Any]:
        return {"ply": self.ply, "san": self.san, "confidence": self.confidence}


#: The whole reading must have at least this probability for the sheet to be read without a
#: human (exit 0): calibrated on real sheets (``benchmarks/bench_scoresheet_hcs.py``).
READING_THRESHOLD = 0.99

#: Parts of a reading's cost that are notation habits, not slips: a box written so is read as
#: written (``Nxf3`` written ``Nf3``, ``dxe5`` written ``dxe``, ``QxQ``, ``Nd7xf6``, a check without
#: ``+``). A missing disambiguation is reported as ``ambiguous`` where another move fits as well.
STYLE_PARTS = frozenset({
    "check.missing", "mate.missing", "check.extra", "mate.extra", "capture.missing", "capture.missing_pawn",
    "coordinates", "origin.square", "taken", "taken.square", "pawn.files_only", "piece.lowercase",
    "promotion.missing", "castle.as_king", "origin.extra", "target.file_only", "target.rank_only",
})

_REASONS = {
    "piece.dropped": "piece letter missing", "piece.wrong": "wrong piece letter",
    "piece.on_pawn": "piece letter on a pawn move", "piece.foreign": "no piece letter here",
    "piece.lower_b": "lower-case b read as the bishop", "file.wrong": "wrong file", "rank.wrong": "wrong rank",
    "square.both": "file and rank both wrong", "origin.wrong": "origin square disagrees",
    "pawn.no_file": "pawn capture written as a push", "taken.wrong": "another piece named as taken",
    "capture.extra": "capture mark on a non-capture", "promotion.wrong": "another promotion piece",
    "promotion.extra": "promotion on a move that does not promote", "castle.side": "castling to the other side",
}


def _reason(part: str) -> str:
    name, _, pair = part.rpartition(".") if part.count(".") == 2 else (part, "", "")
    text = _REASONS.get(name, name.replace(".", " "))
    if pair and len(pair) == 2:
        text += f" ({pair[0]} for {pair[1]})"
    return text


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
        return {"copy": self.copy, "box": self.box, "written": self.written, "read": self.read, "ply": self.ply,
                "confidence": round(self.confidence, 3), "kind": self.kind, "line": self.line,
                "column": self.column}


#: The boxes of a copy read at most (600 moves: longer than any game played over the board);
#: the rest are reported.
MAX_BOXES = 1200


def _boxes_of(sheet: Sheet) -> list[Box]:
    """The sheet's boxes (at most :data:`MAX_BOXES`); a cell too long to hold a move is no box
    (it is reported)."""
    return [Box(c.text, c.line, c.column, blank=c.placeholder or c.text.strip() in ("?", ""))
            for c in sheet.cells if c.placeholder or not too_long(c.text)][:MAX_BOXES]


def _classify(op: CopyOp, pos: Position, move: Move, text: str) -> tuple[str, tuple[str, ...]]:
    """What a copy's box says of the move read from it: ``read`` (as written, notation habits
    apart), ``ambiguous`` (a missing disambiguation: another legal move fits the text as well),
    ``corrected`` (with the slips named), ``blank`` or ``unreadable``."""
    if op.reading is None:
        return ("blank" if op.cost == cost("box.blank") else "unreadable"), ()
    moves = pos.legal_moves()
    facts = move_facts(pos, moves)
    f = facts[moves.index(move)]
    parts: list[str] = []
    written_cost(op.reading.written, f, parts)
    slips = [p for p in parts if p.rpartition(".")[0] not in STYLE_PARTS and p not in STYLE_PARTS
             and p != "origin.missing"]
    reasons = tuple(_reason(p) for p in slips)
    if op.reading.what:
        reasons = (f"handwriting: {op.reading.what}",) + reasons
        return "corrected", reasons
    if slips:
        return "corrected", reasons
    if "origin.missing" in parts:
        return "ambiguous", ()
    return "read", ()


def _views(lattice: Lattice, copies: list[list[Box]], start: Position, lang: str,
           move_probability: list[float] | None = None) -> list[BoxView]:
    """The per-box view of the best reading (its moves' probabilities ``move_probability``, by
    default the lattice's), every box of every copy (in copy and box order)."""
    found = lattice.readings[0]
    if move_probability is None:
        move_probability = lattice.move_probability
    views: dict[tuple[int, int], BoxView] = {}
    pos = start
    for ply, (move, ops) in enumerate(zip(found.moves, found.ops)):
        san = pos.san(move)
        p = move_probability[ply] if ply < len(move_probability) else 0.0
        for c, op in enumerate(ops):
            if op.dropped is not None:
                box = copies[c][op.dropped]
                views[(c, op.dropped)] = BoxView(c + 1, op.dropped + 1, box.text, None, None, p, box.line, box.column,
                                                 "extra")
            if op.box is None:
                continue
            box = copies[c][op.box]
            kind, _ = _classify(op, pos, move, box.text)
            if op.kind in (TRANSPOSE, SWAP):
                kind = "transposed" if kind == "read" else kind
            views[(c, op.box)] = BoxView(c + 1, op.box + 1, box.text, san, ply + 1, p, box.line, box.column, kind)
        pos = pos.play(move)
    for c, boxes in enumerate(copies):
        for i, box in enumerate(boxes):
            if (c, i) not in views:
                views[(c, i)] = BoxView(c + 1, i + 1, box.text, None, None, 1.0, box.line, box.column, "after-end")
    return [views[k] for k in sorted(views)]


def _edits(lattice: Lattice, index: int, copies: list[list[Box]], start: Position) -> list[Edit]:
    """The edits of reading ``index``: each box it reads otherwise than written, each box it
    drops, each move it inserts, each pair it reads in swapped order."""
    found = lattice.readings[index]
    edits: list[Edit] = []
    pos = start
    several = len(copies) > 1
    for ply, (move, ops) in enumerate(zip(found.moves, found.ops)):
        san = pos.san(move)
        for c, op in enumerate(ops):
            tag = f"copy {c + 1}: " if several else ""
            if op.dropped is not None:
                edits.append(Edit("extra", ply if ply > 0 else None, copies[c][op.dropped].text, None,
                                  (f"{tag}no move of the game",) if several else ()))
            if op.kind == OMIT:
                edits.append(Edit("omitted", ply + 1, None, san, (f"{tag}no box",) if several else ()))
                continue
            if op.box is None:
                continue
            text = copies[c][op.box].text
            kind, reasons = _classify(op, pos, move, text)
            if several and reasons:
                reasons = (tag.rstrip(": "),) + reasons
            if op.kind in (TRANSPOSE, SWAP) and op.box is not None:
                edits.append(Edit("transposed", ply + 1, text, san, (tag.rstrip(": "),) if several else ()))
            elif kind == "corrected":
                edits.append(Edit("correction", ply + 1, text, san, reasons))
            elif kind in ("ambiguous", "unreadable", "blank"):
                edits.append(Edit(kind, ply + 1, text, san, (tag.rstrip(": "),) if several else ()))
        pos = pos.play(move)
    return edits


def _read_copies(sheets: list[Sheet], lang: str, start: Position) -> tuple[str, Lattice, list[list[Box]]]:
    copies = [_boxes_of(sheet) for sheet in sheets]
    if lang != "auto":
        languages = [lang]
    else:
        languages = detect_languages([c.text for sheet in sheets for c in sheet.moves])
    best: tuple[str, Lattice] | None = None
    for language in languages:
        lattice = read_copies(copies, start, language)
        if best is None or (lattice.readings and (not best[1].readings
                                                  or lattice.readings[0].cost < best[1].readings[0].cost)):
            best = (language, lattice)
    assert best is not None
    return best[0], best[1], copies


def _setup(sheets: list[Sheet], fen: str | None, tags: dict[str, str] | str | None
           ) -> tuple[dict[str, str], list[Diagnostic], str | None, str]:
    merged, diagnostics, fen = merge_tags([sheet.tags for sheet in sheets], tags, fen)
    result = next((s.result for s in sheets if s.result), None) or merged.get("Result") or "*"
    if result not in ("1-0", "0-1", "1/2-1/2", "*"):
        result = "*"
    return merged, diagnostics, fen, result


def reconstruct_copies(texts: list[str], *, lang: str = "auto", fen: str | None = None,
                       tags: dict[str, str] | str | None = None, max_cost: float = MAX_COST,
                       first_lines: list[int] | None = None, engine: EngineSettings | None = None,
                       session: UciEngine | None = None) -> Reconstruction:
    """Reconstruct one game from several copies of its sheet (the two players' sheets, say):
    independent witnesses of the same moves (see :mod:`notation.scoresheet.viterbi`). The
    corrections say which copy each concerns; the per-box view covers every box of every copy.

    ``engine``: a UCI engine judges the moves the top readings disagree on, within its time
    budget (:mod:`notation.scoresheet.engine`: it may reorder the readings and lower the
    confidence, never raise it); started for this sheet and quit, or ``session``, an engine
    already running (its owner quits it). An engine that fails leaves a ``sheet.engine``
    warning and the readings as far as it judged them. Python's cyclic collector is paused
    meanwhile (:func:`~notation.scoresheet.viterbi.collector_paused`: the lattices stay alive to
    the end, and it would walk them again and again)."""
    with collector_paused():
        return _reconstruct_copies(texts, lang=lang, fen=fen, tags=tags, max_cost=max_cost,
                                   first_lines=first_lines, engine=engine, session=session)


def _reconstruct_copies(texts: list[str], *, lang: str, fen: str | None, tags: dict[str, str] | str | None,
                        max_cost: float, first_lines: list[int] | None, engine: EngineSettings | None,
                        session: UciEngine | None) -> Reconstruction:
    from notation.formats.fen import FenError, parse_fen
    from notation.formats.position import Position

    lines = first_lines or [1] * len(texts)
    sheets = [read_sheet(text, first_line=line) for text, line in zip(texts, lines)]
    layout = sheets[0].layout if sheets else "numbered"
    merged, diagnostics, fen, result = _setup(sheets, fen, tags)
    try:
        start = Position.from_fen(fen) if fen else Position.initial()
        if fen:
            parse_fen(fen)
    except FenError as exc:
        diag = Diagnostic.make("fen.invalid", f"starting position {fen!r} is not valid: {exc.message}")
        return Reconstruction(status="needs-human", diagnostics=[diag], tags=merged, layout=layout)
    start_ply = (start.fullmove_number - 1) * 2 + (0 if start.turn else 1)
    full_tags = roster_tags(merged, result, start.fen() if fen else None)
    if lang != "auto" and lang not in LANGUAGES:
        diag = Diagnostic.make("sheet.unreadable", f"unknown scoresheet language '{lang}'")
        return Reconstruction(status="needs-human", diagnostics=[diag], tags=full_tags, layout=layout)
    for sheet in sheets:
        for cell in sheet.cells:
            if not cell.placeholder and too_long(cell.text):
                diagnostics.append(Diagnostic.make(
                    "sheet.unreadable", f"a cell of {len(cell.text)} characters is longer than any written move "
                    f"({MAX_TOKEN_LENGTH} at most): unreadable",
                    line=cell.line, column=cell.column, san=cell.text[:MAX_TOKEN_LENGTH] + "…"))
    language, lattice, copies = _read_copies(sheets, lang, start)
    judged: Judged | None = None
    if lattice.readings and (engine is not None or session is not None):
        judged, problem = _judge(engine, session, lattice)
        if problem is not None:
            diagnostics.append(Diagnostic.make("sheet.engine", problem))
        if judged is not None:
            lattice = judged.lattice
    rec = Reconstruction(status="ok", tags=full_tags, result=result, language=language, layout=layout,
                         start_fen=start.fen() if fen else None, start_ply=start_ply, copies=len(texts))
    if not lattice.readings:  # no box at all
        rec.diagnostics = diagnostics
        rec.readings = [Reading(moves=[], sans=[], cost=0.0)]
        rec.candidates = [(0.0, [])]
        if any(copies):
            rec.status = "needs-human"
        return rec
    t = cost("temperature")
    readings: list[Reading] = []
    for index, found in enumerate(lattice.readings[:MAX_READINGS]):
        sans = _san_list(start, found.moves)
        probability = math.exp(-(found.weight - lattice.z) / t) if lattice.z < math.inf else 0.0
        # the cost shown is what the boxes cost (the opening prior orders readings, it is no edit)
        readings.append(Reading(moves=list(found.moves), sans=sans, cost=max(0.0, found.cost - found.prior),
                                edits=_edits(lattice, index, copies, start), score=found.cost,
                                probability=min(1.0, probability)))
    reading_probability, move_probability = lattice.reading_probability, lattice.move_probability
    reordered = False
    if judged is not None:
        reading_probability, move_probability = judged.reading_confidence, judged.move_probability
        reordered = judged.reordered
        for r in readings:
            r.implausibility = round(judged.implausibility(start, r.moves), 3)
    best = readings[0]
    rec.readings = readings
    rec.moves, rec.sans, rec.cost = best.moves, best.sans, round(best.cost, 3)
    rec.reading_confidence = round(reading_probability, 4)
    rec.boxes = _views(lattice, copies, start, language, move_probability)
    rec.per_move = [MoveConfidence(ply + 1, san, round(p, 4))
                    for ply, (san, p) in enumerate(zip(best.sans, move_probability))]
    written: dict[int, str] = {}
    for view in rec.boxes:
        if view.ply is not None and view.copy == 1:
            written[view.ply] = view.written
    rec.written = [written.get(k + 1) for k in range(len(best.sans))]
    rec.candidates = [(round(r.cost, 3), list(r.sans)) for r in readings]
    rec.corrections = [Correction(kind=e.kind, ply=e.ply, written=e.written, chosen=e.chosen,
                                  alternatives=_alternatives(readings, e.ply, e.chosen),
                                  confidence=_confidence_at(rec, e.ply), reasons=e.reasons,
                                  line=_where(rec.boxes, e)[0], column=_where(rec.boxes, e)[1])
                       for e in best.edits]
    for sheet in sheets:
        cells = [c for c in sheet.cells if c.placeholder or not too_long(c.text)]
        if len(cells) > MAX_BOXES:
            first_cell = cells[MAX_BOXES]
            diagnostics.append(Diagnostic.make(
                "sheet.too-long", f"a sheet of {len(cells)} boxes: only the first {MAX_BOXES} are read",
                line=first_cell.line, column=first_cell.column, san=first_cell.text))
    ended = [v for v in rec.boxes if v.kind == "after-end"]
    if ended:
        first = ended[0]
        final = rec.position_after(len(rec.moves))
        if final.has_legal_moves():
            diagnostics.append(Diagnostic.make(
                "sheet.unreadable", f"the sheet stops reading here: from '{first.written}' on, {len(ended)} box(es) "
                f"read as no legal move; the best reading is given up to ply {len(best.sans)}",
                line=first.line, column=first.column, san=first.written))
        else:
            diagnostics.append(Diagnostic.make(
                "sheet.after-end", f"the game is over after {len(best.sans)} plies (the final position is "
                f"{_ending(final)}), yet the sheet goes on: '{first.written}' and "
                f"{len(ended) - 1} more box(es) read as no move", line=first.line, column=first.column,
                san=first.written))
    if rec.result == "*":  # the sheet states no result: the one the final position decides
        rec.result = rec.tags["Result"] = _implied_result(rec.position_after(len(rec.moves)))
    diagnostics.extend(c.to_diagnostic() for c in rec.corrections)
    # a reading the first search dropped and a wider one found: others it dropped are not counted
    confident = (rec.reading_confidence >= READING_THRESHOLD and best.cost <= max_cost
                 and not lattice.read_again and not reordered)
    if not confident:
        rec.status = "needs-human"
        doubtful = sorted(rec.per_move, key=lambda m: m.confidence)[:1]
        where = doubtful[0] if doubtful else None
        reasons: list[str] = []
        if best.cost > max_cost:
            reasons.append(f"its cost {best.cost:.1f} is above --max-cost {max_cost:g}")
        if rec.reading_confidence < READING_THRESHOLD:
            reasons.append(f"the reading has probability {rec.reading_confidence:.2f}, below the "
                           f"{READING_THRESHOLD:.2f} needed")
        if lattice.read_again and not reasons:
            reasons.append("the search dropped this reading and found it reading the sheet again with a wider "
                           "beam, so readings it dropped are not counted in its probability")
        if reordered:
            reasons.append("the chess engine prefers it to the reading the boxes favour")
        reason = "; ".join(reasons)
        listed = "; ".join(f"{k}. {_summary(r, start_ply)} (p={r.probability:.2f})"
                           for k, r in enumerate(readings[:3], 1))
        diagnostics.append(Diagnostic.make(
            "sheet.needs-human",
            f"best reading of {len(best.sans)} plies, not confident: {reason}"
            + (f"; least sure: ply {where.ply} {where.san} (p={where.confidence:.2f})" if where else "")
            + f"; readings: {listed}",
            ply=where.ply if where else None, san=where.san if where else None,
            candidates=tuple(dict.fromkeys(r.sans[where.ply - 1] for r in readings
                                           if where and len(r.sans) >= where.ply))))
    elif rec.corrections:
        rec.status = "corrected"
    rec.diagnostics = diagnostics
    return rec


def _judge(engine: EngineSettings | None, session: UciEngine | None, lattice: Lattice
           ) -> tuple[Judged | None, str | None]:
    """The lattice judged by the engine (None: it could not start), and why it stopped judging
    (None: it did not)."""
    from notation.scoresheet.engine import SECONDS, engine_session, judge

    seconds = engine.seconds if engine is not None else SECONDS
    target = session if session is not None else engine
    assert target is not None
    with engine_session(target) as (running, problem):
        if running is None:
            return None, f"the chess engine was not consulted: {problem}"
        judged = judge(running, lattice, seconds)
    if judged.problem is not None:
        return judged, (f"the chess engine stopped after judging {judged.evaluated} of {judged.points} "
                        f"position(s): {judged.problem}")
    return judged, None


def _ending(pos: Position) -> str:
    if pos.is_checkmate():
        return "checkmate"
    if pos.is_stalemate():
        return "stalemate"
    return "a dead position"


def _where(boxes: list[BoxView], edit: Edit) -> tuple[int | None, int | None]:
    for view in boxes:
        if edit.written is not None and view.written == edit.written and (view.ply == edit.ply or view.kind == "extra"):
            return view.line, view.column
    for view in boxes:
        if view.ply == edit.ply:
            return view.line, view.column
    return None, None


def _confidence_at(rec: Reconstruction, ply: int | None) -> float:
    if ply is None or not rec.per_move:
        return rec.reading_confidence if rec.reading_confidence is not None else 1.0
    k = min(max(ply, 1), len(rec.per_move)) - 1
    found: float = rec.per_move[k].confidence
    return found


def _alternatives(readings: list[Reading], ply: int | None, chosen: str | None) -> tuple[str, ...]:
    if ply is None:
        return ()
    out: list[str] = []
    for r in readings[1:]:
        if len(r.sans) >= ply and r.sans[:ply - 1] == readings[0].sans[:ply - 1] and r.sans[ply - 1] != chosen:
            if r.sans[ply - 1] not in out:
                out.append(r.sans[ply - 1])
    return tuple(out[:3])


def _summary(reading: Reading, start_ply: int = 0) -> str:
    """A reading in words: every edit it makes, at its move (``6.`` White's sixth, ``6...``
    Black's), or ``as written`` when it makes none."""
    parts = [f"{e.kind} {_move_label(e.ply, start_ply)} '{e.written or ''}' -> {e.chosen or '(dropped)'}"
             for e in reading.edits]
    return ", ".join(parts) or "as written"


def _move_label(ply: int | None, start_ply: int) -> str:
    """The move number of the reading's ``ply`` (1-based) as a sheet shows it: ``6.`` or ``6...``."""
    if ply is None:
        return "?"
    absolute = start_ply + ply - 1
    return f"{absolute // 2 + 1}{'.' if absolute % 2 == 0 else '...'}"


__all__ = ["MAX_COST", "READING_THRESHOLD", "BoxView", "MoveConfidence", "reconstruct_copies"]
