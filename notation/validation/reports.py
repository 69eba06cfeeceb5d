"""Game reports: replay one game against the Laws and report what is wrong with it.

:class:`GameReport` (``to_dict()`` is the jsonl contract of ``notation validate``) and
:func:`check_game`, the pure-Python reference path. Driving a whole source, with the compiled
core and worker processes, is :mod:`notation.validation.run`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, NamedTuple

from notation.validation.checks import (
    Claims,
    Outcome,
    claim_diagnostics,
    claims,
    dead_diagnostics,
    mark,
    outcome,
    recorded_winner,
    result_diagnostics,
    tag_diagnostics,
)
from notation.validation.dead import NO_ANALYSIS, Dead, analyse
from notation.diagnostics import (
    PEDANTIC_CODES,
    SEVERITY_RANK,
    Diagnostic,
    json_int as _int,
    json_string as _string,
    worst_severity,
)

if TYPE_CHECKING:  # pragma: no cover
    from notation.pgn.chunks import ReadFailure
    from notation.pgn.model import Game
    from notation.validation.checks import Mark
    from notation.validation.replay import Replay


@dataclass(slots=True)
class GameReport:
    """What validation found in one game (see :meth:`to_dict` for the jsonl contract)."""

    file: str
    game: int
    line: int
    white: str | None
    black: str | None
    result: str | None
    status: str
    plies: int
    final_fen: str | None
    outcome: Outcome = field(default_factory=Outcome)
    claims: Claims = field(default_factory=Claims)
    diagnostics: tuple[Diagnostic, ...] = ()
    variation_plies: int = 0
    start_ply: int = 0  # plies before the start position (labels of FEN games)
    dead: Dead = NO_ANALYSIS  # the first dead position, and who can still mate at the end
    #: not a game but a read failure's line (:class:`notation.pgn.chunks.ReadFailure`'s kind:
    #: ``"io"`` or ``"not-pgn"``); None for a game. Not part of the jsonl contract.
    read_failure: str | None = None

    @property
    def errors(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity == "error")

    @property
    def warnings(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity == "warning")

    def to_dict(self) -> dict[str, Any]:
        """The jsonl contract, exactly: keys, order and meanings as the README documents them."""
        return {
            "file": self.file,
            "game": self.game,
            "line": self.line,
            "white": self.white,
            "black": self.black,
            "result": self.result,
            "status": self.status,
            "plies": self.plies,
            "final_fen": self.final_fen,
            "outcome": self.outcome.to_dict(),
            "claims": self.claims.to_dict(),
            "diagnostics": [d.to_dict() for d in self.diagnostics],
        }

    def to_json(self) -> str:
        """:meth:`to_dict` as one compact line of JSON (UTF-8 kept), written out directly: the
        same text as ``json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))``
        (a test compares the two on every report of the corpus)."""
        end, claim = self.outcome, self.claims
        if end.termination is None and end.winner is None:
            ended = _NO_OUTCOME_JSON
        else:
            ended = f'{{"termination":{_string(end.termination)},"winner":{_string(end.winner)}}}'
        if (
            claim.threefold is None
            and claim.fifty_moves is None
            and claim.fivefold is None
            and claim.seventyfive_moves is None
        ):
            claimed = _NO_CLAIMS_JSON
        else:
            claimed = _claims_json(claim)
        diagnostics = self.diagnostics
        return (
            f'{{"file":{_string(self.file)},"game":{self.game},"line":{self.line},'
            f'"white":{_string(self.white)},"black":{_string(self.black)},"result":{_string(self.result)},'
            f'"status":{_string(self.status)},"plies":{self.plies},"final_fen":{_string(self.final_fen)},'
            f'"outcome":{ended},"claims":{claimed},'
            f'"diagnostics":[{",".join([d.to_json() for d in diagnostics]) if diagnostics else ""}]}}'
        )


class ReportLine(NamedTuple):
    """A report as its jsonl line (:meth:`GameReport.to_json`), with the facts a run's summary
    counts: what ``validate --format jsonl`` keeps of each report (made in the worker processes,
    and by the compiled core itself for the games it reports whole)."""

    file: str
    status: str
    plies: int
    variation_plies: int
    io_failure: bool
    text: str
    unread: bool = False  # not a game: where reading failed (a pgn.io read failure)
    not_pgn: bool = False  # not a game: text with no PGN structure (a pgn.not-pgn read failure)
    #: the codes of its findings, in order, when all are information (status ok), else None:
    #: what a text listing counts without reading the line back
    codes: tuple[str, ...] | None = ()
    start_ply: int = 0  # plies before the start position (:attr:`GameReport.start_ply`)


def report_line(report: GameReport) -> ReportLine:
    """A report as its :class:`ReportLine`."""
    unread = report.read_failure == "io"
    # a game read whole before reading stopped carries the failure too (``pgn.io`` after it)
    io_failure = unread or any(d.code == "pgn.io" for d in report.diagnostics)
    return ReportLine(
        report.file,
        report.status,
        report.plies,
        report.variation_plies,
        io_failure,
        report.to_json(),
        unread,
        report.read_failure == "not-pgn",
        tuple([d.code for d in report.diagnostics]) if all(d.severity == "info" for d in report.diagnostics) else None,
        report.start_ply,
    )


def _claims_json(claim: Claims) -> str:
    """The ``claims`` object of :meth:`GameReport.to_json`."""
    return (
        f'{{"threefold":{_int(claim.threefold)},"fifty_moves":{_int(claim.fifty_moves)},'
        f'"fivefold":{_int(claim.fivefold)},"seventyfive_moves":{_int(claim.seventyfive_moves)}}}'
    )


#: The ``outcome`` and ``claims`` of a game that ended by no rule and reached no claim.
_NO_OUTCOME_JSON = '{"termination":null,"winner":null}'
_NO_CLAIMS_JSON = '{"threefold":null,"fifty_moves":null,"fivefold":null,"seventyfive_moves":null}'


def pedantic(report: GameReport) -> GameReport:
    """``report`` as a pedantic check of the PGN standard sees it: the codes of
    :data:`notation.diagnostics.PEDANTIC_CODES` become warnings, and the status follows."""
    if not any(d.code in PEDANTIC_CODES and d.severity == "info" for d in report.diagnostics):
        return report
    diagnostics = tuple(
        replace(d, severity="warning") if d.code in PEDANTIC_CODES and d.severity == "info" else d
        for d in report.diagnostics
    )
    status = report.status
    if status == "ok":
        status = "warning"
    return replace(report, diagnostics=diagnostics, status=status)


def check_game(game: Game, *, file: str | None = None) -> GameReport:
    """Replay and check one game; never raises (an internal failure becomes a diagnostic).
    The report's :class:`Dead` holds what ``validate`` reads: the loser's verdict may be
    :data:`notation.validation.dead.NOT_COMPUTED` (:func:`check_replayed` computes both)."""
    name = file if file is not None else (game.file or "<input>")
    try:
        return _check(game, name, both=False)
    except Exception as exc:  # noqa: BLE001 - bad input must never crash a whole run
        return _failed(game, name, exc)


def failure_report(failure: ReadFailure, *, file: str | None = None) -> GameReport:
    """The report line of a read failure (:class:`notation.pgn.chunks.ReadFailure`): no game,
    status ``error``, its one diagnostic located at the failure (``read_failure`` says which)."""
    name = file if file is not None else (failure.file or "<input>")
    diag = failure.diagnostic
    located = diag.located(file=name, game=failure.number, line=diag.line if diag.line is not None else failure.line)
    return GameReport(
        file=name,
        game=failure.number,
        line=failure.line,
        white=None,
        black=None,
        result=None,
        status="error",
        plies=0,
        final_fen=None,
        diagnostics=(located,),
        read_failure=failure.kind,
    )


def check_replayed(game: Game, rep: Replay, *, file: str | None = None) -> GameReport:
    """Like :func:`check_game` for a game already replayed (``rep = replay(game)``): no second
    replay (used by ``notation.tables.rows`` so that import and validate agree exactly), with
    both sides' verdicts on the final position (import's columns)."""
    name = file if file is not None else (game.file or "<input>")
    try:
        return _check(game, name, rep, both=True)
    except Exception as exc:  # noqa: BLE001 - bad input must never crash a whole run
        return _failed(game, name, exc)


def _failed(game: Game, name: str, exc: Exception) -> GameReport:
    """The report of a game whose checking failed: an ``internal.error`` diagnostic (a bug)."""
    diag = Diagnostic.make(
        "internal.error",
        f"internal error while checking this game: {type(exc).__name__}: {exc}",
        line=game.line,
    )
    return game_report(game, name, "error", 0, None, Outcome(), Claims(), [*game.diagnostics, diag], 0, 0)


def replay(game: Game) -> Replay:
    """:func:`notation.validation.replay.replay` of ``game``, imported with the first game
    checked (so that a command with nothing to check loads neither Lark nor the rules tables)."""
    from notation.validation.replay import replay as replayed

    return replayed(game)


def _check(game: Game, name: str, rep: Replay | None = None, *, both: bool) -> GameReport:
    if rep is None:
        rep = replay(game)
    if rep.superseded:
        gone = {id(d) for d in rep.superseded}
        diagnostics = [d for d in game.diagnostics if id(d) not in gone]
    else:
        diagnostics = list(game.diagnostics)
    if rep.plies and any(d.code == "pgn.lenient-token" and d.ply is None for d in diagnostics):
        diagnostics = _with_plies(diagnostics, rep)
    diagnostics.extend(rep.diagnostics)
    diagnostics.extend(tag_diagnostics(game))
    dead = NO_ANALYSIS
    if rep.unsupported is not None or rep.start is None:
        claim, end = Claims(), Outcome()
        diagnostics.extend(result_diagnostics(game, None, end, False))
    else:
        claim, perpetual = claims(rep.start, rep.plies)
        if rep.stopped_at is None:
            dead = analyse(rep, recorded_winner(game), both)
        end = outcome(rep.final, claim, len(rep.plies), dead.first)
        diagnostics.extend(claim_diagnostics(rep.plies, claim, perpetual))
        offset = rep.plies[0].ply if rep.plies else 1

        def locate(ply: int) -> Mark:
            return mark(rep.plies[ply - offset])

        diagnostics.extend(dead_diagnostics(locate, len(rep.plies), dead, end, game.line))
        diagnostics.extend(
            result_diagnostics(
                game,
                dead if rep.stopped_at is None else None,
                end,
                rep.stopped_at is None,
                mark(rep.plies[-1]) if rep.plies else None,
                locate(dead.first) if dead.first else None,
            )
        )
    worst = worst_severity(diagnostics)
    if rep.unsupported is not None and (worst is None or SEVERITY_RANK[worst] < SEVERITY_RANK["error"]):
        status = "unsupported"
    elif worst == "error":
        status = "error"
    elif worst == "warning":
        status = "warning"
    else:
        status = "ok"
    final_fen = rep.final.fen() if rep.final is not None else None
    return game_report(
        game,
        name,
        status,
        len(rep.plies),
        final_fen,
        end,
        claim,
        diagnostics,
        rep.variation_plies,
        rep.start_ply,
        dead,
    )


def _with_plies(diagnostics: list[Diagnostic], rep: Replay) -> list[Diagnostic]:
    """The reader's ``pgn.lenient-token`` warnings (``0-0``, ``e8Q``) with the ply of their
    move filled in when it was replayed on the mainline (found by line and column)."""
    where: dict[tuple[int | None, int | None], int] = {
        (record.node.span.line, record.node.span.column): record.ply for record in rep.plies
    }
    out = []
    for diag in diagnostics:
        if diag.code == "pgn.lenient-token" and diag.ply is None:
            ply = where.get((diag.line, diag.column))
            if ply is not None:
                diag = diag.located(ply=ply)
        out.append(diag)
    return out


def game_report(
    game: Game,
    name: str,
    status: str,
    plies: int,
    final_fen: str | None,
    end: Outcome,
    claim: Claims,
    diagnostics: list[Diagnostic],
    variation_plies: int,
    start_ply: int,
    dead: Dead = NO_ANALYSIS,
) -> GameReport:
    fallback, number = game.line, game.number
    located = [d.in_game(name, number, d.line if d.line is not None else fallback) for d in diagnostics]
    if len(located) > 1:
        located.sort(key=lambda d: (d.line or 0, d.column or 0))
    tags = game.tags
    return GameReport(
        file=name,
        game=game.number,
        line=game.line,
        white=tags.get("White"),
        black=tags.get("Black"),
        result=tags.get("Result"),
        status=status,
        plies=plies,
        final_fen=final_fen,
        outcome=end,
        claims=claim,
        diagnostics=tuple(located),
        variation_plies=variation_plies,
        start_ply=start_ply,
        dead=dead,
    )
