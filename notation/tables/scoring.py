"""Standard scoring and the games-table helpers shared by `stats`, `standings`, `ledger`, the
opening tree and the charts.

Everything here works on a *games* table with the column names of `notation.tables.schema`
(`white`, `black`, `result`, `date`, `utc_datetime`, ...). Callers may pass a `pl.DataFrame` or a
`pl.LazyFrame`, and may leave out columns they do not need: missing optional columns are
filled with nulls, so hand-built frames in tests need only what a function really reads.

Standard scoring (win 1, draw ½, loss 0). A result is one of the PGN markers ``1-0``, ``0-1``,
``1/2-1/2`` (:data:`notation.tables.schema.FINISHED`); anything else (``*``, null, junk) is
*unfinished*.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Final, TypeAlias, overload

import polars as pl

from notation.diagnostics import Diagnostic
from notation.tables.ranges import in_calendar
from notation.tables.schema import BLACK_WINS, DRAW, UNKNOWN_VALUES, WHITE_WINS

GamesInput: TypeAlias = pl.DataFrame | pl.LazyFrame

# Optional columns and the dtype used when a caller's frame lacks them.
OPTIONAL_COLUMNS: Final[dict[str, pl.DataType | type[pl.DataType]]] = {
    "source_file": pl.String,
    "game_number": pl.Int64,
    "event": pl.String,
    "date": pl.Date,
    "date_text": pl.String,
    "utc_datetime": pl.Datetime("us"),
    "white": pl.String,
    "black": pl.String,
    "result": pl.String,
    "white_elo": pl.Int32,
    "black_elo": pl.Int32,
    "eco": pl.String,
    "opening": pl.String,
    "termination": pl.String,
    "white_can_mate": pl.Boolean,
    "black_can_mate": pl.Boolean,
    "plies": pl.Int32,
    "error_count": pl.Int32,
    "status": pl.String,
}


def as_lazy(games: GamesInput, columns: list[str]) -> pl.LazyFrame:
    """`games` as a LazyFrame with exactly `columns` (missing ones filled with typed nulls).

    Categorical and Enum columns become String. ``utc_datetime`` is normalised to a naive
    Datetime (UTC, microseconds): a time-zone-aware column is converted, a String column (``2021.03.04 12:30:00``,
    ISO forms) is parsed leniently, unparsable values become null.
    """
    lazy = games.lazy() if isinstance(games, pl.DataFrame) else games
    schema = lazy.collect_schema()
    exprs: list[pl.Expr] = []
    for name in columns:
        if name in schema:
            expr = pl.col(name)
            dtype = schema[name]
            if isinstance(dtype, (pl.Categorical, pl.Enum)):
                expr = expr.cast(pl.String)
                dtype = pl.String()
            if name == "utc_datetime" and dtype == pl.String:
                expr = _parse_datetime(expr)
            elif name == "utc_datetime" and isinstance(dtype, pl.Datetime):
                if dtype.time_zone is not None:
                    expr = expr.dt.convert_time_zone("UTC").dt.replace_time_zone(None)
                expr = expr.dt.cast_time_unit("us")
            elif name == "date" and dtype == pl.String:
                expr = in_calendar(expr.str.replace_all(r"\.", "-").str.to_date("%Y-%m-%d", strict=False))
            exprs.append(expr.alias(name))
        else:
            fill_dtype = OPTIONAL_COLUMNS.get(name, pl.String)
            exprs.append(pl.lit(None, dtype=fill_dtype).alias(name))
    return lazy.select(exprs)


def _parse_datetime(expr: pl.Expr) -> pl.Expr:
    text = expr.str.strip_chars().str.replace_all(r"\.", "-").str.replace("T", " ")
    return in_calendar(
        pl.coalesce(
            text.str.to_datetime("%Y-%m-%d %H:%M:%S", strict=False, time_unit="us"),
            text.str.to_datetime("%Y-%m-%d %H:%M", strict=False, time_unit="us"),
            text.str.to_datetime("%Y-%m-%d", strict=False, time_unit="us"),
        )
    )


def white_score() -> pl.Expr:
    """White's score in a game (1, 0.5, 0), null when unfinished."""
    r = pl.col("result")
    return pl.when(r == WHITE_WINS).then(1.0).when(r == DRAW).then(0.5).when(r == BLACK_WINS).then(0.0).otherwise(None)


def pct(part: pl.Expr, whole: pl.Expr) -> pl.Expr:
    """``part`` as a percentage of ``whole``, one decimal; null when ``whole`` is 0."""
    return pl.when(whole > 0).then((100.0 * part / whole).round(1))


def performance(points: pl.Expr, opponent: pl.Expr) -> pl.Expr:
    """The performance rating (an aggregation) by the linear approximation ``average opponent
    rating + 400 × (wins − losses) / N`` over the ``N`` finished games (``points`` 1, ½, 0, null
    when unfinished) against a rated ``opponent``; rounded to an integer, null when ``N = 0``."""
    rated = points.is_not_null() & opponent.is_not_null()
    n_rated = rated.sum()
    margin = ((points == 1.0) & rated).sum().cast(pl.Int64) - ((points == 0.0) & rated).sum().cast(pl.Int64)
    linear = opponent.filter(rated).mean() + 400.0 * margin / n_rated
    return pl.when(n_rated > 0).then(linear.round(0))


@overload
def expected_score(diff: float) -> float: ...


@overload
def expected_score(diff: pl.Expr) -> pl.Expr: ...


def expected_score(diff: float | pl.Expr) -> float | pl.Expr:
    """The Elo expectation of the side ``diff`` rating points higher, ``1 / (1 + 10^(-diff / 400))``:
    a number, or an expression for a Float64 ``diff`` expression."""
    return 1.0 / (1.0 + 10.0 ** (-diff / 400.0))


def clean_name(expr: pl.Expr) -> pl.Expr:
    """A player name with surrounding blanks removed; null for missing names ('', '?', '-')."""
    stripped = expr.str.strip_chars()
    return pl.when(stripped.is_in(UNKNOWN_VALUES).fill_null(True)).then(None).otherwise(stripped)


def format_half(value: float) -> str:
    """Scores and tie-breaks the way arbiters write them: ``2½``, ``½``, ``3``, ``6¼``."""
    sign = "-" if value < 0 else ""
    value = abs(value)
    whole = int(value)
    frac = value - whole
    glyph = {0.0: "", 0.25: "¼", 0.5: "½", 0.75: "¾"}.get(frac)
    if glyph is None:
        return f"{sign}{value:g}"
    if whole == 0 and glyph:
        return sign + glyph
    return f"{sign}{whole}{glyph}"


def csv_lines(source: str | Path | Iterable[str], what: str) -> tuple[list[str], list[Diagnostic]]:
    """The lines of a small CSV input (a path, read as UTF-8 with or without a byte order mark,
    or lines already read), or a located ``pgn.io`` diagnostic naming ``what`` could not be read."""
    name = str(source) if isinstance(source, (str, Path)) else None
    try:
        if isinstance(source, (str, Path)):
            with open(source, encoding="utf-8-sig", newline="") as handle:
                return handle.read().splitlines(), []
        return [line.rstrip("\r\n") for line in source], []
    except FileNotFoundError:
        return [], [Diagnostic.missing_file(str(source))]
    except (OSError, UnicodeDecodeError) as exc:
        return [], [Diagnostic.make("pgn.io", f"cannot read {what}: {exc}", file=name)]
