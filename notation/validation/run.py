"""``validate``: every game of a source checked against the Laws, game by game, in file order.

``validate(source)`` yields one :class:`notation.validation.reports.GameReport` per game in input
order. Each game chunk of :func:`notation.pgn.reader.split_games` goes through
:func:`notation.validation.core.check_raw`: the compiled core when it takes the game, the
pure-Python reference otherwise (identical reports). With ``jobs > 1`` the jsonl lines the
compiled core writes (``validate --format jsonl`` and the text listing) are shared by threads (the
core lets go of the interpreter while it works) up to :data:`THREADS_UP_TO` jobs; other reports,
and more jobs, are checked in a process pool. Either way they come out in file order and are
identical to ``jobs=1``. In the pool, a large plain file is split there too: past its head
(split by the parent, where the reader decides whether the source is PGN at all) the workers get
byte ranges, each from a game's start, and split them themselves
(:func:`notation.pgn.reader.split_range`), so the parent does no work per game; a range's first
game number is guessed from its tag lines and corrected (the range split again) where the range
before held other games than guessed.
"""

from __future__ import annotations

import gc
import mmap
import os
import re
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, BinaryIO

from notation.pgn.chunks import Chunk, ReadFailure
from notation.validation.core import check_raw, core_available, report_lines
from notation.validation.reports import GameReport, ReportLine, failure_report, report_line

if TYPE_CHECKING:  # pragma: no cover - the pool's modules load with the first pool (--jobs 2 and more)
    from concurrent.futures import Future, ProcessPoolExecutor


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
    values are yielded instead of the reports (and only they cross between processes). With
    ``render`` :func:`~notation.validation.reports.report_line` (jsonl), the compiled core writes
    the lines of the ordinary games itself, a batch of games at a time (:func:`lined`), and
    ``jobs`` threads share that work instead of processes (:func:`_threaded_lines`).
    """
    lines = render is report_line and core_available()
    if lines and 1 < jobs <= THREADS_UP_TO:
        yield from _threaded_lines(sources, jobs)  # (no processes: an ``executor`` is not used)
        return
    if executor is not None:
        yield from _parallel(sources, executor, jobs, render)
        return
    if jobs <= 1:
        from notation.pgn.reader import split_games

        for source, name in sources:
            if lines:
                yield from _batched_lines(split_games(source), name)
                continue
            for raw in split_games(source):
                report = checked(raw, name)
                yield report if render is None else render(report)
        return
    with process_pool(jobs) as pool:
        yield from _parallel(sources, pool, jobs, render)


def uses_processes(jobs: int, render: Callable[[GameReport], Any] | None) -> bool:
    """Whether :func:`validate_sources` checks games in worker processes (:func:`process_pool`)
    for ``jobs`` and ``render``: not for one job, nor for the jsonl lines the compiled core
    writes with up to :data:`THREADS_UP_TO` jobs (then threads share the core's work,
    :func:`_threaded_lines`)."""
    return jobs > 1 and not (render is report_line and core_available() and jobs <= THREADS_UP_TO)


#: The most jobs whose jsonl lines threads share; more go to worker processes. With threads, one
#: thread splits the input, writes the lines out and makes those of the games the core declines,
#: and each batch's objects are made with the interpreter held: over a quarter of the work (the
#: shared Lichess file: 0.45 of 1.6 s of CPU), which no number of threads shares; processes split
#: their own byte ranges and each holds its own interpreter, for a tenth to a fifth more CPU in
#: all (forked memory, results pickled back). Measured at two jobs on idle cores: threads as fast
#: as processes on the Lichess file with 9% less CPU, 13% faster on a 200 MB file; more jobs were
#: not measured (two cores), so they keep the processes.
THREADS_UP_TO = 2


def checked(item: Chunk, name: str | None) -> GameReport:
    """The report of one item of the reader: a game's (:func:`check_raw`), or a read failure's
    line (:func:`notation.validation.reports.failure_report`)."""
    return failure_report(item, file=name) if isinstance(item, ReadFailure) else check_raw(item, name)


def lined(items: list[Chunk], name: str | None) -> list[ReportLine]:
    """The jsonl lines of the reader's ``items`` (of one source, reported under ``name``): the
    compiled core's for the ordinary games (:func:`notation.validation.core.report_lines`, one
    call for all), the reports' (:func:`checked`) for the rest; the same lines either way."""
    return _completed(items, name, _core_lines(items, name))


def _core_lines(items: list[Chunk], name: str | None) -> list[ReportLine | None]:
    """The lines the compiled core writes of the games among ``items`` (None: Python's to make)."""
    return report_lines([item for item in items if not isinstance(item, ReadFailure)], name)


def _completed(items: list[Chunk], name: str | None, lines: list[ReportLine | None]) -> list[ReportLine]:
    """The lines of ``items``: the core's ``lines`` of its games, the reports' for the rest."""
    if len(lines) == len(items) and None not in lines:
        return lines  # type: ignore[return-value]  # (every item a game the core wrote)
    written = iter(lines)
    out = []
    for item in items:
        line = None if isinstance(item, ReadFailure) else next(written)
        out.append(line if line is not None else report_line(checked(item, name)))
    return out


def _batched_lines(items: Iterable[Chunk], name: str | None) -> Iterator[ReportLine]:
    """:func:`lined` over a source's items, a batch (:func:`_batches`) at a time."""
    for batch in _batches(items):
        yield from lined(batch, name)


def _batches(items: Iterable[Chunk]) -> Iterator[list[Chunk]]:
    """The reader's ``items`` in lists of :data:`BATCH_GAMES` games (or :data:`BATCH_CHARS`
    characters), the last one shorter."""
    batch: list[Chunk] = []
    size = 0
    for item in items:
        batch.append(item)
        size += 1 if isinstance(item, ReadFailure) else max(item.size, len(item.data))
        if len(batch) >= BATCH_GAMES or size >= BATCH_CHARS:
            yield batch
            batch, size = [], 0
    if batch:
        yield batch


def _threaded_lines(sources: Iterable[tuple[Any, str | None]], jobs: int) -> Iterator[ReportLine]:
    """The jsonl lines of every source, in order, the compiled core's work shared by ``jobs``
    threads: this thread splits the sources into batches and makes the lines of the games the
    core declines (the reference's parsers stay in one thread); the threads run the core, which
    lets go of the interpreter while it writes a batch's lines."""
    from concurrent.futures import ThreadPoolExecutor

    from notation.pgn.reader import split_games

    window = jobs * 4
    pending: deque[tuple[Future[list[ReportLine | None]], list[Chunk], str | None]] = deque()
    with ThreadPoolExecutor(jobs, thread_name_prefix="notation-validate") as pool:
        try:
            for source, name in sources:
                for batch in _batches(split_games(source)):
                    pending.append((pool.submit(_core_lines, batch, name), batch, name))
                    if len(pending) >= window:
                        future, done, named = pending.popleft()
                        yield from _completed(done, named, future.result())
            while pending:
                future, done, named = pending.popleft()
                yield from _completed(done, named, future.result())
        finally:
            for future, _, _ in pending:
                future.cancel()


# Batches sent to a worker: at most this many games or characters, whichever comes first.
BATCH_GAMES = 256
BATCH_CHARS = 256 * 1024


def _work(batch: list[tuple[Any, str | None]], render: Callable[[GameReport], Any] | None) -> list[Any]:
    """Worker: parse and check a batch of raw games (and render the reports)."""
    if render is report_line and core_available():
        out: list[Any] = []
        start = 0
        for end in range(1, len(batch) + 1):  # (a batch's games share a name: one call)
            if end == len(batch) or batch[end][1] != batch[start][1]:
                out.extend(lined([raw for raw, _ in batch[start:end]], batch[start][1]))
                start = end
        return out
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
    pending: deque[_Task] = deque()
    try:
        for task in _tasks(sources):
            task.submit(executor, render)
            pending.append(task)
            if len(pending) >= window:
                yield from _finish(pending, executor, render)
        while pending:
            yield from _finish(pending, executor, render)
    finally:
        for task in pending:
            if task.future is not None:
                task.future.cancel()


class _Task:
    """Work sent to a worker: a batch of the parent's chunks, or (``spec``) a byte range of a
    plain file that the worker splits itself (:func:`_work_range`)."""

    __slots__ = ("batch", "future", "plan", "spec")

    def __init__(
        self,
        batch: list[tuple[Any, str | None]] | None = None,
        plan: _RangePlan | None = None,
        spec: _Range | None = None,
    ) -> None:
        self.batch = batch
        self.plan = plan
        self.spec = spec
        self.future: Future[Any] | None = None

    def submit(self, executor: ProcessPoolExecutor, render: Callable[[GameReport], Any] | None) -> None:
        if self.spec is None:
            assert self.batch is not None
            self.future = executor.submit(_work, self.batch, render)
        else:
            self.future = executor.submit(_work_range, self.spec, render)


def _finish(
    pending: deque[_Task], executor: ProcessPoolExecutor, render: Callable[[GameReport], Any] | None
) -> Iterator[Any]:
    """The results of the first pending task, in order. A range's first game number is a guess
    until the range before it is done: if that range held another count of games, the range is
    split again from the right number (the guesses after it moved by as much)."""
    task = pending.popleft()
    assert task.future is not None
    plan, spec = task.plan, task.spec
    if plan is None or spec is None:
        yield from task.future.result()
        return
    if plan.stopped:
        return  # reading stopped in an earlier range: nothing after it is read
    plan.correction = plan.next_number - spec.guess  # what the guesses before missed
    if spec.number != plan.next_number:
        spec.number = plan.next_number
        task.submit(executor, render)
        assert task.future is not None
    count, results, stopped = task.future.result()
    plan.next_number = spec.number + count
    plan.stopped = stopped
    yield from results


#: A plain file of at least this many bytes is split by the workers, a byte range each (its
#: first :data:`HEAD_BYTES` by the parent, where the reader decides whether it is PGN at all).
RANGE_MIN_BYTES = 8 << 20
HEAD_BYTES = 2 << 20  # more than the reader holds back to decide (notation.pgn.reader.HOLD_BYTES)
RANGE_BYTES = 1 << 20


class _Range:
    """Bytes ``[start, end)`` of the plain file ``path``, from a game's start (its ``number``,
    a guess until the ranges before are split, and its ``line``). ``guess``: the number as
    counted in the ranges before, without the plan's correction."""

    __slots__ = ("end", "guess", "line", "name", "number", "path", "start")

    def __init__(self, path: str, name: str | None, start: int, end: int, guess: int, number: int, line: int) -> None:
        self.path, self.name, self.start, self.end, self.line = path, name, start, end, line
        self.guess, self.number = guess, number


class _RangePlan:
    """The ranges of one file: the first game number of the next range, once known."""

    __slots__ = ("correction", "next_number", "stopped")

    def __init__(self, number: int) -> None:
        self.next_number = number
        self.correction = 0  # added to the guesses: what they missed up to the last range split
        self.stopped = False


def _tasks(sources: Iterable[tuple[Any, str | None]]) -> Iterator[_Task]:
    """The work of every source in order: batches of the parent's chunks; a large plain file
    past its head in ranges the workers split (not while a read meter counts the games)."""
    from notation.pgn.chunks import RawGame
    from notation.pgn.reader import split_games
    from notation.pgn.sources import current_meter, is_plain_file

    for source, name in sources:
        ranged = current_meter() is None and is_plain_file(source) and _size(source) >= RANGE_MIN_BYTES
        batch: list[tuple[Any, str | None]] = []
        size = 0
        chunks = split_games(source)
        resume: RawGame | None = None
        for raw in chunks:
            if ranged and isinstance(raw, RawGame) and raw.offset >= HEAD_BYTES and raw.io_error is None:
                resume = raw  # the reader's structure test is decided: from here, its plain split
                break
            batch.append((raw, name))
            size += 1 if isinstance(raw, ReadFailure) else max(raw.size, len(raw.data))
            if len(batch) >= BATCH_GAMES or size >= BATCH_CHARS:
                yield _Task(batch)
                batch, size = [], 0
        getattr(chunks, "close")()  # the reader's generator: its file is closed now
        if batch:
            yield _Task(batch)
        if resume is not None:
            plan = _RangePlan(resume.number)
            for spec in _ranges(os.fspath(source), name, resume, plan):
                yield _Task(plan=plan, spec=spec)


def _size(path: Any) -> int:
    """The size of the file ``path``, 0 when it cannot be told (the reader reports why)."""
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _ranges(path: str, name: str | None, first: Any, plan: _RangePlan) -> Iterator[_Range]:
    """Ranges of about :data:`RANGE_BYTES` from the game ``first`` to the end of the file, each
    ending where a game surely starts (a tag line after a blank line: the reader starts a game
    at every tag section after text that is not a tag line), with the line of its first game
    and a guess of its number (the games before counted as tag lines after a blank line)."""
    from notation.pgn.tags import patterns

    cut = re.compile(rb"\n[ \t\r]*\n(?=" + patterns().section_line.encode() + rb")")
    count = _lines_and_starts()
    start, number, line = first.offset, first.number, first.line
    mapped = _mapped(path)
    if mapped is None:  # the file went or changed since its head was read: one range to its end,
        # whose worker's split reports what reading it meets, as the reader would
        yield _Range(path, name, start, 1 << 62, number, number, line)
        return
    handle, data = mapped
    with handle, data:
        size = len(data)
        while start < size:
            found = cut.search(data, start + RANGE_BYTES) if start + RANGE_BYTES < size else None
            end = found.end() if found is not None else size
            yield _Range(path, name, start, end, number, number + plan.correction, line)
            lines, starts = count(data[start:end])
            line += lines
            number += 1 + starts
            start = end


def _mapped(path: str) -> tuple[BinaryIO, mmap.mmap] | None:
    """The file ``path`` open and mapped for reading, or None when it cannot be (now empty too)."""
    try:
        handle = open(path, "rb")
    except OSError:
        return None
    try:
        return handle, mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):
        handle.close()
        return None


def _lines_and_starts() -> Callable[[bytes], tuple[int, int]]:
    """(newlines, tag lines after a blank line) of a text: the compiled core's one pass
    (``lines_and_starts``), or the same counts by ``bytes.count`` without it."""
    from notation.compiled import core_module

    core = core_module()
    if core is not None:
        return core.lines_and_starts

    def by_count(text: bytes) -> tuple[int, int]:
        return text.count(b"\n"), text.count(b"\n\n[") + text.count(b"\n\r\n[")

    return by_count


def _work_range(spec: _Range, render: Callable[[GameReport], Any] | None) -> tuple[int, list[Any], bool]:
    """Worker: split a range of a plain file (:func:`notation.pgn.reader.split_range`: the games
    exactly as the whole file's split gives them), check and render its games: (games found,
    results, whether reading stopped there)."""
    from notation.pgn.reader import split_range

    results: list[Any] = []
    count, stopped = 0, False
    items = split_range(spec.path, spec.start, spec.end, number=spec.number, line=spec.line)
    if render is report_line and core_available():
        games = list(items)
        stopped = any(isinstance(raw, ReadFailure) or raw.io_error is not None for raw in games)
        return len(games), list(_batched_lines(games, spec.name)), stopped
    for raw in items:
        count += 1
        stopped = stopped or isinstance(raw, ReadFailure) or raw.io_error is not None
        report = checked(raw, spec.name)
        results.append(report if render is None else render(report))
    return count, results, stopped


@contextmanager
def process_pool(jobs: int) -> Iterator[ProcessPoolExecutor]:
    """A started pool of ``jobs`` worker processes (forked after the parsers are built)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

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
    """Build the core path's tables in the parent so that forked workers inherit them. The
    reference's parsers (Lark, the SAN grammar, the rules engine: about 0.1 s) are left to the
    workers that meet a game needing them: the core writes nearly every game's line."""
    try:
        import io

        from notation.pgn.reader import split_games

        for raw in split_games(io.StringIO('[Result "*"]\n\n1. e4 e5 2. Nf3 Nc6 *\n')):
            checked(raw, None)  # the core's parser
    except Exception:  # noqa: BLE001 - warm-up is an optimisation only
        pass


def default_jobs() -> int:
    """The number of CPUs available to this process."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1
