"""A game re-spelled from its moves: canonical SAN, optional parts stripped, tags added.

:func:`normalise` walks the mainline and every variation from their positions (iteratively, so
deep variations cost no recursion) and rewrites each move in standard SAN as the replay
understands it: minimal disambiguation (``Ngf3`` -> ``Nf3`` when no other knight can go there),
``O-O`` for ``0-0``, ``e8=Q`` for ``e8Q``, the right ``+``/``#``. A line keeps its moves as written
from its first move that cannot be played (nothing is lost). The result carries the mainline's
legal moves (:class:`Mainline`), from which the added tags and the per-position formats come.

Added tags (:data:`ADDED_TAGS`): ``PlyCount`` (mainline plies played), ``FinalFEN``, ``HashCode``
(the Polyglot key of the final position, 16 hex digits: the key of Polyglot opening books and
python-chess's ``chess.polyglot.zobrist_hash``, where en passant counts when a pawn stands ready
to capture, legal or not), and ``ECO`` / ``Opening`` from :mod:`notation.openings.eco`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from notation.formats.san import SanError
from notation.pgn.comment_commands import CLOCK_PATTERN, EMT_PATTERN
from notation.pgn.model import Game, MoveNode
from notation.rules import zobrist
from notation.rules.squares import PAWN
from notation.validation.replay import start_position

if TYPE_CHECKING:  # pragma: no cover
    from notation.rules.move import Move
    from notation.formats.position import Position

#: What ``strip`` may name.
STRIPPABLE: tuple[str, ...] = ("comments", "variations", "nags", "clocks")
#: What ``add_tags`` may name.
ADDED_TAGS: tuple[str, ...] = ("plycount", "final-fen", "hashcode", "eco")


@dataclass(slots=True)
class Mainline:
    """The mainline's legal prefix: start position, moves, positions after each, canonical SAN."""

    start: Position | None
    moves: list[Move] = field(default_factory=list)
    positions: list[Position] = field(default_factory=list)
    sans: list[str] = field(default_factory=list)
    complete: bool = True

    @property
    def final(self) -> Position | None:
        return self.positions[-1] if self.positions else self.start


def polyglot_key(pos: Position) -> int:
    """The Polyglot hash of ``pos``: :meth:`Position.key` with the en passant file counted
    whenever a pawn of the side to move stands beside the pawn that just double-stepped."""
    key = pos.key()
    ep = pos.ep_square
    if ep is None or pos.has_legal_en_passant():
        return key
    file = ep & 7
    rank_of_pawns = (ep - 8) if pos.turn else (ep + 8)  # the double-stepped pawn's square
    pawns = pos.pieces(PAWN, pos.turn)
    for beside in (file - 1, file + 1):
        if 0 <= beside < 8 and pawns >> ((rank_of_pawns & ~7) + beside) & 1:
            return key ^ zobrist.EP_FILE[file]
    return key


def _clean(comments: list[str], clocks: bool) -> list[str]:
    if not clocks:
        return list(comments)
    out = []
    for text in comments:
        text = EMT_PATTERN.sub("", CLOCK_PATTERN.sub("", text)).strip()
        if text:
            out.append(text)
    return out


def normalise(
    game: Game,
    *,
    strip: frozenset[str] | set[str] = frozenset(),
    add_tags: tuple[str, ...] = (),
    replace_tags: bool = False,
) -> tuple[Game, Mainline]:
    """``game`` re-spelled in canonical SAN with ``strip``'s parts removed and ``add_tags``'s
    tags added (see the module docstring); also its mainline. An added tag the game already has
    keeps its value unless ``replace_tags``. Never raises on bad input."""
    keep_comments = "comments" not in strip
    keep_variations = "variations" not in strip
    keep_nags = "nags" not in strip
    clocks = "clocks" in strip
    start, _, _, _ = start_position(game.tags)
    mainline = Mainline(start)
    moves: list[MoveNode] = []
    # work list: (nodes as read, list to fill, position before the first node or None, is mainline)
    work: list[tuple[list[MoveNode], list[MoveNode], Position | None, bool]] = [(game.moves, moves, start, True)]
    while work:
        nodes, out, pos, main = work.pop()
        for node in nodes:
            new = MoveNode(
                san=node.lenient or node.san,
                span=node.span,
                nags=list(node.nags) if keep_nags else [],
                comments=_clean(node.comments, clocks) if keep_comments else [],
                pre_comments=_clean(node.pre_comments, clocks) if keep_comments else [],
                number=node.number,
            )
            before = pos
            if pos is not None:
                try:
                    move = pos.parse_san(node.lenient or node.san)
                    new.san = pos.san(move)
                    pos = pos.play(move)
                    if main:
                        mainline.moves.append(move)
                        mainline.positions.append(pos)
                        mainline.sans.append(new.san)
                except (SanError, ValueError, IndexError):
                    pos = None
            if pos is None and main:
                mainline.complete = False
            if keep_variations:
                for variation in node.variations:
                    target: list[MoveNode] = []
                    new.variations.append(target)
                    work.append((variation, target, before, False))
            out.append(new)
    result = replace(
        game,
        tags=dict(game.tags),
        moves=moves,
        intro_comments=_clean(game.intro_comments, clocks) if keep_comments else [],
    )
    _add_tags(result, game, mainline, add_tags, replace_tags)
    return result, mainline


def _add_tags(result: Game, original: Game, mainline: Mainline, add_tags: tuple[str, ...], replace_tags: bool) -> None:
    tags = result.tags
    final = mainline.final
    added: dict[str, str] = {}
    for name in add_tags:
        if name == "plycount":
            added["PlyCount"] = str(len(mainline.moves))
        elif name == "final-fen" and final is not None:
            added["FinalFEN"] = final.fen()
        elif name == "hashcode" and final is not None:
            added["HashCode"] = f"{polyglot_key(final):016x}"
        elif name == "eco" and (replace_tags or "ECO" not in tags or "Opening" not in tags):
            from notation.openings.eco import classify_played

            opening = classify_played(original, mainline.start, (pos.key() for pos in mainline.positions))
            if opening is not None:
                added["ECO"] = opening.eco
                added["Opening"] = opening.name
    for tag, value in added.items():
        if replace_tags or tag not in tags:  # a tag as written (a Lichess Opening) stays
            tags[tag] = value
