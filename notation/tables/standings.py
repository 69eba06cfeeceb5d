"""Tournament standings: the final table and crosstable of one event.

Scoring is standard scoring (win 1, draw ½, loss 0).

Order (like an arbiter's final table): score, then the tie-breaks in the order given
(default :data:`DEFAULT_TIEBREAKS`: Sonneborn-Berger, Buchholz, number of wins), all
descending, then the player's name (only to make the listing stable). Players equal on score
and on every tie-break share a place (``"3-4"``).

Tie-breaks (computed over the games *played*, see forfeits below):

* **Sonneborn-Berger**: sum over a player's games of (points scored in that game × the
  opponent's final score): full score of beaten opponents plus half of drawn ones.
* **Buchholz**: sum of the final scores of the opponents met (once per game). In a complete
  single round robin it equals (total points − own score), so it cannot separate equal scores;
  it matters in Swiss events and incomplete tables.
* **Wins**: number of games won over the board.

Unfinished games (result ``*``, or no result): not scored, not counted as games, ignored by
every tie-break; the crosstable shows ``*``. Forfeits: a decisive game with no moves (zero
plies and no replay errors) or with a ``Termination`` of ``forfeit``/``unplayed``; it scores
normally (1 / 0) but is left out of all tie-breaks (tie-breaks measure play); the crosstable
shows ``+`` / ``-``. Several games between the same two players (double round robin) show
in one cell, in input order (``1 ½``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

import polars as pl

from notation.diagnostics import Diagnostic
from notation.tables.scoring import (
    GamesInput,
    as_lazy,
    clean_name,
    format_half,
    white_score,
)

Tiebreak = Literal["sonneborn-berger", "buchholz", "wins"]
TIEBREAKS: Final[tuple[Tiebreak, ...]] = ("sonneborn-berger", "buchholz", "wins")
DEFAULT_TIEBREAKS: Final[tuple[Tiebreak, ...]] = ("sonneborn-berger", "buchholz", "wins")
_TB_COLUMN: Final[dict[str, str]] = {
    "sonneborn-berger": "sonneborn_berger",
    "buchholz": "buchholz",
    "wins": "wins",
}
FORFEIT_TERMINATIONS: Final = ("forfeit", "forfeited", "unplayed")

CROSSTABLE_MAX_PLAYERS: Final = 64  # wider tables drop the crosstable columns (see `table`)

_NEEDED: Final = [
    "event",
    "white",
    "black",
    "result",
    "plies",
    "error_count",
    "termination",
    "source_file",
    "game_number",
    "status",
    "first_error",
]


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One line of the final table."""

    rank: int
    place: str
    player: str
    games: int
    score: float
    sonneborn_berger: float
    buchholz: float
    wins: int
    unfinished: int
    forfeits: int


@dataclass(slots=True)
class StandingsResult:
    """The final table (`rows`, in ranking order) and the crosstable.

    ``crosstable[player][opponent]`` lists the cells of their games in input order
    (``1``, ``½``, ``0``, ``+``, ``-``, ``*``). ``events`` lists every event found in the
    input (before the ``event`` filter).
    """

    event: str | None
    rows: list[StandingRow]
    crosstable: dict[str, dict[str, list[str]]]
    tiebreaks: tuple[Tiebreak, ...]
    events: list[str] = field(default_factory=list)
    games: int = 0
    unfinished: int = 0
    diagnostics: list[Diagnostic] = field(default_factory=list)
    #: the scored games that fail validation: ``standings.invalid-game`` diagnostics naming the
    #: file, the game and its first error's code (a command can locate them further, as
    #: ``notation validate`` does: :func:`notation.tables.standings.invalid_games`)
    invalid: list[Diagnostic] = field(default_factory=list)

    @property
    def has_crosstable_columns(self) -> bool:
        """Whether `table` holds the crosstable (at most CROSSTABLE_MAX_PLAYERS players)."""
        return len(self.rows) <= CROSSTABLE_MAX_PLAYERS

    def table(self, *, crosstable: bool | None = None) -> pl.DataFrame:
        """The final table with the crosstable columns ``1`` … ``N`` (opponents by rank).

        By default the crosstable columns are left out above CROSSTABLE_MAX_PLAYERS players (an
        N × N grid of mostly empty cells); pass ``crosstable=True`` to force them.
        """
        if crosstable is None:
            crosstable = self.has_crosstable_columns
        order = [row.player for row in self.rows] if crosstable else []
        data: dict[str, list[object]] = {
            "rank": [r.rank for r in self.rows],
            "place": [r.place for r in self.rows],
            "player": [r.player for r in self.rows],
            "games": [r.games for r in self.rows],
            "score": [r.score for r in self.rows],
        }
        for tb in self.tiebreaks:
            column = _TB_COLUMN[tb]
            data[column] = [getattr(r, column) for r in self.rows]
        for index, opponent in enumerate(order, start=1):
            data[str(index)] = [
                "x" if player == opponent else " ".join(self.crosstable.get(player, {}).get(opponent, []))
                for player in order
            ]
        schema: dict[str, pl.DataType | type[pl.DataType]] = {
            "rank": pl.Int64,
            "place": pl.String,
            "player": pl.String,
            "games": pl.Int64,
            "score": pl.Float64,
            "sonneborn_berger": pl.Float64,
            "buchholz": pl.Float64,
            "wins": pl.Int64,
        }
        return pl.DataFrame(data, schema={k: schema.get(k, pl.String) for k in data})


def _long(games: pl.LazyFrame) -> pl.LazyFrame:
    """One row per (game, player): player, opponent, points (null: unfinished), forfeit."""
    ws = white_score()
    forfeit = (ws.is_not_null() & (ws != 0.5)) & (
        ((pl.col("plies") == 0) & (pl.col("error_count").fill_null(0) == 0)).fill_null(False)
        | pl.col("termination").str.to_lowercase().str.strip_chars().is_in(FORFEIT_TERMINATIONS).fill_null(False)
    )
    base = games.with_row_index("_game").with_columns(ws.alias("_ws"), forfeit.alias("forfeit"))
    white = base.select(
        "_game",
        pl.col("white").alias("player"),
        pl.col("black").alias("opponent"),
        pl.col("_ws").alias("points"),
        "forfeit",
    )
    black = base.select(
        "_game",
        pl.col("black").alias("player"),
        pl.col("white").alias("opponent"),
        (1.0 - pl.col("_ws")).alias("points"),
        "forfeit",
    )
    return pl.concat([white, black]).sort("_game", maintain_order=True)


def _cell(points: float | None, forfeit: bool) -> str:
    if points is None:
        return "*"
    if forfeit:
        return "+" if points == 1.0 else "-"
    return {1.0: "1", 0.5: "½", 0.0: "0"}[points]


def standings(
    games: GamesInput,
    *,
    event: str | None = None,
    tiebreaks: tuple[Tiebreak, ...] | list[Tiebreak] = DEFAULT_TIEBREAKS,
    exact: bool = False,
) -> StandingsResult:
    """The final table of `event` (all games when None) from a games table: the games whose
    event contains ``event`` (any case, accents ignored; with ``exact`` the whole name:
    :func:`notation.tables.selection.text_matches`)."""
    tiebreaks = tuple(tiebreaks)
    diagnostics: list[Diagnostic] = []
    lazy = as_lazy(games, _NEEDED).with_columns(
        clean_name(pl.col("white")).alias("white"),
        clean_name(pl.col("black")).alias("black"),
        pl.col("event").str.strip_chars().alias("event"),
    )
    frame = lazy.collect()
    events = sorted({e for e in frame.get_column("event").to_list() if e not in (None, "", "?")})
    if event is not None:
        from notation.tables.selection import text_matches

        frame = frame.filter(text_matches("event", event, exact=exact).fill_null(False))
        chosen = sorted({e for e in frame.get_column("event").to_list() if e not in (None, "", "?")})
        if len(chosen) == 1:
            event = chosen[0]
        elif len(chosen) > 1:
            diagnostics.append(
                Diagnostic.make(
                    "standings.mixed-events",
                    f"{len(chosen)} events match {event!r} and are combined into one table (give more of the name, "
                    "or --exact): " + ", ".join(repr(e) for e in chosen[:5]) + (", ..." if len(chosen) > 5 else ""),
                )
            )
            event = None
    elif len(events) > 1:
        diagnostics.append(
            Diagnostic.make(
                "standings.mixed-events",
                f"{len(events)} events combined into one table (choose one with --event): "
                + ", ".join(repr(e) for e in events[:5])
                + (", ..." if len(events) > 5 else ""),
            )
        )
    # A game needs two named players, who are not one person, to stand in a table.
    diagnostics.extend(_left_out(frame))
    frame = frame.filter(
        pl.col("white").is_not_null() & pl.col("black").is_not_null() & (pl.col("white") != pl.col("black"))
    )

    long = _long(frame.lazy()).collect()
    scored = long.filter(pl.col("points").is_not_null())
    scores = scored.group_by("player").agg(
        pl.col("points").sum().alias("score"),
        pl.len().alias("games"),
        pl.col("forfeit").sum().alias("forfeits"),
    )
    played = scored.filter(~pl.col("forfeit")).join(
        scores.select(pl.col("player").alias("opponent"), pl.col("score").alias("opp_score")),
        on="opponent",
        how="left",
    )
    breaks = played.group_by("player").agg(
        (pl.col("points") * pl.col("opp_score")).sum().alias("sonneborn_berger"),
        pl.col("opp_score").sum().alias("buchholz"),
        (pl.col("points") == 1.0).sum().alias("wins"),
    )
    unfinished = long.filter(pl.col("points").is_null()).group_by("player").agg(pl.len().alias("unfinished"))
    players = long.select("player").unique()
    table = (
        players.join(scores, on="player", how="left")
        .join(breaks, on="player", how="left")
        .join(unfinished, on="player", how="left")
        .with_columns(
            pl.col("score", "sonneborn_berger", "buchholz").fill_null(0.0),
            pl.col("games", "forfeits", "wins", "unfinished").fill_null(0),
        )
    )
    keys = ["score"] + [_TB_COLUMN[tb] for tb in tiebreaks]
    table = table.sort(keys + ["player"], descending=[True] * len(keys) + [False])

    rows: list[StandingRow] = []
    records = table.to_dicts()
    # shared places: equal on score and every tie-break
    groups: list[list[dict[str, object]]] = []
    for record in records:
        if groups and all(groups[-1][0][k] == record[k] for k in keys):
            groups[-1].append(record)
        else:
            groups.append([record])
    rank = 0
    for group in groups:
        first = rank + 1
        last = rank + len(group)
        place = str(first) if first == last else f"{first}-{last}"
        for record in group:
            rank += 1
            rows.append(
                StandingRow(
                    rank=rank,
                    place=place,
                    player=str(record["player"]),
                    games=int(record["games"]),  # type: ignore[call-overload]
                    score=float(record["score"]),  # type: ignore[arg-type]
                    sonneborn_berger=float(record["sonneborn_berger"]),  # type: ignore[arg-type]
                    buchholz=float(record["buchholz"]),  # type: ignore[arg-type]
                    wins=int(record["wins"]),  # type: ignore[call-overload]
                    unfinished=int(record["unfinished"]),  # type: ignore[call-overload]
                    forfeits=int(record["forfeits"]),  # type: ignore[call-overload]
                )
            )

    crosstable: dict[str, dict[str, list[str]]] = {}
    for player, opponent, points, forfeit in long.select("player", "opponent", "points", "forfeit").iter_rows():
        crosstable.setdefault(player, {}).setdefault(opponent, []).append(_cell(points, bool(forfeit)))

    n_unfinished = int(frame.select(white_score().is_null().sum()).item()) if frame.height else 0
    invalid = [
        Diagnostic.make(
            "standings.invalid-game",
            f"scored as its result says, but the game fails validation ({first or 'error'}): "
            "`notation validate` explains",
            file=source_file,
            game=number,
        )
        for source_file, number, first in frame.filter(white_score().is_not_null() & (pl.col("status") == "error"))
        .select("source_file", "game_number", pl.col("first_error").cast(pl.String))
        .iter_rows()
    ]
    return StandingsResult(
        event=event.strip() if event is not None else (events[0] if len(events) == 1 else None),
        rows=rows,
        crosstable=crosstable,
        tiebreaks=tiebreaks,
        events=events,
        games=frame.height,
        unfinished=n_unfinished,
        diagnostics=diagnostics,
        invalid=invalid,
    )


def _left_out(frame: pl.DataFrame) -> list[Diagnostic]:
    """One warning per game the table cannot hold: a missing (or ``?``) player name, or a player
    paired with himself."""
    unnamed = pl.col("white").is_null() | pl.col("black").is_null()
    left = frame.filter(unnamed | (pl.col("white") == pl.col("black")))
    out: list[Diagnostic] = []
    for white, black, source_file, game_number in left.select(
        "white", "black", "source_file", "game_number"
    ).iter_rows():
        if white is None or black is None:
            out.append(
                Diagnostic.make(
                    "standings.unnamed-player",
                    "a game without both player names is left out of the table",
                    file=source_file,
                    game=game_number,
                )
            )
        else:
            out.append(
                Diagnostic.make(
                    "standings.self-game",
                    f"{white!r} paired with himself: the game is left out of the table",
                    file=source_file,
                    game=game_number,
                )
            )
    return out


def describe_score(value: float) -> str:
    """A score or tie-break in arbiter notation (``2½``)."""
    return format_half(value)


def invalid_games(invalid: list[Diagnostic], inputs: Sequence[str | Path] = ()) -> list[Any]:
    """The validation reports (:class:`notation.validation.reports.GameReport`) of the games
    :attr:`StandingsResult.invalid` names, read again from their files, in the order given.

    The games table names a file as given or by its base name: ``inputs`` (the paths the games
    were read from: files and folders of PGN files) resolve a base name when exactly one input
    file has it. A game whose file cannot be found or read again (standard input, a dataset
    whose PGN has moved, two inputs of one name) stays its ``standings.invalid-game``
    diagnostic. Each file is read once, up to the last game named."""
    from notation.pgn.chunks import RawGame
    from notation.pgn.reader import split_games
    from notation.pgn.sources import expand_paths
    from notation.validation.core import check_raw

    by_name: dict[str, list[Path]] = {}
    for item in expand_paths(inputs):
        for file in item.readable if item.kind == "folder" or (item.kind == "file" and item.path.is_file()) else []:
            by_name.setdefault(file.name, []).append(file)
    wanted: dict[str, set[int]] = {}
    for diag in invalid:
        if diag.file is not None and diag.game is not None:
            wanted.setdefault(diag.file, set()).add(diag.game)
    found: dict[tuple[str, int], Any] = {}
    for name, numbers in wanted.items():
        candidates = by_name.get(Path(name).name, [])
        where = (
            Path(name)
            if Path(name).is_absolute() and Path(name).is_file()
            else (candidates[0] if len(candidates) == 1 else None)
        )
        if where is None:
            continue
        try:
            for raw in split_games(str(where)):
                if isinstance(raw, RawGame) and raw.number in numbers:
                    found[(name, raw.number)] = check_raw(raw, str(where))
                if raw.number >= max(numbers):
                    break
        except OSError:
            continue
    return [found.get((d.file or "", d.game or 0), d) for d in invalid]
