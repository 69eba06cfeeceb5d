"""The selection driver: read games, keep those that match, tell duplicates apart.

:func:`select` streams the games of its sources and yields one :class:`Selected` per game read
(selected or not, so a caller can count and report), in input order. Each game is read only as
far as its criteria need (:class:`notation.select.criteria.Subject`): with tags-only criteria no
game's moves are parsed at all; the games that are written are parsed once by the writer.
``unique=True`` plays the selected games' mainlines and marks every game that repeats an
earlier selected game as a duplicate (:mod:`notation.select.duplicates`).

:func:`filter_games` is the short form for Python: the selected games as
:class:`notation.pgn.model.Game` values.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from concurrent.futures import Executor
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, cast

from notation.pgn.chunks import Chunk, RawGame, ReadFailure
from notation.pgn.reader import split_games
from notation.pgn.sources import decode, source_name
from notation.pgn.tags import patterns, tag_pairs
from notation.select.criteria import Criteria, Subject
from notation.select.duplicates import DuplicateIndex

if TYPE_CHECKING:  # pragma: no cover
    from notation.pgn.model import Game
    from notation.pgn.sources import Source


@dataclass(slots=True)
class Selected:
    """One game read: ``selected`` when it matched, ``duplicate`` when it repeats an earlier
    selected game (only with ``unique``); ``subject`` gives its tags, parsed game and replay."""

    subject: Subject
    selected: bool
    duplicate: bool = False

    @property
    def raw(self) -> RawGame:
        return self.subject.raw

    @property
    def game(self) -> Game:
        return self.subject.game

    @property
    def io_failure(self) -> bool:
        """Reading the source stopped after this game."""
        return self.raw.io_error is not None


@lru_cache(maxsize=2)
def _header_end(binary: bool) -> Any:
    """The run of tag lines at the start of a chunk (the reader's own tag-line pattern)."""
    line = patterns().section_line
    return re.compile(b"(?:" + line.encode() + b")*") if binary else re.compile("(?:" + line + ")*")


def raw_header(raw: RawGame) -> bytes | str:
    """The chunk's leading tag lines (its tag section) as read."""
    data = raw.data
    return data[: _header_end(isinstance(data, bytes)).match(data).end()]


def header_tags(head: bytes | str) -> dict[str, str]:
    """The tags of a tag section: the same values as the parser gives for well-formed pairs."""
    text = head if isinstance(head, str) else decode(head)[0]
    return dict(tag_pairs(text))


def raw_tags(raw: RawGame) -> dict[str, str]:
    """The tags of a chunk, read from its leading tag lines only (no movetext is looked at)."""
    return header_tags(raw_header(raw))


def select(
    sources: Iterable[Source | tuple[Source, str]],
    criteria: Criteria | None = None,
    *,
    unique: bool = False,
) -> Iterator[Selected | ReadFailure]:
    """Every game of ``sources`` (paths, handles, ``"-"``; or (source, display name) pairs) with
    whether it is selected and, with ``unique``, whether it is a duplicate. Never raises on bad
    input: where a source cannot be read (to the end) or holds no PGN, its
    :class:`notation.pgn.chunks.ReadFailure` comes beside the games."""
    criteria = criteria if criteria is not None else Criteria()
    index = DuplicateIndex() if unique else None
    needles = criteria.needles()
    for item in sources:
        source, name = item if isinstance(item, tuple) else (item, None)
        display = name if name is not None else source_name(source)
        for raw in split_games(source):
            if isinstance(raw, ReadFailure):
                yield raw
                continue
            selected = _judge(raw, display, criteria, needles)
            if selected.selected and index is not None:
                selected.duplicate = index.seen(selected.subject.identity())
            yield selected


def _judge(raw: RawGame, display: str | None, criteria: Criteria, needles: Any) -> Selected:
    """One game read, selected or not (never a duplicate: that takes the games before it)."""
    head = raw_header(raw)
    if needles and isinstance(head, bytes) and Criteria.rejects_header(head, needles):
        # a name/event/site text occurs nowhere in the tags: no match, tags left unread
        # (read for --invert, which keeps the game)
        subject = Subject(raw, header_tags(head) if criteria.invert else {}, display)
        return Selected(subject, criteria.invert)
    subject = Subject(raw, header_tags(head), display)
    return Selected(subject, criteria.matches(subject))


def written_text(item: Selected, verbatim: bool) -> str:
    """A selected game as written out: its text as read (``verbatim``), or the export format."""
    from notation.pgn.writer import write_game

    if verbatim:
        text: str = item.raw.text.replace("\r\n", "\n").strip("\n")
        return text + "\n"
    return write_game(item.game)


@dataclass(slots=True)
class Written:
    """One game read, as :func:`select_written` gives it: ``text`` is the game as written out
    when it is ``selected``; ``failed`` the reader's chunk when the source (or the rest of it)
    could not be read (the game, if any, is still judged)."""

    selected: bool
    duplicate: bool = False
    text: str | None = None
    failed: Chunk | None = None  # a read failure, or a game after which reading stopped
    identity: bytes | None = None


def select_written(
    sources: Iterable[tuple[Source, str]],
    criteria: Criteria,
    *,
    unique: bool = False,
    verbatim: bool = False,
    executor: Executor | None = None,
) -> Iterator[Written]:
    """:func:`select` with each selected game's text (:func:`written_text`), the games judged
    chunk by chunk, in the workers of ``executor`` when given (:mod:`notation.parallel`):
    the same games, texts and duplicates in the same order either way."""
    from notation.parallel import chunks, ordered_map

    def tasks() -> Iterator[tuple[list[Chunk], str, Criteria, bool, bool]]:
        for source, display in sources:
            for chunk in chunks(split_games(source)):
                yield chunk, display, criteria, unique, verbatim

    index = DuplicateIndex() if unique else None
    for results in ordered_map(judge_chunk, tasks(), executor):
        for written in results:
            if written.selected and index is not None and written.identity is not None:
                written.duplicate = index.seen(written.identity)
                written.identity = None
            yield written


def judge_chunk(task: tuple[list[Chunk], str, Criteria, bool, bool]) -> list[Written]:
    """The :class:`Written` of each game of one chunk: ``(raw games, display name, criteria,
    unique, verbatim)``; with ``unique`` a selected game carries its duplicate identity."""
    raws, display, criteria, unique, verbatim = task
    needles = criteria.needles()
    out: list[Written] = []
    for raw in raws:
        if isinstance(raw, ReadFailure):
            out.append(Written(False, failed=raw))
            continue
        item = _judge(raw, display, criteria, needles)
        failed = raw if item.io_failure else None
        if not item.selected:
            out.append(Written(False, failed=failed))
            continue
        identity = item.subject.identity() if unique else None
        out.append(Written(True, text=written_text(item, verbatim), failed=failed, identity=identity))
    return out


def source_list(sources: Source | Iterable[Source]) -> list[Source]:
    """One source (path, handle, ``"-"``) or several, as a list."""
    if isinstance(sources, (str, os.PathLike)) or hasattr(sources, "read"):
        return [cast("Source", sources)]
    return list(cast("Iterable[Source]", sources))


def filter_games(
    sources: Source | Iterable[Source],
    criteria: Criteria | None = None,
    *,
    unique: bool = False,
) -> Iterator[Game]:
    """The selected games (duplicates left out with ``unique``) of one source or several."""
    for item in select(source_list(sources), criteria, unique=unique):
        if isinstance(item, Selected) and item.selected and not item.duplicate:
            yield item.game
