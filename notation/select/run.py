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
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, cast

from notation.pgn.reader import RawGame, split_games
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
        """The source (or the rest of it) could not be read."""
        return self.raw.size == -1 or self.raw.io_error is not None


@lru_cache(maxsize=2)
def _header_end(binary: bool) -> Any:
    """The run of tag lines at the start of a chunk (the reader's own tag-line pattern)."""
    line = patterns().section_line
    return re.compile(b"(?:" + line.encode() + b")*") if binary else re.compile("(?:" + line + ")*")


def raw_header(raw: RawGame) -> bytes | str:
    """The chunk's leading tag lines (its tag section) as read."""
    if raw.size == -1:
        return b""
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
) -> Iterator[Selected]:
    """Every game of ``sources`` (paths, handles, ``"-"``; or (source, display name) pairs) with
    whether it is selected and, with ``unique``, whether it is a duplicate. Never raises on bad
    input: an unreadable source is one unselected game whose ``io_failure`` is set."""
    criteria = criteria if criteria is not None else Criteria()
    index = DuplicateIndex() if unique else None
    needles = criteria.needles()
    for item in sources:
        source, name = item if isinstance(item, tuple) else (item, None)
        display = name if name is not None else source_name(source)
        for raw in split_games(source):
            if raw.size == -1:
                yield Selected(Subject(raw, {}, display), False)
                continue
            head = raw_header(raw)
            if needles and isinstance(head, bytes) and Criteria.rejects_header(head, needles):
                # a name/event/site text occurs nowhere in the tags: no match, tags left unread
                # (read for --invert, which keeps the game)
                subject = Subject(raw, header_tags(head) if criteria.invert else {}, display)
                chosen = criteria.invert
            else:
                subject = Subject(raw, header_tags(head), display)
                chosen = criteria.matches(subject)
            duplicate = False
            if chosen and index is not None:
                duplicate = index.seen(subject.identity())
            yield Selected(subject, chosen, duplicate)


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
        if item.selected and not item.duplicate:
            yield item.game
