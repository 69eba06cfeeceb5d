"""Headers-only fast path: the tag sections of every game, without parsing movetext or Lark.

It uses the reader's boundary split (so game numbers, lines and offsets are the same as
``read_games``) keeping only tag lines, then one regex scan per game. Malformed tag lines are
read leniently (``pgn.bad-tag``), non-UTF-8 tags decode as CP1252/Latin-1 (``pgn.encoding``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from notation.diagnostics import Diagnostic
from notation.pgn.model import Game
from notation.pgn.sources import Source, decode

if TYPE_CHECKING:  # pragma: no cover
    from notation.pgn.reader import RawGame

_TAG = re.compile(r'^[ \t]*\[[ \t]*([A-Za-z0-9_][A-Za-z0-9_+#=:-]*)[ \t]*"([^"\\\r\n]*(?:\\.[^"\\\r\n]*)*)"[ \t]*\]', re.MULTILINE)
_LOOSE = re.compile(r'^[ \t]*\[[ \t]*([A-Za-z0-9_][A-Za-z0-9_+#=:-]*)[ \t]*"(.*)"[ \t]*\]?[ \t]*\r?$', re.MULTILINE)
_UNESCAPE = re.compile(r"\\(.)")
_PAIR = re.compile(r'\[[ \t]*([A-Za-z0-9_][A-Za-z0-9_+#=:-]*)[ \t]*"([^"\\\r\n]*(?:\\.[^"\\\r\n]*)*)"[ \t]*\]')


def tags_from_text(text: str) -> dict[str, str]:
    """The tag pairs at the start of a game's text (well-formed ones; last value wins)."""
    tags: dict[str, str] = {}
    for match in _TAG.finditer(text):
        value = match.group(2)
        if "\\" in value:
            value = _UNESCAPE.sub(r"\1", value)
        tags[match.group(1)] = value
    return tags


def _tags_lenient(text: str) -> tuple[dict[str, str], int]:
    """Tags of a tags-only chunk; also the number of lines that were not well-formed."""
    tags: dict[str, str] = {}
    bad = 0
    for raw_line in text.splitlines():
        match = _TAG.match(raw_line)
        if match is not None:
            value = match.group(2)
            if "\\" in value:
                value = _UNESCAPE.sub(r"\1", value)
            tags[match.group(1)] = value
            continue
        bad += 1
        loose = _LOOSE.match(raw_line)
        if loose is not None and loose.group(1) not in tags:
            tags[loose.group(1)] = loose.group(2)
    return tags, bad


def read_headers(source: Source, *, max_game_bytes: int = 32 * 1024 * 1024) -> Iterator[Game]:
    """One :class:`Game` per game of ``source`` with ``tags`` filled in (moves empty, result None).

    Game numbering, ``line`` and ``offset`` equal those of ``notation.read_games``.
    """
    from notation.pgn.reader import _chunks

    for raw in _chunks(source, max_game_bytes, tags_only=True):
        yield _headers_game(raw)


def _headers_game(raw: RawGame) -> Game:
    if raw.size == -1:
        message = f"cannot read the source: {raw.data!s}"
        return Game(file=raw.file, number=1, line=0, diagnostics=[Diagnostic.make("pgn.io", message, file=raw.file, game=1)])
    data = raw.data
    bad_at: int | None = None
    if isinstance(data, bytes):
        text, encoding, bad_at = decode(data)
    else:
        text, encoding = data, "utf-8"
    pairs = _PAIR.findall(text)
    tags = dict(pairs)
    if "\\" in text:
        tags = {key: _UNESCAPE.sub(r"\1", value) if "\\" in value else value for key, value in tags.items()}
    game = Game(file=raw.file, number=raw.number, line=raw.line, offset=raw.offset, tags=tags, encoding=encoding)
    lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    if len(pairs) != lines:
        tags2, bad = _tags_lenient(text)
        game.tags = tags2
        if bad:
            game.diagnostics.append(
                Diagnostic.make("pgn.bad-tag", f"{bad} malformed tag line(s)", file=raw.file, game=raw.number, line=raw.line)
            )
    if bad_at is not None:
        game.diagnostics.append(
            Diagnostic.make(
                "pgn.encoding",
                f"tags are not valid UTF-8; decoded as {encoding}",
                file=raw.file,
                game=raw.number,
                line=raw.line,
            )
        )
    if raw.io_error is not None:
        game.diagnostics.append(
            Diagnostic.make("pgn.io", f"reading stopped after this game: {raw.io_error}", file=raw.file, game=raw.number)
        )
    if raw.oversized:
        game.diagnostics.append(
            Diagnostic.make(
                "pgn.oversized-game",
                f"game of {raw.size} bytes is larger than the cap",
                file=raw.file,
                game=raw.number,
                line=raw.line,
                column=1,
            )
        )
    return game
