"""The games table's computed opening columns, ``eco_computed`` and ``opening_computed``.

The classification of :mod:`notation.openings.eco` done in Polars, per chunk of games, from the
position keys of the first :data:`~notation.openings.eco.MAX_PLIES` plies: the keys of the moves
table when it is built, else those collected by a :class:`KeysBuilder` (the same keys, through the
compiled core or the Python replay). Games from the initial position of standard chess only
(``variant`` standard, ``start_fen`` null); the others get nulls, as do games that reach no
table position. ``tests/tables/test_openings_columns.py`` checks that the columns equal
:func:`notation.openings.eco.classify` game for game.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Final

import polars as pl

from notation.openings.eco import MAX_PLIES, table

if TYPE_CHECKING:  # pragma: no cover
    from notation.validation.replay import Replay
    from notation._core import ArrowColumns, MovesBatch
    from notation.compiled import Core

#: The two columns and their dtype (that of ``eco`` and ``opening``).
COMPUTED: Final = ("eco_computed", "opening_computed")

#: Rows (plies) gathered before the openings found in them are computed (bounds the memory).
BATCH_ROWS: Final = 65_536

_KEYS_SCHEMA: Final = pl.Schema({"game_id": pl.UInt64(), "ply": pl.Int32(), "position_key": pl.UInt64()})


@cache
def table_frame() -> pl.DataFrame:
    """The ECO table as a frame: ``position_key``, ``eco_computed``, ``opening_computed``."""
    rows = table()
    return pl.DataFrame(
        {
            "position_key": list(rows),
            "eco_computed": [row.eco for row in rows.values()],
            "opening_computed": [row.name for row in rows.values()],
        },
        schema={"position_key": pl.UInt64, "eco_computed": pl.String, "opening_computed": pl.String},
    )


def openings_of(keys: pl.DataFrame | pl.LazyFrame) -> pl.DataFrame:
    """``(game_id, eco_computed, opening_computed)`` for each game of a frame with ``game_id``,
    ``ply`` and ``position_key`` (a moves table) that reaches a table position in its first
    :data:`MAX_PLIES` plies: the deepest one."""
    return (
        keys.lazy()
        .select("game_id", "ply", "position_key")
        .filter(pl.col("ply") <= MAX_PLIES)
        .join(table_frame().lazy(), on="position_key", how="inner")
        .group_by("game_id")
        .agg(pl.col(name).sort_by("ply").last() for name in COMPUTED)
        .collect()
    )


def with_openings(games: pl.DataFrame, found: pl.DataFrame) -> pl.DataFrame:
    """``games`` (a games table) with its computed columns set from ``found``
    (:func:`openings_of`), null for games not from the standard initial position."""
    from notation.validation.shared import variant_kind

    if not games.height:
        return games
    dtypes = {name: games.schema[name] for name in COMPUTED}
    variants = games.get_column("variant").cast(pl.String).unique().to_list()
    standard = [v for v in variants if v is not None and variant_kind({"Variant": v}) == "standard"]
    variant = pl.col("variant").cast(pl.String)
    classified = pl.col("start_fen").is_null() & (variant.is_null() | variant.is_in(standard))
    return (
        games.drop(COMPUTED)
        .join(found.unique("game_id"), on="game_id", how="left", maintain_order="left")
        .with_columns(pl.when(classified).then(pl.col(name)).cast(dtypes[name]).alias(name) for name in COMPUTED)
        .select(games.columns)
    )


class KeysBuilder:
    """The position keys of the first plies of each game, when no moves table is built: from a
    replay (:meth:`add`) or from the compiled core's columns (:attr:`core_batch`,
    :meth:`add_core`), in the order the games come. Only the openings found are kept."""

    def __init__(self) -> None:
        self.core_batch: MovesBatch | None = None  # made by the caller
        self._core_games: list[tuple[int, int]] = []  # (game id, plies) of the rows in core_batch
        self._core_rows = 0
        self._found: list[pl.DataFrame] = []
        self._ids: list[int] = []
        self._plies: list[int] = []
        self._keys: list[int] = []

    def batch(self, core: Core) -> MovesBatch:
        """:attr:`core_batch`, made from the compiled ``core`` module on first use."""
        if self.core_batch is None:
            self.core_batch = core.MovesBatch()
        return self.core_batch

    def add(self, gid: int, rep: Replay) -> None:
        """The keys of a replayed game's first plies."""
        for record in rep.plies[:MAX_PLIES]:
            self._ids.append(gid)
            self._plies.append(record.ply)
            self._keys.append(record.key)
        if len(self._ids) >= BATCH_ROWS:
            self._drain_python()

    def add_core(self, gid: int, plies: int) -> None:
        """Account for the ``plies`` rows the core appended to :attr:`core_batch` for a game."""
        if plies:
            self._core_games.append((gid, plies))
            self._core_rows += plies
            if self._core_rows >= BATCH_ROWS:
                self._drain_core()

    def add_core_rows(self, columns: ArrowColumns, gids: list[int], plies: list[int]) -> None:
        """The keys of games the core wrote in one call (``notation._core.import_rows``:
        ``columns``, in game order, ``plies`` rows for each of ``gids``)."""
        rows = sum(plies)
        if not rows:
            return
        keys = pl.DataFrame(columns).select("position_key")
        games = pl.DataFrame({"game_id": gids, "n": plies}, schema={"game_id": pl.UInt64, "n": pl.Int32})
        plies_of = games.filter(pl.col("n") > 0).select(
            "game_id", pl.int_ranges(1, pl.col("n") + 1, dtype=pl.Int32).alias("ply")
        )
        self._found.append(openings_of(pl.concat([plies_of.explode("ply"), keys], how="horizontal")))

    def _drain_core(self) -> None:
        if not self._core_games:
            return
        assert self.core_batch is not None  # (rows were accounted for: the caller made the batch)
        columns = pl.DataFrame(self.core_batch.take()).select("position_key")
        games = pl.DataFrame(self._core_games, schema={"game_id": pl.UInt64, "n": pl.Int32}, orient="row")
        self._core_games, self._core_rows = [], 0
        rows = games.select("game_id", pl.int_ranges(1, pl.col("n") + 1, dtype=pl.Int32).alias("ply")).explode("ply")
        self._found.append(openings_of(pl.concat([rows, columns], how="horizontal")))

    def _drain_python(self) -> None:
        if not self._ids:
            return
        keys = pl.DataFrame({"game_id": self._ids, "ply": self._plies, "position_key": self._keys}, schema=_KEYS_SCHEMA)
        self._found.append(openings_of(keys))
        self._ids, self._plies, self._keys = [], [], []

    def finish(self) -> pl.DataFrame:
        """The openings of every game added (see :func:`openings_of`)."""
        self._drain_core()
        self._drain_python()
        if not self._found:
            return openings_of(pl.DataFrame(schema=_KEYS_SCHEMA))
        return pl.concat(self._found, how="vertical")
