"""Work on games in worker processes, with results in input order: what ``--jobs N`` means for
every command that reads games.

``jobs`` counts worker processes: ``0`` is one per CPU available to this process, and no count
ever exceeds that (``--jobs 64`` on two CPUs starts two). One worker means no pool at all: the
work runs in this process, by the same functions. Work goes out in chunks of games (the
functions given to :func:`ordered_map` take a chunk and return its results), at most a few chunks
per worker in flight, so memory stays bounded by those chunks whatever the input's size, and
results come back in the order the chunks were given: the output is identical to ``--jobs 1``.

Workers are started with ``spawn`` (a fresh interpreter each): a process that has loaded Polars
must not be forked.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from itertools import islice
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:  # pragma: no cover - the pool's modules load with the first pool
    from concurrent.futures import Executor, Future

T = TypeVar("T")
R = TypeVar("R")

#: games per chunk sent to a worker
CHUNK_GAMES = 500
#: chunks in flight per worker
AHEAD_PER_WORKER = 3


def available_cpus() -> int:
    """The number of CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def worker_count(jobs: int) -> int:
    """The workers ``--jobs jobs`` starts: ``0`` (or less) is one per CPU; never more than the
    CPUs available."""
    cpus = available_cpus()
    return cpus if jobs <= 0 else min(jobs, cpus)


@contextmanager
def worker_pool(jobs: int) -> Iterator[Executor | None]:
    """A process pool of :func:`worker_count` ``(jobs)`` workers, or None for one worker (the
    work then runs in this process). Shut down, pending work cancelled, when the block ends."""
    count = worker_count(jobs)
    if count <= 1:
        yield None
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    pool = ProcessPoolExecutor(max_workers=count, mp_context=multiprocessing.get_context("spawn"))
    try:
        yield pool
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def chunks(items: Iterable[T], size: int = CHUNK_GAMES) -> Iterator[list[T]]:
    """``items`` in lists of ``size`` (the last one shorter)."""
    iterator = iter(items)
    while chunk := list(islice(iterator, size)):
        yield chunk


def ordered_map(
    func: Callable[[T], R], tasks: Iterable[T], executor: Executor | None, *, ahead_per_worker: int = AHEAD_PER_WORKER
) -> Iterator[R]:
    """``func(task)`` for every task, in the order of ``tasks``: in this process without an
    executor, else in its workers, ``ahead_per_worker`` tasks per worker in flight at most (a
    task is taken from ``tasks`` only when there is room). ``func`` must be a module-level
    function (workers import it by name)."""
    if executor is None:
        for task in tasks:
            yield func(task)
        return
    ahead = max(1, ahead_per_worker) * max(1, getattr(executor, "_max_workers", 1))
    pending: deque[Future[R]] = deque()
    try:
        for task in tasks:
            pending.append(executor.submit(func, task))
            if len(pending) >= ahead:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:
        for future in pending:
            future.cancel()
