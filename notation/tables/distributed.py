"""The ``--engine dask`` import engine: chunks become ``dask.distributed`` tasks.

The plan is made in the calling process exactly as for the local engines
(:func:`notation.tables.dataset.plan_chunks`: files, and large files split at game boundaries into
chunks of at most ``CHUNK_GAMES`` games / ``CHUNK_BYTES`` bytes, de-duplicated); each chunk's
text is shipped to a worker, which runs :func:`notation.tables.dataset.run_chunk` and writes its own
parts (so ``out_dir`` must be a path every worker can write: a shared file system). Results are
identical to the local engine because the work of a chunk is a pure function of its task.

Dask is imported lazily: it is the optional extra ``notation[distributed]``. Without it,
:func:`dask_executor` raises :class:`EngineUnavailable` (the CLI turns that into exit code 2).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from notation.tables.dataset import ChunkResult, ChunkTask, Executor, run_chunk


class EngineUnavailable(RuntimeError):
    """The requested engine cannot run here (dask missing, scheduler unreachable)."""


def _import_distributed() -> Any:
    try:
        import distributed
    except ImportError as exc:  # pragma: no cover - exercised only without the extra
        raise EngineUnavailable(
            "the dask engine needs dask.distributed: pip install 'notation[distributed]'"
        ) from exc
    return distributed


def dask_executor(
    scheduler: str | None = None,
    *,
    workers: int = 2,
    in_flight: int | None = None,
    timeout: float = 10.0,
) -> Executor:
    """An executor running chunks on the scheduler at ``scheduler`` (``tcp://host:8786``).

    Without a scheduler address a ``LocalCluster`` of ``workers`` single-threaded worker
    processes is started for the import and closed after it. At most ``in_flight`` chunks
    (default: twice the number of worker threads) are submitted at once, so the planner's
    memory stays bounded. ``timeout`` (seconds) bounds the wait for the scheduler.
    """
    distributed = _import_distributed()

    def execute(tasks: Iterator[ChunkTask], on_result: Callable[[ChunkResult], None]) -> None:
        cluster = None
        try:
            if scheduler is None:
                cluster = distributed.LocalCluster(
                    n_workers=workers,
                    processes=True,
                    threads_per_worker=1,
                    dashboard_address=None,
                )
                client = distributed.Client(cluster)
            else:
                client = distributed.Client(scheduler, timeout=f"{timeout}s")
        except (OSError, TimeoutError) as exc:
            if cluster is not None:
                cluster.close()
            raise EngineUnavailable(f"cannot reach the dask scheduler {scheduler!r}: {exc}") from exc
        try:
            threads = sum(client.nthreads().values()) or 1
            limit = in_flight or 2 * threads
            queue = distributed.as_completed()
            running = 0
            for task in tasks:
                queue.add(client.submit(run_chunk, task, pure=False, key=_key(task)))
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

    return execute


def _key(task: ChunkTask) -> str:
    return f"notation-import-{task.part_name}-{task.index}"
