"""Opening PGN sources: paths (plain, ``.gz``, ``.bz2``, ``.zst``, ``.xz``), ``"-"`` for stdin, and open
binary or text handles; reading them block by block; decoding game bytes; finding PGN files.

Compression is recognised by the file's magic bytes (so a misnamed plain file still reads), with
the extension only used for display, and to call a file named ``.gz`` (etc.) that holds neither
compressed data nor text an error rather than read its bytes as games.

Reading is **whole or reported**: compressed data is decoded with the incremental decompressors
(:class:`_Inflate`), so every byte that decodes is returned before a failure (a truncated or
corrupt stream), which then ends the input and is kept in :attr:`SafeRead.error`; nothing that
fails is ever taken for the end of the data. Concatenated members/frames/streams are read
in turn. :class:`SafeRead` is also where text is made uniform for the reader: a UTF-16 or
UTF-32 source (recognised by its byte order mark, LE or BE, or without one by the NUL bytes of
its ASCII start) comes out as UTF-8, and line ends
come out as LF or CRLF: a lone CR (old Mac files, or mixed in) becomes LF (one byte for one, so
byte offsets stay those of the file). Paths, binary handles, text handles and stdin so give the
same games with the same line numbers.

A caller that shows progress wraps its reading in :func:`metered_reads`: the
:class:`ReadMeter` it yields counts the bytes read from sources as they are stored (compressed
bytes for compressed files) and the games split from them, as reading goes on.
"""

from __future__ import annotations

import bz2
import codecs
import io
import lzma
import os
import re
import sys
import zlib
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Union

from notation.diagnostics import Diagnostic

#: What ``read_games`` and friends accept (an :class:`Unreadable` reports its error).
Source = Union[str, "os.PathLike[str]", IO[bytes], IO[str], "Unreadable"]

_GZIP_MAGIC = b"\x1f\x8b"
_BZ2_MAGIC = b"BZh"
_ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
_ZSTD_SKIPPABLE = b"\x2a\x4d\x18"  # bytes 1-3 of a skippable frame (byte 0 is 0x50-0x5f)
_XZ_MAGIC = b"\xfd7zXZ"
BOM = b"\xef\xbb\xbf"

#: Byte order marks of the wide Unicode encodings, longest first (UTF-32LE starts like UTF-16LE).
_WIDE_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)

#: File name endings that promise compressed data, and the format each names.
_COMPRESSED_NAMES: dict[str, str] = {".gz": "gzip", ".bz2": "bzip2", ".zst": "zstd", ".zstd": "zstd", ".xz": "xz"}


class InputError(OSError):
    """A source that cannot be read (to the end): bad magic bytes, truncated or corrupt data.
    Its message is complete (no exception type is added when it is reported)."""


class TrailingData(InputError):
    """Bytes after the last whole member of a compressed file that start no member (a
    download with something appended): everything before them was read to its clean end, so
    the last game is whole (``zcat`` keeps it too, and warns of "trailing garbage")."""


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A path that searching a folder could not read (:func:`walk_pgn_files`); read as a source
    it reports ``error`` (a ``pgn.io`` diagnostic naming ``path``)."""

    path: Path
    error: OSError

    def __str__(self) -> str:
        return str(self.path)


def require_existing(source: Any) -> None:
    """The error contract of the library's public readers (``read_games``, ``to_frames``,
    ``validate``...), raised when they are called, for a wrong argument rather than bad data:
    ``FileNotFoundError`` for a path (not ``-``) that does not exist; ``TypeError`` for what is
    neither a path (``str``, ``os.PathLike``) nor an open file (an object with ``read``);
    ``ValueError`` for a closed file, binary or text. (A fault later in a stream stays a
    ``pgn.io`` diagnostic, and the command line reports a missing path as one.)"""
    if isinstance(source, (str, os.PathLike)):
        if str(source) != "-" and not os.path.exists(source):
            raise FileNotFoundError(2, "No such file or directory", str(source))
        return
    if isinstance(source, Unreadable):
        return
    if not callable(getattr(source, "read", None)):
        raise TypeError(f"a source is a path (str or os.PathLike), '-' or an open file, not {type(source).__name__}")
    if getattr(source, "closed", False) is True:
        raise ValueError("I/O operation on closed file.")


def source_name(source: Any) -> str | None:
    """A display name for ``source``: the path, ``<stdin>``, or a handle's ``name``; always
    text that can be written out (:func:`display_path`)."""
    if isinstance(source, (str, os.PathLike)):
        text = os.fspath(source)
        if isinstance(text, bytes):
            text = os.fsdecode(text)
        return "<stdin>" if text == "-" else display_path(text)
    if isinstance(source, Unreadable):
        return display_path(os.fspath(source.path))
    name = getattr(source, "name", None)
    return display_path(name) if isinstance(name, str) else None


def display_path(path: str) -> str:
    """``path`` as text that can be written as UTF-8: a file name that is not UTF-8 comes from
    the system with its bytes as lone surrogates (``\\udcff``), which no output, table or
    Parquet file takes; each such byte is shown as U+FFFD."""
    if path.isascii():
        return path
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return path.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return path


def _compression(head: bytes) -> str | None:
    """The compression format that ``head`` (the first bytes of a stream) starts, if any."""
    if head.startswith(_GZIP_MAGIC):
        return "gzip"
    if head.startswith(_BZ2_MAGIC) and head[3:4].isdigit():
        return "bzip2"
    if head.startswith(_XZ_MAGIC):
        return "xz"
    if head.startswith(_ZSTD_MAGIC) or (head[1:4] == _ZSTD_SKIPPABLE and 0x50 <= head[0] <= 0x5F):
        return "zstd"
    return None


#: Control bytes that text (PGN in any single-byte or UTF-8 encoding) does not hold.
_CONTROL = bytes(b for b in range(32) if b not in b"\t\n\r\x0c\x1a\x1b")


def wide_encoding(head: bytes) -> str | None:
    """The UTF-16 or UTF-32 encoding of a stream that starts with ``head``, if it is one: by its
    byte order mark (when NUL bytes follow it), else by the NUL bytes that ASCII text takes in it
    (up to 16 bytes looked at: a PGN file starts with ASCII, a tag, a move number or a comment)."""
    found = next(((bom, enc) for bom, enc in _WIDE_BOMS if head.startswith(bom)), None)
    if found is not None:
        # the ASCII a PGN file holds takes NUL bytes in UTF-16/32: a "mark" followed by none is
        # two stray bytes before 8-bit text, not an encoding
        rest = head[len(found[0]) : len(found[0]) + 16]
        return found[1] if len(rest) < 2 or b"\x00" in rest else None
    size = min(len(head) // 4 * 4, 16)
    if not size:
        return None
    zero = [byte == 0 for byte in head[:size]]
    for name, pattern in _WIDE_PATTERNS:
        if all(z == pattern[i % len(pattern)] for i, z in enumerate(zero)):
            return name
    return None


#: Where ASCII text puts NUL bytes in the BOM-less wide encodings (True: a NUL).
_WIDE_PATTERNS: tuple[tuple[str, tuple[bool, ...]], ...] = (
    ("utf-32-le", (False, True, True, True)),
    ("utf-32-be", (True, True, True, False)),
    ("utf-16-le", (False, True)),
    ("utf-16-be", (True, False)),
)


def _looks_like_text(head: bytes) -> bool:
    """Whether the first bytes of a stream read as text (no NUL, hardly any control bytes), or
    are UTF-16/32 text (:func:`wide_encoding`)."""
    if head.startswith(BOM) or wide_encoding(head) is not None:
        return True
    controls = len(head) - len(head.translate(None, _CONTROL))
    return b"\0" not in head and controls * 100 <= len(head)


def _promised(name: str | None) -> str | None:
    """The compression format a file name promises (``games.pgn.gz``: gzip), if any."""
    if not name:
        return None
    lower = name.lower()
    return next((fmt for suffix, fmt in _COMPRESSED_NAMES.items() if lower.endswith(suffix)), None)


def _binary_read(raw: Any, name: str | None) -> Callable[[int], bytes]:
    """``read(n)`` for a binary stream, decompressing what its magic bytes call for. Raises
    :class:`InputError` when ``name`` promises compressed data and the stream holds neither
    that nor text."""
    buffered: Any = raw if callable(getattr(raw, "peek", None)) else io.BufferedReader(raw)
    head = buffered.peek(6)[:6]
    kind = _compression(head)
    if kind is not None:
        return _Inflate(_reader(buffered), kind).read
    promised = _promised(name)
    if promised is not None:
        start = buffered.peek(1024)[:1024]
        if not _looks_like_text(start):
            shown = " ".join(f"{b:02x}" for b in start[:4])
            raise InputError(f"not {promised} data: the file starts with the bytes {shown}, not a {promised} header")
    return _reader(buffered)


def is_input_file(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is something to read as one input: anything that exists and is no
    folder -- a regular file, a named pipe (FIFO), ``/dev/stdin``, a character device."""
    try:
        return os.path.exists(path) and not os.path.isdir(path)
    except (OSError, ValueError):
        return False


def is_plain_file(source: Any) -> bool:
    """Whether ``source`` is a path to a regular file read as it is stored: not ``"-"``, not a
    handle, no compression by :func:`open_source`'s magic-byte rule and no UTF-16/32 byte order
    mark (so byte offsets in the games it reads are offsets in the file, and a byte range of it
    can be read alone)."""
    if not isinstance(source, (str, os.PathLike)) or os.fspath(source) == "-":
        return False
    try:
        if not os.path.isfile(source):
            return False
        with open(source, "rb") as handle:
            head = handle.read(16)
    except OSError:
        return False
    return _compression(head) is None and wide_encoding(head) is None


@contextmanager
def open_source(source: Source) -> Iterator[tuple[SafeRead, str | None]]:
    """Yield ``(read, name)``: ``read(n)`` returns the next bytes (str for text handles), empty
    (or None) at the end, decompressed and made uniform as the module says; a read error ends
    the input and is kept in ``read.error``, after everything read before it.

    Paths are opened (and closed afterwards); handles are read but left open. Raises
    ``OSError`` when a path cannot be opened or holds no data of the kind its name promises
    (the reader turns that into ``pgn.io``).
    """
    name = source_name(source)
    if isinstance(source, Unreadable):
        raise source.error
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        if path == "-":
            yield SafeRead(_binary_read(sys.stdin.buffer, None)), name
            return
        handle = open(Path(path), "rb")  # noqa: SIM115 - closed below
        try:
            yield SafeRead(_binary_read(handle, name)), name
        finally:
            handle.close()
        return
    if _is_text(source):
        yield SafeRead(source.read), name
        return
    yield SafeRead(_binary_read(source, name)), name


def _reader(stream: IO[bytes]) -> Callable[[int], bytes]:
    """``read1`` when the stream has it (returns what is available: games from a pipe come out
    as they arrive), else ``read``; counted in the :class:`ReadMeter` of :func:`metered_reads`
    if one is installed."""
    read1 = getattr(stream, "read1", None)
    read: Callable[[int], bytes] = read1 if callable(read1) else stream.read
    meter = _METER.get()
    if meter is None:
        return read

    def counted(size: int) -> bytes:
        data = read(size)
        meter.bytes += len(data)
        return data

    return counted


@dataclass
class ReadMeter:
    """How much the readers have taken in: ``bytes`` of binary sources as they are stored
    (before decompression; text handles are not counted) and ``games`` split from them.
    Read by a progress display, possibly from another thread (plain integer reads)."""

    bytes: int = 0
    games: int = 0


_METER: ContextVar[ReadMeter | None] = ContextVar("notation_read_meter", default=None)


@contextmanager
def metered_reads() -> Iterator[ReadMeter]:
    """Count what every source opened in this context reads (see :class:`ReadMeter`).

    The meter follows the reading thread's context: readers started inside the ``with`` block
    in this thread are counted, worker processes are not (their parent does the reading)."""
    meter = ReadMeter()
    token = _METER.set(meter)
    try:
        yield meter
    finally:
        _METER.reset(token)


def current_meter() -> ReadMeter | None:
    """The meter of the enclosing :func:`metered_reads`, if any."""
    return _METER.get()


#: Bytes that tell a compressed member's start (:func:`_compression` looks at no more).
_MAGIC_BYTES = 6

#: Compressed bytes read at a time (zstd: see :class:`_Inflate`).
_INPUT = 1 << 16
_ZSTD_INPUT = 1 << 11


def _decompressor(kind: str) -> Any:
    if kind == "gzip":
        return zlib.decompressobj(16 + zlib.MAX_WBITS)
    if kind == "bzip2":
        return bz2.BZ2Decompressor()
    if kind == "xz":
        return lzma.LZMADecompressor()
    import zstandard

    return zstandard.ZstdDecompressor().decompressobj()


class _Inflate:
    """``read(n)``: the decompressed bytes of a gzip, bzip2, xz or zstd stream, member after
    member (zero padding between members is skipped), with the incremental decompressors.

    Everything that decodes is returned; then a failure raises :class:`InputError`: compressed
    data that ends inside a member (a truncated file), or that does not decode (corrupt data,
    or bytes after the last member that start none). Output per call is bounded by ``n`` (gzip,
    bzip2, xz: ``max_length``); zstd's decompressor has no such bound, so it is fed
    ``_ZSTD_INPUT`` bytes at a time (2 KiB: at most 64 MiB out, from blocks of repeated bytes;
    about 5:1 for PGN).
    """

    __slots__ = ("_consumed", "_d", "_done", "_ended", "_input", "_kind", "_pending", "_raw", "_step_in")

    def __init__(self, raw: Callable[[int], bytes], kind: str) -> None:
        self._raw = raw
        self._kind = kind
        self._d: Any = None  # the current member's decompressor (None between members)
        self._input = b""  # compressed bytes not yet given to a decompressor
        self._consumed = 0  # compressed bytes read so far
        self._pending: Exception | None = None  # raised at the next call (data came first)
        self._done = False
        self._ended = False  # a member has ended cleanly
        self._step_in = _ZSTD_INPUT if kind == "zstd" else _INPUT

    def read(self, size: int) -> bytes:
        if self._pending is not None:
            error, self._pending = self._pending, None
            self._done = True
            raise error
        out: list[bytes] = []
        have = 0
        try:
            while have < size and not self._done:
                piece = self._step(size - have)
                if piece:
                    out.append(piece)
                    have += len(piece)
        except Exception as error:  # noqa: BLE001 - kept for the next call: the data comes first
            self._done = True
            if not out:
                raise
            self._pending = error
        return out[0] if len(out) == 1 else b"".join(out)

    def _fill(self) -> bool:
        data = self._raw(self._step_in)
        if not data:
            return False
        self._consumed += len(data)
        self._input += data
        return True

    def _step(self, limit: int) -> bytes:
        if self._d is None:  # between members: the next one, padding, or the end
            self._input = self._input.lstrip(b"\0")
            if not self._input:
                if not self._fill():
                    self._done = True
                return b""
            while len(self._input) < _MAGIC_BYTES and self._fill():
                pass
            if self._ended and _compression(self._input) != self._kind:
                after = self._consumed - len(self._input)
                raise TrailingData(
                    f"the bytes after the end of the {self._kind} data (from compressed byte {after}) "
                    f"are not {self._kind} data; they were not read"
                )
            self._d = _decompressor(self._kind)
        d = self._d
        if not self._input and getattr(d, "needs_input", True) and not self._fill():
            out = self._feed(d, b"", limit)  # what the decompressor still holds, then the error
            if out or self._d is None:
                return out
            raise InputError(
                f"the {self._kind} data ends early: it is truncated after {self._consumed} compressed bytes"
            )
        return self._feed(d, self._input, limit)

    def _feed(self, d: Any, data: bytes, limit: int) -> bytes:
        try:
            if self._kind == "gzip":
                out: bytes = d.decompress(data, limit)
                self._input = d.unconsumed_tail
            elif self._kind == "zstd":
                out = d.decompress(data)
                self._input = b""
            else:
                out = d.decompress(data, limit)
                self._input = b""
        except Exception as error:  # noqa: BLE001 - zlib.error, OSError, LZMAError, ZstdError
            raise InputError(
                f"the {self._kind} data is corrupt after {self._consumed} compressed bytes "
                f"({type(error).__name__}: {error})"
            ) from None
        if d.eof:  # the input after the member (zlib may leave the same bytes in unconsumed_tail)
            self._input = d.unused_data
            self._d = None
            self._ended = True
        return out


class SafeRead:
    """A ``read(n)`` that turns a failure (truncated or corrupt compressed data, an undecodable
    text handle, an I/O error) into the end of the input, keeping the error in ``error``.

    It also makes the text uniform (see the module docstring): a UTF-16/32 byte order mark at
    the start switches to transcoding into UTF-8, and a lone CR becomes LF (a CR at the end of a
    block waits for the next block, to tell CRLF apart).
    """

    __slots__ = ("_carry", "_cr", "_decoder", "_first", "_lf", "_read", "_source", "error", "trailing")

    def __init__(self, read: Callable[[int], Any]) -> None:
        self._read = read
        self._source = read
        self.error: str | None = None
        self.trailing = False  # the error is data after the clean end of the input (TrailingData)
        self._first = True
        self._carry = False  # a CR held back from the end of the last block
        self._cr: Any = b"\r"
        self._lf: Any = b"\n"
        self._decoder: Any = None

    def __call__(self, size: int) -> Any:
        if self.error is not None:
            return None
        try:
            data = self._start(size) if self._first else self._read(size)
        except Exception as error:  # noqa: BLE001 - the I/O boundary: bad input never raises
            self.error = str(error) if isinstance(error, InputError) else f"{type(error).__name__}: {error}"
            self.trailing = isinstance(error, TrailingData)
            data = None
        if self._carry:
            self._carry = False
            if not data:
                return self._lf  # a CR that ends the input
            data = (self._cr if data[:1] == self._lf else self._lf) + data
        if data and self._cr in data:
            return self._line_ends(data, size)
        return data

    def _line_ends(self, data: Any, size: int) -> Any:
        if data[-1:] == self._cr:
            self._carry = True
            data = data[:-1]
            if not data:
                return self(size)
        lone = _LONE_CR_BYTES if isinstance(data, bytes) else _LONE_CR_STR
        if lone.search(data) is not None:  # CRLF alone (the usual case) is left as it is
            data = lone.sub(self._lf, data)
        return data

    def _start(self, size: int) -> Any:
        """The first block: text or bytes, and a wide Unicode encoding (:func:`wide_encoding`)."""
        self._first = False
        data = self._read(size)
        if isinstance(data, str):
            self._cr, self._lf = "\r", "\n"
            return data
        if not data or (data[:1] not in (b"\xff", b"\xfe", b"\x00") and data[1:2] not in (b"\x00", b"")):
            return data
        while len(data) < 16:
            more = self._read(size)
            if not more:
                break
            data += more
        encoding = wide_encoding(data)
        if encoding is None:
            return data
        self._decoder = codecs.getincrementaldecoder(encoding)("replace")
        self._read = self._transcoded
        return self._decoder.decode(data).encode("utf-8")

    def _transcoded(self, size: int) -> bytes:
        """The next UTF-8 bytes of a UTF-16/32 source."""
        while True:
            block = self._source(size)
            if not block:
                last: bytes = self._decoder.decode(b"", True).encode("utf-8")
                return last
            text = self._decoder.decode(block)
            if text:
                out: bytes = text.encode("utf-8")
                return out


_LONE_CR_BYTES = re.compile(b"\r(?!\n)")
_LONE_CR_STR = re.compile("\r(?!\n)")


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


def walk_pgn_files(path: str | os.PathLike[str]) -> list[Path | Unreadable]:
    """The PGN files under a directory (recursively, sorted by path; symlinked folders are not
    entered), or ``[path]`` for anything else. A folder that cannot be listed, or an entry whose
    type cannot be read, is an :class:`Unreadable` in its place in the order, never skipped."""
    root = Path(path)
    try:
        if not root.is_dir():
            return [root]
    except OSError as error:
        return [Unreadable(root, error)]
    found: list[Path | Unreadable] = []
    folders = [root]
    while folders:
        folder = folders.pop()
        try:
            with os.scandir(folder) as entries:
                listed = list(entries)
        except OSError as error:
            found.append(Unreadable(folder, error))
            continue
        for entry in listed:
            child = folder / entry.name
            try:
                if entry.is_dir(follow_symlinks=False):
                    folders.append(child)
                elif entry.name.lower().endswith(PGN_SUFFIXES) and entry.is_file():
                    found.append(child)
            except OSError as error:
                found.append(Unreadable(child, error))
    return sorted(found, key=lambda p: p.path.as_posix() if isinstance(p, Unreadable) else p.as_posix())


def unreadable_diagnostic(item: Unreadable) -> Diagnostic:
    """The located ``pgn.io`` diagnostic of a path :func:`walk_pgn_files` could not read."""
    why = item.error.strerror or str(item.error)
    return Diagnostic.make("pgn.io", f"cannot read: {why}; the games in it were not read", file=str(item.path))


@dataclass(frozen=True, slots=True)
class Input:
    """One path argument of a command, expanded (:func:`expand_paths`): the one reading of
    ``-``, files, folders and datasets that every command shares.

    ``kind``: ``stdin`` (``-``), ``file`` (anything to read as one input: a file, a pipe),
    ``folder`` (searched for PGN files), ``dataset`` (a folder the caller's ``dataset`` test
    accepts: not searched), ``missing`` (no such path) or ``unreadable`` (its type cannot be
    read). ``files``: a file's path; a folder's PGN files in path order, with an
    :class:`Unreadable` in place of what the search could not read; an unreadable path's
    :class:`Unreadable`.
    """

    given: str
    kind: str
    files: tuple[Path | Unreadable, ...] = ()

    @property
    def path(self) -> Path:
        return Path(self.given)

    @property
    def readable(self) -> list[Path]:
        """The files that can be read (:attr:`files` without the :class:`Unreadable` ones)."""
        return [f for f in self.files if not isinstance(f, Unreadable)]

    def unreadable(self) -> list[Diagnostic]:
        """The ``pgn.io`` diagnostics of what could not be read (:func:`unreadable_diagnostic`)."""
        return [unreadable_diagnostic(f) for f in self.files if isinstance(f, Unreadable)]


def expand_paths(
    paths: Iterable[str | os.PathLike[str]], *, dataset: Callable[[Path], bool] | None = None
) -> list[Input]:
    """Every argument of ``paths`` as an :class:`Input`, in the order given (``-`` each time it
    is given; no file is left out or merged: what to do with a missing path, an empty folder or
    a file named twice is the caller's choice)."""
    out: list[Input] = []
    for item in paths:
        given = os.fspath(item)
        if given == "-":
            out.append(Input(given, "stdin"))
            continue
        path = Path(given)
        try:
            if not path.exists():
                out.append(Input(given, "missing"))
            elif not path.is_dir():
                out.append(Input(given, "file", (path,)))
            elif dataset is not None and dataset(path):
                out.append(Input(given, "dataset"))
            else:
                out.append(Input(given, "folder", tuple(walk_pgn_files(path))))
        except (OSError, ValueError) as error:  # e.g. inside a folder that cannot be searched
            failure = error if isinstance(error, OSError) else OSError(str(error))
            out.append(Input(given, "unreadable", (Unreadable(path, failure),)))
    return out
