"""Types of the compiled core ``notation._core`` (Rust, built by maturin from ``src/``)."""

from typing import Any

class CorePanic(Exception):
    """A bug in the compiled core (a Rust panic), caught at the boundary."""

class CoreGame:
    """One game replayed by the core (``notation.validation.core`` reads it)."""

    plies: int
    final_fen: str
    termination: str | None
    winner: str | None
    threefold: int | None
    fifty_moves: int | None
    fivefold: int | None
    seventyfive_moves: int | None
    perpetual: tuple[str, int, int] | None
    marks: list[tuple[int, int, int, str, int, bool]]
    variation_plies: int
    remarks: list[tuple[str, int, int, int, str, str, str]]
    first_dead: int | None
    white_mate: tuple[bool | None, str | None]
    black_mate: tuple[bool | None, str | None]

class ArrowColumns:
    """A struct array for the Arrow PyCapsule interface (``pl.DataFrame(columns)``), used once."""

    def __arrow_c_array__(self, requested_schema: object | None = None) -> tuple[object, object]: ...

class MovesBatch:
    """Moves-table columns of the games the core took, in replay order."""

    def __len__(self) -> int: ...
    def take(self) -> ArrowColumns: ...

def replay_game(
    fen: str | None,
    lines: list[Any],
    halfmove: int = 0,
    fullmove: int = 1,
    moves: MovesBatch | None = None,
    chess960: bool = False,
    wins: bool | None = None,
    searches: int = 8,
) -> CoreGame | str: ...
def dead_analysis(
    fens: list[str], wins: bool | None = None, searches: int = 8
) -> tuple[int | None, tuple[bool | None, str | None], tuple[bool | None, str | None]]: ...
def helpmate_walk(fen: str, white: bool, search: bool = True) -> tuple[bool, bool | None]: ...
#: Deepest variation nesting the core takes (notation.pgn.model.MAX_VARIATION_DEPTH).
MAX_DEPTH: int
#: Longest line the core replays (notation.pgn.model.MAX_LINE_PLIES).
MAX_PLIES: int
#: Annotation symbols and their NAG (notation.pgn.parser.SYMBOL_NAGS).
SYMBOL_NAGS: dict[str, int]

def lines_and_starts(data: bytes) -> tuple[int, int]: ...
def lex_game(text: str) -> list[tuple[str, str, int, int, int, int, int, int]] | None: ...
def perft(fen: str, depth: int) -> int: ...
def position_key(fen: str) -> int: ...
def split_run(run: str) -> list[tuple[str, str, int | None, str | None]] | None: ...
def walk_mainline(
    fen: str | None, sans: list[str], chess960: bool = False
) -> tuple[list[tuple[int, int, int | None]], list[int], list[tuple[int, list[int]]]] | None: ...
