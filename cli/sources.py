"""The PGN inputs of ``validate``, ``filter`` and ``convert``: PATH arguments → sources.

Each argument is ``-`` (standard input), a file, or a folder searched recursively for PGN files
(``*.pgn``, ``*.pgn.gz``, ``*.pgn.bz2``, ``*.pgn.zst``) in path order. A path that does not exist,
or a folder with no PGN file, is a usage error; a file or folder that exists but cannot be read
stays in the list as an :class:`~notation.pgn.sources.Unreadable`, which the readers report as a
``pgn.io`` diagnostic while the other inputs are still read.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from notation.pgn.sources import Unreadable, display_path, walk_pgn_files

#: the display name of standard input
STDIN_NAME = "<stdin>"


def is_dataset(path: Path) -> bool:
    """True for a directory written by ``notation import`` (it holds a ``games/`` folder)."""
    return path.is_dir() and (path / "games").is_dir()


def pgn_sources(paths: list[str]) -> tuple[list[tuple[Any, str]], list[str]]:
    """(source, display name) pairs and usage errors for the given PATH arguments."""
    sources: list[tuple[Any, str]] = []
    problems: list[str] = []
    for text in paths:
        if text == "-":
            sources.append((sys.stdin.buffer, STDIN_NAME))
            continue
        path = Path(text)
        try:
            if not path.exists():
                problems.append(f"{text}: no such file or directory")
                continue
        except OSError as exc:  # e.g. inside a folder that cannot be searched
            sources.append((Unreadable(path, exc), display_path(text)))
            continue
        found = walk_pgn_files(path)  # what cannot be read stays in the list: reported as pgn.io
        if not found:
            problems.append(f"{text}: no PGN files (.pgn, .pgn.gz, .pgn.bz2, .pgn.zst) found")
        # the display name is text that can be written (a file name need not be UTF-8)
        sources.extend((f, display_path(str(f))) if isinstance(f, Unreadable) else (str(f), display_path(str(f)))
                       for f in found)
    return sources, problems


def usable_sources(paths: list[str]) -> list[tuple[Any, str]] | None:
    """:func:`pgn_sources`, its usage errors printed on standard error; None when there is one."""
    from notation.cli.render import error

    sources, problems = pgn_sources(paths)
    for problem in problems:
        error(problem)
    return None if problems else sources
