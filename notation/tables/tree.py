"""The opening explorer: what was played from a position, and how it scored.

:func:`opening_tree` finds every game whose mainline reaches a position (by its repetition key,
so every move order counts, as in the Lichess explorer; the first time a game reaches it) and
groups the games by the moves that followed, up to ``depth`` plies deep. Each row is one line
of continuation (``depth`` 0 is the position itself: every game that reached it) with:

- ``games``, ``white_wins``, ``draws``, ``black_wins`` and their shares of the finished games
  (``white_win_pct``, ``draw_pct``, ``black_win_pct``; unfinished games count in ``games`` only);
- ``score_pct``: the points per finished game of the side that played the row's last move (for
  the position's own row, of the side to move), in percent;
- ``avg_rating``: that side's mean rating (rated games only); ``performance``: that side's Elo
  performance, the linear form also used by ``notation stats``:
  ``average opponent rating + 400 × (wins − losses) / games`` over the finished games against a
  rated opponent, rounded (null when there is none);
- ``eco``/``opening``: the ECO table's entry for the position after the line, if it has one;
- ``last_date``/``last_game``: the most recent game (by ``Date``, else ``UTCDate``, then
  ``UTCTime``, then game id), as ``White - Black result``.

Rows come in tree order: siblings by games (most first), then by move; ``min_games`` drops
rows (and what follows them) with fewer games. Sources: PGN files (read, replayed and
tabulated chunk by chunk exactly as ``notation import`` does, duplicate games counted once, so
memory is bounded by one chunk) or a dataset written by ``notation import`` (queried lazily:
the moves table's ``position_key`` finds the games, only the plies that follow are read).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final

import polars as pl

from notation.diagnostics import Diagnostic
from notation.tables.openings import table_frame
from notation.pgn.model import MAX_LINE_PLIES
from notation.formats.position import Position
from notation.tables.scoring import as_lazy, clean_name, pct, performance, white_score

#: The columns of :attr:`OpeningTree.frame`, in order.
COLUMNS: Final = (
    "depth",
    "line",
    "move",
    "games",
    "white_wins",
    "draws",
    "black_wins",
    "white_win_pct",
    "draw_pct",
    "black_win_pct",
    "score_pct",
    "avg_rating",
    "performance",
    "eco",
    "opening",
    "last_date",
    "last_game",
)
SCHEMA: Final = pl.Schema(
    {
        "depth": pl.Int32(),
        "line": pl.String(),
        "move": pl.String(),
        "games": pl.Int64(),
        "white_wins": pl.Int64(),
        "draws": pl.Int64(),
        "black_wins": pl.Int64(),
        "white_win_pct": pl.Float64(),
        "draw_pct": pl.Float64(),
        "black_win_pct": pl.Float64(),
        "score_pct": pl.Float64(),
        "avg_rating": pl.Int64(),
        "performance": pl.Int64(),
        "eco": pl.String(),
        "opening": pl.String(),
        "last_date": pl.Date(),
        "last_game": pl.String(),
    }
)
#: Games per chunk on the PGN path (as ``notation import``).
CHUNK_GAMES: Final = 2000

#: The columns of :func:`hits`.
_HIT_SCHEMA: Final = pl.Schema(
    {
        "game_id": pl.UInt64(),
        "white": pl.String(),
        "black": pl.String(),
        "result": pl.String(),
        "white_elo": pl.Int32(),
        "black_elo": pl.Int32(),
        "date": pl.Date(),
        "utc_datetime": pl.Datetime("us"),
        "line": pl.List(pl.String()),
        "keys": pl.List(pl.UInt64()),
    }
)
_GAME_COLUMNS: Final = [
    "game_id",
    "white",
    "black",
    "result",
    "white_elo",
    "black_elo",
    "date",
    "utc_datetime",
    "start_fen",
    "status",
]


@dataclass(frozen=True, slots=True)
class OpeningTree:
    """The explorer's answer: ``frame`` (columns :data:`COLUMNS`; empty when the position could
    not be set up), the position's ``fen``, and the ``diagnostics`` (bad moves or FEN, unreadable
    inputs, a dataset without position keys)."""

    frame: pl.DataFrame
    fen: str | None
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def games(self) -> int:
        """Games that reached the position."""
        return int(self.frame.get_column("games")[0]) if self.frame.height else 0


def root_position(moves: str | None = None, fen: str | None = None) -> tuple[Position | None, list[Diagnostic]]:
    """The position after ``moves`` (movetext such as ``"1. e4 c5"``, read by the PGN parser and
    played by replay) from ``fen`` (default: the initial position), or None and the reasons."""
    from notation.pgn.model import RESULTS
    from notation.pgn.parser import parse_game_text
    from notation.validation.replay import replay

    text = (moves or "").strip()
    ends = text.split()[-1] if text else ""
    game = parse_game_text(text if ends in RESULTS else text + " *")
    if fen is not None:
        game.tags = {"SetUp": "1", "FEN": fen}
    rep = replay(game, variations=False, notes=False)
    problems = [d for d in game.diagnostics if d.severity == "error" and d not in rep.superseded]
    problems += [d for d in rep.diagnostics if d.severity == "error"]
    if problems or rep.final is None:
        return None, [replace(d, game=None, line=None, column=None) for d in problems]
    return rep.final, []


def opening_tree(
    source: str | Path,
    *,
    moves: str | None = None,
    fen: str | None = None,
    depth: int = 1,
    min_games: int = 1,
    jobs: int = 1,
) -> OpeningTree:
    """The explorer rows for the position after ``moves`` from ``fen`` (default: the initial
    position) in ``source``: a PGN file, a folder of PGN files, ``"-"`` (standard input) or a
    dataset directory written by ``notation import``. Never raises on bad input. ``jobs``:
    worker processes for PGN input (:mod:`notation.parallel`; the same rows)."""
    root, problems = root_position(moves, fen)
    if root is None:
        return OpeningTree(_empty(), None, problems)
    depth = max(0, min(depth, MAX_LINE_PLIES))  # no line is longer: a larger depth shows the same
    path = Path(source)
    diagnostics: list[Diagnostic] = []
    if str(source) != "-" and path.is_dir() and (path / "games").is_dir():
        hits = _dataset_hits(path, root, depth, diagnostics)
    else:
        hits = _pgn_hits(path, root, depth, diagnostics, jobs)
    frame = _tree(hits, root, depth, min_games) if hits is not None else _empty()
    return OpeningTree(frame, root.fen(), diagnostics)


# -- finding the games: the same query over a dataset and over each chunk of PGN ----------------


def _dataset_hits(path: Path, root: Position, depth: int, diagnostics: list[Diagnostic]) -> pl.DataFrame | None:
    from notation.tables.dataset import READ_ERRORS, bad_parts
    from notation.tables.frames import scan

    try:
        games, moves = scan(path)
        counts = pl.collect_all(
            [games.select(pl.len()), moves.select(pl.len(), pl.col("position_key").is_null().any().alias("keyless"))]
        )
        game_count, (move_count, keyless) = counts[0].item(), counts[1].row(0)
        if game_count and not move_count:
            why = "the dataset has no moves table (imported with --no-moves)"
        elif keyless:
            why = "the dataset has no position keys (imported with --no-position-key)"
        else:
            return hits(games, moves, root, depth)
    except READ_ERRORS as exc:  # a damaged part: named, as every command names it
        diagnostics.extend(bad_parts(path, exc))
        return None
    diagnostics.append(
        Diagnostic.make("tree.no-position-keys", f"{why}: explore its PGN files instead", file=str(path))
    )
    return None


def _pgn_hits(path: Path, root: Position, depth: int, diagnostics: list[Diagnostic], jobs: int = 1) -> pl.DataFrame:
    from notation.parallel import chunks, ordered_map, worker_pool
    from notation.tables.dataset import PlanStats, expand_inputs, planned_games

    files, problems = expand_inputs([path])
    diagnostics.extend(problems)
    if not files and not problems:
        diagnostics.append(Diagnostic.make("pgn.io", "no PGN files found", file=str(path)))
    seen: set[int] = set()
    stats = PlanStats()

    def tasks() -> Iterator[tuple[list[tuple[int, Any]], str, int]]:
        for file in files:
            new = ((gid, raw) for gid, raw, fresh in planned_games(file, seen, stats) if fresh)
            for chunk in chunks(new, CHUNK_GAMES):
                yield chunk, root.fen(), depth

    with worker_pool(jobs) as executor:
        parts = list(ordered_map(chunk_hits, tasks(), executor))
    diagnostics.extend(stats.diagnostics)
    return pl.concat(parts, how="vertical") if parts else _empty_hits()


def chunk_hits(task: tuple[list[tuple[int, Any]], str, int]) -> pl.DataFrame:
    """:func:`hits` of one chunk of ``(game id, raw game)`` pairs: ``(chunk, root FEN, depth)``
    (run in a worker with ``jobs``)."""
    from notation.tables.rows import tabulate_raw

    chunk, fen, depth = task
    games, plies, _ = tabulate_raw(chunk, moves=True)
    return hits(games.lazy(), plies.lazy(), Position.from_fen(fen), depth)


def hits(games: pl.LazyFrame, moves: pl.LazyFrame, root: Position, depth: int) -> pl.DataFrame:
    """One row per game of a games table that reaches ``root`` (by the moves table's
    ``position_key``, or at the start): the game's facts and ``line``/``keys``, the SAN and the
    position keys of the (up to ``depth``) plies after it first reached ``root``."""
    key = root.key()
    games = as_lazy(games, _GAME_COLUMNS)
    starts = games.select(pl.col("start_fen").unique()).collect().get_column("start_fen").to_list()
    matching = [fen for fen in starts if fen is not None and _fen_key(fen) == key]
    at_start = pl.col("start_fen").is_in(matching)
    if key == Position.initial().key():
        at_start = at_start | pl.col("start_fen").is_null()
    from_start = games.filter(at_start & (pl.col("status") != "unsupported")).select(
        pl.col("game_id").cast(pl.UInt64), pl.lit(0, dtype=pl.Int32).alias("at")
    )
    later = (
        moves.filter(pl.col("position_key") == key)
        .group_by("game_id")
        .agg(pl.col("ply").min().cast(pl.Int32).alias("at"))
    )
    reached = pl.concat([from_start, later]).group_by("game_id").agg(pl.col("at").min()).collect()
    if not reached.height:
        return _empty_hits()
    last = int(reached.get_column("at").max()) + depth  # type: ignore[arg-type]
    lines = (
        moves.select("game_id", "ply", "san", "position_key")
        .filter(pl.col("ply") <= last)
        .join(reached.lazy(), on="game_id", how="inner")
        .filter((pl.col("ply") > pl.col("at")) & (pl.col("ply") <= pl.col("at") + depth))
        .group_by("game_id")
        .agg(pl.col("san").sort_by("ply").alias("line"), pl.col("position_key").sort_by("ply").alias("keys"))
    )
    facts = games.unique("game_id", keep="first", maintain_order=True).drop("start_fen", "status")
    return (
        reached.lazy()
        .join(lines, on="game_id", how="left")
        .join(facts, on="game_id", how="inner")
        .with_columns(
            pl.col("line").fill_null(pl.lit([], dtype=pl.List(pl.String))),
            pl.col("keys").fill_null(pl.lit([], dtype=pl.List(pl.UInt64))),
        )
        .select(_HIT_SCHEMA.names())
        .cast(_HIT_SCHEMA)
        .collect()
    )


def _empty_hits() -> pl.DataFrame:
    return pl.DataFrame(schema=_HIT_SCHEMA)


def _fen_key(fen: str) -> int | None:
    try:
        return Position.from_fen(fen).key()
    except Exception:  # noqa: BLE001 - an unreadable start FEN reaches nothing
        return None


def _empty() -> pl.DataFrame:
    return pl.DataFrame(schema=SCHEMA)


# -- from games to rows ------------------------------------------------------------------------


def _tree(found: pl.DataFrame, root: Position, depth: int, min_games: int) -> pl.DataFrame:
    """The explorer rows of the games in ``found`` (see :func:`hits`), in tree order."""
    turn = bool(root.turn)
    d = pl.col("depth")
    ws = white_score()
    mover_white = pl.when(d == 0).then(pl.lit(turn)).otherwise((d % 2 == 1) == pl.lit(turn))
    points = pl.when(pl.col("_mw")).then(ws).otherwise(1.0 - ws)
    elo_w, elo_b = pl.col("white_elo").cast(pl.Float64), pl.col("black_elo").cast(pl.Float64)
    when = pl.coalesce(pl.col("date"), pl.col("utc_datetime").dt.date())
    label = pl.concat_str(
        clean_name(pl.col("white")).fill_null("?"),
        pl.lit(" - "),
        clean_name(pl.col("black")).fill_null("?"),
        pl.lit(" "),
        pl.col("result").fill_null("*"),
    )
    per_row = (
        found.lazy()
        .with_columns(pl.int_ranges(0, pl.col("line").list.len() + 1, dtype=pl.Int32).alias("depth"))
        .explode("depth")
        .with_columns(
            pl.col("line").list.head(d).list.join(" ").alias("path"),
            pl.when(d > 0)
            .then(pl.col("keys").list.get(d - 1, null_on_oob=True))
            .otherwise(pl.lit(root.key(), pl.UInt64))
            .alias("_key"),
            mover_white.alias("_mw"),
            when.alias("_when"),
            label.alias("_label"),
        )
        .with_columns(
            points.alias("_points"),
            pl.when(pl.col("_mw")).then(elo_w).otherwise(elo_b).alias("_elo"),
            pl.when(pl.col("_mw")).then(elo_b).otherwise(elo_w).alias("_opp"),
        )
    )
    n_finished = pl.col("_points").is_not_null().sum()
    result = pl.col("result")
    rows = (
        per_row.group_by("depth", "path")
        .agg(
            pl.len().alias("games"),
            (result == "1-0").sum().alias("white_wins"),
            (result == "1/2-1/2").sum().alias("draws"),
            (result == "0-1").sum().alias("black_wins"),
            pct((result == "1-0").sum(), n_finished).alias("white_win_pct"),
            pct((result == "1/2-1/2").sum(), n_finished).alias("draw_pct"),
            pct((result == "0-1").sum(), n_finished).alias("black_win_pct"),
            pct(pl.col("_points").sum(), n_finished).alias("score_pct"),
            pl.col("_elo").mean().round(0).alias("avg_rating"),
            performance(pl.col("_points"), pl.col("_opp")).alias("performance"),
            pl.col("_key").first().alias("_key"),
            pl.col("_when").sort_by("_when", "utc_datetime", "game_id").last().alias("last_date"),
            pl.col("_label").sort_by("_when", "utc_datetime", "game_id").last().alias("last_game"),
        )
        .join(_table_frame().lazy(), on="_key", how="left")
        .collect()
    )
    return _ordered(rows, root, depth, min_games)


def _table_frame() -> pl.DataFrame:
    return table_frame().rename({"position_key": "_key", "eco_computed": "eco", "opening_computed": "opening"})


def _ordered(rows: pl.DataFrame, root: Position, depth: int, min_games: int) -> pl.DataFrame:
    """Rows in tree order (siblings by games, most first, then by move), ``min_games`` applied
    below the position's own row, with ``line`` (numbered from the position) and ``move``."""
    children: dict[str, list[dict[str, Any]]] = {}
    top: dict[str, Any] | None = None
    for row in rows.iter_rows(named=True):
        if row["depth"] == 0:
            top = row
        else:
            parent = row["path"].rpartition(" ")[0] if row["depth"] > 1 else ""
            children.setdefault(parent, []).append(row)
    out: list[dict[str, Any]] = []
    if top is None:
        return _empty()

    def visit(row: dict[str, Any]) -> None:
        path = row["path"]
        moves = path.split() if path else []
        out.append({**row, "line": _numbered(moves, root), "move": moves[-1] if moves else None})
        for child in sorted(children.get(path, ()), key=lambda r: (-r["games"], r["path"])):
            if child["games"] >= min_games and child["depth"] <= depth:
                visit(child)

    visit(top)
    return pl.DataFrame(out, schema=SCHEMA, strict=False).select(COLUMNS)


def _numbered(moves: Sequence[str], root: Position) -> str:
    """``1... c5 2. Nf3``: SAN moves numbered from ``root`` (its move number and side to move)."""
    parts: list[str] = []
    offset = 0 if root.turn else 1
    for index, san in enumerate(moves):
        ply = index + offset
        number = root.fullmove_number + ply // 2
        if ply % 2 == 0:
            parts.append(f"{number}. {san}")
        else:
            parts.append(f"{number}... {san}" if index == 0 else san)
    return " ".join(parts)
