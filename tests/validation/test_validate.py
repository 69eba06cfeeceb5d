"""Game-level checks, the jsonl contract, parallel validation and the Python API."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from conftest import CONTRACT_KEYS, OWN_SAMPLES, SAMPLE_GAMES

import notation
from notation.validation.checks import (
    Claims,
    claims,
    outcome,
    result_diagnostics,
    tag_diagnostics,
    valid_date,
)
from notation.diagnostics import CODES
from notation.pgn.model import Game
from notation.formats.position import Position
from notation.pgn.reader import read_games
from notation.validation.replay import replay
from notation.validation.reports import GameReport, check_game
from notation.validation.run import validate

HEAD = '[Event "t"]\n[Site "?"]\n[Date "2026.01.01"]\n[Round "1"]\n[White "W"]\n[Black "B"]\n'


def game(movetext: str, result: str = "*", *, tag_result: str | None = None, **tags: str) -> Game:
    extra = "".join(f'[{k} "{v}"]\n' for k, v in tags.items())
    text = f'{HEAD}[Result "{tag_result or result}"]\n{extra}\n{movetext} {result}\n'
    return next(read_games(io.StringIO(text)))


def report(movetext: str, result: str = "*", **kw: str) -> GameReport:
    return check_game(game(movetext, result, **kw))


def codes(rep: GameReport) -> list[str]:
    return [d.code for d in rep.diagnostics]


# ----------------------------------------------------------------------------- claims
KNIGHTS = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 Ng8"


def test_threefold_counts_the_start_position() -> None:
    rep = report(KNIGHTS, "1/2-1/2")
    assert rep.claims.threefold == 8 and rep.claims.fivefold == 16
    assert rep.outcome.termination == "fivefold_repetition"
    assert "claim.threefold" in codes(rep) and "claim.fivefold" in codes(rep)
    assert "game.move-after-fivefold" not in codes(rep)
    rep = report(KNIGHTS + " 9. e4", "1/2-1/2")
    (after,) = [d for d in rep.diagnostics if d.code == "game.move-after-fivefold"]
    assert after.ply == 17 and after.severity == "warning" and rep.status == "warning"


def test_en_passant_right_counts_only_when_capturable() -> None:
    # After 1. e4 the FEN shows e3 but no capture is possible: the position equals later ones.
    text = "1. e4 Nf6 2. Nf3 Ng8 3. Ng1 Nf6 4. Nf3 Ng8 5. Ng1"
    rep = report(text)
    assert rep.claims.threefold == 9  # after 1. e4 (ply 1), 3. Ng1 (ply 5), 5. Ng1 (ply 9)


def test_fifty_and_seventyfive_moves_from_a_fen_clock() -> None:
    fen = "8/8/8/4k3/8/8/2b5/R3K3 w - - 96 70"
    moves = "70. Ra5+ Kd4 71. Kd2 Bb3 72. Ra4+ Kc5 73. Kc3"
    rep = report(moves, "1/2-1/2", SetUp="1", FEN=fen)
    assert rep.claims.fifty_moves == 4 and rep.claims.seventyfive_moves is None
    fen150 = "8/8/8/4k3/8/8/2b5/R3K3 w - - 148 90"
    rep = report("90. Ra5+ Kd4 91. Kd2 Bb3", "1/2-1/2", SetUp="1", FEN=fen150)
    assert rep.claims.fifty_moves == 1 and rep.claims.seventyfive_moves == 2
    assert rep.outcome.termination == "seventyfive_moves"
    (after,) = [d for d in rep.diagnostics if d.code == "game.move-after-75-moves"]
    assert after.ply == 3


def test_fifty_moves_needs_a_legal_move_for_the_side_to_move() -> None:
    # The 100th half-move without capture mates: no claim (python-chess is_fifty_moves agrees).
    start = Position.from_fen("7k/8/6K1/8/8/8/8/R7 w - - 99 80")
    mate = start.play(start.parse_san("Ra8#"))
    assert mate.halfmove_clock == 100 and mate.is_checkmate()
    rep = report("80. Ra8#", "1-0", SetUp="1", FEN=start.fen())
    assert rep.claims.fifty_moves is None and rep.outcome.to_dict() == {"termination": "checkmate", "winner": "white"}


def test_claims_function_on_plies() -> None:
    rep = replay(game(KNIGHTS))
    claim, perpetual = claims(rep.start, rep.plies)
    assert claim == Claims(threefold=8, fivefold=16) and perpetual is None


def test_perpetual_check_pattern() -> None:
    fen = "6k1/5pp1/8/8/8/8/1q3PPP/3Q2K1 w - - 0 30"
    rep = report("30. Qd8+ Kh7 31. Qh4+ Kg8 32. Qd8+ Kh7 33. Qh4+ Kg8 34. Qd8+", "1/2-1/2", SetUp="1", FEN=fen)
    (perp,) = [d for d in rep.diagnostics if d.code == "pattern.perpetual-check"]
    assert perp.ply == 9 and perp.severity == "info" and "30. Qd8+" in perp.message


# ----------------------------------------------------------------------------- outcome and result
def test_outcome_checkmate_stalemate_dead() -> None:
    assert report("1. f3 e5 2. g4 Qh4#", "0-1").outcome.to_dict() == {"termination": "checkmate", "winner": "black"}
    dead = report("60. Bxd2", "1/2-1/2", SetUp="1", FEN="8/4k3/8/8/8/8/3r4/2K1B3 w - - 0 60")
    assert dead.outcome.termination == "dead_position" and dead.status == "ok"
    assert outcome(None, Claims(), 0).to_dict() == {"termination": None, "winner": None}


@pytest.mark.parametrize(
    ("movetext", "tag", "code"),
    [
        ("1. f3 e5 2. g4 Qh4#", "1-0", "result.mismatch"),
        ("1. f3 e5 2. g4 Qh4#", "1/2-1/2", "result.mismatch"),
        (
            "1. e3 a5 2. Qh5 Ra6 3. Qxa5 h5 4. h4 Rah6 5. Qxc7 f6 6. Qxd7+ Kf7 7. Qxb7 Qd3 8. Qxb8 Qh7 "
            "9. Qxc8 Kg6 10. Qe6",
            "1-0",
            "result.mismatch",
        ),
    ],
)
def test_result_contradicting_the_final_position(movetext: str, tag: str, code: str) -> None:
    rep = report(movetext, tag)
    assert code in codes(rep) and rep.status == "error"


def test_unknown_result_after_mate_is_accepted() -> None:
    assert "result.mismatch" not in codes(report("1. f3 e5 2. g4 Qh4#", "*"))


def test_dead_position_with_a_decisive_result() -> None:
    rep = report("60. Bxd2", "1-0", SetUp="1", FEN="8/4k3/8/8/8/8/3r4/2K1B3 w - - 0 60")
    assert codes(rep) == ["game.dead-position", "result.mismatch"]
    mismatch = rep.diagnostics[1]
    assert mismatch.ply == 1 and "dead position after 60. Bxd2, ply 1" in mismatch.message


@pytest.mark.parametrize(
    "termination", ["Time forfeit", "time forfeit", "Sample won on time", "Timeout", "lost on time", "flag fell"]
)
def test_win_on_time_with_a_bare_king(termination: str) -> None:
    fen = "8/8/4k3/8/8/8/1r6/4K3 b - - 0 70"
    rep = report("70... Rb1+ 71. Kd2", "1-0", SetUp="1", FEN=fen, Termination=termination)
    assert codes(rep) == ["result.time-unwinnable"]
    assert "(bare king)" in rep.diagnostics[0].message
    ok = report("70... Rb1+ 71. Kd2", "0-1", SetUp="1", FEN=fen, Termination=termination)
    assert "result.time-unwinnable" not in codes(ok)
    normal = report("70... Rb1+ 71. Kd2", "1-0", SetUp="1", FEN=fen, Termination="Normal")
    assert "result.time-unwinnable" not in codes(normal)


def test_result_marker_vs_tag_not_reported_twice() -> None:
    rep = report("1. e4 c5", "0-1", tag_result="1-0")
    assert codes(rep).count("pgn.result-mismatch") == 1


def test_missing_result_on_a_hand_built_game() -> None:
    from notation.pgn.model import MoveNode

    g = Game(tags={}, moves=[MoveNode("e4")], result=None)
    diags = result_diagnostics(g, None, outcome(None, Claims(), 0), False)
    assert [d.code for d in diags] == ["result.missing"]


# ----------------------------------------------------------------------------- tags
def test_tags() -> None:
    g = Game(tags={"Event": "x", "White": "a", "Black": "b", "Result": "*", "Date": "2026.13.01"})
    diags = tag_diagnostics(g)
    assert [d.code for d in diags] == ["tags.missing-roster", "tags.bad-date"]
    assert "Site, Date, Round" not in diags[0].message and "Site, Round" in diags[0].message


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("2026.11.30", True),
        ("1858.??.??", True),
        ("????.??.??", True),
        ("2024.02.29", True),
        ("2023.02.29", False),
        ("2026.13.01", False),
        ("30.11.2026", False),
        ("2026-11-30", False),
        ("2026.1.30", False),
        ("", False),
        ("2026.00.10", False),
    ],
)
def test_valid_date(text: str, ok: bool) -> None:
    assert valid_date(text) is ok


# ----------------------------------------------------------------------------- report contract
def test_to_dict_is_the_jsonl_contract() -> None:
    rep = report("1. e4 e5 2. Nf3 Nc6 3. Nxe6", "1-0")
    data = rep.to_dict()
    assert list(data) == CONTRACT_KEYS
    assert data["status"] == "error" and data["plies"] == 4 and data["game"] == 1 and data["line"] == 1
    assert data["white"] == "W" and data["black"] == "B" and data["result"] == "1-0"
    assert list(data["outcome"]) == ["termination", "winner"]
    assert list(data["claims"]) == ["threefold", "fifty_moves", "fivefold", "seventyfive_moves"]
    diag = data["diagnostics"][0]
    assert list(diag)[:7] == ["code", "severity", "message", "line", "column", "ply", "san"]
    assert (diag["code"], diag["ply"], diag["san"]) == ("san.illegal", 5, "Nxe6")
    assert data["final_fen"] == "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    json.dumps(data)


def test_status_rules() -> None:
    assert report("1. e4 e5", "*").status == "ok"
    assert report(KNIGHTS[:47], "1/2-1/2").status == "ok"  # info only (threefold) stays ok
    assert report("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7", "1-0").status == "warning"
    unsupported = report("1. e4 d5", "*", Variant="Atomic")
    assert unsupported.status == "unsupported" and unsupported.plies == 0 and unsupported.final_fen is None
    assert codes(unsupported) == ["variant.unsupported"]


def test_every_code_used_is_registered() -> None:
    for path in SAMPLE_GAMES.glob("*.pgn"):
        for rep in validate(path):
            for d in rep.diagnostics:
                assert d.code in CODES, d.code
                assert d.file == str(path) and d.game == rep.game


def test_internal_failure_becomes_a_diagnostic(monkeypatch: pytest.MonkeyPatch) -> None:
    import notation.validation.reports as module

    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(module, "replay", boom)
    rep = check_game(game("1. e4"))
    assert rep.status == "error" and codes(rep)[-1] == "internal.error"


# ----------------------------------------------------------------------------- driving
def test_python_api_mirrors_the_command() -> None:
    reports = list(notation.validate(SAMPLE_GAMES / "draws.pgn"))
    assert [r.status for r in reports] == ["ok"] * 5
    assert [r.claims.threefold for r in reports][:2] == [34, 9]
    assert reports[2].claims.fifty_moves == 12
    assert [r.outcome.termination for r in reports][3:] == ["stalemate", "dead_position"]


def test_jobs_two_gives_identical_reports_in_file_order() -> None:
    paths = [SAMPLE_GAMES / name for name in OWN_SAMPLES]
    from notation.validation.run import validate_sources

    one = [r.to_dict() for r in validate_sources([(p, None) for p in paths], jobs=1)]
    two = [r.to_dict() for r in validate_sources([(p, None) for p in paths], jobs=2)]
    assert one == two and len(one) > 25


def test_parallel_on_a_corpus_slice_matches(tmp_path: object) -> None:
    from conftest import corpus_path

    from notation.validation import run as module

    path = corpus_path("games", "lichess", "lichess_DannyTheDonkey_2019-01-29.pgn.gz")
    old = module.BATCH_GAMES
    module.BATCH_GAMES = 7  # many small batches: order must still hold
    try:
        two = [r.to_dict() for r in validate(path, jobs=2)]
    finally:
        module.BATCH_GAMES = old
    one = [r.to_dict() for r in validate(path)]
    assert one == two and len(one) == 105


def test_workers_splitting_byte_ranges_give_the_reports_of_one_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A large plain file is split by the workers, a byte range each, its games' numbers guessed
    by the parent and corrected where a range held other games than guessed (here: games with
    no blank line before their tags, a game without tags, escape lines, CRLF line ends)."""
    from notation.validation import run as module

    games = b"".join((SAMPLE_GAMES / name).read_bytes() for name in OWN_SAMPLES)
    packed = b"\n".join(line for line in games.split(b"\n") if line.strip())  # no blank lines at all
    crlf = games.replace(b"\n", b"\r\n")
    text = games + b"1. e4 e5 *\n\n% an escape line\n\n1. d4 d5 *\n\n" + packed + b"\n\n" + crlf + b"\n" + games
    path = tmp_path / "many.pgn"
    path.write_bytes(text * 4)
    ranges: list[object] = []
    original = module._ranges

    def counted(*args: Any) -> Any:
        for spec in original(*args):
            ranges.append(spec)
            yield spec

    monkeypatch.setattr(module, "_ranges", counted)
    submitted: list[object] = []
    submit = module._Task.submit

    def recorded(task: Any, *args: Any) -> None:
        if task.spec is not None:
            submitted.append(task.spec)
        submit(task, *args)

    monkeypatch.setattr(module._Task, "submit", recorded)
    monkeypatch.setattr(module, "RANGE_MIN_BYTES", 1)
    monkeypatch.setattr(module, "HEAD_BYTES", 3_000)
    monkeypatch.setattr(module, "RANGE_BYTES", 5_000)
    one = [r.to_dict() for r in validate(path)]
    two = [r.to_dict() for r in validate(path, jobs=2)]
    assert len(ranges) > 20 and len(one) > 100
    assert len(submitted) > len(ranges)  # some guessed wrong, and were split again
    monkeypatch.setattr(module, "_mapped", lambda path: None)  # the file cannot be mapped: one range
    assert [r.to_dict() for r in validate(path, jobs=2)] == one
    assert one == two


def test_own_sample_games_show_every_check() -> None:
    found = {d.code for name in OWN_SAMPLES for r in validate(SAMPLE_GAMES / name) for d in r.diagnostics}
    expected = {
        "san.illegal",
        "san.ambiguous",
        "san.unknown-piece",
        "san.check-suffix",
        "san.lenient",
        "movenumber.mismatch",
        "fen.invalid",
        "game.move-after-end",
        "game.move-after-fivefold",
        "result.mismatch",
        "result.time-unwinnable",
        "pgn.result-mismatch",
        "pgn.missing-result",
        "pgn.unclosed-comment",
        "tags.missing-roster",
        "tags.bad-date",
        "claim.threefold",
        "claim.fifty-moves",
        "claim.fivefold",
        "pattern.perpetual-check",
        "variant.unsupported",
    }
    assert expected <= found, expected - found
    terminations = {r.outcome.termination for name in OWN_SAMPLES for r in validate(SAMPLE_GAMES / name)}
    assert {"checkmate", "stalemate", "dead_position", "fivefold_repetition"} <= terminations
    clean = [
        r
        for name in ("classics.pgn", "special_moves.pgn", "draws.pgn", "chess960.pgn")
        for r in validate(SAMPLE_GAMES / name)
    ]
    assert all(r.status == "ok" for r in clean) and len(clean) == 12


def test_check_replayed_equals_check_game() -> None:
    from notation.validation.reports import check_replayed

    for g in read_games(SAMPLE_GAMES / "broken.pgn"):
        assert check_replayed(g, replay(g)).to_dict() == check_game(g).to_dict()


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    fen=st.one_of(
        st.none(),
        st.text(max_size=60),
        st.sampled_from(
            [
                "8/8/8/8/8/8/8/8 w - - 0 1",
                "4k3/8/8/8/8/8/8/4K3 w KQkq e3 0 1",
                "4k3/8/8/8/8/8/8/4K2R w K - 200 1",
                "rbbnqkrn/pppppppp/8/8/8/8/PPPPPPPP/RBBNQKRN w GAga - 0 1",
            ]
        ),
    ),
    variant=st.one_of(st.none(), st.sampled_from(["Chess960", "Atomic", "", "From Position", "x"])),
    result=st.sampled_from(["1-0", "0-1", "1/2-1/2", "*", "2-0", ""]),
    termination=st.one_of(st.none(), st.sampled_from(["Time forfeit", "Normal", "won on time"])),
    moves=st.lists(st.sampled_from(["e4", "e5", "Ke2", "Ke7", "O-O", "Kf1", "Rh8", "--", "Qxf7#", "h4"]), max_size=12),
)
def test_check_game_never_raises(
    fen: str | None, variant: str | None, result: str, termination: str | None, moves: list[str]
) -> None:
    from notation.pgn.model import MoveNode

    tags = {"Result": result}
    for name, value in (("FEN", fen), ("Variant", variant), ("Termination", termination)):
        if value is not None:
            tags[name] = value
    g = Game(tags=tags, moves=[MoveNode(m) for m in moves], result=result or None)
    rep = check_game(g)
    assert rep.status in ("ok", "warning", "error", "unsupported")
    assert "internal.error" not in codes(rep)
    json.dumps(rep.to_dict())


def test_lenient_tokens_get_the_ply_of_their_move() -> None:
    """The reader reports ``0-0`` and ``e8Q`` with line and column; validate adds the ply."""
    rep = report("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0-0 Nf6")
    lenient = [d for d in rep.diagnostics if d.code == "pgn.lenient-token"]
    assert [(d.ply, d.san) for d in lenient] == [(7, "0-0")]
    assert rep.status == "warning"


# ----------------------------------------------------------------------------- one SAN syntax
def _validate_text(movetext: str) -> dict[str, object]:
    text = '[Event "x"]\n[Site "x"]\n[Date "2024.01.01"]\n[Round "1"]\n[White "a"]\n[Black "b"]\n[Result "*"]\n\n'
    (report,) = validate(io.StringIO(text + movetext + "\n"))
    return report.to_dict()


@pytest.mark.parametrize("promotion", ["bxa8(Q)", "bxa8/Q", "bxa8Q", "bxa8=q"])
def test_a_lenient_promotion_in_a_pgn_file_is_one_move_with_a_warning(promotion: str) -> None:
    out = _validate_text(f"1. e4 d5 2. exd5 c6 3. dxc6 Qd7 4. cxb7 Kd8 5. {promotion} *")
    found = [(d["code"], d["san"]) for d in out["diagnostics"]]  # type: ignore[index, union-attr]
    assert found == [("pgn.lenient-token", promotion)]
    assert out["status"] == "warning" and out["plies"] == 9
    assert out["final_fen"].startswith("Qnbk1bnr/")  # type: ignore[union-attr]  (a queen on a8)


def test_en_passant_written_with_e_p_is_one_move() -> None:
    out = _validate_text("1. e4 a6 2. e5 d5 3. exd6e.p. *")
    assert [(d["code"], d["san"]) for d in out["diagnostics"]] == [("pgn.lenient-token", "exd6e.p.")]  # type: ignore[index, union-attr]
    assert out["plies"] == 5


def test_0000_is_the_null_move_not_a_lost_move_number() -> None:
    out = _validate_text("1. e4 0000 2. d4 *")
    codes_found = [d["code"] for d in out["diagnostics"]]  # type: ignore[index, union-attr]
    assert out["plies"] == 3 and "pgn.empty-game" not in codes_found
    assert codes_found == ["pgn.lenient-token", "san.null-move"]


@pytest.mark.parametrize(
    "movetext, plies", [("1. e4 d5 2. e4:d5 *", 3), ("1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7++ *", 7)]
)
def test_colon_captures_and_double_plus_mate_are_read_by_the_san_grammar(movetext: str, plies: int) -> None:
    out = _validate_text(movetext)
    found = [d["code"] for d in out["diagnostics"]]  # type: ignore[index, union-attr]
    assert found == ["pgn.lenient-token"] and out["plies"] == plies
