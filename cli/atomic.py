"""Atomic file output: write beside the target under a hidden temporary name, then rename.

A reader of ``path`` sees either the old file or the complete new one, never a half-written
file, even if the process is killed mid-write (``os.replace`` is atomic on POSIX and Windows
within one file system). The file gets the permissions any new file would (``0666`` less the
umask, so ``0644`` usually), not the private ``0600`` of a temporary file: an HTML scoresheet
or a CSV table is meant to be shared.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from notation.oserrors import library_write_error


def current_umask() -> int:
    """The process's file-mode creation mask (read by setting it and setting it back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _special_target(target: Path) -> bool:
    """True when ``target`` exists and is not a regular file: a folder raises
    ``IsADirectoryError``; a device, FIFO or socket (``/dev/null``, ``/dev/full``, a named pipe)
    is written in place, since renaming a file onto it would replace the special file itself."""
    try:
        mode = target.stat().st_mode
    except OSError:
        return False
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(target))
    return not stat.S_ISREG(mode)


@contextmanager
def atomic_path(path: str | os.PathLike[str]) -> Iterator[Path]:
    """A temporary path in the target's folder; renamed onto ``path`` when the block succeeds.

    Raises ``IsADirectoryError`` for a folder target. A special file target (a device such as
    ``/dev/null`` or ``/dev/full``, a FIFO) is yielded itself and written in place. Any failure
    in the block removes the temporary file; a failure that is not an ``OSError`` (a library's
    own exception while writing) is raised as an ``OSError`` naming ``path``
    (:func:`library_write_error`), so every caller reports it as an output error."""
    target = Path(path)
    if _special_target(target):
        try:
            yield target
        except OSError as exc:
            if exc.filename is None:  # a write or close of an open file: name the target
                raise OSError(exc.errno, exc.strerror, str(target)) from exc
            raise
        except Exception as exc:
            raise library_write_error(exc, target) from exc
        return
    folder = target.parent if str(target.parent) else Path(".")
    handle, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    try:
        os.fchmod(handle, 0o666 & ~current_umask())
    except (OSError, AttributeError):  # pragma: no cover - file systems without modes, Windows
        pass
    os.close(handle)
    tmp = Path(tmp_name)
    try:
        yield tmp
        os.replace(tmp, target)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        if exc.filename is None or str(exc.filename) == str(tmp):  # name the target, not the temporary
            raise OSError(exc.errno, exc.strerror, str(target)) from exc
        raise
    except Exception as exc:
        tmp.unlink(missing_ok=True)
        raise library_write_error(exc, target) from exc
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_text_atomic(path: str | os.PathLike[str], text: str, *, encoding: str = "utf-8") -> None:
    """Write ``text`` to ``path`` atomically."""
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding=encoding)


def write_bytes_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` atomically."""
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)


def write_with_atomic(path: str | os.PathLike[str], writer: Callable[[Path], object]) -> None:
    """Call ``writer(tmp_path)`` (e.g. ``df.write_parquet``) and move the result onto ``path``."""
    with atomic_path(path) as tmp:
        writer(tmp)
