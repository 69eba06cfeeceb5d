"""`notation filter PATH...`: write the games that match every given criterion.

Options -> :class:`notation.select.criteria.Criteria` -> :func:`notation.select.run.select` ->
games written in the export format (or verbatim) -> exit code: 0 at least one game written,
1 no game matched, 2 usage error or unreadable input.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

import typer

from notation.cli.game_output import GameSink
from notation.cli.progress import reading_progress
from notation.cli.render import EXACT_HELP, EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, JOBS_HELP, error, unread_line
from notation.cli.sources import usable_sources
from notation.diagnostics import STATUSES

FILTER_HELP = (
    "Write the games that match every given criterion (in the PGN export format; --verbatim "
    "copies each game's text as it is).\n\n"
    "Names, event and site match a part of the tag, ignoring case and accents (--exact: the whole "
    "tag). Criteria on tags "
    "only never read the moves; --moves, --fen, --material and the ending options replay the "
    "mainline. --unique keeps the first of each set of games with the same start position and "
    "mainline moves (tags and comments ignored); --duplicates FILE receives the others.\n\n"
    "--material WHITE:BLACK, e.g. 'KQR:kr': the pieces of each side (the king may be left out); "
    "a count after a letter (R2), '+' at least (P3+), '-' at most (N1-), '*' any number (P*), "
    "'=' as many as the other side (P=); pieces not named: none.\n\n"
    "Exit status: 0 games written, 1 no game matched, 2 usage error or unreadable input."
)


def _criteria(options: dict[str, Any]) -> Any:
    """The Criteria of the command-line options (raises CriteriaError / MaterialError)."""
    from notation.select.criteria import (
        ENDINGS,
        Criteria,
        CriteriaError,
        fold,
        parse_bound_date,
        parse_eco_ranges,
        parse_moves,
    )
    from notation.pgn.model import RESULTS
    from notation.select.material import parse_material

    tags = []
    for item in options["tag"] or []:
        name, sep, pattern = item.partition("=")
        if not sep or not name.strip():
            raise CriteriaError(f"--tag {item!r}: write NAME=REGEX")
        try:
            tags.append((name.strip(), re.compile(pattern, re.IGNORECASE)))
        except re.error as exc:
            raise CriteriaError(f"--tag {item!r}: bad regular expression: {exc}") from None
    results = tuple(r.strip() for r in (options["result"] or "").split(",") if r.strip())
    for result in results:
        if result not in RESULTS:
            raise CriteriaError(f"--result {result!r}: expected 1-0, 0-1, 1/2-1/2 or *")
    statuses = tuple(s.strip() for s in (options["status"] or "").split(",") if s.strip())
    for status in statuses:
        if status not in STATUSES:
            raise CriteriaError(f"--status {status!r}: expected ok, warning, error or unsupported")
    fen = options["fen"]
    if fen is not None:
        from notation.formats.fen import FenError
        from notation.formats.position import Position

        try:
            Position.from_fen(fen)
        except (FenError, ValueError) as exc:
            raise CriteriaError(f"--fen {fen!r}: {exc}") from None
    endings = frozenset(name for name in ENDINGS if options[name])
    variants = tuple(fold(v.strip()) for v in (options["variant"] or "").split(",") if v.strip())
    return Criteria(
        white=options["white"],
        black=options["black"],
        player=options["player"],
        event=options["event"],
        site=options["site"],
        eco=parse_eco_ranges(options["eco"]) if options["eco"] else (),
        results=results,
        date_from=parse_bound_date(options["date_from"], upper=False) if options["date_from"] else None,
        date_to=parse_bound_date(options["date_to"], upper=True) if options["date_to"] else None,
        min_elo=options["min_elo"],
        max_elo=options["max_elo"],
        elo_diff=options["elo_diff"],
        min_plies=options["min_plies"],
        max_plies=options["max_plies"],
        tags=tuple(tags),
        statuses=statuses,
        variants=variants,
        moves=parse_moves(options["moves"]) if options["moves"] else (),
        fen=fen,
        material=parse_material(options["material"]) if options["material"] else None,
        endings=endings,
        invert=options["invert"],
        exact=options["exact"],
    )


def _run(sources: list[tuple[Any, str]], criteria: Any, options: dict[str, Any]) -> tuple[GameSink, GameSink | None]:
    """Select and write; returns the closed outputs (their ``count``; ``io_failure`` set on the
    main one when an input could not be read)."""
    from notation.parallel import worker_pool
    from notation.select.run import select_written

    out = GameSink(options["out"])
    dupes: GameSink | None = None
    try:
        if options["duplicates"]:
            dupes = GameSink(options["duplicates"])
        unique = options["unique"] or dupes is not None
        with worker_pool(options["jobs"]) as executor:
            for item in select_written(
                sources, criteria, unique=unique, verbatim=options["verbatim"], executor=executor
            ):
                if item.failed is not None:
                    out.io_failure = True
                    error(unread_line(item.failed, item.failed.file))
                if not item.selected or item.text is None:
                    continue
                if item.duplicate:
                    if dupes is not None:
                        dupes.write(item.text)
                    continue
                out.write(item.text)
    except BaseException:
        out.abort()
        if dupes is not None:
            dupes.abort()
        raise
    out.close()
    if dupes is not None:
        dupes.close()
    return out, dupes


def run_filter(paths: list[str], options: dict[str, Any]) -> int:
    """The whole command: returns the exit code."""
    from notation.select.criteria import CriteriaError
    from notation.select.material import MaterialError

    try:
        criteria = _criteria(options)
    except (CriteriaError, MaterialError) as exc:
        error(str(exc))
        return EXIT_USAGE
    sources = usable_sources(paths, [options["out"], options["duplicates"]])
    if sources is None:
        return EXIT_USAGE
    try:
        with reading_progress("filtering", paths):
            out, dupes = _run(sources, criteria, options)
    except OSError as exc:
        error(f"cannot write the output: {exc.strerror or exc}: {exc.filename or options['out']}")
        return EXIT_USAGE
    if options["out"] != "-":
        extra = f", {dupes.count} duplicate(s) to {options['duplicates']}" if dupes is not None else ""
        typer.echo(f"{out.count} game(s) written to {options['out']}{extra}", err=True)
    if out.io_failure:
        return EXIT_USAGE
    return EXIT_OK if out.count else EXIT_PROBLEMS


def filter_command(
    paths: Annotated[list[str], typer.Argument(metavar="PATH...", help="PGN files or folders ('-' = standard input).")],
    out: Annotated[str, typer.Option("--out", "-o", help="Output file ('-' = standard output).")] = "-",
    white: Annotated[str | None, typer.Option(help="White's name contains TEXT.", metavar="TEXT")] = None,
    black: Annotated[str | None, typer.Option(help="Black's name contains TEXT.", metavar="TEXT")] = None,
    player: Annotated[str | None, typer.Option(help="Either player's name contains TEXT.", metavar="TEXT")] = None,
    event: Annotated[str | None, typer.Option(help="The Event tag contains TEXT.", metavar="TEXT")] = None,
    site: Annotated[str | None, typer.Option(help="The Site tag contains TEXT.", metavar="TEXT")] = None,
    eco: Annotated[
        str | None, typer.Option(help="ECO codes and ranges: B20-B99,C42 (B = B00-B99).", metavar="CODES")
    ] = None,
    result: Annotated[
        str | None, typer.Option(help="Results, comma-separated: 1-0,0-1,1/2-1/2,*.", metavar="RESULTS")
    ] = None,
    date_from: Annotated[
        str | None, typer.Option(help="Played on or after DATE (YYYY[.MM[.DD]]).", metavar="DATE")
    ] = None,
    date_to: Annotated[
        str | None, typer.Option(help="Played on or before DATE (YYYY[.MM[.DD]]).", metavar="DATE")
    ] = None,
    min_elo: Annotated[int | None, typer.Option(help="Both players rated at least N.", metavar="N", min=0)] = None,
    max_elo: Annotated[int | None, typer.Option(help="Both players rated at most N.", metavar="N", min=0)] = None,
    elo_diff: Annotated[int | None, typer.Option(help="|WhiteElo - BlackElo| at most N.", metavar="N", min=0)] = None,
    min_plies: Annotated[int | None, typer.Option(help="At least N mainline plies.", metavar="N", min=0)] = None,
    max_plies: Annotated[int | None, typer.Option(help="At most N mainline plies.", metavar="N", min=0)] = None,
    tag: Annotated[
        list[str] | None,
        typer.Option(help="Tag NAME matches REGEX (case-insensitive); repeatable.", metavar="NAME=REGEX"),
    ] = None,
    status: Annotated[
        str | None, typer.Option(help=f"Validation status: {', '.join(STATUSES)} (comma-separated).", metavar="STATUS")
    ] = None,
    variant: Annotated[
        str | None, typer.Option(help="Variant: standard, chess960 or a [Variant] name.", metavar="NAME")
    ] = None,
    moves: Annotated[
        str | None,
        typer.Option(help="The game starts with these moves ('*' = any move): \"1. e4 c5 2. Nf3\".", metavar="SAN"),
    ] = None,
    fen: Annotated[
        str | None,
        typer.Option(help="The mainline reaches this position (FIDE identity: counters ignored).", metavar="FEN"),
    ] = None,
    material: Annotated[
        str | None, typer.Option(help="A piece make-up reached, e.g. 'KQR:kr' (see above).", metavar="WHITE:BLACK")
    ] = None,
    checkmate: Annotated[bool, typer.Option("--checkmate", help="The game ends in checkmate.")] = False,
    stalemate: Annotated[bool, typer.Option("--stalemate", help="The game ends in stalemate.")] = False,
    threefold: Annotated[bool, typer.Option("--threefold", help="A position occurs three times.")] = False,
    fifty: Annotated[
        bool, typer.Option("--fifty", help="50 moves by each side without capture or pawn move occur.")
    ] = False,
    seventyfive: Annotated[
        bool, typer.Option("--seventyfive", help="75 moves by each side without capture or pawn move occur.")
    ] = False,
    unwinnable_timeouts: Annotated[
        bool,
        typer.Option(
            "--unwinnable-timeouts",
            help="Wrongly scored wins on time: the winner could not checkmate by any series of legal moves, so the game is a draw (FIDE 6.9).",
        ),
    ] = False,
    invert: Annotated[bool, typer.Option("--invert", help="Write the games that do NOT match.")] = False,
    unique: Annotated[bool, typer.Option("--unique", help="Keep only the first of duplicate games.")] = False,
    duplicates: Annotated[
        str | None, typer.Option(help="Write the duplicates (all but the first of each set) to FILE.", metavar="FILE")
    ] = None,
    verbatim: Annotated[bool, typer.Option("--verbatim", help="Copy each game's text as read.")] = False,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=0, help=JOBS_HELP)] = 1,
    exact: Annotated[bool, typer.Option("--exact", help=EXACT_HELP)] = False,
) -> None:
    options = dict(locals())
    del options["paths"]
    raise typer.Exit(run_filter(paths, options))


def register(app: typer.Typer) -> None:
    """Add `notation filter` to `app`."""
    app.command("filter", help=FILTER_HELP)(filter_command)


__all__ = ["register", "run_filter"]
