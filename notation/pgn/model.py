"""The PGN game model: tags, the move tree (SAN still text), comments, NAGs and source spans.

Everything here is plain data built by the reader (``notation.pgn.reader``) or by hand (the
scoresheet builds a :class:`Game` from its moves and writes it with ``notation.pgn.writer``).

Equality (``==``) compares *content*: tags, moves (SAN, NAGs, comments, variations, lenient
form), the result and the intro comments. Where a value came from (``span``, the written move
``number``, ``file``, game ``number``, ``line``, ``offset``, ``encoding``, ``diagnostics``) is not
compared, so a game read, written and read again compares equal to the original.

Limits (hostile input): the reader keeps variations nested up to :data:`MAX_VARIATION_DEPTH`
levels (deeper ones are reported as ``pgn.too-deep`` and not read) and reads a line of play up
to its first move beyond :data:`MAX_LINE_PLIES` (reported there as ``game.too-long``, by the
reader and by replay; the rest of the line is not read). Every walk over the move tree here
(``==``, ``repr``), in replay and in the writer is iterative, so a :class:`Game` built by hand
may nest to any depth.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from notation.diagnostics import Diagnostic

if TYPE_CHECKING:  # pragma: no cover
    from notation.pgn.comment_commands import Arrow, Eval, Highlight

#: The Seven Tag Roster, in export order.
SEVEN_TAG_ROSTER: tuple[str, ...] = ("Event", "Site", "Date", "Round", "White", "Black", "Result")

#: The four game termination markers.
RESULTS: frozenset[str] = frozenset({"1-0", "0-1", "1/2-1/2", "*"})

#: Deepest variation nesting the reader keeps: a variation of the mainline is at level 1, a
#: variation inside it at level 2, ... Real annotation rarely goes past 10 levels; a deeper
#: variation is reported (``pgn.too-deep``) at its '(' and not read, the rest of the game is.
#: The compiled core takes games up to the same depth (``src/replay.rs``, ``MAX_DEPTH``).
MAX_VARIATION_DEPTH = 64

#: The longest a game can go on (FIDE Laws 9.6.2: the 75-move rule and the fivefold
#: repetition end any game after at most 17,697 plies). A line of play -- the mainline or a
#: variation, plies counted from the game's first move -- is replayed up to this ply; the next
#: move is reported as ``game.too-long`` and the line stops there (the compiled core declines
#: such a game: ``src/replay.rs``, ``MAX_PLIES``). The reader keeps no move of a line past that
#: one, so memory stays bounded by the cap, not by the text. A game from a ``[FEN]`` counts
#: its plies from its own first move (the cap is then more lenient than the Laws).
MAX_LINE_PLIES = 17_697


def too_long(ply: int, san: str, **where: Any) -> Diagnostic:
    """``game.too-long`` at the move written ``san``, ply ``ply`` (the first beyond
    :data:`MAX_LINE_PLIES`); ``where``: file, game, line, column. The reader reports it where it
    stops keeping a line, replay where it stops playing one (once per move: the same value)."""
    return Diagnostic.make(
        "game.too-long",
        f"move {san!r} is ply {ply}: no game lasts beyond ply {MAX_LINE_PLIES} (9.6.2); "
        "the rest of this line is not read",
        ply=ply,
        san=san,
        **where,
    )


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


@dataclass(slots=True, eq=False)
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

    def __eq__(self, other: object) -> bool:
        """Content equality (``span`` and ``number`` are not compared), walking the variations
        with an explicit stack: any nesting depth compares without recursion."""
        if not isinstance(other, MoveNode):
            return NotImplemented
        pending: list[tuple[list[MoveNode], list[MoveNode]]] = [([self], [other])]
        while pending:
            mine, theirs = pending.pop()
            if len(mine) != len(theirs):
                return False
            for a, b in zip(mine, theirs):
                if a is b:
                    continue
                if (a.san, a.nags, a.comments, a.pre_comments, a.lenient) != (
                    b.san,
                    b.nags,
                    b.comments,
                    b.pre_comments,
                    b.lenient,
                ) or len(a.variations) != len(b.variations):
                    return False
                pending.extend(zip(a.variations, b.variations))
        return True

    def __repr__(self) -> str:
        """The dataclass repr, built from an explicit stack: any nesting depth."""
        parts: list[str] = []
        todo: list[str | MoveNode] = [self]
        while todo:
            item = todo.pop()
            if isinstance(item, str):
                parts.append(item)
                continue
            parts.append(
                f"MoveNode(san={item.san!r}, span={item.span!r}, nags={item.nags!r}, "
                f"comments={item.comments!r}, pre_comments={item.pre_comments!r}, variations=["
            )
            pieces: list[str | MoveNode] = []
            for index, variation in enumerate(item.variations):
                pieces.append(", [" if index else "[")
                for position, child in enumerate(variation):
                    if position:
                        pieces.append(", ")
                    pieces.append(child)
                pieces.append("]")
            pieces.append(f"], number={item.number!r}, lenient={item.lenient!r})")
            todo.extend(reversed(pieces))
        return "".join(parts)

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
