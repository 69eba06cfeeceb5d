"""Streaming game output for ``notation filter`` and ``notation convert``: ``-`` is standard
output; a file is written under a hidden name and renamed into place when the command succeeds
(:mod:`notation.cli.atomic`), so an interrupted run never leaves a half-written file; ``split``
starts a new file every N games (``1.pgn``, ``2.pgn`` ... in a directory, as pgn-extract's ``-#``)."""

from __future__ import annotations

import sys
from contextlib import ExitStack, suppress
from pathlib import Path
from typing import IO

from notation.cli.atomic import atomic_path


class GameSink:
    """Writes game texts with a separator between games; ``close()`` commits the files.
    Raises OSError when an output cannot be created or written (the caller reports it)."""

    def __init__(self, target: str, *, separator: str = "\n", split: int = 0, extension: str = "pgn") -> None:
        self.target = target
        self.separator = separator
        self.split = split
        self.extension = extension
        self.count = 0  # games written
        self.io_failure = False  # set by the caller when an input could not be read
        self._stack = ExitStack()
        self._handle: IO[str] | None = None
        self._in_file = 0
        self._part = 0
        if split:
            Path(target).mkdir(parents=True, exist_ok=True)
        else:
            self._current()  # an output that cannot be created fails now, before any work

    def _open(self, path: Path) -> IO[str]:
        tmp = self._stack.enter_context(atomic_path(path))
        return self._stack.enter_context(open(tmp, "w", encoding="utf-8", newline="\n"))

    def _current(self) -> IO[str]:
        if self.split and (self._handle is None or self._in_file >= self.split):
            self._part += 1
            self._in_file = 0
            self._handle = self._open(Path(self.target) / f"{self._part}.{self.extension}")
        elif self._handle is None:
            self._handle = sys.stdout if self.target == "-" else self._open(Path(self.target))
        return self._handle

    def write(self, text: str) -> None:
        """Add one game's text."""
        handle = self._current()
        if self._in_file:
            handle.write(self.separator)
        handle.write(text)
        self._in_file += 1
        self.count += 1

    def close(self) -> None:
        """Finish: an empty output file is still created (no file for split output)."""
        if self._handle is None and not self.split:
            self._current()
        if self._handle is not None and self._handle is sys.stdout:
            self._handle.flush()
        self._stack.close()

    def abort(self) -> None:
        """Leave no output behind (the temporary files are removed). A failure on the way out
        (closing a file on a full disk fails again) is not reported: the caller reports what made
        it abort."""
        with suppress(Exception):
            self._stack.__exit__(RuntimeError, RuntimeError("aborted"), None)
