"""Atomic file output: write beside the target under a hidden temporary name, then rename.

A reader of ``path`` sees either the old file or the complete new one, never a half-written
file, even if the process is killed mid-write (``os.replace`` is atomic on POSIX and Windows
within one file system).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def atomic_path(path: str | os.PathLike[str]) -> Iterator[Path]:
    """A temporary path in the target's folder; renamed onto ``path`` when the block succeeds."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    handle, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    os.close(handle)
    tmp = Path(tmp_name)
    try:
        yield tmp
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_text_atomic(path: str | os.PathLike[str], text: str, *, encoding: str = "utf-8") -> None:
    """Write ``text`` to ``path`` atomically."""
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding=encoding)


def write_with_atomic(path: str | os.PathLike[str], writer: Callable[[Path], object]) -> None:
    """Call ``writer(tmp_path)`` (e.g. ``df.write_parquet``) and move the result onto ``path``."""
    with atomic_path(path) as tmp:
        writer(tmp)
