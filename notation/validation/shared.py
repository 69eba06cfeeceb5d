"""What both validation paths (the reference replay, :mod:`notation.validation.replay`, and the
compiled core's, :mod:`notation.validation.core`) share and the core's path needs without the
rules engine: the messages of the move-level warnings and the plies before a start position."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from notation.formats.position import Position


def plies_before(start: Position) -> int:
    """Plies before ``start`` counted from move 1 with White (its move number and side to move)."""
    return 2 * (start.fullmove_number - 1) + (0 if start.turn else 1)


def suffix_message(san: str, suffix: str, expected: str) -> str:
    """The message of ``san.check-suffix``: ``san`` as written with ``suffix`` ("", "+", "#")
    where the move calls for ``expected`` (both paths build it here)."""
    if expected == "":
        return f"{san!r} does not give check: drop the '{suffix}'"
    if suffix == "":
        return f"{san!r} gives {'checkmate' if expected == '#' else 'check'}: write '{expected}'"
    if expected == "#":
        return f"{san!r} gives checkmate: write '#' not '+'"
    return f"{san!r} gives check but not mate: write '+' not '#'"


def number_message(written: object, actual: object) -> str:
    """The message of ``movenumber.mismatch`` (both paths build it here)."""
    return f"move number {written} written, but this is move {actual}"


# [Variant] values (lower case, letters and digits only) that mean standard chess.
STANDARD_VARIANTS = frozenset({"", "standard", "chess", "normal", "fromposition", "classical", "regular"})
# ... that mean Chess960 / Fischer random chess.
CHESS960_VARIANTS = frozenset(
    {"chess960", "fischerandom", "fischerrandom", "960", "frc", "fischerrandomchess", "chess960frc"}
)
_NON_ALNUM = re.compile(r"[^a-z0-9]+")


def variant_kind(tags: dict[str, str]) -> str:
    """``"standard"``, ``"chess960"`` or the [Variant] tag as written (an unsupported variant)."""
    written = tags.get("Variant", "")
    name = _NON_ALNUM.sub("", written.lower())
    if name in STANDARD_VARIANTS:
        return "standard"
    if name in CHESS960_VARIANTS:
        return "chess960"
    return written.strip()
