"""The wheel holds the one ``notation`` package: the compiled core, the CLI, the grammars and the data.

Usage: ``python .ci/check_wheel.py WHEEL``; exits 1 naming what is missing, 2 when not given one
readable wheel.
"""

from __future__ import annotations

import sys
import zipfile


#: The files every wheel must carry besides the compiled core.
NEEDED = (
    "notation/cli/main.py",
    "notation/grammars/tokens.lark",
    "notation/grammars/pgn.lark",
    "notation/grammars/pgn.lalr",
    "notation/rules/polyglot.txt",
    "notation/openings/eco.tsv",
    "notation/py.typed",
)


def problems(wheel: str) -> list[str]:
    """What is wrong with the wheel at ``wheel`` (empty when nothing is)."""
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        entry_points = next((n for n in names if n.endswith(".dist-info/entry_points.txt")), None)
        entry = archive.read(entry_points).decode() if entry_points else ""
    found = []
    tops = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")}
    if tops != {"notation"}:
        found.append(f"top-level names other than notation: {sorted(tops - {'notation'})}")
    for needed in NEEDED:
        if needed not in names:
            found.append(f"missing {needed}")
    if not any(n.startswith("notation/_core.") and n.endswith((".so", ".pyd")) for n in names):
        found.append("missing the compiled core notation/_core")
    if "notation=notation.cli.main:run" not in entry.replace(" ", ""):
        found.append("no console script notation = notation.cli.main:run")
    return found


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: python .ci/check_wheel.py WHEEL", file=sys.stderr)
        sys.exit(2)
    try:
        wrong = problems(sys.argv[1])
    except (OSError, zipfile.BadZipFile) as error:
        print(f"{sys.argv[1]}: not a readable wheel: {error}", file=sys.stderr)
        sys.exit(2)
    for line in wrong:
        print(f"{sys.argv[1]}: {line}", file=sys.stderr)
    sys.exit(1 if wrong else 0)
