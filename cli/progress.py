"""The progress display of the reading commands: bytes read of the total, games, games/s, ETA.

Shown on standard error only when it is a terminal, and cleared when the work ends, so piped or
redirected output never carries it. What it shows comes from the library's read meter
(:func:`notation.pgn.sources.metered_reads`): the bytes read from the inputs as they are stored
(so the compressed size of a ``.gz`` or ``.zst`` file, which is what the total counts) and the
games split from them. The total is the size of the input files (the PGN files below a folder
argument); standard input has none, and an imported dataset is read by Polars, not by the
meter: for those the display shows what was read, the rate and the time, without a bar or ETA.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover - the input readers load with the first input read
    from notation.pgn.sources import ReadMeter

#: how often the display redraws (per second)
REFRESH_PER_SECOND = 4

#: the displays on the screen now (their ``stop``): cleared for good when output starts
_showing: list[Any] = []


def output_starts() -> None:
    """Clear the progress display for good before the command writes to standard output.

    Called by the console script's standard output before each write that goes to a pipe or a
    file (a terminal on standard output is handled by rich, which prints above the display): the
    reader of a pipe (``| head``) may print to the terminal that shows the display, and its first
    line must not be glued to the progress line. Nothing is shown again after that."""
    while _showing:
        _showing.pop()()


def input_bytes(paths: Sequence[str | Path]) -> int | None:
    """The stored size of the PGN inputs among ``paths`` (files, and PGN files below folders that
    are not datasets); None when there is none to count or one is standard input."""
    from notation.pgn.sources import expand_paths
    from notation.cli.sources import is_dataset

    total = 0
    for item in expand_paths(paths, dataset=is_dataset):  # a dataset is read by Polars, not by the meter
        if item.kind == "stdin":
            return None
        if item.kind == "folder" or (item.kind == "file" and item.path.is_file()):
            total += sum(_size(file) for file in item.readable)
    return total or None


def _size(path: Path) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def megabytes(count: float) -> str:
    """``count`` bytes in MB with one decimal (kB under 0.1 MB)."""
    if count < 100_000:
        return f"{count / 1e3:.0f} kB"
    return f"{count / 1e6:,.1f} MB"


def clock(seconds: float) -> str:
    """``seconds`` as m:ss or h:mm:ss."""
    whole = max(0, int(round(seconds)))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def status_text(meter: ReadMeter, total: int | None, elapsed: float) -> str:
    """The words of the display: ``12.3 / 45.6 MB · 1,234 games · 5,678 games/s · ETA 0:06``.

    The ETA is the time still needed at the mean rate so far, shown once there is a rate; with
    nothing counted yet (a dataset read by Polars) only the time is shown."""
    done = meter.bytes
    parts = []
    if total:
        parts.append(f"{megabytes(done)} / {megabytes(total)}")
    elif done:
        parts.append(megabytes(done))
    if meter.games or done:
        parts.append(f"{meter.games:,} games")
        if elapsed > 0:
            parts.append(f"{meter.games / elapsed:,.0f} games/s")
    if total and elapsed > 0.5 and done > 0:
        left = max(0.0, (total - done) * elapsed / done)
        parts.append(f"ETA {clock(left)}")
    parts.append(clock(elapsed))
    return " · ".join(parts)


@contextmanager
def reading_progress(
    description: str, paths: Sequence[str | Path] = (), *, enabled: bool | None = None
) -> Iterator[ReadMeter]:
    """When ``enabled`` (default: standard error is a terminal), count the reading done inside the
    block and show it on standard error. Yields the meter (not installed when disabled).

    Standard output is redirected above the display only when it is the terminal too."""
    from notation.pgn.sources import ReadMeter, metered_reads

    if enabled is None:
        enabled = sys.stderr.isatty()
    if not enabled:  # nothing to show: nothing to count
        yield ReadMeter()
        return
    with metered_reads() as meter, _display(description, meter, input_bytes(paths)):
        yield meter


@contextmanager
def _display(description: str, meter: ReadMeter, total: int | None) -> Iterator[None]:
    from rich.console import Console
    from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn

    started = time.perf_counter()

    class Metered(Progress):
        """Reads the meter at each redraw (the work never calls back)."""

        def get_renderables(self) -> Iterator[Any]:
            elapsed = time.perf_counter() - started
            for task in self.tasks:
                self.update(task.id, completed=meter.bytes, status=status_text(meter, total, elapsed))
            yield from super().get_renderables()

    columns: list[Any] = [SpinnerColumn(), TextColumn("{task.description}")]
    if total:
        columns.append(BarColumn(bar_width=24))
    columns.append(TextColumn("{task.fields[status]}"))
    bar = Metered(
        *columns,
        console=Console(stderr=True),
        transient=True,
        refresh_per_second=REFRESH_PER_SECOND,
        redirect_stdout=sys.stdout.isatty(),
        redirect_stderr=True,
    )
    with bar:
        bar.add_task(description, total=total, status=status_text(meter, total, 0.0))
        _showing.append(bar.stop)
        try:
            yield
        finally:
            if bar.stop in _showing:
                _showing.remove(bar.stop)
