"""The ledger of the club level-and-points system (记分方法): each player's points and level.

A club ranking separate from Elo. Everyone starts at 0 points (or at ``initial`` points).
Every decisive or drawn game, in chronological order, moves points from one player to the other
(zero-sum: the loser -- or in a draw the higher side -- loses exactly what the other gains).

With ``d = |points(A) - points(B)|`` before the game and *lower* the side with fewer points:

============  ===========================  =====================  =========================
d             draw (lower gains)           lower side wins        higher side wins
============  ===========================  =====================  =========================
d < 10        0                            10                     10
10 <= d < 100 (10 + d/10) / 2              10 + d/10              10 - d/12.5
100 <= d <200 d/4                          d/2                    2
d >= 200      d/4                          d/2                    0
============  ===========================  =====================  =========================

The system's rules write the bands as "within 10", "10-99", "100 and more" (and "100-199",
"200 and more" for the higher side). Points are not integers, so we read them as half-open
intervals (``10 <= d < 100``): a difference of 99.99 is in the 10-99 band, 100 is not.

Equal points (``d = 0``): nobody is "lower". It does not matter: for ``d < 10`` every rule is
symmetric (a draw moves nothing, either side's win moves 10), so the ledger treats the player
with White as the lower side, and the result is the same whichever side it picks.

Arithmetic is exact: points are `decimal.Decimal` values and every rule multiplies by a finite
decimal (``d/10 = d*0.1``, ``d/12.5 = d*0.08``, ``d/4 = d*0.25``, ``d/2 = d*0.5``), so no
rounding ever happens (an ``Inexact`` trap guards this). Points keep all their decimals.

Levels: below 100 points ``unranked``; 100-199.99 -> ``30``; 200-299.99 -> ``29``; ...;
2900-2999.99 -> ``2``; 3000 and above -> ``1``. Negative points are allowed (``unranked``).

Chronological order: games are sorted by their day (the ``date`` column; when it is null, the
day of ``utc_datetime``), then by ``utc_datetime`` within a day, then by input order (files in
the order given, games in file order). Games whose day is unknown (no ``Date`` and no
``UTCDate``, or a partial date like ``2021.??.??``) come **after** all dated games, in input
order. Only ``1-0``, ``0-1`` and ``1/2-1/2`` are applied; unfinished games (``*``), games
without both player names (empty, ``?``) and games of a player against himself are skipped
and counted.
"""

from __future__ import annotations

import csv
import decimal
import io
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Final, Literal

import polars as pl

from notation.diagnostics import Diagnostic
from notation.tables.schema import DRAW, FINISHED, WHITE_WINS
from notation.tables.scoring import GamesInput, as_lazy, clean_name, csv_lines

Outcome = Literal["draw", "lower-wins", "higher-wins"]

ZERO: Final = Decimal(0)
TEN: Final = Decimal(10)
HUNDRED: Final = Decimal(100)
TWO_HUNDRED: Final = Decimal(200)
LEVEL_ONE_POINTS: Final = Decimal(3000)

# Exact arithmetic: huge precision, and any rounding would raise instead of passing silently.
_CONTEXT: Final = decimal.Context(
    prec=decimal.MAX_PREC,
    Emax=decimal.MAX_EMAX,
    Emin=decimal.MIN_EMIN,
    traps=[decimal.Inexact, decimal.InvalidOperation, decimal.DivisionByZero, decimal.Overflow],
)

InitialPoints = Mapping[str, Decimal | int | str | float]


def gain(d: Decimal, outcome: Outcome) -> Decimal:
    """Points the gaining side receives, for a difference ``d >= 0`` and an outcome.

    ``draw``: the lower side gains; ``lower-wins`` / ``higher-wins``: the winner gains.
    """
    c = _CONTEXT
    if outcome == "draw":
        if d < TEN:
            return ZERO
        if d < HUNDRED:
            return c.add(Decimal(5), c.multiply(d, Decimal("0.05")))  # (10 + d/10) / 2
        return c.multiply(d, Decimal("0.25"))  # d/4
    if outcome == "lower-wins":
        if d < TEN:
            return TEN
        if d < HUNDRED:
            return c.add(TEN, c.multiply(d, Decimal("0.1")))  # 10 + d/10
        return c.multiply(d, Decimal("0.5"))  # d/2
    if d < TEN:
        return TEN
    if d < HUNDRED:
        return c.subtract(TEN, c.multiply(d, Decimal("0.08")))  # 10 - d/12.5
    if d < TWO_HUNDRED:
        return Decimal(2)
    return ZERO


def exchange(white: Decimal, black: Decimal, result: str) -> tuple[Decimal, Decimal]:
    """(white_delta, black_delta) for one game; zero-sum. Unfinished results move nothing."""
    if result not in FINISHED:
        return ZERO, ZERO
    c = _CONTEXT
    d = c.abs(c.subtract(white, black))
    white_lower = white <= black  # d = 0: White counts as lower (irrelevant, see module doc)
    if result == DRAW:
        g = gain(d, "draw")
        delta_white = g if white_lower else c.minus(g)
    elif result == WHITE_WINS:
        delta_white = gain(d, "lower-wins" if white_lower else "higher-wins")
    else:
        delta_white = c.minus(gain(d, "higher-wins" if white_lower else "lower-wins"))
    delta_white = c.add(delta_white, ZERO)  # turn -0 into 0
    return delta_white, c.subtract(ZERO, delta_white)


def level(points: Decimal | int) -> str:
    """``unranked`` below 100 points, then ``30`` (100-199.99) ... ``2`` (2900-2999.99), ``1``."""
    p = Decimal(points)
    if p < HUNDRED:
        return "unranked"
    if p >= LEVEL_ONE_POINTS:
        return "1"
    hundreds = int(_CONTEXT.divide_int(p, HUNDRED))  # 1..29
    return str(31 - hundreds)


def format_points(value: Decimal) -> str:
    """Exact decimal text without exponent or trailing zeros (``12.5``, ``-3``, ``0``)."""
    if value == 0:
        return "0"
    text = format(value, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def round_points(value: Decimal, places: int) -> Decimal:
    """`value` rounded half-to-even to `places` decimals, for display only (``--places``)."""
    rounding = decimal.Context(
        prec=decimal.MAX_PREC, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN, rounding=decimal.ROUND_HALF_EVEN
    )
    return rounding.quantize(value, Decimal(1).scaleb(-places))


#: Starting points are plain decimals (ASCII digits, an optional sign and fraction: no exponent,
#: no digit separators, no other scripts' digits) within these bounds: far beyond any real
#: ledger (level 1 starts at 3,000 points), small enough that no value can cost memory or time.
MAX_INITIAL_POINTS: Final = Decimal(10) ** 9
MAX_INITIAL_PLACES: Final = 60
_PLAIN_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)", re.ASCII)


def to_decimal(value: Decimal | str | float) -> Decimal:
    """A starting point value as an exact Decimal (floats through their shortest repr, no binary
    noise). Text must be a plain decimal; the value must be finite, below
    :data:`MAX_INITIAL_POINTS` in magnitude and have at most :data:`MAX_INITIAL_PLACES` decimals
    (``ValueError`` otherwise)."""
    if isinstance(value, Decimal):
        result = value
    elif isinstance(value, float):
        result = Decimal(repr(value))
    else:
        text = str(value).strip()
        if not _PLAIN_DECIMAL.fullmatch(text):
            raise ValueError(f"{text[:40]!r} is not a plain decimal number")
        result = Decimal(text)
    if not result.is_finite():
        raise ValueError(f"not a finite number: {value!r}")
    if abs(result) >= MAX_INITIAL_POINTS:
        raise ValueError(f"{format_points(result)[:20]} is out of range (at most {MAX_INITIAL_POINTS:,} points)")
    exponent = result.as_tuple().exponent
    if (
        isinstance(exponent, int)
        and exponent < -MAX_INITIAL_PLACES
        and result != result.quantize(Decimal(1).scaleb(-MAX_INITIAL_PLACES), context=decimal.Context(prec=200))
    ):
        raise ValueError(f"more than {MAX_INITIAL_PLACES} decimal places")
    return result


@dataclass(frozen=True, slots=True)
class PlayerPoints:
    """One row of the ledger: a player's final points, level and games applied."""

    player: str
    points: Decimal
    level: str
    games: int


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One applied game (the ``--history`` row)."""

    date: str | None
    white: str
    black: str
    result: str
    white_before: Decimal
    black_before: Decimal
    white_delta: Decimal
    black_delta: Decimal
    source_file: str | None = None
    game_number: int | None = None


@dataclass(slots=True)
class LedgerResult:
    """Final standing of every player plus the per-game history.

    ``players`` is ordered by points (highest first), then name. ``applied`` counts the games
    applied (``history`` lists them unless ``history=False``); ``skipped`` counts games not
    applied by reason (``unfinished``, ``unnamed-player``, ``self-game``).
    """

    players: list[PlayerPoints]
    history: list[LedgerEntry]
    applied: int = 0
    skipped: dict[str, int] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def points(self) -> dict[str, Decimal]:
        """Player -> final points."""
        return {p.player: p.points for p in self.players}

    def table(self) -> pl.DataFrame:
        """The ledger as a Polars DataFrame, one row per player (:meth:`players_frame`), like
        ``notation.standings(...).table()``."""
        return self.players_frame()

    def players_frame(self) -> pl.DataFrame:
        """``player, points, level, games``; points as exact decimal *text* (see module doc)."""
        return pl.DataFrame(
            {
                "player": [p.player for p in self.players],
                "points": [format_points(p.points) for p in self.players],
                "level": [p.level for p in self.players],
                "games": [p.games for p in self.players],
            },
            schema={"player": pl.String, "points": pl.String, "level": pl.String, "games": pl.Int64},
        )

    def history_frame(self) -> pl.DataFrame:
        """``date, white, black, result, white_before, black_before, white_delta, black_delta``."""
        h = self.history
        return pl.DataFrame(
            {
                "date": [e.date for e in h],
                "white": [e.white for e in h],
                "black": [e.black for e in h],
                "result": [e.result for e in h],
                "white_before": [format_points(e.white_before) for e in h],
                "black_before": [format_points(e.black_before) for e in h],
                "white_delta": [format_points(e.white_delta) for e in h],
                "black_delta": [format_points(e.black_delta) for e in h],
            },
            schema={name: pl.String for name in HISTORY_COLUMNS},
        )


PLAYER_COLUMNS: Final = ("player", "points", "level", "games")
HISTORY_COLUMNS: Final = (
    "date",
    "white",
    "black",
    "result",
    "white_before",
    "black_before",
    "white_delta",
    "black_delta",
)

_NEEDED: Final = ["white", "black", "result", "date", "date_text", "utc_datetime", "source_file", "game_number"]


def chronological(games: GamesInput) -> pl.LazyFrame:
    """The games in ledger order (see module doc), with a ``day`` column and cleaned names."""
    lazy = as_lazy(games, _NEEDED).with_row_index("_row")
    return (
        lazy.with_columns(
            clean_name(pl.col("white")).alias("white"),
            clean_name(pl.col("black")).alias("black"),
            pl.coalesce(pl.col("date"), pl.col("utc_datetime").dt.date()).alias("day"),
        )
        .sort(["day", "utc_datetime", "_row"], nulls_last=True, maintain_order=True)
        .drop("_row")
    )


def ledger(games: GamesInput, *, initial: InitialPoints | None = None, history: bool = True) -> LedgerResult:
    """Apply every decisive and drawn game of `games` in chronological order.

    `initial` maps players to starting points (others start at 0); players that appear only
    in `initial` are listed with 0 games. With ``history=False`` the per-game entries are not
    kept (``result.history`` stays empty): exact points of a very active player can grow to
    thousands of digits, and keeping four of them per game costs memory.
    """
    keep_history = history
    points: dict[str, Decimal] = {}
    counts: dict[str, int] = {}
    for name, value in (initial or {}).items():
        points[name.strip()] = to_decimal(value)
        counts.setdefault(name.strip(), 0)
    entries: list[LedgerEntry] = []
    applied = 0
    skipped: dict[str, int] = {}
    diagnostics: list[Diagnostic] = []

    ordered = chronological(games).collect()
    rows = ordered.select("white", "black", "result", "day", "date_text", "source_file", "game_number").iter_rows()
    for white, black, result, day, date_text, source_file, game_number in rows:
        result = (result or "").strip()
        if result not in FINISHED:
            skipped["unfinished"] = skipped.get("unfinished", 0) + 1
            continue
        if white is None or black is None:
            skipped["unnamed-player"] = skipped.get("unnamed-player", 0) + 1
            diagnostics.append(
                Diagnostic.make(
                    "ledger.unnamed-player",
                    "a decisive or drawn game without both player names was not applied",
                    file=source_file,
                    game=game_number,
                )
            )
            continue
        if white == black:
            skipped["self-game"] = skipped.get("self-game", 0) + 1
            diagnostics.append(
                Diagnostic.make(
                    "ledger.self-game",
                    f"{white!r} paired with himself: the game was not applied",
                    file=source_file,
                    game=game_number,
                )
            )
            continue
        wb = points.get(white, ZERO)
        bb = points.get(black, ZERO)
        dw, db = exchange(wb, bb, result)
        points[white] = _CONTEXT.add(wb, dw)
        points[black] = _CONTEXT.add(bb, db)
        counts[white] = counts.get(white, 0) + 1
        counts[black] = counts.get(black, 0) + 1
        applied += 1
        if not keep_history:
            continue
        entries.append(
            LedgerEntry(
                date=day.isoformat() if day is not None else date_text,
                white=white,
                black=black,
                result=result,
                white_before=wb,
                black_before=bb,
                white_delta=dw,
                black_delta=db,
                source_file=source_file,
                game_number=game_number,
            )
        )

    players = [
        PlayerPoints(player=name, points=value, level=level(value), games=counts.get(name, 0))
        for name, value in points.items()
    ]
    players.sort(key=lambda p: (-p.points, p.player))
    return LedgerResult(players=players, history=entries, applied=applied, skipped=skipped, diagnostics=diagnostics)


_NUMBER = re.compile(r"[-+]?\d+(?:\.\d*)?")


def read_initial(source: str | Path | io.TextIOBase | Iterable[str]) -> tuple[dict[str, Decimal], list[Diagnostic]]:
    """Parse a ``player,points`` CSV (header optional). Bad rows become diagnostics.

    The last comma of a row splits the points from the name, so a PGN name with a comma needs no
    quotes (``Cedar, Chen,1500``; ``"Cedar, Chen",1500`` is read the same), unless a number stands
    between the commas (``Anna,1,5``: a decimal comma?), which is an error that shows the quoting.
    A later row for the same player replaces an earlier one (with a warning).
    """
    name = str(source) if isinstance(source, (str, Path)) else None
    lines, unreadable = csv_lines(source, "initial points")
    if unreadable:
        return {}, unreadable
    diagnostics: list[Diagnostic] = []

    result: dict[str, Decimal] = {}
    for number, row in enumerate(csv.reader(lines), start=1):
        if not row or all(not cell.strip() for cell in row):
            continue
        if number == 1 and len(row) >= 2 and row[0].strip().lower() == "player":
            continue  # header
        player, text = ",".join(row[:-1]).strip(), row[-1].strip()
        if len(row) < 2 or not player or any(_NUMBER.fullmatch(cell.strip()) for cell in row[1:-1]):
            diagnostics.append(
                Diagnostic.make(
                    "ledger.bad-initial",
                    f"expected 'player,points' with a decimal point (a name with a comma: "
                    f'Cedar, Chen,1500 or "Cedar, Chen",1500), found {",".join(row)!r}',
                    file=name,
                    line=number,
                )
            )
            continue
        try:
            value = to_decimal(text)
        except (decimal.InvalidOperation, ValueError) as exc:
            diagnostics.append(
                Diagnostic.make(
                    "ledger.bad-initial",
                    f"points {text[:40]!r} rejected: {exc} (the text after the last comma is the points: "
                    f"Cedar, Chen,1500)",
                    file=name,
                    line=number,
                )
            )
            continue
        if player in result:
            diagnostics.append(
                Diagnostic.make(
                    "ledger.bad-initial",
                    f"player {player!r} given twice; the later value is used",
                    severity="warning",
                    file=name,
                    line=number,
                )
            )
        result[player] = value
    return result, diagnostics
