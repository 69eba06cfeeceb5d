"""Which games a statistics run looks at: a player (and the colour they had), a date range, an
event, a time-control class.

Time-control classes follow Lichess: the estimated duration of a game is the base time plus 40
times the increment, in seconds; under 180 s is ``bullet`` (Lichess's ultrabullet, under 30 s,
is counted as bullet here), under 480 s ``blitz``, under 1,500 s ``rapid``, otherwise
``classical``. A ``TimeControl`` of ``-`` (no clock) or of the ``moves/seconds`` kind with a day
or more per move, or ``*N`` (N seconds a move) of a day or more, is ``correspondence``; a game
without a usable time control has no class and matches no ``time_control`` filter.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Final

import polars as pl

from notation.select.criteria import fold

TIME_CONTROL_CLASSES: Final = ("bullet", "blitz", "rapid", "classical", "correspondence")
COLORS: Final = ("white", "black")
#: Upper bounds (exclusive) of the estimated duration, in seconds, for the clocked classes.
CLASS_LIMITS: Final = (("bullet", 180), ("blitz", 480), ("rapid", 1500))
DAY: Final = 86_400

#: Columns a selection reads.
SELECTION_COLUMNS: Final = [
    "white",
    "black",
    "event",
    "date",
    "utc_datetime",
    "time_control",
    "base_seconds",
    "increment_seconds",
]


def time_control_class() -> pl.Expr:
    """The class of each game's time control (null when unknown), from ``base_seconds``,
    ``increment_seconds`` and the ``time_control`` text."""
    text = pl.col("time_control").cast(pl.String).str.strip_chars()
    per_move = text.str.extract(r"^\*(\d+)$", 1).cast(pl.Int64, strict=False)
    period = text.str.extract(r"^\d+/(\d+)", 1).cast(pl.Int64, strict=False)
    base = pl.col("base_seconds").cast(pl.Float64)
    increment = pl.col("increment_seconds").cast(pl.Float64).fill_null(0.0)
    estimate = base + 40.0 * increment
    (bullet, bullet_limit), (blitz, blitz_limit), (rapid, rapid_limit) = CLASS_LIMITS
    return (
        pl.when((text == "-") | (per_move >= DAY) | (period >= DAY))
        .then(pl.lit("correspondence"))
        .when(estimate < bullet_limit)
        .then(pl.lit(bullet))
        .when(estimate < blitz_limit)
        .then(pl.lit(blitz))
        .when(estimate < rapid_limit)
        .then(pl.lit(rapid))
        .when(estimate.is_not_null())
        .then(pl.lit("classical"))
        .otherwise(None)
    )


def _folded(column: str) -> pl.Expr:
    return pl.col(column).cast(pl.String).map_elements(fold, return_dtype=pl.String, skip_nulls=True)


def text_matches(column: str, text: str, *, exact: bool = False) -> pl.Expr:
    """The one matching rule for names and events in every command: ``text`` is a part of the
    column's value, any case, accents ignored (``ljubojevic`` finds ``Ljubojević``); with
    ``exact``, the whole value (case, accents and runs of blanks still ignored): the rule of
    :func:`notation.select.criteria.name_matches`, over a column."""
    if exact:
        return _folded(column).str.strip_chars().str.replace_all(r"\s+", " ") == " ".join(fold(text).split())
    return _folded(column).str.contains(fold(text), literal=True)


_DATE = re.compile(r"(\d{4})(?:[.\-/](\d{1,2}))?(?:[.\-/](\d{1,2}))?")


def parse_day(text: str, *, end: bool = False) -> dt.date:
    """``2019``, ``2019-03``, ``2019.03.14`` (``?`` parts allowed): the first day of the period,
    or its last with ``end=True``. ``ValueError`` for anything else."""
    cleaned = text.strip().replace("?", "")
    cleaned = re.sub(r"[.\-/]+$", "", cleaned)
    match = _DATE.fullmatch(cleaned)
    if match is None:
        raise ValueError(f"{text!r} is not a date (YYYY, YYYY-MM or YYYY-MM-DD)")
    year, month, day = int(match.group(1)), match.group(2), match.group(3)
    if month is None:
        return dt.date(year, 12, 31) if end else dt.date(year, 1, 1)
    m = int(month)
    if day is None:
        if end:
            following = dt.date(year + (m == 12), m % 12 + 1, 1)
            return following - dt.timedelta(days=1)
        return dt.date(year, m, 1)
    return dt.date(year, m, int(day))


@dataclass(frozen=True, slots=True)
class Selection:
    """A filter over games; every field that is set must hold.

    ``player``: a case-insensitive, accent-folded part of White's or Black's name; ``color``
    (needs ``player``): the games in which that player had this colour; ``since``/``until``: the
    game's date (or UTC date) within the range, both ends included (games without a date are
    left out when either is set); ``event``: a case-insensitive part of the event name;
    ``time_control``: one of :data:`TIME_CONTROL_CLASSES`; ``exact``: the player and the event
    match as a whole name (:func:`text_matches`).
    """

    player: str | None = None
    color: str | None = None
    since: dt.date | None = None
    until: dt.date | None = None
    event: str | None = None
    time_control: str | None = None
    exact: bool = False

    def __post_init__(self) -> None:
        if self.color is not None and self.color not in COLORS:
            raise ValueError(f"colour must be one of {', '.join(COLORS)}")
        if self.color is not None and not self.player:
            raise ValueError("a colour selects the games of a player: give a player too")
        if self.time_control is not None and self.time_control not in TIME_CONTROL_CLASSES:
            raise ValueError(f"time control class must be one of {', '.join(TIME_CONTROL_CLASSES)}")

    @property
    def empty(self) -> bool:
        return all(getattr(self, name) is None for name in self.__slots__ if name != "exact")

    def player_colour(self) -> pl.Expr:
        """``white``/``black``: the colour the selected player had (null when neither side matches)."""
        player = self.player or ""
        return (
            pl.when(text_matches("white", player, exact=self.exact))
            .then(pl.lit("white"))
            .when(text_matches("black", player, exact=self.exact))
            .then(pl.lit("black"))
            .otherwise(None)
        )

    def apply(self, games: pl.LazyFrame) -> pl.LazyFrame:
        """The games of ``games`` (a frame with :data:`SELECTION_COLUMNS`) that this selection keeps."""
        keep: list[pl.Expr] = []
        if self.player:
            colour = self.player_colour()
            keep.append(colour.is_not_null() if self.color is None else colour == self.color)
        if self.since is not None or self.until is not None:
            day = pl.coalesce(pl.col("date"), pl.col("utc_datetime").dt.date())
            if self.since is not None:
                keep.append(day >= self.since)
            if self.until is not None:
                keep.append(day <= self.until)
        if self.event:
            keep.append(text_matches("event", self.event, exact=self.exact))
        if self.time_control is not None:
            keep.append(time_control_class() == self.time_control)
        if not keep:
            return games
        return games.filter(pl.all_horizontal(keep).fill_null(False))
