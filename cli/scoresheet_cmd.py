"""`notation scoresheet INPUT`: reconstruct a game from a sloppy or damaged scoresheet.

Options -> one library call (:func:`notation.scoresheet.pgn_input.read_scoresheets`) -> render -> exit code:
0 reconstructed (read as written, or corrected with the whole reading confident: its
probability at least 0.99, see :mod:`notation.scoresheet.copies`), 1 a human must look (the best
reading is still given, with the least sure move and the rival readings),
2 usage or I/O failure (a bad option, a ``--tags`` entry that is no ``Name=value`` pair with
a PGN tag name).

Without ``--out`` the PGN goes to stdout and the corrections to stderr (compiler style).
``--out`` picks the rendering by suffix (repeatable): ``.pgn``, ``.txt`` (FIDE-style
two-column sheet), ``.html`` (printable page with SVG diagrams), ``.svg`` (final position or
the first ``--diagram``), ``.json`` (the reconstruction as data, its ``readings`` ranked);
``--format json`` prints that JSON to stdout instead of the PGN.

A PGN input (the text opens with a tag section: :mod:`notation.scoresheet.pgn_input`) is read
game by game: a game that replays legally is a certain reading, one that does not is
reconstructed from its own movetext, keeping its tags. Every game gets its sheet: the PGN output
holds all games; ``.txt`` one sheet after another; ``.html`` one page, one section per game;
``.json``/``--format json`` an array, each reading with its ``game`` number and ``line``.
``--game N`` keeps only the N-th game (then the outputs are those of a single sheet, and
``.svg``, which holds one picture, needs it when the input holds several games). Diagnostics
name the game (``game 2``); the exit code is the worst of the games'.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from notation.cli.render import EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, JOBS_HELP, diagnostic_line, dumps
from notation.cli.atomic import write_text_atomic

if TYPE_CHECKING:  # pragma: no cover
    from notation.engines.uci import UciEngine
    from notation.scoresheet.engine import EngineSettings
    from notation.scoresheet.pgn_input import SheetGame

LANGUAGE_CHOICES = ("auto", "en", "zh", "de", "fr", "es", "it", "nl", "ru")
OUT_SUFFIXES = (".pgn", ".txt", ".html", ".htm", ".svg", ".json")


#: The largest scoresheet input read (after decompression): far more than any sheet or
#: tournament file of sheets, and a bound on memory for anything else.
MAX_INPUT_BYTES = 64 * 1024 * 1024


def _read_input(path: str) -> str:
    """The text of ``path`` (``-``: stdin) through the readers every command uses: gzip, bzip2,
    xz and zstd, UTF-8/16/32 with or without a byte order mark, CR, LF and CRLF line ends, a
    single-byte fallback. Raises ``OSError`` (unreadable, or over :data:`MAX_INPUT_BYTES`)."""
    from notation.pgn.sources import decode, open_source

    blocks: list[bytes] = []
    total = 0
    with open_source(path) as (read, _):
        while True:
            block = read(1 << 16)
            if not block:
                break
            data = block.encode("utf-8") if isinstance(block, str) else bytes(block)
            total += len(data)
            if total > MAX_INPUT_BYTES:
                raise OSError(f"more than {MAX_INPUT_BYTES // (1024 * 1024)} MiB: not a scoresheet input")
            blocks.append(data)
        if read.error is not None:
            raise OSError(read.error)
    text, _, _ = decode(b"".join(blocks))
    return text.lstrip("\ufeff")


def scoresheet(
    inputs: list[str] = typer.Argument(..., help="Scoresheet text file (.txt, .csv; '-' for stdin), or a PGN file; "
                                       "with --same-game, every copy of one game's sheet."),
    same_game: bool = typer.Option(False, "--same-game", help="The inputs are copies of one game's sheet (the two "
                                   "players' sheets, say): read them together as independent witnesses."),
    lang: str = typer.Option("auto", "--lang", help="Piece-letter language: " + "|".join(LANGUAGE_CHOICES) + "."),
    fen: str | None = typer.Option(None, "--fen", help="Starting position (FEN) when not the initial one."),
    tags: str | None = typer.Option(None, "--tags", help='Tags, e.g. "White=Anna,Black=Bernd,Event=Club ch".'),
    out: list[str] = typer.Option([], "--out", "-o", help="Write .pgn/.txt/.html/.svg/.json (repeatable)."),
    max_cost: float | None = typer.Option(None, "--max-cost", min=0.0, help="The largest cost of a reading that may "
                                          "exit 0 (default 60; a costlier best reading is still given); with "
                                          "--method repair, the largest total edit cost accepted (default 12)."),
    method: str = typer.Option("channel", "--method", help="channel: read the whole sheet as a noisy channel "
                               "(costs learned from real handwritten sheets; always gives the best complete "
                               "reading); repair: the least-cost repair of a few slips on a sheet otherwise "
                               "as written."),
    diagram: list[str] = typer.Option([], "--diagram", help="Diagram after a move, e.g. 24w or 24b (repeatable)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Do not list corrections on stderr."),
    format: str = typer.Option("pgn", "--format", help="What goes to stdout without --out: pgn or json "
                               "(the reconstruction with its readings ranked, each with moves, cost, "
                               "probability and corrections)."),
    jobs: int = typer.Option(1, "--jobs", "-j", min=0, help="A PGN input: " + JOBS_HELP),
    game: int | None = typer.Option(None, "--game", min=1, help="A PGN input: only its N-th game (1-based; "
                                    "default: every game, one sheet each)."),
    engine: str | None = typer.Option(None, "--engine", help="A UCI chess engine (its program, e.g. "
                                      "/usr/games/stockfish): where the likeliest readings disagree, it judges "
                                      "which move a player would make; a reading it prefers may rank higher, and "
                                      "its doubts lower the confidence, never raise it. Started and quit by the "
                                      "command; the default reads without one."),
    engine_time: float = typer.Option(2.0, "--engine-time", min=0.0, help="With --engine: the engine's time per "
                                      "sheet in seconds (default 2); positions left when it is spent are not "
                                      "judged."),
) -> None:
    """Reconstruct the game written on a scoresheet (or on both players' sheets): lenient multi-language input,
    the best complete legal reading, how sure it is move by move."""
    if format not in ("pgn", "json"):
        typer.echo("error: --format must be pgn or json", err=True)
        raise typer.Exit(EXIT_USAGE)
    if method not in ("channel", "repair"):
        typer.echo("error: --method must be channel or repair", err=True)
        raise typer.Exit(EXIT_USAGE)
    if method == "repair" and same_game:
        typer.echo("error: --same-game reads the copies with --method channel", err=True)
        raise typer.Exit(EXIT_USAGE)
    if lang not in LANGUAGE_CHOICES:
        typer.echo(f"error: --lang must be one of {', '.join(LANGUAGE_CHOICES)}", err=True)
        raise typer.Exit(EXIT_USAGE)
    if engine is not None and method != "channel":
        typer.echo("error: --engine judges the readings of --method channel", err=True)
        raise typer.Exit(EXIT_USAGE)
    for target in out:
        if not target.lower().endswith(OUT_SUFFIXES):
            typer.echo(f"error: --out {target}: use one of {', '.join(OUT_SUFFIXES)}", err=True)
            raise typer.Exit(EXIT_USAGE)
    if len(inputs) > 1 and not same_game:
        typer.echo("error: several inputs are read as copies of one game: add --same-game", err=True)
        raise typer.Exit(EXIT_USAGE)
    texts: list[str] = []
    for one in inputs:
        try:
            texts.append(_read_input(one))
        except OSError as exc:
            typer.echo(f"error: {one}: {exc.strerror or exc}", err=True)
            raise typer.Exit(EXIT_USAGE) from None
    if tags is not None:
        from notation.scoresheet.reconstruct import parse_tags

        _, bad = parse_tags(tags)
        if bad:
            typer.echo(f"error: --tags: {bad[0]!r} is no Name=value pair with a PGN tag name "
                       "(letters, digits, _ + # = : - ; no spaces)", err=True)
            raise typer.Exit(EXIT_USAGE)
    if fen is not None:
        from notation.formats.fen import FenError
        from notation.formats.position import Position

        try:
            Position.from_fen(fen)
        except FenError as exc:
            typer.echo(f"error: --fen: {exc.message}", err=True)
            raise typer.Exit(EXIT_USAGE) from None

    if same_game:
        from notation.scoresheet.pgn_input import has_pgn_structure

        if any(has_pgn_structure(t) for t in texts):
            typer.echo("error: --same-game reads sheets typed as move lists, not PGN files", err=True)
            raise typer.Exit(EXIT_USAGE)
    settings: EngineSettings | None = None
    session: UciEngine | None = None
    if engine is not None:
        settings, session = _start_engine(engine, engine_time)
    try:
        games = _read_games(texts, same_game=same_game, lang=lang, fen=fen, tags=tags, max_cost=max_cost,
                            method=method, jobs=jobs, settings=settings, session=session)
    finally:
        if session is not None:
            session.close()
    _finish(games, inputs, out, diagram, quiet, format, game)


def _start_engine(path: str, seconds: float) -> tuple[EngineSettings, UciEngine]:
    """The engine of ``--engine`` started (its program found on the PATH when no path is
    given); a usage error when it cannot be run as a UCI engine."""
    import shutil

    from notation.engines.uci import EngineError, UciEngine
    from notation.scoresheet.engine import EngineSettings

    found = shutil.which(path) if "/" not in path and "\\" not in path else path
    if found is None:
        typer.echo(f"error: --engine {path}: no such program", err=True)
        raise typer.Exit(EXIT_USAGE)
    try:
        session = UciEngine(found)
    except EngineError as exc:
        typer.echo(f"error: --engine {path}: {exc}", err=True)
        raise typer.Exit(EXIT_USAGE) from None
    return EngineSettings(found, seconds), session


def _read_games(texts: list[str], *, same_game: bool, lang: str, fen: str | None, tags: str | None,
                max_cost: float | None, method: str, jobs: int, settings: EngineSettings | None,
                session: UciEngine | None) -> list[SheetGame]:
    """The games of the inputs read (one for copies of one game)."""
    from notation.scoresheet.pgn_input import read_scoresheets

    text = texts[0]
    if same_game:
        from notation.scoresheet.pgn_input import SheetGame
        from notation.scoresheet.copies import MAX_COST as COPIES_MAX_COST
        from notation.scoresheet.copies import reconstruct_copies

        return [SheetGame(number=1, line=1, reconstruction=reconstruct_copies(
            texts, lang=lang, fen=fen, tags=tags, max_cost=COPIES_MAX_COST if max_cost is None else max_cost,
            engine=settings, session=session))]
    from notation.parallel import worker_pool

    with worker_pool(jobs) as executor:
        return list(read_scoresheets(text, lang=lang, fen=fen, tags=tags, executor=executor,
                                     max_cost=max_cost, method=method, engine=settings, session=session))


def _finish(games: list[SheetGame], inputs: list[str], out: list[str], diagram: list[str], quiet: bool,
            format: str, game: int | None) -> None:
    """Pick the games, render them, write the outputs and exit with the worst game's code."""
    from notation.scoresheet.render import diagrams_for, render_html, render_html_games, render_text

    input = inputs[0] if len(inputs) == 1 else " + ".join(inputs)
    pgn_input = any(g.pgn for g in games)
    if game is not None:
        if game > len(games):
            typer.echo(f"error: --game {game}: the input holds {len(games)} game(s)", err=True)
            raise typer.Exit(EXIT_USAGE)
        games = [games[game - 1]]
    several = len(games) > 1
    if several and any(t.lower().endswith(".svg") for t in out):
        typer.echo(f"error: --out .svg holds one picture and the input holds {len(games)} games: "
                   "pick one with --game N", err=True)
        raise typer.Exit(EXIT_USAGE)
    pictures: list[list[tuple[str, str]]] = []
    for sheet in games:
        diagrams, problems = diagrams_for(sheet.reconstruction, list(diagram))
        if problems:
            where = f"game {sheet.number}: " if pgn_input else ""
            for problem in problems:
                typer.echo(f"error: --diagram: {where}{problem}", err=True)
            raise typer.Exit(EXIT_USAGE)
        pictures.append(diagrams)

    name = "<stdin>" if input == "-" else input
    if not quiet:
        for sheet in games:
            _report(name, sheet, pgn_input)
    recs = [g.reconstruction for g in games]
    json_text = dumps(recs[0].to_dict() if not pgn_input or game is not None
                      else [dict(g.reconstruction.to_dict(), game=g.number, line=g.line) for g in games], pretty=True)
    pgn_text = "\n".join(r.pgn() for r in recs if r.sans or pgn_input)  # a PGN input's tags-only game too
    target = ""
    try:
        for target in out:
            lower = target.lower()
            if lower.endswith(".pgn"):
                content = pgn_text
            elif lower.endswith(".txt"):
                content = "\n".join(render_text(r) for r in recs)
            elif lower.endswith((".html", ".htm")):
                content = (render_html_games(list(zip(recs, pictures))) if several
                           else render_html(recs[0], diagrams=pictures[0]))
            elif lower.endswith(".svg"):
                picked = pictures[0][0][1] if pictures[0] else ""
                content = picked + "\n" if picked else ""
            else:
                content = json_text + "\n"
            if content and not content.endswith("\n"):
                content += "\n"
            write_text_atomic(target, content)
    except OSError as exc:
        typer.echo(f"error: {exc.filename or target}: cannot write: {exc.strerror or exc}", err=True)
        raise typer.Exit(EXIT_USAGE) from None
    if not out and format == "json":
        typer.echo(json_text)
    elif not out and pgn_text:
        typer.echo(pgn_text, nl=False)
    raise typer.Exit(EXIT_PROBLEMS if any(r.needs_human for r in recs) else EXIT_OK)


def _report(name: str, sheet: SheetGame, pgn_input: bool) -> None:
    """The diagnostics and the one-line summary of one game on stderr (``game N`` for a PGN
    input)."""
    rec = sheet.reconstruction
    context = f"game {sheet.number}" if pgn_input else None
    for diag in rec.diagnostics:
        typer.echo(diagnostic_line(diag.located(file=name), context, start_ply=rec.start_ply), err=True)
    summary = {
        "ok": "read as written",
        "corrected": f"reconstructed with {len(rec.corrections)} correction(s)",
        "needs-human": "NEEDS A HUMAN (the best reading is given)",
    }[rec.status]
    if rec.copies > 1:
        summary += f", {rec.copies} copies read together"
    if sheet.replayed:
        summary = "read as PGN (replays legally)"
    where = f"{name}: game {sheet.number} (line {sheet.line})" if pgn_input else name
    typer.echo(f"{where}: {summary}; {len(rec.sans)} plies, {rec.language} letters, "
               f"{rec.layout} layout, cost {rec.cost:g}"
               + (f", probability {rec.reading_confidence:.2f}" if rec.reading_confidence is not None else ""), err=True)


def register(app: typer.Typer) -> None:
    """Add `notation scoresheet` to `app`."""
    app.command("scoresheet")(scoresheet)
