"""Opening PGN sources: paths (plain, ``.gz``, ``.bz2``, ``.zst``, ``.xz``), ``"-"`` for stdin, and open
binary or text handles; reading them block by block; decoding game bytes.

Compression is recognised by the file's magic bytes (so a misnamed file still reads), with the
extension only used for display.
"""

from __future__ import annotations

import bz2
import gzip
import io
import os
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, Union

#: What ``read_games`` and friends accept.
Source = Union[str, "os.PathLike[str]", IO[bytes], IO[str]]

_GZIP_MAGIC = b"\x1f\x8b"
_BZ2_MAGIC = b"BZh"
_ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
_XZ_MAGIC = b"\xfd7zXZ"
BOM = b"\xef\xbb\xbf"


def source_name(source: Any) -> str | None:
    """A display name for ``source``: the path, ``<stdin>``, or a handle's ``name``."""
    if isinstance(source, (str, os.PathLike)):
        text = os.fspath(source)
        return "<stdin>" if text == "-" else str(text)
    name = getattr(source, "name", None)
    return name if isinstance(name, str) else None


def _decompressing(raw: Any) -> Any:
    """Wrap a binary stream in the decompressor its magic bytes call for."""
    buffered: Any = raw if isinstance(raw, io.BufferedReader) else io.BufferedReader(raw)
    head = buffered.peek(6)[:6]
    if head.startswith(_GZIP_MAGIC):
        return gzip.GzipFile(fileobj=buffered, mode="rb")
    if head.startswith(_BZ2_MAGIC) and head[3:4].isdigit():
        return bz2.BZ2File(buffered, mode="rb")
    if head.startswith(_XZ_MAGIC):
        import lzma

        return lzma.LZMAFile(buffered, mode="rb")
    if head.startswith(_ZSTD_MAGIC):
        import zstandard

        reader = zstandard.ZstdDecompressor().stream_reader(buffered, read_across_frames=True)
        return io.BufferedReader(reader)
    return buffered


def is_plain_file(source: Any) -> bool:
    """Whether ``source`` is a path to a regular file read as it is stored: not ``"-"``, not a
    handle, and no compression by :func:`open_source`'s magic-byte rule (so byte offsets in
    the games it reads are offsets in the file, and a byte range of it can be read alone)."""
    if not isinstance(source, (str, os.PathLike)) or os.fspath(source) == "-":
        return False
    try:
        if not os.path.isfile(source):
            return False
        with open(source, "rb") as handle:
            return bool(_decompressing(handle) is handle)
    except (OSError, ImportError):  # unreadable, or a zstd file without zstandard
        return False


@contextmanager
def open_source(source: Source) -> Iterator[tuple[SafeRead, str | None]]:
    """Yield ``(read, name)``: ``read(n)`` returns the next bytes (str for text handles), empty
    (or None) at the end, decompressed as needed; a read error ends the input and is kept in
    ``read.error``.

    Paths are opened (and closed afterwards); handles are read but left open. Raises
    ``OSError`` when a path cannot be opened (the reader turns that into ``pgn.io``).
    """
    name = source_name(source)
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        if path == "-":
            yield SafeRead(_reader(_decompressing(sys.stdin.buffer))), name
            return
        handle = open(Path(path), "rb")  # noqa: SIM115 - closed below
        try:
            yield SafeRead(_decompressing(handle).read), name
        finally:
            handle.close()
        return
    if _is_text(source):
        yield SafeRead(source.read), name
        return
    yield SafeRead(_reader(_decompressing(source))), name


def _reader(stream: IO[bytes]) -> Callable[[int], bytes]:
    """``read1`` when the stream has it (returns what is available: games from a pipe come out
    as they arrive), else ``read``."""
    read1 = getattr(stream, "read1", None)
    return read1 if callable(read1) else stream.read


class SafeRead:
    """A ``read(n)`` that turns a failure (truncated or corrupt compressed data, an undecodable
    text handle, an I/O error) into the end of the input, keeping the error in ``error``."""

    __slots__ = ("_read", "error")

    def __init__(self, read: Callable[[int], Any]) -> None:
        self._read = read
        self.error: str | None = None

    def __call__(self, size: int) -> Any:
        if self.error is not None:
            return None
        try:
            return self._read(size)
        except Exception as error:  # noqa: BLE001 - the I/O boundary: bad input never raises
            self.error = f"{type(error).__name__}: {error}"
            return None


def _is_text(handle: Any) -> bool:
    if isinstance(handle, io.TextIOBase):
        return True
    mode = getattr(handle, "mode", "")
    return isinstance(mode, str) and bool(mode) and "b" not in mode


_NON_ASCII = re.compile(r"[^\x00-\x7f]")

#: Single-byte encodings tried, in order of preference, when a game is not UTF-8.
FALLBACK_ENCODINGS = ("cp1252", "cp850")


def decode(data: bytes) -> tuple[str, str, int | None]:
    """Decode a game's bytes: UTF-8, else the best single-byte fallback.

    The fallbacks are CP1252 (a superset of Latin-1's letters) and CP850 (old DOS databases:
    ``0x82`` is ``é`` there but a quote mark in CP1252). Each is scored by how many of its
    non-ASCII characters are letters; the best wins, CP1252 on a tie. Returns
    ``(text, encoding, bad)`` where ``bad`` is the offset of the first byte that is not UTF-8
    (None when UTF-8 worked).
    """
    try:
        return data.decode("utf-8"), "utf-8", None
    except UnicodeDecodeError as error:
        bad = error.start
    best: tuple[int, str, str] | None = None
    for encoding in FALLBACK_ENCODINGS:
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        chars = _NON_ASCII.findall(text)
        score = sum(1 if ch.isalpha() else -1 for ch in chars)
        if best is None or score > best[0]:
            best = (score, text, encoding)
    if best is None:  # pragma: no cover - cp850 decodes every byte
        return data.decode("latin-1"), "latin-1", bad
    return best[1], best[2], bad


#: File name endings of PGN files, compressed or not (compression is recognised by magic bytes).
PGN_SUFFIXES: tuple[str, ...] = (".pgn", ".pgn.gz", ".pgn.bz2", ".pgn.zst", ".pgn.zstd", ".pgn.xz")


def find_pgn_files(path: str | os.PathLike[str]) -> list[Path]:
    """The PGN files under a directory (recursively, sorted by path), or ``[path]`` for a file."""
    root = Path(path)
    if root.is_dir():
        found = [p for p in root.rglob("*") if p.is_file() and p.name.lower().endswith(PGN_SUFFIXES)]
        return sorted(found, key=lambda p: p.as_posix())
    return [root]
