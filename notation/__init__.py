"""notation: chess game scores parsed, replayed against the FIDE Laws, reported and tabulated.

The package is laid out as the pipeline runs (``docs/ARCHITECTURE.md``):

- ``notation.rules``: squares, attack tables, Zobrist keys, moves, positions, perft;
- ``notation.formats``: FEN, SAN and UCI/LAN text to and from moves against a position;
- ``notation.pgn``: sources, the reader (games and headers-only), the Lark parser, the game
  model, the writer and PGN comment commands;
- ``notation.validation``: replay (the only place notation becomes moves), checks, reports, the
  compiled core's path (core) and the driver (run);
- ``notation.tables``: Polars schemas, row builders, datasets, stats, standings, the ledger;
- ``notation.scoresheet``: reading and repairing paper scoresheets, HTML and SVG rendering;
- ``notation.grammars`` (the grammar files) and ``notation.cli`` (the command line).

Public names are imported lazily (PEP 562) so that ``import notation`` stays cheap: the Polars
and Lark machinery loads only when a name that needs it is first used.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from notation._checkout import find_parts_beside

__version__ = "0.1.0"

find_parts_beside(__path__)  # a checkout: cli/ and grammars/ sit beside this package (see there)

# public name -> module that defines it
_EXPORTS: dict[str, str] = {
    # rules
    "Position": "notation.formats.position",
    "Move": "notation.rules.move",
    "perft": "notation.rules.perft",
    # text formats
    "SanError": "notation.formats.san",
    "InvalidSan": "notation.formats.san",
    "IllegalSan": "notation.formats.san",
    "AmbiguousSan": "notation.formats.san",
    "FenError": "notation.formats.fen",
    # diagnostics
    "Diagnostic": "notation.diagnostics",
    # PGN reading and writing
    "Game": "notation.pgn.model",
    "MoveNode": "notation.pgn.model",
    "ReadFailure": "notation.pgn.chunks",
    "read_games": "notation.pgn.reader",
    "read_headers": "notation.pgn.reader",
    "write_game": "notation.pgn.writer",
    "write_games": "notation.pgn.writer",
    # selecting and converting games
    "Criteria": "notation.select.criteria",
    "filter_games": "notation.select.run",
    "ConvertOptions": "notation.convert.render",
    "convert": "notation.convert.render",
    # replay and validation
    "replay": "notation.validation.replay",
    "validate": "notation.validation.run",
    "GameReport": "notation.validation.reports",
    # tables
    "to_frames": "notation.tables.frames",
    "scan": "notation.tables.frames",
    "ledger": "notation.tables.ledger",
    "standings": "notation.tables.standings",
    # scoresheets
    "reconstruct": "notation.scoresheet.reader",
    "Reconstruction": "notation.scoresheet.verdict",
}

__all__ = sorted(_EXPORTS) + ["__version__"]


def __getattr__(name: str) -> Any:
    module_name = _EXPORTS.get(name)
    if module_name is None:
        raise AttributeError(f"module 'notation' has no attribute {name!r}")
    value = getattr(importlib.import_module(module_name), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__


if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs only
    from notation.convert.render import ConvertOptions, convert
    from notation.diagnostics import Diagnostic
    from notation.formats.fen import FenError
    from notation.formats.san import AmbiguousSan, IllegalSan, InvalidSan, SanError
    from notation.pgn.chunks import ReadFailure
    from notation.pgn.model import Game, MoveNode
    from notation.pgn.reader import read_games, read_headers
    from notation.pgn.writer import write_game, write_games
    from notation.rules.move import Move
    from notation.rules.perft import perft
    from notation.formats.position import Position
    from notation.scoresheet.reader import reconstruct
    from notation.scoresheet.verdict import Reconstruction
    from notation.select.criteria import Criteria
    from notation.select.run import filter_games
    from notation.tables.frames import scan, to_frames
    from notation.tables.ledger import ledger
    from notation.tables.standings import standings
    from notation.validation.replay import replay
    from notation.validation.reports import GameReport
    from notation.validation.run import validate
