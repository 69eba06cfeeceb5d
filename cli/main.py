"""The Typer application behind the ``notation`` console script.

Each command lives in its own module with a ``register(app)`` function; this module only
assembles them. Commands follow one shape: parse options -> one library call -> render ->
exit code (0 clean, 1 problems found, 2 usage or I/O failure).
"""

from __future__ import annotations

import gc
import os
import sys
from typing import Any, NoReturn, TextIO

import typer

from notation.cli.render import EXIT_PROBLEMS, EXIT_USAGE
from notation.cli import (
    board_cmd,
    chart_cmd,
    help_types,
    convert_cmd,
    filter_cmd,
    import_cmd,
    integers,
    ledger_cmd,
    scoresheet_cmd,
    standings_cmd,
    stats_cmd,
    tree_cmd,
    validate_cmd,
)

help_types.install()
integers.install()

app = typer.Typer(
    name="notation",
    help="Chess game scores: validate PGN against the FIDE Laws, import to Polars/Parquet, "
    "compute standings and the club ledger, reconstruct scoresheets.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

for _module in (
    validate_cmd, import_cmd, stats_cmd, standings_cmd, ledger_cmd, scoresheet_cmd,
    filter_cmd, convert_cmd, tree_cmd,
    chart_cmd, board_cmd,  # pictures: charts and board diagrams
):
    _module.register(app)


class OutputGuard:
    """Standard output as the commands see it: a write that fails (a full disk, a device error)
    ends the command with ``cannot write output`` and exit code 2, wherever it happens, instead
    of a traceback or of being mistaken for an input error. A closed pipe is left to
    :func:`run`, which stops quietly."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as exc:
            _output_failed(exc)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            _output_failed(exc)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _discard_stdout() -> None:
    """Point file descriptor 1 at /dev/null so that the interpreter's last flush of what is still
    buffered cannot fail a second time."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.__stdout__.fileno() if sys.__stdout__ else 1)
        os.close(devnull)
    except (OSError, ValueError):
        pass


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
    (``notation validate big.pgn | head``) the command stops quietly with exit code 1: what it
    would have concluded is unknown, so it neither claims success nor prints a traceback.
    """
    gc.set_threshold(100_000, 50, 100)
    sys.stdout = OutputGuard(sys.stdout)
    try:
        try:
            app()
        finally:
            sys.stdout.flush()
    except BrokenPipeError:
        _discard_stdout()
        raise SystemExit(EXIT_PROBLEMS) from None


if __name__ == "__main__":  # pragma: no cover
    run()
