"""Statistics over a games table, computed with Polars (lazily: a scanned dataset is read once).

:func:`stats` returns one `pl.DataFrame` per *section*; section names are the values of the
CLI's ``--by`` option:

``result``
    One row over all games: ``games``, ``white_wins``, ``draws``, ``black_wins``, ``unfinished``,
    the score columns (below) and the length summary ``mean_moves``, ``median_moves``,
    ``max_moves``.
``elo-band``
    White's rating minus Black's, in 100-point bands (``< -400``, ``[-400,-300)``, …,
    ``[300,400)``, ``>= 400``, and ``unrated`` when either rating is missing), with the score
    columns and ``expected_white_pct``: the mean Elo expectation of White,
    ``1 / (1 + 10^(-diff/400))``, to compare with the actual ``white_score_pct``.
``eco`` / ``opening`` / ``termination`` / ``event``
    Frequencies (``games``, ``share_pct``) with the score columns, most frequent first; a
    missing value is grouped as ``?``. ``event`` adds ``players``, ``first_date``, ``last_date``.
    ``eco`` and ``opening`` are the tags as written, or, when a tag is missing, the ECO table's
    classification (``eco_computed``/``opening_computed``).
``length``
    Game length in full moves (``ceil(plies / 2)``) in bands of ten (``0-9`` … ``90-99``,
    ``100+``; ``?`` when unknown) with ``games``, ``share_pct`` and the score columns.
``time-control``
    Frequencies by time-control class (``bullet`` … ``correspondence``, ``?`` when unknown;
    :mod:`notation.tables.selection`), in class order, with the score columns.
``color``
    One row per colour: ``games`` (finished), ``wins``, ``draws``, ``losses``, ``score``,
    ``score_pct``, ``unfinished``, from the point of view of the side with that colour, or, when
    the selection names a player, of that player (their record split by colour).
``player``
    Per-player records: ``games`` (finished), ``wins``, ``draws``, ``losses``, ``score``,
    ``score_pct``, ``unfinished``, ``rated_games`` (games whose opponent had a rating),
    ``avg_opp_rating`` and ``performance``.

A :class:`notation.tables.selection.Selection` restricts every section to some games (a player,
a colour, a date range, an event, a time-control class). ``termination`` is the Termination tag,
or, when a game has none, how the replay says it ended (``checkmate``, ``stalemate``, …); its
``unwinnable_timeouts`` column counts the wrongly scored wins on time (FIDE 6.9: the winner could
not checkmate by any series of legal moves, so the game is a draw).

Score columns: ``white_win_pct``, ``draw_pct``, ``black_win_pct`` (shares of finished games)
and ``white_score_pct`` (White's points per finished game: win 1, draw ½), in percent, one
decimal. Unfinished games (``*``, no result) count in ``games`` but in no percentage.

Performance rating: the **linear approximation** ``avg_opp + 400 × (W − L) / N`` over the
games against rated opponents (``N`` such games, ``W`` wins and ``L`` losses among them),
rounded to an integer; null when ``N = 0``. (FIDE's ``dp`` table differs from it by at most a
few dozen points between 15% and 85%; unlike the table, the linear form needs no cap at 0% or 100%.)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

import polars as pl

from notation.tables.schema import BLACK_WINS, DRAW, WHITE_WINS
from notation.tables.scoring import GamesInput, as_lazy, clean_name, expected_score, pct, performance, white_score
from notation.tables.selection import SELECTION_COLUMNS, TIME_CONTROL_CLASSES, Selection, time_control_class

SECTIONS: Final = (
    "result",
    "elo-band",
    "eco",
    "opening",
    "player",
    "color",
    "event",
    "termination",
    "time-control",
    "length",
)

_NEEDED: Final = [
    "event",
    "date",
    "white",
    "black",
    "result",
    "white_elo",
    "black_elo",
    "eco",
    "opening",
    "eco_computed",
    "opening_computed",
    "termination",
    "white_can_mate",
    "black_can_mate",
    "plies",
    "outcome",
    *[name for name in SELECTION_COLUMNS if name not in ("event", "date", "white", "black")],
]

ELO_BAND_EDGES: Final = (-400, -300, -200, -100, 0, 100, 200, 300, 400)
LENGTH_BAND: Final = 10
LENGTH_CAP: Final = 100


def _score_aggs() -> list[pl.Expr]:
    r = pl.col("result")
    return [
        pl.len().alias("games"),
        (r == WHITE_WINS).sum().alias("white_wins"),
        (r == DRAW).sum().alias("draws"),
        (r == BLACK_WINS).sum().alias("black_wins"),
        pl.col("_ws").is_null().sum().alias("unfinished"),
        pl.col("_ws").sum().alias("_white_points"),
    ]


def _score_pcts() -> list[pl.Expr]:
    finished = pl.col("games") - pl.col("unfinished")
    return [
        pct(pl.col("white_wins"), finished).alias("white_win_pct"),
        pct(pl.col("draws"), finished).alias("draw_pct"),
        pct(pl.col("black_wins"), finished).alias("black_win_pct"),
        pct(pl.col("_white_points"), finished).alias("white_score_pct"),
    ]


_SCORE_COLUMNS: Final = [
    "white_wins",
    "draws",
    "black_wins",
    "unfinished",
    "white_win_pct",
    "draw_pct",
    "black_win_pct",
    "white_score_pct",
]


def _base(games: GamesInput, where: Selection | None = None) -> pl.LazyFrame:
    lazy = as_lazy(games, _NEEDED)
    if where is not None and not where.empty:
        lazy = where.apply(lazy)
    tag = pl.col("termination").cast(pl.String).str.strip_chars()
    return lazy.with_columns(
        white_score().alias("_ws"),
        clean_name(pl.col("white")).alias("white"),
        clean_name(pl.col("black")).alias("black"),
        ((pl.col("plies") + 1) // 2).alias("_moves"),
        # the tags as written, else the ECO table's classification (notation.tables.openings)
        pl.coalesce(pl.col("eco"), pl.col("eco_computed")).alias("eco"),
        pl.coalesce(pl.col("opening"), pl.col("opening_computed")).alias("opening"),
        pl.when(tag.is_null() | tag.is_in(["", "?", "-"]))
        .then(pl.col("outcome").cast(pl.String))
        .otherwise(tag)
        .alias("termination"),
        time_control_class().alias("_class"),
        unwinnable_timeout().alias("_unwinnable_timeout"),
    )


def unwinnable_timeout() -> pl.Expr:
    """A wrongly scored win on time (FIDE 6.9): the Termination tag says the loser's flag fell,
    and the recorded winner could not checkmate by any series of legal moves in the final
    position (``white_can_mate`` / ``black_can_mate`` false; null, undecided, does not count)."""
    from notation.validation.checks import TIME_FORFEIT_PATTERN

    on_time = pl.col("termination").cast(pl.String).str.contains("(?i)" + TIME_FORFEIT_PATTERN).fill_null(False)
    result = pl.col("result").cast(pl.String).str.strip_chars()
    cannot = ((result == "1-0") & pl.col("white_can_mate").not_()) | (
        (result == "0-1") & pl.col("black_can_mate").not_()
    )
    return on_time & cannot.fill_null(False)


def time_control_summary(base: pl.LazyFrame) -> pl.LazyFrame:
    """The ``time-control`` section: games and scores by time-control class, in class order."""
    order = {name: index for index, name in enumerate(TIME_CONTROL_CLASSES)}
    total = pl.col("games").sum()
    return (
        base.with_columns(pl.col("_class").fill_null("?").alias("time_control"))
        .group_by("time_control")
        .agg(_score_aggs())
        .with_columns(_score_pcts())
        .with_columns(
            pct(pl.col("games"), total).alias("share_pct"),
            pl.col("time_control").replace_strict(order, default=len(order), return_dtype=pl.Int32).alias("_order"),
        )
        .sort("_order")
        .select(["time_control", "games", "share_pct", *_SCORE_COLUMNS])
    )


def color_summary(base: pl.LazyFrame, where: Selection | None = None) -> pl.LazyFrame:
    """The ``color`` section: the record of each colour (of the selected player, if any)."""
    if where is not None and where.player:
        colour = where.player_colour()
        long = base.select(
            colour.alias("color"),
            pl.when(colour == "white").then(pl.col("_ws")).otherwise(1.0 - pl.col("_ws")).alias("points"),
        ).filter(pl.col("color").is_not_null())
    else:
        long = pl.concat(
            [
                base.select(pl.lit("white").alias("color"), pl.col("_ws").alias("points")),
                base.select(pl.lit("black").alias("color"), (1.0 - pl.col("_ws")).alias("points")),
            ]
        )
    finished = pl.col("points").is_not_null()
    return (
        long.group_by("color")
        .agg(
            finished.sum().alias("games"),
            (pl.col("points") == 1.0).sum().alias("wins"),
            (pl.col("points") == 0.5).sum().alias("draws"),
            (pl.col("points") == 0.0).sum().alias("losses"),
            pl.col("points").sum().alias("score"),
            (~finished).sum().alias("unfinished"),
        )
        .with_columns(pct(pl.col("score"), pl.col("games")).alias("score_pct"))
        .sort(pl.col("color") == "black")
        .select(["color", "games", "wins", "draws", "losses", "score", "score_pct", "unfinished"])
    )


def result_summary(base: pl.LazyFrame) -> pl.LazyFrame:
    """The ``result`` section (one row)."""
    return (
        base.select(
            *_score_aggs(),
            pl.col("_moves").mean().round(1).alias("mean_moves"),
            pl.col("_moves").median().alias("median_moves"),
            pl.col("_moves").max().alias("max_moves"),
        )
        .with_columns(_score_pcts())
        .select(["games", *_SCORE_COLUMNS, "mean_moves", "median_moves", "max_moves"])
    )


def _elo_band_label() -> tuple[pl.Expr, pl.Expr]:
    """(label, sort order) of White's rating minus Black's in 100-point bands."""
    low, high = ELO_BAND_EDGES[0], ELO_BAND_EDGES[-1]
    diff = pl.col("white_elo").cast(pl.Int32) - pl.col("black_elo").cast(pl.Int32)
    step = (diff.clip(low - 100, high) // 100).cast(pl.Int32)  # floor: -401 -> -5, 399 -> 3
    labels = {low // 100 - 1: f"< {low}", high // 100: f">= {high}"}
    labels.update({edge // 100: f"[{edge},{edge + 100})" for edge in ELO_BAND_EDGES[:-1]})
    label = (
        pl.when(diff.is_null()).then(pl.lit("unrated")).otherwise(step.replace_strict(labels, return_dtype=pl.String))
    )
    order = pl.when(diff.is_null()).then(pl.lit(high // 100 + 1)).otherwise(step)
    return label, order


def elo_band_summary(base: pl.LazyFrame) -> pl.LazyFrame:
    """The ``elo-band`` section: score rates by rating difference (White − Black)."""
    label, order = _elo_band_label()
    diff = pl.col("white_elo").cast(pl.Float64) - pl.col("black_elo").cast(pl.Float64)
    expected = expected_score(diff)
    return (
        base.with_columns(label.alias("elo_band"), order.alias("_order"), expected.alias("_expected"))
        .group_by("elo_band", "_order")
        .agg(*_score_aggs(), (100.0 * pl.col("_expected").mean()).round(1).alias("expected_white_pct"))
        .with_columns(_score_pcts())
        .sort("_order")
        .select(["elo_band", "games", *_SCORE_COLUMNS, "expected_white_pct"])
    )


def frequency(
    base: pl.LazyFrame, column: str, *, name: str | None = None, extra: Sequence[pl.Expr] = ()
) -> pl.LazyFrame:
    """Games per value of `column` (``?`` for missing) with shares and score columns (then the
    `extra` aggregates, by their names)."""
    key = name or column
    total = pl.col("games").sum()
    extra_names = [e.meta.output_name() for e in extra]
    return (
        base.with_columns(pl.col(column).fill_null("?").alias(key))
        .group_by(key)
        .agg(*_score_aggs(), *extra)
        .with_columns(_score_pcts())
        .with_columns(pct(pl.col("games"), total).alias("share_pct"))
        .sort(["games", key], descending=[True, False])
        .select([key, "games", "share_pct", *_SCORE_COLUMNS, *extra_names])
    )


def event_summary(base: pl.LazyFrame) -> pl.LazyFrame:
    """The ``event`` section: games, players and dates per event."""
    total = pl.col("games").sum()
    players = pl.concat_list("white", "black").explode().drop_nulls().n_unique().alias("players")
    return (
        base.with_columns(pl.col("event").fill_null("?"))
        .group_by("event")
        .agg(*_score_aggs(), players, pl.col("date").min().alias("first_date"), pl.col("date").max().alias("last_date"))
        .with_columns(_score_pcts())
        .with_columns(pct(pl.col("games"), total).alias("share_pct"))
        .sort(["games", "event"], descending=[True, False])
        .select(["event", "games", "share_pct", "players", "first_date", "last_date", *_SCORE_COLUMNS])
    )


def length_summary(base: pl.LazyFrame) -> pl.LazyFrame:
    """The ``length`` section: full moves in bands of ten."""
    moves = pl.col("_moves")
    low = (moves // LENGTH_BAND) * LENGTH_BAND
    label = (
        pl.when(moves.is_null())
        .then(pl.lit("?"))
        .when(moves >= LENGTH_CAP)
        .then(pl.lit(f"{LENGTH_CAP}+"))
        .otherwise(low.cast(pl.String) + "-" + (low + LENGTH_BAND - 1).cast(pl.String))
    )
    order = pl.when(moves.is_null()).then(LENGTH_CAP + 1).otherwise(pl.min_horizontal(low, pl.lit(LENGTH_CAP)))
    total = pl.col("games").sum()
    return (
        base.with_columns(label.alias("length"), order.alias("_order"))
        .group_by("length", "_order")
        .agg(_score_aggs())
        .with_columns(_score_pcts())
        .with_columns(pct(pl.col("games"), total).alias("share_pct"))
        .sort("_order")
        .select(["length", "games", "share_pct", *_SCORE_COLUMNS])
    )


def player_summary(base: pl.LazyFrame) -> pl.LazyFrame:
    """The ``player`` section: records and performance (linear approximation, module doc)."""
    sides = []
    for player, opp_elo, sign in (("white", "black_elo", 1.0), ("black", "white_elo", -1.0)):
        points = pl.col("_ws") if sign > 0 else 1.0 - pl.col("_ws")
        sides.append(
            base.select(
                pl.col(player).alias("player"),
                points.alias("points"),
                pl.col(opp_elo).cast(pl.Float64).alias("opp_elo"),
            )
        )
    long = pl.concat(sides).filter(pl.col("player").is_not_null())
    finished = pl.col("points").is_not_null()
    rated = finished & pl.col("opp_elo").is_not_null()
    win = pl.col("points") == 1.0
    loss = pl.col("points") == 0.0
    n_rated = rated.sum()
    avg_opp = pl.col("opp_elo").filter(rated).mean()
    return (
        long.group_by("player")
        .agg(
            finished.sum().alias("games"),
            (win & finished).sum().alias("wins"),
            (pl.col("points") == 0.5).sum().alias("draws"),
            (loss & finished).sum().alias("losses"),
            pl.col("points").sum().alias("score"),
            (~finished).sum().alias("unfinished"),
            n_rated.alias("rated_games"),
            avg_opp.round(0).alias("avg_opp_rating"),
            performance(pl.col("points"), pl.col("opp_elo")).alias("performance"),
        )
        .with_columns(pct(pl.col("score"), pl.col("games")).alias("score_pct"))
        .with_columns(pl.col("avg_opp_rating", "performance").cast(pl.Int64))
        .sort(["games", "score", "player"], descending=[True, True, False])
        .select(
            [
                "player",
                "games",
                "wins",
                "draws",
                "losses",
                "score",
                "score_pct",
                "unfinished",
                "rated_games",
                "avg_opp_rating",
                "performance",
            ]
        )
    )


def sections(
    games: GamesInput, by: Iterable[str] | None = None, *, where: Selection | None = None
) -> dict[str, pl.LazyFrame]:
    """The lazy query of each requested section (all of :data:`SECTIONS` when `by` is None) over
    the games ``where`` selects (all when None)."""
    wanted = list(dict.fromkeys(by)) if by is not None else list(SECTIONS)
    unknown = [name for name in wanted if name not in SECTIONS]
    if unknown:
        raise ValueError(f"unknown statistics section(s): {', '.join(unknown)}")
    base = _base(games, where)
    builders = {
        "result": lambda: result_summary(base),
        "elo-band": lambda: elo_band_summary(base),
        "eco": lambda: frequency(base, "eco"),
        "opening": lambda: frequency(base, "opening"),
        "player": lambda: player_summary(base),
        "color": lambda: color_summary(base, where),
        "time-control": lambda: time_control_summary(base),
        "event": lambda: event_summary(base),
        "termination": lambda: frequency(
            base,
            "termination",
            extra=[pl.col("_unwinnable_timeout").sum().cast(pl.Int64).alias("unwinnable_timeouts")],
        ),
        "length": lambda: length_summary(base),
    }
    return {name: builders[name]() for name in wanted}


def stats(
    games: GamesInput, *, by: Sequence[str] | None = None, where: Selection | None = None
) -> dict[str, pl.DataFrame]:
    """Every requested section as a DataFrame, computed in one pass over the games of `games`
    that ``where`` selects.

    Raises ValueError only for an unknown section name (a programming error; the CLI restricts
    ``--by`` to :data:`SECTIONS`).
    """
    queries = sections(games, by, where=where)
    frames = pl.collect_all(list(queries.values()))
    return dict(zip(queries.keys(), frames))
