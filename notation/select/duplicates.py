"""Duplicate games: the same start position and the same mainline moves.

Tags, comments, NAGs, variations, move numbers and the spelling of the moves (``Ngf3`` or
``Nf3``, ``0-0`` or ``O-O``) do not count. A game's identity is a 128-bit BLAKE2b digest of its
start position (FEN, move counters included) and of its mainline: the moves of the legal prefix
as (from, to, promotion) and, when a move could not be played, the rest of the mainline as
written. :class:`DuplicateIndex` keeps one digest per distinct game seen (16 bytes each), so
memory grows with the number of distinct games, not with their size.
"""

from __future__ import annotations

from hashlib import blake2b
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from notation.rules.move import Move
    from notation.formats.position import Position


def game_identity(start: Position | None, tags: dict[str, str], moves: list[Move], rest: list[str]) -> bytes:
    """The digest naming a game (see the module docstring): its start position (None: the
    ``Variant`` and ``FEN`` tags as written stand for it), the moves of its mainline's legal
    prefix and the rest of the mainline as written."""
    digest = blake2b(digest_size=16)
    if start is not None:
        digest.update(start.fen(shredder=True).encode())
    else:
        digest.update(("?" + tags.get("Variant", "") + "|" + tags.get("FEN", "")).encode())
    digest.update(b"|")
    digest.update(bytes(v for move in moves for v in (move[0], move[1], move[2] or 0)))
    if rest:
        digest.update(b"|" + " ".join(rest).encode())
    return digest.digest()


class DuplicateIndex:
    """The identities seen so far; :meth:`seen` tells whether a game repeats an earlier one."""

    __slots__ = ("_seen",)

    def __init__(self) -> None:
        self._seen: set[bytes] = set()

    def seen(self, identity: bytes) -> bool:
        """True when ``identity`` was added before; adds it otherwise."""
        if identity in self._seen:
            return True
        self._seen.add(identity)
        return False

    def __len__(self) -> int:
        return len(self._seen)
