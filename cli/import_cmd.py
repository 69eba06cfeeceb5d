"""`notation import PATH... --out DIR`: PGN files into a Parquet dataset (games and moves).

Parse options -> one library call (:func:`notation.tables.dataset.import_files`) -> render the summary
-> exit code: 0 imported and no game with errors, 1 imported but some games have errors (they
are in the dataset with ``status = 'error'``), 2 usage or I/O failure (missing input, unknown
engine, dask not installed, scheduler unreachable, output not writable, output folder not a
dataset of ours, dataset locked by another import past ``--lock-timeout``, unreadable part).

A missing input is a usage error found before anything is written: nothing is imported and the
output folder is not created. Values a column cannot hold are warnings on stderr
(``table.value-out-of-range``: the game is imported, that value is null); they do not change
the exit code. A second import into a dataset that another import is writing waits for it
(``--lock-timeout`` bounds the wait) and then adds only the games the first did not.
"""

from __future__ import annotations

import json
from enum import Enum
from pathlib import Path
from typing import Annotated, Any

import typer

from notation.cli.progress import reading_progress
from notation.cli.render import EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, diagnostic_line


class Engine(str, Enum):
    """Who reads the games: this machine's worker processes, or a dask cluster."""

    local = "local"
    dask = "dask"


def register(app: typer.Typer) -> None:
    """Add ``import`` to ``app``."""
    app.command("import")(import_command)


def import_command(
    paths: Annotated[
        list[Path], typer.Argument(metavar="PATH...", help="PGN files (.pgn, .pgn.gz, .bz2, .zst) or directories.")
    ],
    out: Annotated[Path, typer.Option("--out", "-o", help="Dataset directory (created if needed).")],
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs",
            "-j",
            min=0,
            help="Worker processes (local: 0 = one per CPU, at most the CPUs "
            "available) or workers (dask: 0 = as many as this machine has CPUs).",
        ),
    ] = 1,
    no_moves: Annotated[bool, typer.Option("--no-moves", help="Write the games table only.")] = False,
    no_position_key: Annotated[
        bool,
        typer.Option("--no-position-key", help="Leave moves.position_key null (a smaller dataset)."),
    ] = False,
    engine: Annotated[Engine, typer.Option("--engine", help="local (worker processes) or dask.")] = Engine.local,
    scheduler: Annotated[
        str | None,
        typer.Option("--scheduler", help="dask scheduler address (default: a LocalCluster)."),
    ] = None,
    scheduler_timeout: Annotated[
        float, typer.Option("--scheduler-timeout", min=0.1, help="Seconds to wait for the scheduler.")
    ] = 10.0,
    chunk_games: Annotated[
        int, typer.Option("--chunk-games", min=1, help="Games per chunk (one Parquet part each).")
    ] = 2000,
    lock_timeout: Annotated[
        float | None,
        typer.Option(
            "--lock-timeout",
            min=0,
            help="Seconds to wait while another import writes the same dataset (default: wait; 0: do not wait).",
        ),
    ] = None,
    json_summary: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Import PGN games into a Parquet dataset: DIR/games and DIR/moves, one part per chunk.

    Every moves row is a legal mainline ply, checked by the same replay as `notation validate`.

    Games already in the dataset (same game_id, a hash of the game text) are skipped.

    Parts appear atomically: an interrupted import leaves only whole parts; run it again.

    DIR must be new, empty or a dataset written by notation import (other files are never
    touched). Imports into one dataset run one after the other (see --lock-timeout).
    """
    from notation.tables.dataset import (
        DatasetError,
        WriteOptions,
        check_writable,
        expand_inputs,
        import_files,
        run_local,
        run_processes,
    )

    from notation.cli.sources import distinct_paths

    err = typer.echo
    paths = [Path(p) for p in distinct_paths(paths)]  # a path given twice: read once, and a note says so
    _, missing = expand_inputs((p for p in paths if str(p) != "-"), unreadable=[])  # unreadable: exit 2 later
    for diag in missing:  # a usage error: nothing is created, nothing imported
        err(diagnostic_line(diag), err=True)
    if missing:
        raise typer.Exit(EXIT_USAGE)
    try:
        check_writable(out.absolute())
    except DatasetError as exc:
        err(f"error: {exc}", err=True)
        raise typer.Exit(EXIT_USAGE) from None
    if scheduler is not None and engine is not Engine.dask:
        err("error: --scheduler needs --engine dask", err=True)
        raise typer.Exit(EXIT_USAGE)
    from notation.parallel import available_cpus, worker_count

    if engine is Engine.dask:
        from notation.tables.distributed import EngineUnavailable, dask_executor

        jobs = jobs or available_cpus()  # a cluster's workers are not this machine's CPUs

        try:
            executor = dask_executor(scheduler, workers=jobs if jobs > 1 else 2, timeout=scheduler_timeout)
        except EngineUnavailable as exc:
            err(f"error: {exc}", err=True)
            raise typer.Exit(EXIT_USAGE) from None
    elif worker_count(jobs) > 1:
        executor = run_processes(worker_count(jobs))
    else:
        executor = run_local
    options = WriteOptions(moves=not no_moves, position_key=not no_position_key)
    try:
        # the dask engine's workers read the files themselves: count its games as they come
        distributed = engine is Engine.dask
        shown = () if distributed else paths
        with reading_progress("importing", shown, enabled=False if quiet else None) as meter:
            summary = import_files(
                paths,
                out,
                options=options,
                executor=executor,
                chunk_games=chunk_games,
                on_result=lambda result: _count(meter, result.games) if distributed else None,
                lock_timeout=lock_timeout,
                on_wait=lambda: err(f"waiting for another import into {out} to finish ...", err=True),
            )
    except DatasetError as exc:
        err(f"error: {exc}", err=True)
        raise typer.Exit(EXIT_USAGE) from None
    except OSError as exc:  # the inputs' own failures are diagnostics: this is the dataset's
        where = exc.filename if exc.filename is not None and str(out) in str(exc.filename) else out
        err(f"error: {where}: cannot write: {exc.strerror or exc}", err=True)
        raise typer.Exit(EXIT_USAGE) from None
    except Exception as exc:  # noqa: BLE001 - I/O failures and engine failures -> exit 2
        from notation.tables.distributed import EngineUnavailable

        what = "engine unavailable" if isinstance(exc, EngineUnavailable) else "import failed"
        err(f"error: {what}: {exc}", err=True)
        raise typer.Exit(EXIT_USAGE) from None
    for diag in summary.diagnostics:
        err(diagnostic_line(diag), err=True)
    for diag in summary.warnings:
        err(diagnostic_line(diag, f"game {diag.game}" if diag.game is not None else None), err=True)
    if json_summary:
        typer.echo(json.dumps(summary.to_dict()))
    else:
        typer.echo(_render(summary, out))
    if summary.diagnostics or (summary.files == 0):
        if summary.files == 0 and not summary.diagnostics:
            err("error: no PGN files found", err=True)
        raise typer.Exit(EXIT_USAGE)
    raise typer.Exit(EXIT_PROBLEMS if summary.statuses.get("error", 0) else EXIT_OK)


def _count(meter: Any, games: int) -> None:
    meter.games += games


def _render(summary: Any, out: Path) -> str:
    from notation.diagnostics import STATUSES

    s = summary.statuses
    rate = summary.games_imported / summary.seconds if summary.seconds > 0 else 0.0
    return "\n".join(
        [
            (
                f"imported {summary.games_imported} games ({summary.plies} plies) from "
                f"{summary.files} file(s) into {out}"
            ),
            f"  games read {summary.games_read}, duplicates skipped {summary.duplicates}"
            + (f", values out of range {len(summary.warnings)}" if summary.warnings else ""),
            "  " + ", ".join(f"{status} {s.get(status, 0)}" for status in STATUSES),
            (
                f"  {summary.parts} part(s), {summary.bytes_written / 1e6:.1f} MB written, "
                f"{summary.seconds:.1f} s ({rate:.0f} games/s)"
            ),
        ]
    )
