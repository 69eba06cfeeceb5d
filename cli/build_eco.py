"""``python -m notation.cli.build_eco FOLDER -o notation/openings/eco.tsv``: build the ECO table
from the CC0 Lichess ``chess-openings`` TSV files (:mod:`notation.openings.build` does the work).

Exit codes: 0 written, 1 written but a source line could not be played, 2 usage or I/O error.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from notation.cli.atomic import write_text_atomic
from notation.cli.render import EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, error
from notation.openings.build import build


def main(argv: Sequence[str] | None = None) -> int:
    """Build the table; returns the exit code."""
    parser = argparse.ArgumentParser(
        prog="python -m notation.cli.build_eco",
        description="Build the ECO table from the Lichess chess-openings TSV files.",
    )
    parser.add_argument("folder", type=Path, help="folder holding the Lichess chess-openings *.tsv files")
    parser.add_argument("-o", "--out", type=Path, required=True, help="the table file to write")
    args = parser.parse_args(argv)
    try:
        text, problems = build(args.folder)
    except OSError as exc:
        error(f"{args.folder}: cannot read: {exc.strerror or exc}")
        return EXIT_USAGE
    for problem in problems:
        error(problem)
    if not text:
        return EXIT_USAGE
    try:
        write_text_atomic(args.out, text)
    except OSError as exc:
        error(f"{args.out}: cannot write: {exc.strerror or exc}")
        return EXIT_USAGE
    return EXIT_PROBLEMS if problems else EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
