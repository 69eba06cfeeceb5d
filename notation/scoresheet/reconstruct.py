"""Scoresheet reconstruction: from a sloppy or damaged move list to a checked game score.

Pipeline: :func:`notation.scoresheet.layout.read_sheet` (cells, header tags, result) →
:func:`notation.scoresheet.tokens.parse_token` per cell (language detected or given) → a least-cost
search over whole-sheet interpretations that replay legally to the end
(:mod:`notation.scoresheet.search`, with the edit costs of :mod:`notation.scoresheet.costs`) →
:class:`Reconstruction` (canonical moves, corrections with alternatives and confidence,
diagnostics, PGN).

The cheapest *different* games the search finds (rivals) set the confidence of the corrections
they disagree with (gap / ``CONFIDENCE_GAP``, capped at 1; the gap is at most the room left
below the cost cap, and 0 when the node budget ran out, since rivals there were never searched;
and 0 when the rival search's beam dropped a state whose completion could cost no more than the
best reading, see ``_Search._completion_bound``: a pruned tie is no evidence for the reading
found). A correction below :data:`CONFIDENCE_THRESHOLD` makes the sheet ``needs-human``, and so
does a rival reading whose likelihood score is within the margin of the best
(:mod:`notation.scoresheet.readings`: readings ranked by how people err and how chess is played,
each with a probability; ``Reconstruction.readings``, likeliest first). A sheet that states no
result gets the one its final position implies (mate, stalemate, dead position). An
ambiguous written move (``Nd2`` with two knights able to go there) is resolved by whichever
reading lets the rest of the game replay, and reported.
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
from notation.scoresheet.costs import confusions, reading_cost
from notation.scoresheet.layout import Sheet, read_sheet
from notation.scoresheet.readings import Edit, Reading, confident, rank_readings
from notation.scoresheet.search import (
    CONFIDENCE_GAP,
    MAX_COST,
    MAX_EXPANSIONS,
    _best_partial,
    _moves_of,
    _path,
    _Search,
    _Step,
)
from notation.scoresheet.tokens import MAX_TOKEN_LENGTH, LANGUAGES, Written, detect_languages, parse_token, too_long

if TYPE_CHECKING:  # pragma: no cover
    from notation.pgn.model import Game
    from notation.rules.move import Move
    from notation.formats.position import Position

#: Readings listed at most (the cheapest found, then ranked): room for a many-way tie of an
#: omitted waiting move.
MAX_READINGS = 10

#: Corrections below this confidence make the sheet "needs a human".
CONFIDENCE_THRESHOLD = 0.6


def confidence_of(gap: float) -> float:
    """Confidence of a correction whose nearest rival reading costs ``gap`` more (0..1)."""
    return round(min(1.0, gap / CONFIDENCE_GAP), 3)


# --- result types -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Correction:
    """One place where the game differs from a literal reading of the sheet.

    ``kind``: ``correction`` (a written move read as a different legal move), ``ambiguous`` (a
    written move that fits several legal moves, resolved by the rest of the game),
    ``omitted`` (a move missing from the sheet, inserted), ``extra`` (a cell dropped),
    ``transposed`` (two cells played in swapped order), ``unreadable`` (a cell that is no move in
    any notation, read as the closest legal move). ``reasons`` name the edits (``wrong piece
    letter``, ``target square one rank off`` ...). ``alternatives`` are the other moves that
    were considered for the cell, best first.
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
        else:
            text = f"written {written} read as {self.chosen}"
        if self.reasons:
            text += f" ({', '.join(self.reasons)})"
        if self.alternatives:
            text += f"; also considered {', '.join(self.alternatives)}"
        return f"{text}; confidence {self.confidence:.2f}"

    def to_diagnostic(self) -> Diagnostic:
        code = "sheet.unreadable" if self.kind == "unreadable" else "sheet.correction"
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


@dataclass(slots=True)
class Reconstruction:
    """The outcome of :func:`reconstruct`.

    ``status``: ``ok`` (read as written, no correction), ``corrected`` (only confident
    corrections), ``needs-human`` (no confident reading: see ``corrections`` and
    ``candidates``). ``sans`` is the game in canonical SAN; ``written`` the cell text behind
    each ply (None for an inserted move).
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
    #: the channel reading's extras (:mod:`notation.scoresheet.copies`): every box of every copy as
    #: read, each move's probability, the reading's probability, the copies read
    boxes: list[Any] = field(default_factory=list)
    per_move: list[Any] = field(default_factory=list)
    reading_confidence: float | None = None
    copies: int = 1

    @property
    def needs_human(self) -> bool:
        return self.status == "needs-human"

    @property
    def confidence(self) -> float:
        """The lowest confidence of any correction (1.0 when none)."""
        return min((c.confidence for c in self.corrections), default=1.0)

    def start_position(self) -> Position:
        from notation.formats.fen import STARTING_FEN
        from notation.formats.position import Position

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
            **({"confidence": self.reading_confidence, "copies": self.copies,
                "per_move": [m.to_dict() for m in self.per_move], "boxes": [b.to_dict() for b in self.boxes]}
               if self.reading_confidence is not None else {}),
        }


def _comment(fix: Correction) -> str:
    if fix.kind == "omitted":
        return "sheet: move missing, inserted"
    if fix.kind == "ambiguous":
        return f'sheet: "{fix.written}" ambiguous, resolved'
    if fix.kind == "transposed":
        return f'sheet: written "{fix.written}", order swapped'
    return f'sheet: written "{fix.written}", corrected'


# --- reporting ----------------------------------------------------------------------------------


def _divergence(best: list[Move], other: list[Move]) -> int:
    """Index of the first ply where two move lists differ."""
    for k, (a, b) in enumerate(zip(best, other)):
        if a != b:
            return k
    return min(len(best), len(other))


_Found = tuple[float, list["Move"], list[_Step]]


def _report(search: _Search, goal: _Step, rivals: list[_Step], start_ply: int) -> tuple[list[Correction], list[_Found], list[str | None], list[Move]]:
    path = _path(goal)
    moves = _moves_of(path)
    # rival readings: other goals, and dominated arrivals at states on the best path (their
    # steps: the rival's own up to the state, then the best reading's, from the same position)
    rival_paths: list[tuple[float, list[Move]]] = []
    rival_steps: list[list[_Step]] = []
    for r in rivals:
        rival_paths.append((max(0.0, r.cost - goal.cost), _moves_of(_path(r))))
        rival_steps.append(_path(r)[1:])
    for at, step in enumerate(path):
        key = (step.index, step.pos.key())
        for rival in search.rivals.get(key, ()):
            if rival[1] is step:
                continue
            prefix = _moves_of(_path(rival[1]))
            here = _moves_of(_path(step))
            if prefix != here:
                rival_paths.append((max(0.0, rival[0] - step.cost), prefix + moves[len(here):]))
                rival_steps.append(_path(rival[1])[1:] + path[at + 1:])
    # one correction per costly or ambiguous step
    corrections: list[Correction] = []
    written_per_ply: list[str | None] = []
    ply = 0
    plies_of_step: list[tuple[int, int]] = []
    for step in path[1:]:
        first = ply
        parent = step.parent
        assert parent is not None
        pos = parent.pos
        for move, cell_index in zip(step.moves, step.cells):
            ply += 1
            written_per_ply.append(search.cells[cell_index].text if cell_index >= 0 else None)
        plies_of_step.append((first, ply))
        kind: str | None = None
        reasons: tuple[str, ...] = ()
        alternatives: list[str] = []
        chosen: str | None = None
        cell = search.cells[step.cells[0]] if step.cells and step.cells[0] >= 0 else None
        if cell is None and step.op == "omitted" and step.index < len(search.cells):
            cell = search.cells[step.index]  # where the omission shows: the next cell
        if step.op == "move":
            move = step.moves[0]
            w = search.written[step.cells[0]]
            if step.edit > 0.0:
                index = step.cells[0]
                reasons = reading_cost(w, search.cells[index].text, search.variants[index], pos, move)[1]
                kind = "unreadable" if reasons == ("unreadable",) else "correction"
                if kind == "unreadable":
                    reasons = ()
            elif len(search.exact(parent.index, pos)) > 1:
                kind = "ambiguous"
            if kind is not None:
                scored = search.candidates(parent)
                chosen = pos.san(move)
                alternatives = [pos.san(m) for c, m in scored if m != move and c <= step.edit + CONFIDENCE_GAP][:3]
        elif step.op == "omitted":
            kind = "omitted"
            chosen = pos.san(step.moves[0])
        elif step.op == "extra":
            kind = "extra"
        elif step.op == "transposed":
            kind = "transposed"
            p = pos
            sans = []
            for m in step.moves:
                sans.append(p.san(m))
                p = p.play(m)
            chosen = " ".join(sans)
        if kind is None:
            continue
        # moves that rival readings play here
        for _extra, other in sorted(rival_paths, key=lambda item: item[0]):
            if first < len(other) and other[:first] == moves[:first] and other[first] not in step.moves[:1]:
                alt = pos.san(other[first])  # same prefix: the same position
                if alt not in alternatives and alt != chosen:
                    alternatives.insert(0, alt)
        alternatives = alternatives[:3]
        # confidence: the cheapest rival reading that disagrees at or after this step's plies
        gap = math.inf
        for extra, other in rival_paths:
            k = _divergence(moves, other)
            if k <= ply - 1 or (step.op == "extra" and k <= ply):
                # rival differs at or before this step: it disputes this correction if it does
                # not agree on the plies this step produced
                if other[first:ply] != moves[first:ply] or step.op == "extra":
                    gap = min(gap, extra)
        # readings above the cost cap are never searched, nor any when the node budget ran out:
        # a rival may hide there
        gap = min(gap, max(0.0, search.max_cost - goal.cost))
        # a state the beam dropped may complete to a reading this cheap
        if search.pruned <= goal.cost + 1e-9:
            gap = 0.0
        if search.truncated:
            gap = 0.0
        written_text = " ".join(search.cells[c].text for c in sorted(step.cells) if c >= 0) or None
        corrections.append(Correction(
            kind=kind, ply=(first + 1) if step.moves else (first if first > 0 else None),
            written=written_text, chosen=chosen, alternatives=tuple(alternatives),
            confidence=confidence_of(gap), cost=round(step.edit, 3), reasons=reasons,
            line=cell.line if cell else None, column=cell.column if cell else None,
        ))
    readings: list[_Found] = [(goal.cost, moves, path[1:])]
    for (extra, other), steps in sorted(zip(rival_paths, rival_steps), key=lambda item: item[0][0]):
        if all(other != known for _, known, _ in readings):
            readings.append((goal.cost + extra, other, steps))
    return corrections, readings, written_per_ply, moves


def _summary(reading: Reading) -> str:
    """A reading in a few words: its first edits, or ``as written`` when it has none."""
    parts = [f"{e.kind} '{e.written or ''}' -> {e.chosen or '(dropped)'}" for e in reading.edits]
    return ", ".join(parts[:3]) or "as written"


def _edit_correction(edit: Edit, probability: float) -> Correction:
    return Correction(kind=edit.kind, ply=edit.ply, written=edit.written, chosen=edit.chosen,
                      confidence=round(probability, 3), reasons=edit.reasons)


def _written_of(search: _Search, found: list[_Found], moves: list[Move]) -> list[str | None]:
    """The cell text behind each ply of the found reading that plays ``moves``."""
    for _, other, steps in found:
        if other == moves:
            return [search.cells[c].text if c >= 0 else None for s in steps for c in s.cells]
    return []


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


def _search_language(sheet: Sheet, lang: str, start: Position, max_cost: float,
                     max_expansions: int) -> tuple[_Search, _Step | None, list[_Step]]:
    cells = sheet.cells
    written = [None if c.placeholder else _located(parse_token(c.text, lang)) for c in cells]
    variants = [() if c.placeholder else confusions(c.text, lang) for c in cells]
    search = _Search(cells, written, start, max_cost, max_expansions, variants)
    goal, rivals = search.run()
    return search, goal, rivals


def merge_tags(sheet_tags: list[dict[str, str]], tags: dict[str, str] | str | None, fen: str | None
               ) -> tuple[dict[str, str], list[Diagnostic], str | None]:
    """The tags of a game from its sheets' headers (the first copy that has one wins) and the
    user's ``tags`` over them, the diagnostics of bad ``tags`` entries, and the start FEN (the
    given one, else a ``FEN`` tag)."""
    merged: dict[str, str] = {}
    for found in sheet_tags:
        for name, value in found.items():
            merged.setdefault(name, value)
    extra_tags, bad_tags = _parse_tags(tags)
    merged.update(extra_tags)
    diagnostics: list[Diagnostic] = [
        Diagnostic.make("sheet.bad-tag", f"tag {entry!r} is no Name=value pair with a PGN tag name: ignored", san=entry)
        for entry in bad_tags]
    if fen is None and merged.get("FEN"):
        fen = merged["FEN"]
    return merged, diagnostics, fen


def _located(w: Written | None) -> Written | None:
    """A written move the search can place: one naming a square or castling (the short forms,
    ``QxQ``, ``dxe``, ``R6``, go to the spelling distance like an unreadable cell)."""
    if w is None or w.castle is None and w.to_square is None:
        return None
    return w


#: The ways a sheet can be read (``method`` of :func:`reconstruct`).
METHODS = ("channel", "repair")


def reconstruct(text: str, *, lang: str = "auto", fen: str | None = None,
                tags: dict[str, str] | str | None = None, max_cost: float | None = None,
                max_expansions: int = MAX_EXPANSIONS, first_line: int = 1,
                method: str = "channel") -> Reconstruction:
    """Reconstruct the game written on a scoresheet.

    ``lang`` is ``auto`` or one of :data:`notation.scoresheet.tokens.LANGUAGES`; ``fen`` a starting
    position; ``tags`` extra tags (a dict or ``"White=…,Black=…"``), overriding the sheet's
    header block; ``first_line`` the line number of the text's first line (a game inside a
    longer file: corrections and diagnostics are located in that file). Never raises on bad
    input: problems come back as diagnostics and a ``needs-human`` status. A whole PGN file
    (tag sections) is read game by game with :func:`notation.scoresheet.pgn_input.read_scoresheets`.

    ``method``: ``channel`` (the default) reads the whole sheet as a noisy channel
    (:mod:`notation.scoresheet.copies`, costs learned from real handwritten sheets) and always
    gives its best complete reading, ``max_cost`` (default 60) being the largest cost of a reading
    that may be confident; ``repair`` is the least-cost repair search (a few slips on a sheet
    otherwise as written), which gives up past ``max_cost`` (default 12) edits and at
    ``max_expansions``.
    """
    if method == "channel":
        from notation.scoresheet.copies import MAX_COST as CHANNEL_MAX_COST
        from notation.scoresheet.copies import reconstruct_copies

        return reconstruct_copies([text], lang=lang, fen=fen, tags=tags, first_lines=[first_line],
                                  max_cost=CHANNEL_MAX_COST if max_cost is None else max_cost)
    if method != "repair":
        raise ValueError(f"method must be one of {', '.join(METHODS)}, not {method!r}")
    return _repair(text, lang=lang, fen=fen, tags=tags, max_cost=MAX_COST if max_cost is None else max_cost,
                   max_expansions=max_expansions, first_line=first_line)


def _repair(text: str, *, lang: str, fen: str | None, tags: dict[str, str] | str | None, max_cost: float,
            max_expansions: int, first_line: int) -> Reconstruction:
    """The repair search's reconstruction (``method="repair"`` of :func:`reconstruct`)."""
    from notation.formats.fen import FenError
    from notation.formats.position import Position

    sheet = read_sheet(text, first_line=first_line)
    merged, diagnostics, fen = merge_tags([sheet.tags], tags, fen)
    try:
        start = Position.from_fen(fen) if fen else Position.initial()
    except FenError as exc:
        diag = Diagnostic.make("fen.invalid", f"starting position {fen!r} is not valid: {exc.message}")
        return Reconstruction(status="needs-human", diagnostics=[diag], tags=merged, layout=sheet.layout)
    start_ply = (start.fullmove_number - 1) * 2 + (0 if start.turn else 1)
    result = sheet.result or merged.get("Result") or "*"
    if result not in ("1-0", "0-1", "1/2-1/2", "*"):
        result = "*"
    full_tags = roster_tags(merged, result, start.fen() if fen else None)

    if lang != "auto" and lang not in LANGUAGES:
        diag = Diagnostic.make("sheet.unreadable", f"unknown scoresheet language '{lang}'")
        return Reconstruction(status="needs-human", diagnostics=[diag], tags=full_tags, layout=sheet.layout)
    languages = [lang] if lang != "auto" else detect_languages([c.text for c in sheet.moves])

    chosen: tuple[str, _Search, _Step | None, list[_Step]] | None = None
    for language in languages:
        search, goal, rivals = _search_language(sheet, language, start, max_cost, max_expansions)
        if chosen is None or (goal is not None and (chosen[2] is None or goal.cost < chosen[2].cost)):
            chosen = (language, search, goal, rivals)
        if goal is not None and goal.cost == 0.0:
            break
    assert chosen is not None
    language, search, goal, rivals = chosen

    rec = Reconstruction(status="ok", tags=full_tags, result=result, language=language,
                         layout=sheet.layout, start_fen=start.fen() if fen else None, start_ply=start_ply)
    for index, cell in enumerate(sheet.cells):
        if not cell.placeholder and too_long(cell.text):
            diagnostics.append(Diagnostic.make(
                "sheet.unreadable", f"a cell of {len(cell.text)} characters is longer than any written move "
                f"({MAX_TOKEN_LENGTH} at most): unreadable",
                line=cell.line, column=cell.column, san=cell.text[:MAX_TOKEN_LENGTH] + "…"))
        elif not cell.placeholder and search.written[index] is None and not search.variants[index]:
            diagnostics.append(Diagnostic.make(
                "sheet.unreadable", f"'{cell.text}' is not a move in any supported notation",
                line=cell.line, column=cell.column, san=cell.text))
    if goal is None:
        rec.status = "needs-human"
        best_prefix = _best_partial(search)
        sans = _san_list(start, best_prefix)
        rec.candidates = [(math.inf, sans)]
        diagnostics.append(Diagnostic.make(
            "sheet.needs-human",
            f"no reading of the sheet replays legally within cost {max_cost:g}; "
            f"the longest legal reading has {len(sans)} plies",
            candidates=tuple(sans[-3:])))
        rec.diagnostics = diagnostics
        return rec
    corrections, found, written_per_ply, moves = _report(search, goal, rivals, start_ply)
    ranked = rank_readings(search, start, found[:MAX_READINGS], lambda ms: _san_list(start, ms))
    rec.readings = ranked
    rec.moves = moves
    rec.sans = _san_list(start, moves)
    rec.written = written_per_ply
    rec.corrections = corrections
    rec.cost = round(goal.cost, 3)
    if ranked[0].moves != moves:
        # the likeliest reading is not the cheapest: it comes first, with its own edits
        best = ranked[0]
        rec.moves, rec.sans, rec.cost = best.moves, best.sans, round(best.cost, 3)
        rec.written = _written_of(search, found, best.moves) or rec.written
        rec.corrections = corrections = [_edit_correction(e, best.probability) for e in best.edits]
    if rec.result == "*":  # the sheet states no result: the one the final position decides
        rec.result = rec.tags["Result"] = _implied_result(rec.position_after(len(rec.moves)))
    rec.candidates = [(round(r.cost, 3), list(r.sans)) for r in ranked]
    diagnostics.extend(c.to_diagnostic() for c in corrections)
    # confident only when the likeliest reading is also the cheapest (the plausibility of the
    # moves orders readings; it never makes a costlier reading exit 0)
    if any(not c.confident for c in corrections) or not confident(ranked) or ranked[0].moves != moves:
        rec.status = "needs-human"
        doubtful = [c for c in corrections if not c.confident] or corrections
        listed = "; ".join(f"{k}. {_summary(r)} (p={r.probability:.2f})" for k, r in enumerate(ranked[:5], 1))
        diagnostics.append(Diagnostic.make(
            "sheet.needs-human",
            f"{len(ranked)} reading(s) within reach, none confident: {listed}",
            ply=doubtful[0].ply if doubtful else None, san=doubtful[0].written if doubtful else None,
            candidates=tuple(x for c in doubtful for x in ((c.chosen or "-"),) + c.alternatives)))
    elif corrections:
        rec.status = "corrected"
    rec.diagnostics = diagnostics
    return rec


def sheet_languages() -> list[str]:
    """The language codes accepted by ``lang`` (besides ``auto``)."""
    return list(LANGUAGES)


__all__ = [
    "METHODS",
    "Correction",
    "Reconstruction",
    "confidence_of",
    "parse_tags",
    "reconstruct",
    "roster_tags",
    "sheet_languages",
]
