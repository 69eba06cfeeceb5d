"""The position to draw: from a FEN, or from a game of a PGN source at a chosen ply, with the
last move, the ``[%cal]`` arrows and ``[%csl]`` squares of the comment after that move.

Games are replayed with :func:`notation.validation.replay.replay` (the one place notation
becomes moves); a ply beyond the legal mainline, a game number beyond the source, a bad FEN or
an unsupported variant is a diagnostic, never an exception.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from notation.diagnostics import Diagnostic, ply_label
from notation.formats.fen import FenError
from notation.pgn.comment_commands import Arrow, Highlight, arrows, highlights
from notation.pgn.model import Game
from notation.pictures.board import diagram_ply, position_svg
from notation.rules.move import Move
from notation.formats.position import Position


@dataclass(frozen=True, slots=True)
class Diagram:
    """A position with what a diagram of it shows besides the pieces."""

    position: Position
    last_move: Move | None = None
    arrows: tuple[Arrow, ...] = ()
    highlights: tuple[Highlight, ...] = ()
    caption: str | None = None
    ply: int = 0
    notes: list[Diagnostic] = field(default_factory=list, compare=False)

    def svg(self, *, flipped: bool = False, coordinates: bool = True, size: int = 360, caption: bool = True) -> str:
        """The diagram as SVG text (:func:`notation.pictures.board.position_svg`)."""
        last = None if self.last_move is None else (self.last_move.from_square, self.last_move.to_square)
        return position_svg(
            self.position,
            last_move=last,
            marks=[(h.square, h.colour) for h in self.highlights],
            arrows=[(a.from_square, a.to_square, a.colour) for a in self.arrows],
            flipped=flipped,
            coordinates=coordinates,
            size=size,
            caption=self.caption if caption else None,
        )

    def _repr_svg_(self) -> str:
        return self.svg()


def parse_ply(spec: str) -> int | None:
    """``"12"`` -> ply 12; ``"24w"`` / ``"24b"`` -> after White's / Black's 24th move (47 / 48);
    None when ``spec`` is neither. Only ASCII digits count (``¹`` or ``١`` is no ply)."""
    text = spec.strip()
    if text.isascii() and text.isdigit():
        return int(text)
    if text and not text[-1].isdigit():
        return diagram_ply(text)
    return None


def from_fen(text: str) -> tuple[Diagram | None, list[Diagnostic]]:
    """The diagram of a FEN (X-FEN and Shredder-FEN too), or a ``fen.invalid`` diagnostic."""
    try:
        return Diagram(Position.from_fen(text.strip())), []
    except FenError as exc:
        return None, [Diagnostic.make("fen.invalid", f"invalid FEN: {exc}", fen=text.strip())]


def from_game(game: Game, ply: int | None = None) -> tuple[Diagram | None, list[Diagnostic]]:
    """The position of ``game`` after ``ply`` mainline plies (0: the start position; None: the
    end of the legal mainline). Plies count from the game's first move."""
    from notation.validation.replay import replay

    where = {"file": game.file, "game": game.number}
    result = replay(game, variations=False, notes=False)
    errors = [d.located(**where) for d in result.diagnostics if d.severity == "error"]
    if result.start is None or result.final is None:
        if result.unsupported:
            message = f"variant {result.unsupported!r} is not standard chess or Chess960: no diagram"
            return None, [Diagnostic.make("variant.unsupported", message, severity="error", **where)]
        return None, errors
    played = len(result.plies)
    target = played if ply is None else ply
    if target < 0 or target > played:
        stop = "" if result.stopped_at is None else f" (it stops at ply {result.stopped_at})"
        message = f"ply {target} asked for, but the mainline has {played} legal plies{stop}"
        return None, [Diagnostic.make("picture.no-such-ply", message, **where), *errors]
    names = " – ".join(game.tags.get(t, "?") for t in ("White", "Black"))
    if target == 0:
        comments = game.intro_comments
        return Diagram(
            result.start, None, tuple(arrows(comments)), tuple(highlights(comments)), f"{names}, start", 0
        ), []
    record = result.plies[target - 1]
    comments = record.node.comments
    label = ply_label(target, record.san, result.start_ply)
    return Diagram(
        record.after,
        record.move,
        tuple(arrows(comments)),
        tuple(highlights(comments)),
        f"{names}, after {label}",
        target,
    ), []


def from_source(
    source: str | Path, *, game: int = 1, ply: int | None = None
) -> tuple[Diagram | None, list[Diagnostic]]:
    """The diagram of game number ``game`` (1-based) of a PGN file after ``ply`` plies."""
    from notation.pgn.chunks import ReadFailure
    from notation.pgn.reader import parse_raw_game, split_games
    from notation.pgn.sources import require_existing

    try:
        require_existing(source)
        for raw in split_games(source):
            if raw.number == game:
                if isinstance(raw, ReadFailure):
                    return None, [raw.diagnostic]  # not a game to draw
                return from_game(parse_raw_game(raw), ply)  # only the game asked for is parsed
    except OSError as exc:
        return None, [Diagnostic.make("pgn.io", f"cannot read: {exc.strerror or exc}", file=str(source))]
    message = f"game {game} asked for, but the input holds fewer games"
    return None, [Diagnostic.make("picture.no-such-game", message, file=str(source))]


def diagram(spec: str, *, game: int = 1, ply: int | None = None) -> tuple[Diagram | None, list[Diagnostic]]:
    """A diagram from ``spec``: an existing file is read as PGN (game ``game`` after ``ply``
    plies), anything else as a FEN."""
    from notation.pgn.sources import is_input_file

    if spec == "-" or is_input_file(spec):  # a file, a pipe, /dev/stdin
        return from_source(spec, game=game, ply=ply)
    found, problems = from_fen(spec)
    if found is None and " " not in spec.strip():  # no FEN has a single field: a missing file
        return None, [Diagnostic.missing_file(spec, "and not a FEN")]
    return found, problems
