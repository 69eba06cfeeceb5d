"""`notation board`: a diagram of a position (a FEN, or a game of a PGN file at a chosen ply)
written as SVG or PNG.

Exit codes: 0 diagram written; 2 usage error, an unreadable input, a bad FEN, a game or ply that
does not exist, or an output file that cannot be written (PNG also needs ``notation[charts]``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, NoReturn

import typer

from notation.cli.render import EXIT_USAGE, error
from notation.cli.table_output import diagnostic_text

BOARD_HELP = (
    "Draw a board diagram: of a FEN (quote it), or of a game of a PGN file after a given ply "
    "(--game N picks the game, default 1; --ply N the number of plies, or 12w/12b for after "
    "White's/Black's 12th move; --moves K after K full moves; default the end of the legal "
    "mainline). The last move and a king in check are highlighted; [%cal] arrows and [%csl] "
    "squares of the comment after the move are drawn.\n\n"
    "The format follows the --out suffix: .svg, or .png (rendered by vl-convert: install "
    "notation\\[charts]).\n\nExit status: 0 written, 2 usage error, unreadable input, bad FEN, "
    "no such game or ply."
)


def board_command(
    source: Annotated[str, typer.Argument(metavar="FEN|PATH", help="A FEN, or a PGN file ('-' reads standard input).")],
    out: Annotated[Path, typer.Option("--out", metavar="FILE", help="Output file: FILE.svg or FILE.png.")],
    game: Annotated[int, typer.Option("--game", metavar="N", min=1, help="The N-th game of the file.")] = 1,
    ply: Annotated[
        str | None, typer.Option("--ply", metavar="PLY", help="After PLY plies (a number, or 12w / 12b).")
    ] = None,
    moves: Annotated[
        int | None, typer.Option("--moves", metavar="K", min=0, help="After K full moves (2K plies).")
    ] = None,
    flip: Annotated[bool, typer.Option("--flip", help="Black at the bottom.")] = False,
    coordinates: Annotated[
        bool, typer.Option("--coordinates/--no-coordinates", help="Draw the file letters and rank numbers.")
    ] = True,
    caption: Annotated[
        bool, typer.Option("--caption/--no-caption", help="Name the game and the move below it.")
    ] = True,
    size: Annotated[int, typer.Option("--size", metavar="PIXELS", min=80, max=4000, help="Width in pixels.")] = 360,
) -> None:
    """Draw a board diagram."""
    from notation.cli.atomic import write_bytes_atomic, write_text_atomic
    from notation.pictures.diagram import diagram, parse_ply
    from notation.cli.sources import output_over_input

    def fail(message: str) -> NoReturn:
        error(f"notation board: {message}")
        raise typer.Exit(EXIT_USAGE)

    suffix = out.suffix.lower()
    if suffix not in (".svg", ".png"):
        fail(f"{out}: the output must end in .svg or .png")
    clash = output_over_input([source], [out])
    if clash is not None:
        fail(clash)
    if ply is not None and moves is not None:
        fail("give --ply or --moves, not both")
    target = None if ply is None else parse_ply(ply)
    if ply is not None and target is None:
        fail(f"--ply {ply!r}: expected a number of plies or a move such as 12w / 12b")
    if moves is not None:
        target = 2 * moves
    found, problems = diagram(source, game=game, ply=target)
    for diag in problems:
        error(diagnostic_text(diag))
    if found is None:
        raise typer.Exit(EXIT_USAGE)
    svg = found.svg(flipped=flip, coordinates=coordinates, size=size, caption=caption)
    try:
        if suffix == ".svg":
            write_text_atomic(out, svg)
        else:
            from notation.pictures.board import svg_to_png
            from notation.pictures.extras import ChartsUnavailable

            try:
                png = svg_to_png(svg)
            except ChartsUnavailable as exc:
                fail(str(exc))
            write_bytes_atomic(out, png)
    except OSError as exc:
        fail(f"{out}: cannot write: {exc.strerror or exc}")


def register(app: typer.Typer) -> None:
    """Add `notation board` to `app`."""
    app.command("board", help=BOARD_HELP)(board_command)
