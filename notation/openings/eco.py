"""ECO classification: a game's opening is the deepest table position its mainline reaches.

The table (``eco.tsv`` in this package, built by :mod:`notation.openings.build` (run as ``python -m notation.cli.build_eco``) from the CC0
Lichess ``chess-openings`` files) maps the position each line of the Lichess table reaches to
its ECO code and name. A game is classified **by position**, as Lichess does: among the
positions after each of its first :data:`MAX_PLIES` mainline plies, the last one that is in the
table gives the opening, whatever move order reached it (transpositions count). Positions are
compared by their repetition key (:meth:`notation.rules.position.Position.key`: the Polyglot
hash, en passant counted only when a capture is legal; the identity of Lichess's EPD keys).

Lichess also stops looking once fewer than 20 pieces are on the board; every table position has
at least 20 (``tests/openings/test_eco.py`` checks it), and a game never gains pieces, so that
rule never changes a classification and :func:`classify_keys` needs only the keys.

Only standard chess from the initial position is classified (Lichess gives Chess960, other
variants and games from a set-up position no opening).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from importlib.resources import files
from itertools import islice
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:  # pragma: no cover
    from notation.pgn.model import Game
    from notation.formats.position import Position

#: The package data file holding the table.
TABLE_FILE = "eco.tsv"
#: Only the positions after the first 40 plies are looked up (Lichess's ``SEARCH_MAX_PLIES``).
MAX_PLIES = 40
#: Lichess looks only while at least this many pieces are on the board (``SEARCH_MIN_PIECES``).
MIN_PIECES = 20


class Opening(NamedTuple):
    """An ECO code and opening name; ``ply`` is the mainline ply after which the deepest table
    position was reached (1-based)."""

    eco: str
    name: str
    ply: int


class TableEntry(NamedTuple):
    """One row of the table: the position ``key`` reached by ``pgn`` (``ply`` plies)."""

    key: int
    eco: str
    name: str
    ply: int
    pgn: str


def parse_table(text: str) -> list[TableEntry]:
    """The rows of a table file's text (``#`` comment lines and the header line skipped)."""
    rows: list[TableEntry] = []
    for line in text.splitlines():
        if not line or line.startswith("#") or line.startswith("key\t"):
            continue
        key, eco, name, ply, pgn = line.split("\t")
        rows.append(TableEntry(int(key, 16), eco, name, int(ply), pgn))
    return rows


@cache
def table() -> dict[int, TableEntry]:
    """The packaged table by position key (read once per process)."""
    text = files("notation.openings").joinpath(TABLE_FILE).read_text(encoding="utf-8")
    return {row.key: row for row in parse_table(text)}


def lookup(key: int) -> TableEntry | None:
    """The table row of the position with repetition key ``key``, if any."""
    return table().get(key)


def classify_keys(keys: Iterable[int]) -> Opening | None:
    """The opening of a game given the keys of the positions after its mainline plies 1, 2, …
    (from the initial position): the last of the first :data:`MAX_PLIES` that is in the table."""
    rows = table()
    found: Opening | None = None
    for ply, key in enumerate(islice(keys, MAX_PLIES), 1):
        row = rows.get(key)
        if row is not None:
            found = Opening(row.eco, row.name, ply)
    return found


def standard_start(start: Position | None) -> bool:
    """Whether ``start`` (a game's start position, None when it has none) is standard chess's
    initial position: the only start :func:`classify` classifies."""
    from notation.formats.position import Position

    return start is not None and not start.chess960 and start.key() == Position.initial().key()


def classify(game: Game) -> Opening | None:
    """The opening of a standard game from the initial position (None for Chess960, other
    variants, a set-up start position, or when no table position is reached). The mainline is
    replayed up to :data:`MAX_PLIES` plies, or to its first illegal move. Never raises."""
    from notation.pgn.model import Game as GameModel
    from notation.validation.replay import replay, start_position

    if not standard_start(start_position(game.tags)[0]):
        return None
    opening = GameModel(tags=dict(game.tags), moves=game.moves[:MAX_PLIES])
    rep = replay(opening, variations=False, notes=False)
    return classify_keys(record.key for record in rep.plies)


def classify_played(game: Game | None, start: Position | None, keys: Iterable[int]) -> Opening | None:
    """:func:`classify`'s answer for a mainline a caller has already played: ``start`` and the
    keys of the positions after each move of its legal prefix (read only as far as needed).

    ``game`` is the parsed game, or None when it was never parsed (a plain game the compiled
    core cut). Where the reader dropped a token (``pgn.syntax``) the replay may end the mainline
    there, so such a game is replayed by :func:`classify` itself."""
    if game is not None and any(d.code == "pgn.syntax" for d in game.diagnostics):
        return classify(game)
    if not standard_start(start):
        return None
    return classify_keys(keys)
