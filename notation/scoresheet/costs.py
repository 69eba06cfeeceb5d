"""Edit costs of reading a scoresheet cell as a legal move: the cost table and cost functions.

Also the moves a cell reads as, exactly (:func:`exact_moves`) or at a finite cost
(:func:`candidate_costs`).

A written cell is read as a legal move at the cost of the edits that turn what was written
into that move (:func:`move_cost`: 0 for an exact reading; a wrong piece letter, a target
square a file or rank off, from/to swapped, a wrong origin/disambiguation, a superfluous
capture mark or promotion, ... each cost something). Sheet-level edits are priced here too and
applied by :mod:`notation.scoresheet.search`: a move the sheet omitted (:data:`OMITTED`), a
dropped cell (:data:`EXTRA`), two cells in swapped order (:data:`TRANSPOSED`, the same player's
consecutive moves; a pair of adjacent cells written in the wrong column costs a little more,
:data:`WRONG_COLUMN`).

Written marks are evidence: a check or mate mark on a move that gives none costs
:data:`CHECK_WRONG` / :data:`MATE_WRONG` (:func:`mark_cost`), and a written origin file or rank
that the move does not need (``Rab1`` when the other rook cannot reach b1) costs
:data:`ORIGIN_EXTRA` (:func:`origin_mark_cost`); both are added to the reading's cost but never
reported as corrections. A missing check mark is free (writers often omit it: it separates no
readings on its own), and so is a capture written without ``x``; a capture mark on a
non-capture costs :data:`CAPTURE_EXTRA`. A pawn capture written as a bare square (``a5`` for
``bxa5``) is a correction (:data:`PAWN_CAPTURE_AS_PUSH`): the square names a push.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import TYPE_CHECKING

from notation.scoresheet.tokens import BISHOP, KING, PAWN, QUEEN, parse_token, too_long

from notation.scoresheet.tokens import Written

if TYPE_CHECKING:  # pragma: no cover
    from notation.rules.move import Move
    from notation.formats.position import Position

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

# --- handwriting confusions ---------------------------------------------------------------------
#: Characters that sheets digitised by OCR or by eye confuse (each group read as any other of the
#: group): ``1/l/7``, ``5/S``, ``6/b/G``, ``8/B``, ``0/O/D``, ``9/g``, ``c/e``, ``h/b/n``, ``a/d``,
#: ``x/+``, and figurines that differ in a detail (``♔/♕``, ``♗/♙`` and their black forms).
CONFUSABLE_GROUPS: tuple[str, ...] = (
    "1l7", "5S", "6bG", "8B", "0OD", "9g", "ce", "hbn", "ad", "x+", "♔♕", "♚♛", "♗♙", "♝♟",
)
#: A character read as a confusable one where what is written is no move at all (``NfG``,
#: ``8b5`` reads as a pawn move from the 8th rank, so it is no move either): cheaper than any
#: other edit, since the cell must be misread somehow.
CONFUSION_UNREADABLE = 0.8
#: A confusable character where what is written is itself a move (``c4`` for ``e4``): like a
#: square one off, a little cheaper (a known confusion is likelier than a random slip).
CONFUSION = 1.5

_CONFUSABLE: dict[str, str] = {}
for _group in CONFUSABLE_GROUPS:
    for _char in _group:
        _CONFUSABLE[_char] = _CONFUSABLE.get(_char, "") + _group.replace(_char, "")


@lru_cache(maxsize=65536)
def confusions(text: str, lang: str) -> tuple[tuple[Written, float, str], ...]:
    """Readings of ``text`` with one confusable character read as another: (reading, cost, what
    was read as what), one per distinct reading, the literal reading's own excluded."""
    literal = parse_token(text, lang)
    if literal is not None and literal.castle is None and literal.to_square is None:
        literal = None  # a short form (QxQ, dxe): no square to start from
    if too_long(text):
        return ()
    base = literal.canonical().rstrip("+#") if literal is not None else None
    out: dict[str, tuple[Written, float, str]] = {}
    for i, char in enumerate(text):
        for alt in _CONFUSABLE.get(char, ""):
            w = parse_token(text[:i] + alt + text[i + 1:], lang)
            if w is None or _no_move(w) or w.castle is None and w.to_square is None:
                continue
            key = w.canonical().rstrip("+#")
            if key == base or key in out:
                continue
            cost = CONFUSION_UNREADABLE if literal is None or _no_move(literal) else CONFUSION
            out[key] = (w, cost, f"'{char}' read as '{alt}'")
    return tuple(out.values())


def _no_move(w: Written) -> bool:
    """True for a written pawn move from a rank (``8b5``): no legal move is written so."""
    return w.piece is None and w.from_rank is not None and w.from_file is None

_FILES = "abcdefgh"


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
    out: list[tuple[float, Move]] = []
    if too_long(text):
        return out  # longer than any written move: no spelling is near it
    cleaned = text.strip().rstrip("+#!?")
    for move in moves:
        san = pos.san(move).rstrip("+#")
        if abs(len(cleaned) - len(san)) > 2 and abs(len(cleaned) - 4) > 2:
            continue  # the length difference alone is more than the distance accepted
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


def _written_costs(written: Written, pos: Position, extra: float) -> list[tuple[float, Move]]:
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
            scored.append((cost + extra, move))
    return scored


def candidate_costs(written: Written | None, text: str, pos: Position,
                    variants: tuple[tuple[Written, float, str], ...] = ()) -> list[tuple[float, Move]]:
    """Every legal move with a finite cost for the cell, cheapest first (``variants``: readings
    through a handwriting confusion, :func:`confusions`, each at its own extra cost)."""
    if written is None:
        scored = _unreadable_costs(text, pos, pos.legal_moves())
    else:
        scored = _written_costs(written, pos, 0.0)
    if variants:
        best: dict[Move, float] = {}
        for cost, move in scored:
            best[move] = min(cost, best.get(move, IMPOSSIBLE))
        for w, extra, _ in variants:
            for cost, move in _written_costs(w, pos, extra):
                if cost < best.get(move, IMPOSSIBLE):
                    best[move] = cost
        scored = [(cost, move) for move, cost in best.items()]
    scored.sort(key=lambda item: item[0])
    return scored


def reading_cost(written: Written | None, text: str, variants: tuple[tuple[Written, float, str], ...],
                 pos: Position, move: Move) -> tuple[float, tuple[str, ...]]:
    """The cheapest explanation of reading the cell as ``move``: its cost and the edits named."""
    best: tuple[float, tuple[str, ...]] = (IMPOSSIBLE, ())
    if written is not None:
        best = move_cost(written, pos, move)
    for w, extra, what in variants:
        cost, reasons = move_cost(w, pos, move)
        if cost + extra < best[0]:
            best = (cost + extra, (f"handwriting: {what}",) + reasons)
    if written is None and best[0] == IMPOSSIBLE:
        for cost, m in _unreadable_costs(text, pos, [move]):
            best = (cost, ("unreadable",))
    return best


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
