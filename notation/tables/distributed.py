"""The ``--engine dask`` import engine: chunks become ``dask.distributed`` tasks; workers read
their own byte ranges of uncompressed files.

The plan (:func:`plan_ranges`) is the local engines' chunk plan
(:func:`notation.tables.dataset.plan_chunks`: chunks of at most ``CHUNK_GAMES`` games /
``CHUNK_BYTES`` bytes, de-duplicated by ``game_id``, numbered across the files), made in the
calling process, but what it ships differs by input:

* an **uncompressed file** (a path whose bytes are not compressed, by the reader's magic-byte
  rule): the driver runs the reader's boundary split over the file once, keeping of each game
  only its number, line, offset, size and ``game_id`` (needed to de-duplicate and name parts
  exactly as the local engines do), never its text. A chunk becomes a :class:`RangeTask`: the
  file, the byte range ``[start, end)`` from its first game's start to its last game's end,
  that game's number and line, and the numbers of the duplicates inside the range. The worker
  (:func:`run_range`) reads that range with :func:`notation.pgn.reader.split_range` (the same
  split, run on the range), so game numbers, lines, offsets and diagnostics are file-absolute,
  checks that it found the games the plan saw (count and a digest of their ids: a file changed
  since planning raises :class:`RangeChanged`), then does :func:`notation.tables.dataset.run_chunk`.
* a **compressed file** or **standard input**: split by the driver and shipped as game texts
  (:class:`notation.tables.dataset.ChunkTask`), as the local engines do.

Either way a chunk's work is :func:`notation.tables.dataset.run_chunk` on the same games, so the
dataset (parts, names, rows) is identical to the local engine's. Workers write their own parts,
so ``out_dir`` and the input files must be paths every worker can reach (a shared file system).

A :class:`DaskExecutor` names this plan as its ``planner`` (same signature as ``plan_chunks``)
for the import driver to plan with; ``ChunkTask`` values from ``plan_chunks`` it runs as they are.

Dask is imported lazily: it is the optional extra ``notation[distributed]``. Without it,
:func:`dask_executor` raises :class:`EngineUnavailable` (the CLI turns that into exit code 2).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from notation.pgn.sources import display_path, is_plain_file
from notation.tables.dataset import (
    CHUNK_BYTES,
    CHUNK_GAMES,
    STDIN,
    ChunkResult,
    ChunkTask,
    Executor,
    PlanStats,
    WriteOptions,
    plan_chunks,
    planned_games,
    small_file,
    run_chunk,
)
from notation.tables.rows import game_id, raw_text


class EngineUnavailable(RuntimeError):
    """The requested engine cannot run here (dask missing, scheduler unreachable)."""


class RangeChanged(RuntimeError):
    """A worker did not find in its byte range the games the plan saw (the file changed)."""


# ------------------------------------------------------------------------------ range tasks
@dataclass(frozen=True, slots=True)
class RangeTask:
    """One chunk of an uncompressed file, as a byte range for the worker to read.

    ``start`` is the offset of the chunk's first game, ``end`` the end of its last game;
    ``number`` and ``line`` are the first game's. ``games`` counts the games in the range,
    ``skip`` lists the numbers of those not imported (duplicates). ``first_id`` and ``digest``
    (of the imported games' ids, in order) let the worker check that it read what was planned.
    """

    index: int
    source_file: str
    path: str
    name: str
    start: int
    end: int
    number: int
    line: int
    games: int
    skip: tuple[int, ...]
    first_id: int
    digest: int
    out_dir: str
    options: WriteOptions
    nbytes: int
    batch: int = 1
    io_error: str | None = None

    @property
    def part_name(self) -> str:
        """The name :class:`notation.tables.dataset.ChunkTask` gives the same chunk."""
        return ChunkTask(
            self.index, self.source_file, self.out_dir, [(self.first_id, None)], batch=self.batch
        ).part_name


def ids_digest(ids: Iterable[int]) -> int:
    """A 64-bit digest of a sequence of game ids (order matters)."""
    h = hashlib.blake2b(digest_size=8)
    for gid in ids:
        h.update(gid.to_bytes(8, "little"))
    return int.from_bytes(h.digest(), "little")


class _OpenRange:
    """The range being assembled by :func:`_plan_file`."""

    __slots__ = ("end", "ids", "line", "nbytes", "number", "pending", "skip", "start")

    def __init__(self, raw: Any) -> None:
        self.start: int = raw.offset
        self.number: int = raw.number
        self.line: int = raw.line
        self.end = self.start
        self.ids: list[int] = []
        self.skip: list[int] = []
        self.pending: list[int] = []  # duplicates after the last imported game so far
        self.nbytes = 0

    def add(self, gid: int, raw: Any) -> None:
        self.skip.extend(self.pending)
        self.pending.clear()
        self.ids.append(gid)
        self.nbytes += len(raw_text(raw))
        self.end = raw.offset + raw.size


def plan_ranges(
    files: Iterable[Path],
    out_dir: Path,
    *,
    seen: set[int],
    options: WriteOptions,
    stats: PlanStats,
    chunk_games: int = CHUNK_GAMES,
    chunk_bytes: int = CHUNK_BYTES,
    batch: int = 1,
) -> Iterator[ChunkTask | RangeTask]:
    """:func:`notation.tables.dataset.plan_chunks`'s plan (same chunks, indices, part names and
    ``stats``), with the chunks of uncompressed files as :class:`RangeTask` values."""
    index = 0
    held: list[Path] = []  # inputs read in the plan: standard input, compressed and small files

    def chunks() -> Iterator[ChunkTask]:
        nonlocal index
        for task in plan_chunks(
            held,
            out_dir,
            seen=seen,
            options=options,
            stats=stats,
            chunk_games=chunk_games,
            chunk_bytes=chunk_bytes,
            batch=batch,
        ):
            yield replace(task, index=index)
            index += 1
        held.clear()

    for path in files:
        if path == STDIN or not is_plain_file(path) or small_file(path, chunk_bytes):
            held.append(path)  # planned together: small files share chunks as plan_chunks has them
            continue
        yield from chunks()
        for ranged in _plan_file(path, out_dir, index, seen, options, stats, chunk_games, chunk_bytes, batch):
            yield ranged
            index += 1
    yield from chunks()


def _plan_file(
    path: Path,
    out_dir: Path,
    index: int,
    seen: set[int],
    options: WriteOptions,
    stats: PlanStats,
    chunk_games: int,
    chunk_bytes: int,
    batch: int,
) -> Iterator[RangeTask]:
    """The range tasks of one uncompressed file: one pass of the reader's split, one game held
    at a time (its id and location kept, its text dropped)."""
    where = os.path.abspath(path)

    def close(current: _OpenRange, io_error: str | None = None) -> RangeTask:
        return RangeTask(
            index=index,
            source_file=display_path(path.name),
            path=where,
            name=display_path(str(path)),
            start=current.start,
            end=current.end,
            number=current.number,
            line=current.line,
            games=len(current.ids) + len(current.skip),
            skip=tuple(current.skip),
            first_id=current.ids[0],
            digest=ids_digest(current.ids),
            out_dir=str(out_dir),
            options=options,
            nbytes=current.nbytes,
            batch=batch,
            io_error=io_error,
        )

    current: _OpenRange | None = None
    for gid, raw, new in planned_games(path, seen, stats):
        if not new:
            if current is not None:
                current.pending.append(raw.number)
            continue
        if current is None:
            current = _OpenRange(raw)
        current.add(gid, raw)
        if raw.io_error is not None:  # the reader stopped after this game: the last one
            yield close(current, raw.io_error)
            index += 1
            current = None
        elif len(current.ids) >= chunk_games or current.nbytes >= chunk_bytes:
            yield close(current)
            index += 1
            current = None
    if current is not None:
        yield close(current)


def run_range(task: RangeTask) -> ChunkResult:
    """Read, split, parse, replay and tabulate one byte range and write its parts (a worker's
    work): :func:`notation.tables.dataset.run_chunk` on the games the plan saw."""
    from notation.pgn.chunks import ReadFailure
    from notation.pgn.reader import split_range

    skip = set(task.skip)
    items: list[tuple[int, Any]] = []
    found = 0
    for raw in split_range(task.path, task.start, task.end, number=task.number, line=task.line, name=task.name):
        if isinstance(raw, ReadFailure) or (raw.io_error is not None and task.io_error is None):
            problem = raw.reason if isinstance(raw, ReadFailure) else raw.io_error
            raise RangeChanged(f"{task.path}: cannot read bytes {task.start}..{task.end}: {problem!s}")
        found += 1
        if raw.number not in skip:
            items.append((game_id(raw_text(raw)), raw))
    ids = [gid for gid, _ in items]
    if found != task.games or not ids or ids[0] != task.first_id or ids_digest(ids) != task.digest:
        raise RangeChanged(
            f"{task.path}: bytes {task.start}..{task.end} no longer hold the {task.games} games planned "
            f"from game {task.number} (found {found}): the file changed during the import"
        )
    items[-1][1].io_error = task.io_error
    chunk = ChunkTask(task.index, task.source_file, task.out_dir, items, task.options, task.nbytes, task.batch)
    return run_chunk(chunk)


def run_task(task: ChunkTask | RangeTask) -> ChunkResult:
    """A worker's work on either kind of task."""
    return run_range(task) if isinstance(task, RangeTask) else run_chunk(task)


# ---------------------------------------------------------------------------------- engine
def _import_distributed() -> Any:
    try:
        import distributed
    except ImportError as exc:  # pragma: no cover - exercised only without the extra
        raise EngineUnavailable("the dask engine needs dask.distributed: pip install 'notation[distributed]'") from exc
    return distributed


class DaskExecutor:
    """Runs tasks (:class:`RangeTask` or :class:`notation.tables.dataset.ChunkTask`) on a dask
    cluster; ``planner`` is the plan it wants (:func:`plan_ranges`)."""

    planner = staticmethod(plan_ranges)

    def __init__(
        self,
        distributed: Any,
        scheduler: str | None,
        *,
        workers: int,
        in_flight: int | None,
        timeout: float,
        processes: bool,
    ) -> None:
        self._distributed = distributed
        self.scheduler = scheduler
        self.workers = workers
        self.in_flight = in_flight
        self.timeout = timeout
        self.processes = processes

    def __call__(self, tasks: Iterator[ChunkTask | RangeTask], on_result: Callable[[ChunkResult], None]) -> None:
        distributed = self._distributed
        cluster = None
        try:
            if self.scheduler is None:
                cluster = distributed.LocalCluster(
                    n_workers=self.workers,
                    processes=self.processes,
                    threads_per_worker=1,
                    dashboard_address=None,
                )
                client = distributed.Client(cluster)
            else:
                client = distributed.Client(self.scheduler, timeout=f"{self.timeout}s")
        except (OSError, TimeoutError) as exc:
            if cluster is not None:
                cluster.close()
            raise EngineUnavailable(f"cannot reach the dask scheduler {self.scheduler!r}: {exc}") from exc
        try:
            threads = sum(client.nthreads().values()) or 1
            limit = self.in_flight or 2 * threads
            queue = distributed.as_completed()
            running = 0
            for task in tasks:
                queue.add(client.submit(run_task, task, pure=False, key=_key(task)))
                running += 1
                if running >= limit:
                    on_result(next(queue).result())
                    running -= 1
            for future in queue:
                on_result(future.result())
        finally:
            client.close()
            if cluster is not None:
                cluster.close()


def dask_executor(
    scheduler: str | None = None,
    *,
    workers: int = 2,
    in_flight: int | None = None,
    timeout: float = 10.0,
    processes: bool = True,
) -> Executor:
    """An executor (a :class:`DaskExecutor`) running chunks on the scheduler at ``scheduler``
    (``tcp://host:8786``).

    Without a scheduler address a ``LocalCluster`` of ``workers`` single-threaded workers
    (processes, or threads of this process with ``processes=False``) is started for the import
    and closed after it. At most ``in_flight`` chunks (default: twice the number of worker
    threads) are submitted at once, so the planner's memory stays bounded. ``timeout``
    (seconds) bounds the wait for the scheduler.
    """
    distributed = _import_distributed()
    return DaskExecutor(
        distributed, scheduler, workers=workers, in_flight=in_flight, timeout=timeout, processes=processes
    )


def _key(task: ChunkTask | RangeTask) -> str:
    return f"notation-import-{task.part_name}-{task.index}"
