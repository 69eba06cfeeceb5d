"""The Parquet dataset behind ``notation import``: planning chunks, writing parts atomically.

Layout::

    DIR/games/part-BBBB-CCCCCC-<id>.parquet   one file per input chunk (GAMES_SCHEMA)
    DIR/moves/part-BBBB-CCCCCC-<id>.parquet   the same chunk's plies (MOVES_SCHEMA), absent with --no-moves

``BBBB`` numbers the imports into the dataset (1, 2, ...), ``CCCCCC`` the chunk in the import's
plan (files in the order given, games in file order) and ``<id>`` is the 16-hex-digit
``game_id`` of the chunk's first game. So part names are deterministic (every engine writes the
same names), unique, and sort in import order: :func:`notation.tables.frames.scan` yields games in the
order they were imported (the ledger relies on file order for games of the same day).

Atomicity: a part is written under a hidden temporary name in its final directory and renamed
with :func:`os.replace`; the moves part is renamed first and the games part last, so the games
part is the commit point. :func:`committed_parts` (used by :func:`notation.tables.frames.scan`) lists
only games parts and the moves parts whose games part exists; :func:`clean` removes temporary
files and orphan moves parts left by an interrupted import. An interrupted import therefore
leaves whole, consistent parts only, and running it again imports the rest (games already in
the dataset are skipped).

Ownership and concurrency: a dataset folder carries the marker file ``.notation-dataset``
(written when the import creates the folder or finds it empty). :func:`import_files` refuses a
non-empty folder without the marker (:class:`NotADataset`; a folder holding nothing but parts
named by this toolkit, as written before the marker existed, is adopted), and clean-up removes
only files named by this toolkit (its temporary and part names), never anything else. An import
holds an exclusive lock on the dataset (``.notation-dataset.lock``, :mod:`filelock`) from its
clean-up to its last part: a second import into the same dataset waits for the first
(``lock_timeout`` bounds the wait; :class:`DatasetBusy` when it expires), then skips the games
the first one wrote. Readers take no lock: they see committed parts only.

Values a column cannot hold (an Elo of ``99999999999999999999``, a ``[%clk]`` of 400 digits, a
FEN move number beyond 32 bits, ...) are null in their row and reported as located
``table.value-out-of-range`` warnings (:attr:`ImportSummary.warnings`), never a chunk failure
(:mod:`notation.tables.ranges`).

De-duplication: each game's ``game_id`` is a hash of its whitespace-normalised text
(:func:`notation.tables.rows.game_id`). The planner skips a game whose id the dataset already holds or
that an earlier game of the same import had, *before* parsing it, so re-importing a file
costs little more than reading it. :func:`notation.tables.frames.to_frames` does not de-duplicate.

The plan (:func:`plan_chunks`) is made in one sequential pass in the calling process; the work
of a chunk (:func:`run_chunk`) is a pure function of its :class:`ChunkTask`, so the in-process,
process-pool and dask engines produce identical datasets.
"""

from __future__ import annotations

import os
import re
import sys
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from notation.diagnostics import Diagnostic
from notation.oserrors import library_write_error
from notation.pgn.sources import display_path, expand_paths
from notation.tables.schema import GAMES_SCHEMA, MOVES_SCHEMA

GAMES_DIR = "games"
MOVES_DIR = "moves"
PART_PREFIX = "part-"
PART_SUFFIX = ".parquet"
TMP_PREFIX = ".tmp-"
#: the file that marks a folder as a dataset written by this toolkit
MARKER = ".notation-dataset"
#: the lock file of an import in progress (:mod:`filelock`)
LOCK_NAME = ".notation-dataset.lock"
#: the names this toolkit gives parts and their temporary files (nothing else is ever removed)
PART_NAME = re.compile(r"part-\d{4,}-\d{6,}-[0-9a-f]{16}\.parquet")
TMP_NAME = re.compile(r"\.tmp-[0-9a-f]+-part-\d{4,}-\d{6,}-[0-9a-f]{16}\.parquet")

#: a chunk closes after this many games ...
CHUNK_GAMES = 2000
#: ... or this many bytes of game text, whichever comes first (and always at the end of a file)
CHUNK_BYTES = 8 << 20


class DatasetError(Exception):
    """The output folder cannot be used as a dataset (the message says why and where)."""


class NotADataset(DatasetError):
    """A non-empty folder that this toolkit did not write (no marker file)."""


class DatasetBusy(DatasetError):
    """Another import holds the dataset's lock (and the wait for it expired)."""


@dataclass(frozen=True, slots=True)
class WriteOptions:
    """How parts are written. ``position_key=False`` leaves that column null (``--no-position-key``)."""

    moves: bool = True
    position_key: bool = True
    compression: str = "zstd"
    compression_level: int | None = None


@dataclass(slots=True)
class ChunkTask:
    """One unit of work: some games of one file (or of several small ones: ``source_file``
    None, each game names its own), already split and de-duplicated."""

    index: int
    source_file: str | None
    out_dir: str
    items: list[tuple[int, Any]]  # (game_id, notation.pgn.reader.RawGame)
    options: WriteOptions = field(default_factory=WriteOptions)
    nbytes: int = 0
    batch: int = 1

    @property
    def part_name(self) -> str:
        """``part-<import batch>-<chunk index>-<first game id>``: sorts in import order."""
        return f"{PART_PREFIX}{self.batch:04d}-{self.index:06d}-{self.items[0][0]:016x}"


@dataclass(slots=True)
class ChunkResult:
    """What one chunk wrote (returned by workers: small, picklable)."""

    index: int
    source_file: str | None
    part_name: str
    games: int = 0
    plies: int = 0
    statuses: dict[str, int] = field(default_factory=dict)
    bytes_written: int = 0
    seconds: float = 0.0
    #: per-game findings of the tables (``table.value-out-of-range``), in game order
    diagnostics: list[Diagnostic] = field(default_factory=list)


@dataclass(slots=True)
class ImportSummary:
    """The totals of one ``notation import`` run."""

    files: int = 0
    games_read: int = 0
    games_imported: int = 0
    duplicates: int = 0
    plies: int = 0
    parts: int = 0
    bytes_written: int = 0
    statuses: Counter[str] = field(default_factory=Counter)
    #: inputs that could not be read (``pgn.io``) or are no PGN (``pgn.not-pgn``): the CLI exits 2
    diagnostics: list[Diagnostic] = field(default_factory=list)
    #: values stored as null because their column cannot hold them (warnings, in input order)
    warnings: list[Diagnostic] = field(default_factory=list)
    seconds: float = 0.0

    def add(self, result: ChunkResult) -> None:
        self.games_imported += result.games
        self.plies += result.plies
        self.parts += 1
        self.bytes_written += result.bytes_written
        self.statuses.update(result.statuses)

    def to_dict(self) -> dict[str, Any]:
        return {
            "files": self.files,
            "games_read": self.games_read,
            "games_imported": self.games_imported,
            "duplicates_skipped": self.duplicates,
            "plies": self.plies,
            "parts": self.parts,
            "bytes_written": self.bytes_written,
            "statuses": dict(self.statuses),
            "values_out_of_range": len(self.warnings),
            "seconds": round(self.seconds, 3),
        }


# ------------------------------------------------------------------------ inputs and layout
#: Stands for standard input in the list of files to import (the ``-`` argument).
STDIN = Path("-")
STDIN_NAME = "<stdin>"


def expand_inputs(
    paths: Iterable[str | Path], unreadable: list[Diagnostic] | None = None
) -> tuple[list[Path], list[Diagnostic]]:
    """Files to import: files as given, directories searched (sorted) for PGN files, and
    ``STDIN`` (``-``) for standard input (read once, where it stands in the list).

    Folders and files below a directory that cannot be read are ``pgn.io`` diagnostics in
    ``unreadable`` when given (the readable files are still imported), else among the problems.
    """
    found: list[Path] = []
    problems: list[Diagnostic] = []
    seen: set[Path] = set()
    for item in expand_paths(paths):  # (a file: a file, a pipe, /dev/stdin)
        if item.kind == "stdin":
            if STDIN not in found:
                found.append(STDIN)
            continue
        if item.kind == "missing":
            problems.append(Diagnostic.missing_file(str(item.given)))
            continue
        (problems if unreadable is None else unreadable).extend(item.unreadable())
        for candidate in item.readable:
            resolved = candidate.resolve()
            if resolved not in seen:
                seen.add(resolved)
                found.append(candidate)
    return found, problems


def committed_parts(root: Path) -> tuple[list[Path], list[Path]]:
    """(games parts, moves parts) that belong to the dataset, sorted by name."""
    games_dir, moves_dir = root / GAMES_DIR, root / MOVES_DIR
    games = _parts(games_dir)
    names = {p.name for p in games}
    moves = [p for p in _parts(moves_dir) if p.name in names]
    return games, moves


def _parts(directory: Path) -> list[Path]:
    """The parts of one table folder (``part-*.parquet``) to read; clean-up removes only those
    named exactly as this toolkit names them (:data:`PART_NAME`)."""
    if not directory.is_dir():
        return []
    return sorted(
        p
        for p in directory.iterdir()
        if p.name.startswith(PART_PREFIX) and p.name.endswith(PART_SUFFIX) and p.is_file()
    )


def clean(root: Path) -> int:
    """Remove temporary files and orphan moves parts of interrupted imports; how many removed.

    Only files named by this toolkit (:data:`TMP_NAME`, :data:`PART_NAME`) are removed: a
    user's ``.tmp-notes`` or another tool's ``part-00000-spark.parquet`` stays. Call it with the
    dataset's lock held (:func:`import_files` does), or it may remove another import's
    in-flight temporary file."""
    removed = 0
    for sub in (GAMES_DIR, MOVES_DIR):
        directory = root / sub
        if directory.is_dir():
            for p in directory.iterdir():
                if TMP_NAME.fullmatch(p.name) and p.is_file():
                    p.unlink(missing_ok=True)
                    removed += 1
    games = {p.name for p in _parts(root / GAMES_DIR)}
    for p in _parts(root / MOVES_DIR):
        if p.name not in games and PART_NAME.fullmatch(p.name):
            p.unlink(missing_ok=True)
            removed += 1
    return removed


def next_batch(root: Path) -> int:
    """The import number for the next import into ``root`` (1 for a new dataset)."""
    last = 0
    for p in _parts(root / GAMES_DIR):
        head = p.name[len(PART_PREFIX) :].split("-", 1)[0]
        if head.isascii() and head.isdigit():
            last = max(last, int(head))
    return last + 1


def existing_ids(root: Path) -> set[int]:
    """The game ids the dataset already holds; :class:`DatasetError` naming the part when a
    games part cannot be read (its ids unknown, an import would duplicate its games)."""
    games, _ = committed_parts(root)
    if not games:
        return set()
    try:
        ids = pl.scan_parquet([str(p) for p in games]).select("game_id").collect()
    except READ_ERRORS as exc:
        problems = bad_parts(root, exc)
        raise DatasetError("; ".join(f"{d.file}: {d.message}" for d in problems)) from None
    return set(ids.get_column("game_id").to_list())


#: what reading a damaged Parquet file raises (Polars' errors, I/O, a panic of the reader)
READ_ERRORS: tuple[type[BaseException], ...] = (pl.exceptions.PolarsError, OSError, pl.exceptions.PanicException)


def bad_parts(root: Path, exc: BaseException) -> list[Diagnostic]:
    """Why reading the dataset ``root`` failed with ``exc`` (one of :data:`READ_ERRORS`): a
    ``dataset.bad-part`` error for each part that cannot be read, else one for the dataset."""
    return check_parts(root, full=True) or [_bad_part(root, exc)]


#: Columns added to the tables after their first release: a part written before them lacks them
#: and reads with nulls there (``scan``), so it is not a bad part.
LATER_COLUMNS: frozenset[str] = frozenset({"eco_computed", "opening_computed", "move_time_ms", "depth"})


def check_parts(root: Path, *, full: bool = False) -> list[Diagnostic]:
    """A ``dataset.bad-part`` error for every committed part of ``root`` that cannot be read:
    not Parquet, truncated, or without the columns of its table. Reads each part's footer only;
    ``full=True`` also decodes every column (finds damage inside the data pages)."""
    problems: list[Diagnostic] = []
    games, moves = committed_parts(root)
    for parts, schema in ((games, GAMES_SCHEMA), (moves, MOVES_SCHEMA)):
        for part in parts:
            try:
                names = set(pl.read_parquet_schema(part))
                missing = [name for name in schema if name not in names and name not in LATER_COLUMNS]
                if missing:
                    problems.append(_bad_part(part, f"not a part of this table: no column {missing[0]!r}"))
                elif full:
                    pl.read_parquet(part)
            except READ_ERRORS as exc:
                problems.append(_bad_part(part, exc))
    return problems


def _bad_part(path: Path, why: object) -> Diagnostic:
    text = str(why).strip().splitlines()[0] if str(why).strip() else type(why).__name__
    return Diagnostic.make("dataset.bad-part", f"cannot read this dataset part: {text}", file=str(path))


# ------------------------------------------------------------------- ownership and locking
def folder_state(root: Path) -> str:
    """``missing``, ``empty``, ``dataset`` (has the marker), ``legacy`` (no marker, but holds
    nothing except ``games/`` and ``moves/`` folders of files named by this toolkit) or
    ``foreign`` (anything else: not ours to write into)."""
    if not root.exists():
        return "missing"
    if not root.is_dir():
        return "foreign"
    if (root / MARKER).is_file():
        return "dataset"
    entries = [p for p in root.iterdir() if p.name != LOCK_NAME]
    if not entries:
        return "empty"
    for entry in entries:
        if entry.name not in (GAMES_DIR, MOVES_DIR) or not entry.is_dir():
            return "foreign"
        for p in entry.iterdir():
            if not (PART_NAME.fullmatch(p.name) or TMP_NAME.fullmatch(p.name)) or not p.is_file():
                return "foreign"
    return "legacy"


def check_writable(root: Path) -> None:
    """:class:`NotADataset` unless ``root`` is missing, empty or a dataset of this toolkit."""
    state = folder_state(root)
    if state == "foreign":
        what = "a file" if root.exists() and not root.is_dir() else "a folder that is not empty"
        raise NotADataset(
            f"{root}: not a notation dataset ({what}, without the {MARKER} marker): "
            "import into a new or empty folder, or into a dataset written by notation import"
        )


def _claim(root: Path) -> None:
    """Check ``root`` again (under the lock) and mark it as a dataset."""
    check_writable(root)
    marker = root / MARKER
    if not marker.exists():
        marker.write_text("notation dataset (written by notation import; do not remove)\n", encoding="utf-8")


@contextmanager
def dataset_lock(root: Path, timeout: float | None = None, on_wait: Callable[[], None] | None = None) -> Iterator[None]:
    """Hold ``root``'s exclusive import lock for the block. ``timeout`` seconds (None: no
    limit, 0: do not wait) bound the wait, then :class:`DatasetBusy`; ``on_wait`` is called
    once when another import holds the lock."""
    from filelock import FileLock, Timeout

    lock = FileLock(str(root / LOCK_NAME))
    busy = DatasetBusy(f"{root}: another import is writing this dataset (its lock {LOCK_NAME} is held)")
    try:
        lock.acquire(timeout=0)
    except Timeout:
        if timeout is not None and timeout <= 0:
            raise busy from None
        if on_wait is not None:
            on_wait()
        try:
            lock.acquire(timeout=-1 if timeout is None else timeout)
        except Timeout:
            raise DatasetBusy(f"{busy} (waited {timeout:g} s)") from None
    try:
        yield
    finally:
        lock.release()


# ------------------------------------------------------------------------------- planning
@dataclass(slots=True)
class PlanStats:
    """Counters filled while :func:`plan_chunks` is consumed."""

    files: int = 0
    games_read: int = 0
    duplicates: int = 0
    diagnostics: list[Diagnostic] = field(default_factory=list)


def plan_chunks(
    files: Iterable[Path],
    out_dir: Path,
    *,
    seen: set[int],
    options: WriteOptions,
    stats: PlanStats,
    chunk_games: int = CHUNK_GAMES,
    chunk_bytes: int = CHUNK_BYTES,
    batch: int = 1,
) -> Iterator[ChunkTask]:
    """Split every file into game chunks, skipping ids in ``seen`` (which it extends).

    Sequential and deterministic: the same files and sizes give the same chunks whatever
    engine runs them. Small files (:func:`small_file`) share chunks, so a folder of 2,000
    one-game files is one part, not 2,000; any other input has chunks of its own.
    """
    from notation.tables.rows import raw_text

    index = 0
    items: list[tuple[int, Any]] = []
    names: set[str] = set()
    size = 0

    def chunk() -> ChunkTask:
        # one file's name, or None: the games carry their own files' names
        name = next(iter(names)) if len(names) == 1 else None
        return ChunkTask(index, name, str(out_dir), items, options, size, batch)

    for path in files:
        shared = small_file(path, chunk_bytes)
        if items and not shared:  # the chunk of the small files before this one is done
            yield chunk()
            index += 1
            items, names, size = [], set(), 0
        name = STDIN_NAME if path == STDIN else display_path(path.name)
        for gid, raw, new in planned_games(path, seen, stats):
            if not new:
                continue
            items.append((gid, raw))
            names.add(name)
            size += len(raw_text(raw))
            if len(items) >= chunk_games or size >= chunk_bytes:
                yield chunk()
                index += 1
                items, names, size = [], set(), 0
        if items and not shared:
            yield chunk()
            index += 1
            items, names, size = [], set(), 0
    if items:
        yield chunk()


#: A file of at most this many bytes on disk (and an eighth of a chunk) shares chunks.
SMALL_FILE_BYTES = CHUNK_BYTES // 8


def small_file(path: Path, chunk_bytes: int = CHUNK_BYTES) -> bool:
    """Whether ``path`` is a file small enough to share a chunk with its neighbours
    (:data:`SMALL_FILE_BYTES`, and an eighth of a chunk); never standard input."""
    if path == STDIN:
        return False
    try:
        return path.is_file() and path.stat().st_size <= min(SMALL_FILE_BYTES, chunk_bytes // 8)
    except OSError:
        return False


def planned_games(path: Path, seen: set[int], stats: PlanStats) -> Iterator[tuple[int, Any, bool]]:
    """``(game id, raw game, new)`` for every game of one input, in file order, as the planners
    see them: read errors become ``pgn.io`` diagnostics in ``stats`` (keeping what was read), a
    file with no PGN structure its ``pgn.not-pgn``,
    ``stats`` counts files, games and duplicates, and ``new`` is False for a game whose id is
    in ``seen`` (which it extends)."""
    from notation.pgn.chunks import ReadFailure
    from notation.tables.rows import raw_games

    stats.files += 1
    games = raw_games(sys.stdin.buffer if path == STDIN else path)
    while True:
        try:
            item = next(games)
        except StopIteration:
            return
        except Exception as exc:  # noqa: BLE001 - e.g. a truncated .gz: keep what was read
            message = f"cannot read past game {stats.games_read}: {type(exc).__name__}: {exc}"
            stats.diagnostics.append(Diagnostic.make("pgn.io", message, file=str(path)))
            return
        if isinstance(item, ReadFailure):  # no PGN, or the reader could not read (more of) the file
            stats.diagnostics.append(item.diagnostic.located(file=str(path)))
            continue
        gid, raw = item
        stats.games_read += 1
        if gid in seen:
            stats.duplicates += 1
            yield gid, raw, False
            continue
        seen.add(gid)
        yield gid, raw, True


# -------------------------------------------------------------------------------- working
def run_chunk(task: ChunkTask) -> ChunkResult:
    """Parse, replay and tabulate one chunk and write its parts (atomically). Pure in its task."""
    from notation.tables.rows import tabulate_raw

    started = time.perf_counter()
    opts = task.options
    findings: list[Diagnostic] = []
    games, moves, statuses = tabulate_raw(
        task.items, moves=opts.moves, source_file=task.source_file, diagnostics=findings
    )
    if opts.moves and not opts.position_key:
        moves = moves.with_columns(pl.lit(None, dtype=MOVES_SCHEMA["position_key"]).alias("position_key"))
    written = write_part(Path(task.out_dir), task.part_name, games, moves if opts.moves else None, opts)
    return ChunkResult(
        index=task.index,
        source_file=task.source_file,
        part_name=task.part_name,
        games=games.height,
        plies=moves.height if opts.moves else 0,
        statuses=dict(statuses),
        bytes_written=written,
        seconds=time.perf_counter() - started,
        diagnostics=findings,
    )


def write_part(
    root: Path,
    name: str,
    games: pl.DataFrame,
    moves: pl.DataFrame | None,
    options: WriteOptions,
) -> int:
    """Write one chunk's parts: temp names first, then rename moves, then games (the commit)."""
    games_dir, moves_dir = root / GAMES_DIR, root / MOVES_DIR
    games_dir.mkdir(parents=True, exist_ok=True)
    final_name = name + PART_SUFFIX
    token = uuid.uuid4().hex[:12]
    staged: list[tuple[Path, Path]] = []
    try:
        if moves is not None:
            moves_dir.mkdir(parents=True, exist_ok=True)
            tmp = moves_dir / f"{TMP_PREFIX}{token}-{final_name}"
            _write_parquet(moves, tmp, options)
            staged.append((tmp, moves_dir / final_name))
        tmp = games_dir / f"{TMP_PREFIX}{token}-{final_name}"
        _write_parquet(games, tmp, options)
        staged.append((tmp, games_dir / final_name))
        written = sum(tmp.stat().st_size for tmp, _ in staged)
        for tmp, final in staged:  # games last: the commit point
            os.replace(tmp, final)
        return written
    except BaseException:
        for tmp, _ in staged:
            tmp.unlink(missing_ok=True)
        for leftover in (games_dir, moves_dir):
            if leftover.is_dir():
                for p in leftover.glob(f"{TMP_PREFIX}{token}-*"):
                    p.unlink(missing_ok=True)
        raise


def _write_parquet(frame: pl.DataFrame, path: Path, options: WriteOptions) -> None:
    kwargs: dict[str, Any] = {"compression": options.compression, "statistics": True}
    if options.compression_level is not None:
        kwargs["compression_level"] = options.compression_level
    try:
        frame.write_parquet(path, **kwargs)
    except OSError:
        raise
    except Exception as exc:  # Polars reports I/O failures as its own errors
        raise library_write_error(exc, path) from exc


# ------------------------------------------------------------------------------- engines
Executor = Callable[[Iterator[ChunkTask], Callable[[ChunkResult], None]], None]


def run_local(tasks: Iterator[ChunkTask], on_result: Callable[[ChunkResult], None]) -> None:
    """The in-process engine: one chunk after another."""
    for task in tasks:
        on_result(run_chunk(task))


def run_processes(jobs: int) -> Executor:
    """The ``--jobs N`` engine: a spawn-context process pool, at most ``2 * jobs`` chunks in flight."""

    def execute(tasks: Iterator[ChunkTask], on_result: Callable[[ChunkResult], None]) -> None:
        import multiprocessing
        from concurrent.futures import (
            FIRST_COMPLETED,
            Future,
            ProcessPoolExecutor,
            wait,
        )

        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
            pending: set[Future[ChunkResult]] = set()
            try:
                for task in tasks:
                    pending.add(pool.submit(run_chunk, task))
                    if len(pending) >= 2 * jobs:
                        done, pending = wait(pending, return_when=FIRST_COMPLETED)
                        for future in done:
                            on_result(future.result())
                while pending:
                    done, pending = wait(pending, return_when=FIRST_COMPLETED)
                    for future in done:
                        on_result(future.result())
            except BaseException:
                for future in pending:
                    future.cancel()
                raise

    return execute


def import_files(
    paths: Iterable[str | Path],
    out_dir: str | Path,
    *,
    options: WriteOptions | None = None,
    executor: Executor | None = None,
    chunk_games: int = CHUNK_GAMES,
    chunk_bytes: int = CHUNK_BYTES,
    on_result: Callable[[ChunkResult], None] | None = None,
    lock_timeout: float | None = None,
    on_wait: Callable[[], None] | None = None,
) -> ImportSummary:
    """Import PGN files into the dataset at ``out_dir`` (created if needed); the summary.

    Missing inputs become ``pgn.io`` diagnostics in the summary (the others are imported);
    when no input file is found nothing is created. ``executor`` picks the engine (default:
    in-process, :func:`run_local`). The dataset is locked for the import (see
    :func:`dataset_lock` for ``lock_timeout`` and ``on_wait``). Raises :class:`DatasetError`
    when ``out_dir`` is not a dataset of this toolkit (:class:`NotADataset`), is locked by
    another import past the timeout (:class:`DatasetBusy`) or holds an unreadable part.
    """
    started = time.perf_counter()
    options = options or WriteOptions()
    root = Path(out_dir).absolute()  # tasks may run in other processes or on other hosts
    files, problems = expand_inputs(paths)
    summary = ImportSummary(diagnostics=problems)
    if not files:  # nothing to import from: create nothing
        summary.seconds = time.perf_counter() - started
        return summary
    check_writable(root)  # before creating anything in a folder that is not ours
    root.mkdir(parents=True, exist_ok=True)
    with dataset_lock(root, lock_timeout, on_wait):
        _claim(root)
        clean(root)
        stats = PlanStats()
        seen = existing_ids(root)
        # an executor may plan its own tasks (the dask engine: byte ranges its workers read)
        planner = getattr(executor, "planner", plan_chunks)
        tasks = planner(
            files,
            root,
            seen=seen,
            options=options,
            stats=stats,
            chunk_games=chunk_games,
            chunk_bytes=chunk_bytes,
            batch=next_batch(root),
        )
        findings: dict[int, list[Diagnostic]] = {}

        def collect(result: ChunkResult) -> None:
            summary.add(result)
            if result.diagnostics:
                findings[result.index] = result.diagnostics
            if on_result is not None:
                on_result(result)

        (executor or run_local)(tasks, collect)
    summary.warnings = [d for index in sorted(findings) for d in findings[index]]
    summary.files = stats.files
    summary.games_read = stats.games_read
    summary.duplicates = stats.duplicates
    summary.diagnostics.extend(stats.diagnostics)
    summary.seconds = time.perf_counter() - started
    return summary
