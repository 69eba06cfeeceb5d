"""`notation scoresheet INPUT`: reconstruct a game from a sloppy or damaged scoresheet.

Options -> one library call (:func:`notation.scoresheet.pgn_input.read_scoresheets`) -> render -> exit code:
0 reconstructed (read as written, or corrected with the whole reading confident: its
probability at least 0.99, see :mod:`notation.scoresheet.verdict`), 1 a human must look (the best
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

from enum import Enum
from typing import TYPE_CHECKING

import typer

from notation.cli.render import EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, JOBS_HELP, diagnostic_line, dumps
from notation.cli.atomic import write_text_atomic

if TYPE_CHECKING:  # pragma: no cover
    from notation.scoresheet.pgn_input import SheetGame

LANGUAGE_CHOICES = ("auto", "en", "zh", "de", "fr", "es", "it", "nl", "ru")


class SheetFormat(str, Enum):
    pgn = "pgn"
    json = "json"


class Language(str, Enum):
    """The piece-letter languages (``auto``: detected from the boxes)."""

    auto = "auto"
    en = "en"
    zh = "zh"
    de = "de"
    fr = "fr"
    es = "es"
    it = "it"
    nl = "nl"
    ru = "ru"
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
    inputs: list[str] = typer.Argument(..., metavar="PATH...", help="Scoresheet text file (.txt, .csv; '-' for stdin), or a PGN file; "
                                       "with --same-game, every copy of one game's sheet."),
    same_game: bool = typer.Option(False, "--same-game", help="The inputs are copies of one game's sheet (the two "
                                   "players' sheets, say): read them together as independent witnesses."),
    lang: Language = typer.Option(Language.auto, "--lang", help="Piece-letter language (auto: detected)."),
    fen: str | None = typer.Option(None, "--fen", help="Starting position (FEN) when not the initial one."),
    tags: str | None = typer.Option(None, "--tags", help='Tags, e.g. "White=Anna,Black=Bernd,Event=Club ch".'),
    out: list[str] = typer.Option([], "--out", "-o", help="Write .pgn/.txt/.html/.svg/.json (repeatable)."),
    max_cost: float | None = typer.Option(None, "--max-cost", min=0.0, help="The largest cost of a reading that may "
                                          "exit 0 (default 60; a costlier best reading is still given)."),
    pin: list[str] = typer.Option([], "--pin", help="A move you have settled, e.g. 12...Nf6 (Black's twelfth) or "
                                  "12.Nf3 (White's): the reading plays it at that move (repeatable)."),
    review: bool = typer.Option(False, "--review", help="In a terminal: ask about each move the reading flags "
                                "(below 0.99), in game order, showing what each copy wrote, a board and the "
                                "moves weighed; each answer pins the move and the sheet is read again; then "
                                "write the finished reading."),
    diagram: list[str] = typer.Option([], "--diagram", help="Diagram after a move, e.g. 24w or 24b (repeatable)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Do not list corrections on stderr."),
    format: SheetFormat = typer.Option(SheetFormat.pgn, "--format", help="What goes to stdout without --out: pgn or json "
                               "(the reconstruction with its readings ranked, each with moves, cost, "
                               "probability and corrections)."),
    jobs: int = typer.Option(1, "--jobs", "-j", min=0, help="A PGN input: " + JOBS_HELP),
    game: int | None = typer.Option(None, "--game", min=1, help="A PGN input: only its N-th game (1-based; "
                                    "default: every game, one sheet each)."),
) -> None:
    """Reconstruct the game written on a scoresheet (or on both players' sheets): lenient multi-language input,
    the best complete legal reading, how sure it is move by move."""
    language, shape = Language(lang).value, SheetFormat(format).value
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
            if isinstance(exc, FileNotFoundError):
                from notation.diagnostics import Diagnostic

                typer.echo(diagnostic_line(Diagnostic.missing_file(one)), err=True)
            else:
                typer.echo(f"error: {one}: {exc.strerror or exc}", err=True)
            raise typer.Exit(EXIT_USAGE) from None
    if tags is not None:
        from notation.scoresheet.tags import parse_tags

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

    from notation.scoresheet.pgn_input import has_pgn_structure

    pgn_input = any(has_pgn_structure(t) for t in texts)
    if same_game and pgn_input:
        typer.echo("error: --same-game reads sheets typed as move lists, not PGN files", err=True)
        raise typer.Exit(EXIT_USAGE)
    if pin:
        _check_pins(pin, fen, pgn_input)
    if review:
        games = [_review(texts, lang=language, fen=fen, tags=tags, max_cost=max_cost, pins=pin, pgn_input=pgn_input)]
    else:
        games = _read_games(texts, same_game=same_game, lang=language, fen=fen, tags=tags, max_cost=max_cost,
                            jobs=jobs, pins=pin, pgn_input=pgn_input)
    _finish(games, inputs, out, diagram, quiet, shape, game)


def _review(texts: list[str], *, lang: str, fen: str | None, tags: str | None, max_cost: float | None,
            pins: list[str], pgn_input: bool) -> SheetGame:
    """The sheet finished at the terminal (:mod:`notation.cli.scoresheet_review`); a usage error
    without a terminal, or for a PGN input."""
    import sys

    from notation.cli.scoresheet_review import review
    from notation.scoresheet.pgn_input import SheetGame
    from notation.scoresheet.reader import read_sheets

    if pgn_input:
        typer.echo("error: --review finishes one sheet (or copies of one game), not a PGN file's games", err=True)
        raise typer.Exit(EXIT_USAGE)
    if not (sys.stdin.isatty() and sys.stderr.isatty()):
        typer.echo("error: --review asks questions: run it in a terminal (or settle moves with --pin)", err=True)
        raise typer.Exit(EXIT_USAGE)

    def ask(prompt: str) -> str | None:
        sys.stderr.write(prompt)
        sys.stderr.flush()
        line = sys.stdin.readline()
        return line if line else None

    rec, _ = review(lambda given: read_sheets(texts, lang=lang, fen=fen, tags=tags, max_cost=max_cost, pins=given),
                    pins, ask, lambda text: typer.echo(text, err=True))
    return SheetGame(number=1, line=1, reconstruction=rec)


def _check_pins(pins: list[str], fen: str | None, pgn_input: bool) -> None:
    """A usage error for a ``--pin`` that is no pin, or given for a PGN input (many games)."""
    from notation.scoresheet.reader import PinError, parse_pin

    if pgn_input:
        typer.echo("error: --pin settles a move of one sheet, not of a PGN file's games", err=True)
        raise typer.Exit(EXIT_USAGE)
    start_ply = 0
    if fen is not None:
        from notation.formats.position import Position

        start = Position.from_fen(fen)
        start_ply = (start.fullmove_number - 1) * 2 + (0 if start.turn else 1)
    for one in pins:
        try:
            parse_pin(one, start_ply)
        except PinError as exc:
            typer.echo(f"error: --pin {exc}", err=True)
            raise typer.Exit(EXIT_USAGE) from None


def _read_games(texts: list[str], *, same_game: bool, lang: str, fen: str | None, tags: str | None,
                max_cost: float | None, jobs: int, pins: list[str], pgn_input: bool) -> list[SheetGame]:
    """The games of the inputs read (one for a sheet, or for copies of one game)."""
    from notation.scoresheet.pgn_input import SheetGame, read_scoresheets
    from notation.scoresheet.reader import read_sheets

    if same_game or not pgn_input:
        return [SheetGame(number=1, line=1, reconstruction=read_sheets(
            texts, lang=lang, fen=fen, tags=tags, max_cost=max_cost, pins=pins))]
    from notation.parallel import worker_pool

    with worker_pool(jobs) as executor:
        return list(read_scoresheets(texts[0], lang=lang, fen=fen, tags=tags, executor=executor, max_cost=max_cost))


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
               + (f", probability {rec.confidence:.2f}" if not sheet.replayed else ""), err=True)


def register(app: typer.Typer) -> None:
    """Add `notation scoresheet` to `app`."""
    app.command("scoresheet")(scoresheet)
