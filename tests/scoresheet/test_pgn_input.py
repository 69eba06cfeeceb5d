"""Scoresheet inputs that are PGN (notation.scoresheet.pgn_input): detection, certain readings,
the fallback to reconstruction with located corrections, sheets left as they were."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import SAMPLE_GAMES

from notation.scoresheet.pgn_input import has_pgn_structure, mask_movetext, read_scoresheets
from notation.scoresheet.reader import reconstruct

CLASSICS = SAMPLE_GAMES / "classics.pgn"
SHEETS = SAMPLE_GAMES / "sheets"
#: classics.pgn with Black's 13th move of game 1 written one rank off (Rxd6: illegal)
ILLEGAL_LINE = "11. Bxb5+ Nbd7 12. O-O-O { Queenside castling. } 12... Rd8 13. Rxd7 Rxd6"


def one_illegal() -> str:
    text: str = CLASSICS.read_text(encoding="utf-8")
    assert "13. Rxd7 Rxd7" in text
    return text.replace("13. Rxd7 Rxd7", "13. Rxd7 Rxd6", 1)


def test_classics_are_certain_readings() -> None:
    games = list(read_scoresheets(CLASSICS.read_text(encoding="utf-8")))
    assert [g.number for g in games] == [1, 2, 3]
    assert [g.line for g in games] == [1, 16, 30]
    for g in games:
        rec = g.reconstruction
        assert g.pgn and g.replayed
        assert rec.status == "ok" and rec.layout == "pgn" and rec.cost == 0
        assert not any(d.code == "sheet.unreadable" for d in rec.diagnostics)
        assert rec.diagnostics == [] and rec.corrections == []
        assert rec.result == "1-0"
    first = games[0].reconstruction
    assert first.tags["White"] == "Morphy, Paul" and first.tags["Event"] == "Paris, casual game"
    assert first.sans[-1] == "Rd8#" and len(first.sans) == 33
    assert list(first.tags)[:7] == ["Event", "Site", "Date", "Round", "White", "Black", "Result"]


def test_an_illegal_move_falls_back_to_reconstruction_keeping_tags() -> None:
    games = list(read_scoresheets(one_illegal()))
    first, rest = games[0], games[1:]
    rec = first.reconstruction
    assert first.pgn and not first.replayed
    # the illegal box is corrected on the word of one copy: a guess a human confirms
    # (notation.scoresheet.calibration), the game otherwise as written
    assert rec.status == "needs-human" and rec.layout == "numbered"
    # flagged: the corrected box and the moves read as written within three plies of it
    assert {m.ply for m in rec.flagged} == set(range(23, 30))
    assert rec.tags["White"] == "Morphy, Paul" and rec.tags["Black"].startswith("Duke Karl")
    assert rec.sans[25] == "Rxd7" and len(rec.sans) == 33
    (fix,) = rec.corrections
    assert (fix.written, fix.chosen, fix.ply) == ("Rxd6", "Rxd7", 26)
    # located in the file: line 13, the column of the written move
    (diag,) = [d for d in rec.diagnostics if d.code == "sheet.correction"]
    assert (diag.line, diag.column) == (13, ILLEGAL_LINE.index("Rxd6") + 1)
    assert all(g.replayed and g.reconstruction.status == "ok" for g in rest)


def test_fallback_in_a_later_game_is_located_in_the_file() -> None:
    text = CLASSICS.read_text(encoding="utf-8").replace("23. Be7#", "23. Bf7#", 1)
    games = list(read_scoresheets(text))
    second = games[1].reconstruction
    assert not games[1].replayed and second.tags["White"] == "Anderssen, Adolf"
    (diag,) = [d for d in second.diagnostics if d.code == "sheet.correction"]
    lines = text.split("\n")
    assert diag.line is not None and diag.column is not None
    assert lines[diag.line - 1][diag.column - 1 :].startswith("Bf7#")
    assert second.sans[-1] == "Be7#"


@pytest.mark.parametrize("sheet", sorted(p.name for p in SHEETS.iterdir()))
def test_sheets_go_through_reconstruction_unchanged(sheet: str) -> None:
    text = (SHEETS / sheet).read_text(encoding="utf-8")
    assert not has_pgn_structure(text)
    (game,) = list(read_scoresheets(text))
    assert not game.pgn and not game.replayed
    assert game.reconstruction.to_dict() == reconstruct(text).to_dict()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('[Event "x"]\n\n1. e4 e5 *\n', True),
        ('\ufeff\n% escape\n  [White "A"]  \n1. e4', True),
        ("1. e4 e5 2. Nf3", False),
        ("Event: club\n1. e4 e5", False),
        ('e4 [Event "x"]\n', False),
        ("[Event x]\n1. e4", False),
        ("", False),
    ],
)
def test_pgn_structure_test(text: str, expected: bool) -> None:
    assert has_pgn_structure(text) is expected


def test_mask_keeps_tags_mainline_and_positions() -> None:
    text = '[Event "Paris (Opera) {x}"]\n\n1. e4 {a\ncomment} e5 (1... c5 {c} 2. Nf3) $1 2. Nf3 *\n'
    masked = mask_movetext(text)
    assert masked.split("\n")[0] == '[Event "Paris (Opera) {x}"]'
    assert len(masked) == len(text) and masked.count("\n") == text.count("\n")
    assert masked.split() == ["[Event", '"Paris', "(Opera)", '{x}"]', "1.", "e4", "e5", "2.", "Nf3", "*"]
    assert masked.index("Nf3") == text.rindex("Nf3")


def test_user_tags_override_and_unsupported_variant(tmp_path: Path) -> None:
    (game,) = list(
        read_scoresheets(CLASSICS.read_text(encoding="utf-8").split("\n\n[Event")[0], tags="White=Paul Morphy,Board=1")
    )
    assert game.reconstruction.tags["White"] == "Paul Morphy" and game.reconstruction.tags["Board"] == "1"
    crazy = (SAMPLE_GAMES / "variant_crazyhouse.pgn").read_text(encoding="utf-8")
    (game,) = list(read_scoresheets(crazy))
    assert game.reconstruction.needs_human
    assert [d.code for d in game.reconstruction.diagnostics] == ["variant.unsupported"]


def test_chess960_game_replays_and_draws() -> None:
    (game,) = list(read_scoresheets((SAMPLE_GAMES / "chess960.pgn").read_text(encoding="utf-8")))
    rec = game.reconstruction
    assert game.replayed and rec.chess960 and rec.sans[0] == "O-O"
    assert rec.position_after(len(rec.moves)).fen()
