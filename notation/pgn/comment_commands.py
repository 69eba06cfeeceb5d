"""Comment commands (PGN specification supplement): ``[%clk]``, ``[%emt]``, ``[%eval]``,
``[%csl]`` and ``[%cal]`` embedded in brace comments, parsed to typed values; also the
White-view value ``wv=`` of engine comments (TCEC, cutechess), see :func:`engine_evaluation`,
and their move time ``mt=`` and search depth ``d=`` (:func:`move_time_ms`, :func:`search_depth`);
and the ``score/depth time`` comments of Arena, cutechess and older TCEC files (``{+0.18/23 239}``,
``{-M5/30 1.2s}``: the mover's own view, at the start of the move's comment).

These functions take the comment list of a :class:`notation.pgn.model.MoveNode` and return the
value of the *first* command of that kind (or all arrows/highlights). Malformed commands are
ignored (None / empty list), never raised. Squares are ints, ``a1 = 0 … h8 = 63``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass

#: Any comment command (``[%name ...]``), for removing commands from a comment's text.
COMMAND_PATTERN = re.compile(r"\[%[^\]]*\]")
#: ``[%clk h:mm:ss(.f)]``; groups: hours, minutes, seconds (None for ``h:mm``).
CLOCK_PATTERN = re.compile(r"\[%clk\s+(\d+):(\d{1,2})(?::(\d{1,2}(?:\.\d*)?))?\s*\]")
#: ``[%emt h:mm:ss(.f)]`` (elapsed move time); groups: hours, minutes, seconds (None for ``h:mm``).
EMT_PATTERN = re.compile(r"\[%emt\s+(\d+):(\d{1,2})(?::(\d{1,2}(?:\.\d*)?))?\s*\]")
#: ``[%eval ...]``; groups: mate distance (``#-3``), pawns (``+1.25``), depth.
EVAL_PATTERN = re.compile(r"\[%eval\s+(?:#([+-]?\d+)|([+-]?(?:\d+(?:\.\d*)?|\.\d+)))(?:\s*,\s*(\d+))?\s*\]")
#: (No look-ahead in the engine-comment patterns: Polars' regular expressions use them too.)
#: An engine comment's White-view value (TCEC, cutechess: ``wv=0.62,``, ``wv=-M15,``); groups:
#: sign of a mate, mate distance, pawns.
WV_PATTERN = re.compile(r"(?:^|[\s,{])wv=(?:(-?)M(\d+)|([+-]?(?:\d+(?:\.\d*)?|\.\d+)))(?:[\s,}]|$)")
#: An engine comment's time left on the clock after the move: milliseconds (``tl=1738239,``) or
#: ``h:mm:ss`` (older TCEC files: ``tl=00:19:12``); groups: hours, minutes, seconds, milliseconds.
TL_PATTERN = re.compile(r"(?:^|[\s,{])tl=(?:(\d+):(\d{1,2}):(\d{1,2}(?:\.\d*)?)|(\d+))(?:[\s,}]|$)")
#: An engine comment's time spent on the move: milliseconds (cutechess, TCEC: ``mt=3076,``) or
#: ``h:mm:ss`` (older TCEC files: ``mt=00:02:04,``); groups: hours, minutes, seconds, milliseconds.
MT_PATTERN = re.compile(r"(?:^|[\s,{])mt=(?:(\d+):(\d{1,2}):(\d{1,2}(?:\.\d*)?)|(\d+))(?:[\s,}]|$)")
#: A ``score/depth time`` comment (Arena, cutechess: ``+0.18/23 239``, ``-M5/30 1.2s``), the score
#: from the mover's view, at the start of the comment; groups: sign of a mate, mate distance,
#: pawns (always written with a decimal point, so ``1/2`` is not read), depth.
SCORE_DEPTH_PATTERN = re.compile(r"^\s*(?:([+-]?)M(\d+)|([+-]?(?:\d+\.\d*|\.\d+)))/(\d+)(?:[\s,}]|$)")
#: An engine comment's search depth (``d=34,``; not ``sd=``, the selective depth).
DEPTH_PATTERN = re.compile(r"(?:^|[\s,{])d=(\d+)(?:[\s,}]|$)")
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


def _hms(match: re.Match[str]) -> float | None:
    """``h:mm(:ss(.f))`` in seconds; None when not a finite number (hundreds of digits)."""
    hours, minutes, seconds = match.group(1), match.group(2), match.group(3)
    total = float(hours) * 3600.0 + float(minutes) * 60.0 + (float(seconds) if seconds is not None else 0.0)
    return total if math.isfinite(total) else None


def _whole(digits: str) -> int | None:
    """``int(digits)``; None for more digits than Python converts (4,300)."""
    return int(digits) if len(digits) <= 4000 else None


def _centipawns(pawns: str) -> int | None:
    """Pawns as written (``-1.25``) in whole centipawns; None when not a finite number."""
    value = float(pawns) * 100
    return round(value) if math.isfinite(value) else None


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
    match = _first(EMT_PATTERN, comments)
    return _hms(match) if match else None


def _milliseconds(hours: str, minutes: str, seconds: str | None) -> int | None:
    """``h:mm:ss(.f)`` as whole milliseconds (the moves table's arithmetic: rounded half to even);
    None when the number is not finite (hundreds of digits)."""
    whole = float(hours) * 3_600_000.0 + float(minutes) * 60_000.0 + float(seconds or 0) * 1000.0
    return round(whole) if math.isfinite(whole) else None


def move_time_ms(comments: Iterable[str]) -> int | None:
    """Milliseconds spent on the move: the first ``[%emt h:mm:ss(.f)]``, else the first engine
    comment's ``mt=`` (``mt=3076`` -> 3076, ``mt=00:02:04`` -> 124000). A negative or malformed
    value is no value (None)."""
    comments = list(comments)
    match = _first(EMT_PATTERN, comments)
    if match is not None:
        return _milliseconds(match.group(1), match.group(2), match.group(3))
    for comment in comments:
        if "mt=" in comment:
            found = MT_PATTERN.search(comment)
            if found:
                hours, minutes, seconds, digits = found.groups()
                if digits is None:
                    return _milliseconds(hours, minutes, seconds)
                return _whole(digits)
    return None


def search_depth(comments: Iterable[str]) -> int | None:
    """The engine's search depth: that of the first ``[%eval …,depth]``, else the first engine
    comment's ``d=`` (``d=34`` -> 34; ``sd=`` is the selective depth, not read), else the depth of
    a ``score/depth`` comment (``+0.18/23 239`` -> 23)."""
    comments = list(comments)
    written = _first(EVAL_PATTERN, comments)
    if written is not None and written.group(3) is not None:
        return _whole(written.group(3))
    for comment in comments:
        if "d=" in comment:
            match = DEPTH_PATTERN.search(comment)
            if match:
                return _whole(match.group(1))
    scored = _score_depth(comments)
    return _whole(scored.group(4)) if scored is not None else None


def _score_depth(comments: list[str]) -> re.Match[str] | None:
    """The ``score/depth`` match at the start of the comments' text (as the moves table joins them)."""
    return SCORE_DEPTH_PATTERN.search(" ".join(comments)) if comments else None


def evaluation(comments: Iterable[str]) -> Eval | None:
    """The first ``[%eval …]``: ``+0.35`` -> ``Eval(cp=35)``, ``#-3,20`` -> ``Eval(mate=-3, depth=20)``."""
    match = _first(EVAL_PATTERN, comments)
    if match is None:
        return None
    mate, pawns, depth = match.group(1), match.group(2), match.group(3)
    depth_value = _whole(depth) if depth is not None else None
    if mate is not None:
        mate_value = _whole(mate)
        return Eval(cp=None, mate=mate_value, depth=depth_value) if mate_value is not None else None
    cp = _centipawns(pawns)
    return Eval(cp=cp, mate=None, depth=depth_value) if cp is not None else None


def engine_evaluation(comments: Iterable[str], *, white_moved: bool | None = None) -> Eval | None:
    """The first ``[%eval …]`` (see :func:`evaluation`), else the first engine-comment value
    ``wv=…`` (White's view: ``wv=0.62`` -> ``Eval(cp=62)``, ``wv=-M15`` -> ``Eval(mate=-15)``),
    else, when ``white_moved`` says who moved, a ``score/depth`` comment turned to White's view
    (``+0.18/23`` after a Black move -> ``Eval(cp=-18, depth=23)``)."""
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
                    distance = _whole(mate)
                    return Eval(cp=None, mate=-distance if sign else distance) if distance is not None else None
                cp = _centipawns(pawns)
                return Eval(cp=cp, mate=None) if cp is not None else None
    scored = _score_depth(comments) if white_moved is not None else None
    if scored is None:
        return None
    sign, mate, pawns, depth = scored.groups()
    view = 1 if white_moved else -1
    if mate is not None:
        distance = _whole(mate)
        if distance is None:
            return None
        return Eval(cp=None, mate=view * (-distance if sign == "-" else distance), depth=_whole(depth))
    cp = _centipawns(pawns)
    return Eval(cp=view * cp, mate=None, depth=_whole(depth)) if cp is not None else None


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
