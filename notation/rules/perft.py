"""``perft(pos, depth)``: the number of leaf nodes of the legal move tree (move-generator check)."""

from __future__ import annotations

from notation.rules.position import Position


def perft(pos: Position, depth: int) -> int:
    """Count the positions reachable in exactly ``depth`` plies (bulk-counted at the leaves)."""
    if depth <= 0:
        return 1
    moves = pos.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(perft(pos.play(m), depth - 1) for m in moves)


def divide(pos: Position, depth: int) -> dict[str, int]:
    """perft per root move (UCI text -> count), for debugging against another engine."""
    return {m.uci(): perft(pos.play(m), depth - 1) for m in pos.legal_moves()}
