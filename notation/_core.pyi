"""Types of the compiled core ``notation._core`` (Rust, built by maturin from ``src/``)."""

from collections.abc import Callable
from typing import Literal, TypeAlias, final

from notation.pgn.chunks import RawGame as _RawGame

#: What ``replay_game`` reads of a game's mainline (``notation.pgn.parser.parse_game_outline``):
#: move runs ``(text, line, column)``, comments, NAGs and variations (lines themselves).
Line: TypeAlias = list[tuple[str, int, int] | str | int | Line]

#: The reader's game, whose fields ``report_lines`` reads.
RawGame: TypeAlias = _RawGame

#: Why the core declines a game (``Decline.code``; ``DECLINE_CODES`` lists them, as ``src/replay.rs``).
DeclineCode: TypeAlias = Literal[
    "start-position",
    "nested-too-deep",
    "nag-range",
    "too-long",
    "move-after-mate",
    "not-read",
    "variation-first",
    "castling-right",
    "illegal-castling",
    "own-piece",
    "capture-mark",
    "illegal-or-ambiguous",
    "disambiguation",
    "pawn-origin",
    "occupied-push",
    "no-pawn",
    "illegal-pawn-move",
]
#: How a mainline ended by rule (``src/replay.rs``'s ``Termination``; ``notation.validation.checks.Outcome``).
Termination: TypeAlias = Literal["dead_position", "fivefold_repetition", "seventyfive_moves", "checkmate", "stalemate"]
#: Why a side cannot mate (``src/dead.rs``'s ``Reason``).
MateReason: TypeAlias = Literal["bare king", "material", "blocked position", "forced line"]
#: A verdict not looked at (``src/dead.rs``'s ``Verdict::NotComputed``, ``replay_game(both=False)``).
NotComputed: TypeAlias = Literal["not computed"]
#: Whether a side can still mate: (True, None), (False, why not), (None, None) when undecided or
#: (None, "not computed") when not looked at.
MateVerdict: TypeAlias = tuple[bool | None, MateReason | NotComputed | None]
#: A move-level warning: (kind, ply, line, column, SAN as written, what was written, what the move calls for).
Remark: TypeAlias = tuple[Literal["suffix", "number"], int, int, int, str, str, str]
#: A ply reports name: (ply, line, column, SAN as written, move number, White moved).
PlyMark: TypeAlias = tuple[int, int, int, str, int, bool]

class CorePanic(Exception):
    """A bug in the compiled core (a Rust panic), caught at the boundary."""

@final
class CoreGame:
    """One game replayed by the core (``notation.validation.core`` reads it)."""

    plies: int
    final_fen: str
    termination: Termination | None
    winner: Literal["white", "black"] | None
    threefold: int | None
    fifty_moves: int | None
    fivefold: int | None
    seventyfive_moves: int | None
    perpetual: tuple[Literal["white", "black"], int, int] | None
    marks: list[PlyMark]
    variation_plies: int
    remarks: list[Remark]
    first_dead: int | None
    white_mate: MateVerdict
    black_mate: MateVerdict

@final
class Decline:
    """Why the core declined a game (``replay_game``): the Python reference replays it."""

    code: DeclineCode
    reason: str

#: Every ``Decline.code``, in the core's order.
DECLINE_CODES: tuple[DeclineCode, ...]

@final
class ArrowColumns:
    """A struct array for the Arrow PyCapsule interface (``pl.DataFrame(columns)``), used once."""

    def __arrow_c_array__(self, requested_schema: object | None = None) -> tuple[object, object]: ...

@final
class MovesBatch:
    """Moves-table columns of the games the core took, in replay order; with ``commands`` (the
    comment patterns, ``notation.tables.moves_rows.CORE_PATTERNS``) each ply's comments are read
    into the comment columns instead of a raw ``text`` column."""

    def __init__(self, commands: tuple[str, ...] | list[str] | None = None) -> None: ...
    def __len__(self) -> int: ...
    def take_problems(self) -> list[tuple[int, str, str]]: ...
    def take(self) -> ArrowColumns: ...

def comment_values(
    patterns: tuple[str, ...] | list[str], texts: list[tuple[str, bool]]
) -> list[tuple[float | None, int | None, int | None, int | None, int | None, str | None, list[tuple[str, str]]]]: ...
def replay_game(
    fen: str | None,
    lines: Line,
    halfmove: int = 0,
    fullmove: int = 1,
    moves: MovesBatch | None = None,
    chess960: bool = False,
    wins: bool | None = None,
    searches: int = 8,
    both: bool = True,
) -> CoreGame | Decline: ...
def report_lines(
    raws: list[RawGame],
    file: str,
    reported: int,
    searches: int,
    start: Callable[[str | None, str | None, str | None], tuple[str | None, int, int, bool, int] | None],
) -> list[tuple[str, Literal["ok", "warning"], int, int, list[str], int] | None]: ...
def import_rows(
    raws: list[RawGame],
    gids: list[int],
    file: str,
    reported: int,
    searches: int,
    moves: MovesBatch,
    start: Callable[
        [str | None, str | None, str | None], tuple[tuple[str | None, int, int, bool, int], str | None] | None
    ],
) -> tuple[
    int,
    ArrowColumns,
    ArrowColumns,
    list[tuple[int, str, str]],
    list[int],
    int,
    list[tuple[str | None, str | None, str | None] | None],
]: ...
def dead_analysis(
    fens: list[str], wins: bool | None = None, searches: int = 8, both: bool = True
) -> tuple[int | None, MateVerdict, MateVerdict]: ...
def helpmate_walk(fen: str, white: bool, search: bool = True) -> tuple[bool, bool | None]: ...

#: Deepest variation nesting the core takes (notation.pgn.model.MAX_VARIATION_DEPTH).
MAX_DEPTH: int
#: Longest line the core replays (notation.pgn.model.MAX_LINE_PLIES).
MAX_PLIES: int
#: Annotation symbols and their NAG (notation.pgn.parser.SYMBOL_NAGS).
SYMBOL_NAGS: dict[str, int]

def tag_sections(data: bytes) -> list[tuple[int, int]]: ...
def newlines(data: bytes) -> int: ...
def contains(data: bytes, needle: bytes) -> bool: ...
def lines_and_starts(data: bytes) -> tuple[int, int]: ...
def game_id(data: bytes) -> int: ...
def game_end(data: bytes) -> int | None: ...

@final
class Regions:
    """The reader's boundary split of byte input, a region at a call (``reader._Regions``'s twin)."""

    def __init__(
        self,
        raw_game: Callable[[bytes, str | None, int, int, int, int, bool], _RawGame],
        name: str | None,
        cap: int,
        number: int,
        consumed_nl: int,
        mark: int,
        mark_line: int,
    ) -> None: ...
    def region(self, region: bytes, cur: int, base: int) -> list[_RawGame]: ...
    @property
    def number(self) -> int: ...
    @property
    def consumed_nl(self) -> int: ...
    @property
    def mark(self) -> int: ...
    @property
    def mark_line(self) -> int: ...
    def chunk(self) -> tuple[bytes, int, int, int, int, bool, bool, bytes, bool] | None: ...

def lalr_parse(
    text: str,
) -> tuple[list[tuple[str, int, int]], tuple[Literal["character", "token"], int, str] | None]: ...
def game_outline(
    text: str, line: int
) -> tuple[dict[str, str], list[tuple[str, int, int]], tuple[str, int, int] | None] | None: ...
def lex_game(text: str) -> list[tuple[str, str, int, int, int, int, int, int]] | None: ...
def perft(fen: str, depth: int) -> int: ...
def position_key(fen: str) -> int: ...
def split_run(run: str) -> list[tuple[Literal["move", "comment", "nag"], str, int | None, str | None]] | None: ...
def walk_mainline(
    fen: str | None, sans: list[str], chess960: bool = False
) -> tuple[list[tuple[int, int, int | None]], list[int], list[tuple[int, list[int]]]] | None: ...

#: A move leaves material hanging when the opponent can win this much at once after it, beyond
#: what the move took (``notation.scoresheet.plausibility``).
HANG: int

@final
class MoveFacts:
    """What a written scoresheet box is compared with: one legal move in its position (hashable)."""

    piece: int
    from_square: int
    to_square: int
    taken: int | None
    promotion: int | None
    castle: Literal["K", "Q"] | None
    needs_file: bool
    needs_rank: bool
    def __init__(
        self,
        piece: int,
        from_square: int,
        to_square: int,
        taken: int | None,
        promotion: int | None,
        castle: Literal["K", "Q"] | None,
        needs_file: bool,
        needs_rank: bool,
    ) -> None: ...

@final
class SheetBoard:
    """A position for the scoresheet reader (``notation.scoresheet.decoder``)."""

    def __init__(self, fen: str, chess960: bool = False) -> None: ...
    def moves(
        self,
    ) -> tuple[list[tuple[int, int, int | None]], list[MoveFacts], list[tuple[int, int | None, bool]]]: ...
    def play(self, from_square: int, to_square: int, promotion: int | None = None) -> SheetBoard: ...
    def check_level(self) -> int: ...
    def en_prise(self, white: bool) -> int: ...

@final
class ComboCosts:
    """The ways the copies of a sheet take one move, as ``select_layer`` ranks them:
    ``(cost, unwritten, blank, cursors)`` each."""

    def __init__(self, combos: list[tuple[float, int, bool, tuple[tuple[int, int], ...]]]) -> None: ...
    def __len__(self) -> int: ...

def select_layer(
    rows: list[tuple[int, float, float, list[ComboCosts | None], list[float] | None, list[float] | None]],
    owed: list[list[float]] | None,
    width: int,
    wide: int,
    span: float,
) -> list[tuple[int, int, int, int, float, float, float, float]]: ...
