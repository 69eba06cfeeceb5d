"""The engine's word on a sheet's readings (notation.scoresheet.engine): the positions where the
readings part, the costs of the moves it finds worse, the ranking and the probabilities again
(reordered at most, the confidence never raised), the time budget, and a broken engine leaving
a warning and the reading without it. A fake engine (tests/uci_support.py) gives scripted
scores; one test runs Stockfish when it is installed."""

from __future__ import annotations

import math
import os
import shutil
from pathlib import Path

import pytest

import notation.scoresheet.engine as engine_module
from notation.formats.position import Position
from notation.rules.move import Move
from notation.scoresheet.copies import READING_THRESHOLD, reconstruct_copies
from notation.scoresheet.engine import (
    LOSS_CAP,
    EngineSettings,
    branches,
    engine_costs,
    evaluate,
    rescore,
)
from notation.engines.uci import UciEngine
from uci_support import commands, fake_engine

STOCKFISH = shutil.which("stockfish") or ("/usr/games/stockfish" if os.path.exists("/usr/games/stockfish") else None)
#: Black's second move is a blank box: every legal move fits it alike, the priors rank them
#: (2...Nc6 first, then 2...c5).
BLANK = "1. e4 e5 2. Nf3 ? 3. Bb5 a6 4. Ba4 *"
OPENING = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O *"


def _moves(*ucis: str) -> list[Move]:
    pos = Position.initial()
    out = []
    for text in ucis:
        move = pos.parse_uci(text)
        out.append(move)
        pos = pos.play(move)
    return out


def test_branches_are_where_readings_part_most_disputed_first() -> None:
    a = _moves("e2e4", "e7e5", "g1f3")
    b = _moves("e2e4", "e7e5", "b1c3")
    c = _moves("e2e4", "c7c5", "g1f3")
    found = branches(Position.initial(), [a, b, c], [0.5, 0.3, 0.2])
    assert [(f.ply, [m.uci() for m in f.moves], f.members) for f in found] == [
        (2, ["g1f3", "b1c3"], [[0], [1]]),  # 0.3 off the likeliest move
        (1, ["e7e5", "c7c5"], [[0, 1], [2]]),  # 0.2
    ]
    assert found[0].position.fen() == Position.initial().play(a[0]).play(a[1]).fen()
    assert branches(Position.initial(), [a, a[:2]], [0.6, 0.4]) == []  # one ends where the other goes on
    assert branches(Position.initial(), [], []) == []


def test_costs_grow_with_the_loss_and_are_capped() -> None:
    a = _moves("e2e4", "e7e5")
    b = _moves("e2e4", "c7c5")
    c = _moves("e2e4", "f7f6")
    found = branches(Position.initial(), [a, b, c], [0.4, 0.3, 0.3])
    costs = engine_costs(found, [{"e7e5": 20, "c7c5": -30, "f7f6": -2000}], 3)
    assert costs[0] == 0.0
    assert costs[1] == pytest.approx(engine_module.ENGINE_WEIGHT * 0.5)
    assert costs[2] == pytest.approx(engine_module.ENGINE_WEIGHT * LOSS_CAP / 100)
    assert engine_costs(found, [None], 3) == [0.0, 0.0, 0.0]  # not judged: no cost


def test_rescore_flips_a_near_tie_and_never_makes_the_new_best_confident() -> None:
    a, b = _moves("e2e4", "e7e5"), _moves("e2e4", "c7c5")
    judged = rescore([a, b], [10.0, 10.2], [0.50, 0.45], 0.52, [1.0, 0.52], [2.0, 0.0], 1.0)
    assert judged.order == [1, 0] and judged.reordered
    assert judged.probabilities[1] > judged.probabilities[0]
    assert sum(judged.probabilities) <= 1.0 + 1e-9
    assert judged.reading_confidence <= 1 - 0.52  # at most the mass not on the old best
    assert judged.move_probability[0] == pytest.approx(1.0)  # both play 1. e4
    assert judged.move_probability[1] <= 0.48 + 1e-9


def test_rescore_never_raises_the_confidence() -> None:
    a, b = _moves("e2e4", "e7e5"), _moves("e2e4", "c7c5")
    # the engine dislikes the rival: the best stays, as confident as before, no more
    judged = rescore([a, b], [10.0, 11.0], [0.90, 0.05], 0.93, [1.0, 0.93], [0.0, 3.0], 1.0)
    assert judged.order == [0, 1] and not judged.reordered
    assert judged.reading_confidence == pytest.approx(0.93)
    assert judged.move_probability == [pytest.approx(1.0), pytest.approx(0.93)]
    # the engine dislikes the best: it may stay first (its boxes are far cheaper) but less sure
    judged = rescore([a, b], [10.0, 16.0], [0.995, 0.004], 0.995, [1.0, 0.995], [3.0, 0.0], 1.0)
    assert judged.order == [0, 1]
    expected = 0.995 * math.exp(-3.0) / (0.995 * math.exp(-3.0) + 0.004 + 0.001)
    assert judged.reading_confidence == pytest.approx(expected)
    assert judged.reading_confidence < READING_THRESHOLD


def test_no_cost_changes_nothing() -> None:
    a, b = _moves("e2e4", "e7e5"), _moves("e2e4", "c7c5")
    judged = rescore([a, b], [10.0, 11.0], [0.7, 0.2], 0.75, [1.0, 0.75], [0.0, 0.0], 1.0)
    assert judged.order == [0, 1]
    assert judged.probabilities == [pytest.approx(0.7), pytest.approx(0.2)]
    assert judged.reading_confidence == pytest.approx(0.75)
    assert judged.move_probability == [pytest.approx(1.0), pytest.approx(0.75)]


def test_the_engine_flips_a_near_tie_toward_the_move_it_prefers(tmp_path: Path) -> None:
    plain = reconstruct_copies([BLANK])
    assert plain.sans[3] == "Nc6" and plain.readings[1].sans[3] == "c5"
    path = fake_engine(tmp_path, {"c7c5": 100}, default=-200)
    rec = reconstruct_copies([BLANK], engine=EngineSettings(path, 1.0))
    assert rec.sans[3] == "c5" and rec.readings[0].sans == rec.sans
    assert rec.readings[1].sans[3] == "Nc6" and rec.readings[1].implausibility == pytest.approx(3.0)
    assert rec.readings[0].implausibility == 0.0
    assert rec.status == "needs-human" and rec.reading_confidence is not None
    assert rec.reading_confidence <= 1 - (plain.reading_confidence or 0.0) + 1e-9
    assert rec.per_move[3].san == "c5" and rec.boxes[3].read == "c5"
    assert rec.per_move[3].confidence == pytest.approx(rec.boxes[3].confidence, abs=1e-3)
    assert not [d for d in rec.diagnostics if d.code == "sheet.engine"]
    assert commands(tmp_path)[-1] == "quit"  # started for the sheet and quit


def test_an_engine_that_agrees_keeps_a_confident_sheet_confident(tmp_path: Path) -> None:
    plain = reconstruct_copies([OPENING])
    path = fake_engine(tmp_path)  # every move alike: no cost
    rec = reconstruct_copies([OPENING], engine=EngineSettings(path, 1.0))
    assert (rec.status, rec.sans, rec.reading_confidence) == (plain.status, plain.sans, plain.reading_confidence)
    assert plain.status == "ok"


def test_a_running_engine_is_used_and_left_running(tmp_path: Path) -> None:
    path = fake_engine(tmp_path, {"c7c5": 100}, default=-200)
    with UciEngine(path) as running:
        first = reconstruct_copies([BLANK], session=running)
        second = reconstruct_copies([BLANK], session=running)
        assert running.alive
    assert first.sans[3] == second.sans[3] == "c5"
    assert commands(tmp_path).count("uci") == 1 and commands(tmp_path)[-1] == "quit"


@pytest.mark.parametrize("mode", ["die-on-go", "exit"])
def test_a_broken_engine_leaves_a_warning_and_the_reading_without_it(tmp_path: Path, mode: str) -> None:
    plain = reconstruct_copies([BLANK])
    rec = reconstruct_copies([BLANK], engine=EngineSettings(fake_engine(tmp_path, mode=mode), 1.0))
    warnings = [d for d in rec.diagnostics if d.code == "sheet.engine"]
    assert len(warnings) == 1 and warnings[0].severity == "warning"
    assert "exited" in warnings[0].message
    assert rec.sans == plain.sans and rec.reading_confidence == plain.reading_confidence
    rec = reconstruct_copies([BLANK], engine=EngineSettings(str(tmp_path / "missing"), 1.0))
    assert [d.code for d in rec.diagnostics].count("sheet.engine") == 1 and rec.sans == plain.sans


def test_a_hanging_engine_is_a_warning_not_a_hang(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import notation.engines.uci as uci

    monkeypatch.setattr(uci, "GRACE", 0.2)
    monkeypatch.setattr(uci, "QUIT_TIMEOUT", 0.2)
    rec = reconstruct_copies([BLANK], engine=EngineSettings(fake_engine(tmp_path, mode="hang-on-go"), 0.5))
    warnings = [d.message for d in rec.diagnostics if d.code == "sheet.engine"]
    assert len(warnings) == 1 and "did not answer" in warnings[0] and "0 of" in warnings[0]


def test_the_time_budget_leaves_the_rest_unjudged(tmp_path: Path) -> None:
    start = Position.initial()
    readings = [_moves("e2e4", "e7e5", "g1f3"), _moves("e2e4", "e7e5", "b1c3"), _moves("e2e4", "c7c5", "g1f3"),
                _moves("d2d4", "d7d5"), _moves("d2d4", "g8f6")]
    found = branches(start, readings, [0.3, 0.2, 0.2, 0.2, 0.1])
    assert len(found) == 4
    with UciEngine(fake_engine(tmp_path, mode="slow")) as running:
        scores, problem = evaluate(running, found, 0.12)  # 0.05 s a position at least: two of them
        assert problem is None and sum(s is not None for s in scores) == 2 and scores[0] is not None
        none, _ = evaluate(running, found, 0.0)
        assert none == [None] * 4


@pytest.mark.skipif(STOCKFISH is None, reason="Stockfish is not installed")
def test_stockfish_judges_a_sheet_and_is_quit() -> None:
    assert STOCKFISH is not None
    rec = reconstruct_copies([BLANK], engine=EngineSettings(STOCKFISH, 1.0))
    assert not [d for d in rec.diagnostics if d.code == "sheet.engine"]
    assert len(rec.sans) == 7 and rec.status == "needs-human"
    assert any(r.implausibility > 0 for r in rec.readings)  # it found some of the moves worse
    # a sound reply stays first (2...f5, 2...f6, 2...Qf6 and the like rank below)
    assert rec.sans[3] in ("Nc6", "Nf6")
