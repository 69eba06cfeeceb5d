"""What the reader yields: a game's text (:class:`RawGame`) or, beside the games, a
:class:`ReadFailure` (a source that could not be read, or not to the end, or holds no PGN).

Both are plain data (they cross to worker processes); neither is parsed. A read failure is
never a game: it has no tags and no moves, and every consumer tells it apart by its type.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

from notation.diagnostics import Diagnostic
from notation.pgn.sources import decode


@dataclass(slots=True)
class RawGame:
    """One game's source text and where it starts; no parsing done.

    ``data`` is bytes for binary sources (decoded by :func:`notation.pgn.reader.parse_raw_game`,
    per game, with the CP1252/CP850 fallback of :func:`notation.pgn.sources.decode`) or str for
    text handles. ``size`` counts the game's bytes; when it exceeds the cap, ``oversized`` is set
    and ``data`` holds only the start of the game. ``io_error`` marks a whole game after which
    reading stopped (set by the distributed import engine on the last game of a range; the
    reader itself reports such a failure as a :class:`ReadFailure` after the game).
    """

    data: bytes | str
    file: str | None
    number: int
    line: int
    offset: int
    size: int = 0
    oversized: bool = False
    io_error: str | None = None

    def __reduce__(self) -> tuple[type[RawGame], tuple[Any, ...]]:
        # pickled as its fields: half the cost of a slots dataclass's default (games cross to
        # worker processes in batches)
        return (
            RawGame,
            (self.data, self.file, self.number, self.line, self.offset, self.size, self.oversized, self.io_error),
        )

    @property
    def text(self) -> str:
        """The game text (decoded)."""
        if isinstance(self.data, str):
            return self.data
        return decode(self.data)[0]


@dataclass(frozen=True, slots=True)
class ReadFailure:
    """Where reading a source failed, yielded beside its games: not a game.

    ``kind`` is ``"io"`` (the source could not be opened or read to the end: ``diagnostic`` is
    its ``pgn.io``, located at the game being read when it stopped, line 0 when nothing was
    read) or ``"not-pgn"`` (text with no PGN structure: its ``pgn.not-pgn``). ``number``,
    ``line`` and ``offset`` locate it where the next game would have stood; ``reason`` is what
    went wrong as the reader met it (the diagnostic's message may add where).
    """

    kind: Literal["io", "not-pgn"]
    diagnostic: Diagnostic
    file: str | None
    number: int
    line: int
    offset: int
    reason: str

    @classmethod
    def io(cls, message: str, *, file: str | None, number: int, line: int, offset: int) -> ReadFailure:
        """The ``pgn.io`` failure ``message`` (line 0: the source could not be read at all)."""
        text = message if line else f"cannot read the source: {message}"
        diagnostic = Diagnostic.make("pgn.io", text, file=file, game=number, line=line or None)
        return cls("io", diagnostic, file, number, line, offset, message)


#: One item of the reader's stream: a game's text, or a read failure beside the games.
Chunk: TypeAlias = RawGame | ReadFailure
