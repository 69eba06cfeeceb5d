"""`notation scoresheet INPUT`: reconstruct a game from a sloppy or damaged scoresheet.

Options -> one library call (:func:`notation.scoresheet.reconstruct.reconstruct`) -> render -> exit code:
0 reconstructed (read as written, or only confident corrections: no other complete reading
scores within the margin of the best, see :mod:`notation.scoresheet.readings`), 1 a human must
look (rival readings, listed likeliest first with their probabilities, or no legal reading),
2 usage or I/O failure (a bad option, a ``--tags`` entry that is no ``Name=value`` pair with
a PGN tag name).

Without ``--out`` the PGN goes to stdout and the corrections to stderr (compiler style).
``--out`` picks the rendering by suffix (repeatable): ``.pgn``, ``.txt`` (FIDE-style
two-column sheet), ``.html`` (printable page with SVG diagrams), ``.svg`` (final position or
the first ``--diagram``), ``.json`` (the reconstruction as data, its ``readings`` ranked);
``--format json`` prints that JSON to stdout instead of the PGN.
"""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from notation.cli.render import EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, diagnostic_line, dumps
from notation.cli.atomic import write_text_atomic

LANGUAGE_CHOICES = ("auto", "en", "zh", "de", "fr", "es", "it", "nl", "ru")
OUT_SUFFIXES = (".pgn", ".txt", ".html", ".htm", ".svg", ".json")


def _read_input(path: str) -> str:
    if path == "-":
        data = sys.stdin.buffer.read()
    else:
        data = Path(path).read_bytes()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def scoresheet(
    input: str = typer.Argument(..., help="Scoresheet text file (.txt, .csv; '-' for stdin)."),
    lang: str = typer.Option("auto", "--lang", help="Piece-letter language: " + "|".join(LANGUAGE_CHOICES) + "."),
    fen: str | None = typer.Option(None, "--fen", help="Starting position (FEN) when not the initial one."),
    tags: str | None = typer.Option(None, "--tags", help='Tags, e.g. "White=Anna,Black=Bernd,Event=Club ch".'),
    out: list[str] = typer.Option([], "--out", "-o", help="Write .pgn/.txt/.html/.svg/.json (repeatable)."),
    max_cost: float = typer.Option(12.0, "--max-cost", min=0.0, help="Largest total edit cost accepted."),
    diagram: list[str] = typer.Option([], "--diagram", help="Diagram after a move, e.g. 24w or 24b (repeatable)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Do not list corrections on stderr."),
    format: str = typer.Option("pgn", "--format", help="What goes to stdout without --out: pgn or json "
                               "(the reconstruction with its readings ranked, each with moves, cost, "
                               "probability and corrections)."),
) -> None:
    """Reconstruct the game written on a scoresheet: lenient multi-language input, least-cost repair."""
    from notation.scoresheet.render import diagrams_for, render_html, render_text
    from notation.scoresheet.reconstruct import reconstruct

    if format not in ("pgn", "json"):
        typer.echo("error: --format must be pgn or json", err=True)
        raise typer.Exit(EXIT_USAGE)
    if lang not in LANGUAGE_CHOICES:
        typer.echo(f"error: --lang must be one of {', '.join(LANGUAGE_CHOICES)}", err=True)
        raise typer.Exit(EXIT_USAGE)
    for target in out:
        if not target.lower().endswith(OUT_SUFFIXES):
            typer.echo(f"error: --out {target}: use one of {', '.join(OUT_SUFFIXES)}", err=True)
            raise typer.Exit(EXIT_USAGE)
    try:
        text = _read_input(input)
    except OSError as exc:
        typer.echo(f"error: {input}: {exc.strerror or exc}", err=True)
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
        from notation.rules.position import Position

        try:
            Position.from_fen(fen)
        except FenError as exc:
            typer.echo(f"error: --fen: {exc.message}", err=True)
            raise typer.Exit(EXIT_USAGE) from None

    rec = reconstruct(text, lang=lang, fen=fen, tags=tags, max_cost=max_cost)
    diagrams, problems = diagrams_for(rec, list(diagram))
    if problems:
        for problem in problems:
            typer.echo(f"error: --diagram: {problem}", err=True)
        raise typer.Exit(EXIT_USAGE)

    name = "<stdin>" if input == "-" else input
    if not quiet:
        for diag in rec.diagnostics:
            typer.echo(diagnostic_line(diag.located(file=name), start_ply=rec.start_ply), err=True)
        summary = {
            "ok": "read as written",
            "corrected": f"reconstructed with {len(rec.corrections)} correction(s)",
            "needs-human": "NEEDS A HUMAN",
        }[rec.status]
        typer.echo(f"{name}: {summary}; {len(rec.sans)} plies, {rec.language} letters, "
                   f"{rec.layout} layout, cost {rec.cost:g}", err=True)

    try:
        for target in out:
            lower = target.lower()
            if lower.endswith(".pgn"):
                content = rec.pgn() if rec.sans else ""
            elif lower.endswith(".txt"):
                content = render_text(rec)
            elif lower.endswith((".html", ".htm")):
                content = render_html(rec, diagrams=diagrams)
            elif lower.endswith(".svg"):
                picked = diagrams[0][1] if diagrams else ""
                content = picked + "\n" if picked else ""
            else:
                content = dumps(rec.to_dict(), pretty=True) + "\n"
            if content and not content.endswith("\n"):
                content += "\n"
            write_text_atomic(target, content)
    except OSError as exc:
        typer.echo(f"error: cannot write: {exc.strerror or exc}", err=True)
        raise typer.Exit(EXIT_USAGE) from None
    if not out and format == "json":
        typer.echo(dumps(rec.to_dict(), pretty=True))
    elif not out and rec.sans:
        typer.echo(rec.pgn(), nl=False)
    raise typer.Exit(EXIT_PROBLEMS if rec.needs_human else EXIT_OK)


def register(app: typer.Typer) -> None:
    """Add `notation scoresheet` to `app`."""
    app.command("scoresheet")(scoresheet)
