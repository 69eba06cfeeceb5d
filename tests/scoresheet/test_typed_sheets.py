"""Clean typed sheets are confident: a real game typed without a slip, in every supported
language, notation and layout, reads as its game and exits 0 (no move below 0.99).

A fixed sample here; ``benchmarks/bench_scoresheet_typed.py`` runs more."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from conftest import corpus_path
from notation.cli.main import app
from notation.scoresheet.reader import reconstruct
from test_scoresheet import OPERA
from typed_support import LAYOUTS, LETTERS, NOTATIONS, games, typed_sheet, variants

#: Every language with every notation, every layout in turn.
COMBINATIONS = [
    (lang, notation, LAYOUTS[(k + j) % len(LAYOUTS)])
    for k, lang in enumerate(sorted(LETTERS))
    for j, notation in enumerate(NOTATIONS)
]


@pytest.mark.parametrize(("lang", "notation", "layout"), COMBINATIONS)
def test_a_clean_typed_sheet_is_confident(lang: str, notation: str, layout: str) -> None:
    rec = reconstruct(typed_sheet(OPERA, lang, notation, layout, "1-0"))
    assert rec.sans == OPERA, (lang, notation, layout)
    assert rec.status == "ok" and not rec.flagged, [(m.ply, m.san, m.confidence) for m in rec.flagged]


def test_clean_typed_real_games_exit_0(tmp_path: object) -> None:
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    pool = games(8, corpus_path("games", "otb-pgnmentor"))
    for k, (sans, (lang, notation, layout)) in enumerate(zip(pool, variants(len(pool), seed=7))):
        path = tmp_path / f"sheet{k}.txt"
        path.write_text(typed_sheet(sans, lang, notation, layout), encoding="utf-8")
        result = CliRunner().invoke(app, ["scoresheet", str(path), "--format", "json", "-q"])
        assert result.exit_code == 0, (k, lang, notation, layout, result.stderr[-400:])
        assert '"status": "ok"' in result.stdout
        assert reconstruct(path.read_text(encoding="utf-8")).sans == sans
