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


#: A real game (otb-pgnmentor) whose last move is the king's: ``31. Kh1``, written ``Крh1``.
ENDS_IN_A_KING_MOVE = (
    "d4 Nf6 Nf3 g6 g3 Bg7 Bg2 d5 c4 c6 cxd5 cxd5 O-O O-O Nc3 Nc6 Bd2 Ne4 Bf4 Bf5 Ne5 Nxc3 bxc3 Nxe5 dxe5 e6 "
    "Qd2 Qc7 h3 g5 Bxg5 Bxe5 Rac1 Bg6 Be3 Rac8 Bd4 b5 Qg5 f6 Qg4 f5 Bxe5 Qxe5 Qb4 a6 f4 Qe3+ Kh2 Bh5 Qe7 Rf7 "
    "Qh4 Bxe2 Rg1 Rg7 Rce1 b4 cxb4 d4 Kh1"
).split()


@pytest.mark.parametrize(("notation", "layout"), [("san", "blocks"), ("long", "csv"), ("san", "numbered")])
def test_a_russian_sheet_ending_in_a_king_move_is_confident(tmp_path: object, notation: str, layout: str) -> None:
    """``Кр`` is how Russian writes the king, not a lower-case slip: the last box ``Крh1``, with
    no box after it to confirm it, reads as written and the sheet exits 0 with its game (it was
    0.97, ``Rh1`` weighed for a king letter read as a slip)."""
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    text = typed_sheet(ENDS_IN_A_KING_MOVE, "ru", notation, layout)
    assert "Крh" in text
    rec = reconstruct(text)
    assert rec.sans == ENDS_IN_A_KING_MOVE
    assert rec.status == "ok" and not rec.flagged, [(m.ply, m.san, m.confidence) for m in rec.flagged]
    assert rec.per_move[-1].confidence >= 0.99
    path = tmp_path / "sheet.txt"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(app, ["scoresheet", str(path), "--format", "json", "-q"])
    assert result.exit_code == 0, result.stderr[-400:]
