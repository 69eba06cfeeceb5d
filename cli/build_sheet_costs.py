"""``python -m notation.cli.build_sheet_costs HCS_FOLDER -o notation/scoresheet/channel_costs.json``:
learn the scoresheet channel's costs from the HCS sheets with known games
(:mod:`notation.scoresheet.learn` does the work).

Exit codes: 0 written, 2 usage or I/O error.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from notation.cli.atomic import write_text_atomic
from notation.cli.render import EXIT_OK, EXIT_USAGE, error
from notation.scoresheet.learn import learn_costs, load_hcs

ATTRIBUTION = (
    "Learned by notation (python -m notation.cli.build_sheet_costs) from the box labels of the Handwritten "
    "Chess Scoresheet dataset (HCS; O. Eicher, D. Farmer, Y. Li, N. Majid, ICDAR Workshops 2021; J. Imaging "
    "8(2):31, 2022), ground truth licensed CC BY 3.0: only these derived frequencies are included."
)


def main(argv: Sequence[str] | None = None) -> int:
    """Learn the table and write it; returns the exit code."""
    parser = argparse.ArgumentParser(
        prog="python -m notation.cli.build_sheet_costs",
        description="Learn the scoresheet channel's costs from the HCS sheets.",
    )
    parser.add_argument("folder", type=Path, help="the HCS folder (training_tags.txt, answers.tsv)")
    parser.add_argument("-o", "--out", type=Path, required=True, help="the table file to write")
    args = parser.parse_args(argv)
    try:
        games = [g for g in load_hcs(args.folder) if g.answer]
    except OSError as exc:
        error(f"{args.folder}: cannot read: {exc.strerror or exc}")
        return EXIT_USAGE
    sheets = [(list(c.boxes), g.answer) for g in games for c in g.copies if g.answer]
    costs = learn_costs(sheets)
    text = (
        json.dumps(
            {"source": ATTRIBUTION, "sheets": len(sheets), "costs": dict(sorted(costs.items()))},
            indent=1,
            ensure_ascii=False,
        )
        + "\n"
    )
    try:
        write_text_atomic(args.out, text)
    except OSError as exc:
        error(f"{args.out}: cannot write: {exc.strerror or exc}")
        return EXIT_USAGE
    return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
