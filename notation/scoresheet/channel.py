"""The noisy channel of a scoresheet box: how likely what was written is, for each legal move.

A box's text is read (:func:`notation.scoresheet.tokens.parse_token`, ``grammars/sheet.lark``)
into a :class:`~notation.scoresheet.tokens.Written` value, and compared with the facts of a
legal move (:class:`MoveFacts`: piece, squares, what it takes, whether SAN needs a
disambiguation, whether it checks). The cost of the pair is a sum of named parts, each the
negative log-probability (nats) of one way people write a move: a wrong file or rank (per pair
of characters, ``c``/``e``, ``4``/``5`` ...), a dropped or wrong piece letter, a missing or
superfluous disambiguation, a capture or check mark missing or added, the piece-takes-piece
shorthand (``QxQ``, ``BxNc5``), a pawn capture by files (``dxe``, ``de``), the from-square form
(``Nd7xf6``), and so on. A text that reads as no move at all is read through one character
deleted, inserted or replaced (``Qxdf5``, ``Qe11+``), at that edit's cost; a blank box (``?``)
fits every move at one cost, and so does, at a higher one, a box that reads as nothing. So every
box has a finite cost for every move, and the search always finds a complete reading.

The costs are learned from real handwritten sheets (:mod:`notation.scoresheet.learn`, from the
HCS corpus) and ship as ``channel_costs.json``; :data:`COSTS` holds them, and the defaults below
stand where the file says nothing.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, NamedTuple

from notation.scoresheet.tokens import BISHOP, KING, PAWN, Written, parse_token, too_long

from notation import _core
from notation.rules.move import MOVES, Move

if TYPE_CHECKING:  # pragma: no cover
    from notation.formats.position import Position

#: Costs (nats) where the learned table has no figure; names are ``kind.detail``.
DEFAULTS: dict[str, float] = {
    "piece.dropped": 4.5,  # Nf3 written f3
    "piece.wrong": 5.5,  # Bf3 for Nf3 (per pair: piece.wrong.BN)
    "piece.on_pawn": 6.0,  # Bb3 for b3
    "piece.foreign": 4.0,  # a capital that is no piece letter here
    "piece.lowercase": 1.5,  # n, q, r, k for N, Q, R, K
    "piece.lower_b": 3.0,  # bc4 for Bc4 (b is also the b-file)
    "file.wrong": 5.5,  # per pair: file.wrong.ce (written c for e)
    "rank.wrong": 5.5,  # per pair: rank.wrong.45
    "square.both": 9.0,  # file and rank both wrong (on top of each)
    "origin.missing": 2.5,  # Nd2 for Nbd2
    "origin.extra": 4.0,  # Nbd2 where no other knight reaches d2
    "origin.wrong": 5.0,  # Nfd2 for Nbd2
    "origin.square": 4.5,  # Nd7xf6: the from-square form
    "pawn.no_file": 4.0,  # d5 for exd5
    "pawn.files_only": 4.5,  # dxe, de for dxe5
    "target.file_only": 5.5,  # Rxh for Rxh7
    "target.rank_only": 5.5,  # R6 for Rd6
    "taken": 3.5,  # QxQ, BxN, PxP for the capture
    "taken.square": 4.0,  # BxNc5
    "taken.wrong": 5.0,  # the piece taken named wrongly
    "capture.missing": 3.0,  # Nf3 onto a piece, no x
    "capture.missing_pawn": 3.5,  # ed5 for exd5
    "capture.extra": 4.5,  # x on a move that takes nothing
    "check.missing": 1.0,  # a check without +
    "check.extra": 3.5,  # + on a move that gives no check
    "mate.missing": 1.0,  # mate written + or nothing
    "mate.extra": 3.0,  # # on a check that is not mate
    "promotion.missing": 1.0,  # e8 for e8=Q
    "promotion.wrong": 4.0,
    "promotion.extra": 4.0,
    "castle.side": 5.5,  # O-O for O-O-O
    "castle.as_king": 2.5,  # Kg1 for O-O
    "coordinates": 3.0,  # g1f3, e2-e4: the long forms where SAN would do
    "char.delete": 5.0,  # a character too many (Qxdf5)
    "char.insert": 5.5,  # a character missing
    "char.replace": 6.0,  # a character replaced by one that makes no other reading
    "box.blank": 4.5,  # a blank box: any move
    "box.unreadable": 10.0,  # any box read as any move at all (the floor of every reading)
    "edit.omitted": 7.0,  # a move with no box
    "edit.extra": 7.0,  # a box that is no move of the game
    "edit.transposed": 7.0,  # the same player's two moves written in swapped order
    "edit.swapped": 8.0,  # two neighbouring boxes (one per player) swapped
    "prior.leave": 1.2,  # a move that leaves the opening table (from a position in it)
    # the prior of a move by its class (notation.scoresheet.plausibility): as likely as any other
    **{"prior.move." + kind: 0.0 for kind in ("quiet", "+", "x", "x+", "h", "h+", "hx", "hx+", "r", "r+", "rh", "rh+")},
    "temperature": 1.0,  # probabilities are exp(-cost / temperature), normalised
}


def _load() -> dict[str, float]:
    out = dict(DEFAULTS)
    try:
        text = resources.files(__package__).joinpath("channel_costs.json").read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):  # pragma: no cover - the table ships with the package
        return out
    learned = json.loads(text).get("costs", {})
    out.update({str(k): float(v) for k, v in learned.items()})
    return out


#: The costs in force: the learned table over :data:`DEFAULTS`.
COSTS: dict[str, float] = _load()


@contextmanager
def costs_in_force(costs: Mapping[str, float] | None) -> Iterator[None]:
    """Read with the cost table ``costs`` (a learned table as ``channel_costs.json``'s
    ``costs``, over :data:`DEFAULTS`; None: the table in force) inside the ``with`` block, and
    put the table before it back after it. Not for threads: the table is the process's."""
    if costs is None:
        yield
        return
    table = {**DEFAULTS, **costs}
    before = dict(COSTS)
    changed = table != before
    if changed:
        _put(table)
    try:
        yield
    finally:
        if changed:
            _put(before)


def _put(table: dict[str, float]) -> None:
    COSTS.clear()
    COSTS.update(table)
    box_readings.cache_clear()  # the readings of box texts carry the costs of their edits


def cost(name: str, pair: str | None = None) -> float:
    """The cost ``name`` (with ``pair``: the pair-specific figure, else the general one)."""
    if pair is not None:
        found = COSTS.get(f"{name}.{pair}")
        if found is not None:
            return found
    return COSTS[name]


#: What a written box is compared with: one legal move in its position (piece, from square, the
#: square a box names (the king's destination for castling), the piece type taken (a pawn for en
#: passant), promotion, castling ``"K"``/``"Q"``, and whether SAN writes the origin file or rank).
#: Computed by the compiled core with the moves of a position (:class:`PositionMoves`); hashable,
#: the readings' caches are keyed by it.
MoveFacts = _core.MoveFacts


class PositionMoves(NamedTuple):
    """The legal moves of a position in the reader's tie order (the piece from the higher square
    first, then the higher target square, then the stronger promotion: the order in which equally
    likely moves are preferred), with their facts (:data:`MoveFacts`) and what each move gives:
    ``(check, captured, hangs)``, its check level (0 none, 1 check, 2 mate), the square of what it
    takes as :mod:`notation.scoresheet.plausibility` sees it (None: nothing) and whether it leaves
    material hanging; ``board``: the position in the core, to play the moves on."""

    moves: list[Move]
    facts: list[MoveFacts]
    gives: list[tuple[int, int | None, bool]]
    board: _core.SheetBoard


def core_board(pos: Position) -> _core.SheetBoard:
    """``pos`` in the compiled core."""
    return _core.SheetBoard(pos.fen(shredder=pos.chess960), pos.chess960)


def position_moves(board: _core.SheetBoard) -> PositionMoves:
    """The moves of ``board`` with their facts (see :class:`PositionMoves`), in one call."""
    raw, facts, gives = board.moves()
    moves = [MOVES[f][t] if p is None else Move(f, t, p) for f, t, p in raw]
    return PositionMoves(moves, facts, gives, board)


def move_facts(pos: Position, moves: list[Move]) -> list[MoveFacts]:
    """The facts of each of ``moves`` (legal moves of ``pos``), in order."""
    found = position_moves(core_board(pos))
    index = {m: k for k, m in enumerate(found.moves)}
    return [found.facts[index[m]] for m in moves]


_LETTERS = {PAWN: "P", 2: "N", BISHOP: "B", 4: "R", 5: "Q", KING: "K"}
_FILES = "abcdefgh"


def _part(parts: list[str] | None, name: str, pair: str | None = None) -> float:
    """``cost(name, pair)``, its name recorded in ``parts`` (``name.pair`` when paired)."""
    if parts is not None:
        parts.append(name if pair is None else f"{name}.{pair}")
    return cost(name, pair)


def _square_cost(written: int, actual: int, parts: list[str] | None = None) -> float:
    out = 0.0
    wf, wr, af, ar = written % 8, written // 8, actual % 8, actual // 8
    if wf != af:
        out += _part(parts, "file.wrong", _FILES[wf] + _FILES[af])
    if wr != ar:
        out += _part(parts, "rank.wrong", f"{wr + 1}{ar + 1}")
    if wf != af and wr != ar:
        out += _part(parts, "square.both")
    return out


@dataclass(frozen=True, slots=True)
class Style:
    """How one copy's writer writes, read off the copy itself: the cost of a from-square where
    SAN needs none (``e2-e4``, ``Ng1-f3``) and of a lower-case piece letter, for a writer who does
    so habitually (None: the learned cost of an occasional slip); ``unmarked``: the writer writes
    no check or mate marks at all (coordinates never do), so a missing mark costs nothing."""

    origin: float | None = None
    lowercase: float | None = None
    unmarked: bool = False


#: A habit is a share of at least this many of a copy's boxes written so.
HABIT_SHARE = 0.25
#: A copy of at least this many boxes read as written, none with a check or mate mark, is
#: written without marks.
UNMARKED_BOXES = 12


def sheet_style(readings: list[tuple[BoxReading, ...]]) -> Style | None:
    """The :class:`Style` of a copy from its boxes' literal readings (None: no habit)."""
    literal = [r[0].written for r in readings if r and r[0].edit == 0.0]
    if len(literal) < 4:
        return None
    moves = [w for w in literal if w.castle is None]
    if not moves:
        return None
    long_share = sum(1 for w in moves if w.from_file is not None and w.from_rank is not None) / len(moves)
    pieces = [w for w in moves if w.piece is not None and w.piece != PAWN]
    lower_share = sum(1 for w in pieces if w.lowercase) / len(pieces) if pieces else 0.0
    origin = -math.log(long_share) if long_share >= HABIT_SHARE else None
    lowercase = -math.log(lower_share) if lower_share >= HABIT_SHARE else None
    unmarked = len(literal) >= UNMARKED_BOXES and not any(w.check for w in literal)
    return Style(origin, lowercase, unmarked) if origin is not None or lowercase is not None or unmarked else None


#: Parts of a box's cost that are notation habits, not slips: a box written so is read as
#: written (``Nxf3`` written ``Nf3``, ``dxe5`` written ``dxe``, ``QxQ``, ``Nd7xf6``, a check without
#: ``+``). A missing disambiguation is reported as ``ambiguous`` where another move fits as well.
STYLE_PARTS = frozenset(
    {
        "check.missing",
        "mate.missing",
        "check.extra",
        "mate.extra",
        "capture.missing",
        "capture.missing_pawn",
        "coordinates",
        "origin.square",
        "taken",
        "taken.square",
        "pawn.files_only",
        "piece.lowercase",
        "promotion.missing",
        "castle.as_king",
        "origin.extra",
        "target.file_only",
        "target.rank_only",
    }
)


def is_slip(part: str) -> bool:
    """True when the named part of a box's cost is a slip, not a notation habit
    (:data:`STYLE_PARTS`; a missing disambiguation is neither: the box fits several moves)."""
    return part != "origin.missing" and part not in STYLE_PARTS and part.rpartition(".")[0] not in STYLE_PARTS


def written_cost(w: Written, f: MoveFacts, parts: list[str] | None = None, style: Style | None = None) -> float:
    """The cost of writing ``f``'s move as ``w`` (check marks apart: :func:`check_cost`); the
    names of the costs paid are appended to ``parts`` when given; ``style``: the writer's habits."""
    if w.castle is not None:
        if f.castle is None:
            return math.inf
        return 0.0 if w.castle == f.castle else _part(parts, "castle.side")
    total = 0.0
    if f.castle is not None:
        if (
            w.piece is None
            and w.from_file is not None
            and w.from_rank is not None
            and w.from_rank * 8 + w.from_file == f.from_square
            and w.to_square == f.to_square
        ):
            # castling in coordinates, the king's move (e1g1): as any move in coordinates
            return style.origin if style is not None and style.origin is not None else cost("coordinates")
        if w.piece != KING or w.to_square is None and w.to_file is None:
            return math.inf
        total += _part(parts, "castle.as_king")
    # the piece letter
    full_origin = w.from_file is not None and w.from_rank is not None
    if w.foreign:
        total += _part(parts, "piece.foreign")
    elif w.piece is None:
        if f.piece == PAWN:
            pass
        elif f.piece == BISHOP and w.from_file == 1 and w.from_rank is None and w.to_file is None:
            total += _part(parts, "piece.lower_b")  # "bc4"
        elif full_origin:
            pass  # coordinates name no piece (priced below)
        else:
            total += _part(parts, "piece.dropped")
    elif w.piece == PAWN:
        if f.piece != PAWN:
            total += _part(parts, "piece.wrong", "P" + _LETTERS[f.piece])
    elif w.piece != f.piece:
        if f.piece == PAWN:
            total += _part(parts, "piece.on_pawn")
        else:
            total += _part(parts, "piece.wrong", _LETTERS[w.piece] + _LETTERS[f.piece])
    elif w.lowercase:
        total += (
            style.lowercase if style is not None and style.lowercase is not None else _part(parts, "piece.lowercase")
        )
    # the target
    if w.taken is not None:
        if f.taken is None:
            return math.inf
        if w.taken != f.taken:
            total += _part(parts, "taken.wrong")
        if w.to_square is not None:
            total += _part(parts, "taken.square") + _square_cost(w.to_square, f.to_square, parts)
        else:
            total += _part(parts, "taken")
    elif w.to_square is not None:
        total += _square_cost(w.to_square, f.to_square, parts)
    elif w.to_file is not None:
        if w.to_file != f.to_square % 8:
            total += _part(parts, "file.wrong", _FILES[w.to_file] + _FILES[f.to_square % 8])
        pawn_files = f.piece == PAWN and w.piece is None and w.from_file is not None
        total += _part(parts, "pawn.files_only") if pawn_files else cost("target.file_only")
    elif w.to_rank is not None:
        if w.to_rank != f.to_square // 8:
            total += _part(parts, "rank.wrong", f"{w.to_rank + 1}{f.to_square // 8 + 1}")
        total += _part(parts, "target.rank_only")
    else:
        return math.inf
    # the origin
    if full_origin:
        assert w.from_file is not None and w.from_rank is not None
        origin = w.from_rank * 8 + w.from_file
        if origin != f.from_square:
            total += _part(parts, "origin.wrong")
        elif not (f.needs_file and f.needs_rank):
            if style is not None and style.origin is not None:
                total += style.origin
            else:
                total += (
                    _part(parts, "origin.square") if w.piece is not None or f.piece == PAWN else cost("coordinates")
                )
    elif w.from_file is not None and not (f.piece == BISHOP and w.piece is None and w.from_file == 1):
        if w.from_file != f.from_square % 8:
            if f.piece == PAWN and f.taken is not None:
                total += _part(parts, "file.wrong", _FILES[w.from_file] + _FILES[f.from_square % 8])
            else:
                total += _part(parts, "origin.wrong")
        elif not f.needs_file and not (f.piece == PAWN and f.taken is not None):
            total += _part(parts, "origin.extra")
    elif w.from_rank is not None:
        if w.from_rank != f.from_square // 8:
            total += _part(parts, "origin.wrong")
        elif not f.needs_rank and not f.needs_file:
            total += _part(parts, "origin.extra")
    elif f.piece == PAWN and f.taken is not None and w.taken is None and w.piece is None:
        total += _part(parts, "pawn.no_file")  # "d5" for "exd5"
    elif f.needs_file or f.needs_rank:
        total += _part(parts, "origin.missing")
    # the capture mark
    if w.capture:
        if f.taken is None:
            total += _part(parts, "capture.extra")
    elif f.taken is not None and w.taken is None and not (full_origin and w.piece is None):
        # (coordinates, g1f3, name two squares and never mark a capture)
        if f.piece == PAWN:
            if w.from_file is not None:
                total += _part(parts, "capture.missing_pawn")  # "ed5"
        else:
            total += _part(parts, "capture.missing")
    # promotion
    if f.promotion is not None:
        if w.promotion is None and w.promotion_letter is None:
            total += _part(parts, "promotion.missing") + (0.0 if f.promotion == 5 else _part(parts, "promotion.wrong"))
        elif w.promotion != f.promotion:
            total += _part(parts, "promotion.wrong")
    elif w.promotion is not None or w.promotion_letter is not None:
        total += _part(parts, "promotion.extra")
    return total


def check_cost(w: Written | None, check: int, style: Style | None = None) -> float:
    """The written check mark of ``w`` against a move that gives ``check`` (0 none, 1 check,
    2 mate); a missing mark costs nothing from a writer who writes none (``style``)."""
    mark = w.check if w is not None else ""
    if check == 0:
        return cost("check.extra") if mark else 0.0
    if not mark and style is not None and style.unmarked:
        return 0.0
    if check == 1:
        if mark == "#":
            return cost("mate.extra")
        return 0.0 if mark else cost("check.missing")
    return 0.0 if mark == "#" else cost("mate.missing")


# --- the readings of a box's text ---------------------------------------------------------------

#: Characters a writer (or a reader of handwriting) confuses across the kinds the grammar tells
#: apart: each read as the other at ``char.replace``'s cost less this much.
CROSS_CONFUSIONS: tuple[str, ...] = ("8B", "5S", "6b", "6G", "1l", "1I", "0O", "9g", "2Z", "4A", "xX")
_ALPHABET = "abcdefgh12345678KQRBNxO-+#"


@dataclass(frozen=True, slots=True)
class BoxReading:
    """One way to read a box's text: the parsed value and the cost of the edit that gives it."""

    written: Written
    edit: float
    what: str  # the character edit made ("" for the literal reading)


@lru_cache(maxsize=65536)
def box_readings(text: str, lang: str) -> tuple[BoxReading, ...]:
    """The readings of ``text``: the literal one when it parses, readings through a character
    confusion, and, when the literal text is no move, every reading one character edit away."""
    if too_long(text) or text.strip() in ("", "?"):
        return ()
    out: dict[Written | str, BoxReading] = {}
    literal = parse_token(text, lang)
    if literal is not None:
        out[_key(literal)] = BoxReading(literal, 0.0, "")
    confusable: dict[str, str] = {}
    for pair in CROSS_CONFUSIONS:
        confusable.setdefault(pair[0], "")
        confusable.setdefault(pair[1], "")
        confusable[pair[0]] += pair[1]
        confusable[pair[1]] += pair[0]
    for i, char in enumerate(text):
        for alt in confusable.get(char, ""):
            _add(out, text[:i] + alt + text[i + 1 :], lang, cost("char.replace") - 2.0, f"'{char}' read as '{alt}'")
    if literal is None:
        for i, char in enumerate(text):
            _add(out, text[:i] + text[i + 1 :], lang, cost("char.delete"), f"'{char}' dropped")
            for alt in _ALPHABET:
                if alt != char:
                    _add(out, text[:i] + alt + text[i + 1 :], lang, cost("char.replace"), f"'{char}' read as '{alt}'")
        for i in range(len(text) + 1):
            for alt in _ALPHABET:
                _add(out, text[:i] + alt + text[i:], lang, cost("char.insert"), f"'{alt}' added")
    return tuple(sorted(out.values(), key=lambda r: r.edit))


def _key(w: Written) -> str:
    return repr(
        (
            w.piece,
            w.foreign,
            w.from_file,
            w.from_rank,
            w.capture,
            w.to_square,
            w.promotion,
            w.castle,
            w.check,
            w.to_file,
            w.to_rank,
            w.taken,
            w.lowercase,
        )
    )


def _add(out: dict[Written | str, BoxReading], text: str, lang: str, edit: float, what: str) -> None:
    w = parse_token(text, lang)
    if w is None:
        return
    key = _key(w)
    if key not in out or out[key].edit > edit:
        out[key] = BoxReading(w, edit, what)


def box_cost(
    readings: tuple[BoxReading, ...], f: MoveFacts, style: Style | None = None
) -> tuple[float, BoxReading | None]:
    """The cheapest reading of a box as ``f``'s move (check marks apart), and which reading it
    was (None: the box read as any move, at ``box.unreadable``); ``style``: the writer's habits."""
    best = cost("box.unreadable")
    chosen: BoxReading | None = None
    for reading in readings:
        if reading.edit >= best:
            break
        c = reading.edit + written_cost(reading.written, f, style=style)
        if c < best:
            best, chosen = c, reading
    return best, chosen


__all__ = [
    "COSTS",
    "DEFAULTS",
    "STYLE_PARTS",
    "is_slip",
    "BoxReading",
    "MoveFacts",
    "PositionMoves",
    "Style",
    "box_cost",
    "box_readings",
    "check_cost",
    "costs_in_force",
    "core_board",
    "cost",
    "move_facts",
    "position_moves",
    "sheet_style",
    "written_cost",
]
