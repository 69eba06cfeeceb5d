"""Replay: the one place that turns a game's notation into moves.

``replay(game)`` plays the mainline and every variation of a :class:`notation.pgn.model.Game` from
its start position (the initial position, or ``[FEN]``/``[SetUp "1"]``; Chess960 from
``[Variant]`` or an X-FEN/Shredder-FEN castling field), resolving each SAN against the position
before it. Each line keeps its legal prefix and stops at its first illegal, ambiguous or invalid
move (scalachess's "play while valid"); variations start from the position before the move they
replace. Move-level findings are returned as :class:`~notation.diagnostics.Diagnostic` values:

- errors: ``san.invalid``, ``san.unknown-piece``, ``san.illegal``, ``san.ambiguous`` (with the
  candidates and the FEN before the move), ``fen.invalid``, ``game.move-after-end``,
  ``game.too-long`` (a line goes on past ply :data:`~notation.pgn.model.MAX_LINE_PLIES`, the
  longest any game can last: it stops there);
- warnings: ``san.check-suffix``, ``san.lenient``, ``movenumber.mismatch``, ``san.null-move``;
- info: ``variant.unsupported`` (the game is not replayed at all).

Game-level checks (result, tags, claims) live in :mod:`notation.validation.checks`; they read the
:class:`Replay` and never replay again.

The move tree is walked with an explicit stack (one generator per open line), never by
recursion: a game nested to any depth replays in bounded Python stack.

Hot path: one cached ``parse_san_syntax`` lookup, one ``resolve_san``, one ``play`` and one
``is_check`` per ply; no legal-move generation, no FEN formatting (only on error), canonical SAN
formatted by the engine only when the written text may differ from it.
"""

from __future__ import annotations

import re
from collections.abc import Generator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from notation.diagnostics import Diagnostic
from notation.validation.shared import (  # noqa: F401  (variant_kind and its sets: re-exported)
    CHESS960_VARIANTS,
    STANDARD_VARIANTS,
    number_message,
    plies_before,
    suffix_message,
    variant_kind,
)
from notation.grammars import terminal_patterns
from notation.formats.fen import STARTING_FEN, FenError
from notation.rules.move import NULL_MOVE, Move
from notation.formats.position import Position
from notation.rules.step import advance
from notation.formats.san import SanError, parse_san_syntax
from notation.pgn.model import MAX_LINE_PLIES, too_long

if TYPE_CHECKING:  # pragma: no cover
    from notation.pgn.model import Game, MoveNode
    from notation.formats.san import SanSyntax

_new_tuple = tuple.__new__  # a PlyRecord without the NamedTuple constructor's Python frame


class PlyRecord(NamedTuple):
    """One legal mainline ply (an immutable named tuple: one is made per ply).

    ``ply`` is 1-based from the game's first move; ``san`` is the canonical SAN (minimal
    disambiguation, correct suffix); ``key`` the FIDE repetition key of ``after``; ``check``
    whether ``after`` has the side to move in check.
    """

    ply: int
    node: MoveNode
    before: Position
    move: Move
    after: Position
    san: str
    key: int
    check: bool = False


@dataclass(slots=True)
class Replay:
    """The outcome of replaying one game.

    ``start`` is None when the start position could not be set up (invalid FEN) or the variant is
    unsupported (``unsupported`` then names it). ``plies`` is the legal mainline prefix and
    ``final`` the position after it. ``stopped_at`` is the ply of the first mainline move that
    could not be played (None when the whole mainline was legal). ``variation_plies`` counts the
    legal plies replayed inside variations. ``superseded`` lists reader diagnostics that replay
    replaced by a more precise one (a move-like token such as ``Sf3`` becomes ``san.unknown-piece``
    at its ply).
    """

    start: Position | None = None
    plies: list[PlyRecord] = field(default_factory=list)
    final: Position | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    unsupported: str | None = None
    chess960: bool = False
    stopped_at: int | None = None
    variation_plies: int = 0
    superseded: list[Diagnostic] = field(default_factory=list)

    @property
    def start_ply(self) -> int:
        """Plies before the start position counted from move 1 with White (for move labels)."""
        return 0 if self.start is None else plies_before(self.start)


def start_position(tags: dict[str, str]) -> tuple[Position | None, list[Diagnostic], str | None, bool]:
    """(start position, diagnostics, unsupported variant name, chess960) from a game's tags."""
    kind = variant_kind(tags)
    if kind not in ("standard", "chess960"):
        diag = Diagnostic.make(
            "variant.unsupported",
            f"variant {kind!r} is not standard chess or Chess960; moves not checked",
        )
        return None, [diag], kind, False
    chess960 = kind == "chess960"
    fen = tags.get("FEN")
    if fen is None:
        if tags.get("SetUp", "0").strip() == "1":
            diag = Diagnostic.make("fen.invalid", 'SetUp "1" without a FEN tag')
            return None, [diag], None, chess960
        if chess960:
            return Position.from_fen(STARTING_FEN, chess960=True), [], None, True
        return Position.initial(), [], None, False
    try:
        pos = Position.from_fen(fen.strip(), chess960=True if chess960 else None)
    except FenError as exc:
        field_name = getattr(exc, "field", None)
        where = f" ({field_name})" if field_name else ""
        message = getattr(exc, "message", None) or str(exc)
        diag = Diagnostic.make("fen.invalid", f"invalid FEN{where}: {message}: {fen!r}", fen=fen)
        return None, [diag], None, chess960
    except Exception as exc:  # noqa: BLE001 - bad input never crashes
        diag = Diagnostic.make("fen.invalid", f"invalid FEN: {exc}: {fen!r}", fen=fen)
        return None, [diag], None, chess960
    if pos.chess960 and not chess960 and _standard_letters(fen):
        # standard castling letters (KQkq) that fit only Chess960, without a Variant tag: the
        # game is standard chess (Shredder file letters, ``GAga``, are Chess960's own notation)
        return _standard_rights(fen.strip(), pos)
    return pos, [], None, bool(pos.chess960)


def _standard_letters(fen: str) -> bool:
    fields = fen.split()
    return len(fields) > 2 and set(fields[2]) <= set("KQkq-")


def _standard_rights(fen: str, read: Position) -> tuple[Position | None, list[Diagnostic], str | None, bool]:
    """The position of a standard game's FEN whose castling rights (``KQkq`` letters) fit only
    Chess960 (``KQ`` with the king on d1): those rights are dropped, with a warning naming
    them; the rights standard chess has are kept. Chess960 needs its ``Variant`` tag."""
    fields = fen.split()
    kept = []
    for right in fields[2] if len(fields) > 2 else "":
        trial = " ".join([*fields[:2], right, *fields[3:]])
        try:
            if not Position.from_fen(trial, chess960=False).chess960:
                kept.append(right)
        except Exception:  # noqa: BLE001 - a right standard chess does not have
            continue
    fields[2] = "".join(kept) or "-"
    dropped = "".join(right for right in read.fen().split()[2] if right not in kept)
    try:
        pos = Position.from_fen(" ".join(fields), chess960=False)
    except Exception as exc:  # noqa: BLE001 - bad input never crashes
        return None, [Diagnostic.make("fen.invalid", f"invalid FEN: {exc}: {fen!r}", fen=fen)], None, False
    diag = Diagnostic.make(
        "fen.chess960-castling",
        f"castling rights {dropped!r} need Chess960 rules (king or rook off its standard square) and the game has "
        f'no [Variant "Chess960"] tag: read as standard chess without them',
        fen=fen,
    )
    return pos, [diag], None, False


class _Replayer:
    """Replays lines; collects diagnostics. One instance per game."""

    __slots__ = ("diagnostics", "notes", "variation_plies", "variations")

    def __init__(self, *, notes: bool, variations: bool) -> None:
        self.diagnostics: list[Diagnostic] = []
        self.notes = notes
        self.variations = variations
        self.variation_plies = 0

    # -- diagnostics -------------------------------------------------------------------------
    def _emit(self, code: str, message: str, node: MoveNode, ply: int, **extra: object) -> None:
        span = node.span
        self.diagnostics.append(
            Diagnostic.make(code, message, line=span.line, column=span.column, ply=ply, san=node.san, **extra)
        )

    def _san_error(self, exc: SanError, node: MoveNode, before: Position, ply: int) -> None:
        code = getattr(exc, "code", "san.illegal")
        candidates = tuple(getattr(exc, "candidates", ()) or ())
        fen = before.fen()
        if code == "san.illegal" and not before.has_legal_moves():
            ended = "checkmate" if before.is_check() else "stalemate"
            self._emit(
                "game.move-after-end",
                f"move {node.san!r} played after the game ended in {ended}",
                node,
                ply,
                fen=fen,
            )
            return
        message = getattr(exc, "message", None) or str(exc)
        if code == "san.ambiguous" and candidates and not all(c in message for c in candidates):
            message = f"{message} (candidates: {', '.join(candidates)})"
        if code not in ("san.invalid", "san.unknown-piece", "san.illegal", "san.ambiguous"):
            code = "san.illegal"
        self._emit(code, message, node, ply, fen=fen, candidates=candidates)

    # -- lines -------------------------------------------------------------------------------
    def line(
        self, nodes: list[MoveNode], pos: Position, ply: int, records: list[PlyRecord] | None
    ) -> tuple[Position, int | None]:
        """Play ``nodes`` from ``pos`` (first node is ply ``ply``), and every variation in them.

        Appends a :class:`PlyRecord` per legal ply to ``records`` (mainline only) and returns the
        position after the legal prefix and the ply at which the line stopped (None if complete).
        Variations are played depth first, each where it stands (diagnostics come in text
        order), from an explicit stack of line generators: no recursion.
        """
        stack = [self._line(nodes, pos, ply, records)]
        outcome: tuple[Position, int | None] = (pos, None)
        while stack:
            try:
                variation, before, first = next(stack[-1])
            except StopIteration as done:
                stack.pop()
                outcome = done.value  # the last line to finish is the outermost
                continue
            stack.append(self._line(variation, before, first, None))
        return outcome

    def _line(
        self, nodes: list[MoveNode], pos: Position, ply: int, records: list[PlyRecord] | None
    ) -> Generator[tuple[list[MoveNode], Position, int], None, tuple[Position, int | None]]:
        """One line, as a generator: yields ``(variation, position before, first ply)`` for each
        variation to play before it goes on (see :meth:`line`) and returns what :meth:`line`
        returns. Stops at ply ``MAX_LINE_PLIES + 1`` with ``game.too-long``.

        This is the hot path: the common case (standard SAN, right suffix, no move number
        mismatch) costs one cached syntax lookup, one resolve, one play, one check test.
        """
        if ply + len(nodes) - 1 > MAX_LINE_PLIES:
            capped: MoveNode | None = nodes[max(MAX_LINE_PLIES + 1 - ply, 0)]
            nodes = nodes[: max(MAX_LINE_PLIES + 1 - ply, 0)]
        else:
            capped = None
        notes = self.notes
        follow = self.variations
        known = _SYNTAX
        append = records.append if records is not None else None
        last = len(nodes) - 1 if capped is None else len(nodes)  # the line's last node, if played
        index = -1
        lenient: tuple[str, ...]
        check = pos.is_check() if nodes else False  # whether the side to move is in check
        for node in nodes:
            index += 1
            before = pos
            try:
                text = node.lenient or node.san
                entry = known.get(text)
                if entry is None:
                    entry = _syntax(text)
                syntax, kind, target, mask, capture, suffix, canonical = entry
                if kind:
                    stepped = advance(before, kind, target, mask, capture, check)
                    if stepped is not None:
                        move, after, check = stepped
                        lenient = ()
                    else:
                        move, _, lenient = before.resolve_san_detailed(syntax)
                        after = before.play(move)
                        check = after.is_check()
                elif syntax.null:
                    move = NULL_MOVE
                    after = before.play_null()
                    if notes:
                        self._emit("san.null-move", "null move '--' (not a legal chess move)", node, ply)
                    lenient = ()
                    check = after.is_check()
                else:
                    move, _, lenient = before.resolve_san_detailed(syntax)
                    after = before.play(move)
                    check = after.is_check()
            except SanError as exc:
                if index and notes:
                    self._late_mate_suffix(nodes[index - 1], before, ply - 1)
                self._san_error(exc, node, before, ply)
                if follow and node.variations:
                    for variation in node.variations:
                        if variation:
                            yield variation, before, ply
                return before, ply
            except Exception as exc:  # noqa: BLE001 - bad input never crashes
                self._emit("san.invalid", f"cannot play {node.san!r}: {exc}", node, ply, fen=before.fen())
                if follow and node.variations:
                    for variation in node.variations:
                        if variation:
                            yield variation, before, ply
                return before, ply
            if check:
                expected = "#" if (suffix == "#" or index == last) and after.is_checkmate() else "+"
            else:
                expected = ""
            if lenient:
                san = before.san_without_suffix(move) + expected
            elif suffix == expected:
                san = canonical
            else:
                san = _base(syntax) + expected
            if notes and (
                lenient or suffix != expected or (node.number is not None and node.number != before.fullmove_number)
            ):
                self._notes(node, syntax, before, ply, san, lenient, expected)
            if append is not None:
                append(_new_tuple(PlyRecord, (ply, node, before, move, after, san, after.key(), check)))
            else:
                self.variation_plies += 1
            if follow and node.variations:
                for variation in node.variations:
                    if variation:
                        yield variation, before, ply
            pos = after
            ply += 1
        if capped is not None:
            span = capped.span
            self.diagnostics.append(too_long(ply, capped.san, line=span.line, column=span.column))
            return pos, ply
        return pos, None

    def _late_mate_suffix(self, node: MoveNode, after: Position, ply: int) -> None:
        """``node`` (ply ``ply``) delivered mate although written with '+' (found when the next
        move fails: only then was mate possible without being the line's last move)."""
        try:
            suffix = parse_san_syntax(node.lenient or node.san).suffix
        except SanError:
            return
        if suffix == "+" and after.is_checkmate():
            self._emit("san.check-suffix", f"{node.san!r} gives checkmate: write '#' not '+'", node, ply)

    # -- move-level notes -------------------------------------------------------------------
    def _notes(
        self,
        node: MoveNode,
        syntax: SanSyntax,
        before: Position,
        ply: int,
        san: str,
        lenient: tuple[str, ...],
        expected: str,
    ) -> None:
        suffix = syntax.suffix
        if suffix != expected:
            self._emit("san.check-suffix", suffix_message(node.san, suffix, expected), node, ply)
        number = node.number
        if number is not None and number != before.fullmove_number:
            self._emit("movenumber.mismatch", number_message(number, before.fullmove_number), node, ply)
        if lenient:
            self._emit(
                "san.lenient",
                f"non-standard notation ({'; '.join(lenient)}): standard SAN is {san!r}",
                node,
                ply,
            )


# SAN syntax by text for the replay loop: one dict lookup per ply instead of a call into
# ``parse_san_syntax``'s cache. An entry is (syntax, then the arguments of ``notation.rules.step.advance``
# -- kind, target, origin mask, capture mark -- then the suffix and the canonical spelling);
# kind is 0 when the fused resolve-play-check fast path does not apply (a lenient spelling,
# castling, a promotion, a null move). Only successful parses are kept; cleared when large.
_Entry = tuple["SanSyntax", int, int, int, bool, str, str]
_SYNTAX: dict[str, _Entry] = {}
_SYNTAX_SIZE = 8192


def _syntax(text: str) -> _Entry:
    """``parse_san_syntax(text)`` (raises :class:`SanError`) as a ``_SYNTAX`` entry, remembered."""
    syntax = parse_san_syntax(text)
    kind, target, mask = syntax.fast
    if syntax.lenient:
        kind = 0
    if len(_SYNTAX) >= _SYNTAX_SIZE:
        _SYNTAX.clear()
    entry = (syntax, kind, target, mask, syntax.capture, syntax.suffix, syntax.canonical)
    _SYNTAX[text] = entry
    return entry


def _base(syntax: SanSyntax) -> str:
    """The syntax's canonical spelling without its ``+``/``#`` suffix."""
    return syntax.canonical[:-1] if syntax.suffix else syntax.canonical


def replay(game: Game, *, variations: bool = True, notes: bool = True) -> Replay:
    """Replay ``game``'s mainline (and, unless ``variations=False``, every variation).

    ``notes=False`` skips the move-level warnings (suffix, move numbers, lenient notation) for
    callers that only need the moves. Never raises on bad input.
    """
    start, diagnostics, unsupported, chess960 = start_position(game.tags)
    result = Replay(start=start, unsupported=unsupported, chess960=chess960)
    if start is None:
        fen_line = _tag_location(game, "FEN")
        result.diagnostics = [d.located(line=fen_line[0], column=fen_line[1]) for d in diagnostics]
        return result
    replayer = _Replayer(notes=notes, variations=variations)
    records: list[PlyRecord] = []
    cut = _mainline_junk(game)
    moves = game.moves if cut is None else game.moves[: cut[0]]
    final, stopped = replayer.line(moves, start, 1, records)
    if cut is not None and stopped is None:
        index, junk, code, message = cut
        stopped = index + 1
        replayer.diagnostics.append(
            Diagnostic.make(
                code, message, line=junk.line, column=junk.column, ply=stopped, san=junk.san, fen=final.fen()
            )
        )
        result.superseded.append(junk)
    result.plies = records
    result.final = final
    result.stopped_at = stopped
    result.diagnostics = _unreported(replayer.diagnostics, game)
    if diagnostics:  # a start position read with a warning (fen.chess960-castling)
        fen_line = _tag_location(game, "FEN")
        result.diagnostics[:0] = [d.located(line=fen_line[0], column=fen_line[1]) for d in diagnostics]
    result.variation_plies = replayer.variation_plies
    return result


def _unreported(diagnostics: list[Diagnostic], game: Game) -> list[Diagnostic]:
    """``diagnostics`` less the ``game.too-long`` that the reader already reported (where it
    stopped keeping the line: the same move, the same finding)."""
    if not any(d.code == "game.too-long" for d in diagnostics):
        return diagnostics
    told = {(d.line, d.column) for d in game.diagnostics if d.code == "game.too-long"}
    return [d for d in diagnostics if d.code != "game.too-long" or (d.line, d.column) not in told]


@lru_cache(maxsize=1)
def _move_like() -> re.Pattern[str]:
    """tokens.lark's MOVE_LIKE: a token shaped like a move with any letter for its piece."""
    return re.compile(terminal_patterns("tokens")["MOVE_LIKE"])


def _mainline_junk(game: Game) -> tuple[int, Diagnostic, str, str] | None:
    """The first move-like token the reader could not read (``Sf3``) that stands in the mainline.

    Returns (index of the next mainline move, the reader's diagnostic, code, message) so that
    replay stops the mainline there with a SAN error at the right ply instead of reporting the
    next move as illegal. Tokens that may sit inside a variation are left to the reader's
    diagnostic alone.
    """
    junk = [
        d
        for d in game.diagnostics
        if d.code == "pgn.syntax"
        and d.san
        and d.line is not None
        and d.column is not None
        and _move_like().match(d.san)
    ]
    if not junk:
        return None
    moves = game.moves
    for diag in sorted(junk, key=lambda d: (d.line, d.column)):
        where = (diag.line, diag.column)
        index = 0
        while index < len(moves) and (moves[index].span.line, moves[index].span.column) < where:
            index += 1
        if index > 0 and moves[index - 1].variations:
            continue  # may be inside the previous move's variations
        try:
            parse_san_syntax(diag.san or "")
        except SanError as exc:
            return index, diag, exc.code, exc.message
        return index, diag, "san.invalid", f"not a move in standard algebraic notation: {diag.san!r}"
    return None


def _tag_location(game: Game, name: str) -> tuple[int | None, int | None]:
    """(line, column) where tag ``name`` is reported: the game's first tag line (tags carry no
    spans of their own)."""
    return game.line, None
