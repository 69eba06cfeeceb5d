"""Test support for the stats/standings/ledger tests: games tables built without the reader.

python-chess (test-only) reads the sample round robin's headers and counts its plies, so these
tests do not depend on the import pipeline; `write_dataset` stores a frame as a one-part dataset
that `notation.scan` reads, which lets the CLI tests run on a dataset directory.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import chess.pgn
import polars as pl
from conftest import SAMPLE_GAMES, check_golden  # noqa: F401 - check_golden is used by the table tests

ROUND_ROBIN = SAMPLE_GAMES / "round_robin.pgn"


def _date(text: str | None) -> dt.date | None:
    try:
        return dt.datetime.strptime(text or "", "%Y.%m.%d").date()
    except ValueError:
        return None


def pgn_frame(path: Path = ROUND_ROBIN) -> pl.DataFrame:
    """A games table (GAMES_SCHEMA column names, plain dtypes) of a small PGN file."""
    rows: list[dict[str, Any]] = []
    with open(path, encoding="utf-8") as handle:
        number = 0
        while (game := chess.pgn.read_game(handle)) is not None:
            number += 1
            h = game.headers
            rows.append(
                {
                    "source_file": path.name,
                    "game_number": number,
                    "event": h.get("Event"),
                    "date": _date(h.get("Date")),
                    "date_text": h.get("Date"),
                    "round": h.get("Round"),
                    "white": h.get("White"),
                    "black": h.get("Black"),
                    "result": h.get("Result"),
                    "white_elo": int(h["WhiteElo"]) if "WhiteElo" in h else None,
                    "black_elo": int(h["BlackElo"]) if "BlackElo" in h else None,
                    "eco": h.get("ECO"),
                    "opening": h.get("Opening"),
                    "termination": h.get("Termination"),
                    "plies": len(list(game.mainline_moves())),
                    "error_count": 0,
                }
            )
    return pl.DataFrame(rows)


def with_games_schema(frame: pl.DataFrame) -> pl.DataFrame:
    """`frame` with every column of GAMES_SCHEMA, in its dtype (missing ones null)."""
    from notation.tables.schema import GAMES_SCHEMA

    return frame.select(
        [
            pl.col(name).cast(dtype) if name in frame.columns else pl.lit(None, dtype=dtype).alias(name)
            for name, dtype in GAMES_SCHEMA.items()
        ]
    )


def write_dataset(frame: pl.DataFrame, root: Path) -> Path:
    """Store `frame` as a one-part dataset under `root` (readable by notation.scan)."""
    (root / "games").mkdir(parents=True, exist_ok=True)
    with_games_schema(frame).write_parquet(root / "games" / "part-00000.parquet")
    return root


def run_cli(*args: str) -> Any:
    """Invoke the `notation` app in-process; the result has exit_code, stdout, stderr."""
    from typer.testing import CliRunner

    from notation.cli.main import app

    return CliRunner().invoke(app, [str(a) for a in args])
