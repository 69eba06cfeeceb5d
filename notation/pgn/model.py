"""The PGN game model: tags, the move tree (SAN still text), comments, NAGs and source spans.

Everything here is plain data built by the reader (``notation.pgn.reader``) or by hand (the
scoresheet builds a :class:`Game` from its moves and writes it with ``notation.pgn.writer``).

Equality (``==``) compares *content*: tags, moves (SAN, NAGs, comments, variations, lenient
form), the result and the intro comments. Where a value came from (``span``, the written move
``number``, ``file``, game ``number``, ``line``, ``offset``, ``encoding``, ``diagnostics``) is not
compared, so a game read, written and read again compares equal to the original.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from notation.diagnostics import Diagnostic

if TYPE_CHECKING:  # pragma: no cover
    from notation.pgn.comment_commands import Arrow, Eval, Highlight

#: The Seven Tag Roster, in export order.
SEVEN_TAG_ROSTER: tuple[str, ...] = ("Event", "Site", "Date", "Round", "White", "Black", "Result")

#: The four game termination markers.
RESULTS: frozenset[str] = frozenset({"1-0", "0-1", "1/2-1/2", "*"})

#: Suffix glyphs and the NAG each stands for (PGN standard 8.2.4 / 10).
GLYPH_NAGS: dict[str, int] = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}


class Span(NamedTuple):
    """Where a token starts: 1-based ``line`` and ``column`` in the file, 0-based ``offset``.

    ``offset`` is the byte offset in the file for byte sources (the reader remaps UTF-8 games
    with non-ASCII text, where characters and bytes differ) and the character offset for text
    streams. A named tuple: immutable, hashable, and cheap to create (one per move).
    """

    line: int
    column: int
    offset: int


NO_SPAN = Span(0, 0, 0)


@dataclass(slots=True, eq=True)
class MoveNode:
    """One move as written, with what follows it (comments, NAGs) and its alternatives.

    ``san`` keeps the token as written including ``+``/``#`` (``!``/``?`` glyphs are moved into
    ``nags``); ``lenient`` holds the canonical spelling when the token was a lenient form
    (``0-0`` -> ``O-O``, ``e8Q`` -> ``e8=Q``, ``♘f3`` -> ``Nf3``). ``variations`` are
    alternatives to *this* move, each starting from the position before it.
    """

    san: str
    span: Span = field(default=NO_SPAN, compare=False)
    nags: list[int] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    pre_comments: list[str] = field(default_factory=list)
    variations: list[list[MoveNode]] = field(default_factory=list)
    number: int | None = field(default=None, compare=False)
    lenient: str | None = None

    # -- comment commands, parsed on access (notation.pgn.comment_commands) --------------------------
    @property
    def clock_seconds(self) -> float | None:
        """``[%clk h:mm:ss(.f)]`` in the comments after the move, in seconds."""
        from notation.pgn.comment_commands import clock_seconds

        return clock_seconds(self.comments)

    @property
    def emt_seconds(self) -> float | None:
        """``[%emt h:mm:ss(.f)]`` (elapsed move time) in the comments, in seconds."""
        from notation.pgn.comment_commands import emt_seconds

        return emt_seconds(self.comments)

    @property
    def eval(self) -> Eval | None:
        """``[%eval +0.35]`` / ``[%eval #-3,20]`` in the comments."""
        from notation.pgn.comment_commands import evaluation

        return evaluation(self.comments)

    @property
    def arrows(self) -> list[Arrow]:
        """``[%cal Ge2e4,Rd1d8]`` arrows in the comments."""
        from notation.pgn.comment_commands import arrows

        return arrows(self.comments)

    @property
    def highlights(self) -> list[Highlight]:
        """``[%csl Ge4,Rd5]`` highlighted squares in the comments."""
        from notation.pgn.comment_commands import highlights

        return highlights(self.comments)


@dataclass(slots=True, eq=True)
class Game:
    """One game: ordered tags, the mainline move tree, the termination marker, diagnostics.

    Build one by hand with keywords, e.g. ``Game(tags={...}, moves=[MoveNode("e4")],
    result="1-0")``. ``result`` is the termination marker token as written (None if absent).
    """

    file: str | None = field(default=None, compare=False)
    number: int = field(default=1, compare=False)
    line: int = field(default=1, compare=False)
    offset: int = field(default=0, compare=False)
    tags: dict[str, str] = field(default_factory=dict)
    moves: list[MoveNode] = field(default_factory=list)
    result: str | None = None
    intro_comments: list[str] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list, compare=False)
    encoding: str = field(default="utf-8", compare=False)

    def mainline(self) -> list[str]:
        """The mainline SAN tokens as written."""
        return [node.san for node in self.moves]

    def has_errors(self) -> bool:
        """True when a syntax diagnostic of severity error was found."""
        return any(d.severity == "error" for d in self.diagnostics)
