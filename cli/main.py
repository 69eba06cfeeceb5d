"""The Typer application behind the ``notation`` console script.

Each command lives in its own module with a ``register(app)`` function, which
:mod:`notation.cli.assemble` calls for the commands a command line names; this module is the
entry point and imports no Typer (``notation --help`` and ``--version`` print without it).
Commands follow one shape: parse options -> one library call -> render -> exit code (0 clean,
1 problems found, 2 usage or I/O failure).
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

if TYPE_CHECKING:  # pragma: no cover - Typer loads with the application (notation.cli.assemble)
    import typer

#: What ``notation --help`` says the tool is.
HELP = (
    "Chess game scores: validate PGN against the FIDE Laws, import to Polars/Parquet, "
    "compute standings and the club ledger, reconstruct scoresheets."
)

#: The commands, by name, in the order ``notation --help`` lists them, and the module of each
#: (in :mod:`notation.cli`), whose ``register(app)`` adds it.
COMMANDS: dict[str, str] = {
    "validate": "validate_cmd",
    "import": "import_cmd",
    "stats": "stats_cmd",
    "standings": "standings_cmd",
    "ledger": "ledger_cmd",
    "players": "players_cmd",
    "scoresheet": "scoresheet_cmd",
    "filter": "filter_cmd",
    "convert": "convert_cmd",
    "tree": "tree_cmd",
    "chart": "chart_cmd",
    "board": "board_cmd",  # pictures: charts and board diagrams
}

#: The start of each command's help, as much of it as ``notation --help`` can show on its line
#: (at most 62 characters and "..."); ``tests/cli/test_cli_surface.py`` holds it to the commands'.
SUMMARIES: dict[str, str] = {
    "validate": "Replay every game against the FIDE Laws and report what is wrong, like",
    "import": "Import PGN games into a Parquet dataset: DIR/games and DIR/moves, one",
    "stats": "Statistics over PGN files or imported datasets, computed with Polars",
    "standings": "The final table of a tournament: score (win 1, draw ½, loss 0), crosstable",
    "ledger": "Apply every decisive and drawn game, in date order, to the ledger of",
    "players": "List the spellings of a player's name that look like one person: the",
    "scoresheet": "Reconstruct the game written on a scoresheet (or on both players' sheets):",
    "filter": "Write the games that match every given criterion (in the PGN export",
    "convert": "Re-render games: PGN export format with standard SAN (Ngf3 -> Nf3 where",
    "tree": "The opening explorer: every game of PATH (a PGN file, a folder of PGN",
    "chart": "Draw a chart of games: PGN files, folders of PGN files, or datasets",
    "board": "Draw a board diagram: of a FEN (quote it), or of a game of a PGN file",
}


def version() -> str:
    """The version of ``notation`` (the package's ``__version__``, which ``tests/cli`` holds
    equal to the installed distribution's: reading the metadata would import
    ``importlib.metadata``, about a third of ``notation --version``'s time)."""
    from notation import __version__

    return __version__


def application(names: Iterable[str] = COMMANDS) -> typer.Typer:
    """The ``notation`` application with the commands ``names`` (all of them by default).

    Typer builds every registered command's options from its signature whenever the
    application runs, so :func:`run` imports and registers only the command a command line
    names (the same command, help and errors; a command line naming none gets them all), and
    prints ``notation --help`` and ``--version`` without the application (:func:`top_help`)."""
    from notation.cli.assemble import build

    return build(names)


def __getattr__(name: str) -> Any:
    """``app``: the application with every command (built once, when first asked for)."""
    if name == "app":
        globals()["app"] = built = application()
        return built
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _named(argv: list[str]) -> list[str]:
    """The command ``argv`` (the arguments after the program's name) names, as a one-name list,
    or every command's name when its first argument is not a command (an option such as
    ``--version`` or ``--help``, a misspelt command, nothing)."""
    return argv[:1] if argv and argv[0] in COMMANDS else list(COMMANDS)


def _columns() -> int:
    """The terminal's width as the command-line framework reads it (``shutil.get_terminal_size``:
    ``COLUMNS`` first, then standard output's terminal, then 80), without importing shutil."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


def _short(text: str, limit: int) -> str:
    """A command's line in the command list: its help cut to ``limit`` characters the way the
    command-line framework cuts it (``make_default_short_help``: at the first full stop, or at a
    word with "...")."""
    words = text.split()
    total = 0
    for i, word in enumerate(words):
        total += len(word) + (i > 0)
        if total > limit:
            break
        if word[-1] == ".":
            return " ".join(words[: i + 1])
        if total == limit and i != len(words) - 1:
            break
    else:
        return " ".join(words)
    total += len("...")
    while i > 0:
        total -= len(words[i]) + (i > 0)
        if total <= limit:
            break
        i -= 1
    return " ".join(words[:i]) + "..."


def _wrap(text: str, width: int, indent: str) -> list[str]:
    """``text``'s words in lines of at most ``width`` characters, each starting with ``indent``."""
    lines = [indent]
    for word in text.split():
        if lines[-1] == indent:
            lines[-1] += word
        elif len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(indent + word)
    return lines


def _listing(rows: list[tuple[str, str]]) -> list[str]:
    first = max(len(name) for name, _ in rows) + 2
    return [f"  {name:<{first}}{text}" for name, text in rows]


def top_help(columns: int) -> str:
    """What ``notation --help`` prints on a terminal ``columns`` wide, as the whole application
    prints it (laid out as the command-line framework lays out help text, where the command list
    is plain text: ``tests/cli/test_cli_surface.py`` compares the two at many widths), without
    importing Typer or building a command."""
    width = max(min(columns, 80) - 2, 50)
    limit = width - 6 - max(len(name) for name in COMMANDS)
    return "\n".join(
        [
            "Usage: notation [OPTIONS] COMMAND [ARGS]...",
            "",
            *_wrap(HELP, width, "  "),
            "",
            "Options:",
            *_listing([("--version", "Show the version and exit."), ("-h, --help", "Show this message and exit.")]),
            "",
            "Commands:",
            *_listing([(name, _short(SUMMARIES[name], limit)) for name in COMMANDS]),
            "",
        ]
    )


def _at_once(argv: list[str]) -> str | None:
    """What ``notation --help``, ``-h`` or ``--version`` prints (None for any other command line,
    and under shell completion), which :func:`run` prints without building the application."""
    if len(argv) != 1 or "_NOTATION_COMPLETE" in os.environ:
        return None
    if argv[0] in ("-h", "--help"):
        return top_help(_columns())
    if argv[0] == "--version":
        return f"notation {version()}\n"
    return None


class OutputGuard:
    """Standard output as the commands see it: a write that fails (a full disk, a device error)
    ends the command with ``cannot write output`` and exit code 2, wherever it happens, instead
    of a traceback or of being mistaken for an input error. A closed pipe ends it quietly with
    exit code 0 (:func:`_pipe_closed`)."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._piped = _piped(stream)

    def write(self, text: str) -> int:
        if self._piped and text:
            progress = sys.modules.get("notation.cli.progress")  # a progress line on the terminal
            if progress is not None:
                progress.output_starts()
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            _pipe_closed()
        except OSError as exc:
            _output_failed(exc)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            _pipe_closed()
        except OSError as exc:
            _output_failed(exc)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _piped(stream: TextIO) -> bool:
    """Whether ``stream`` goes to another program (a pipe, a socket) rather than to a terminal or
    a file: what that program prints may land on the terminal that shows the progress line."""
    import stat

    try:
        mode = os.fstat(stream.fileno()).st_mode
    except (AttributeError, OSError, ValueError):
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


def _discard_stdout() -> None:
    """Point file descriptor 1 at /dev/null so that the interpreter's last flush of what is still
    buffered cannot fail a second time."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.__stdout__.fileno() if sys.__stdout__ else 1)
        os.close(devnull)
    except (OSError, ValueError):
        pass


def _pipe_closed() -> NoReturn:
    """The reader of standard output went away (``| head -1``): it took what it wanted, so the
    command ends here, quietly, with exit code 0 (raised as SystemExit so that no command's own
    error handling, nor the command-line framework's exit 1 for a closed pipe, can intervene)."""
    from notation.cli.render import EXIT_OK

    _discard_stdout()
    raise SystemExit(EXIT_OK)


def _output_failed(exc: OSError) -> NoReturn:
    from notation.cli.render import EXIT_USAGE

    _discard_stdout()
    sys.stderr.write(f"notation: error: cannot write output: {exc.strerror or exc}\n")
    raise SystemExit(EXIT_USAGE)


def run() -> None:
    """Console-script entry point.

    Reading and replaying games allocates many small, short-lived objects and few cycles, so the
    command raises the cyclic collector's first threshold (about 13% faster validation measured);
    the library itself never changes process-wide settings.

    Standard output goes through :class:`OutputGuard`. When the reader of a pipe goes away
    (``notation convert big.pgn | head -1``) the command stops quietly, without a message, with
    exit code 0: the reader took what it wanted.
    """
    gc.set_threshold(100_000, 50, 100)
    sys.stdout = OutputGuard(sys.stdout)
    try:
        try:
            shown = _at_once(sys.argv[1:])
            if shown is None:
                application(_named(sys.argv[1:]))()
            else:
                sys.stdout.write(shown)
        finally:
            sys.stdout.flush()
    except BrokenPipeError:
        _pipe_closed()


if __name__ == "__main__":  # pragma: no cover
    run()
