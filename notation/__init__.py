"""notation: chess game scores parsed, replayed against the FIDE Laws, reported and tabulated.

Public names are imported lazily (PEP 562) so that ``import notation`` stays cheap: the Polars
and Lark machinery loads only when a name that needs it is first used.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# public name -> module that defines it
_EXPORTS: dict[str, str] = {
    # rules engine (issue 2)
    "Position": "notation.position",
    "Move": "notation.move",
    "perft": "notation.perft",
    "SanError": "notation.san",
    "InvalidSan": "notation.san",
    "IllegalSan": "notation.san",
    "AmbiguousSan": "notation.san",
    "FenError": "notation.fen",
    # diagnostics
    "Diagnostic": "notation.diagnostics",
    # PGN reading and writing (issue 3)
    "Game": "notation.model",
    "MoveNode": "notation.model",
    "read_games": "notation.reader",
    "read_headers": "notation.reader",
    "write_game": "notation.writer",
    "write_games": "notation.writer",
    # replay and validation (issue 4)
    "replay": "notation.replay",
    "validate": "notation.validate",
    "GameReport": "notation.validate",
    # tables (issue 5)
    "to_frames": "notation.frames",
    "scan": "notation.frames",
    "ledger": "notation.ledger",
    "standings": "notation.standings",
    # scoresheets (issue 6)
    "reconstruct": "notation.scoresheet",
    "Reconstruction": "notation.scoresheet",
}

__all__ = sorted(_EXPORTS) + ["__version__"]


def __getattr__(name: str) -> Any:
    module_name = _EXPORTS.get(name)
    if module_name is None:
        raise AttributeError(f"module 'notation' has no attribute {name!r}")
    module = importlib.import_module(module_name)
    # A function named like its module (notation.validate, notation.replay): keep the module,
    # which forwards calls, so that ``import notation.validate as m`` still gives the module.
    value = module if module_name.endswith("." + name) and callable(module) else getattr(module, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__


if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs only
    from notation.diagnostics import Diagnostic
    from notation.fen import FenError
    from notation.frames import scan, to_frames
    from notation.ledger import ledger
    from notation.model import Game, MoveNode
    from notation.move import Move
    from notation.perft import perft
    from notation.position import Position
    from notation.reader import read_games, read_headers
    from notation.replay import replay
    from notation.san import AmbiguousSan, IllegalSan, InvalidSan, SanError
    from notation.scoresheet import Reconstruction, reconstruct
    from notation.standings import standings
    from notation.validate import GameReport, validate
    from notation.writer import write_game, write_games
