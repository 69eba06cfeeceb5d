"""Scoresheet inputs that are PGN: a file of games read game by game, the sloppy ones repaired.

:func:`has_pgn_structure` decides. The test: the first line of the text that is neither blank
nor a ``%`` escape line is one well-formed PGN tag pair (``[Name "value"]``, the syntax of
``grammars/tokens.lark``), i.e. the text opens with a tag section before any movetext. A move
list without tags, or with a header of ``Event: …`` lines, is a sheet: it goes to
:func:`notation.scoresheet.reader.reconstruct` whole, as before. A sheet typed with PGN tag
pairs above sloppy moves is PGN by this test, and reads the same: its moves do not replay, so it
falls back to the same reconstruction (below).

:func:`read_pgn_sheets` splits the text with the PGN reader (:func:`notation.pgn.reader.split_games`,
one game per tag section) and, per game:

* parses and replays it (:func:`notation.validation.replay.replay`, mainline only). A game
  whose every mainline move replays legally, with no error from the reader, is a **certain
  reading**: status ``ok``, layout ``pgn``, cost 0, its moves in canonical SAN, no search;
* otherwise (an illegal, ambiguous or invalid SAN, junk in the movetext, a reader error, an
  invalid FEN) the game's own text is reconstructed (:func:`~notation.scoresheet.reader.reconstruct`,
  with its tags and ``first_line`` set, so corrections and diagnostics are located in the file):
  the best reading, its corrections and rivals, as for any sheet. Before that, what only PGN
  has is blanked out of the movetext, keeping every line and column: comments ``{…}``,
  variations ``(…)``, NAGs ``$n`` and ``%`` escape lines (``;`` is kept: it separates CSV cells);
* a game of a variant other than standard chess or Chess960 is not read: ``needs-human`` with
  the reader's ``variant.unsupported`` diagnostic.

The user's ``tags`` override the game's, ``fen`` its start position, as for a sheet.
:func:`read_scoresheets` is the entry point for any input: one :class:`SheetGame` per game of a
PGN text, or the one sheet.
"""

from __future__ import annotations

import io
import re
from collections.abc import Generator, Iterable, Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from notation.diagnostics import Diagnostic
from notation.pgn.chunks import RawGame, ReadFailure
from notation.scoresheet.layout import read_header
from notation.scoresheet.reader import reconstruct
from notation.scoresheet.tags import roster_tags, tag_pairs
from notation.scoresheet.verdict import Reading, Reconstruction, implied_result

if TYPE_CHECKING:  # pragma: no cover
    from concurrent.futures import Executor

    from notation.pgn.chunks import Chunk
    from notation.pgn.model import Game

_RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
_NAG = re.compile(r"\$\d+")


@dataclass(slots=True)
class SheetGame:
    """One game of a scoresheet input and its reading.

    ``number`` counts the games of the input (1-based); ``line`` is the line of its first tag
    (1 for a sheet); ``pgn`` is True for a game of a PGN input; ``replayed`` True when the game
    replayed legally as written (a certain reading, no search).
    """

    number: int
    line: int
    reconstruction: Reconstruction
    pgn: bool = False
    replayed: bool = False


def has_pgn_structure(text: str) -> bool:
    """True when ``text`` opens with a PGN tag section (see the module docstring)."""
    from notation.pgn.tags import patterns

    pair = patterns().pair
    for line in io.StringIO(text.lstrip("\ufeff")):
        stripped = line.strip()
        if not stripped or line.startswith("%"):
            continue
        return pair.fullmatch(stripped) is not None
    return False


def read_scoresheets(
    text: str,
    *,
    lang: str = "auto",
    fen: str | None = None,
    tags: dict[str, str] | str | None = None,
    max_cost: float | None = None,
    executor: Executor | None = None,
) -> Iterator[SheetGame]:
    """The games of a scoresheet input: per game of a PGN text (:func:`read_pgn_sheets`, in the
    workers of ``executor`` when given), else the one sheet read. Options as
    :func:`~notation.scoresheet.reader.reconstruct`."""
    if has_pgn_structure(text):
        yield from read_pgn_sheets(text, lang=lang, fen=fen, tags=tags, max_cost=max_cost, executor=executor)
        return
    rec = reconstruct(text, lang=lang, fen=fen, tags=tags, max_cost=max_cost)
    yield SheetGame(number=1, line=1, reconstruction=rec)


def read_pgn_sheets(
    text: str,
    *,
    lang: str = "auto",
    fen: str | None = None,
    tags: dict[str, str] | str | None = None,
    max_cost: float | None = None,
    executor: Executor | None = None,
) -> Iterator[SheetGame]:
    """One :class:`SheetGame` per game of the PGN ``text`` (streaming; see the module docstring),
    in input order; with an ``executor`` (:func:`notation.parallel.worker_pool`) the games are
    read in its workers, the same sheets."""
    from notation.pgn.reader import split_games

    yield from read_pgn_chunks(
        split_games(io.StringIO(text)), lang=lang, fen=fen, tags=tags, max_cost=max_cost, executor=executor
    )


def read_pgn_chunks(
    chunks: Iterable[Chunk],
    *,
    lang: str = "auto",
    fen: str | None = None,
    tags: dict[str, str] | str | None = None,
    max_cost: float | None = None,
    executor: Executor | None = None,
) -> Generator[SheetGame, None, None]:
    """:func:`read_pgn_sheets` of games already split (:func:`notation.pgn.reader.split_games`
    of any source: bytes or text), one :class:`SheetGame` per chunk, in order, streaming: a
    chunk is taken when its sheet is wanted, and with an ``executor`` at most two games per
    worker are in flight (:func:`notation.parallel.ordered_map`; a task here is one game)."""
    from notation.parallel import ordered_map

    options = (lang, fen, tags, max_cost)
    yield from ordered_map(_pgn_sheet, ((raw, options) for raw in chunks), executor, ahead_per_worker=2)


_Options = tuple[str, str | None, dict[str, str] | str | None, float | None]


def _pgn_sheet(task: tuple[Chunk, _Options]) -> SheetGame:
    """The sheet of one game of a PGN input (see :func:`read_pgn_sheets`)."""
    from notation.pgn.reader import parse_raw_game

    raw, (lang, fen, tags, max_cost) = task
    if isinstance(raw, RawGame) and isinstance(raw.data, bytes) and not raw.oversized:
        raw = replace(raw, data=raw.text)  # a game of a binary source: decoded game by game, as every reader does
    extra, bad = tag_pairs(tags)
    bad_tags = [
        Diagnostic.make("sheet.bad-tag", f"tag {entry!r} is no Name=value pair with a PGN tag name: ignored", san=entry)
        for entry in bad
    ]
    if isinstance(raw, ReadFailure):
        rec = Reconstruction(
            status="needs-human", tags=roster_tags({}, "*", None), layout="pgn", diagnostics=[*bad_tags, raw.diagnostic]
        )
        return SheetGame(raw.number, raw.line, rec, pgn=True)
    if raw.oversized or not isinstance(raw.data, str):
        game = parse_raw_game(raw)  # not readable as a game: its diagnostics say why
        rec = Reconstruction(
            status="needs-human",
            tags=roster_tags(game.tags, "*", None),
            layout="pgn",
            diagnostics=bad_tags + game.diagnostics,
        )
        return SheetGame(raw.number, raw.line, rec, pgn=True)
    certain = _certain_reading(parse_raw_game(raw), extra, fen)
    if certain is not None:
        certain = replace(certain, diagnostics=bad_tags + certain.diagnostics)
        return SheetGame(raw.number, raw.line, certain, pgn=True, replayed=certain.status == "ok")
    rec = reconstruct(mask_movetext(raw.data), lang=lang, fen=fen, tags=tags, max_cost=max_cost, first_line=raw.line)
    return SheetGame(raw.number, raw.line, rec, pgn=True)


def _certain_reading(game: Game, extra: dict[str, str], fen: str | None) -> Reconstruction | None:
    """The reading of one parsed PGN game when it replays legally as written (None: reconstruct
    it); a ``needs-human`` one for an unsupported variant."""
    from notation.validation.replay import replay

    game.tags.update(extra)
    if fen is not None:
        game.tags["FEN"] = fen
        game.tags["SetUp"] = "1"
    rep = replay(game, variations=False, notes=False)
    if rep.unsupported is not None:
        diagnostics = [d.located(game=game.number, line=d.line or game.line) for d in rep.diagnostics]
        return Reconstruction(
            status="needs-human", tags=roster_tags(game.tags, "*", None), layout="pgn", diagnostics=diagnostics
        )
    errors = any(d.severity == "error" for d in game.diagnostics) or any(d.severity == "error" for d in rep.diagnostics)
    if rep.start is None or rep.final is None or rep.stopped_at is not None or errors:
        return None
    result = game.result if game.result in _RESULTS else game.tags.get("Result", "*")
    if result not in _RESULTS:
        result = "*"
    if result == "*":  # the game states no result: the one its final position decides
        result = implied_result(rep.final)
    tag_fen = game.tags.get("FEN")
    start_fen = rep.start.fen() if tag_fen is not None else None
    kept = {name: value for name, value in game.tags.items() if name not in ("SetUp", "FEN")}
    sans = [p.san for p in rep.plies]
    moves = [p.move for p in rep.plies]
    return Reconstruction(
        status="ok",
        sans=sans,
        moves=moves,
        written=[p.node.san for p in rep.plies],
        start_fen=start_fen,
        tags=roster_tags(kept, result, start_fen),
        result=result,
        layout="pgn",
        readings=[Reading(tuple(moves), tuple(sans), 0.0)],
        start_ply=rep.start_ply,
        chess960=rep.chess960,
    )


def mask_movetext(text: str) -> str:
    """``text`` (one PGN game) with its movetext's comments, variations, NAGs and ``%`` escape
    lines blanked out (each character a space, line ends kept), so that the sheet reader sees
    only the mainline, every token where it was written. An unclosed ``{`` or ``(`` is kept as
    written (its text reads as cells)."""
    lines = text.split("\n")
    _, start = read_header(lines)
    body = "\n".join("" if line.startswith("%") else line for line in lines[start:])
    out = list(body)
    depth_start: list[int] = []
    index = 0
    while index < len(out):
        char = out[index]
        if char == "{":
            close = body.find("}", index + 1)
            if close == -1:
                index += 1
                continue
            _blank(out, index, close + 1)
            index = close + 1
            continue
        if char == "(":
            depth_start.append(index)
        elif char == ")" and depth_start:
            opened = depth_start.pop()
            if not depth_start:
                _blank(out, opened, index + 1)
        index += 1
    masked = _NAG.sub(lambda m: " " * len(m.group()), "".join(out))
    return "\n".join(lines[:start] + [masked]) if start else masked


def _blank(chars: list[str], begin: int, end: int) -> None:
    for k in range(begin, end):
        if chars[k] != "\n":
            chars[k] = " "


__all__ = ["SheetGame", "has_pgn_structure", "mask_movetext", "read_pgn_chunks", "read_pgn_sheets", "read_scoresheets"]
