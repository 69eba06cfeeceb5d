"""The channel's cost table the package ships is what its script derives from the HCS sheets.

``python -m notation.cli.build_sheet_costs HCS_FOLDER -o channel_costs.json`` learns the table
(:mod:`notation.scoresheet.learn`); the committed ``notation/scoresheet/channel_costs.json`` must
be its output byte for byte, so that a change to the learning or to the reader that learns
shows in the table, and no figure is edited by hand (three once were: ``char.delete``,
``char.replace`` and ``pawn.no_file`` were left at an older round's figures).

The script runs in a process of its own: learning sets the channel's costs as it goes, and the
readers' caches would keep what they computed with them."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

import notation
from conftest import corpus_path


@pytest.mark.slow  # about 35 s: two rounds of aligning 109 sheets with their games
def test_the_committed_table_is_the_scripts_output(tmp_path: Path) -> None:
    folder = corpus_path("scoresheets", "hcs")
    if not (folder / "training_tags.txt").is_file() or not (folder / "answers.tsv").is_file():
        pytest.skip(f"HCS labels not available: {folder} lacks training_tags.txt or answers.tsv")
    out = tmp_path / "channel_costs.json"
    env = dict(os.environ)
    # the same package as this test imports (a checkout or the installed one)
    top = str(Path(notation.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join([top, *filter(None, [env.get("PYTHONPATH")])])
    done = subprocess.run(
        [sys.executable, "-m", "notation.cli.build_sheet_costs", str(folder), "-o", str(out)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    committed = resources.files("notation.scoresheet").joinpath("channel_costs.json").read_text(encoding="utf-8")
    assert out.read_text(encoding="utf-8") == committed, (
        "notation/scoresheet/channel_costs.json is not what python -m notation.cli.build_sheet_costs "
        "writes: run it again (and measure the readers again: BENCHMARKS.md, Scoresheets)"
    )
