"""``validate``: every game of a source checked against the Laws, game by game, in file order.

``validate(source)`` yields one :class:`notation.validation.reports.GameReport` per game in input
order. Each game chunk of :func:`notation.pgn.reader.split_games` goes through
:func:`notation.validation.core.check_raw`: the compiled core when it takes the game, the
pure-Python reference otherwise (identical reports). With ``jobs > 1`` chunks are checked in a
process pool; reports still come out in file order and are identical to ``jobs=1``.
"""

from __future__ import annotations

import gc
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any

from notation.pgn.chunks import Chunk, ReadFailure
from notation.validation.core import check_raw
from notation.validation.reports import GameReport, failure_report


# --------------------------------------------------------------------------------- driving
def validate(source: Any, *, jobs: int = 1, file: str | None = None) -> Iterator[GameReport]:
    """Reports for every game of ``source`` (a path, an open handle or ``-``-style stdin handle).

    ``file`` overrides the file name used in reports. ``jobs > 1`` checks games in that many
    processes; the reports are the same, in the same order. A path that does not exist raises
    ``FileNotFoundError`` when iteration starts.
    """
    from notation.pgn.sources import require_existing

    require_existing(source)
    yield from validate_sources([(source, file)], jobs=jobs)


def validate_sources(
    sources: Iterable[tuple[Any, str | None]],
    *,
    jobs: int = 1,
    executor: ProcessPoolExecutor | None = None,
    render: Callable[[GameReport], Any] | None = None,
) -> Iterator[Any]:
    """Reports for several ``(source, display name)`` pairs, one pool for all of them.

    ``executor`` (from :func:`process_pool`) lets a caller start the workers before it starts
    threads of its own (a progress display), since workers are forked. ``render`` (a module-level
    function) turns each report into what the caller keeps of it, in the workers: then those
    values are yielded instead of the reports (and only they cross between processes).
    """
    if executor is not None:
        yield from _parallel(sources, executor, jobs, render)
        return
    if jobs <= 1:
        from notation.pgn.reader import split_games

        for source, name in sources:
            for raw in split_games(source):
                report = checked(raw, name)
                yield report if render is None else render(report)
        return
    with process_pool(jobs) as pool:
        yield from _parallel(sources, pool, jobs, render)


def checked(item: Chunk, name: str | None) -> GameReport:
    """The report of one item of the reader: a game's (:func:`check_raw`), or a read failure's
    line (:func:`notation.validation.reports.failure_report`)."""
    return failure_report(item, file=name) if isinstance(item, ReadFailure) else check_raw(item, name)


# Batches sent to a worker: at most this many games or characters, whichever comes first.
BATCH_GAMES = 256
BATCH_CHARS = 256 * 1024


def _batches(sources: Iterable[tuple[Any, str | None]]) -> Iterator[list[tuple[Any, str | None]]]:
    from notation.pgn.reader import split_games

    for source, name in sources:
        batch: list[tuple[Any, str | None]] = []
        size = 0
        for raw in split_games(source):
            batch.append((raw, name))
            size += 1 if isinstance(raw, ReadFailure) else max(raw.size, len(raw.data))
            if len(batch) >= BATCH_GAMES or size >= BATCH_CHARS:
                yield batch
                batch, size = [], 0
        if batch:
            yield batch


def _work(batch: list[tuple[Any, str | None]], render: Callable[[GameReport], Any] | None) -> list[Any]:
    """Worker: parse and check a batch of raw games (and render the reports)."""
    if render is None:
        return [checked(raw, name) for raw, name in batch]
    return [render(checked(raw, name)) for raw, name in batch]


def _parallel(
    sources: Iterable[tuple[Any, str | None]],
    executor: ProcessPoolExecutor,
    jobs: int,
    render: Callable[[GameReport], Any] | None = None,
) -> Iterator[Any]:
    window = max(2, jobs * 3)
    pending: deque[Future[list[Any]]] = deque()
    try:
        for batch in _batches(sources):
            pending.append(executor.submit(_work, batch, render))
            if len(pending) >= window:
                yield from pending.popleft().result()
        while pending:
            yield from pending.popleft().result()
    finally:
        for future in pending:
            future.cancel()


@contextmanager
def process_pool(jobs: int) -> Iterator[ProcessPoolExecutor]:
    """A started pool of ``jobs`` worker processes (forked after the parsers are built)."""
    import multiprocessing

    _warm_up()
    gc.freeze()  # keep the collector from touching (and so copying) the parent's pages in workers
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else None
    executor = ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context(method))
    try:
        executor.submit(_noop).result()  # starts every worker now
        yield executor
    finally:
        executor.shutdown(wait=True, cancel_futures=True)
        gc.unfreeze()


def _noop() -> None:
    return None


def _warm_up() -> None:
    """Build the parsers in the parent so that forked workers inherit them."""
    try:
        import io

        from notation.pgn.reader import split_games

        for raw in split_games(io.StringIO('[Result "*"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n[Result "*"]\n\n1. e4 O-O *\n')):
            checked(raw, None)  # the core's parser and the reference's
    except Exception:  # noqa: BLE001 - warm-up is an optimisation only
        pass


def default_jobs() -> int:
    """The number of CPUs available to this process."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


