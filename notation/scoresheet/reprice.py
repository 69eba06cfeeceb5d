"""A prior from outside the boxes on a read lattice (the chess engine's, :mod:`notation.scoresheet.engine`):
the probabilities of the moves played at one ply of the best reading, and the lattice again with
charges added to some moves, its best paths, readings and probabilities computed again by the
search's own sums (:mod:`notation.scoresheet.viterbi`)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from notation.scoresheet.viterbi import Lattice, _finish

if TYPE_CHECKING:  # pragma: no cover
    from notation.formats.position import Position
    from notation.rules.move import Move


def alternatives(lattice: Lattice, ply: int) -> tuple[Position, dict[Move, float]] | None:
    """The position of the best reading before ply ``ply`` (0-based) and the probability of each
    move played there (every alignment of that position at that depth; the moves' shares of all
    readings, those elsewhere counting for none). None: no such ply."""
    layers, t, z = lattice.layers, lattice.temperature, lattice.z
    if not lattice.readings or ply >= len(lattice.readings[0].moves) or ply >= len(layers) or z == math.inf:
        return None
    pos = _position_before(lattice, ply)
    key = pos.key()
    shares: dict[Move, float] = {}
    for state in layers[ply]:
        if state.pos.key() != key:
            continue
        for e in state.outgoing:
            if e.child.beta < math.inf:
                shares[e.move] = shares.get(e.move, 0.0) + math.exp(-(state.alpha + e.weight + e.child.beta - z) / t)
    return pos, shares


def _position_before(lattice: Lattice, ply: int) -> Position:
    found = lattice.readings[0]
    pos = lattice.layers[0][0].pos
    for move in found.moves[:ply]:
        pos = pos.play(move)
    return pos


def reprice(lattice: Lattice, extra: dict[tuple[int, int], tuple[dict[Move, float], float]]) -> Lattice:
    """The lattice again with costs added to moves at some positions: with ``extra[(ply,
    position key)] = (charges, other)``, ``charges[move]`` nats on every edge playing ``move`` at
    ply ``ply`` (0-based) from that position, ``other`` on an edge playing any other move (a
    prior from outside the boxes: counted in the edges' ``prior``). The beam's states are those
    kept before; the best path to each, the readings and the probabilities are computed again
    (``lattice`` is changed)."""
    layers = lattice.layers
    if not extra or not layers:
        return lattice
    for depth, layer in enumerate(layers[:-1]):
        for state in layer:
            found = extra.get((depth, state.pos.key()))
            if found is None:
                continue
            for e in state.outgoing:
                charge = found[0].get(e.move, found[1])
                if charge:
                    e.cost += charge
                    e.prior += charge
    for layer in layers[1:]:
        for state in layer:
            for e in state.incoming:
                e.weight = e.cost  # the sheet's rate shift is applied again by _finish
            if state.incoming:
                state.best = min(state.incoming, key=lambda e: e.parent.cost + e.cost)
                state.cost = state.best.parent.cost + state.best.cost
    again = _finish(layers, lattice.ends, lattice.temperature)
    again.read_again = lattice.read_again
    return again


__all__ = ["alternatives", "reprice"]
