"""The PGN inputs of ``validate``, ``filter`` and ``convert``: PATH arguments → sources.

Each argument is ``-`` (standard input), a file, or a folder searched recursively for PGN files
(``*.pgn``, ``*.pgn.gz``, ``*.pgn.bz2``, ``*.pgn.zst``) in path order. A path that does not exist,
or a folder with no PGN file, is a usage error; a file or folder that exists but cannot be read
stays in the list as an :class:`~notation.pgn.sources.Unreadable`, which the readers report as a
``pgn.io`` diagnostic while the other inputs are still read.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

# the game readers' modules (notation.pgn.sources, notation.diagnostics) are imported by the
# functions that use them: the command line starts without them

#: the display name of standard input
STDIN_NAME = "<stdin>"


def is_dataset(path: Path) -> bool:
    """True for a directory written by ``notation import`` (it holds a ``games/`` folder)."""
    return path.is_dir() and (path / "games").is_dir()


def distinct_paths(paths: Sequence[str | Path]) -> list[str]:
    """``paths`` with each file or folder once (the first time it is given: ``t.pgn ./t.pgn``
    is one file), a note on standard error for each left out; ``-`` is kept each time."""
    from notation.cli.render import error
    from notation.pgn.sources import display_path

    kept: list[str] = []
    seen: set[Path] = set()
    for given in map(str, paths):
        key = _resolved(given)
        if key is not None and key in seen:
            error(f"{display_path(given)}: note: given more than once, read once")
            continue
        if key is not None:
            seen.add(key)
        kept.append(given)
    return kept


def _resolved(given: str) -> Path | None:
    """The real path of an existing argument (None for ``-`` and what cannot be resolved)."""
    if given == "-":
        return None
    try:
        path = Path(given)
        return path.resolve() if path.exists() else None
    except (OSError, RuntimeError, ValueError):
        return None


def pgn_sources(paths: list[str]) -> tuple[list[tuple[Any, str]], list[str]]:
    """(source, display name) pairs and usage errors for the given PATH arguments
    (:func:`notation.pgn.sources.expand_paths`; a dataset is a folder like any other here),
    each file once (:func:`distinct_paths`; a file also found in a folder given is read the
    first time)."""
    from notation.cli.render import error
    from notation.diagnostics import Diagnostic
    from notation.pgn.sources import Unreadable, display_path, expand_paths

    sources: list[tuple[Any, str]] = []
    problems: list[str] = []
    read: set[Path] = set()
    for item in expand_paths(distinct_paths(paths)):
        if item.kind == "stdin":
            sources.append((sys.stdin.buffer, STDIN_NAME))
            continue
        if item.kind == "missing":
            problems.append(Diagnostic.missing_file(str(item.given)).render())
            continue
        if not item.files:
            problems.append(f"{item.given}: no PGN files (.pgn, .pgn.gz, .pgn.bz2, .pgn.zst) found")
        # what cannot be read stays in the list (reported as pgn.io); the display name is text
        # that can be written (a file name need not be UTF-8)
        for f in item.files:
            if isinstance(f, Unreadable):
                sources.append((f, display_path(str(f))))
                continue
            key = _resolved(str(f))
            if key is not None and key in read:  # a file of a folder given, given again (or the other way round)
                error(f"{display_path(str(f))}: note: given more than once, read once")
                continue
            if key is not None:
                read.add(key)
            sources.append((str(f), display_path(str(f))))
    return sources, problems


def usable_sources(
    paths: list[str], outputs: Sequence[str | Path | None] = (), *, folders: bool = False
) -> list[tuple[Any, str]] | None:
    """:func:`pgn_sources`, its usage errors printed on standard error; None when there is one
    (an output that would replace an input is one: :func:`output_over_input`)."""
    from notation.cli.render import error

    sources, problems = pgn_sources(paths)
    clash = output_over_input(paths, outputs, folders=folders)
    if clash is not None:
        problems.append(clash)
    for problem in problems:
        error(problem)
    return None if problems else sources


def output_over_input(
    paths: Sequence[str | Path], outputs: Sequence[str | Path | None], *, folders: bool = False
) -> str | None:
    """The usage error when an output would replace one of the inputs (``filter in.pgn
    --duplicates in.pgn`` would rename the duplicates onto the file being read); None when
    there is none. An output replaces an input when it is the same file, or a PGN file in a
    folder being read (a later run would read it back); with ``folders`` the outputs are
    folders of PGN files (``convert --split``), refused in or around a folder being read, or
    around a file being read. Standard input and output (``-``) are never files here."""
    from notation.pgn.sources import PGN_SUFFIXES, display_path

    targets = [Path(out) for out in outputs if out is not None and str(out) != "-"]
    for text in paths:
        if str(text) == "-":
            continue
        given = Path(text)
        for target in targets:
            if folders:
                clash = _inside(target, given) or _inside(given, target)
            else:
                clash = _same_file(given, target) or (
                    given.is_dir() and target.name.lower().endswith(PGN_SUFFIXES) and _inside(target, given)
                )
            if clash:
                return (
                    f"{display_path(str(target))}: the output would replace an input "
                    f"({display_path(str(text))}); write it elsewhere"
                )
    return None


def _same_file(one: Path, other: Path) -> bool:
    try:
        return one.exists() and other.exists() and os.path.samefile(one, other)
    except OSError:
        return False


def _inside(target: Path, folder: Path) -> bool:
    """Whether ``target`` is ``folder`` or lies under it."""
    try:
        return target.resolve().is_relative_to(folder.resolve())
    except (OSError, RuntimeError):
        return False
