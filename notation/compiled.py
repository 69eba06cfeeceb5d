"""The compiled core (``notation._core``, Rust in ``src/``), when it is built and turned on, and
the one gate every command passes a game through on its way to it.

``NOTATION_CORE=python`` (or ``0``, ``off``, ``no``) turns it off for a process: then the reader,
validation and tables use the pure-Python reference alone. Decided once per process.

The gate (:func:`through_core`) is the same for ``validate``, ``import``, ``filter`` and every
other command: :func:`core_for` decides whether a chunk of the reader may go to the core (the
core is on, and the chunk is a whole game: not cut at the size cap, not cut short by an I/O
error); the work handed over then takes the game or declines it (None: the
reference reads it). A panic inside the core (a bug, caught at the boundary as
``notation._core.CorePanic``) means the same everywhere: the reference reads the game, and
the game carries an ``internal.error`` diagnostic (:func:`core_failure`) at its first line, so
a command reports it and nothing of the game is lost.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Literal, Protocol, TypeVar

from notation.diagnostics import Diagnostic

if TYPE_CHECKING:  # pragma: no cover
    from notation import _core

T = TypeVar("T")


#: A plain game's outline as the core builds it (``notation._core.game_outline``): its tags, the
#: mainline outline (``[(MOVES text, line, column)]`` or ``[]``) and the result token ``(text,
#: line, column)`` or None.
CoreOutline = tuple[dict[str, str], list[tuple[str, int, int]], tuple[str, int, int] | None]


class Core(Protocol):
    """What the package uses of the compiled core (``notation._core``, typed by ``_core.pyi``):
    the module itself satisfies it (mypy checks that where :func:`core_module` returns it), and
    a test checks that every name the package reads of the core is declared in the stub."""

    @property
    def CorePanic(self) -> type[_core.CorePanic]: ...
    @property
    def MovesBatch(self) -> type[_core.MovesBatch]: ...
    @property
    def CoreGame(self) -> type[_core.CoreGame]: ...
    @property
    def Regions(self) -> type[_core.Regions]: ...
    def replay_game(
        self,
        fen: str | None,
        lines: _core.Line,
        halfmove: int = 0,
        fullmove: int = 1,
        moves: _core.MovesBatch | None = None,
        chess960: bool = False,
        wins: bool | None = None,
        searches: int = 8,
        both: bool = True,
    ) -> _core.CoreGame | _core.Decline: ...
    def report_lines(
        self,
        raws: list[_core.RawGame],
        file: str,
        reported: int,
        searches: int,
        start: Callable[[str | None, str | None, str | None], tuple[str | None, int, int, bool, int] | None],
    ) -> list[tuple[str, Literal["ok", "warning"], int, int, list[str], int] | None]: ...
    def import_rows(
        self,
        raws: list[_core.RawGame],
        gids: list[int],
        file: str,
        reported: int,
        searches: int,
        moves: _core.MovesBatch,
        start: Callable[
            [str | None, str | None, str | None], tuple[tuple[str | None, int, int, bool, int], str | None] | None
        ],
    ) -> tuple[
        int,
        _core.ArrowColumns,
        _core.ArrowColumns,
        list[tuple[int, str, str]],
        list[int],
        int,
        list[tuple[str | None, str | None, str | None] | None],
    ]: ...
    def dead_analysis(
        self,
        fens: list[str],
        wins: bool | None = None,
        searches: int = 8,
        both: bool = True,
    ) -> tuple[int | None, _core.MateVerdict, _core.MateVerdict]: ...
    def game_outline(self, text: str, line: int) -> CoreOutline | None: ...
    def lex_game(self, text: str) -> list[tuple[str, str, int, int, int, int, int, int]] | None: ...
    def split_run(
        self,
        run: str,
    ) -> list[tuple[Literal["move", "comment", "nag"], str, int | None, str | None]] | None: ...
    def walk_mainline(
        self,
        fen: str | None,
        sans: list[str],
        chess960: bool = False,
    ) -> tuple[list[tuple[int, int, int | None]], list[int], list[tuple[int, list[int]]]] | None: ...
    def lines_and_starts(self, data: bytes) -> tuple[int, int]: ...
    def tag_sections(self, data: bytes) -> list[tuple[int, int]]: ...
    def newlines(self, data: bytes) -> int: ...
    def contains(self, data: bytes, needle: bytes) -> bool: ...
    def game_end(self, data: bytes) -> int | None: ...
    def game_id(self, data: bytes) -> int: ...


class RawGame(Protocol):
    """What the gate reads of the reader's game (:class:`notation.pgn.chunks.RawGame`; named by
    what it reads, so that this bottom layer imports no reader)."""

    @property
    def oversized(self) -> bool: ...
    @property
    def io_error(self) -> str | None: ...
    @property
    def line(self) -> int: ...


#: Environment variable choosing the implementation: ``python`` (or ``0``) for the reference.
CORE_VARIABLE = "NOTATION_CORE"


@lru_cache(maxsize=1)
def core_module() -> Core | None:
    """The compiled core, or None when it is not built or turned off (``NOTATION_CORE``)."""
    if os.environ.get(CORE_VARIABLE, "").strip().lower() in ("0", "python", "off", "no"):
        return None
    try:
        from notation import _core
    except ImportError:
        return None
    return _core


@lru_cache(maxsize=1)
def solver_module() -> Core | None:
    """The compiled core for its unwinnability search (:mod:`notation.validation.dead`), even
    with ``NOTATION_CORE`` off: the search lives in the core only, and both validation paths
    call it so that their reports agree. None when the core is not built."""
    try:
        from notation import _core
    except ImportError:
        return None
    return _core


def core_for(raw: RawGame) -> Core | None:
    """The core when the reader's game ``raw`` may go to it, else None: the core is off or not
    built, or the game is not whole (cut at the size cap, or followed by a failure that stopped
    reading). The one eligibility test of every command (a read failure is no game: it never
    comes here)."""
    core = core_module()
    if core is None or raw.oversized or raw.io_error is not None:
        return None
    return core


def core_failure(message: str, line: int) -> Diagnostic:
    """What a panic inside the core means, for every command: an ``internal.error`` at the
    game's first line (``line``); the reference then reads the game."""
    return Diagnostic.make("internal.error", f"internal error in the compiled core: {message}", line=line)


def through_core(raw: RawGame, work: Callable[[Core], T | None]) -> tuple[T | None, Diagnostic | None]:
    """``work(core)`` for a game the gate lets through (:func:`core_for`): ``(its result,
    None)``; ``(None, None)`` when the game does not go to the core or ``work`` declines it;
    ``(None, internal.error)`` when the core panicked (:func:`core_failure`). On None the
    caller reads the game through the reference, adding the failure to its diagnostics."""
    core = core_for(raw)
    if core is None:
        return None, None
    try:
        return work(core), None
    except core.CorePanic as exc:
        return None, core_failure(str(exc), raw.line)


def core_outline(text: str, line: int) -> tuple[CoreOutline | None, Diagnostic | None]:
    """``(the core's outline of a game's text, None)`` (``notation._core.game_outline``: Lark's
    automaton run on the core's tokens, the tree built as the outline builder builds it; None
    when Lark must parse the game, or the core is off); ``(None, internal.error)`` when the
    core panicked (the gate's meaning, at line ``line``)."""
    core = core_module()
    if core is None:
        return None, None
    try:
        return core.game_outline(text, line), None
    except core.CorePanic as exc:
        return None, core_failure(str(exc), line)


def core_tokens(
    text: str, line: int
) -> tuple[list[tuple[str, str, int, int, int, int, int, int]] | None, Diagnostic | None]:
    """``(the core's tokens of a game's text, None)`` (``notation._core.lex_game``; None when
    Lark must lex it, or the core is off); ``(None, internal.error)`` when the core panicked:
    Lark lexes the game, which carries the failure (the gate's meaning, at line ``line``)."""
    core = core_module()
    if core is None:
        return None, None
    try:
        return core.lex_game(text), None
    except core.CorePanic as exc:
        return None, core_failure(str(exc), line)
