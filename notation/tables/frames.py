"""Games and moves as Polars frames: :func:`to_frames` from PGN sources, :func:`scan` over a dataset.

Every ply row comes from :func:`notation.validation.replay.replay` (the one place that turns
notation into moves), so every row is a checked move; a game's mainline stops at its first
illegal or ambiguous move. The columns and their dtypes are :mod:`notation.tables.schema`'s.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

import polars as pl

from notation.diagnostics import Diagnostic
from notation.tables.schema import GAMES_SCHEMA, MOVES_SCHEMA, empty_games, empty_moves


def to_frames(
    source: Any,
    *,
    moves: bool = True,
    problems: list[Diagnostic] | None = None,
    executor: Executor | None = None,
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Read, replay and tabulate every game of ``source``: ``(games, moves)``.

    ``source`` is anything :func:`notation.pgn.reader.split_games` takes (a path, a binary or text
    handle). One games row per game in the source (no de-duplication: that is the dataset's
    job, see :mod:`notation.tables.dataset`), one moves row per legal mainline ply. With
    ``moves=False`` the moves table is empty (and nothing per ply is built).

    A source that cannot be read (to the end) is never a row: the games read whole before the
    failure are tabulated, and the failure, a ``pgn.io`` diagnostic located at the game where
    reading stopped, is appended to ``problems`` (pass a list to hear of it).

    With an ``executor`` (:func:`notation.parallel.worker_pool`) the games are tabulated in its
    workers, chunk by chunk (:func:`tabulate_chunk`); the frames are the same, row for row.
    """
    from notation.pgn.chunks import ReadFailure
    from notation.pgn.reader import split_games
    from notation.pgn.sources import require_existing
    from notation.tables.rows import game_id, raw_text, source_name, tabulate_raw

    require_existing(source)  # a wrong argument raises (FileNotFoundError, TypeError, ValueError)

    def whole() -> Iterator[Any]:
        for raw in split_games(source):
            if isinstance(raw, ReadFailure):
                if problems is not None:
                    problems.append(raw.diagnostic)
                continue
            yield raw

    def readable() -> Iterator[tuple[int, Any]]:
        for raw in whole():
            yield game_id(raw_text(raw)), raw

    if executor is not None:
        from notation.parallel import chunks, ordered_map

        name = source_name(source)
        tasks = ((chunk, moves, name) for chunk in chunks(whole()))
        parts = list(ordered_map(tabulate_chunk, tasks, executor))
        if parts:
            return (pl.concat([g for g, _ in parts], how="vertical"), pl.concat([m for _, m in parts], how="vertical"))
        return empty_games(), empty_moves()
    games, plies, _ = tabulate_raw(readable(), moves=moves, source_file=source_name(source))
    return games, plies


def files_to_frames(
    sources: Iterable[Any], *, moves: bool = True, problems: list[Diagnostic] | None = None
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """:func:`to_frames` of several sources at once, one table for all (each game keeps its own
    file's name): a folder of 2,000 one-game files costs one table build, not 2,000."""
    from notation.pgn.chunks import ReadFailure
    from notation.pgn.reader import split_games
    from notation.pgn.sources import require_existing
    from notation.tables.rows import game_id, raw_text, tabulate_raw

    def readable() -> Iterator[tuple[int, Any]]:
        for source in sources:
            require_existing(source)
            for raw in split_games(source):
                if isinstance(raw, ReadFailure):
                    if problems is not None:
                        problems.append(raw.diagnostic)
                    continue
                yield game_id(raw_text(raw)), raw

    games, plies, _ = tabulate_raw(readable(), moves=moves)
    return games, plies


def tabulate_chunk(task: tuple[list[Any], bool, str | None]) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The ``(games, moves)`` frames of one chunk of a source's games: ``(raw games, moves,
    source name)``, in a worker of :func:`to_frames`."""
    from notation.tables.rows import game_id, raw_text, tabulate_raw

    raws, moves, name = task
    games, plies, _ = tabulate_raw(((game_id(raw_text(raw)), raw) for raw in raws), moves=moves, source_file=name)
    return games, plies


def scan(dataset_dir: str | Path) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    """Lazy ``(games, moves)`` over a dataset written by ``notation import``.

    Only committed parts are read (``games/part-*.parquet`` and the moves parts whose games part
    exists); a missing table (``--no-moves``) scans as an empty frame with the full schema, and a
    column that parts written by an earlier version lack reads as nulls.
    """
    from notation.tables.dataset import committed_parts

    if not isinstance(dataset_dir, (str, os.PathLike)):
        raise TypeError(f"a dataset is a directory path (str or os.PathLike), not {type(dataset_dir).__name__}")
    if not Path(dataset_dir).is_dir():
        raise FileNotFoundError(2, "No such dataset directory", str(dataset_dir))
    games_parts, moves_parts = committed_parts(Path(dataset_dir))
    games = (
        pl.scan_parquet([str(p) for p in games_parts], schema=GAMES_SCHEMA, missing_columns="insert")
        if games_parts
        else empty_games().lazy()
    )
    moves = (
        pl.scan_parquet([str(p) for p in moves_parts], schema=MOVES_SCHEMA, missing_columns="insert")
        if moves_parts
        else empty_moves().lazy()
    )
    return games, moves
