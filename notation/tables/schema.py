"""The games and moves table schemas: column vocabularies, Polars dtypes and empty frames.

Two tables, one row per game and one row per legal mainline ply (built by
:mod:`notation.tables.rows`, read and written by :func:`notation.tables.frames.to_frames`,
:func:`notation.tables.frames.scan` and :mod:`notation.tables.dataset`).

Dtypes (pinned by ``tests/test_frames_schema.py``; change them like an API):

* ``Enum`` for closed vocabularies: ``result`` (``1-0``, ``0-1``, ``1/2-1/2``, ``*``; any other
  Result tag value becomes null and is kept verbatim in ``extra_tags``), ``status``,
  ``outcome``, ``color``, ``piece``/``captured``/``promotion`` (``P N B R Q K``).
* ``Categorical`` for open but repetitive text: ``source_file``, ``event``, titles, ``eco``,
  ``opening`` (the tags as written), ``eco_computed``/``opening_computed`` (the ECO table's
  classification, :mod:`notation.tables.openings`), ``time_control``, ``termination``, ``variant``, ``first_error``.
* ``UInt64`` for ``game_id`` (blake2b-64 of the whitespace-normalised game text, see
  :func:`notation.tables.rows.game_id`) and ``position_key`` (the FIDE repetition key after the move,
  Polyglot-compatible: the Polyglot hash, except that the en passant file counts only when an en
  passant capture is legal; see :meth:`notation.rules.position.Position.key`).
* Small integers where the range is known: Elo ``Int16``, increment ``Int16``, mate distance
  ``Int16``, material ``Int16``, NAGs ``List(UInt8)``; plies and counts ``Int32``.
  A value from the input that its column cannot hold is null in the row and a
  ``table.value-out-of-range`` warning (:mod:`notation.tables.ranges`), never a failure.
* Values read from a move's comments: ``clock_seconds`` (``Float64``, time left after the move:
  ``[%clk h:mm:ss(.f)]``, else an engine comment's ``tl=``, in milliseconds or h:mm:ss), ``move_time_ms``
  (``Int64``, milliseconds the mover spent: ``[%emt h:mm:ss(.f)]``, else ``mt=`` in milliseconds or
  ``h:mm:ss``), ``eval_cp``/``eval_mate`` (White's view: ``[%eval]``, else ``wv=``) and ``depth``
  (``Int16``, the engine's search depth: ``[%eval …,depth]``, else ``d=``). Absent: null.
* Dead positions (FIDE 5.2.2, :mod:`notation.validation.dead`): ``first_dead_ply`` is the ply of
  the first dead position (0: the start position; null: none proved); ``white_can_mate`` /
  ``black_can_mate`` say whether each side could still mate in the final position by some series
  of legal moves (null: undecided, or not searched: the search is spent on the recorded winner and
  on a side whose opponent cannot mate).
* ``date`` is a ``Date`` only when the tag is a complete ``YYYY.MM.DD``; ``date_text`` keeps the
  tag as written (``2021.??.??``). ``utc_datetime`` combines ``UTCDate`` and ``UTCTime`` (UTC).
"""

from __future__ import annotations

from typing import Final

import polars as pl

from notation.diagnostics import STATUSES
from notation.pgn.model import RESULTS as RESULT_MARKERS
from notation.rules.squares import PIECE_LETTERS

#: The finished results, by name (standard scoring: win 1, draw ½, loss 0).
WHITE_WINS: Final = "1-0"
BLACK_WINS: Final = "0-1"
DRAW: Final = "1/2-1/2"
FINISHED: Final = (WHITE_WINS, BLACK_WINS, DRAW)
#: The ``result`` categories: the PGN termination markers (:data:`notation.pgn.model.RESULTS`),
#: the finished ones first, then the unfinished game's ``*``.
RESULTS: Final[tuple[str, ...]] = FINISHED + tuple(sorted(RESULT_MARKERS - set(FINISHED)))
#: How a game ended by the Laws alone (:attr:`notation.validation.checks.Outcome.termination`).
OUTCOMES: Final[tuple[str, ...]] = (
    "checkmate",
    "stalemate",
    "dead_position",
    "fivefold_repetition",
    "seventyfive_moves",
)
COLORS: Final[tuple[str, ...]] = ("white", "black")
#: Piece letters in piece-type order (``PAWN`` = 1 is ``P``).
PIECES: Final[tuple[str, ...]] = tuple(PIECE_LETTERS[1:])
#: Tag values that mean "unknown" (``?`` in the Seven Tag Roster, ``-`` for none): read as null.
UNKNOWN_VALUES: Final = frozenset({"", "?", "??", "-"})

RESULT_DTYPE = pl.Enum(list(RESULTS))
STATUS_DTYPE = pl.Enum(list(STATUSES))  # notation.diagnostics.STATUSES: one home for the vocabulary
OUTCOME_DTYPE = pl.Enum(list(OUTCOMES))
COLOR_DTYPE = pl.Enum(list(COLORS))
PIECE_DTYPE = pl.Enum(list(PIECES))
TAG_DTYPE = pl.Struct({"name": pl.String, "value": pl.String})

GAMES_SCHEMA: pl.Schema = pl.Schema(
    {
        "game_id": pl.UInt64(),
        "source_file": pl.Categorical(),
        "game_number": pl.Int32(),
        "event": pl.Categorical(),
        "site": pl.String(),
        "date": pl.Date(),
        "date_text": pl.String(),
        "round": pl.String(),
        "white": pl.String(),
        "black": pl.String(),
        "result": RESULT_DTYPE,
        "white_elo": pl.Int16(),
        "black_elo": pl.Int16(),
        "white_title": pl.Categorical(),
        "black_title": pl.Categorical(),
        "eco": pl.Categorical(),
        "opening": pl.Categorical(),
        "eco_computed": pl.Categorical(),
        "opening_computed": pl.Categorical(),
        "time_control": pl.Categorical(),
        "base_seconds": pl.Int32(),
        "increment_seconds": pl.Int16(),
        "termination": pl.Categorical(),
        "utc_datetime": pl.Datetime("us", "UTC"),
        "variant": pl.Categorical(),
        "start_fen": pl.String(),
        "plies": pl.Int32(),
        "status": STATUS_DTYPE,
        "error_count": pl.Int32(),
        "warning_count": pl.Int32(),
        "first_error": pl.Categorical(),
        "final_fen": pl.String(),
        "outcome": OUTCOME_DTYPE,
        "threefold_ply": pl.Int32(),
        "fifty_moves_ply": pl.Int32(),
        "first_dead_ply": pl.Int32(),
        "white_can_mate": pl.Boolean(),
        "black_can_mate": pl.Boolean(),
        "extra_tags": pl.List(TAG_DTYPE),
    }
)
"""One row per game (see the module docstring for the dtype choices)."""

MOVES_SCHEMA: pl.Schema = pl.Schema(
    {
        "game_id": pl.UInt64(),
        "ply": pl.Int32(),
        "move_number": pl.Int32(),
        "color": COLOR_DTYPE,
        "san": pl.String(),
        "uci": pl.String(),
        "piece": PIECE_DTYPE,
        "captured": PIECE_DTYPE,
        "promotion": PIECE_DTYPE,
        "is_check": pl.Boolean(),
        "is_mate": pl.Boolean(),
        "is_castle": pl.Boolean(),
        "is_en_passant": pl.Boolean(),
        "clock_seconds": pl.Float64(),
        "move_time_ms": pl.Int64(),
        "eval_cp": pl.Int32(),
        "eval_mate": pl.Int16(),
        "depth": pl.Int16(),
        "nags": pl.List(pl.UInt8()),
        "comment": pl.String(),
        "position_key": pl.UInt64(),
        "material_white": pl.Int16(),
        "material_black": pl.Int16(),
    }
)
"""One row per legal mainline ply (ply 1 is the game's first move)."""

# Tags that have a column of their own; every other tag goes to ``extra_tags``.
COLUMN_TAGS: frozenset[str] = frozenset(
    {
        "Event",
        "Site",
        "Date",
        "Round",
        "White",
        "Black",
        "Result",
        "WhiteElo",
        "BlackElo",
        "WhiteTitle",
        "BlackTitle",
        "ECO",
        "Opening",
        "TimeControl",
        "Termination",
        "UTCDate",
        "UTCTime",
        "Variant",
        "FEN",
    }
)


def empty_games() -> pl.DataFrame:
    """A games table with no rows (and the full schema)."""
    return pl.DataFrame(schema=GAMES_SCHEMA)


def empty_moves() -> pl.DataFrame:
    """A moves table with no rows (and the full schema)."""
    return pl.DataFrame(schema=MOVES_SCHEMA)
