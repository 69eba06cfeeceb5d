"""Material patterns: a piece make-up that a position may have (``notation filter --material``).

Syntax: ``WHITE:BLACK`` (colours as written) or ``ONE~OTHER`` (either side may have ``ONE``,
the other ``OTHER``, as pgn-extract's ``-z``), each side a run of items ``LETTER[COUNT][MODIFIER]`` with the piece
letters ``K Q R B N P`` (either case):

- ``R`` one rook exactly, ``R2`` (or ``RR``) exactly two;
- ``P3+`` at least three pawns, ``N1-`` at most one knight;
- ``Q*`` any number of queens; ``B=`` as many bishops as the other side has;
- a piece not named has **zero** of its kind (the king is always there and may be omitted);
- a side written ``*`` alone accepts anything.

Examples: ``KQR:kr`` (queen and rook against a rook, no pawns), ``KR P*:KR P*`` (a rook ending
with any pawns; blanks are ignored), ``Q*R*P*B2+N1-:Q=R=P=B1-N2+`` (bishop pair against two
knights, the rest equal; ``Q*R*P*B2N0~Q=R=P=B0N2``: the same for either colour). Matching looks at a position's counts only (where pieces stand does not
matter).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from notation.formats.position import Position

#: Piece letters in piece-type order (index 1 = pawn ... 6 = king).
_LETTERS = "PNBRQK"
_ITEM = re.compile(r"([KQRBNP])(\d*)([+\-=*]?)", re.IGNORECASE)


class MaterialError(ValueError):
    """A material pattern that does not follow the syntax."""


@dataclass(frozen=True, slots=True)
class Bound:
    """How many of one piece kind a side may have: ``low..high``, or the other side's count."""

    low: int = 0
    high: int | None = 0
    same: bool = False


@dataclass(frozen=True, slots=True)
class MaterialPattern:
    """A parsed material pattern: one bound per piece type (pawn first) for each side."""

    white: tuple[Bound, ...]
    black: tuple[Bound, ...]
    text: str
    either: bool = False

    @property
    def least_pieces(self) -> int:
        """The fewest pieces (kings included) a matching position has."""
        return sum(b.low for b in self.white if not b.same) + sum(b.low for b in self.black if not b.same)

    def matches(self, counts: tuple[tuple[int, ...], tuple[int, ...]]) -> bool:
        """Whether (white counts, black counts), each pawn..king, fits the pattern."""
        white, black = counts
        if self._fits(white, black):
            return True
        return self.either and self._fits(black, white)

    def _fits(self, white: tuple[int, ...], black: tuple[int, ...]) -> bool:
        for index in range(6):
            if not (
                _fits(self.white[index], white[index], black[index])
                and _fits(self.black[index], black[index], white[index])
            ):
                return False
        return True

    def matches_position(self, pos: Position) -> bool:
        """Whether ``pos`` has this make-up."""
        return self.matches(material_counts(pos))


def _fits(bound: Bound, count: int, other: int) -> bool:
    if bound.same:
        return count == other
    return count >= bound.low and (bound.high is None or count <= bound.high)


def material_counts(pos: Position) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(white, black) piece counts, pawn to king."""
    return (
        tuple(pos.pieces(pt, True).bit_count() for pt in range(1, 7)),
        tuple(pos.pieces(pt, False).bit_count() for pt in range(1, 7)),
    )


def _side(text: str) -> tuple[Bound, ...]:
    text = "".join(text.split())
    if text == "*":
        return tuple(Bound(0, None) for _ in range(6))
    bounds: dict[int, Bound] = {}
    counted: dict[int, int] = {}
    pos = 0
    while pos < len(text):
        match = _ITEM.match(text, pos)
        if match is None:
            raise MaterialError(f"cannot read {text[pos:]!r}: expected a piece letter K, Q, R, B, N or P")
        letter, digits, modifier = match.groups()
        index = _LETTERS.index(letter.upper())
        pos = match.end()
        if modifier in ("*", "=") and digits:
            raise MaterialError(f"{match.group(0)!r}: a count cannot go with {modifier!r}")
        if modifier == "*":
            bounds[index] = Bound(0, None)
            continue
        if modifier == "=":
            bounds[index] = Bound(same=True)
            continue
        count = int(digits) if digits else 1
        if not digits and index in counted and not modifier:
            counted[index] += 1  # "RR": two rooks
            count = counted[index]
        counted[index] = count
        if modifier == "+":
            bounds[index] = Bound(count, None)
        elif modifier == "-":
            bounds[index] = Bound(0, count)
        else:
            bounds[index] = Bound(count, count)
    bounds.setdefault(5, Bound(1, 1))  # the king
    return tuple(bounds.get(i, Bound(0, 0)) for i in range(6))


def parse_material(text: str) -> MaterialPattern:
    """Parse ``WHITE:BLACK`` or ``ONE~OTHER`` (see the module docstring); raises
    :class:`MaterialError`."""
    either = "~" in text
    separator = "~" if either else ":"
    if text.count(":") + text.count("~") != 1:
        raise MaterialError(f"material pattern {text!r}: write WHITE:BLACK (or ONE~OTHER), e.g. 'KQR:kr'")
    white, black = text.split(separator)
    if not white.strip() or not black.strip():
        raise MaterialError(f"material pattern {text!r}: each side needs at least a 'K' (or '*')")
    return MaterialPattern(_side(white), _side(black), text, either)
