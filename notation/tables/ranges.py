"""Values a table column cannot hold: null in the row and a located warning, never a failure.

Every column of the games and moves tables whose value comes from the input has a fixed
dtype (:mod:`notation.tables.schema`); input can hold numbers that do not fit it: an Elo of
``99999999999999999999`` (``Int16``), a FEN move number of ``2147483648`` (``Int32``, the
moves table's ``move_number``), ``[%eval #-99999999999]`` (``Int16``), ``[%eval 1e12]``
centipawns (``Int32``), a ``[%clk]`` of 400 digits (``Float64`` infinity), NAG ``$256``
(``UInt8``), a time control of ``99999999999+5`` (``Int32``/``Int16``), a ``UTCTime`` of
``25:61:00`` ... Each such value is stored as null (the row is kept: the game's other columns,
its moves and the rest of the batch are unaffected) and reported once as a
``table.value-out-of-range`` warning located at the game (file, game number, first line) and,
for a move's value, its ply and SAN, quoting the text as written.

The row builders (:mod:`notation.tables.rows`) compute the values as they always did, loosely
cast; this module says which nulls are not "absent" but "did not fit": :func:`game_problems`
(vectorised over a batch of raw tag text, :data:`GAME_CHECKS`), :func:`comment_problems` (over a
batch of plies: ``[%clk]``, ``[%eval]``, move times, search depths; the compiled core finds the
same for the games it reads, ``src/commands.rs``) and :func:`out_of_range` (the
diagnostic). The builders check the per-game FEN move number and NAGs in Python, with
:func:`fits`.
Dates are not checked here: a date that is not a calendar date is validation's
``tags.bad-date`` (and ``date_text`` keeps it as written); :func:`in_calendar` keeps such a
date (year 0, a negative year) out of the typed columns.
"""

from __future__ import annotations

from typing import Final

import polars as pl

from notation.diagnostics import Diagnostic
from notation.pgn.comment_commands import CLOCK_PATTERN, DEPTH_PATTERN, EMT_PATTERN, EVAL_PATTERN, MT_PATTERN

CODE: Final = "table.value-out-of-range"

#: (lowest, highest) value of each integer dtype the tables use
INT_RANGES: Final[dict[type[pl.DataType], tuple[int, int]]] = {
    pl.Int8: (-(1 << 7), (1 << 7) - 1),
    pl.Int16: (-(1 << 15), (1 << 15) - 1),
    pl.Int32: (-(1 << 31), (1 << 31) - 1),
    pl.Int64: (-(1 << 63), (1 << 63) - 1),
    pl.UInt8: (0, (1 << 8) - 1),
    pl.UInt64: (0, (1 << 64) - 1),
}


def int_range(dtype: pl.DataType | type[pl.DataType]) -> tuple[int, int]:
    """The (lowest, highest) value of an integer dtype."""
    return INT_RANGES[dtype if isinstance(dtype, type) else type(dtype)]


def fits(value: int, dtype: pl.DataType | type[pl.DataType]) -> bool:
    """True when the Python int ``value`` fits ``dtype``."""
    low, high = int_range(dtype)
    return low <= value <= high


def in_range(expr: pl.Expr, dtype: pl.DataType | type[pl.DataType]) -> pl.Expr:
    """True where ``expr`` (any numeric dtype) fits the integer ``dtype`` (NaN and inf do not)."""
    low, high = int_range(dtype)
    return expr.cast(pl.Float64).is_between(float(low), float(high))


def in_calendar(value: pl.Expr) -> pl.Expr:
    """A ``Date``/``Datetime`` expression made null where its year is outside 1-9999: Polars
    parses ``0000.01.01`` and ``-5.01.01``, but no reader of the table (Python's dates, the
    tables printed from it) can hold them; validation reports them (``tags.bad-date``)."""
    return pl.when(value.dt.year().is_between(1, 9999)).then(value)


#: Games columns checked per batch: (typed column, raw text column(s), the pattern of text that
#: holds a value for the column). Where the text matches and the typed column is null, the
#: value did not fit. The raw columns are those of ``GamesBuilder`` (tag text as written).
_INTEGER = r"^\s*[+-]?\d+\s*$"
_TIME_CONTROL_BASE = r"^\d+(?:\+\d+)?$"
_TIME_CONTROL_INCREMENT = r"^\d+\+\d+$"
GAME_CHECKS: Final[tuple[tuple[str, str, str, str], ...]] = (
    # (typed column, raw column, pattern, the tag's name for the message)
    ("game_number", "game_number", "", "game number"),
    ("white_elo", "white_elo", _INTEGER, "WhiteElo"),
    ("black_elo", "black_elo", _INTEGER, "BlackElo"),
    ("base_seconds", "time_control", _TIME_CONTROL_BASE, "TimeControl"),
    ("increment_seconds", "time_control", _TIME_CONTROL_INCREMENT, "TimeControl"),
)


def game_problems(raw: pl.DataFrame, typed: pl.DataFrame) -> list[tuple[int, str, str, str]]:
    """``(row, column, tag, text)`` of every games value that did not fit, in row order:
    ``raw`` is a batch of raw columns, ``typed`` the same rows typed (same order)."""
    flags: list[pl.Series] = []
    for column, source, pattern, _ in GAME_CHECKS:
        written = raw.get_column(source).is_not_null()
        if pattern:
            written = written & raw.get_column(source).str.contains(pattern).fill_null(False)
        flags.append((written & typed.get_column(column).is_null()).alias(column))
    flags.append(_utc_flag(raw, typed))
    frame = pl.DataFrame(flags)
    if not frame.select(pl.any_horizontal(pl.all()).any()).item():
        return []
    out: list[tuple[int, str, str, str]] = []
    for column, source, _, tag in GAME_CHECKS:
        for row in frame.get_column(column).arg_true().to_list():
            out.append((row, column, tag, str(raw.get_column(source)[row])))
    for row in frame.get_column("utc_datetime").arg_true().to_list():
        text = f"{raw.get_column('utc_date')[row]} {raw.get_column('utc_time')[row]}"
        out.append((row, "utc_datetime", "UTCDate UTCTime", text))
    return sorted(out, key=lambda found: found[0])  # by row, checks in their order


def _utc_flag(raw: pl.DataFrame, typed: pl.DataFrame) -> pl.Series:
    """A valid ``UTCDate`` with a ``UTCTime`` of digits that is not a time of day (``25:61:00``)."""
    valid_date = (
        raw.select(in_calendar(pl.col("utc_date").str.strip_chars().str.strptime(pl.Date, "%Y.%m.%d", strict=False)))
        .to_series()
        .is_not_null()
    )
    digits = raw.get_column("utc_time").str.contains(r"^\d{1,2}:\d{1,2}:\d{1,2}$").fill_null(False)
    return (valid_date & digits & typed.get_column("utc_datetime").is_null()).alias("utc_datetime")


def out_of_range(
    column: str,
    dtype: pl.DataType,
    what: str,
    text: str,
    *,
    file: str | None,
    game: int | None,
    line: int | None,
    ply: int | None = None,
    san: str | None = None,
    kept: str = "stored as null",
) -> Diagnostic:
    """The ``table.value-out-of-range`` warning for one value (``what``: the tag or command;
    ``kept``: what the table holds instead)."""
    shown = text if len(text) <= 60 else text[:57] + "..."
    message = f"{what} {shown!r} is not a value the {column} column ({dtype}) can hold: {kept}"
    return Diagnostic.make(CODE, message, file=file, game=game, line=line, ply=ply, san=san)


#: The moves columns whose values are checked, in the order their problems are reported within
#: a ply; and what each value is, for the message.
MOVE_CHECKS: Final[dict[str, str]] = {
    "clock_seconds": "clock",
    "eval_cp": "evaluation",
    "eval_mate": "evaluation",
    "move_number": "move number",
    "move_time_ms": "move time",
    "depth": "search depth",
}

#: per moves column read from comments: (the raw value's presence, its text as written), over
#: the stage-1 columns of ``notation.tables.moves_rows.read_comments``
_COMMENT_VALUES: dict[str, tuple[pl.Expr, pl.Expr]] = {
    "clock_seconds": (
        pl.col("clk").struct.field("1").is_not_null(),
        pl.col("text").str.extract(CLOCK_PATTERN.pattern, 0),
    ),
    "eval_cp": (
        pl.col("ev").struct.field("2").is_not_null(),
        pl.col("text").str.extract(EVAL_PATTERN.pattern, 0),
    ),
    "eval_mate": (
        pl.col("ev").struct.field("1").is_not_null(),
        pl.col("text").str.extract(EVAL_PATTERN.pattern, 0),
    ),
    "move_time_ms": (
        pl.col("emt").struct.field("1").is_not_null()
        | pl.col("mt").struct.field("1").is_not_null()
        | pl.col("mt").struct.field("4").is_not_null(),
        pl.coalesce(
            pl.col("text").str.extract(EMT_PATTERN.pattern, 0),
            pl.col("text").str.extract(MT_PATTERN.pattern, 0).str.strip_chars(" \t\n\r,{}"),
        ),
    ),
    "depth": (
        pl.col("ev").struct.field("3").is_not_null() | pl.col("dp").is_not_null(),
        pl.when(pl.col("ev").struct.field("3").is_not_null())
        .then(pl.col("text").str.extract(EVAL_PATTERN.pattern, 0))
        .otherwise(pl.col("text").str.extract(DEPTH_PATTERN.pattern, 0).str.strip_chars(" \t\n\r,{}")),
    ),
}


def comment_problems(frame: pl.DataFrame, fits: dict[str, pl.Expr]) -> list[tuple[int, str, str]]:
    """``(row, column, text)`` of every value read from a comment that is present in the input
    but does not fit its column, in row order (usually none: one pass of flags over the rows)."""
    flags = frame.select(
        (present & ~fits[name].fill_null(False)).alias(name) for name, (present, _) in _COMMENT_VALUES.items()
    )
    if not flags.select(pl.any_horizontal(pl.all()).any()).item():
        return []
    found: list[tuple[int, str, str]] = []
    for name, (_, text) in _COMMENT_VALUES.items():
        rows = flags.get_column(name).arg_true()
        texts = frame.select(text.alias("text")).get_column("text").gather(rows)
        found.extend(zip(rows.to_list(), [name] * len(rows), texts.to_list(), strict=True))
    return sorted(found, key=lambda problem: problem[0])  # by row, columns in their order


def keep_nags(
    nags: list[int],
    where: tuple[str | None, int | None, int | None],
    ply: int,
    san: str,
    diagnostics: list[Diagnostic],
) -> list[int] | None:
    """The NAGs of one ply that fit ``UInt8`` (None when none is left); a warning in
    ``diagnostics`` for each that does not (``$256``). ``where``: (file, game, line)."""
    if all(0 <= nag <= 255 for nag in nags):
        return nags
    file, number, line = where
    for nag in (nag for nag in nags if not 0 <= nag <= 255):
        diagnostics.append(
            out_of_range(
                "nags",
                pl.List(pl.UInt8()),
                "NAG",
                f"${nag}",
                file=file,
                game=number,
                line=line,
                ply=ply,
                san=san,
                kept="left out of the list",
            )
        )
    return [nag for nag in nags if 0 <= nag <= 255] or None


def milliseconds_as_seconds(digits: pl.Expr) -> pl.Expr:
    """Milliseconds written as digits (``"57236"``) as seconds, exactly as Python parses
    ``57.236`` (Polars divides by multiplying with the reciprocal, which leaves binary noise)."""
    padded = digits.str.zfill(4)
    return pl.concat_str(padded.str.head(-3), pl.lit("."), padded.str.tail(3)).cast(pl.Float64, strict=False)
