"""One games table from the command line's inputs: PGN files, folders of PGN files, datasets.

Used by ``notation stats``, ``standings`` and ``ledger``. Each input is, in this order:

* a **dataset** directory written by ``notation import`` (it has a ``games/`` folder): read
  lazily with :func:`notation.tables.frames.scan` (nothing is loaded until the query runs);
* a **folder**: every PGN file below it (``*.pgn``, ``*.pgn.gz``, ``*.pgn.bz2``, ``*.pgn.zst``;
  recursive, as ``notation validate`` and ``import`` search), in path order;
* ``-``: standard input, read as PGN;
* a **file**: read with :func:`notation.tables.frames.to_frames` (``moves=False``: no per-ply rows).

Input order is kept (files in the order given, games in file order): the ledger relies on it
for games of the same day. Categorical and Enum columns are cast to String so that inputs
with different category sets concatenate.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

import polars as pl

from notation.diagnostics import Diagnostic
from notation.pgn.sources import find_pgn_files


def is_dataset(path: Path) -> bool:
    """True for a directory written by ``notation import`` (it holds a ``games/`` folder)."""
    return path.is_dir() and (path / "games").is_dir()


def _strings(lazy: pl.LazyFrame) -> pl.LazyFrame:
    schema = lazy.collect_schema()
    casts = [pl.col(n).cast(pl.String) for n, t in schema.items() if isinstance(t, (pl.Categorical, pl.Enum))]
    return lazy.with_columns(casts) if casts else lazy




def load_games(paths: Sequence[str | Path]) -> tuple[pl.LazyFrame | None, list[Diagnostic]]:
    """A lazy games table over all `paths` (None when no input could be read) and I/O findings.

    Every unreadable input becomes a ``pgn.io`` diagnostic; the others are still read.
    """
    from notation.tables.frames import scan, to_frames

    parts: list[pl.LazyFrame] = []
    diagnostics: list[Diagnostic] = []
    for given in paths:
        path = Path(given)
        try:
            if str(given) == "-":
                parts.append(_strings(to_frames(sys.stdin.buffer, moves=False)[0].lazy()))
            elif not path.exists():
                diagnostics.append(Diagnostic.make("pgn.io", "no such file or directory", file=str(given)))
            elif is_dataset(path):
                parts.append(_strings(scan(path)[0]))
            elif path.is_dir():
                files = find_pgn_files(path)
                if not files:
                    diagnostics.append(
                        Diagnostic.make("pgn.io", "neither a dataset nor a folder with PGN files", file=str(given))
                    )
                for file in files:
                    parts.append(_strings(to_frames(file, moves=False)[0].lazy()))
            else:
                parts.append(_strings(to_frames(path, moves=False)[0].lazy()))
        except OSError as exc:
            diagnostics.append(Diagnostic.make("pgn.io", f"cannot read: {exc.strerror or exc}", file=str(given)))
    if not parts:
        return None, diagnostics
    if len(parts) == 1:
        return parts[0], diagnostics
    return pl.concat(parts, how="diagonal_relaxed"), diagnostics
