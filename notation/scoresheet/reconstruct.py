"""Scoresheet reconstruction: from a sloppy or damaged move list to a checked game score.

Pipeline: :func:`notation.scoresheet.layout.read_sheet` (cells, header tags, result) →
:func:`notation.scoresheet.tokens.parse_token` per cell (language detected or given) → a least-cost
search over whole-sheet interpretations that replay legally to the end → :class:`Reconstruction`
(canonical moves, corrections with alternatives and confidence, diagnostics, PGN).

The search (uniform-cost, i.e. best-first on the total edit cost) works on states ``(cell
index, position)``. From a state it may

* play a legal move for the cell, at the cost of the edits that turn what was written into
  that move (:func:`move_cost`: 0 for an exact reading; a wrong piece letter, a target square a
  file or rank off, from/to swapped, a wrong origin/disambiguation, a superfluous capture mark or
  promotion, ... each cost something);
* insert a move the sheet omitted (:data:`OMITTED`), drop a cell (:data:`EXTRA`), or replay two
  cells in swapped order (:data:`TRANSPOSED`, the same player's consecutive moves; a pair of
  adjacent cells written in the wrong column costs a little more, :data:`WRONG_COLUMN`).

Written marks are evidence: a check or mate mark on a move that gives none costs
:data:`CHECK_WRONG` / :data:`MATE_WRONG` (:func:`mark_cost`), and a written origin file or rank
that the move does not need (``Rab1`` when the other rook cannot reach b1) costs
:data:`ORIGIN_EXTRA` (:func:`origin_mark_cost`); both are added to the reading's cost but never
reported as corrections. A missing check mark is free (writers often omit it: it separates no
readings on its own), and so is a capture written without ``x``; a capture mark on a
non-capture costs :data:`CAPTURE_EXTRA`. A pawn capture written as a bare square (``a5`` for
``bxa5``) is a correction (:data:`PAWN_CAPTURE_AS_PUSH`): the square names a push.

Zero-cost successors are pushed at once; the costly edits of a state are *deferred* (each kind
at its own cost, candidate moves one cost level at a time), and opened only near a cell where
the sheet stopped resolving (a window of :data:`WINDOW` cells before the failure, widened when
nothing is found). A wrong early guess is therefore abandoned as soon as the later cells stop
resolving, and a clean sheet costs one pass. A legal but wrong move may stay playable for many
moves before the sheet stops resolving: when the literal reading first fails, every earlier
cell is also opened to *far* branches, a single misreading (or a swapped pair) replayed exactly
from there on; such a branch joins the ordinary search once it reaches the failure, and is
dropped if it stops resolving before (it would need a second correction where the sheet reads
well). States the beam dropped are taken back (with a wider beam) when the search runs dry.

An omitted move or an extra cell is tried only where a cell stops reading within
:data:`OMISSION_LOOKAHEAD` cells, and an inserted move must be followed by a cell that reads
exactly. At most :data:`MAIN_BEAM` states per cell are expanded (a beam).

After the best interpretation is found the search continues up to :data:`CONFIDENCE_GAP` above
its cost, now also opening the cells up to :data:`RIVAL_WINDOW` before each correction (an
earlier legal-but-wrong move can explain a later failure as well), every earlier cell to far
branches, and the states the main beam dropped, with a narrower beam
(:data:`BEAM`); when a cheaper reading turns up it becomes the best and its cells are opened
in turn. The cheapest *different* games found (rivals, up to :data:`MAX_RIVALS`)
set the confidence of the corrections they disagree with (gap / CONFIDENCE_GAP, capped at 1;
the gap is at most the room left below the cost cap, and 0 when the node budget ran out, since
rivals there were never searched; and 0 when the rival search's beam dropped a state whose
completion could cost no more than the best reading, see ``_Search._completion_bound``: a pruned
tie is no evidence for the reading found). An ambiguous written move (``Nd2`` with two knights able to go
there) is resolved by whichever reading lets the rest of the game replay, and reported.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import count
from typing import TYPE_CHECKING, Any

from notation.diagnostics import Diagnostic
from notation.scoresheet.layout import Cell, Sheet, read_sheet
from notation.scoresheet.tokens import (
    BISHOP,
    KING,
    LANGUAGES,
    PAWN,
    QUEEN,
    Written,
    detect_languages,
    parse_token,
)

if TYPE_CHECKING:  # pragma: no cover
    from notation.pgn.model import Game
    from notation.rules.move import Move
    from notation.rules.position import Position

# --- edit costs -------------------------------------------------------------------------------
PIECE_WRONG = 2.0  # a piece letter naming another piece (Bf3 for Nf3)
PIECE_FOREIGN = 1.0  # a letter that is no piece letter of the sheet's language
PIECE_MISSING = 1.5  # a piece move written without its letter (f3 for Nf3)
PAWN_CAPTURE_AS_PUSH = 1.5  # a pawn capture written as a bare square (a5 for bxa5): file and mark missing
PIECE_ON_PAWN = 3.0  # a piece letter on a pawn move (Qb3 for b3): rarer than a confused letter
LOWER_B = 0.3  # "bc4"/"bxc4" read as a bishop move (lower-case b is also the b-file)
SQUARE_OFF = 2.0  # target square one file or one rank off
SQUARE_DIAGONAL = 3.0  # target square one diagonal step off
SWAPPED = 1.5  # from and to squares swapped (long algebraic / coordinates)
ORIGIN_WRONG = 1.5  # a written origin / disambiguation naming another piece than the one that moved (a slip like a missing letter)
CAPTURE_EXTRA = 1.0  # a capture mark on a move that captures nothing (written x is reliable evidence)
PROMOTION_DEFAULT = 0.3  # a promotion written without the piece: queen assumed
PROMOTION_MISSING = 1.5  # ... and the piece turns out not to be a queen
PROMOTION_WRONG = 1.5  # another promotion piece than written
PROMOTION_EXTRA = 1.0  # a promotion piece written on a move that does not promote
CASTLE_SIDE = 2.0  # O-O for O-O-O or the reverse
CASTLE_AS_KING = 0.5  # castling written as the king's move (Kg1)
UNREADABLE = 2.5  # a cell read as the move whose spelling is closest to it (plus the distance)
OMITTED = 3.0  # a move missing from the sheet
EXTRA = 3.0  # a cell that is no move of the game (dropped)
TRANSPOSED = 2.0  # two moves of the same player written in swapped order (cells i and i+2)
WRONG_COLUMN = 2.5  # two adjacent cells (one per player) swapped: a move written in the wrong column
CHECK_WRONG = 1.0  # a written check mark (+, ++, #) on a move that gives no check (a missing mark is free)
MATE_WRONG = 0.5  # a written mate mark (#) on a check that is not mate
ORIGIN_EXTRA = 1.0  # a written origin file or rank (Rab1, N5f6) that no other piece makes necessary
IMPOSSIBLE = math.inf

#: Default cap on the total edit cost of a reconstruction.
MAX_COST = 12.0
#: Costly edits are tried only within this many cells before a cell that did not resolve.
WINDOW = 4
#: After a correction, rival readings are sought this many cells before it.
RIVAL_WINDOW = 20
#: How far above the best cost the search looks for a rival reading; a correction whose nearest
#: rival costs this much more (or has none) has confidence 1.
CONFIDENCE_GAP = 1.5
#: Corrections below this confidence make the sheet "needs a human".
CONFIDENCE_THRESHOLD = 0.6
#: Rival readings collected after the best one (shown to the human when needed).
MAX_RIVALS = 6
#: An omitted move (or an extra cell) is tried only where a cell fails within this many cells.
OMISSION_LOOKAHEAD = 3
#: Beam width of the rival search: at most this many states are expanded per cell.
BEAM = 24
#: Beam width of the main search (states expanded per cell before the first reading is found).
MAIN_BEAM = 48
#: Node budget of one search (a bound on time for hopeless sheets).
MAX_EXPANSIONS = 60000

_FILES = "abcdefgh"


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
    start_ply: int = 0  # plies before the first move (fullmove number and turn of the start)

    @property
    def needs_human(self) -> bool:
        return self.status == "needs-human"

    @property
    def confidence(self) -> float:
        """The lowest confidence of any correction (1.0 when none)."""
        return min((c.confidence for c in self.corrections), default=1.0)

    def start_position(self) -> Position:
        from notation.rules.position import Position

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
        }


def _comment(fix: Correction) -> str:
    if fix.kind == "omitted":
        return "sheet: move missing, inserted"
    if fix.kind == "ambiguous":
        return f'sheet: "{fix.written}" ambiguous, resolved'
    if fix.kind == "transposed":
        return f'sheet: written "{fix.written}", order swapped'
    return f'sheet: written "{fix.written}", corrected'


# --- matching a written cell against legal moves -----------------------------------------------


def move_cost(w: Written, pos: Position, move: Move) -> tuple[float, tuple[str, ...]]:
    """Edit cost of reading written ``w`` as legal ``move`` in ``pos``, and the edits named."""
    castling = pos.is_castling(move)
    king_dest = move.to_square
    if castling and pos.chess960:
        king_dest = (move.from_square & ~7) | (6 if move.to_square > move.from_square else 2)
    short = king_dest % 8 == 6
    if w.castle is not None:
        if not castling:
            return IMPOSSIBLE, ()
        if (w.castle == "K") == short:
            return 0.0, ()
        return CASTLE_SIDE, ("castling to the other side",)
    if w.to_square is None:
        return IMPOSSIBLE, ()
    piece = pos.piece_type_at(move.from_square)
    target = king_dest if castling else move.to_square
    reasons: list[str] = []
    cost = 0.0
    # target square
    to = w.to_square
    swapped = False
    if to != target:
        df = abs(to % 8 - target % 8)
        dr = abs(to // 8 - target // 8)
        if w.from_square is not None and w.from_square == target and to == move.from_square:
            cost += SWAPPED
            swapped = True
            reasons.append("from and to squares swapped")
        elif df + dr == 1:
            cost += SQUARE_OFF
            reasons.append("target square one " + ("file" if df else "rank") + " off")
        elif df == 1 and dr == 1:
            cost += SQUARE_DIAGONAL
            reasons.append("target square one diagonal step off")
        else:
            return IMPOSSIBLE, ()
    # piece letter
    bishop_from_b = False
    if w.foreign:
        cost += PIECE_FOREIGN + (0.5 if piece == PAWN else 0.0)
        reasons.append(f"'{w.letter}' is no piece letter here")
    elif w.piece is None:
        if w.from_square is not None:
            pass  # coordinates name no piece
        elif piece == PAWN:
            if w.from_file is None and not w.capture and pos.is_capture(move):
                # a bare square names a pawn push; reading it as a capture supplies the pawn's
                # file (its name, as a letter names a piece) and the capture mark
                cost += PAWN_CAPTURE_AS_PUSH
                reasons.append("pawn capture written as a push")
        elif piece == BISHOP and w.from_file == 1 and w.from_rank is None:
            cost += LOWER_B
            bishop_from_b = True
        elif castling and piece == KING:
            return IMPOSSIBLE, ()
        else:
            cost += PIECE_MISSING
            reasons.append("piece letter missing")
    elif w.piece != piece:
        if castling and w.piece == KING:
            pass
        elif piece == PAWN:
            cost += PIECE_ON_PAWN
            reasons.append("piece letter on a pawn move")
        else:
            cost += PIECE_WRONG
            reasons.append("wrong piece letter")
    if castling and not w.castle:
        if w.piece == KING or w.from_square is not None:
            cost += CASTLE_AS_KING
        else:
            return IMPOSSIBLE, ()
    # origin / disambiguation
    if not swapped and not bishop_from_b:
        wrong_origin = (w.from_file is not None and w.from_file != move.from_square % 8) or (
            w.from_rank is not None and w.from_rank != move.from_square // 8
        )
        if wrong_origin:
            cost += ORIGIN_WRONG
            reasons.append("origin square disagrees")
    # capture mark (a missing one costs nothing: dropping 'x' is the commonest slip)
    if w.capture and not pos.is_capture(move):
        cost += CAPTURE_EXTRA
        reasons.append("capture mark on a non-capture")
    # promotion
    if move.promotion:
        if w.promotion == move.promotion:
            pass
        elif w.promotion is None and w.promotion_letter is None:
            cost += PROMOTION_DEFAULT if move.promotion == QUEEN else PROMOTION_MISSING
            if move.promotion != QUEEN:
                reasons.append("promotion piece missing")
        else:
            cost += PROMOTION_WRONG
            reasons.append("another promotion piece")
    elif w.promotion is not None or w.promotion_letter is not None:
        cost += PROMOTION_EXTRA
        reasons.append("promotion on a move that does not promote")
    return cost, tuple(reasons)


def mark_cost(w: Written | None, after: Position) -> float:
    """Cost of the written check mark of ``w`` against the position ``after`` the move.

    Evidence, not an edit: a mark that disagrees makes a reading a little less likely but is
    never reported as a correction (sloppy sheets carry stray marks). A missing mark is free.
    """
    if w is None or not w.check:
        return 0.0
    if not after.is_check():
        return CHECK_WRONG
    if w.check == "#" and after.has_legal_moves():
        return MATE_WRONG
    return 0.0


def origin_mark_cost(w: Written | None, pos: Position, move: Move) -> float:
    """Cost of a written disambiguation (an origin file *or* rank) that ``move`` does not need.

    Evidence, like a check mark: a writer adds ``a`` to ``Rab1`` because the other rook could
    go to b1 as well; a reading in which no other piece of that kind can reach the square
    contradicts the mark (a full origin square, as in long algebraic, says nothing).
    """
    if w is None or w.piece is None or w.castle is not None or (w.from_file is None) == (w.from_rank is None):
        return 0.0  # no letter: a pawn capture's file, or a lower-case b read as the bishop
    piece = pos.piece_type_at(move.from_square)
    if piece in (None, PAWN):
        return 0.0
    if (w.from_file is not None and w.from_file != move.from_square % 8) or (
            w.from_rank is not None and w.from_rank != move.from_square // 8):
        return 0.0  # a disagreeing origin is an edit (ORIGIN_WRONG), not evidence
    for other in pos.piece_moves_to(piece, move.to_square):
        if other.from_square != move.from_square:
            return 0.0  # another piece of the kind could go there: the origin was needed
    return ORIGIN_EXTRA


def _evidence(w: Written | None, pos: Position, move: Move, after: Position) -> float:
    """The written marks (check, disambiguation) against a reading of ``w`` as ``move``."""
    return mark_cost(w, after) + origin_mark_cost(w, pos, move)


def _levenshtein(a: str, b: str) -> int:
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def _unreadable_costs(text: str, pos: Position, moves: list[Move]) -> list[tuple[float, Move]]:
    """Costs for a cell that no grammar reading accepts: spelling distance to each move."""
    cleaned = text.strip().rstrip("+#!?")
    out: list[tuple[float, Move]] = []
    for move in moves:
        san = pos.san(move).rstrip("+#")
        distance = min(_levenshtein(cleaned, san), _levenshtein(cleaned.lower(), san.lower()) + 0.5,
                       _levenshtein(cleaned, move.uci()))
        if distance <= 2:
            out.append((UNREADABLE + distance, move))
    return out


def _near(w: Written) -> frozenset[int]:
    """Target squares a reading of ``w`` may have (the written target and its neighbours)."""
    if w.to_square is None:
        return frozenset()
    return _NEIGHBOURHOOD[w.to_square] | (frozenset((w.from_square,)) if w.from_square is not None else frozenset())


_NEIGHBOURHOOD: list[frozenset[int]] = [
    frozenset(t for t in range(64) if abs(t % 8 - sq % 8) <= 1 and abs(t // 8 - sq // 8) <= 1)
    for sq in range(64)
]


def candidate_costs(written: Written | None, text: str, pos: Position) -> list[tuple[float, Move]]:
    """Every legal move with a finite cost for the cell, cheapest first."""
    if written is None:
        scored = _unreadable_costs(text, pos, pos.legal_moves())
    else:
        scored = []
        near = _near(written)
        mask = 0
        for sq in near:
            mask |= 1 << sq
        for move in pos.legal_moves_to(mask):  # moves to the near squares, and castling
            if move[1] not in near and not pos.is_castling(move):
                continue
            cost, _ = move_cost(written, pos, move)
            if cost != IMPOSSIBLE:
                scored.append((cost, move))
    scored.sort(key=lambda item: item[0])
    return scored


# --- the search ---------------------------------------------------------------------------------


@dataclass(slots=True)
class _Step:
    """A node of the search tree: how a state was reached from its parent."""

    parent: _Step | None
    index: int  # cells consumed after this step
    pos: Position
    cost: float
    op: str  # "start", "move", "omitted", "extra", "transposed", "skip"
    moves: tuple[Move, ...] = ()
    cells: tuple[int, ...] = ()  # cell index of each move (-1: inserted)
    edit: float = 0.0
    plies: int = 0  # plies played so far
    far: bool = False  # on a rival branch that left the best reading before the rival window


def _path(step: _Step | None) -> list[_Step]:
    out: list[_Step] = []
    while step is not None:
        out.append(step)
        step = step.parent
    out.reverse()
    return out


def _moves_of(path: list[_Step]) -> list[Move]:
    return [m for s in path for m in s.moves]


MIN_EDIT = 0.3  # the cheapest non-zero reading cost (a lower bound for deferred expansions)


def exact_moves(w: Written, pos: Position) -> list[Move]:
    """The legal moves that read ``w`` exactly (cost 0), found without generating all moves."""
    if w.foreign or w.to_square is None and w.castle is None:
        return []
    piece = w.piece
    if (
        piece is not None and piece != PAWN and w.castle is None and w.from_square is None
        and w.promotion is None and w.to_square is not None
    ):
        # a piece move: its legal candidates by reverse lookup, no SAN text, no exceptions
        moves = pos.piece_moves_to(piece, w.to_square)
        if w.from_file is not None:
            moves = [m for m in moves if m.from_square % 8 == w.from_file]
        if w.from_rank is not None:
            moves = [m for m in moves if m.from_square // 8 == w.from_rank]
        return [m for m in moves if move_cost(w, pos, m)[0] == 0.0]
    from notation.rules.move import Move as _Move
    from notation.formats.san import AmbiguousSan, SanError

    if w.from_square is not None and w.castle is None:
        move = _Move(w.from_square, w.to_square if w.to_square is not None else 0, w.promotion)
        if not pos.is_legal(move):
            return []
        return [move] if move_cost(w, pos, move)[0] == 0.0 else []
    occupant = None
    if w.castle is not None:
        text = "O-O" if w.castle == "K" else "O-O-O"
    else:
        assert w.to_square is not None
        occupant = pos.piece_at(w.to_square)
        if occupant is not None and occupant[0] == pos.turn:
            return []  # no move goes to a square of one's own piece
        letter = "" if w.piece in (None, PAWN) else "NBRQK"[w.piece - 2]
        text = letter
        if w.from_file is not None:
            text += _FILES[w.from_file]
        if w.from_rank is not None:
            text += str(w.from_rank + 1)
        if w.capture or occupant is not None or (letter == "" and w.from_file is not None and w.from_rank is None
                                                  and w.from_file != w.to_square % 8):
            text += "x"  # a capture written without its mark ("ed5", "Nf3" onto a piece)
        text += _FILES[w.to_square % 8] + str(w.to_square // 8 + 1)
        if w.promotion is not None:
            text += "=" + "PNBRQK"[w.promotion - 1]
    try:
        try:
            moves = [pos.parse_san(text)]
        except AmbiguousSan:
            raise
        except SanError:
            if w.capture or w.castle is not None or occupant is not None or w.piece not in (None, PAWN):
                raise
            # a capture written without its mark
            moves = [pos.parse_san(text[:-2] + "x" + text[-2:] if w.promotion is None else
                                   text[: text.index("=") - 2] + "x" + text[text.index("=") - 2 :])]
    except AmbiguousSan as exc:
        moves = []
        for san in exc.candidates:
            try:
                moves.append(pos.parse_san(san))
            except SanError:
                continue
    except SanError:
        return []
    return [m for m in moves if move_cost(w, pos, m)[0] == 0.0]


_DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


def _blockers(pos: Position, target: int) -> set[int]:
    """The side to move's pieces that are the first piece on a line from ``target``.

    Moving one of them away may open a line to ``target`` (the only way, besides moving to or
    from ``target`` itself, in which an omitted move changes how the next cell reads).
    """
    out: set[int] = set()
    tf, tr = target % 8, target // 8
    for df, dr in _DIRECTIONS:
        f, r = tf + df, tr + dr
        while 0 <= f < 8 and 0 <= r < 8:
            sq = r * 8 + f
            piece = pos.piece_at(sq)
            if piece is not None:
                if piece[0] == pos.turn:
                    out.add(sq)
                break
            f += df
            r += dr
    return out


class _Search:
    """Uniform-cost search over (cell index, position) states; see the module docstring."""

    def __init__(self, cells: list[Cell], written: list[Written | None], start: Position,
                 max_cost: float, max_expansions: int) -> None:
        self.cells = cells
        self.written = written
        self.n = len(cells)
        self.max_cost = max_cost
        self.max_expansions = max_expansions
        self.heap: list[tuple[float, int, int, str, _Step, Any]] = []
        self.counter = count()
        self.best: dict[tuple[int, int], float] = {}
        self.rivals: dict[tuple[int, int], tuple[float, _Step]] = {}
        self.failed: list[_Step] = []
        self.popped: dict[tuple[int, bool], int] = {}
        self.window = WINDOW
        self.main_beam = MAIN_BEAM
        self._dropped: list[_Step] = []  # states the main search's beam did not expand
        #: cells near a correction of a best reading (where a far rival branch may be corrected)
        self.near: set[int] = set()
        #: the first cell where the literal reading (no edit) stops resolving
        self.first_failure: int | None = None
        self._far_opened: set[int] = set()
        self.expansions = 0
        self.truncated = False
        #: cheapest state the beam dropped (its completions were never searched: a reading
        #: that cheap may exist, so no correction can claim a larger gap)
        self.pruned = math.inf
        self._goal_edits: tuple[_Step, list[tuple[int, float]]] | None = None
        self.cache: dict[tuple[int, int], list[tuple[float, Move]]] = {}
        self._best_step: dict[tuple[int, int], _Step] = {}
        self._exact: dict[tuple[int, int], list[Move]] = {}
        self._parked: dict[int, list[tuple[float, str]]] = {}  # id(step) -> deferred entries
        self._opened: set[int] = set()
        self._steps: dict[int, _Step] = {}
        self._push(_Step(None, 0, start, 0.0, "start"))

    def _push(self, step: _Step) -> None:
        if step.cost > self.max_cost:
            return
        key = (step.index, step.pos.key())
        old = self.best.get(key)
        if old is not None:
            if step.cost >= old - 1e-9:
                rival = self.rivals.get(key)
                if step.cost < old + CONFIDENCE_GAP and (rival is None or step.cost < rival[0]):
                    self.rivals[key] = (step.cost, step)
                return
            self.rivals[key] = (old, self._best_step[key])
        self.best[key] = step.cost
        self._best_step[key] = step
        # priority: cost, then more cells consumed first (depth-first among equals)
        heapq.heappush(self.heap, (step.cost, -step.index, next(self.counter), "state", step, None))

    def candidates(self, step: _Step) -> list[tuple[float, Move]]:
        return self.scored(step.index, step.pos)

    def scored(self, index: int, pos: Position) -> list[tuple[float, Move]]:
        """Candidate moves for cell ``index`` in ``pos``, cheapest first (cached)."""
        key = (index, pos.key())
        found = self.cache.get(key)
        if found is None:
            found = candidate_costs(self.written[index], self.cells[index].text, pos)
            self.cache[key] = found
        return found

    def exact(self, index: int, pos: Position) -> list[Move]:
        """The moves that read cell ``index`` exactly in ``pos`` (cached)."""
        w = self.written[index]
        if w is None:
            return []
        key = (index, pos.key())
        found = self._exact.get(key)
        if found is None:
            found = self._exact[key] = exact_moves(w, pos)
        return found

    # -- deferred (costly) expansions, opened near cells that failed to resolve --
    def _defer(self, step: _Step, extra: float, payload: str) -> None:
        cost = step.cost + extra
        if cost > self.max_cost:
            return
        sid = id(step)
        if sid in self._opened:
            heapq.heappush(self.heap, (cost, -step.index, next(self.counter), "defer", step, payload))
        else:
            self._steps[sid] = step
            self._parked.setdefault(sid, []).append((cost, payload))

    def _open(self, step: _Step) -> None:
        sid = id(step)
        if sid in self._opened:
            return
        self._opened.add(sid)
        for cost, payload in self._parked.pop(sid, []):
            heapq.heappush(self.heap, (cost, -step.index, next(self.counter), "defer", step, payload))

    def _restore_dropped(self, limit: float) -> None:
        """Push the states the main beam dropped (up to cost ``limit``) back into the search."""
        for step in self._dropped:
            if step.cost <= limit:
                heapq.heappush(self.heap, (step.cost, -step.index, next(self.counter), "state", step, None))
        self._dropped = []

    def _open_rivals(self, goal: _Step) -> None:
        """Open the cells of the best reading ``goal`` to the search for rival readings.

        Up to :data:`RIVAL_WINDOW` cells before each correction (and :data:`WINDOW` after) every
        edit is opened; every other cell is opened to far rival branches (:meth:`_open_far`).
        """
        path = _path(goal)
        edited = [p.index for p in path if p.edit > 0.0 or p.op == "move" and p.parent is not None
                  and len(self.exact(p.parent.index, p.parent.pos)) > 1]
        for e in edited:
            self.near.update(range(max(0, e - WINDOW - 1), e + WINDOW + 1))
        for on_path in path:
            if any(e - RIVAL_WINDOW <= on_path.index <= e + WINDOW for e in edited):
                self._open(on_path)
            elif on_path.index < self.n:
                self._open_far(on_path)

    def _open_far(self, step: _Step) -> None:
        """Open a state far before a failure (or a correction) to single misreadings and swaps.

        A legal but wrong reading of an early cell may stay playable for many moves and only
        show where the sheet stops resolving: such a branch (``far``) replays the following
        cells exactly (exempt from the beam: it does not branch), and joins the ordinary search
        once it stops resolving at a cell in :attr:`near`; one that stops resolving before
        needs a second, separate correction where the sheet reads well, and is dropped.
        """
        if id(step) in self._far_opened:
            return
        self._far_opened.add(id(step))
        self._steps[id(step)] = step  # keep it alive: ids are the keys
        heapq.heappush(self.heap, (step.cost + MIN_EDIT, -step.index, next(self.counter), "defer", step, "far-moves"))
        heapq.heappush(self.heap, (step.cost + min(TRANSPOSED, WRONG_COLUMN), -step.index, next(self.counter), "defer",
                                   step, "far-swaps"))

    def _open_lineage(self, step: _Step, window: int | None = None) -> None:
        limit = step.index - (self.window if window is None else window)
        a: _Step | None = step
        while a is not None and a.index >= limit:
            self._open(a)
            if a.edit > 0.0:
                break  # the failure is evidence against this edit, not against earlier cells
            a = a.parent

    def _fail(self, step: _Step) -> None:
        self.failed.append(step)
        if step.cost == 0.0 and (self.first_failure is None or step.index < self.first_failure):
            self.first_failure = step.index
            self.near.update(range(max(0, step.index - WINDOW - 1), self.n + 1))
            # a legal but wrong move long before the failure: single misreadings of the
            # literal reading's earlier cells, each replayed exactly up to the failure
            a = step.parent
            while a is not None:
                if a.index < step.index - WINDOW:
                    self._open_far(a)
                a = a.parent
        self._open_lineage(step)

    def _widen(self) -> bool:
        if not self._parked or self.window > self.n:
            return False
        self.window = self.window * 3 if self.window * 3 <= self.n else self.n + 1
        for step in self.failed:
            self._open_lineage(step)
        return True

    def expand(self, step: _Step) -> None:
        i = step.index
        cell = self.cells[i]
        plies = step.plies
        if cell.placeholder:
            self._push(_Step(step, i + 1, step.pos, step.cost, "skip", (), (), 0.0, plies, step.far))
            return
        exact = self.exact(i, step.pos)
        w = self.written[i]
        for move in exact:
            after = step.pos.play(move)
            self._push(_Step(step, i + 1, after, step.cost + _evidence(w, step.pos, move, after), "move", (move,), (i,),
                             0.0, plies + 1,
                             step.far))
        if not exact:
            if step.far:
                if i not in self.near:
                    return  # a far rival branch needs a second correction away from the failures
                self._open_lineage(step, WINDOW)
            else:
                self._fail(step)
        if step.op == "omitted":
            return  # an inserted move must be followed by a cell that reads exactly
        self._defer(step, MIN_EDIT, "moves")
        # each kind of sheet-level edit at its own cost, so that none is tried above the horizon
        self._defer(step, min(TRANSPOSED, WRONG_COLUMN), "swaps")
        self._defer(step, min(OMITTED, EXTRA), "omissions")

    def expand_deferred(self, step: _Step, payload: str | tuple[str, int]) -> None:
        i = step.index
        plies = step.plies
        if isinstance(payload, tuple) or payload in ("moves", "far-moves"):
            # candidate readings of the cell, one cost level at a time (the rest deferred
            # again at the next level's cost: none is played above the search's horizon)
            name, k = payload if isinstance(payload, tuple) else (payload, 0)
            exact = self.exact(i, step.pos)
            w = self.written[i]
            far = name == "far-moves"
            scored = self.candidates(step)
            level = scored[k][0] if k < len(scored) else 0.0
            while k < len(scored) and scored[k][0] <= level + 1e-9:
                cost, move = scored[k]
                k += 1
                if cost > 0.0 or move not in exact:
                    after = step.pos.play(move)
                    self._push(_Step(step, i + 1, after, step.cost + cost + _evidence(w, step.pos, move, after), "move",
                                     (move,), (i,), cost, plies + 1, far))
            if k < len(scored):
                heapq.heappush(self.heap, (step.cost + scored[k][0], -i, next(self.counter), "defer", step, (name, k)))
            return
        # sheet-level edits: an omitted move, an extra cell, two cells in swapped order (only
        # the last on a far rival branch: an omission or an extra cell shows at once)
        if not step.pos.has_legal_moves():
            return
        if payload == "omissions":
            if self._fails_soon(i, step.pos, OMISSION_LOOKAHEAD):
                # an omitted move or an extra cell shows soon: a cell here stops reading
                for move in self._insertions(step):
                    after = step.pos.play(move)
                    if i < self.n and not self.cells[i].placeholder and not self.exact(i, after):
                        continue  # the next cell must read exactly after an inserted move
                    self._push(_Step(step, i, after, step.cost + OMITTED, "omitted", (move,), (-1,), OMITTED, plies + 1))
                self._push(_Step(step, i + 1, step.pos, step.cost + EXTRA, "extra", (), (i,), EXTRA, plies))
            return
        far = payload == "far-swaps"
        for gap in (2, 1):
            j = i + gap
            if j >= self.n or self.cells[j].placeholder:
                continue
            order = [j, i + 1, i] if gap == 2 else [j, i]
            pos = step.pos
            played: list[Move] = []
            total = TRANSPOSED if gap == 2 else WRONG_COLUMN
            marks = 0.0
            for index in order:
                if self.cells[index].placeholder:
                    break
                readings = self.exact(index, pos)
                if not readings:
                    break
                played.append(readings[0])
                before, pos = pos, pos.play(readings[0])
                marks += _evidence(self.written[index], before, readings[0], pos)
            else:
                self._push(_Step(step, i + len(order), pos, step.cost + total + marks, "transposed",
                                 tuple(played), tuple(order), total, plies + len(order), far))

    def _first_failure(self, index: int, pos: Position, stop: int | None = None) -> int | None:
        """The first cell from ``index`` (before ``stop``, default the end) that does not read
        exactly when replaying (None: none)."""
        for k in range(index, self.n if stop is None else min(self.n, stop)):
            if self.cells[k].placeholder:
                continue
            exact = self.exact(k, pos)
            if not exact:
                return k
            pos = pos.play(exact[0])
        return None

    def _completion_bound(self, step: _Step, goal: _Step) -> float:
        """An estimate from below of the cheapest complete reading through a dropped ``step``.

        When the rest of the sheet reads exactly from it, its own cost. Otherwise a correction is
        needed at or before the first cell that stops reading, and the best reading's corrections
        well after that cell (beyond :data:`WINDOW`) are taken to stay needed.
        """
        k = self._first_failure(step.index, step.pos)
        if k is None:
            return step.cost
        if self._goal_edits is None or self._goal_edits[0] is not goal:
            self._goal_edits = (goal, [(p.index - 1, p.edit) for p in _path(goal) if p.edit > 0.0])
        later = sum(edit for index, edit in self._goal_edits[1] if index > k + WINDOW)
        return step.cost + MIN_EDIT + later

    def _complete_exactly(self, step: _Step) -> _Step | None:
        """The reading that continues ``step`` with the exact reading of every later cell.

        None when a later cell does not read exactly or fits several moves.
        """
        for k in range(step.index, self.n):
            if self.cells[k].placeholder:
                step = _Step(step, k + 1, step.pos, step.cost, "skip", (), (), 0.0, step.plies)
                continue
            exact = self.exact(k, step.pos)
            if len(exact) != 1:
                return None
            after = step.pos.play(exact[0])
            step = _Step(step, k + 1, after, step.cost + _evidence(self.written[k], step.pos, exact[0], after), "move",
                         (exact[0],), (k,), 0.0, step.plies + 1)
        return step

    def _fails_soon(self, index: int, pos: Position, depth: int) -> bool:
        """True when reading cells from ``index`` exactly fails within ``depth`` cells."""
        return self._first_failure(index, pos, index + depth) is not None

    def _insertions(self, step: _Step) -> list[Move]:
        """Moves that may have been omitted before cell ``step.index``.

        The cell after an omission is written for the other side, so it must read exactly
        once the omitted move is played. When it already reads exactly after a null move, any
        move may be the omitted one; otherwise only moves that can change its reading (a move
        to or from its target or origin square, or a capture there) are tried.
        """
        i = step.index
        moves = step.pos.legal_moves()
        if i >= self.n or self.cells[i].placeholder:
            return moves
        w = self.written[i]
        if w is None:
            return moves
        if step.pos.is_check():
            return moves
        if self.exact(i, step.pos.play_null()):
            return moves
        if w.castle is not None or w.to_square is None:
            return moves
        squares = {w.to_square, w.from_square} | _blockers(step.pos, w.to_square)
        return [m for m in moves if m[1] in squares or m[0] in squares]

    def run(self) -> tuple[_Step | None, list[_Step]]:
        """Best goal step and rival goals (different final positions) within the gap."""
        goal: _Step | None = None
        opened_for: _Step | None = None
        rivals: list[_Step] = []
        while True:
            if not self.heap:
                if goal is not None:
                    break
                if self._dropped and self.main_beam < MAIN_BEAM * 4:
                    # the beam dropped the way through: take the dropped states back, wider
                    # (twice at most: a sheet that needs more is hopeless within the budget)
                    self.main_beam *= 2
                    self._restore_dropped(math.inf)
                    continue
                if not self._widen():
                    break
                continue
            cost, _, _, kind, step, payload = heapq.heappop(self.heap)
            if goal is not None and cost > goal.cost + CONFIDENCE_GAP:
                break
            if goal is not None and goal.cost > 0.0 and goal is not opened_for:
                # a correction was needed: look for rival readings anywhere in the sheet (an
                # earlier cell may explain the failure as well), not only near the failures;
                # again when a cheaper reading replaces the best one
                opened_for = goal
                self.window = self.n + 1
                self._open_rivals(goal)
                # states the main beam dropped may complete as cheaply: they join the rival search
                self._restore_dropped(goal.cost + CONFIDENCE_GAP)
                heapq.heappush(self.heap, (cost, -step.index, next(self.counter), kind, step, payload))
                continue
            if self.expansions >= self.max_expansions:
                self.truncated = goal is not None  # rivals unexplored: no correction is confident
                break
            if kind == "state":
                if self.best.get((step.index, step.pos.key()), math.inf) < step.cost - 1e-9:
                    continue  # superseded
                if step.op != "omitted" and step.index < self.n and not step.far:
                    # the beam: only the cheapest states per cell are expanded (inserted-move
                    # states are exempt: they are cheap and die at once when wrong)
                    slot = (step.index, goal is None)
                    seen = self.popped.get(slot, 0)
                    if seen >= (self.main_beam if goal is None else BEAM):
                        if goal is None:
                            self._dropped.append(step)
                        elif step.cost <= goal.cost + 1e-9 and step.cost < self.pruned:
                            # a dropped state as cheap as the best reading: if its completion
                            # could cost no more, no correction may claim confidence
                            bound = self._completion_bound(step, goal)
                            self.pruned = min(self.pruned, bound)
                            done = self._complete_exactly(step) if bound <= goal.cost + 1e-9 else None
                            if done is not None and done.pos.key() != goal.pos.key():
                                rivals.append(done)  # shown to the human among the candidates
                                if len(rivals) >= MAX_RIVALS:
                                    break
                        continue
                    self.popped[slot] = seen + 1
                if step.index == self.n:
                    if goal is not None and step.cost < goal.cost - 1e-9:
                        rivals.insert(0, goal)  # an opened window found a cheaper reading
                        goal = step
                    elif goal is None:
                        goal = step
                    elif step.pos.key() != goal.pos.key():
                        rivals.append(step)
                        if len(rivals) >= MAX_RIVALS:
                            break
                    continue
                self.expansions += 1
                self.expand(step)
            else:
                self.expansions += 1
                self.expand_deferred(step, payload)
        return goal, rivals


# --- reporting ----------------------------------------------------------------------------------


def _divergence(best: list[Move], other: list[Move]) -> int:
    """Index of the first ply where two move lists differ."""
    for k, (a, b) in enumerate(zip(best, other)):
        if a != b:
            return k
    return min(len(best), len(other))


def _report(search: _Search, goal: _Step, rivals: list[_Step], start_ply: int) -> tuple[list[Correction], list[tuple[float, list[Move]]], list[str | None], list[Move]]:
    path = _path(goal)
    moves = _moves_of(path)
    # rival readings: other goals, and dominated arrivals at states on the best path
    rival_paths: list[tuple[float, list[Move]]] = []
    for r in rivals:
        rival_paths.append((max(0.0, r.cost - goal.cost), _moves_of(_path(r))))
    for step in path:
        key = (step.index, step.pos.key())
        rival = search.rivals.get(key)
        if rival is not None and rival[1] is not step:
            prefix = _moves_of(_path(rival[1]))
            here = _moves_of(_path(step))
            if prefix != here:
                rival_paths.append((max(0.0, rival[0] - step.cost), prefix + moves[len(here):]))
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
                kind = "unreadable" if w is None else "correction"
                if w is not None:
                    reasons = move_cost(w, pos, move)[1]
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
    readings: list[tuple[float, list[Move]]] = [(goal.cost, moves)]
    for extra, other in sorted(rival_paths, key=lambda item: item[0]):
        if all(other != known for _, known in readings):
            readings.append((goal.cost + extra, other))
    return corrections, readings, written_per_ply, moves


def _san_list(start: Position, moves: Iterable[Move]) -> list[str]:
    out: list[str] = []
    pos = start
    for move in moves:
        out.append(pos.san(move))
        pos = pos.play(move)
    return out


def _parse_tags(tags: dict[str, str] | str | None) -> dict[str, str]:
    if tags is None:
        return {}
    if isinstance(tags, dict):
        return dict(tags)
    out: dict[str, str] = {}
    for part in tags.split(","):
        if "=" in part:
            name, value = part.split("=", 1)
            if name.strip():
                out[name.strip()] = value.strip()
    return out


_ROSTER_DEFAULTS = {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?", "White": "?", "Black": "?"}


def _search_language(sheet: Sheet, lang: str, start: Position, max_cost: float,
                     max_expansions: int) -> tuple[_Search, _Step | None, list[_Step]]:
    cells = sheet.cells
    written = [None if c.placeholder else parse_token(c.text, lang) for c in cells]
    search = _Search(cells, written, start, max_cost, max_expansions)
    goal, rivals = search.run()
    return search, goal, rivals


def reconstruct(text: str, *, lang: str = "auto", fen: str | None = None,
                tags: dict[str, str] | str | None = None, max_cost: float = MAX_COST,
                max_expansions: int = MAX_EXPANSIONS) -> Reconstruction:
    """Reconstruct the game written on a scoresheet (see the module docstring).

    ``lang`` is ``auto`` or one of :data:`notation.scoresheet.tokens.LANGUAGES`; ``fen`` a starting
    position; ``tags`` extra tags (a dict or ``"White=…,Black=…"``), overriding the sheet's
    header block. Never raises on bad input: problems come back as diagnostics and a
    ``needs-human`` status.
    """
    from notation.formats.fen import FenError
    from notation.rules.position import Position

    sheet = read_sheet(text)
    merged = dict(sheet.tags)
    merged.update(_parse_tags(tags))
    diagnostics: list[Diagnostic] = []
    if fen is None and merged.get("FEN"):
        fen = merged["FEN"]
    try:
        start = Position.from_fen(fen) if fen else Position.initial()
    except FenError as exc:
        diag = Diagnostic.make("fen.invalid", f"starting position {fen!r} is not valid: {exc.message}")
        return Reconstruction(status="needs-human", diagnostics=[diag], tags=merged, layout=sheet.layout)
    start_ply = (start.fullmove_number - 1) * 2 + (0 if start.turn else 1)
    result = sheet.result or merged.get("Result") or "*"
    if result not in ("1-0", "0-1", "1/2-1/2", "*"):
        result = "*"
    full_tags = {name: merged.get(name, default) for name, default in _ROSTER_DEFAULTS.items()}
    full_tags["Result"] = result
    for name, value in merged.items():
        if name not in full_tags:
            full_tags[name] = value
    if fen:
        full_tags["SetUp"] = "1"
        full_tags["FEN"] = start.fen()

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
        if not cell.placeholder and search.written[index] is None:
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
    corrections, readings, written_per_ply, moves = _report(search, goal, rivals, start_ply)
    rec.moves = moves
    rec.sans = _san_list(start, moves)
    rec.written = written_per_ply
    rec.corrections = corrections
    rec.cost = round(goal.cost, 3)
    rec.candidates = [(round(cost, 3), _san_list(start, reading)) for cost, reading in readings[: MAX_RIVALS + 1]]
    diagnostics.extend(c.to_diagnostic() for c in corrections)
    if any(not c.confident for c in corrections):
        rec.status = "needs-human"
        doubtful = [c for c in corrections if not c.confident]
        diagnostics.append(Diagnostic.make(
            "sheet.needs-human",
            f"{len(doubtful)} correction(s) below confidence {CONFIDENCE_THRESHOLD:.2f}: a human must decide",
            ply=doubtful[0].ply, san=doubtful[0].written,
            candidates=tuple(x for c in doubtful for x in ((c.chosen or "-"),) + c.alternatives)))
    elif corrections:
        rec.status = "corrected"
    rec.diagnostics = diagnostics
    return rec


def _best_partial(search: _Search) -> list[Move]:
    """The cheapest among the deepest states reached (for a needs-human report)."""
    best_key: tuple[int, float] | None = None
    best_step: _Step | None = None
    for (index, _), step in search._best_step.items():
        rank = (index, -step.cost)
        if best_key is None or rank > best_key:
            best_key, best_step = rank, step
    return _moves_of(_path(best_step)) if best_step is not None else []


def sheet_languages() -> list[str]:
    """The language codes accepted by ``lang`` (besides ``auto``)."""
    return list(LANGUAGES)


__all__ = [
    "Correction",
    "Reconstruction",
    "Sheet",
    "candidate_costs",
    "confidence_of",
    "mark_cost",
    "move_cost",
    "origin_mark_cost",
    "reconstruct",
    "sheet_languages",
]
