"""One games table from the command line's inputs: PGN files, folders of PGN files, datasets.

Used by ``notation stats``, ``standings``, ``ledger`` and ``chart`` (which reads the moves table
too: :func:`load_tables`). Each input is, in this order:

* a **dataset** directory written by ``notation import`` (it has a ``games/`` folder): read
  lazily with :func:`notation.tables.frames.scan` (nothing is loaded until the query runs),
  after a check of every part's footer: a part that is not readable Parquet of its table is a
  ``dataset.bad-part`` diagnostic naming it (the command exits 2). Damage inside a part's data
  pages shows only when the query runs: :func:`read_failures` then names the part;
* a **folder**: every PGN file below it (``*.pgn``, ``*.pgn.gz``, ``*.pgn.bz2``, ``*.pgn.zst``;
  recursive, as ``notation validate`` and ``import`` search), in path order;
* ``-``: standard input, read as PGN;
* a **file**: read with :func:`notation.tables.frames.to_frames` (``moves=False`` unless the moves
  table is asked for: no per-ply rows).

Input order is kept (files in the order given, games in file order): the ledger relies on it
for games of the same day. Categorical and Enum columns are cast to String so that inputs
with different category sets concatenate.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from typing import TypeVar
from pathlib import Path

import polars as pl

from notation.diagnostics import Diagnostic
from notation.cli.sources import distinct_paths, is_dataset
from notation.pgn.sources import expand_paths
from notation.tables.dataset import READ_ERRORS


def _strings(lazy: pl.LazyFrame) -> pl.LazyFrame:
    schema = lazy.collect_schema()
    casts = [pl.col(n).cast(pl.String) for n, t in schema.items() if isinstance(t, (pl.Categorical, pl.Enum))]
    return lazy.with_columns(casts) if casts else lazy


def load_games(paths: Sequence[str | Path], *, jobs: int = 1) -> tuple[pl.LazyFrame | None, list[Diagnostic]]:
    """A lazy games table over all `paths` (None when no input could be read) and I/O findings.

    Every unreadable input becomes a ``pgn.io`` diagnostic; the others are still read. So does
    an input that cannot be read to the end (a truncated ``.gz``; a folder or file below a folder
    argument that cannot be read), located where reading stopped: the games read whole before
    it are in the table. Commands print the diagnostics, do their work on what was read, and
    exit 2. ``jobs``: worker processes for the PGN inputs (:mod:`notation.parallel`).
    """
    games, _, diagnostics = load_tables(paths, moves=False, jobs=jobs)
    return games, diagnostics


def load_tables(
    paths: Sequence[str | Path], *, moves: bool = True, jobs: int = 1
) -> tuple[pl.LazyFrame | None, pl.LazyFrame | None, list[Diagnostic]]:
    """:func:`load_games` with the moves table too (one row per legal mainline ply; empty with
    ``moves=False``): ``(games, moves, diagnostics)``, both tables None when no input could be
    read. ``notation chart`` draws from both."""
    from contextlib import ExitStack

    from notation.parallel import worker_pool
    from notation.tables.dataset import check_parts
    from notation.tables.frames import files_to_frames, scan, to_frames

    parts: list[tuple[pl.LazyFrame, pl.LazyFrame]] = []
    diagnostics: list[Diagnostic] = []
    pool = ExitStack()
    workers: list[Executor | None] = []  # started with the first PGN input (none for datasets)

    def read(source: object) -> None:
        if not workers:
            workers.append(pool.enter_context(worker_pool(jobs)))
        g, m = to_frames(source, moves=moves, problems=diagnostics, executor=workers[0])
        parts.append((_strings(g.lazy()), _strings(m.lazy())))

    with pool:
        for item in expand_paths(distinct_paths(paths), dataset=is_dataset):
            given, path = item.given, item.path
            try:
                if item.kind == "stdin":
                    read(sys.stdin.buffer)
                elif item.kind == "missing":
                    diagnostics.append(Diagnostic.missing_file(str(given)))
                elif item.kind == "unreadable":
                    raise item.files[0].error  # type: ignore[union-attr]
                elif item.kind == "dataset":
                    bad = check_parts(path)
                    diagnostics.extend(bad)
                    if not bad:
                        g, m = scan(path)
                        parts.append((_strings(g), _strings(m)))
                elif item.kind == "folder":
                    unreadable = item.unreadable()  # folders and files the search could not read
                    files = item.readable
                    diagnostics.extend(unreadable)
                    if not files and not unreadable:
                        diagnostics.append(
                            Diagnostic.make("pgn.io", "neither a dataset nor a folder with PGN files", file=str(given))
                        )
                    if jobs == 1:  # one table build for the whole folder
                        folder_games, folder_moves = files_to_frames(files, moves=moves, problems=diagnostics)
                        parts.append((_strings(folder_games.lazy()), _strings(folder_moves.lazy())))
                    else:
                        for file in files:
                            read(file)
                else:
                    read(path)
            except OSError as exc:
                diagnostics.append(Diagnostic.make("pgn.io", f"cannot read: {exc.strerror or exc}", file=str(given)))
    if not parts:
        return None, None, diagnostics
    if len(parts) == 1:
        return parts[0][0], parts[0][1], diagnostics
    games = pl.concat([g for g, _ in parts], how="diagonal_relaxed")
    plies = pl.concat([m for _, m in parts], how="diagonal_relaxed")
    return games, plies, diagnostics


def read_failures(paths: Sequence[str | Path], exc: BaseException) -> list[Diagnostic]:
    """Why a query over ``paths`` failed with ``exc`` (one of :data:`READ_ERRORS`): the dataset
    parts that cannot be read whole (``dataset.bad-part``, each naming its part), else one
    ``pgn.io`` diagnostic quoting the error."""
    from notation.tables.dataset import check_parts

    found: list[Diagnostic] = []
    for given in paths:
        if str(given) != "-" and is_dataset(Path(given)):
            found.extend(check_parts(Path(given), full=True))
    if found:
        return found
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return [Diagnostic.make("pgn.io", f"cannot read the inputs: {text}")]


T = TypeVar("T")


def computed(paths: Sequence[str | Path], compute: Callable[[], T]) -> T:
    """``compute()`` over games loaded from ``paths``; a dataset part damaged inside the data
    (found only when the query runs) is named on standard error and ends the command (exit 2)."""
    import typer

    from notation.cli.render import EXIT_USAGE, error
    from notation.cli.table_output import diagnostic_text

    try:
        return compute()
    except READ_ERRORS as exc:
        for diag in read_failures(paths, exc):
            error(diagnostic_text(diag))
        raise typer.Exit(EXIT_USAGE) from None


def read_aliases_option(path: Path | None) -> dict[str, str] | None:
    """The ``--aliases FILE`` of a command (:func:`notation.tables.players.read_aliases`); a
    file that cannot be read or has a bad row is named on standard error and ends the command
    (exit 2) before any work."""
    if path is None:
        return None
    import typer

    from notation.cli.render import EXIT_USAGE, error
    from notation.cli.table_output import diagnostic_text
    from notation.tables.players import read_aliases

    aliases, problems = read_aliases(path)
    for diag in problems:
        error(diagnostic_text(diag))
    if problems:
        raise typer.Exit(EXIT_USAGE)
    return aliases


def load_and_compute(
    paths: Sequence[str | Path],
    compute: Callable[[pl.LazyFrame], T],
    *,
    description: str,
    jobs: int = 1,
    aliases: dict[str, str] | None = None,
    identify: bool = True,
) -> tuple[T, list[Diagnostic]]:
    """``compute(games)`` over the games of ``paths`` (:func:`load_games`, then :func:`computed`)
    with the progress display of the reading commands; returns the result and the inputs' I/O
    findings, which are printed on standard error. Nothing readable at all ends the command
    (exit 2). ``jobs``: worker processes for the PGN inputs. Players are identified first
    (FIDE ids, then ``aliases``: :func:`notation.tables.players.identified`) unless not to
    ``identify``."""
    import typer

    from notation.cli.progress import reading_progress
    from notation.cli.render import EXIT_USAGE, error
    from notation.cli.table_output import diagnostic_text

    with reading_progress(description, paths):
        games, problems = load_games(paths, jobs=jobs)
        for diag in problems:
            error(diagnostic_text(diag))
        if games is None:  # nothing could be read (an input read only in part still counts)
            raise typer.Exit(EXIT_USAGE)
        from notation.tables.players import identified

        loaded = identified(games, aliases) if identify else games
        return computed(paths, lambda: compute(loaded)), problems
