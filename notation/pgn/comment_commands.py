"""Comment commands (PGN specification supplement): ``[%clk]``, ``[%emt]``, ``[%eval]``,
``[%csl]`` and ``[%cal]`` embedded in brace comments, parsed to typed values; also the
White-view value ``wv=`` of engine comments (TCEC, cutechess), see :func:`engine_evaluation`.

These functions take the comment list of a :class:`notation.pgn.model.MoveNode` and return the
value of the *first* command of that kind (or all arrows/highlights). Malformed commands are
ignored (None / empty list), never raised. Squares are ints, ``a1 = 0 … h8 = 63``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

#: Any comment command (``[%name ...]``), for removing commands from a comment's text.
COMMAND_PATTERN = re.compile(r"\[%[^\]]*\]")
#: ``[%clk h:mm:ss(.f)]``; groups: hours, minutes, seconds (None for ``h:mm``).
CLOCK_PATTERN = re.compile(r"\[%clk\s+(\d+):(\d{1,2})(?::(\d{1,2}(?:\.\d*)?))?\s*\]")
_EMT = re.compile(r"\[%emt\s+(\d+):(\d{1,2})(?::(\d{1,2}(?:\.\d*)?))?\s*\]")
#: ``[%eval ...]``; groups: mate distance (``#-3``), pawns (``+1.25``), depth.
EVAL_PATTERN = re.compile(r"\[%eval\s+(?:#([+-]?\d+)|([+-]?(?:\d+(?:\.\d*)?|\.\d+)))(?:\s*,\s*(\d+))?\s*\]")
#: (No look-ahead in these two: Polars' regular expressions use them too, for the moves table.)
#: An engine comment's White-view value (TCEC, cutechess: ``wv=0.62,``, ``wv=-M15,``); groups:
#: sign of a mate, mate distance, pawns.
WV_PATTERN = re.compile(r"(?:^|[\s,{])wv=(?:(-?)M(\d+)|([+-]?(?:\d+(?:\.\d*)?|\.\d+)))(?:[\s,}]|$)")
#: An engine comment's time left on the clock after the move, in milliseconds (``tl=1738239,``).
TL_PATTERN = re.compile(r"(?:^|[\s,{])tl=(\d+)(?:[\s,}]|$)")
_CSL = re.compile(r"\[%csl\s+([^\]]*)\]")
_CAL = re.compile(r"\[%cal\s+([^\]]*)\]")
_SQUARE = "([a-h])([1-8])"
_HIGHLIGHT_ITEM = re.compile(r"([RGBYrgby])" + _SQUARE + r"$")
_ARROW_ITEM = re.compile(r"([RGBYrgby])" + _SQUARE + _SQUARE + r"$")

_COLOURS = {"R": "red", "G": "green", "B": "blue", "Y": "yellow"}


@dataclass(frozen=True, slots=True)
class Eval:
    """An engine evaluation: centipawns from White's view, or mate in ``mate`` moves
    (negative: Black mates), with the search ``depth`` when given."""

    cp: int | None
    mate: int | None
    depth: int | None = None


@dataclass(frozen=True, slots=True)
class Highlight:
    """A coloured square (``[%csl Ge4]``): colour is red/green/blue/yellow."""

    colour: str
    square: int


@dataclass(frozen=True, slots=True)
class Arrow:
    """A coloured arrow (``[%cal Ge2e4]``)."""

    colour: str
    from_square: int
    to_square: int


def _square(file: str, rank: str) -> int:
    return (ord(rank) - ord("1")) * 8 + (ord(file) - ord("a"))


def _hms(match: re.Match[str]) -> float:
    hours, minutes, seconds = match.group(1), match.group(2), match.group(3)
    if seconds is None:  # h:mm only
        return int(hours) * 3600.0 + int(minutes) * 60.0
    return int(hours) * 3600 + int(minutes) * 60 + float(seconds)


def _first(pattern: re.Pattern[str], comments: Iterable[str]) -> re.Match[str] | None:
    for comment in comments:
        if "[%" in comment:
            match = pattern.search(comment)
            if match:
                return match
    return None


def clock_seconds(comments: Iterable[str]) -> float | None:
    """Seconds on the clock from the first ``[%clk h:mm:ss(.f)]``."""
    match = _first(CLOCK_PATTERN, comments)
    return _hms(match) if match else None


def emt_seconds(comments: Iterable[str]) -> float | None:
    """Elapsed move time in seconds from the first ``[%emt h:mm:ss(.f)]``."""
    match = _first(_EMT, comments)
    return _hms(match) if match else None


def evaluation(comments: Iterable[str]) -> Eval | None:
    """The first ``[%eval …]``: ``+0.35`` -> ``Eval(cp=35)``, ``#-3,20`` -> ``Eval(mate=-3, depth=20)``."""
    match = _first(EVAL_PATTERN, comments)
    if match is None:
        return None
    mate, pawns, depth = match.group(1), match.group(2), match.group(3)
    depth_value = int(depth) if depth is not None else None
    if mate is not None:
        return Eval(cp=None, mate=int(mate), depth=depth_value)
    return Eval(cp=round(float(pawns) * 100), mate=None, depth=depth_value)


def engine_evaluation(comments: Iterable[str]) -> Eval | None:
    """The first ``[%eval …]`` (see :func:`evaluation`), else the first engine-comment value
    ``wv=…`` (White's view: ``wv=0.62`` -> ``Eval(cp=62)``, ``wv=-M15`` -> ``Eval(mate=-15)``)."""
    comments = list(comments)
    found = evaluation(comments)
    if found is not None:
        return found
    for comment in comments:
        if "wv=" in comment:
            match = WV_PATTERN.search(comment)
            if match:
                sign, mate, pawns = match.groups()
                if mate is not None:
                    return Eval(cp=None, mate=-int(mate) if sign else int(mate))
                return Eval(cp=round(float(pawns) * 100), mate=None)
    return None


def highlights(comments: Iterable[str]) -> list[Highlight]:
    """All ``[%csl …]`` squares, in order (malformed items skipped)."""
    out: list[Highlight] = []
    for comment in comments:
        if "[%csl" not in comment:
            continue
        for match in _CSL.finditer(comment):
            for item in match.group(1).split(","):
                m = _HIGHLIGHT_ITEM.match(item.strip())
                if m:
                    out.append(Highlight(_COLOURS[m.group(1).upper()], _square(m.group(2), m.group(3))))
    return out


def arrows(comments: Iterable[str]) -> list[Arrow]:
    """All ``[%cal …]`` arrows, in order (malformed items skipped)."""
    out: list[Arrow] = []
    for comment in comments:
        if "[%cal" not in comment:
            continue
        for match in _CAL.finditer(comment):
            for item in match.group(1).split(","):
                m = _ARROW_ITEM.match(item.strip())
                if m:
                    out.append(
                        Arrow(
                            _COLOURS[m.group(1).upper()],
                            _square(m.group(2), m.group(3)),
                            _square(m.group(4), m.group(5)),
                        )
                    )
    return out
