"""Failures that a library reports in its own terms while writing a file, as ``OSError`` values.

Polars' Parquet writer reports a full disk as a ``ComputeError`` ("... No space left on device
(os error 28)") or, mid-file, as "Invalid thrift: transport error"; a writer handed a target it
cannot use raises ``TypeError``. Every writer of the product turns these into ``OSError`` naming
the file, so that the command line reports them as any other output error.
"""

from __future__ import annotations

import errno
import os
import re

_OS_ERROR_NUMBER = re.compile(r"os error (\d+)", re.ASCII)


def library_write_error(exc: Exception, path: str | os.PathLike[str]) -> OSError:
    """An ``OSError`` for a failure a library reported in its own terms while writing ``path``
    (Polars' Parquet writer says "No space left on device (os error 28)" in a ``ComputeError``,
    or "Invalid thrift: transport error"): the operating system's error when the text names
    one, else the library's text."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    found = _OS_ERROR_NUMBER.search(str(exc))
    if found:
        number = int(found.group(1))
        return OSError(number, os.strerror(number), str(path))
    return OSError(errno.EIO, text, str(path))
