"""Streaming PGN reader: split a source into game chunks, then parse each chunk with Lark.

``split_games`` is the cheap boundary split (no Lark): a game starts at its first tag line; a
tag line starts a *new* game when movetext (any non-blank, non-tag line) or a blank line after
the tags came before it. So a missing blank line between a result and the next ``[Event``
(Chess.com exports) still splits, and an unterminated ``{`` or ``(`` never swallows the games
after it: the chunk ends at the next tag section. Memory is bounded by the largest game (two
games and one read block are held at most; ``max_game_bytes`` caps a game: bigger games are
reported with ``pgn.oversized-game``). Text before the first tag section that is only blank or
``%`` escape lines is skipped; other text there is a game without tags. A UTF-8 byte order mark
at the start of a line (files joined with ``cat``) is blank space, kept as spaces of its size.

``parse_raw_game`` turns one chunk into a :class:`notation.pgn.model.Game`; ``read_games`` is the
two together. Chunks are plain data, so a process pool can parse them (results are equal).

Locations: ``Game.line`` is the line of the game's first tag (1-based, in the file) and
``Game.offset`` its byte offset (character offset for text handles; for a UTF-16/32 source the
offset in its UTF-8 transcoding). Lines count ``\\n``; a lone ``\\r`` (old Mac files) is a line
end too (:class:`notation.pgn.sources.SafeRead` makes it ``\\n``), so CR, LF, CRLF and mixed
line ends give the same games and lines.

Read failures are yielded beside the games, as their own type
(:class:`notation.pgn.chunks.ReadFailure`), never as games: a source that cannot be read to the
end yields the games read whole, then a ``pgn.io`` failure located at the game where reading
stopped (:func:`_split`). A source with no PGN structure at all (prose, code, JSON, binary data:
see :mod:`notation.pgn.structure`) yields one ``pgn.not-pgn`` failure instead of its chunks
(:func:`_structured`), and so does a document of another format (Markdown, HTML, JSON...);
text before the first game of a PGN file is read as a game.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from notation.diagnostics import Diagnostic
from notation.pgn.chunks import Chunk, RawGame, ReadFailure
from notation.pgn.model import Game, MoveNode, Span
from notation.pgn.sources import (
    BOM,
    SafeRead,
    Source,
    current_meter,
    decode,
    open_source,
    require_existing,
    source_name,
)
from notation.pgn.structure import has_structure, not_pgn, other_format
from notation.pgn.tags import headers_game, patterns, tags_from_text

if TYPE_CHECKING:  # pragma: no cover
    from notation import _core

#: Default cap on one game's size in bytes (a game above it is reported, not parsed).
DEFAULT_MAX_GAME_BYTES = 32 * 1024 * 1024

#: The most bytes read with no game starting in them (no tag section, no game end followed by
#: text) before reading stops with one ``pgn.not-pgn``: an endless structureless stream
#: (``/dev/zero``, ``yes``) ends there. Never less than the game cap, so a game within the cap
#: is always read whole, its comments however long; far more than any real file holds between
#: two games.
MAX_STRUCTURELESS_BYTES = 64 * 1024 * 1024


@lru_cache(maxsize=2)
def _tag_section(binary: bool) -> Any:
    """A newline followed by one or more tag lines (a tag section), bytes or str; the tag line
    is :class:`notation.pgn.tags.TagPatterns`'s ``section_line``, built from the grammar."""
    line = patterns().section_line
    if binary:
        return re.compile(b"\\n(?:" + line.encode() + b")+")
    return re.compile("\\n(?:" + line + ")+")


def split_games(
    source: Source, *, max_game_bytes: int = DEFAULT_MAX_GAME_BYTES, max_structureless_bytes: int | None = None
) -> Iterator[Chunk]:
    """Split ``source`` into :class:`RawGame` chunks, one per game, streaming, with a
    :class:`ReadFailure` beside them where reading fails.

    A source that cannot be opened yields one ``pgn.io`` :class:`ReadFailure` (line 0). A source
    that cannot be read to the end (truncated or corrupt compressed data, an I/O error) yields
    every game read whole before the failure, then one :class:`ReadFailure` located where
    reading stopped: the game being read then (its number, first line and offset), which is not
    a game, since its end is missing; see :func:`_split`. A source with no PGN structure yields
    one ``not-pgn`` :class:`ReadFailure` (see :func:`_structured`), and so does an endless one:
    past ``max_structureless_bytes`` (default :data:`MAX_STRUCTURELESS_BYTES`, never less than
    ``max_game_bytes``) with no game starting, reading stops (see :func:`_split`).
    """
    return _chunks(source, max_game_bytes, tags_only=False, structureless=max_structureless_bytes)


def split_read(
    read: Callable[[int], Any],
    name: str | None,
    *,
    max_game_bytes: int = DEFAULT_MAX_GAME_BYTES,
    max_structureless_bytes: int | None = None,
) -> Iterator[Chunk]:
    """:func:`split_games` of a source already opened (``read`` as :func:`notation.pgn.sources.open_source`
    gives it, or a callable with the same ``error`` and ``trailing`` attributes), ``name`` its
    display name."""
    return _structured(read, name, max_game_bytes, False, max_structureless_bytes)


def _chunks(source: Source, cap: int, tags_only: bool, structureless: int | None = None) -> Iterator[Chunk]:
    meter = current_meter()
    try:
        with open_source(source) as (read, name):
            if meter is None:
                yield from _structured(read, name, cap, tags_only, structureless)
                return
            for raw in _structured(read, name, cap, tags_only, structureless):
                meter.games += 1
                yield raw
    except OSError as error:
        yield ReadFailure.io(str(error), file=source_name(source), number=1, line=0, offset=0)


def split_range(
    path: str | os.PathLike[str],
    start: int,
    end: int,
    *,
    number: int = 1,
    line: int = 1,
    name: str | None = None,
    max_game_bytes: int = DEFAULT_MAX_GAME_BYTES,
) -> Iterator[Chunk]:
    """The games in bytes ``[start, end)`` of the *uncompressed* file ``path``, exactly as
    :func:`split_games` yields them from the whole file (same text, number, line, offset).

    ``start`` must be where a game starts (a :class:`RawGame`'s ``offset``, or 0), ``number``
    and ``line`` that game's; ``end`` where a later game starts or the end of the file. The
    boundary split is :func:`split_games`'s own, run on the range: it needs no context from
    before a game's first tag line. ``name`` is the ``file`` the games carry (default: ``path``).
    Errors are reported as :func:`split_games` reports them (never raised).
    """
    display = source_name(path) if name is None else name
    try:
        with open(path, "rb") as handle:
            handle.seek(start)
            left = end - start

            def read_range(size: int) -> bytes:
                nonlocal left
                data = handle.read(min(size, left)) if left > 0 else b""
                left -= len(data)
                return data

            yield from _split(SafeRead(read_range), display, max_game_bytes, False, number - 1, line - 1, start)
    except OSError as error:
        yield ReadFailure.io(str(error), file=display, number=number, line=0, offset=0)


#: Leading chunks with no PGN structure that :func:`_structured` holds back to decide whether a
#: source is PGN at all: at most this many bytes (their sizes summed) and this many chunks.
HOLD_BYTES = 1 << 20
HOLD_CHUNKS = 64


class _Mode:
    """Whether :func:`_split` keeps only the tag lines of its chunks; :func:`_structured` turns
    this on (headers-only reading) once it no longer needs whole chunks."""

    __slots__ = ("tags_only",)

    def __init__(self, tags_only: bool) -> None:
        self.tags_only = tags_only


def _structured(
    read: Callable[[int], Any], name: str | None, cap: int, tags_only: bool, structureless: int | None = None
) -> Iterator[Chunk]:
    """:func:`_split`, with a source that is no PGN told apart (:mod:`notation.pgn.structure`).

    Leading chunks without PGN structure are held back, whole (also in tags-only mode), until
    a chunk with structure comes (unless the first of them begins like another format: Markdown,
    HTML, JSON...: then the source is that, one ``pgn.not-pgn``, and is not read on): then they
    are yielded exactly as :func:`_split` gives them (a preamble such as mail headers before
    the games, a bare move list) and the rest streams
    through untouched; so a real PGN file only costs a look at its first chunk. When the source
    ends first, they are replaced by one ``not-pgn`` :class:`ReadFailure`, numbered, located and quoted as the first of them. Past
    :data:`HOLD_BYTES` or :data:`HOLD_CHUNKS` they are let go (the first one's start is kept)
    and so are the structureless chunks after them: one ``pgn.not-pgn`` then names the lines up
    to the first chunk with structure (``in lines 1-N, which are skipped``), and the games from
    there on stream as usual. A read failure while chunks are held yields them as they are,
    then the failure: nothing is known of the rest.
    """
    mode = _Mode(False)
    chunks = _split(read, name, cap, mode if tags_only else False, structureless=structureless)
    held: list[RawGame] = []
    size = 0
    gone: RawGame | None = None  # past the caps: the first chunk, its text cut to the quote's need
    for raw in chunks:
        if isinstance(raw, RawGame) and not has_structure(raw.data):
            if gone is None and not held and (kind := other_format(raw.data)) is not None:
                yield _not_pgn(raw, None, kind)  # a document of another format: not read on
                return
            if gone is None:
                held.append(raw)
                size += raw.size
                if size <= HOLD_BYTES and len(held) <= HOLD_CHUNKS:
                    continue
                gone = held[0]
                gone.data = gone.data[:4096]  # enough for the quote and the binary check
                held = []
            continue
        mode.tags_only = tags_only  # decided: the next chunks are split as asked
        if gone is not None:
            yield _not_pgn(gone, max(gone.line, raw.line - 1))
        for chunk in held:
            yield _tag_lines(chunk) if tags_only else chunk
        yield _tag_lines(raw) if tags_only and isinstance(raw, RawGame) else raw
        yield from chunks
        return
    if gone is not None or held:
        yield _not_pgn(gone if gone is not None else held[0], None)


def _not_pgn(first: RawGame, upto: int | None, kind: str | None = None) -> ReadFailure:
    """The ``pgn.not-pgn`` failure for structureless text starting with chunk ``first``
    (``kind``: the format it is, see :func:`notation.pgn.structure.other_format`)."""
    problem = not_pgn(first.data, file=first.file, game=first.number, line=first.line, upto=upto, kind=kind)
    return ReadFailure("not-pgn", problem, first.file, first.number, first.line, first.offset, problem.message)


@lru_cache(maxsize=2)
def _tag_run(binary: bool) -> Any:
    """The tag lines at the start of a chunk (the boundary split's tag-line pattern)."""
    line = patterns().section_line
    return re.compile(b"(?:" + line.encode() + b")*") if binary else re.compile("(?:" + line + ")*")


def _tag_lines(raw: RawGame) -> RawGame:
    """A whole chunk made what tags-only splitting gives: its leading tag lines."""
    data = raw.data
    # a newline after the data: the last line of a file may lack its own
    ended: bytes | str = data + "\n" if isinstance(data, str) else data + b"\n"
    end = _tag_run(isinstance(data, bytes)).match(ended).end()
    raw.data = data[: min(end, len(data))]
    return raw


#: How much is read from the source at a time.
BLOCK = 1 << 18

#: A line longer than this (without a newline yet) is taken as movetext piece by piece; a line
#: that starts like a tag line (``[``) is waited for up to the game cap, and read as a tag.
LONG_LINE = 1 << 20


class _Chunk:
    """The game being assembled by :func:`_split`. ``tail``: the end of its movetext as
    :func:`_tail` keeps it, where :func:`_between_games` looks for the game's end."""

    __slots__ = ("late_text", "line", "newlines", "nontag", "offset", "oversized", "parts", "size", "tail")

    def __init__(self, line: int, offset: int) -> None:
        self.parts: list[bytes | str] = []
        self.size = 0
        self.newlines = 0
        self.line = line
        self.offset = offset
        self.nontag = False  # holds something besides its leading tag lines
        self.oversized = False
        self.tail: Any = b""
        self.late_text = False  # text that is not blank past the cap (not kept)


def _split(
    read: Callable[[int], Any],
    name: str | None,
    cap: int,
    tags_only: bool | _Mode = False,
    number: int = 0,
    lines: int = 0,
    offset: int = 0,
    *,
    structureless: int | None = None,
) -> Iterator[Chunk]:
    """The boundary split shared by :func:`split_games` and the headers-only fast path.

    Works on blocks: one regex match finds each *tag section* (a run of tag lines). A tag
    section starts a new game when the current game holds anything besides its own tag lines
    (movetext or a blank line). Only the current game and one block are held in memory; a game
    above ``cap`` keeps its first ``cap`` characters. With ``tags_only`` chunks keep only their
    tag lines (a :class:`_Mode` may switch that on between chunks). ``number``, ``lines`` and
    ``offset`` are the games, newlines and bytes before the start of ``read`` (a byte range of a
    file).

    When ``read`` fails (its ``error`` is set: a :class:`notation.pgn.sources.SafeRead`), what
    was read is split as if the input ended there (exactly the split of the readable prefix,
    as ``zcat`` gives it), and its last game is not yielded: the failure cut it, and nothing
    tells how much of it is missing (even text up to a result may have lost comments or the
    rest of its line). It becomes one :class:`ReadFailure` naming that game, its first line and
    offset, and the error. Nothing read at all: the chunk is the error alone (line 0).

    More than ``structureless`` bytes (default :data:`MAX_STRUCTURELESS_BYTES`; never less than
    ``cap``) read since the last game started (a tag section, or text after a game's end), with
    no game starting in them: the input is no PGN, or no longer (``/dev/zero``, ``yes``, a
    device, binary data appended): reading stops with one ``not-pgn`` :class:`ReadFailure`
    located where that text began. The games before it were yielded; the one being read, if
    any, is past the cap, so it was lost as a game anyway.
    """
    limit = max(MAX_STRUCTURELESS_BYTES if structureless is None else structureless, cap)
    first: Any = read(BLOCK)
    if not first:
        failure = getattr(read, "error", None)
        if failure is not None:
            yield ReadFailure.io(failure, file=name, number=number + 1, line=0, offset=offset)
        return
    binary = isinstance(first, bytes)
    nl: Any
    empty: Any
    line_bom: Any
    blank_bom: Any
    if not binary:
        nl, empty = "\n", ""
        bom_len = 1 if first.startswith("\ufeff") else 0
        line_bom, blank_bom = "\n\ufeff", "\n "
    else:
        nl, empty = b"\n", b""
        bom_len = 3 if first.startswith(BOM) else 0
        line_bom, blank_bom = b"\n" + BOM, b"\n   "  # the same size: offsets stay byte offsets
    holds = _substring_test(binary)
    # the games as the regions complete them; the state (the game being read, the counts) is the
    # splitter's: the compiled core's for bytes split whole (not in tags-only mode), else Python's
    split = _regions(name, cap, tags_only, number, lines, offset, binary)
    # ``pending`` starts with a sentinel newline when the scan point is at a line start, so that
    # every tag section is found as "newline + tag lines".
    pending: Any = nl + first[bom_len:]
    sentinel = 1
    pending_pos = offset + bom_len  # file offset of pending[sentinel]
    eof = False
    failed = False  # reading stopped on an error
    virtual_nl = False  # a newline added after the last line of the file
    searched = 0  # ``pending`` holds no newline before this index (a long line being waited for)

    while True:
        if not eof:
            block = read(BLOCK)
            if block:
                pending = pending + block
            else:
                eof = True
                # a failure: what was read is split as if it ended there, and the last game is cut
                # (unless the failure is data after the clean end of the input: then it is whole)
                failed = getattr(read, "error", None) is not None and not getattr(read, "trailing", False)
                if pending[-1:] != nl and len(pending) > sentinel:
                    pending = pending + nl
                    virtual_nl = True
        region_end = pending.rfind(nl, searched) + 1  # (no newline before ``searched``)
        if region_end <= sentinel:
            if eof:
                break
            if len(pending) <= LONG_LINE or (len(pending) <= cap and _opens_tag(pending[sentinel : sentinel + 64])):
                searched = len(pending)
                continue  # wait for the end of the line (a tag line is waited for up to the cap)
            region_end = len(pending)  # a huge line: one non-tag piece
        searched = 0
        region = pending[:region_end]
        if holds(region, line_bom):  # a byte order mark starting a line between games is blank space
            region = region.replace(line_bom, blank_bom)
        base = pending_pos - sentinel  # file offset of region[0]
        split, games = _region(split, region, sentinel, base)
        yield from games
        if region[region_end - 1 : region_end] == nl:
            pending = nl + pending[region_end:]
            sentinel = 1
        else:
            pending = pending[region_end:]
            sentinel = 0
        pending_pos = base + region_end
        if pending_pos - split.mark > limit and not (eof and len(pending) <= sentinel):
            chunk, number, mark_line = split.current(), split.number, split.mark_line
            kept = _kept(chunk, name, number + 1, empty)
            if kept is not None:  # a game, then only blank space: the game is yielded
                number += 1
                yield kept
                chunk, mark_line = None, kept.line + kept.data.count(nl) + 1
                mark = kept.offset + kept.size
            else:
                mark = split.mark
            yield _endless(chunk, name, number, mark_line, mark, limit, empty)
            return
        if eof and len(pending) <= sentinel:
            break
    chunk, number, consumed_nl = split.current(), split.number, split.consumed_nl
    if failed:
        yield _cut(read.error, chunk, name, number, consumed_nl, pending_pos)  # type: ignore[attr-defined]
        return
    if chunk is not None:
        number += 1
        raw = _raw(chunk, name, number, empty)
        if virtual_nl and raw.data[-1:] == nl:
            raw.data = raw.data[:-1]
            raw.size -= 1
        yield raw
    if getattr(read, "trailing", False):  # data after the clean end: reported after the last game
        yield _cut(read.error, None, name, number, consumed_nl + (chunk.newlines if chunk else 0), pending_pos)  # type: ignore[attr-defined]


class _Regions:
    """The boundary split of :func:`_split`, one region of whole lines at a time: the game
    being read (``chunk``), the games and newlines before it, and where the last game started
    or ended (``mark``, ``mark_line``: where a run of text without games is measured from). The
    compiled core's ``Regions`` is its twin for bytes (the same state and steps, the region
    scanned without the interpreter; a test holds the two equal), :func:`_regions` picks."""

    __slots__ = (
        "between",
        "cap",
        "chunk",
        "consumed_nl",
        "count",
        "empty",
        "mark",
        "mark_line",
        "mode",
        "name",
        "nl",
        "number",
        "sections",
    )

    def __init__(
        self, name: str | None, cap: int, mode: _Mode, number: int, lines: int, offset: int, binary: bool
    ) -> None:
        self.name, self.cap, self.mode = name, cap, mode
        self.nl: Any = b"\n" if binary else "\n"
        self.empty: Any = b"" if binary else ""
        self.chunk: _Chunk | None = None
        self.number = number
        self.consumed_nl = lines  # newlines before the current game (or before the scan point between games)
        self.mark, self.mark_line = offset, lines + 1  # where the last game started or ended (or reading started)
        self.sections = _section_spans(binary)
        self.count = _newline_count(binary)
        self.between = _game_end(binary)

    def current(self) -> _Chunk | None:
        """The game being read."""
        return self.chunk

    def region(self, region: Any, cur: int, base: int) -> Iterator[RawGame]:
        """The games completed in ``region``: ``region[cur:]`` is new text, at file offset
        ``base + cur``; ``region[:cur]`` is at most the newline before it (so that a tag
        section at its start is found)."""
        for found, end in self.sections(region):
            start = found + 1
            if start > cur:
                yield from self.feed(region[cur:start], base + cur)
            if self.chunk is not None and self.chunk.nontag:
                yield self.complete()
            if self.chunk is None:
                self.chunk = _Chunk(self.consumed_nl + 1, base + start)
                self.mark, self.mark_line = self.chunk.offset, self.chunk.line
            cur = end
            self.add(region[start:cur], True)
        if len(region) > cur:
            yield from self.feed(region[cur:], base + cur)

    def add(self, piece: bytes | str, is_tag: bool) -> None:
        """``piece`` added to the game being read (a tag section's, else movetext)."""
        chunk = self.chunk
        assert chunk is not None
        chunk.size += len(piece)
        chunk.newlines += self.count(piece)
        if not is_tag:
            chunk.nontag = True
            chunk.tail = _tail(chunk.tail or self.empty, piece, self.nl)
        tags_only = self.mode.tags_only
        if chunk.size > self.cap:
            room = self.cap - (chunk.size - len(piece))
            if not chunk.late_text and piece[max(room, 0) :].strip():
                chunk.late_text = True
            if not chunk.oversized:
                chunk.oversized = True
                if room > 0 and not tags_only:
                    chunk.parts.append(piece[:room])
        elif is_tag or not tags_only:
            chunk.parts.append(piece)

    def complete(self) -> RawGame:
        """The game being read, completed."""
        chunk = self.chunk
        assert chunk is not None
        self.number += 1
        self.consumed_nl += chunk.newlines
        self.chunk = None
        return _raw(chunk, self.name, self.number, self.empty)

    def feed(self, seg: Any, pos: int) -> Iterator[RawGame]:
        """Non-tag text at file offset ``pos``: the current game's, up to where it ended (a
        termination marker ending its line, then a blank line): text after that and before
        the next tag section (a damaged tag line, a block of NULs, another file's bytes) is
        located on its own, as a game without tags, never charged to the game before it."""
        while seg:
            if self.chunk is None:
                self.chunk, self.consumed_nl = _start(seg, pos, self.consumed_nl, self.nl)
                if self.chunk is None:
                    return
                self.mark, self.mark_line = self.chunk.offset, self.chunk.line
                skip = self.chunk.offset - pos
                seg, pos = seg[skip:], pos + skip
            tail = self.chunk.tail or self.empty
            found = self.between(tail + seg)
            if found is None:
                self.add(seg, False)
                return
            cut = found - len(tail)
            self.add(seg[:cut], False)
            yield self.complete()
            seg, pos = seg[cut:], pos + cut
            self.mark, self.mark_line = pos, self.consumed_nl + 1


class _CoreRegions:
    """The compiled core's ``Regions`` (:class:`_Regions`'s twin) as :func:`_split` uses it."""

    __slots__ = ("cap", "core", "name")

    def __init__(self, core: _core.Regions, name: str | None, cap: int) -> None:
        self.core, self.name, self.cap = core, name, cap

    @property
    def number(self) -> int:
        return self.core.number

    @property
    def consumed_nl(self) -> int:
        return self.core.consumed_nl

    @property
    def mark(self) -> int:
        return self.core.mark

    @property
    def mark_line(self) -> int:
        return self.core.mark_line

    def current(self) -> _Chunk | None:
        """The game being read, as :class:`_Regions` holds it."""
        fields = self.core.chunk()
        if fields is None:
            return None
        data, size, newlines, line, offset, nontag, oversized, tail, late_text = fields
        chunk = _Chunk(line, offset)
        chunk.parts = [data] if data else []
        chunk.size, chunk.newlines, chunk.nontag, chunk.oversized = size, newlines, nontag, oversized
        chunk.tail, chunk.late_text = tail, late_text
        return chunk

    def region(self, region: bytes, cur: int, base: int) -> list[RawGame]:
        """:meth:`_Regions.region` (raises the core's panic, the state left as before the call)."""
        return self.core.region(region, cur, base)

    def python(self) -> _Regions:
        """The Python twin in this state (a region the core panicked on is left to it)."""
        split = _Regions(self.name, self.cap, _Mode(False), self.number, self.consumed_nl, self.mark, True)
        split.chunk, split.mark_line = self.current(), self.mark_line
        return split


def _regions(
    name: str | None,
    cap: int,
    tags_only: bool | _Mode,
    number: int,
    lines: int,
    offset: int,
    binary: bool,
    *,
    compiled: bool = True,
) -> _Regions | _CoreRegions:
    """The splitter :func:`_split` starts with: the compiled core's for bytes split whole (a
    mode that may switch to tags only is Python's), else (or with ``compiled`` False: the tests
    and benchmarks that compare the two) :class:`_Regions`."""
    from notation.compiled import core_module

    core = core_module() if compiled and binary and tags_only is False else None
    if core is None:
        mode = tags_only if isinstance(tags_only, _Mode) else _Mode(tags_only)
        return _Regions(name, cap, mode, number, lines, offset, binary)
    try:
        return _CoreRegions(core.Regions(RawGame, name, cap, number, lines, offset, lines + 1), name, cap)
    except core.CorePanic:
        return _Regions(name, cap, _Mode(False), number, lines, offset, binary)


def _region(split: _Regions | _CoreRegions, region: Any, cur: int, base: int) -> tuple[_Regions | _CoreRegions, Any]:
    """The games ``split`` completes in ``region`` (see :meth:`_Regions.region`), and the
    splitter to go on with: a region the core panicked on goes to the Python twin, in the
    state the core left, and so does the rest of the input."""
    if isinstance(split, _Regions):
        return split, split.region(region, cur, base)
    from notation.compiled import core_module

    core = core_module()
    try:
        return split, split.region(region, cur, base)
    except core.CorePanic:  # type: ignore[union-attr]  # (a core, since ``split`` is its)
        twin = split.python()
        return twin, twin.region(region, cur, base)


#: The end of a chunk's movetext that :func:`_tail` keeps (enough for a termination marker).
_TAIL = 48


def _tail(tail: Any, piece: Any, nl: Any) -> Any:
    """The end of a game's text after ``piece`` follows the end ``tail`` kept before it: the
    end of its last non-blank line and, after it, at most two of its line ends (blank space
    in between dropped), so that a run of blank lines costs nothing to keep."""
    body = piece.rstrip()
    if not body:  # blank space only: more line ends after the same last line
        kept = tail.rstrip()
        return kept + nl * min(tail.count(nl, len(kept)) + piece.count(nl), 2)
    return body[-_TAIL:] + nl * min(piece.count(nl, len(body)), 2)


@lru_cache(maxsize=2)
def _between_games(binary: bool) -> Any:
    """Where a game ended and other text follows before the next tag section: a termination
    marker ending its line, a blank line, then a line with something on it; in bytes also a
    line that starts a UTF-16 text (reported by :func:`parse_raw_game`, ``pgn.utf16-inside``)."""
    pattern = r"(?<![^\s])(?:1-0|0-1|1/2-1/2|\*)[ \t\r]*\n(?:[ \t\r]*\n)+(?=[ \t\r]*[^\s])"
    if not binary:
        return re.compile(pattern)
    # bytes: a line that starts with a UTF-16 byte order mark (a UTF-16 file joined after) too
    return re.compile(pattern.encode() + rb"|\n(?=\xff\xfe|\xfe\xff)")


def _game_end(binary: bool) -> Callable[[Any], int | None]:
    """Where the first game of a text ends with other text after it (the end of
    :func:`_between_games`'s first match), or None. Bytes go to the compiled core's scan when
    it is on (the same search in one pass over the lines; a panic there leaves the search to
    the regex); text, or no core, to the regex."""
    search = _between_games(binary).search

    def by_regex(text: Any) -> int | None:
        found = search(text)
        return None if found is None else found.end()

    from notation.compiled import core_module

    core = core_module() if binary else None
    if core is None:
        return by_regex
    scan, panic = core.game_end, core.CorePanic

    def by_core(text: Any) -> int | None:
        try:
            return scan(text)
        except panic:
            return by_regex(text)

    return by_core


def _section_spans(binary: bool) -> Callable[[Any], list[tuple[int, int]]]:
    """The ``(start, end)`` of each tag section of a text (:func:`_tag_section`'s matches, in
    order). Bytes go to the compiled core's scan when it is on (the same lines, one pass; a
    panic there leaves the text to the regex); text, or no core, to the regex."""
    finditer = _tag_section(binary).finditer

    def by_regex(text: Any) -> list[tuple[int, int]]:
        return [match.span() for match in finditer(text)]

    from notation.compiled import core_module

    core = core_module() if binary else None
    if core is None:
        return by_regex
    scan, panic = core.tag_sections, core.CorePanic

    def by_core(text: Any) -> list[tuple[int, int]]:
        try:
            return scan(text)
        except panic:
            return by_regex(text)

    return by_core


def _newline_count(binary: bool) -> Callable[[Any], int]:
    """``text.count(newline)``: by the compiled core for bytes when it is on (a word at a time;
    a panic there leaves the count to ``bytes.count``)."""
    from notation.compiled import core_module

    core = core_module() if binary else None
    if core is None:
        return (lambda text: text.count(b"\n")) if binary else (lambda text: text.count("\n"))
    scan, panic = core.newlines, core.CorePanic

    def by_core(text: Any) -> int:
        try:
            return scan(text)
        except panic:
            return text.count(b"\n")  # type: ignore[no-any-return]

    return by_core


def _substring_test(binary: bool) -> Callable[[Any, Any], bool]:
    """``needle in text``: by the compiled core for bytes when it is on (``memmem``; a panic
    there leaves the test to ``in``)."""
    from notation.compiled import core_module

    core = core_module() if binary else None
    if core is None:
        return lambda text, needle: needle in text
    scan, panic = core.contains, core.CorePanic

    def by_core(text: Any, needle: Any) -> bool:
        try:
            return scan(text, needle)
        except panic:
            return needle in text

    return by_core


def _opens_tag(head: bytes | str) -> bool:
    """Whether a line starting with ``head`` may be a tag line (blanks, then ``[``)."""
    text = head.lstrip(b" \t") if isinstance(head, bytes) else head.lstrip(" \t")
    return text[:1] in (b"[", "[")


def _cut(error: str, chunk: _Chunk | None, name: str | None, number: int, consumed_nl: int, pos: int) -> ReadFailure:
    """The :class:`ReadFailure` of a read failure: located at the game being read (``chunk``),
    else after the last game."""
    if chunk is None:
        where = f"after game {number}" if number else "before any game"
        text = f"reading stopped at line {consumed_nl + 1}, {where}: {error}"
        return ReadFailure.io(text, file=name, number=number + 1, line=consumed_nl + 1, offset=pos)
    line, offset = chunk.line, chunk.offset
    text = f"reading stopped inside game {number + 1} (from line {line}), which was not read: {error}"
    return ReadFailure.io(text, file=name, number=number + 1, line=line, offset=offset)


def _kept(chunk: _Chunk | None, name: str | None, number: int, empty: bytes | str) -> RawGame | None:
    """The game of ``chunk`` without the blank space after it, when nothing but blank space
    followed it past the cap (None otherwise: its text was not all kept)."""
    if chunk is None or chunk.late_text:
        return None
    raw = _raw(chunk, name, number, empty)
    data = raw.data.rstrip()
    if not data:
        return None
    raw.data, raw.size, raw.oversized = data, len(data), False
    return raw


def _endless(
    chunk: _Chunk | None, name: str | None, number: int, line: int, mark: int, limit: int, empty: bytes | str
) -> ReadFailure:
    """The ``not-pgn`` :class:`ReadFailure` that stops :func:`_split` after ``limit`` bytes
    with no game starting: located at the text they began with (the game being read, else the
    line after the last game), quoting it."""
    head = _head(chunk.parts, 4096, empty) if chunk is not None else empty
    problem = not_pgn(head, file=name, game=number + 1, line=line, stopped=limit)
    return ReadFailure("not-pgn", problem, name, number + 1, line, mark, problem.message)


def _head(parts: list[Any], size: int, empty: bytes | str) -> Any:
    """The first ``size`` characters of the text of ``parts`` (joined only as far as needed)."""
    taken, held = [], 0
    for part in parts:
        if held >= size:
            break
        taken.append(part)
        held += len(part)
    return empty.join(taken)[:size]


@lru_cache(maxsize=2)
def _blanks(binary: bool) -> Any:
    """A run of blank space (what ``lstrip`` takes: ASCII blanks in bytes, Unicode ones in text)."""
    return re.compile(rb"\s*") if binary else re.compile(r"\s*")


def _start(seg: bytes | str, pos: int, consumed_nl: int, nl: bytes | str) -> tuple[_Chunk | None, int]:
    """Text before any game: blank lines and ``%`` escape lines are skipped, line by line (so
    however the blocks fall the same lines are skipped); the first other line starts a game
    with no tags. (A run of blank lines is passed over at once.)"""
    blanks = _blanks(isinstance(seg, bytes)).match
    at, skipped, size = 0, 0, len(seg)
    while at < size:
        text = blanks(seg, at).end()  # the first character that is not blank
        if text >= size:
            skipped += seg.count(nl, at, size)  # type: ignore[arg-type]
            break
        line = seg.rfind(nl, at, text) + 1 or at  # type: ignore[arg-type]
        skipped += seg.count(nl, at, line)  # type: ignore[arg-type]
        if seg[text : text + 1] not in ("%", b"%"):
            return _Chunk(consumed_nl + skipped + 1, pos + line), consumed_nl + skipped
        end = seg.find(nl, text)  # type: ignore[arg-type]
        if end < 0:
            break
        skipped += 1
        at = end + 1
    return None, consumed_nl + skipped


def _raw(chunk: _Chunk, name: str | None, number: int, empty: bytes | str) -> RawGame:
    return RawGame(
        data=empty.join(chunk.parts),  # type: ignore[arg-type]
        file=name,
        number=number,
        line=chunk.line,
        offset=chunk.offset,
        size=chunk.size,
        oversized=chunk.oversized,
    )


def parse_raw_game(raw: RawGame, *, use_cython: bool | None = None, failure: Diagnostic | None = None) -> Game:
    """Parse one chunk from :func:`split_games` into a :class:`Game` (never raises).
    ``failure``: the ``internal.error`` of a core that panicked on this game
    (:func:`notation.compiled.through_core`), kept first among the game's diagnostics."""
    game = _parse_raw_game(raw, use_cython)
    if failure is not None:
        game.diagnostics.insert(0, failure.located(file=raw.file, game=raw.number))
    return game


def _parse_raw_game(raw: RawGame, use_cython: bool | None) -> Game:
    from notation.pgn.parser import parse_game_text  # Lark and SAN: not needed by read_headers

    where = {"file": raw.file, "game": raw.number}
    if isinstance(raw.data, bytes) and raw.data[:2] in (b"\xff\xfe", b"\xfe\xff") and raw.offset > 0:
        # a UTF-16 file joined after this one: its games cannot be split from here; say where
        message = (
            "UTF-16 text from here to the end of the source (a file joined to this one?) is not read; "
            "read that file on its own"
        )
        problem = Diagnostic.make("pgn.utf16-inside", message, line=raw.line, column=1, **where)
        return Game(file=raw.file, number=raw.number, line=raw.line, offset=raw.offset, diagnostics=[problem])
    if isinstance(raw.data, str):
        text, encoding, bad = raw.data, "utf-8", None
    else:
        text, encoding, bad = decode(raw.data)
    if raw.oversized:
        game = Game(file=raw.file, number=raw.number, line=raw.line, offset=raw.offset, encoding=encoding)
        game.tags = tags_from_text(text)
        game.diagnostics.append(
            Diagnostic.make(
                "pgn.oversized-game",
                f"game of {raw.size} bytes is larger than the cap; its moves were not read",
                line=raw.line,
                column=1,
                **where,
            )
        )
    else:
        game = parse_game_text(
            text,
            file=raw.file,
            number=raw.number,
            line=raw.line,
            offset=raw.offset,
            encoding=encoding,
            use_cython=use_cython,
        )
    if raw.io_error is not None:
        game.diagnostics.append(
            Diagnostic.make("pgn.io", f"reading stopped after this game: {raw.io_error}", line=raw.line, **where)
        )
    if isinstance(raw.data, bytes) and encoding == "utf-8" and not raw.oversized and not text.isascii():
        _byte_offsets(game, text)
    if bad is not None:
        assert isinstance(raw.data, bytes)
        data = raw.data
        line_start = data.rfind(b"\n", 0, bad) + 1
        game.diagnostics.insert(
            0,
            Diagnostic.make(
                "pgn.encoding",
                f"not valid UTF-8 (byte 0x{data[bad]:02x}); the game was decoded as {encoding}",
                line=raw.line + data.count(b"\n", 0, bad),
                column=bad - line_start + 1,
                **where,
            ),
        )
    return game


def _byte_offsets(game: Game, text: str) -> None:
    """Make the moves' ``span.offset`` byte offsets in a UTF-8 game with non-ASCII text (the
    parser counts characters, which are bytes only for ASCII)."""
    nodes: list[MoveNode] = []
    pending = [game.moves]
    while pending:
        line = pending.pop()
        for node in line:
            nodes.append(node)
            pending.extend(node.variations)
    nodes.sort(key=lambda node: node.span.offset)
    base = game.offset
    chars = 0  # characters of ``text`` counted so far
    extra = 0  # bytes beyond one per character among them
    for node in nodes:
        span = node.span
        at = span.offset - base
        if at > chars:
            chunk = text[chars:at]
            extra += len(chunk.encode("utf-8")) - len(chunk)
            chars = at
        if extra:
            node.span = Span(span.line, span.column, span.offset + extra)


def read_games(
    source: Source,
    *,
    max_game_bytes: int = DEFAULT_MAX_GAME_BYTES,
    headers_only: bool = False,
    use_cython: bool | None = None,
) -> Iterator[Game | ReadFailure]:
    """Iterate the games of ``source`` (path, ``"-"`` for stdin, or an open handle), with a
    :class:`notation.pgn.chunks.ReadFailure` beside them where the source could not be read
    (to the end) or holds no PGN.

    ``headers_only=True`` is :func:`read_headers` (no movetext parsing, no Lark). A path that
    does not exist raises ``FileNotFoundError`` when iteration starts.
    """
    require_existing(source)
    if headers_only:
        yield from read_headers(source, max_game_bytes=max_game_bytes)
        return
    for raw in split_games(source, max_game_bytes=max_game_bytes):
        yield parse_raw_game(raw, use_cython=use_cython) if isinstance(raw, RawGame) else raw


def read_headers(source: Source, *, max_game_bytes: int = DEFAULT_MAX_GAME_BYTES) -> Iterator[Game | ReadFailure]:
    """Games with their tags only (moves empty, ``result`` None), read failures beside them:
    the headers-only mode of the reader, never Lark. Game numbers, ``line`` and ``offset`` equal those of :func:`read_games`
    (the same boundary split, keeping only tag lines)."""
    require_existing(source)
    for raw in _chunks(source, max_game_bytes, tags_only=True):
        yield headers_game(raw) if isinstance(raw, RawGame) else raw
