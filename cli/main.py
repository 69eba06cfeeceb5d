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

from notation.cli.commands import COMMANDS, top_help, version

if TYPE_CHECKING:  # pragma: no cover - Typer loads with the application (notation.cli.assemble)
    import typer


def application(names: Iterable[str] = COMMANDS) -> typer.Typer:
    """The ``notation`` application with the commands ``names`` (all of them by default).

    Typer builds every registered command's options from its signature whenever the
    application runs, so :func:`run` imports and registers only the command a command line
    names (the same command, help and errors; a command line naming none gets them all), and
    prints ``notation --help`` and ``--version`` without the application
    (:func:`notation.cli.commands.top_help`)."""
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
