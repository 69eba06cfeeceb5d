"""Dead positions (5.2.2) and wins on time by a side that cannot mate (6.9).

The labelled positions of ``../shared/corpus/unwinnable/`` (each side: can it still mate?) are
validated as zero-move games from their FEN, a win on time for each side and a plain ``1-0``:
a sample here, the whole file in a slow test (on 2026-12-01: 3,414 positions, 2 of them rejected
as illegal, 9 white pawns; all 2,874 sides that cannot mate flagged, no false flag, all 1,156
dead positions found). Every game goes through both the
core and the Python reference, which must agree byte for byte.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator

import pytest
from conftest import corpus_path

from notation.pgn.reader import read_games
from notation.validation import dead as dead_module
from notation.validation.reports import GameReport, check_game
from notation.validation.run import validate

HEAD = '[Event "t"]\n[Site "?"]\n[Date "2026.01.01"]\n[Round "1"]\n[White "W"]\n[Black "B"]\n'


def pgn(fen: str, movetext: str, result: str, termination: str | None = None) -> str:
    extra = f'[Termination "{termination}"]\n' if termination else ""
    return f'{HEAD}[Result "{result}"]\n[SetUp "1"]\n[FEN "{fen}"]\n{extra}\n{movetext} {result}\n\n'


def both_paths(text: str) -> list[GameReport]:
    """The reports through the core, after checking that the reference gives the same."""
    core = list(validate(io.StringIO(text)))
    reference = [check_game(g) for g in read_games(io.StringIO(text))]
    assert [json.dumps(r.to_dict()) for r in core] == [json.dumps(r.to_dict()) for r in reference]
    assert [r.dead for r in core] == [r.dead for r in reference]
    return core


def codes(report: GameReport) -> list[str]:
    return [d.code for d in report.diagnostics if d.code not in ("pgn.empty-game",)]


# ----------------------------------------------------------------------------- games
def test_a_game_played_on_after_a_dead_position() -> None:
    (rep,) = both_paths(pgn("8/8/4k3/8/8/2K5/3r4/8 w - - 0 40", "40. Kxd2 Kd5 41. Ke3 Ke5", "1-0"))
    assert codes(rep) == ["game.dead-position", "result.mismatch", "game.move-after-dead-position"]
    info, mismatch, after = rep.diagnostics
    assert (info.severity, info.ply, info.san) == ("info", 1, "Kxd2")
    assert "40. Kxd2 is dead" in info.message and "5.2.2" in info.message
    assert (mismatch.severity, mismatch.ply) == (
        "error",
        1,
    ) and "dead position after 40. Kxd2, ply 1" in mismatch.message
    assert (after.severity, after.ply, after.san) == ("warning", 2, "Kd5")
    assert rep.outcome.termination == "dead_position" and rep.dead.first == 1


def test_a_locked_pawn_wall_is_dead_from_the_move_that_closes_it() -> None:
    (rep,) = both_paths(pgn("k7/8/p1p1p1p1/P1P1P3/6P1/8/8/K7 w - - 0 1", "1. g5 Kb7 2. Kb1", "1/2-1/2"))
    assert rep.dead.first == 1 and rep.dead.white == (False, "blocked position")
    assert codes(rep) == ["game.dead-position", "game.move-after-dead-position"]
    assert rep.status == "warning" and rep.outcome.termination == "dead_position"


def test_a_dead_start_position() -> None:
    (rep,) = both_paths(pgn("k7/8/p1p1p1p1/P1P1P1P1/8/8/8/K7 w - - 0 1", "1. Kb1", "0-1"))
    assert codes(rep) == ["game.dead-position", "result.mismatch", "game.move-after-dead-position"]
    assert rep.diagnostics[0].ply == 0 and "start position is dead" in rep.diagnostics[0].message


def test_a_timeout_in_a_blocked_position() -> None:
    # Black's bishop and pawns cannot break White's wall; White's bishop can still help-mate
    fen = "5b2/p7/Pp3k2/1Pp1pBp1/2P1P1P1/5K2/8/8 w - - 0 50"
    black_wins, white_wins = both_paths(
        pgn(fen, "50. Ke3 Ke7 51. Kf3 Kf6", "0-1", "Time forfeit")
        + pgn(fen, "50. Ke3 Ke7 51. Kf3 Kf6", "1-0", "Time forfeit")
    )
    assert codes(black_wins) == ["result.time-unwinnable"]
    assert "black won on time" in black_wins.diagnostics[0].message
    assert "(blocked position)" in black_wins.diagnostics[0].message
    assert codes(white_wins) == [] and white_wins.dead.white == (True, None)


def test_validate_leaves_the_losers_verdict_alone_import_computes_it() -> None:
    # White can mate, so the position is not dead whatever Black's verdict: validate (both
    # paths) leaves it not computed (and both sides of a draw); import's path (check_replayed, core.take) computes it
    from notation.compiled import core_module
    from notation.pgn.reader import split_games
    from notation.validation import core
    from notation.validation.reports import check_replayed, replay

    fen = "r5k1/pp4p1/2p2q2/2bp3p/5P2/3r4/PPP1N1PP/1R1K3R w - - 0 22"
    text = pgn(fen, "", "1-0") + pgn(fen, "", "1-0", "Time forfeit") + pgn(fen, "", "1/2-1/2")
    resigned, on_time, drawn = both_paths(text)
    for rep in (resigned, on_time):
        assert rep.dead == dead_module.Dead(None, (True, None), dead_module.NOT_COMPUTED)
        assert rep.dead.computed(True) and not rep.dead.computed(False)
    # a draw: a short helpmate walk plays a mate, so the position is not dead, neither verdict read
    assert drawn.dead == dead_module.Dead(None, dead_module.NOT_COMPUTED, dead_module.NOT_COMPUTED)
    games = list(read_games(io.StringIO(text)))
    module = core_module()
    assert module is not None
    for game, raw in zip(games, split_games(io.StringIO(text)), strict=True):
        imported = check_replayed(game, replay(game)).dead
        taken = core.take(module, raw)
        assert taken is not None
        assert imported == dead_module.of_core(taken[1])
        assert imported.computed(True) and imported.computed(False)


def test_a_forced_line_is_named() -> None:
    # White's only move takes the rook, and a knight alone cannot mate a bare king
    fen = "7n/8/8/8/8/8/r1k5/K7 w - - 0 1"
    (rep,) = both_paths(pgn(fen, "", "0-1", "Time forfeit"))
    assert rep.dead == dead_module.Dead(0, (False, "bare king"), (False, "forced line"))
    assert codes(rep) == ["game.dead-position", "result.mismatch", "result.time-unwinnable"]
    assert "(forced line)" in rep.diagnostics[-1].message


def test_an_exhausted_budget_is_undecided_never_dead(monkeypatch: pytest.MonkeyPatch) -> None:
    text = pgn("8/8/4k3/8/8/2KQ4/8/8 w - - 0 60", "60. Qd4 Kf5", "1-0", "Time forfeit")
    (searched,) = both_paths(text)
    assert codes(searched) == [] and searched.dead.white == (True, None)
    monkeypatch.setattr(dead_module, "SEARCHES", 0)
    (unsearched,) = both_paths(text)
    assert codes(unsearched) == ["result.time-undecided"]
    assert unsearched.diagnostics[0].severity == "info" and unsearched.status == "ok"
    assert unsearched.dead.white == (None, None) and unsearched.dead.first is None


def test_chess960_castling_rights_are_not_guessed() -> None:
    text = (
        '[Event "t"]\n[Site "?"]\n[Date "2026.01.01"]\n[Round "1"]\n[White "W"]\n[Black "B"]\n'
        '[Result "1-0"]\n[Variant "Chess960"]\n[Termination "Time forfeit"]\n'
        '[FEN "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1"]\n[SetUp "1"]\n\n1. a3 1-0\n\n'
    )
    (rep,) = both_paths(text)
    assert rep.dead.white == (None, None) and codes(rep) == ["result.time-undecided"]


# ----------------------------------------------------------------------------- labelled positions
def labelled(step: int = 1) -> Iterator[tuple[str, str]]:
    path = corpus_path("unwinnable", "chasolver-positions.txt")
    lines = [line for line in path.read_text().splitlines() if line.strip() and not line.startswith("#")]
    for line in lines[::step]:
        label, fen = line[:2], line[3:].strip()
        if len(fen.split()) < 6:
            fen += " 0 1"
        yield label, fen


def check_labelled(step: int) -> None:
    positions = list(labelled(step))
    text = "".join(
        pgn(fen, "", "1-0", "Time forfeit") + pgn(fen, "", "0-1", "Time forfeit") + pgn(fen, "", "1-0")
        for _, fen in positions
    )
    reports = both_paths(text)
    assert len(reports) == 3 * len(positions)
    cannot = flagged = false_flags = dead = dead_caught = unread = 0
    for (label, _fen), white_wins, black_wins, resigned in zip(
        positions, reports[::3], reports[1::3], reports[2::3], strict=True
    ):
        if any(d.code == "fen.invalid" for d in white_wins.diagnostics):
            unread += 1
            continue
        for side, rep in ((0, white_wins), (1, black_wins)):
            hit = "result.time-unwinnable" in codes(rep)
            if label[side] == "-":
                cannot += 1
                flagged += hit
            else:
                false_flags += hit
        if label == "--":  # a dead position (or a stalemate) makes a recorded 1-0 an error
            dead += 1
            dead_caught += "result.mismatch" in codes(resigned)
        else:
            false_flags += any("dead position" in d.message for d in resigned.diagnostics)
    assert unread <= max(2, len(positions) // 100)
    assert false_flags == 0
    assert dead_caught == dead
    assert flagged >= 0.995 * cannot, (flagged, cannot)


def test_labelled_positions_sample() -> None:
    check_labelled(step=40)


@pytest.mark.slow
def test_labelled_positions_whole_file() -> None:
    check_labelled(step=1)


def test_the_search_budget_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for text, searches in (("0", 0), (" 3 ", 3), ("", 8), ("-1", 8), ("many", 8), ("99999999", 8)):
        monkeypatch.setenv(dead_module.SEARCHES_VARIABLE, text)
        assert dead_module._searches() == searches, text


# ----------------------------------------------------------------------------- the helpmate walk
def check_walk(search_step: int) -> None:
    """The core's helpmate walk (``src/helpmate.rs``: "can mate" proved by playing a mate, tried
    before the full search) on every labelled position and side: it never finds a mate for a
    side labelled unable to mate, and wherever it finds one the full search finds one too. On
    every ``search_step``-th position the full search's own answers are held against the labels."""
    core = pytest.importorskip("notation._core")
    walked = found = searched = 0
    for index, (label, fen) in enumerate(labelled()):
        for side, white in ((0, True), (1, False)):
            try:
                walk, search = core.helpmate_walk(fen, white, index % search_step == 0)
            except ValueError:  # the two illegal positions (9 white pawns)
                continue
            can = label[side] != "-"
            assert can or not walk, (fen, white)
            walked += 1
            found += walk
            if index % search_step == 0:
                searched += 1
                assert search == can, (fen, white, search)
                assert search or not walk, (fen, white)
    assert walked >= 6_800 and found >= 0.5 * walked / 2, (walked, found)
    assert searched >= walked // search_step // 2


def test_the_walk_never_finds_a_mate_the_labels_deny() -> None:
    check_walk(search_step=20)


@pytest.mark.slow
def test_the_walk_and_the_full_search_on_every_labelled_position() -> None:
    check_walk(search_step=1)
