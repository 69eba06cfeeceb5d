"""`notation convert PATH... --out FILE|DIR`: re-render games (normalised SAN, stripped parts,
added tags) as PGN, UCI, LAN, FEN, EPD or JSON lines.

Options -> :class:`notation.convert.render.ConvertOptions` -> one conversion per game -> files
(atomic; ``--split N`` writes ``1.pgn``, ``2.pgn`` ... of N games each into the directory
``--out``) -> exit code: 0 every game converted whole, 1 some game had a move that could not be
played, a bad FEN or an unsupported variant (its mainline is converted up to there), 2 usage
error or unreadable input.
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Annotated, Any

import typer

from notation.cli.game_output import GameSink
from notation.cli.progress import reading_progress
from notation.cli.render import EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, JOBS_HELP, error, unread_line
from notation.cli.sources import usable_sources

if TYPE_CHECKING:  # pragma: no cover
    from notation.convert.render import ConvertOptions

CONVERT_HELP = (
    "Re-render games: PGN export format with standard SAN (Ngf3 -> Nf3 where the file is not "
    "needed, 0-0 -> O-O), or the mainline as UCI or long algebraic moves, one FEN or EPD line per "
    "position, or one JSON object per game (tags, and SAN, UCI and FEN for every move).\n\n"
    "--strip comments,variations,nags,clocks removes those parts; --add-tags plycount,final-fen,"
    "hashcode,eco adds PlyCount, FinalFEN, HashCode (the Polyglot key of the final position, hex) "
    "and ECO/Opening; a tag the game already has stays as written unless --replace-tags.\n\n"
    "FEN and EPD output: a blank line between games, and each line names its game (FILE:N): after "
    "a tab on a FEN line, in the c1 opcode of an EPD line (c0: players, event, date).\n\n"
    "Exit status: 0 all games converted, 1 some game was not converted whole (a move that could "
    "not be played: the mainline stops before it; a bad FEN; a variant other than chess and "
    "Chess960), 2 usage error or unreadable input."
)


class Target(str, Enum):
    pgn = "pgn"
    uci = "uci"
    lan = "lan"
    fen = "fen"
    epd = "epd"
    jsonl = "jsonl"


def _names(text: str | None, allowed: tuple[str, ...], option: str) -> list[str]:
    names = [n.strip().lower() for n in (text or "").split(",") if n.strip()]
    for name in names:
        if name not in allowed:
            raise ValueError(f"{option} {name!r}: expected some of {', '.join(allowed)}")
    return names


def _run(
    sources: list[tuple[Any, str]], options: ConvertOptions, out: str, split: int, jobs: int = 1
) -> tuple[GameSink, int]:
    """Convert and write every game; returns the closed output and the number of games not
    converted whole."""
    from notation.convert.render import EXTENSIONS, convert_chunk, separator
    from notation.parallel import chunks, ordered_map, worker_pool
    from notation.pgn.reader import split_games

    sink = GameSink(out, separator=separator(options.to), split=split, extension=EXTENSIONS[options.to])
    incomplete = 0
    tasks = ((chunk, options, name) for source, name in sources for chunk in chunks(split_games(source)))
    try:
        with worker_pool(jobs) as executor:
            for name, results in ordered_map(convert_chunk, tasks, executor):
                for text, whole, failed in results:
                    if failed is not None:
                        sink.io_failure = True
                        error(unread_line(failed, name))
                    if text is None:
                        continue
                    if not whole:
                        incomplete += 1
                    sink.write(text)
    except BaseException:
        sink.abort()
        raise
    sink.close()
    return sink, incomplete


def run_convert(
    paths: list[str],
    out: str,
    to: str,
    strip: str | None,
    add_tags: str | None,
    split: int,
    columns: int | None,
    *,
    replace_tags: bool = False,
    jobs: int = 1,
) -> int:
    """The whole command: returns the exit code."""
    from notation.convert.normalise import ADDED_TAGS, STRIPPABLE
    from notation.convert.render import ConvertOptions

    try:
        stripped = frozenset(_names(strip, STRIPPABLE, "--strip"))
        added = tuple(_names(add_tags, ADDED_TAGS, "--add-tags"))
    except ValueError as exc:
        error(str(exc))
        return EXIT_USAGE
    if split < 0 or (columns is not None and columns < 0):
        error("--split and --columns take a number >= 0")
        return EXIT_USAGE
    if split and out == "-":
        error("--split writes files into a directory: give --out DIR")
        return EXIT_USAGE
    sources = usable_sources(paths, [out], folders=bool(split))
    if sources is None:
        return EXIT_USAGE
    options = ConvertOptions(to=to, strip=stripped, add_tags=added, columns=columns, replace_tags=replace_tags)
    try:
        with reading_progress("converting", paths):
            sink, incomplete = _run(sources, options, out, split, jobs)
    except OSError as exc:
        error(f"cannot write the output: {exc.strerror or exc}: {exc.filename or out}")
        return EXIT_USAGE
    if incomplete:
        error(
            f"{incomplete} game(s) not converted whole: a move that could not be played (the "
            "mainline stops before it), a bad FEN or a variant other than chess and Chess960 "
            "(`notation validate` explains)"
        )
    if out != "-":
        typer.echo(f"{sink.count} game(s) converted to {out}", err=True)
    if sink.io_failure:
        return EXIT_USAGE
    return EXIT_PROBLEMS if incomplete else EXIT_OK


def convert_command(
    paths: Annotated[list[str], typer.Argument(metavar="PATH...", help="PGN files or folders ('-' = standard input).")],
    out: Annotated[
        str, typer.Option("--out", "-o", help="Output file, '-' (standard output), or a directory with --split.")
    ] = "-",
    to: Annotated[Target, typer.Option("--to", help="Output format.")] = Target.pgn,
    strip: Annotated[str | None, typer.Option(help="Remove: comments,variations,nags,clocks.", metavar="PARTS")] = None,
    add_tags: Annotated[
        str | None, typer.Option(help="Add tags: plycount,final-fen,hashcode,eco.", metavar="TAGS")
    ] = None,
    split: Annotated[
        int, typer.Option(help="Files of N games each (1.pgn, 2.pgn ... in --out DIR).", metavar="N", min=0)
    ] = 0,
    columns: Annotated[
        int | None, typer.Option(help="Movetext lines at most N characters (0: one line).", metavar="N", min=0)
    ] = None,
    replace_tags: Annotated[
        bool,
        typer.Option(
            "--replace-tags", help="--add-tags replaces a tag the game already has (by default the game's own stays)."
        ),
    ] = False,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=0, help=JOBS_HELP)] = 1,
) -> None:
    raise typer.Exit(
        run_convert(paths, out, to.value, strip, add_tags, split, columns, replace_tags=replace_tags, jobs=jobs)
    )


def register(app: typer.Typer) -> None:
    """Add `notation convert` to `app`."""
    app.command("convert", help=CONVERT_HELP)(convert_command)
