"""The engine's word on a sheet's readings (notation.scoresheet.engine): the positions where the
readings part, the costs of the moves it finds worse, the ranking and the probabilities again
(reordered at most, the confidence never raised), the time budget, and a broken engine leaving
a warning and the reading without it. A fake engine (tests/uci_support.py) gives scripted
scores; one test runs Stockfish when it is installed."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

import notation.scoresheet.engine as engine_module
from notation.formats.position import Position
from notation.rules.move import Move
from notation.scoresheet.copies import READING_THRESHOLD, reconstruct_copies
from notation.scoresheet.copies import _boxes_of
from notation.scoresheet.engine import (
    EngineSettings,
    Point,
    contested,
    engine_costs,
    evaluate,
    guarded,
)
from notation.scoresheet.layout import read_sheet
from notation.scoresheet.reprice import reprice
from notation.scoresheet.viterbi import Found, Lattice, read_copies
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


def _lattice(readings: list[list[Move]], move_probability: list[float], reading_probability: float) -> Lattice:
    found = [Found(r, [], 1.0, (), Position.initial()) for r in readings]
    return Lattice(found, move_probability, reading_probability, 0)


def _read(text: str) -> Lattice:
    return read_copies([_boxes_of(read_sheet(text))], Position.initial(), "en")


def test_the_plies_in_dispute_and_the_moves_played_there() -> None:
    lattice = _read(BLANK)
    points = contested(lattice)
    assert [p.ply for p in points] == [3]  # only the blank box is in doubt
    point = points[0]
    assert point.position.fen() == Position.initial().play(lattice.readings[0].moves[0]).play(
        lattice.readings[0].moves[1]).play(lattice.readings[0].moves[2]).fen()
    sans = [point.position.san(m) for m in point.moves]
    assert sans[0] == "Nc6" and "c5" in sans and 2 <= len(sans) <= engine_module.MAX_CANDIDATES
    assert point.weight == pytest.approx(1 - lattice.move_probability[3])
    assert contested(_read(OPENING)) == []  # nothing in doubt: the engine is not asked


def test_costs_grow_with_the_loss_are_capped_and_an_unjudged_move_pays_the_worst() -> None:
    lattice = _read(BLANK)
    point = contested(lattice)[0]
    ucis = [m.uci() for m in point.moves]
    scores = {u: -2000 for u in ucis}
    scores[ucis[0]], scores[ucis[1]] = 20, -30
    charges = engine_costs([point], [scores])
    per_move, other = charges[(point.ply, point.position.key())]
    assert per_move[point.moves[0]] == 0.0
    assert per_move[point.moves[1]] == pytest.approx(engine_module.ENGINE_WEIGHT * 0.5)
    assert per_move[point.moves[-1]] == pytest.approx(engine_module.ENGINE_WEIGHT * engine_module.LOSS_CAP / 100)
    assert other == max(per_move.values())
    assert engine_costs([point], [None]) == {}  # not judged: no cost


def test_repricing_reorders_and_undoing_it_restores_the_reading() -> None:
    lattice = _read(BLANK)
    before = (list(lattice.readings[0].moves), list(lattice.move_probability), lattice.reading_probability)
    point = contested(lattice)[0]
    c5 = point.position.parse_san("c5")
    charges = {(point.ply, point.position.key()): ({m: (0.0 if m == c5 else 3.0) for m in point.moves}, 3.0)}
    after = reprice(lattice, charges)
    assert after.readings[0].moves[3] == c5 and after.move_probability[3] > before[1][3]
    assert after.readings[0].cost - after.readings[0].prior == pytest.approx(
        lattice.readings[0].cost - lattice.readings[0].prior)  # the boxes cost the same; the charge is a prior
    undone = reprice(lattice, {k: ({m: -c for m, c in v[0].items()}, -v[1]) for k, v in charges.items()})
    assert undone.readings[0].moves == before[0]
    assert undone.move_probability == pytest.approx(before[1]) and undone.reading_probability == pytest.approx(before[2])


def test_guarded_never_raises_the_confidence() -> None:
    a, b = _moves("e2e4", "e7e5"), _moves("e2e4", "c7c5")
    before = _lattice([a, b], [1.0, 0.80], 0.80)
    # the same best reading, surer after the engine: kept as sure as before, no more
    confidence, per_move, reordered = guarded(before, _lattice([a, b], [1.0, 0.95], 0.95))
    assert (confidence, per_move, reordered) == (0.80, [1.0, 0.80], False)
    # the same best reading, less sure: the lower figures
    confidence, per_move, reordered = guarded(before, _lattice([a, b], [1.0, 0.60], 0.60))
    assert (confidence, per_move, reordered) == (0.60, [1.0, 0.60], False)


def test_guarded_never_makes_a_new_best_confident() -> None:
    a, b = _moves("e2e4", "e7e5"), _moves("e2e4", "c7c5")
    before = _lattice([a, b], [1.0, 0.55], 0.55)
    confidence, per_move, reordered = guarded(before, _lattice([b, a], [1.0, 0.999], 0.999))
    assert reordered and confidence == pytest.approx(0.45)  # at most what was not on the old best
    assert per_move == [1.0, pytest.approx(0.45)]  # 1. e4 as sure as before, 1...c5 at most 1 - 0.55


@pytest.fixture
def strong(monkeypatch: pytest.MonkeyPatch) -> None:
    """A weight that flips the blank box's tie when the engine finds 2...Nc6 300 centipawns worse
    than 2...c5 (the default, set on real sheets, is gentler)."""
    monkeypatch.setattr(engine_module, "ENGINE_WEIGHT", 1.0)
    monkeypatch.setattr(engine_module, "LOSS_CAP", 300)


@pytest.mark.usefixtures("strong")
def test_the_engine_flips_a_near_tie_toward_the_move_it_prefers(tmp_path: Path) -> None:
    plain = reconstruct_copies([BLANK])
    assert plain.sans[3] == "Nc6" and plain.readings[1].sans[3] == "c5"
    path = fake_engine(tmp_path, {"c7c5": 100}, default=-200)
    rec = reconstruct_copies([BLANK], engine=EngineSettings(path, 1.0))
    assert rec.sans[3] == "c5" and rec.readings[0].sans == rec.sans
    assert rec.readings[1].sans[3] == "Nc6" and rec.readings[1].implausibility == pytest.approx(3.0)
    assert rec.readings[0].implausibility == 0.0
    assert rec.readings[0].cost == pytest.approx(plain.readings[0].cost)  # the charge is no edit of the boxes
    assert rec.readings[0].probability > rec.readings[1].probability
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


@pytest.mark.usefixtures("strong")
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
    pos = Position.initial()
    points = [Point(0, pos, _moves("e2e4")[:1] + _moves("d2d4")[:1], w) for w in (0.5, 0.4, 0.3, 0.2)]
    with UciEngine(fake_engine(tmp_path, mode="slow")) as running:
        scores, problem = evaluate(running, points, 0.12)  # 0.05 s a position at least: two of them
        assert problem is None and sum(s is not None for s in scores) == 2 and scores[0] is not None
        none, _ = evaluate(running, points, 0.0)
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
