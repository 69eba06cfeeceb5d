"""How plausible a move is, whatever was written: the prior of the scoresheet reading.

Players recapture, take what is offered and give check far more often than a move picked at
random from the legal ones would, and rarely leave a piece to be taken for nothing. Each legal
move falls in one class by those facts (:func:`move_class`); the cost of a class is the negative
log of how much likelier (or less likely) a played move is to be of that class than a legal move
at random, learned from the games of real sheets (``prior.move.*`` in ``channel_costs.json``,
:func:`notation.scoresheet.learn.learn_costs`). A reading whose moves blunder for no reason so
ranks below one whose moves a player would make, by as much as the games say, no more.
"""

from __future__ import annotations

from notation._core import HANG

#: The classes, by their facts: ``r`` recapture on the square of the last capture, ``x`` another
#: capture, ``+`` check, ``h`` material left hanging (the side to move after it can win
#: :data:`HANG` at once, a minor piece for nothing or a rook for a minor piece, beyond what the
#: move took); ``quiet`` none of them. The facts of each legal move are the compiled core's
#: (``gives`` of :class:`notation.scoresheet.channel.PositionMoves`).
CLASSES = ("quiet", "+", "x", "x+", "h", "h+", "hx", "hx+", "r", "r+", "rh", "rh+")


def move_class(gives: tuple[int, int | None, bool], last_capture: int | None) -> str:
    """The class of a move that gives ``gives`` (its check level, the square of what it takes or
    None, whether it leaves material hanging; ``last_capture``: the square where the last move
    took a piece, None if it took none); see :data:`CLASSES`."""
    check, captured, hangs = gives
    flags = ""
    recapture = captured is not None and captured == last_capture
    if recapture:
        flags += "r"
    if hangs:
        flags += "h"
    if captured is not None and not recapture:
        flags += "x"
    if check:
        flags += "+"
    return flags or "quiet"


__all__ = ["CLASSES", "HANG", "move_class"]
