"""Scoresheet reconstruction: from what players wrote to a checked game score.

Pipeline: :func:`notation.scoresheet.layout.read_sheet` (boxes, header tags, result) → the
noisy channel of :mod:`notation.scoresheet.channel` (how likely each box's text is for each legal
move: the ways people write moves and the slips they make, learned from real handwritten sheets)
→ a beam search over the plies of the game (:mod:`notation.scoresheet.viterbi`; one copy of the
sheet or several, read as independent witnesses) → :class:`Reconstruction`: the best complete
reading (never empty while the sheet has a box), its corrections, the per-box view (what was
written, what was read, how sure), the other readings found, and probabilities.

The probability of each move and of the reading as a whole come from the search's lattice and
are calibrated on real sheets: a reading whose probability is below :data:`READING_THRESHOLD`
(or whose cost is above ``max_cost``) needs a human (exit 1); otherwise it is ``ok`` (read as
written, notation habits apart) or ``corrected``. A blank box (typed ``?``) stands for a move that
was played; a box after the end of the game (mate or stalemate) is reported. A sheet that states
no result gets the one its final position implies (mate, stalemate, dead position).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from notation.diagnostics import Diagnostic
from notation.grammars import terminal_patterns
from notation.scoresheet.channel import cost, move_facts, written_cost
from notation.scoresheet.layout import Sheet, read_sheet
from notation.scoresheet.readings import Edit, Reading
from notation.scoresheet.tokens import MAX_TOKEN_LENGTH, LANGUAGES, detect_languages, too_long
from notation.scoresheet.viterbi import OMIT, SWAP, TRANSPOSE, Box, CopyOp, Lattice, read_copies

if TYPE_CHECKING:  # pragma: no cover
    from notation.pgn.model import Game
    from notation.rules.move import Move
    from notation.rules.position import Position

#: Readings listed at most (the cheapest found, distinct games).
MAX_READINGS = 10

#: Default cap on the cost of a confident reading (nats: the sum of its boxes' costs).
MAX_COST = 60.0

#: Corrections below this confidence are marked doubtful (an error in the diagnostics).
CONFIDENCE_THRESHOLD = 0.6


# --- result types -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Correction:
    """One place where the game differs from a literal reading of the sheet.

    ``kind``: ``correction`` (a written move read as a different legal move), ``ambiguous`` (a
    written move that fits several legal moves, resolved by the rest of the game),
    ``omitted`` (a move missing from the sheet, inserted), ``extra`` (a box dropped),
    ``transposed`` (two boxes played in swapped order), ``blank`` (a blank box, read as the move
    the rest of the game needs), ``unreadable`` (a box that spells no move, read as the move
    the rest of the game needs). ``reasons`` name the slips (``wrong file (c for e)``, ``piece
    letter missing`` ...). ``alternatives`` are the moves other readings found play there.
    ``confidence`` is the probability that the move read is right.
    """

    kind: str
    ply: int | None
    written: str | None
    chosen: str | None
    alternatives: tuple[str, ...] = ()
    confidence: float = 1.0
    cost: float = 0.0
    reasons: tuple[str, ...] = ()
    line: int | None = None
    column: int | None = None

    @property
    def confident(self) -> bool:
        return self.confidence >= CONFIDENCE_THRESHOLD

    def message(self) -> str:
        """A one-line human description (lower case, written text quoted)."""
        written = f"'{self.written}'" if self.written is not None else "nothing"
        if self.kind == "omitted":
            text = f"move missing from the sheet: inserted {self.chosen}"
        elif self.kind == "extra":
            text = f"written {written} is no move of the game: dropped"
        elif self.kind == "ambiguous":
            text = f"written {written} fits several moves: {self.chosen} is the one the rest of the game needs"
        elif self.kind == "transposed":
            text = f"written {written} in the wrong order: played {self.chosen}"
        elif self.kind == "unreadable":
            text = f"written {written} is unreadable: read as {self.chosen}"
        elif self.kind == "blank":
            text = f"blank box: read as {self.chosen}"
        else:
            text = f"written {written} read as {self.chosen}"
        if self.reasons:
            text += f" ({', '.join(self.reasons)})"
        if self.alternatives:
            text += f"; also considered {', '.join(self.alternatives)}"
        return f"{text}; confidence {self.confidence:.2f}"

    def to_diagnostic(self) -> Diagnostic:
        code = {"unreadable": "sheet.unreadable", "blank": "sheet.blank"}.get(self.kind, "sheet.correction")
        severity = None if self.confident else "error"
        return Diagnostic.make(
            code, self.message(), severity=severity, line=self.line, column=self.column,
            ply=self.ply, san=self.written, candidates=(self.chosen,) + self.alternatives if self.chosen else self.alternatives,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind, "ply": self.ply, "written": self.written, "chosen": self.chosen,
            "alternatives": list(self.alternatives), "confidence": self.confidence,
            "cost": self.cost, "reasons": list(self.reasons), "line": self.line, "column": self.column,
        }


@dataclass(frozen=True, slots=True)
class MoveConfidence:
    """The probability that ply ``ply`` of the reading (``san``) is right."""

    ply: int
    san: str
    confidence: float

    def to_dict(self) -> dict[str, Any]:
        return {"ply": self.ply, "san": self.san, "confidence": self.confidence}


@dataclass(slots=True)
class Reconstruction:
    """The outcome of :func:`reconstruct`.

    ``status``: ``ok`` (read as written, no correction), ``corrected`` (a confident reading
    with corrections), ``needs-human`` (the best reading is not confident: see ``corrections``,
    ``readings`` and ``boxes``). ``sans`` is the best reading in canonical SAN (never empty while
    the sheet has a box); ``written`` the text of the (first copy's) box behind each ply (None
    for an inserted move); ``boxes`` every box of every copy as read; ``per_move`` each move's
    probability; ``reading_confidence`` the reading's.
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
    candidates: list[tuple[float, list[str]]] = field(default_factory=list)
    #: the complete readings found, likeliest first (see :mod:`notation.scoresheet.readings`)
    readings: list[Reading] = field(default_factory=list)
    start_ply: int = 0  # plies before the first move (fullmove number and turn of the start)
    chess960: bool = False  # castling by Chess960 rules (a PGN game with a Chess960 [Variant])
    boxes: list[BoxView] = field(default_factory=list)
    per_move: list[MoveConfidence] = field(default_factory=list)
    reading_confidence: float = 1.0
    copies: int = 1

    @property
    def needs_human(self) -> bool:
        return self.status == "needs-human"

    @property
    def confidence(self) -> float:
        """The probability of the whole reading."""
        return self.reading_confidence

    def start_position(self) -> Position:
        from notation.formats.fen import STARTING_FEN
        from notation.rules.position import Position

        if self.chess960:
            return Position.from_fen(self.start_fen or STARTING_FEN, chess960=True)
        return Position.from_fen(self.start_fen) if self.start_fen else Position.initial()

    def position_after(self, ply: int) -> Position:
        """The position after ``ply`` plies of the reconstructed game (0: the start)."""
        pos = self.start_position()
        for move in self.moves[:ply]:
            pos = pos.play(move)
        return pos

    def corrected_plies(self) -> dict[int, Correction]:
        """Correction per ply (1-based) for plies that differ from the literal sheet."""
        return {c.ply: c for c in self.corrections if c.ply is not None}

    def game(self, *, annotate: bool = True) -> Game:
        """The reconstructed game as a :class:`notation.pgn.model.Game` (corrections as comments)."""
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
        return {
            "status": self.status, "language": self.language, "layout": self.layout,
            "cost": self.cost, "moves": list(self.sans), "result": self.result, "tags": dict(self.tags),
            "corrections": [c.to_dict() for c in self.corrections],
            "candidates": [{"cost": c, "moves": m} for c, m in self.candidates],
            "readings": [r.to_dict(rank) for rank, r in enumerate(self.readings, 1)],
            "confidence": self.reading_confidence, "copies": self.copies,
            "per_move": [m.to_dict() for m in self.per_move],
            "boxes": [b.to_dict() for b in self.boxes],
        }


def _comment(fix: Correction) -> str:
    if fix.kind == "omitted":
        return "sheet: move missing, inserted"
    if fix.kind == "ambiguous":
        return f'sheet: "{fix.written}" ambiguous, resolved'
    if fix.kind == "transposed":
        return f'sheet: written "{fix.written}", order swapped'
    if fix.kind == "blank":
        return "sheet: blank box"
    return f'sheet: written "{fix.written}", corrected'


# --- tags and results ---------------------------------------------------------------------------


def _san_list(start: Position, moves: Iterable[Move]) -> list[str]:
    out: list[str] = []
    pos = start
    for move in moves:
        out.append(pos.san(move))
        pos = pos.play(move)
    return out


@cache
def _tag_name() -> re.Pattern[str]:
    """PGN tag-name syntax, taken from ``grammars/tokens.lark`` (``TAG_NAME``)."""
    return re.compile(terminal_patterns("tokens")["TAG_NAME"])


def parse_tags(text: str) -> tuple[dict[str, str], list[str]]:
    """``"White=Anna,Black=Bernd"`` as tags, and the entries that are no ``Name=value`` pair
    with a valid PGN tag name (as written; empty entries between commas are skipped)."""
    out: dict[str, str] = {}
    bad: list[str] = []
    for part in text.split(","):
        if not part.strip():
            continue
        name, eq, value = part.partition("=")
        name = name.strip()
        if not eq or not _tag_name().fullmatch(name):
            bad.append(part.strip())
            continue
        out[name] = value.strip()
    return out, bad


def _parse_tags(tags: dict[str, str] | str | None) -> tuple[dict[str, str], list[str]]:
    if tags is None:
        return {}, []
    if isinstance(tags, dict):
        good = {k: v for k, v in tags.items() if _tag_name().fullmatch(k)}
        return good, [f"{k}={v}" for k, v in tags.items() if k not in good]
    return parse_tags(tags)


def _implied_result(pos: Position) -> str:
    """The result the final position decides (mate, stalemate, dead position), else ``*``."""
    if pos.is_checkmate():
        return "0-1" if pos.turn else "1-0"
    if pos.is_stalemate() or pos.is_dead_position():
        return "1/2-1/2"
    return "*"


_ROSTER_DEFAULTS = {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?", "White": "?", "Black": "?"}


def roster_tags(tags: dict[str, str], result: str, start_fen: str | None) -> dict[str, str]:
    """The game's tags in PGN order: the Seven Tag Roster (``?`` where unknown, ``Result`` as
    given), the other tags, then ``SetUp``/``FEN`` when the game starts from ``start_fen``."""
    full = {name: tags.get(name, default) for name, default in _ROSTER_DEFAULTS.items()}
    full["Result"] = result
    for name, value in tags.items():
        if name not in full:
            full[name] = value
    if start_fen:
        full["SetUp"] = "1"
        full["FEN"] = start_fen
    return full


# --- reading the sheet ----------------------------------------------------------------------------

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


def _boxes_of(sheet: Sheet) -> list[Box]:
    return [Box(c.text, c.line, c.column, blank=c.placeholder or c.text.strip() in ("?", "")) for c in sheet.cells]


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


def _views(lattice: Lattice, copies: list[list[Box]], start: Position, lang: str) -> list[BoxView]:
    """The per-box view of the best reading, every box of every copy (in copy and box order)."""
    found = lattice.readings[0]
    views: dict[tuple[int, int], BoxView] = {}
    pos = start
    for ply, (move, ops) in enumerate(zip(found.moves, found.ops)):
        san = pos.san(move)
        p = lattice.move_probability[ply] if ply < len(lattice.move_probability) else 0.0
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
    merged: dict[str, str] = {}
    for sheet in sheets:
        for name, value in sheet.tags.items():
            merged.setdefault(name, value)
    extra_tags, bad_tags = _parse_tags(tags)
    merged.update(extra_tags)
    diagnostics: list[Diagnostic] = [
        Diagnostic.make("sheet.bad-tag", f"tag {entry!r} is no Name=value pair with a PGN tag name: ignored", san=entry)
        for entry in bad_tags]
    if fen is None and merged.get("FEN"):
        fen = merged["FEN"]
    result = next((s.result for s in sheets if s.result), None) or merged.get("Result") or "*"
    if result not in ("1-0", "0-1", "1/2-1/2", "*"):
        result = "*"
    return merged, diagnostics, fen, result


def reconstruct(text: str, *, lang: str = "auto", fen: str | None = None,
                tags: dict[str, str] | str | None = None, max_cost: float = MAX_COST,
                first_line: int = 1) -> Reconstruction:
    """Reconstruct the game written on a scoresheet (see the module docstring).

    ``lang`` is ``auto`` or one of :data:`notation.scoresheet.tokens.LANGUAGES`; ``fen`` a starting
    position; ``tags`` extra tags (a dict or ``"White=…,Black=…"``), overriding the sheet's
    header block; ``max_cost``: a reading costing more is never confident; ``first_line`` the
    line number of the text's first line (a game inside a longer file: corrections and
    diagnostics are located in that file). Never raises on bad input: problems come back as
    diagnostics and a ``needs-human`` status. A whole PGN file (tag sections) is read game by
    game with :func:`notation.scoresheet.pgn_input.read_scoresheets`.
    """
    return reconstruct_copies([text], lang=lang, fen=fen, tags=tags, max_cost=max_cost, first_lines=[first_line])


def reconstruct_copies(texts: list[str], *, lang: str = "auto", fen: str | None = None,
                       tags: dict[str, str] | str | None = None, max_cost: float = MAX_COST,
                       first_lines: list[int] | None = None) -> Reconstruction:
    """Reconstruct one game from several copies of its sheet (the two players' sheets, say):
    independent witnesses of the same moves (see :mod:`notation.scoresheet.viterbi`). The
    corrections say which copy each concerns; the per-box view covers every box of every copy."""
    from notation.formats.fen import FenError, parse_fen
    from notation.rules.position import Position

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
        probability = math.exp(-(found.cost - lattice.z) / t) if lattice.z < math.inf else 0.0
        readings.append(Reading(moves=list(found.moves), sans=sans, cost=found.cost,
                                edits=_edits(lattice, index, copies, start), score=found.cost,
                                probability=min(1.0, probability)))
    best = readings[0]
    rec.readings = readings
    rec.moves, rec.sans, rec.cost = best.moves, best.sans, round(best.cost, 3)
    rec.reading_confidence = round(lattice.reading_probability, 4)
    rec.boxes = _views(lattice, copies, start, language)
    rec.per_move = [MoveConfidence(ply + 1, san, round(p, 4))
                    for ply, (san, p) in enumerate(zip(best.sans, lattice.move_probability))]
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
    ended = [v for v in rec.boxes if v.kind == "after-end"]
    if ended:
        first = ended[0]
        diagnostics.append(Diagnostic.make(
            "sheet.after-end", f"the game is over after {len(best.sans)} plies (the final position is "
            f"{_ending(rec.position_after(len(rec.moves)))}), yet the sheet goes on: '{first.written}' and "
            f"{len(ended) - 1} more box(es) read as no move", line=first.line, column=first.column,
            san=first.written))
    if rec.result == "*":  # the sheet states no result: the one the final position decides
        rec.result = rec.tags["Result"] = _implied_result(rec.position_after(len(rec.moves)))
    diagnostics.extend(c.to_diagnostic() for c in rec.corrections)
    confident = rec.reading_confidence >= READING_THRESHOLD and best.cost <= max_cost
    if not confident:
        rec.status = "needs-human"
        doubtful = sorted(rec.per_move, key=lambda m: m.confidence)[:1]
        where = doubtful[0] if doubtful else None
        reason = (f"its cost {best.cost:.1f} is above --max-cost {max_cost:g}" if best.cost > max_cost else
                  f"the reading has probability {rec.reading_confidence:.2f}, below the {READING_THRESHOLD:.2f} "
                  "needed")
        listed = "; ".join(f"{k}. {_summary(r)} (p={r.probability:.2f})" for k, r in enumerate(readings[:3], 1))
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
        return rec.reading_confidence
    k = min(max(ply, 1), len(rec.per_move)) - 1
    return rec.per_move[k].confidence


def _alternatives(readings: list[Reading], ply: int | None, chosen: str | None) -> tuple[str, ...]:
    if ply is None:
        return ()
    out: list[str] = []
    for r in readings[1:]:
        if len(r.sans) >= ply and r.sans[:ply - 1] == readings[0].sans[:ply - 1] and r.sans[ply - 1] != chosen:
            if r.sans[ply - 1] not in out:
                out.append(r.sans[ply - 1])
    return tuple(out[:3])


def _summary(reading: Reading) -> str:
    """A reading in words: every edit it makes, or ``as written`` when it makes none."""
    parts = [f"{e.kind} {e.ply}. '{e.written or ''}' -> {e.chosen or '(dropped)'}" for e in reading.edits]
    return ", ".join(parts) or "as written"



def sheet_languages() -> list[str]:
    """The language codes accepted by ``lang`` (besides ``auto``)."""
    return list(LANGUAGES)


__all__ = [
    "BoxView",
    "Correction",
    "MoveConfidence",
    "Reconstruction",
    "reconstruct_copies",
    "parse_tags",
    "reconstruct",
    "roster_tags",
    "sheet_languages",
]
