"""Reading a game from its scoresheet: one copy, or several copies of one game.

The pipeline, one module a stage:

1. **the sheet** — :func:`notation.scoresheet.layout.read_sheet`: the text's layout, header lines
   (tags, a free-text title, player and event lines) and boxes; each box's text read without a
   position by :mod:`notation.scoresheet.tokens` (``grammars/sheet.lark``);
2. **the channel** — :mod:`notation.scoresheet.channel` (how likely a box's text is for each
   legal move: the ways people write moves and the slips they make, learned from real
   handwritten sheets), with the priors on moves (:mod:`notation.scoresheet.plausibility`,
   :mod:`notation.scoresheet.book`);
3. **the decoder** — :mod:`notation.scoresheet.decoder`: a beam search over the plies of the game,
   every copy an independent witness, and the probabilities of its lattice
   (:mod:`notation.scoresheet.sums`);
4. **the verdict** — :mod:`notation.scoresheet.verdict`: one :class:`~notation.scoresheet.verdict.Reconstruction`.

A single sheet is the one-copy case (:func:`reconstruct`). ``pins`` are moves a reviewer has
settled (``12...Nf6``): the reading plays each at its ply.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from notation.diagnostics import Diagnostic
from notation.scoresheet.channel import costs_in_force
from notation.scoresheet.decoder import read_copies
from notation.scoresheet.layout import Sheet, read_sheet
from notation.scoresheet.lattice import Box, Lattice
from notation.scoresheet.tags import merge_tags, roster_tags
from notation.scoresheet.tokens import LANGUAGES, MAX_TOKEN_LENGTH, detect_languages, too_long
from notation.scoresheet.verdict import Reconstruction, Setting, verdict

if TYPE_CHECKING:  # pragma: no cover
    from notation.formats.position import Position

#: Default cap on the cost of a confident reading (nats: the sum of its boxes' costs).
MAX_COST = 60.0
#: The boxes of a copy read at most (600 moves: longer than any game played over the board);
#: the rest are reported.
MAX_BOXES = 1200

_PIN = re.compile(r"\s*([0-9]{1,4})\s*(\.\.\.|…|\.)\s*([^\s.…]\S*)\s*")


class PinError(ValueError):
    """A pin that is not ``N.`` or ``N...`` followed by a move, or before the game's start."""


def parse_pin(text: str, start_ply: int = 0) -> tuple[int, str]:
    """A reviewer's pin (``12.Nf3`` White's twelfth move, ``12...Nf6`` Black's) as (ply of the
    reading, 1-based; the move as written). Raises :class:`PinError`."""
    m = _PIN.fullmatch(text)
    if m is None:
        raise PinError(
            f"{text!r} is not a pin: write the move number, '.' for White or '...' for Black, "
            "and the move, e.g. 12...Nf6"
        )
    number, dots, san = int(m.group(1)), m.group(2), m.group(3)
    absolute = (number - 1) * 2 + (0 if dots == "." else 1)
    if number < 1 or absolute < start_ply:
        raise PinError(f"{text!r}: the sheet starts after that move")
    return absolute - start_ply + 1, san


def reconstruct(
    text: str,
    *,
    lang: str = "auto",
    fen: str | None = None,
    tags: dict[str, str] | str | None = None,
    max_cost: float | None = None,
    first_line: int = 1,
    pins: Iterable[str] = (),
    costs: Mapping[str, float] | None = None,
) -> Reconstruction:
    """The game written on one scoresheet (the one-copy case of :func:`read_sheets`).

    ``lang`` is ``auto`` or one of :data:`notation.scoresheet.tokens.LANGUAGES`; ``fen`` a starting
    position; ``tags`` extra tags (a dict or ``"White=…,Black=…"``), overriding the sheet's header;
    ``max_cost`` the largest cost of a reading that may be confident (default :data:`MAX_COST`);
    ``first_line`` the line number of the text's first line (a game inside a longer file);
    ``pins`` moves a reviewer has settled (``"12...Nf6"``); ``costs`` a channel cost table to
    read with instead of the one the package ships (names as ``channel_costs.json``'s ``costs``,
    over :data:`notation.scoresheet.channel.DEFAULTS`: a table learned from other sheets by
    :func:`notation.scoresheet.learn.learn_costs`). Never raises on bad input: problems
    come back as diagnostics and a ``needs-human`` status. A whole PGN file (tag sections) is read
    game by game with :func:`notation.scoresheet.pgn_input.read_scoresheets`.
    """
    return read_sheets(
        [text], lang=lang, fen=fen, tags=tags, max_cost=max_cost, first_lines=[first_line], pins=pins, costs=costs
    )


def read_sheets(
    texts: list[str],
    *,
    lang: str = "auto",
    fen: str | None = None,
    tags: dict[str, str] | str | None = None,
    max_cost: float | None = None,
    first_lines: list[int] | None = None,
    pins: Iterable[str] = (),
    costs: Mapping[str, float] | None = None,
) -> Reconstruction:
    """The game written on the copies ``texts`` of its scoresheet (the two players' sheets, say):
    independent witnesses of the same moves. Options as :func:`reconstruct`; the corrections say
    which copy each concerns and the view of the boxes covers every box of every copy."""
    with costs_in_force(costs):
        return _read_sheets(texts, lang, fen, tags, max_cost, first_lines, pins)


def _read_sheets(
    texts: list[str],
    lang: str,
    fen: str | None,
    tags: dict[str, str] | str | None,
    max_cost: float | None,
    first_lines: list[int] | None,
    pins: Iterable[str],
) -> Reconstruction:
    from notation.formats.fen import FenError, parse_fen
    from notation.formats.position import Position

    lines = first_lines or [1] * len(texts)
    sheets = [read_sheet(text, first_line=line) for text, line in zip(texts, lines)]
    layout = sheets[0].layout if sheets else "numbered"
    merged, diagnostics, fen = merge_tags([sheet.tags for sheet in sheets], tags, fen)
    result = next((s.result for s in sheets if s.result), None) or merged.get("Result") or "*"
    if result not in ("1-0", "0-1", "1/2-1/2", "*"):
        result = "*"
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
    pinned: list[tuple[int, str]] = []
    for pin in pins:
        try:
            pinned.append(parse_pin(pin, start_ply))
        except PinError as exc:
            diagnostics.append(Diagnostic.make("sheet.pin", str(exc), san=pin))
    diagnostics.extend(_oversized(sheets))
    copies = [boxes_of(sheet) for sheet in sheets]
    language, lattice = _read(copies, sheets, lang, start, {ply - 1: san for ply, san in pinned})
    setting = Setting(
        tags=full_tags,
        result=result,
        start=start,
        start_fen=start.fen() if fen else None,
        start_ply=start_ply,
        layout=layout,
        copies=len(texts),
        max_cost=MAX_COST if max_cost is None else max_cost,
        diagnostics=tuple(diagnostics),
        pins=tuple(sorted(pinned)),
    )
    return verdict(setting, language, lattice, copies)


def boxes_of(sheet: Sheet) -> list[Box]:
    """The sheet's boxes (at most :data:`MAX_BOXES`); a cell too long to hold a move is no box
    (it is reported)."""
    return [
        Box(c.text, c.line, c.column, blank=c.placeholder or c.text.strip() in ("?", ""))
        for c in sheet.cells
        if c.placeholder or not too_long(c.text)
    ][:MAX_BOXES]


def _oversized(sheets: list[Sheet]) -> list[Diagnostic]:
    """Cells too long to hold a move, and sheets with more boxes than :data:`MAX_BOXES`."""
    out: list[Diagnostic] = []
    for sheet in sheets:
        for cell in sheet.cells:
            if not cell.placeholder and too_long(cell.text):
                out.append(
                    Diagnostic.make(
                        "sheet.unreadable",
                        f"a cell of {len(cell.text)} characters is longer than any written move "
                        f"({MAX_TOKEN_LENGTH} at most): unreadable",
                        line=cell.line,
                        column=cell.column,
                        san=cell.text[:MAX_TOKEN_LENGTH] + "…",
                    )
                )
        cells = [c for c in sheet.cells if c.placeholder or not too_long(c.text)]
        if len(cells) > MAX_BOXES:
            first = cells[MAX_BOXES]
            out.append(
                Diagnostic.make(
                    "sheet.too-long",
                    f"a sheet of {len(cells)} boxes: only the first {MAX_BOXES} are read",
                    line=first.line,
                    column=first.column,
                    san=first.text,
                )
            )
    return out


def _read(
    copies: list[list[Box]], sheets: list[Sheet], lang: str, start: Position, pins: dict[int, str]
) -> tuple[str, Lattice]:
    """The copies read in ``lang``, or in each language the boxes may be in (the cheapest
    reading's language)."""
    languages = [lang] if lang != "auto" else detect_languages([c.text for sheet in sheets for c in sheet.moves])
    best: tuple[str, Lattice] | None = None
    for language in languages:
        lattice = read_copies(copies, start, language, pins=pins)
        if best is None or (
            lattice.readings and (not best[1].readings or lattice.readings[0].cost < best[1].readings[0].cost)
        ):
            best = (language, lattice)
    assert best is not None
    return best


__all__ = ["MAX_BOXES", "MAX_COST", "PinError", "boxes_of", "parse_pin", "read_sheets", "reconstruct"]
