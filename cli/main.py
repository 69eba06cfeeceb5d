"""The Typer application behind the ``notation`` console script.

Each command lives in its own module with a ``register(app)`` function; this module only
assembles them. Commands follow one shape: parse options -> one library call -> render ->
exit code (0 clean, 1 problems found, 2 usage or I/O failure).
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Iterable
from importlib import import_module
from typing import Any, NoReturn, TextIO

import typer
from typer.core import TyperGroup

from notation.cli.render import EXIT_OK, EXIT_USAGE
from notation.cli import help_types, integers

help_types.install()
integers.install()


class _Commands(TyperGroup):
    """The top-level group: ``notation --help`` is laid out as plain text (the command list and
    the options), which needs neither rich's help renderer nor its Markdown support, so the
    help of the whole tool shows at once; every command's own ``--help`` keeps the rich panels."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        markup = self.rich_markup_mode
        self.rich_markup_mode = None
        try:
            super().format_help(ctx, formatter)
        finally:
            self.rich_markup_mode = markup


def _version() -> str:
    """The installed distribution's version (read from its metadata: nothing else is imported)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("notation")
    except PackageNotFoundError:  # pragma: no cover - run from a source tree without metadata
        return "unknown"


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"notation {_version()}")
        raise typer.Exit(EXIT_OK)


def _main(
    version: bool = typer.Option(
        False, "--version", callback=_show_version, is_eager=True, help="Show the version and exit."
    ),
) -> None:
    """Chess game scores: validate PGN against the FIDE Laws, import to Polars/Parquet, compute
    standings and the club ledger, reconstruct scoresheets."""


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


def application(names: Iterable[str] = COMMANDS) -> typer.Typer:
    """The ``notation`` application with the commands ``names`` (all of them by default).

    Typer builds every registered command's options from its signature whenever the
    application runs, so :func:`run` imports and registers only the command a command line
    names (the same command, help and errors; a command line naming none gets them all)."""
    built = typer.Typer(
        cls=_Commands,
        name="notation",
        help="Chess game scores: validate PGN against the FIDE Laws, import to Polars/Parquet, "
        "compute standings and the club ledger, reconstruct scoresheets.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        context_settings={"help_option_names": ["-h", "--help"]},
    )
    built.callback()(_main)
    for name in names:
        import_module(f"notation.cli.{COMMANDS[name]}").register(built)
    return built


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
    _discard_stdout()
    raise SystemExit(EXIT_OK)


def _output_failed(exc: OSError) -> NoReturn:
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
            application(_named(sys.argv[1:]))()
        finally:
            sys.stdout.flush()
    except BrokenPipeError:
        _pipe_closed()


if __name__ == "__main__":  # pragma: no cover
    run()
