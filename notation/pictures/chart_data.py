"""The tables behind each chart, computed with Polars (no chart library needed): one row per
mark the chart draws, so a chart's marks can be counted against its data.

Every function takes the games table (a DataFrame or LazyFrame of
:data:`notation.tables.schema.GAMES_SCHEMA` columns; Categorical/Enum or String) and, where
needed, the moves table, and returns a small DataFrame.
"""

from __future__ import annotations

from typing import Final

import polars as pl

from notation.pgn.comment_commands import Eval, engine_evaluation
from notation.pgn.model import Game
from notation.tables.scoring import GamesInput, as_lazy, clean_name, expected_score, white_score

#: Width of a rating-difference band (White's rating minus Black's), and the widest difference
#: shown: differences beyond it join the outermost band.
RATING_BAND: Final = 50
RATING_SPAN: Final = 600
#: Evaluations are drawn within ±10 pawns; a mate is drawn at the edge.
EVAL_CAP: Final = 10.0
OUTCOME_ORDER: Final = ("white wins", "draw", "black wins")
GROUP_COLUMNS: Final = {"eco": "eco", "time-control": "time_control"}


def expectation(diff: float) -> float:
    """The Elo expectation of the side ``diff`` points higher: ``1 / (1 + 10^(-diff / 400))``."""
    return expected_score(diff)


def expectation_curve(step: int = 10) -> pl.DataFrame:
    """``rating_diff``, ``expected`` over ``[-RATING_SPAN, RATING_SPAN]``."""
    diffs = list(range(-RATING_SPAN, RATING_SPAN + 1, step))
    return pl.DataFrame(
        {"rating_diff": diffs, "expected": [expectation(d) for d in diffs]},
        schema={"rating_diff": pl.Int32, "expected": pl.Float64},
    )


def score_by_rating(games: GamesInput) -> pl.DataFrame:
    """Finished games with both ratings, by rating-difference band: ``rating_diff`` (band
    centre), ``games``, ``white_score`` (0..1, White's points per game) and ``expected`` (the
    mean Elo expectation of the band's games)."""
    diff = pl.col("white_elo").cast(pl.Int32) - pl.col("black_elo").cast(pl.Int32)
    clipped = diff.clip(-RATING_SPAN, RATING_SPAN - 1)
    centre = (clipped // RATING_BAND) * RATING_BAND + RATING_BAND // 2
    exp = expected_score(diff.cast(pl.Float64))
    return (
        as_lazy(games, ["white_elo", "black_elo", "result"])
        .with_columns(white_score().alias("_ws"))
        .filter(diff.is_not_null() & pl.col("_ws").is_not_null())
        .group_by(centre.cast(pl.Int32).alias("rating_diff"))
        .agg(
            pl.len().cast(pl.Int64).alias("games"),
            pl.col("_ws").mean().alias("white_score"),
            exp.mean().alias("expected"),
        )
        .sort("rating_diff")
        .collect()
    )


def _group(games: GamesInput, by: str, limit: int) -> tuple[pl.LazyFrame, int]:
    """The games of the ``limit`` most frequent groups, and how many games were left out for
    having no ECO code (``?``, empty or missing: not a code, so not a group; 0 for time controls)."""
    column = GROUP_COLUMNS[by]
    wanted = [column, "result", "plies"] + (["base_seconds", "increment_seconds"] if by == "time-control" else [])
    base = as_lazy(games, wanted).with_columns(
        pl.col(column).str.strip_chars().fill_null("?").alias("group"), white_score().alias("_ws")
    )
    unknown = 0
    if by == "eco":
        no_code = pl.col("group").is_in(["?", ""])
        unknown = int(base.filter(no_code).select(pl.len()).collect().item())
        base = base.filter(~no_code)
    top = base.group_by("group").agg(pl.len().alias("_n")).sort(["_n", "group"], descending=[True, False])
    if limit:
        top = top.head(limit)
    return base.join(top.select("group"), on="group", how="semi"), unknown


def _ordered(table: pl.LazyFrame, base: pl.LazyFrame, by: str) -> pl.LazyFrame:
    """``table`` (one or more rows per group) with ``order`` (the groups' drawing order: ECO
    codes alphabetically, time controls by speed, base + 40 x increment as Lichess classes them,
    the unknown last) and ``label`` (the group with its number of games: ``180+0 (1,234)``)."""
    counts = base.group_by("group").agg(pl.len().alias("_all"))
    if by == "time-control":
        speed = pl.col("base_seconds").cast(pl.Float64) + 40.0 * pl.col("increment_seconds").cast(pl.Float64).fill_null(
            0.0
        )
        counts = counts.join(base.group_by("group").agg(speed.min().alias("_speed")), on="group", how="left")
        key = [pl.col("_speed").is_null(), pl.col("_speed"), pl.col("group")]
    else:
        key = [pl.col("group") == "?", pl.col("group")]
    counts = counts.sort(key).with_columns(pl.int_range(0, pl.len(), dtype=pl.Int32).alias("order"))
    labelled = counts.select(
        "group",
        "order",
        pl.format(
            "{} ({})", pl.col("group"), pl.col("_all").map_elements(lambda n: f"{n:,}", return_dtype=pl.String)
        ).alias("label"),
    )
    return table.join(labelled, on="group", how="left")


def results_by(games: GamesInput, by: str, *, limit: int = 20) -> pl.DataFrame:
    """Finished games by ``by`` (``eco`` or ``time-control``; the ``limit`` most frequent
    values; a missing time control is ``?``, a game without an ECO code is left out): one row
    per value and outcome that occurred, with ``games`` and ``share`` (of the value's finished
    games), in drawing order (``order``, ``label``: see :func:`_ordered`), and ``no_eco`` (the
    games left out, the same on every row)."""
    base, unknown = _group(games, by, limit)
    outcome = (
        pl.when(pl.col("_ws") == 1.0)
        .then(pl.lit("white wins"))
        .when(pl.col("_ws") == 0.5)
        .then(pl.lit("draw"))
        .otherwise(pl.lit("black wins"))
    )
    order = pl.col("outcome").replace_strict({o: i for i, o in enumerate(OUTCOME_ORDER)}, return_dtype=pl.Int8)
    table = (
        base.filter(pl.col("_ws").is_not_null())
        .group_by("group", outcome.alias("outcome"))
        .agg(pl.len().cast(pl.Int64).alias("games"))
        .with_columns(
            (pl.col("games") / pl.col("games").sum().over("group")).alias("share"), order.alias("outcome_order")
        )
    )
    return _ordered(table, base, by).sort(["order", "outcome_order"]).with_columns(_no_eco(unknown)).collect()


def _no_eco(unknown: int) -> pl.Expr:
    return pl.lit(unknown, dtype=pl.Int64).alias("no_eco")


def length_by(games: GamesInput, by: str, *, limit: int = 20) -> pl.DataFrame:
    """Game length in full moves by ``by`` (``eco`` or ``time-control``): one row per value with
    ``games``, ``mean_moves``, ``median_moves``, in drawing order (``order``, ``label``), and
    ``no_eco`` (games without an ECO code, left out: see :func:`results_by`)."""
    base, unknown = _group(games, by, limit)
    moves = (pl.col("plies") + 1) // 2
    table = (
        base.filter(pl.col("plies").is_not_null())
        .group_by("group")
        .agg(
            pl.len().cast(pl.Int64).alias("games"),
            moves.mean().round(1).alias("mean_moves"),
            moves.median().alias("median_moves"),
        )
    )
    return _ordered(table, base, by).sort("order").with_columns(_no_eco(unknown)).collect()


def matching_players(games: GamesInput, player: str, *, exact: bool = False) -> list[str]:
    """The names (as written, blanks trimmed) of the players ``player`` matches, sorted: a part
    of the name, any case, accents ignored; with ``exact`` the whole name
    (:func:`notation.tables.selection.text_matches`)."""
    from notation.tables.selection import text_matches

    names = (
        as_lazy(games, ["white", "black"])
        .select(pl.concat([pl.col("white"), pl.col("black")]).alias("name"))
        .select(clean_name(pl.col("name")).alias("name"))
    )
    found = names.filter(text_matches("name", player, exact=exact).fill_null(False)).unique().collect()
    return sorted(found.get_column("name").to_list())


#: The player chart's series, in order: a rating pool each (Lichess keeps one Chess960 rating).
PLAYER_SERIES: Final = ("bullet", "blitz", "rapid", "classical", "correspondence", "Chess960", "no time control")


def player_history(games: GamesInput, player: str) -> pl.DataFrame:
    """The dated, finished games of ``player`` (name as written, case and spacing ignored) in
    date order: ``date``, ``series`` (the time-control class, ``Chess960`` for every Chess960
    game, ``no time control`` when the class is unknown: :data:`PLAYER_SERIES`), ``rating``
    (the player's own, null when not given), ``score`` (1, ½, 0), and per series the ``games``
    so far and ``score_pct`` (running score, percent): ratings of different pools never mix."""
    from notation.tables.selection import time_control_class

    want = " ".join(player.split()).casefold()
    columns = [
        "date",
        "white",
        "black",
        "white_elo",
        "black_elo",
        "result",
        "time_control",
        "base_seconds",
        "increment_seconds",
        "variant",
    ]
    chess960 = pl.col("variant").str.to_lowercase().str.contains("960|fischer").fill_null(False)
    base = (
        as_lazy(games, columns)
        .with_row_index("_i")
        .with_columns(
            white_score().alias("_ws"),
            clean_name(pl.col("white")).str.to_lowercase().alias("_w"),
            clean_name(pl.col("black")).str.to_lowercase().alias("_b"),
            pl.when(chess960)
            .then(pl.lit("Chess960"))
            .otherwise(time_control_class().fill_null(PLAYER_SERIES[-1]))
            .alias("series"),
        )
    )
    white = base.filter(pl.col("_w") == want).select(
        "_i", "date", "series", pl.col("white_elo").cast(pl.Int32).alias("rating"), pl.col("_ws").alias("score")
    )
    black = base.filter(pl.col("_b") == want).select(
        "_i", "date", "series", pl.col("black_elo").cast(pl.Int32).alias("rating"), (1.0 - pl.col("_ws")).alias("score")
    )
    both = pl.concat([white, black])
    return (
        both.filter(pl.col("date").is_not_null() & pl.col("score").is_not_null())
        .sort(["date", "_i"])
        .with_columns(pl.int_range(1, pl.len() + 1, dtype=pl.Int64).over("series").alias("games"))
        .with_columns((100.0 * pl.col("score").cum_sum().over("series") / pl.col("games")).round(1).alias("score_pct"))
        .select("date", "series", "rating", "score", "games", "score_pct")
        .collect()
    )


#: The most points a chart draws per series: a longer history is thinned (:func:`thinned`).
MAX_POINTS: Final = 2000


def thinned(history: pl.DataFrame, limit: int = MAX_POINTS) -> pl.DataFrame:
    """A player's history (:func:`player_history`) with at most about ``limit`` rows: every k-th
    game of each series and its last one (each row keeps its running count and score, so the
    curve is the same curve, drawn with fewer points). Shorter histories are returned as they are."""
    if history.height <= limit:
        return history
    step = -(-history.height // limit)
    index = pl.int_range(0, pl.len()).over("series")
    keep = (index % step == step - 1) | (index == pl.len().over("series") - 1)
    return history.filter(keep)


def clock_use(games: GamesInput, moves: pl.DataFrame | pl.LazyFrame) -> pl.DataFrame:
    """Mean thinking time by move number and colour, from the ``[%clk]`` clocks: a move's time
    is the mover's previous clock (the base time before the first move) minus the clock after
    it plus the increment. Rows: ``move_number``, ``color``, ``mean_seconds``, ``moves`` (the
    sample behind the mean) and ``thin`` (fewer than :data:`THIN_SAMPLE` moves)."""
    timing = as_lazy(games, ["game_id", "base_seconds", "increment_seconds"])
    lazy = moves.lazy() if isinstance(moves, pl.DataFrame) else moves
    clocks = (
        lazy.select("game_id", "ply", "move_number", pl.col("color").cast(pl.String), "clock_seconds")
        .join(timing, on="game_id", how="left")
        .sort(["game_id", "ply"])
        .with_columns(pl.col("clock_seconds").shift(1).over(["game_id", "color"]).alias("_prev"))
        .with_columns(pl.coalesce(pl.col("_prev"), pl.col("base_seconds").cast(pl.Float64)).alias("_before"))
        .with_columns(
            (
                pl.col("_before")
                - pl.col("clock_seconds")
                + pl.col("increment_seconds").cast(pl.Float64).fill_null(0.0)
            ).alias("_spent")
        )
        .filter(pl.col("_spent").is_not_null() & (pl.col("_spent") >= 0))
    )
    return (
        clocks.group_by("move_number", "color")
        .agg(pl.col("_spent").mean().round(2).alias("mean_seconds"), pl.len().cast(pl.Int64).alias("moves"))
        .with_columns((pl.col("moves") < THIN_SAMPLE).alias("thin"))
        .sort(["move_number", "color"], descending=[False, True])
        .collect()
    )


#: Fewer moves than this behind a mean is a thin sample: the clock chart draws it faded.
THIN_SAMPLE: Final = 30


def _pawns(value: Eval | None) -> float | None:
    if value is None:
        return None
    if value.mate is not None:
        return EVAL_CAP if value.mate > 0 else -EVAL_CAP
    assert value.cp is not None
    return max(-EVAL_CAP, min(EVAL_CAP, value.cp / 100.0))


def evals_from_moves(moves: pl.DataFrame | pl.LazyFrame) -> pl.DataFrame:
    """One game's evaluations from its moves rows (``eval_cp``/``eval_mate``): see :func:`game_evals`;
    ``series`` is ``white``/``black`` (the engine that moved) when the comments carry a search
    depth (an engine game: each engine's own evaluation), else ``analysis``."""
    lazy = moves.lazy() if isinstance(moves, pl.DataFrame) else moves
    pawns = (
        pl.when(pl.col("eval_mate").is_not_null())
        .then(pl.when(pl.col("eval_mate") > 0).then(EVAL_CAP).otherwise(-EVAL_CAP))
        .otherwise((pl.col("eval_cp").cast(pl.Float64) / 100.0).clip(-EVAL_CAP, EVAL_CAP))
    )
    evals = (
        lazy.sort("ply")
        .select(
            pl.col("ply").cast(pl.Int32),
            "san",
            pawns.alias("eval_pawns"),
            pl.col("eval_mate").cast(pl.Int32).alias("mate"),
            pl.col("depth").is_not_null().alias("_engine"),
            pl.col("color").cast(pl.String).alias("_mover"),
        )
        .filter(pl.col("eval_pawns").is_not_null())
        .collect()
    )
    # an engine game's comments are each engine's own search (they carry its depth): one
    # series per side; an annotation ([%eval] without depth) is one analysis: one series
    engines = evals.height > 0 and bool(evals.get_column("_engine").any())
    series = pl.col("_mover") if engines else pl.lit("analysis")
    return evals.with_columns(series.alias("series")).drop("_engine", "_mover")


def game_evals(game: Game) -> pl.DataFrame:
    """One game's evaluation graph: a row per mainline ply with an evaluation (``[%eval]``, else
    an engine comment's ``wv=``): ``ply``, ``san``, ``eval_pawns`` (White's view, within
    ±:data:`EVAL_CAP`; a mate at the edge) and ``mate`` (the mate distance, else null)."""
    from notation.validation.replay import replay

    rows: list[tuple[int, str, float, int | None]] = []
    for record in replay(game, variations=False, notes=False).plies:
        value = engine_evaluation(record.node.comments, white_moved=bool(record.before.turn))
        pawns = _pawns(value)
        if value is not None and pawns is not None:
            rows.append((record.ply, record.san, pawns, value.mate))
    return pl.DataFrame(
        rows, schema={"ply": pl.Int32, "san": pl.String, "eval_pawns": pl.Float64, "mate": pl.Int32}, orient="row"
    )


def table_for(
    kind: str,
    games: GamesInput,
    moves: pl.DataFrame | pl.LazyFrame | None = None,
    *,
    player: str | None = None,
    limit: int = 20,
) -> pl.DataFrame:
    """The data table of chart ``kind`` (see :data:`notation.pictures.charts.KINDS`). ``clock``
    and ``eval`` need ``moves`` (``eval``: the moves of one game); ``player`` needs ``player``;
    ``limit`` caps the groups of the ``results-*``/``length-*`` kinds (0: all)."""
    if kind == "rating":
        return score_by_rating(games)
    if kind.startswith("results-"):
        return results_by(games, kind.removeprefix("results-"), limit=limit)
    if kind.startswith("length-"):
        return length_by(games, kind.removeprefix("length-"), limit=limit)
    if kind == "player":
        if player is None:
            raise ValueError("the player chart needs a player name")
        return thinned(player_history(games, player))
    if kind in ("clock", "eval"):
        if moves is None:
            raise ValueError(f"the {kind} chart needs the moves table")
        return clock_use(games, moves) if kind == "clock" else evals_from_moves(moves)
    raise ValueError(f"unknown chart kind {kind!r}")
