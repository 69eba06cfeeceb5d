"""``filter``'s position and material criteria and ``--unique`` through the compiled core
(``notation._core.walk_mainline``): the same moves, repetition keys, material and duplicate
identities as the Python walk, so the same games are selected either way."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import OUTSIDE, SAMPLE_GAMES, corpus_game_files
from terminal_support import CODE

from notation.compiled import core_module
from notation.pgn.chunks import RawGame
from notation.pgn.reader import split_games
from notation.select.criteria import Subject
from notation.select.material import material_counts
from notation.select.run import header_tags, raw_header

pytestmark = pytest.mark.skipif(core_module() is None, reason="the compiled core is not built")


def _subjects(paths: list[Path]) -> list[Subject]:
    out = []
    for path in paths:
        for raw in split_games(str(path)):
            if isinstance(raw, RawGame):
                out.append(Subject(raw, header_tags(raw_header(raw)), str(path)))
    return out


def _compare(subjects: list[Subject]) -> int:
    walked = 0
    for subject in subjects:
        core = subject.core_walk()
        if core is None:
            continue
        walked += 1
        twin = Subject(subject.raw, subject.tags, subject.name)
        steps = list(twin.walk())
        assert core.moves == [move for _, move, _ in steps], subject.raw.number
        start = twin.start
        assert start is not None
        assert core.keys == [start.key()] + [after.key() for _, _, after in steps]
        changes = [(0, material_counts(start))] + [
            (ply, material_counts(after))
            for ply, (before, move, after) in enumerate(steps, 1)
            if move.promotion or before.is_capture(move)
        ]
        assert core.material == changes
        # the duplicate identity the Python walk would give
        fresh = Subject(subject.raw, subject.tags, subject.name)
        fresh._core_walk = (None,)
        assert subject.identity() == fresh.identity()
    return walked


def test_the_core_walk_equals_the_python_walk_on_the_sample_games() -> None:
    subjects = _subjects(sorted(SAMPLE_GAMES.glob("*.pgn")))
    assert _compare(subjects) > 30


@pytest.mark.slow
def test_the_core_walk_equals_the_python_walk_on_the_corpus() -> None:
    assert _compare(_subjects(corpus_game_files())) > 50_000


FILTERS = [
    ["--material", "Q*R*:q*r*"],
    ["--material", "Q0R*:q0r*"],
    ["--material", "KR:kr", "--invert"],
    ["--fen", "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"],
    ["--unique", "--duplicates", "DUPES"],
]


@pytest.mark.parametrize("args", FILTERS)
def test_filter_writes_the_same_games_with_the_core_and_without(args: list[str], tmp_path: Path) -> None:
    import os

    source = tmp_path / "games.pgn"
    source.write_text(
        "\n".join(p.read_text(encoding="utf-8") for p in sorted(SAMPLE_GAMES.glob("*.pgn"))) * 2, encoding="utf-8"
    )
    outputs = []
    for core in ("rust", "python"):
        given = [str(tmp_path / f"dupes-{core}.pgn") if a == "DUPES" else a for a in args]
        env = dict(os.environ, NOTATION_CORE=core)
        run = subprocess.run(
            [sys.executable, "-c", CODE, "filter", str(source), *given],
            cwd=OUTSIDE,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        dupes = (tmp_path / f"dupes-{core}.pgn").read_text() if "DUPES" in args else ""
        outputs.append((run.returncode, run.stdout, dupes))
    assert outputs[0] == outputs[1]
    assert outputs[0][1]
