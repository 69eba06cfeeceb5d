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

A PGN input streams: its games are read one at a time as the reader splits them and each sheet
is reported and written out before the next is read (with ``--jobs N`` a few games per worker
are in flight, in input order), so memory holds about one game whatever the file's size. The
``--out`` files are written into their temporary files as the games come and take their names
only when every game is written; a usage error found on a later game (a ``--diagram`` that game
lacks, a second game for ``.svg``) or a read failure (``pgn.io``) ends the command with exit 2
and no output file, though stdout may already hold the games before it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import ExitStack
from enum import Enum
from typing import IO, TYPE_CHECKING, Any, NoReturn

import typer

from notation.cli.atomic import atomic_path
from notation.cli.render import EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, JOBS_HELP, diagnostic_line, dumps

if TYPE_CHECKING:  # pragma: no cover
    from notation.pgn.chunks import Chunk
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


def _open_input(path: str, stack: ExitStack) -> str | Iterator[Chunk]:
    """The input ``path`` (``-``: stdin), opened in ``stack`` through the readers every command
    uses (gzip, bzip2, xz and zstd, UTF-8/16/32 with or without a byte order mark, CR, LF and
    CRLF line ends, a single-byte fallback): a PGN input (its first line that is neither blank
    nor a ``%`` line is a tag pair: :func:`~notation.scoresheet.pgn_input.has_pgn_structure`) is
    its games as the reader splits them, streaming (nothing is read past that line until they
    are taken); a sheet is its whole text. Raises ``OSError`` (unreadable; a sheet over
    :data:`MAX_INPUT_BYTES`)."""
    from notation.pgn.reader import split_read
    from notation.pgn.sources import decode, open_source
    from notation.scoresheet.pgn_input import has_pgn_structure

    read, name = stack.enter_context(open_source(path))
    head = bytearray()
    checked = 0  # the head's lines before this offset are blank or % lines
    decided = ended = False
    while not (decided or ended):
        block = read(1 << 16)
        ended = not block
        head += block.encode("utf-8") if isinstance(block, str) else bytes(block or b"")
        while not decided:
            end = head.find(b"\n", checked)
            if end < 0 and not (ended and checked < len(head)):
                break
            end = len(head) if end < 0 else end + 1
            line = decode(bytes(head[checked:end]))[0]
            decided = bool((line.lstrip("\ufeff") if checked == 0 else line).strip()) and not line.startswith("%")
            checked = end
        if len(head) > MAX_INPUT_BYTES:
            break
    if has_pgn_structure(decode(bytes(head[:checked]))[0]):
        return split_read(_Replay(bytes(head), read), name)
    blocks = [bytes(head)]
    total = len(head)
    while not ended and total <= MAX_INPUT_BYTES:
        block = read(1 << 16)
        ended = not block
        data = block.encode("utf-8") if isinstance(block, str) else bytes(block or b"")
        total += len(data)
        blocks.append(data)
    if total > MAX_INPUT_BYTES:
        raise OSError(f"more than {MAX_INPUT_BYTES // (1024 * 1024)} MiB: not a scoresheet input")
    if read.error is not None:
        raise OSError(read.error)
    text, _, _ = decode(b"".join(blocks))
    return text.lstrip("\ufeff")


class _Replay:
    """A reader (as :func:`notation.pgn.sources.open_source` gives it) that gives ``head``, the
    bytes already read from ``read``, first, then the rest of ``read``."""

    def __init__(self, head: bytes, read: Any) -> None:
        self.head = head
        self.read = read

    def __call__(self, size: int) -> bytes:
        if self.head:
            block, self.head = self.head, b""
            return block
        block = self.read(size)
        return block.encode("utf-8") if isinstance(block, str) else bytes(block or b"")

    @property
    def error(self) -> str | None:
        return getattr(self.read, "error", None)

    @property
    def trailing(self) -> bool:
        return bool(getattr(self.read, "trailing", False))


def scoresheet(
    inputs: list[str] = typer.Argument(
        ...,
        metavar="PATH...",
        help="Scoresheet text file (.txt, .csv; '-' for stdin), or a PGN file; "
        "with --same-game, every copy of one game's sheet.",
    ),
    same_game: bool = typer.Option(
        False,
        "--same-game",
        help="The inputs are copies of one game's sheet (the two "
        "players' sheets, say): read them together as independent witnesses.",
    ),
    lang: Language = typer.Option(Language.auto, "--lang", help="Piece-letter language (auto: detected)."),
    fen: str | None = typer.Option(None, "--fen", help="Starting position (FEN) when not the initial one."),
    tags: str | None = typer.Option(None, "--tags", help='Tags, e.g. "White=Anna,Black=Bernd,Event=Club ch".'),
    out: list[str] = typer.Option([], "--out", "-o", help="Write .pgn/.txt/.html/.svg/.json (repeatable)."),
    max_cost: float | None = typer.Option(
        None,
        "--max-cost",
        min=0.0,
        help="The largest cost of a reading that may exit 0 (default 60; a costlier best reading is still given).",
    ),
    pin: list[str] = typer.Option(
        [],
        "--pin",
        help="A move you have settled, e.g. 12...Nf6 (Black's twelfth) or "
        "12.Nf3 (White's): the reading plays it at that move (repeatable).",
    ),
    review: bool = typer.Option(
        False,
        "--review",
        help="In a terminal: ask about each move the reading flags "
        "(below 0.99), in game order, showing what each copy wrote, a board and the "
        "moves weighed; each answer pins the move and the sheet is read again; then "
        "write the finished reading.",
    ),
    diagram: list[str] = typer.Option([], "--diagram", help="Diagram after a move, e.g. 24w or 24b (repeatable)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Do not list corrections on stderr."),
    format: SheetFormat = typer.Option(
        SheetFormat.pgn,
        "--format",
        help="What goes to stdout without --out: pgn or json "
        "(the reconstruction with its readings ranked, each with moves, cost, "
        "probability and corrections).",
    ),
    jobs: int = typer.Option(1, "--jobs", "-j", min=0, help="A PGN input: " + JOBS_HELP),
    game: int | None = typer.Option(
        None, "--game", min=1, help="A PGN input: only its N-th game (1-based; default: every game, one sheet each)."
    ),
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
    with ExitStack() as stack:
        sources: list[str | Iterator[Chunk]] = []
        for one in inputs:
            try:
                sources.append(_open_input(one, stack))
            except OSError as exc:
                if isinstance(exc, FileNotFoundError):
                    from notation.diagnostics import Diagnostic

                    typer.echo(diagnostic_line(Diagnostic.missing_file(one)), err=True)
                else:
                    typer.echo(f"error: {one}: {exc.strerror or exc}", err=True)
                raise typer.Exit(EXIT_USAGE) from None
        _check_options(tags, fen)
        texts = [one for one in sources if isinstance(one, str)]
        pgn_input = len(texts) < len(sources)
        if same_game and pgn_input:
            typer.echo("error: --same-game reads sheets typed as move lists, not PGN files", err=True)
            raise typer.Exit(EXIT_USAGE)
        if pin:
            _check_pins(pin, fen, pgn_input)
        if review:
            sheets: Iterator[SheetGame] = iter(
                [_review(texts, lang=language, fen=fen, tags=tags, max_cost=max_cost, pins=pin, pgn_input=pgn_input)]
            )
        elif not pgn_input:
            from notation.scoresheet.pgn_input import SheetGame
            from notation.scoresheet.reader import read_sheets

            sheets = iter(
                [
                    SheetGame(
                        number=1,
                        line=1,
                        reconstruction=read_sheets(
                            texts, lang=language, fen=fen, tags=tags, max_cost=max_cost, pins=pin
                        ),
                    )
                ]
            )
        else:
            from notation.parallel import worker_pool
            from notation.scoresheet.pgn_input import read_pgn_chunks

            seen = [0]
            chunks = _picked(sources[0], game, seen, inputs[0])  # type: ignore[arg-type]
            executor = stack.enter_context(worker_pool(jobs))
            sheets = read_pgn_chunks(chunks, lang=language, fen=fen, tags=tags, max_cost=max_cost, executor=executor)
            stack.callback(sheets.close)  # before the pool shuts down
            _finish(sheets, inputs, out, diagram, quiet, shape, game, pgn_input=True, seen=seen)
        _finish(sheets, inputs, out, diagram, quiet, shape, game, pgn_input=False, seen=None)


def _check_options(tags: str | None, fen: str | None) -> None:
    """A usage error for a ``--tags`` entry that is no tag pair, or a ``--fen`` that is no FEN."""
    if tags is not None:
        from notation.scoresheet.tags import parse_tags

        _, bad = parse_tags(tags)
        if bad:
            typer.echo(
                f"error: --tags: {bad[0]!r} is no Name=value pair with a PGN tag name "
                "(letters, digits, _ + # = : - ; no spaces)",
                err=True,
            )
            raise typer.Exit(EXIT_USAGE)
    if fen is not None:
        from notation.formats.fen import FenError
        from notation.formats.position import Position

        try:
            Position.from_fen(fen)
        except FenError as exc:
            typer.echo(f"error: --fen: {exc.message}", err=True)
            raise typer.Exit(EXIT_USAGE) from None


def _picked(chunks: Iterator[Chunk], game: int | None, seen: list[int], input: str) -> Iterator[Chunk]:
    """The games of a PGN input as read (only the ``game``-th when given, and nothing read after
    it), counted in ``seen[0]``; a read failure (``pgn.io``: a truncated or corrupt file) ends
    the command (exit 2), the outputs left as they were."""
    from notation.pgn.chunks import ReadFailure

    for index, chunk in enumerate(chunks, 1):
        if isinstance(chunk, ReadFailure) and chunk.kind == "io":
            raise _Stop(f"error: {input}: {chunk.diagnostic.message}")
        seen[0] = index
        if game is None or index == game:
            yield chunk
            if game is not None:
                return


def _review(
    texts: list[str],
    *,
    lang: str,
    fen: str | None,
    tags: str | None,
    max_cost: float | None,
    pins: list[str],
    pgn_input: bool,
) -> SheetGame:
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

    rec, _ = review(
        lambda given: read_sheets(texts, lang=lang, fen=fen, tags=tags, max_cost=max_cost, pins=given),
        pins,
        ask,
        lambda text: typer.echo(text, err=True),
    )
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


class _Stop(BaseException):
    """Ends the command with exit code 2 and ``message`` while outputs are being written: the
    temporary files are removed on the way out (a ``BaseException``, so that
    :func:`notation.cli.atomic.atomic_path` passes it on as it is)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class _Carried(BaseException):
    """An exception of the reading while outputs are open, carried out of them as it is (not
    taken for a write failure)."""

    def __init__(self, error: Exception) -> None:
        super().__init__(error)
        self.error = error


def _finish(
    sheets: Iterator[SheetGame],
    inputs: list[str],
    out: list[str],
    diagram: list[str],
    quiet: bool,
    format: str,
    game: int | None,
    *,
    pgn_input: bool,
    seen: list[int] | None,
) -> NoReturn:
    """Render the games as they come and write them out (see :class:`_Outputs`), then exit with
    the worst game's code."""
    input = inputs[0] if len(inputs) == 1 else " + ".join(inputs)
    name = "<stdin>" if input == "-" else input
    try:
        with ExitStack() as stack:
            outputs = _Outputs(stack, out, format, pgn_input=pgn_input, single=not pgn_input or game is not None)
            worst = outputs.write(_carried(sheets), name, diagram, quiet, pgn_input)
            if game is not None and seen is not None and seen[0] < game:
                raise _Stop(f"error: --game {game}: the input holds {seen[0]} game(s)")
    except _Stop as stop:
        typer.echo(stop.message, err=True)
        raise typer.Exit(EXIT_USAGE) from None
    except _Carried as carried:
        raise carried.error from None
    except OSError as exc:
        typer.echo(f"error: {exc.filename or input}: cannot write: {exc.strerror or exc}", err=True)
        raise typer.Exit(EXIT_USAGE) from None
    raise typer.Exit(worst)


def _carried(sheets: Iterator[SheetGame]) -> Iterator[SheetGame]:
    while True:
        try:
            sheet = next(sheets)
        except StopIteration:
            return
        except Exception as exc:  # a fault of the reading: not one of the outputs
            raise _Carried(exc) from exc
        yield sheet


class _Outputs:
    """The outputs of the games (the ``--out`` files, else stdout), written one game at a time
    as the games come, each file into its temporary file (:func:`notation.cli.atomic.atomic_path`),
    which becomes the file when every game is written: memory holds one game (two while the
    first is held to tell one game from several: a single game's ``.html`` and ``.svg`` are
    drawn otherwise).

    ``.pgn``: the games' PGN one after another; ``.txt``: the text sheets; ``.html``: one page
    (the sections of several games are spooled to a temporary file, since the page's title
    counts them); ``.svg``: one game's picture; ``.json`` and ``--format json``: the one
    reading (``single``), else an array of the games' readings, each with ``game`` and ``line``.
    """

    def __init__(self, stack: ExitStack, out: list[str], format: str, *, pgn_input: bool, single: bool) -> None:
        self.stack = stack
        self.pgn_input = pgn_input
        self.single = single
        self.sinks: list[tuple[str, str, Any]] = []  # (kind, target, write)
        self.handles: list[tuple[str, IO[str]]] = []  # (target, its temporary file)
        self.spool: dict[str, Any] = {}
        self.written: dict[str, str] = {}  # the last character written to each target
        for target in out:
            lower = target.lower()
            kind = next(k for k in ("pgn", "txt", "html", "htm", "svg", "json") if lower.endswith("." + k))
            tmp = stack.enter_context(atomic_path(target))
            handle = stack.enter_context(open(tmp, "w", encoding="utf-8"))
            self.sinks.append(("html" if kind == "htm" else kind, target, handle.write))
            self.handles.append((target, handle))
        if not out:
            self.sinks.append((format, "", lambda text: typer.echo(text, nl=False)))
        self.count = 0

    def write(self, sheets: Iterator[SheetGame], name: str, diagram: list[str], quiet: bool, pgn_input: bool) -> int:
        """Every game's report (stderr) and outputs; the exit code of the worst game."""
        worst = EXIT_OK
        held: tuple[SheetGame, list[tuple[str, str]]] | None = None
        several = False
        for sheet in sheets:
            drawn = self._drawn(sheet, diagram)
            if sheet.reconstruction.needs_human:
                worst = EXIT_PROBLEMS
            if held is None and not several:
                held = (sheet, drawn)  # one game, or the first of several: told by the next
                continue
            if held is not None:
                several = True
                self._start(several=True)
                self._add(*held, name, quiet)
                held = None
            self._add(sheet, drawn, name, quiet)
        if not several:
            self._start(several=False)
            if held is not None:
                self._add(*held, name, quiet)
        self._end()
        return worst

    def _drawn(self, sheet: SheetGame, diagram: list[str]) -> list[tuple[str, str]]:
        """The game's diagrams (none drawn when no output shows them and none is asked for)."""
        from notation.scoresheet.render import diagrams_for

        if not diagram and not any(kind in ("html", "svg") for kind, _, _ in self.sinks):
            return []
        diagrams, problems = diagrams_for(sheet.reconstruction, list(diagram))
        if problems:
            where = f"game {sheet.number}: " if self.pgn_input else ""
            raise _Stop("\n".join(f"error: --diagram: {where}{problem}" for problem in problems))
        return diagrams

    def _emit(self, target: str, write: Any, text: str) -> None:
        if not text:
            return
        try:
            write(text)
        except OSError as exc:
            raise _Stop(f"error: {target or '<stdout>'}: cannot write: {exc.strerror or exc}") from None
        self.written[target] = text[-1]

    def _start(self, *, several: bool) -> None:
        import tempfile

        for kind, target, _ in self.sinks:
            if kind == "svg" and several:
                raise _Stop(
                    "error: --out .svg holds one picture and the input holds more than one game: pick one with --game N"
                )
            if kind == "html" and several:
                folder = os.path.dirname(os.path.abspath(target))
                try:
                    self.spool[target] = self.stack.enter_context(
                        tempfile.TemporaryFile("w+", encoding="utf-8", dir=folder, prefix=".notation-")
                    )
                except OSError as exc:
                    raise _Stop(f"error: {target}: cannot write: {exc.strerror or exc}") from None

    def _add(self, sheet: SheetGame, drawn: list[tuple[str, str]], name: str, quiet: bool) -> None:
        from notation.scoresheet.render import html_game_section, render_html, render_text

        if not quiet:
            _report(name, sheet, self.pgn_input)
        rec = sheet.reconstruction
        self.count += 1
        first = self.count == 1
        for kind, target, write in self.sinks:
            if kind == "pgn":
                if rec.sans or self.pgn_input:  # a PGN input's tags-only game too
                    self._emit(target, write, ("\n" if target in self.written else "") + rec.pgn())
            elif kind == "txt":
                self._emit(target, write, ("" if first else "\n") + render_text(rec))
            elif kind == "html":
                spool = self.spool.get(target)
                if spool is not None:
                    self._emit(target, spool.write, html_game_section(self.count, rec, drawn))
                else:
                    self._emit(target, write, render_html(rec, diagrams=drawn))
            elif kind == "svg":
                picked = drawn[0][1] if drawn else ""
                self._emit(target, write, picked + "\n" if picked else "")
            elif self.single:
                self._emit(target, write, dumps(rec.to_dict(), pretty=True) + "\n")
            else:
                item = dumps(dict(rec.to_dict(), game=sheet.number, line=sheet.line), pretty=True)
                self._emit(target, write, ("[\n" if first else ",\n") + _indented(item))

    def _end(self) -> None:
        import shutil

        from notation.scoresheet.render import html_games_head, html_games_tail

        for kind, target, write in self.sinks:
            if kind == "json" and not self.single:
                self._emit(target, write, ("\n]" if self.count else "[]") + "\n")
            spool = self.spool.get(target)
            if spool is not None:
                self._emit(target, write, html_games_head(self.count))
                spool.seek(0)
                try:
                    shutil.copyfileobj(spool, _Writer(write))
                except OSError as exc:
                    raise _Stop(f"error: {target}: cannot write: {exc.strerror or exc}") from None
                self._emit(target, write, html_games_tail())
            if target and self.written.get(target, "\n") != "\n":
                self._emit(target, write, "\n")  # a file ends with its line end
        for target, handle in self.handles:
            try:
                handle.flush()  # a full disk is told here, naming the file
            except OSError as exc:
                raise _Stop(f"error: {target}: cannot write: {exc.strerror or exc}") from None


class _Writer:
    """A ``write`` function as the file object :func:`shutil.copyfileobj` writes to."""

    def __init__(self, write: Any) -> None:
        self.write = write


def _indented(text: str) -> str:
    """A JSON value as an item of an array that :func:`dumps` (pretty) writes: two more spaces
    on each line (JSON text holds no line end inside a string)."""
    return "\n".join("  " + line for line in text.split("\n"))


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
    typer.echo(
        f"{where}: {summary}; {len(rec.sans)} plies, {rec.language} letters, "
        f"{rec.layout} layout, cost {rec.cost:g}"
        + (f", probability {rec.confidence:.2f}" if not sheet.replayed else ""),
        err=True,
    )


def register(app: typer.Typer) -> None:
    """Add `notation scoresheet` to `app`."""
    app.command("scoresheet")(scoresheet)
