"""Validation through the compiled core (``notation._core``), with the Python reference behind it.

:func:`notation.pgn.parser.parse_game_outline` reads every game (tags, result, the reader's
diagnostics, and the mainline's move runs and variations left whole): the core itself for a
plain game (Lark's automaton run on the core's tokens), Lark for the rest; the core splits the
runs, resolves and plays every move, and computes the claims, the rule-based end
and the final FEN in one call, returning a few Python objects per game (never one per move).

The core handles a game when the pure-Python replay would say nothing about its moves, or
only that a check suffix or a move number is wrong (warnings the core finds where they are
written and :func:`remark_diagnostics` words with the reference's own message functions).
Otherwise it *declines* (a lenient spelling, an illegal or ambiguous move, a move after mate, a null move, an unusual start position, text its scanner does not
read, a variation nested deeper than the reader keeps or a line longer than
:data:`~notation.pgn.model.MAX_LINE_PLIES` plies, which the reference reports as
``game.too-long``), and :func:`check_raw` falls back to :func:`notation.validation.reports.check_game`
on a full parse, which explains with located diagnostics. Reports are identical either way;
a test compares both paths on every game of the corpus.

``NOTATION_CORE=python`` (or ``0``) turns the core off for a process (:mod:`notation.compiled`):
everything goes through the reference. Whether a game goes to the core, and what a panic inside
it means (the reference reads the game, which carries an ``internal.error``), is decided by the
one gate of every command, :func:`notation.compiled.through_core`.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import TYPE_CHECKING

from notation.compiled import Core, core_module, through_core
from notation.diagnostics import Diagnostic, worst_severity
from notation.pgn.model import MAX_LINE_PLIES
from notation.validation.checks import (
    Claims,
    Mark,
    Outcome,
    Perpetual,
    dead_diagnostics,
    located_claim_diagnostics,
    recorded_winner,
    result_diagnostics,
    tag_diagnostics,
)
from notation.validation.shared import number_message, plies_before, suffix_message
from notation.validation import dead as dead_positions
from notation.validation.reports import GameReport, ReportLine, check_game, game_report

if TYPE_CHECKING:  # pragma: no cover
    from notation.pgn.model import Game
    from notation.pgn.chunks import RawGame
    from notation.formats.position import Position
    from notation._core import CoreGame, DeclineCode, MovesBatch, Remark


def core_available() -> bool:
    """True when validation and import use the compiled core in this process."""
    return core_module() is not None


#: Games the core declined in this process, by ``Decline.code`` (:data:`notation._core.DECLINE_CODES`):
#: a debugging statistic (the reference path took them); nothing reads it to decide anything.
DECLINES: Counter[DeclineCode] = Counter()

#: Half-move clocks and move numbers the core takes (it keeps them in 32 bits and counts on).
_COUNTER_LIMIT = 1 << 30


def check_raw(raw: RawGame, name: str | None) -> GameReport:
    """The report of one game chunk of :func:`notation.pgn.reader.split_games` (``name``: the
    file name reports carry), through the core when it takes the game (the one gate:
    :func:`notation.compiled.through_core`)."""
    report, failure = through_core(raw, lambda core: _through_core(core, raw, name))
    if report is not None:
        return report
    from notation.pgn.reader import parse_raw_game

    return check_game(parse_raw_game(raw, failure=failure), file=name)


def _through_core(core: Core, raw: RawGame, name: str | None) -> GameReport | None:
    taken = _take(core, raw, both=False)
    if taken is None:
        return _unsupported_variant(raw, name)
    game, result, start = taken
    return report_of(game, result, name if name is not None else (game.file or "<input>"), start)


#: The longest game text :func:`unsupported_outline` reads: too short to hold a line of
#: :data:`~notation.pgn.model.MAX_LINE_PLIES` moves (each at least two characters and a blank),
#: whose reader's ``game.too-long`` only the parser reports.
_OUTLINE_ONLY_CHARS = 3 * MAX_LINE_PLIES


def _unsupported_variant(raw: RawGame, name: str | None) -> GameReport | None:
    """The report of a game of a variant the reference does not replay from the core's outline
    of the game (:func:`unsupported_outline`), None when the parser must read it."""
    game = unsupported_outline(raw)
    return None if game is None else check_game(game, file=name)


def unsupported_outline(raw: RawGame) -> Game | None:
    """A game of a variant the reference does not replay (``variant.unsupported``: its moves are
    not read, only its tags and result) as the core's outline reads it
    (:func:`notation.pgn.plain.plain_outline`), when that reads the game whole without a finding
    of its own; None otherwise (the parser reads it). Its report (validate) and its rows (import)
    are the parser's game's (tests compare them): the outline and the parser read the same tags
    and result, and neither says anything of an unsupported game's moves."""
    from notation.pgn.plain import plain_outline
    from notation.validation.shared import variant_kind

    data = raw.data
    if isinstance(data, str):
        text = data
    else:
        if b"Variant" not in data:
            return None
        from notation.pgn.sources import decode

        text, encoding, bad = decode(data)
        if bad is not None or encoding != "utf-8":
            return None
    if len(text) >= _OUTLINE_ONLY_CHARS or "Variant" not in text:
        return None
    plain = plain_outline(text, raw.file, raw.number, raw.line, raw.offset)
    if plain is None:
        return None
    game = plain[0]
    if variant_kind(game.tags) in ("standard", "chess960") or any(
        d.code not in _OUTLINE_FINDINGS for d in game.diagnostics
    ):
        return None
    return game


#: What the outline reports of a game it reads whole, as the parser does (the tags and result).
_OUTLINE_FINDINGS = frozenset({"pgn.missing-result", "pgn.result-mismatch", "pgn.empty-game"})


def report_lines(raws: list[RawGame], name: str | None) -> list[ReportLine | None]:
    """The jsonl lines of the reader's games ``raws`` (of one source, reported under ``name``)
    that the core reports whole, in order, None for each game whose report Python makes
    (:func:`check_raw`): ``notation._core.report_lines`` writes the report of an ordinary game,
    one whose every check it decides (the information and warnings of an ordinary game: roster
    tags missing, claims, wrong check suffixes and move numbers, dead positions), the very line
    :meth:`GameReport.to_json` writes (a test compares them on the corpus)."""
    from notation import compiled

    core = compiled.core_module()  # (looked up at the call, as the gate does)
    if core is None or not raws:
        return [None] * len(raws)
    file = name
    if file is None:
        files = {raw.file for raw in raws}
        if len(files) > 1:
            return [None] * len(raws)
        file = files.pop() or "<input>"
    if not file.isascii():
        try:
            file.encode()
        except UnicodeEncodeError:  # a file name that is no UTF-8 text: the reports say it
            return [None] * len(raws)
    from notation.pgn.plain import MAX_DIAGNOSTICS

    try:
        written = core.report_lines(raws, file, MAX_DIAGNOSTICS, dead_positions.SEARCHES, core_start)
    except core.CorePanic:
        return [None] * len(raws)  # (each game's own call says what went wrong)
    return [
        None
        if line is None
        else ReportLine(
            file,
            line[1],
            line[2],
            line[3],
            False,
            line[0],
            codes=tuple(line[4]) if line[1] == "ok" else None,  # (ok: information alone)
            start_ply=line[5],
        )
        for line in written
    ]


def take(core: Core, raw: RawGame, moves: MovesBatch | None = None) -> tuple[Game, CoreGame, Position | None] | None:
    """``(game without moves, core result, start position)`` when the core takes ``raw``, else
    None (a core decline is counted in :data:`DECLINES`); the start position is None for the
    standard one (the rules engine is not loaded for it). ``moves`` receives the game's
    moves-table columns. Both sides' dead-position verdicts are computed (import's columns;
    :func:`check_raw`, validate's, leaves the loser's alone where nothing reads it)."""
    return _take(core, raw, moves, both=True)


def _take(
    core: Core, raw: RawGame, moves: MovesBatch | None = None, *, both: bool
) -> tuple[Game, CoreGame, Position | None] | None:
    """:func:`take` with None for the standard start position (a game without FEN, SetUp
    ``"1"`` or Variant tags but ``[Variant "Standard"]``): then neither Lark nor the rules
    engine is imported (:func:`notation.pgn.plain.plain_outline`), until a game needs them."""
    from notation.pgn.plain import MAX_DIAGNOSTICS, plain_outline

    data = raw.data
    if isinstance(data, str):
        text = data
    else:
        from notation.pgn.sources import decode

        text, encoding, bad = decode(data)
        if bad is not None or encoding != "utf-8":
            return None
    plain = plain_outline(text, raw.file, raw.number, raw.line, raw.offset)
    if plain is None:
        from notation.pgn.parser import parse_game_outline

        plain = parse_game_outline(text, file=raw.file, number=raw.number, line=raw.line, offset=raw.offset)
    game, outline = plain
    diagnostics = game.diagnostics
    if diagnostics and (len(diagnostics) >= MAX_DIAGNOSTICS // 2 or any(d.code == "pgn.syntax" for d in diagnostics)):
        return None  # junk may be a move the reference reads; a full cap may hide others
    tags = game.tags
    start: Position | None = None
    fen: str | None = None
    if "FEN" in tags or tags.get("Variant", "Standard") != "Standard" or "SetUp" in tags:
        found = _start(tags.get("FEN"), tags.get("Variant"), tags.get("SetUp"))
        if found is None:
            return None
        start, fen = found
        halfmove, fullmove, is960 = start.halfmove_clock, start.fullmove_number, bool(start.chess960)
    else:
        halfmove, fullmove, is960 = 0, 1, False  # the standard start position
    result = core.replay_game(
        fen,
        outline,
        halfmove,
        fullmove,
        moves,
        is960,
        recorded_winner(game),
        dead_positions.SEARCHES,
        both,
    )
    if isinstance(result, core.CoreGame):
        return game, result, start
    DECLINES[result.code] += 1
    return None  # declined: the reference replays and explains


@lru_cache(maxsize=1024)
def core_start(
    fen: str | None, variant: str | None, setup: str | None
) -> tuple[str | None, int, int, bool, int] | None:
    """What the core is given of a game with these ``FEN``, ``Variant`` and ``SetUp`` tags (None:
    absent): ``(FEN or None for the standard start, halfmove clock, move number, Chess960, plies
    before it)``, or None when the reference must read the game (:func:`_start`)."""
    found = _start(fen, variant, setup)
    if found is None:
        return None
    start, core_fen = found
    return core_fen, start.halfmove_clock, start.fullmove_number, bool(start.chess960), plies_before(start)


def start_of(fen: str | None, variant: str | None, setup: str | None) -> Position | None:
    """The start position of a game the core takes with these ``FEN``, ``Variant`` and
    ``SetUp`` tags (see :func:`core_start`), or None when the reference must read the game."""
    found = _start(fen, variant, setup)
    return None if found is None else found[0]


@lru_cache(maxsize=1024)
def _start(fen: str | None, variant: str | None, setup: str | None) -> tuple[Position, str | None] | None:
    """The start position the core takes for a game with these ``FEN``, ``Variant`` and
    ``SetUp`` tags (None: absent), and the FEN the core is given (None for the standard start);
    None when the reference must read the game. Remembered: a Chess960 file repeats its start
    positions, and a :class:`Position` is immutable."""
    from notation.validation.replay import start_position  # (the rules tables: once a game needs them)

    tags = {name: value for name, value in (("FEN", fen), ("Variant", variant), ("SetUp", setup)) if value is not None}
    start, problems, unsupported, chess960 = start_position(tags)
    if start is None or problems or unsupported is not None:
        return None
    if not (0 <= start.halfmove_clock < _COUNTER_LIMIT and 0 < start.fullmove_number < _COUNTER_LIMIT):
        return None  # counters beyond the core's (32-bit) range: the reference handles them
    return start, start.fen(shredder=True, en_passant="fen") if (fen is not None or chess960) else None


def remark_diagnostics(remarks: list[Remark]) -> list[Diagnostic]:
    """The move-level warnings the core found (wrong check suffixes, wrong move numbers), as
    the reference words and locates them."""
    out = []
    for kind, ply, line, column, san, written, expected in remarks:
        if kind == "suffix":
            out.append(
                Diagnostic.make(
                    "san.check-suffix",
                    suffix_message(san, written, expected),
                    line=line,
                    column=column,
                    ply=ply,
                    san=san,
                )
            )
        else:
            out.append(
                Diagnostic.make(
                    "movenumber.mismatch", number_message(written, expected), line=line, column=column, ply=ply, san=san
                )
            )
    return out


def report_of(game: Game, result: CoreGame, name: str, start: Position | None) -> GameReport:
    """The report of a game the core took (the same checks as the reference path); ``start``
    None is the standard start position."""
    diagnostics, end, claim, dead = findings_of(game, result)
    return report_from(game, result, name, start, diagnostics, end, claim, dead)


def report_from(
    game: Game,
    result: CoreGame,
    name: str,
    start: Position | None,
    diagnostics: list[Diagnostic],
    end: Outcome,
    claim: Claims,
    dead: dead_positions.Dead,
) -> GameReport:
    """:func:`report_of` given what :func:`findings_of` found."""
    worst = worst_severity(diagnostics)
    status = worst if worst in ("error", "warning") else "ok"
    return game_report(
        game,
        name,
        status,
        result.plies,
        result.final_fen,
        end,
        claim,
        diagnostics,
        result.variation_plies,
        0 if start is None else plies_before(start),
        dead,
    )


def findings_of(game: Game, result: CoreGame) -> tuple[list[Diagnostic], Outcome, Claims, dead_positions.Dead]:
    """What the checks find in a game the core took: its diagnostics (unlocated, in no order),
    the rule-based end, the claims and the dead-position analysis (:func:`report_of`; import
    reads a game with no diagnostics without building its report)."""
    diagnostics = list(game.diagnostics)
    remarks = result.remarks
    if remarks:
        diagnostics.extend(remark_diagnostics(remarks))
    diagnostics.extend(tag_diagnostics(game))
    threefold, fifty, fivefold, seventyfive = (
        result.threefold,
        result.fifty_moves,
        result.fivefold,
        result.seventyfive_moves,
    )
    claimed = threefold is not None or fifty is not None or fivefold is not None or seventyfive is not None
    claim = Claims(threefold, fifty, fivefold, seventyfive) if claimed else NO_CLAIMS
    perpetual = result.perpetual
    termination, winner = result.termination, result.winner
    end = NO_OUTCOME if termination is None and winner is None else Outcome(termination, winner)
    marks = result.marks  # (a few: the plies a diagnostic may name)

    def locate(ply: int) -> Mark:
        for mark in marks:
            if mark[0] == ply:
                return Mark(*mark)
        raise KeyError(ply)

    plies = result.plies
    if plies and (claimed or perpetual is not None):
        diagnostics.extend(
            located_claim_diagnostics(locate, plies, claim, Perpetual(*perpetual) if perpetual is not None else None)
        )
    dead = dead_positions.of_core(result)
    if dead.first is not None:
        diagnostics.extend(dead_diagnostics(locate, plies, dead, end, game.line))
    diagnostics.extend(
        result_diagnostics(
            game, dead, end, True, locate(plies) if plies else None, locate(dead.first) if dead.first else None
        )
    )
    return diagnostics, end, claim, dead


#: The claims of a game with none (shared: :class:`Claims` is frozen).
NO_CLAIMS = Claims()
#: The outcome of a game that ended by no rule (shared: :class:`Outcome` is frozen).
NO_OUTCOME = Outcome()
