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
from typing import TYPE_CHECKING

from notation.diagnostics import Diagnostic
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
from notation.scoresheet.model import (
    CONFIDENCE_THRESHOLD,
    MAX_READINGS,
    Correction,
    Reconstruction,
    _implied_result,
    _san_list,
    confidence_of,
    merge_tags,
    parse_tags,
    roster_tags,
)
from notation.scoresheet.tokens import MAX_TOKEN_LENGTH, LANGUAGES, Written, detect_languages, parse_token, too_long

if TYPE_CHECKING:  # pragma: no cover
    from notation.engines.uci import UciEngine
    from notation.rules.move import Move
    from notation.formats.position import Position
    from notation.scoresheet.engine import EngineSettings






# --- result types -------------------------------------------------------------------------------








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
















def _search_language(sheet: Sheet, lang: str, start: Position, max_cost: float,
                     max_expansions: int) -> tuple[_Search, _Step | None, list[_Step]]:
    cells = sheet.cells
    written = [None if c.placeholder else _located(parse_token(c.text, lang)) for c in cells]
    variants = [() if c.placeholder else confusions(c.text, lang) for c in cells]
    search = _Search(cells, written, start, max_cost, max_expansions, variants)
    goal, rivals = search.run()
    return search, goal, rivals




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
                method: str = "channel", engine: EngineSettings | None = None,
                session: UciEngine | None = None) -> Reconstruction:
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

    ``engine`` (channel only): a UCI chess engine judges the moves the top readings disagree
    on, within its time budget (:mod:`notation.scoresheet.engine`), started for this sheet and
    quit, or ``session``, one already running.
    """
    if method == "channel":
        from notation.scoresheet.copies import MAX_COST as CHANNEL_MAX_COST
        from notation.scoresheet.copies import reconstruct_copies

        return reconstruct_copies([text], lang=lang, fen=fen, tags=tags, first_lines=[first_line],
                                  max_cost=CHANNEL_MAX_COST if max_cost is None else max_cost,
                                  engine=engine, session=session)
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
