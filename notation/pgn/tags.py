"""Tag pairs: the regular expressions the reader needs, built from the grammar's tag terminals,
and reading the tags of a game's text (the headers-only mode of the reader uses these).

The syntax of a tag pair is written once, as ``TAG_PAIR`` and its parts in
``grammars/tokens.lark``; every regex here is assembled from those terminals at first use.
Malformed tag lines are read leniently (``pgn.bad-tag``); a game's tags that are not UTF-8
decode with the reader's CP1252/CP850 fallback (``pgn.encoding``).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from notation.diagnostics import Diagnostic
from notation.grammars import terminal_patterns
from notation.pgn.model import Game
from notation.pgn.sources import decode

if TYPE_CHECKING:  # pragma: no cover
    from notation.pgn.chunks import RawGame

_UNESCAPE = re.compile(r"\\(.)")


class TagPatterns:
    """The tag-pair regexes, built once from ``tokens.lark`` (see :func:`patterns`)."""

    def __init__(self) -> None:
        t = terminal_patterns("tokens")
        opening, name, space, string, closing = (
            f"(?:{t['TAG_OPEN']})",
            f"({t['TAG_NAME']})",
            f"(?:{t['TAG_SPACE']})",
            f"({t['TAG_STRING']})",
            f"(?:{t['TAG_CLOSE']})",
        )
        #: A well-formed tag pair; groups: name, string (with its quotes).
        self.pair = re.compile(opening + name + space + string + closing)
        #: A line holding one well-formed tag pair (MULTILINE); groups as ``pair``.
        self.line = re.compile("^[ \t]*" + opening + name + space + string + closing, re.MULTILINE)
        #: A tag-like line read leniently (unescaped quote inside, ``]`` missing); groups:
        #: name, value without its quotes.
        self.loose = re.compile("^[ \t]*" + opening + name + space + '"(.*)"' + "[ \t]*\\]?[ \t]*\r?$", re.MULTILINE)
        #: The text of a malformed tag line as the grammar's BAD_TAG token holds it; groups:
        #: name, value as far as it can be made out.
        self.bad = re.compile(opening + name + space + '"?(.*?)"?[ \t]*\\]?[ \t]*$')
        #: One line that starts a tag section for the reader's boundary split: a tag name after
        #: ``[`` then a quote, or a blank and a ``]`` at the end of the line (quotes missing).
        self.section_line = "[ \t]*" + opening + t["TAG_NAME"] + '(?:[ \t]*"[^\n]*|[ \t]+[^\n]*\\][ \t]*\r?)\n'


@lru_cache(maxsize=1)
def patterns() -> TagPatterns:
    """The tag-pair regexes (built on first use)."""
    return TagPatterns()


def unquote(string: str) -> str:
    """The value of a PGN string token (quotes removed, ``\\"`` and ``\\\\`` unescaped)."""
    value = string[1:-1]
    return _UNESCAPE.sub(r"\1", value) if "\\" in value else value


def tag_pairs(text: str) -> list[tuple[str, str]]:
    """Every well-formed tag pair in ``text`` as (name, value), in order (``dict()`` of them:
    the same values as the parser gives, the last value of a name winning)."""
    return [(name, unquote(string)) for name, string in patterns().pair.findall(text)]


def tags_from_text(text: str) -> dict[str, str]:
    """The well-formed tag pairs on the lines of a game's text (the last value of a name wins)."""
    return {match.group(1): unquote(match.group(2)) for match in patterns().line.finditer(text)}


def _tags_lenient(text: str) -> tuple[dict[str, str], int]:
    """Tags of a tags-only chunk; also the number of lines that were not well-formed."""
    tags: dict[str, str] = {}
    bad = 0
    regex = patterns()
    for raw_line in text.splitlines():
        match = regex.line.match(raw_line)
        if match is not None:
            tags[match.group(1)] = unquote(match.group(2))
            continue
        bad += 1
        loose = regex.loose.match(raw_line)
        if loose is not None and loose.group(1) not in tags:
            tags[loose.group(1)] = loose.group(2)
    return tags, bad


def headers_game(raw: RawGame) -> Game:
    """The :class:`Game` of a tags-only chunk of the reader: tags, no moves, no Lark."""
    data = raw.data
    bad_at: int | None = None
    if isinstance(data, bytes):
        text, encoding, bad_at = decode(data)
    else:
        text, encoding = data, "utf-8"
    pairs = tag_pairs(text)
    tags = dict(pairs)
    game = Game(file=raw.file, number=raw.number, line=raw.line, offset=raw.offset, tags=tags, encoding=encoding)
    lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    if len(pairs) != lines:
        tags2, bad = _tags_lenient(text)
        game.tags = tags2
        if bad:
            game.diagnostics.append(
                Diagnostic.make(
                    "pgn.bad-tag", f"{bad} malformed tag line(s)", file=raw.file, game=raw.number, line=raw.line
                )
            )
    where = {"file": raw.file, "game": raw.number}
    if bad_at is not None:
        message = f"tags are not valid UTF-8; decoded as {encoding}"
        game.diagnostics.append(Diagnostic.make("pgn.encoding", message, line=raw.line, **where))
    if raw.io_error is not None:
        game.diagnostics.append(
            Diagnostic.make(
                "pgn.io", f"reading stopped after this game: {raw.io_error}", file=raw.file, game=raw.number
            )
        )
    if raw.oversized:
        message = f"game of {raw.size} bytes is larger than the cap"
        game.diagnostics.append(Diagnostic.make("pgn.oversized-game", message, line=raw.line, column=1, **where))
    return game
