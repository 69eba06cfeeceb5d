"""Replay: legal prefix, variations, start positions, move-level diagnostics."""

from __future__ import annotations

import io

import pytest
from conftest import SAMPLE_GAMES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import notation
from notation.pgn.model import Game, MoveNode
from notation.rules.move import Move
from notation.formats.position import Position
from notation.pgn.reader import read_games
from notation.validation.replay import PlyRecord, Replay, replay, variant_kind

HEAD = '[Event "t"]\n[Site "?"]\n[Date "2026.01.01"]\n[Round "1"]\n[White "W"]\n[Black "B"]\n'


def game(movetext: str, result: str = "*", **tags: str) -> Game:
    extra = "".join(f'[{k} "{v}"]\n' for k, v in tags.items())
    text = f'{HEAD}[Result "{result}"]\n{extra}\n{movetext} {result}\n'
    return next(read_games(io.StringIO(text)))


def codes(rep: Replay) -> list[str]:
    return [d.code for d in rep.diagnostics]


def test_mainline_records_chain_positions() -> None:
    rep = replay(game("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6"))
    assert rep.unsupported is None and rep.stopped_at is None and not rep.diagnostics
    assert [r.ply for r in rep.plies] == [1, 2, 3, 4, 5, 6]
    assert [r.san for r in rep.plies] == ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]
    assert rep.start == Position.initial()
    for prev, record in zip([None, *rep.plies], rep.plies):
        assert isinstance(record, PlyRecord)
        assert record.before == (rep.start if prev is None else prev.after)
        assert record.after == record.before.play(record.move)
        assert record.key == record.after.key()
        assert record.check == record.after.is_check()
    assert rep.final == rep.plies[-1].after
    assert rep.plies[2].move == Move(6, 21)  # g1f3


def test_illegal_move_keeps_legal_prefix_and_stops() -> None:
    rep = replay(game("1. e4 e5 2. Nf3 Nc6 3. Nxe6 Nf6 4. Bc4"))
    assert len(rep.plies) == 4 and rep.stopped_at == 5
    (diag,) = rep.diagnostics
    assert (diag.code, diag.ply, diag.san, diag.line, diag.column) == ("san.illegal", 5, "Nxe6", 9, 24)
    assert diag.fen == rep.final.fen() == rep.plies[-1].after.fen()


def test_ambiguous_move_lists_candidates_and_position() -> None:
    rep = replay(game("1. Nf3 Nf6 2. d3 d6 3. Nd2"))
    (diag,) = rep.diagnostics
    assert diag.code == "san.ambiguous" and diag.ply == 5
    assert set(diag.candidates) == {"Nbd2", "Nfd2"}
    assert diag.fen == "rnbqkb1r/ppp1pppp/3p1n2/8/8/3P1N2/PPP1PPPP/RNBQKB1R w KQkq - 0 3"


def test_unknown_piece_letter_is_an_error_at_its_ply_not_a_pawn_move() -> None:
    g = game("1. e4 e5 2. Sf3 Nc6")
    rep = replay(g)
    assert [d.code for d in rep.diagnostics] == ["san.unknown-piece"]
    diag = rep.diagnostics[0]
    assert (diag.ply, diag.san, diag.line, diag.column) == (3, "Sf3", 9, 13)
    assert len(rep.plies) == 2 and rep.stopped_at == 3
    assert [d.code for d in rep.superseded] == ["pgn.syntax"]


def test_move_after_checkmate() -> None:
    rep = replay(game("1. f3 e5 2. g4 Qh4# 3. Kf2", "0-1"))
    assert codes(rep) == ["game.move-after-end"] and rep.diagnostics[0].ply == 5
    assert "checkmate" in rep.diagnostics[0].message
    assert len(rep.plies) == 4 and rep.final.is_checkmate()


def test_move_after_stalemate() -> None:
    text = (
        "1. e3 a5 2. Qh5 Ra6 3. Qxa5 h5 4. h4 Rah6 5. Qxc7 f6 6. Qxd7+ Kf7 7. Qxb7 Qd3 "
        "8. Qxb8 Qh7 9. Qxc8 Kg6 10. Qe6 Kh7"
    )
    rep = replay(game(text, "1/2-1/2"))
    assert codes(rep) == ["game.move-after-end"] and "stalemate" in rep.diagnostics[0].message


@pytest.mark.parametrize(
    ("movetext", "message_part", "ply"),
    [
        ("1. e4 f5 2. Qh5", "write '+'", 3),
        ("1. e4 e5 2. Nf3+", "does not give check", 3),
        ("1. f3 e5 2. g4 Qh4+", "checkmate: write '#'", 4),
        ("1. f3 e5 2. g4 Qh4", "checkmate: write '#'", 4),
        ("1. e4 f5 2. Qh5#", "not mate", 3),
        ("1. f3 e5 2. g4 Qh4+ 3. a3", "checkmate: write '#'", 4),
    ],
)
def test_check_suffix(movetext: str, message_part: str, ply: int) -> None:
    rep = replay(game(movetext))
    suffix = [d for d in rep.diagnostics if d.code == "san.check-suffix"]
    assert len(suffix) == 1 and message_part in suffix[0].message and suffix[0].ply == ply


def test_correct_suffixes_give_no_warning_and_canonical_san_has_them() -> None:
    rep = replay(game("1. e4 f5 2. Qh5+ g6 3. Qxg6+ hxg6"))
    assert not rep.diagnostics
    assert [r.san for r in rep.plies] == ["e4", "f5", "Qh5+", "g6", "Qxg6+", "hxg6"]
    rep = replay(game("1. e4 f5 2. Qh5 g6"))
    assert rep.plies[2].san == "Qh5+"  # canonical SAN carries the suffix even when it was missing


def test_move_numbers() -> None:
    rep = replay(game("1. e4 e5 3. Nf3 2... Nc6 { c } 3. Bb5 3... a6"))
    mismatches = [(d.ply, d.san) for d in rep.diagnostics if d.code == "movenumber.mismatch"]
    assert mismatches == [(3, "Nf3")]


def test_lenient_notation_is_a_warning_with_the_standard_form() -> None:
    rep = replay(game("1. e4 e5 2. Ngf3 Nc6 3. Bb5 Nf6 4. Bc6 dxc6 5. Ne5 Nxe4 6. Qxf3"))
    lenient = [(d.ply, d.san) for d in rep.diagnostics if d.code == "san.lenient"]
    assert lenient == [(3, "Ngf3"), (7, "Bc6"), (9, "Ne5"), (11, "Qxf3")]
    assert [rep.plies[i].san for i in (2, 6, 8, 10)] == ["Nf3", "Bxc6", "Nxe5", "Qf3"]
    assert "superfluous disambiguation" in rep.diagnostics[0].message


def test_reader_lenient_tokens_are_not_reported_twice() -> None:
    g = game("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0-0 Nf6")
    rep = replay(g)
    assert not [d for d in rep.diagnostics if d.code == "san.lenient"]
    assert [d.code for d in g.diagnostics] == ["pgn.lenient-token"]
    assert rep.plies[6].san == "O-O"


def test_notes_off_skips_warnings() -> None:
    rep = replay(game("1. e4 f5 2. Qh5 g6 4. Ngf3"), notes=False)
    assert not rep.diagnostics and len(rep.plies) == 5


def test_variations_replay_from_the_parent_position() -> None:
    text = "1. e4 e5 (1... c5 2. Nf3 (2. Nc3 Nc6) 2... d6) (1... e6 2. d4) 2. Nf3 (2. Qxf7+) Nc6"
    rep = replay(game(text))
    assert len(rep.plies) == 4
    assert rep.variation_plies == 3 + 2 + 2
    (diag,) = rep.diagnostics
    assert diag.code == "san.illegal" and diag.ply == 3 and diag.san == "Qxf7+"
    assert rep.stopped_at is None  # an error in a variation does not stop the mainline


def test_variation_of_the_failing_move_is_still_replayed() -> None:
    rep = replay(game("1. e4 e5 2. Ke3 (2. Nf3 Nc6 3. Qxf7) 2... Nc6"))
    assert [(d.code, d.ply) for d in rep.diagnostics] == [("san.illegal", 3), ("san.illegal", 5)]
    assert rep.variation_plies == 2 and rep.stopped_at == 3


def test_start_from_fen_black_to_move() -> None:
    rep = replay(game("30... Kh7 31. Qh4+ Kg8", SetUp="1", FEN="3Q2k1/5pp1/8/8/8/8/1q3PPP/6K1 b - - 0 30"))
    assert not rep.diagnostics and len(rep.plies) == 3
    assert rep.start_ply == 59  # 2 * 29 + 1: ply 1 is Black's 30th move
    assert rep.plies[0].before.turn is False


def test_invalid_fen_and_setup_without_fen() -> None:
    rep = replay(game("1. Ke2", SetUp="1", FEN="4k3/8/8/8/8/8/8/4KK2 w - - 0 1"))
    assert codes(rep) == ["fen.invalid"] and rep.start is None and rep.final is None and not rep.plies
    assert "placement" in rep.diagnostics[0].message
    rep = replay(game("1. e4", SetUp="1"))
    assert codes(rep) == ["fen.invalid"]


def test_chess960_castling_from_variant_tag() -> None:
    fen = "rbbnqkrn/pppppppp/8/8/8/8/PPPPPPPP/RBBNQKRN w KQkq - 0 1"
    rep = replay(game("1. O-O e5", Variant="Chess960", SetUp="1", FEN=fen))
    assert rep.chess960 and not rep.diagnostics
    assert rep.plies[0].move == Move(5, 6)  # king f1 takes own rook g1
    assert rep.plies[0].after.board_fen() == "rbbnqkrn/pppppppp/8/8/8/8/PPPPPPPP/RBBNQRKN"


def test_shredder_fen_means_chess960_without_variant_tag() -> None:
    fen = "rbbnqkrn/pppppppp/8/8/8/8/PPPPPPPP/RBBNQKRN w GAga - 0 1"
    rep = replay(game("1. O-O", SetUp="1", FEN=fen))
    assert rep.chess960 and rep.plies[0].move == Move(5, 6)


def test_chess960_without_fen_starts_from_the_standard_array() -> None:
    rep = replay(game("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O", Variant="fischerandom"))
    assert rep.chess960 and not rep.diagnostics
    assert rep.plies[-1].move == Move(4, 7)  # e1h1: king takes rook in Chess960 encoding


@pytest.mark.parametrize("variant", ["Crazyhouse", "Atomic", "Antichess", "King of the Hill", "Three-check"])
def test_other_variants_are_unsupported_with_one_info(variant: str) -> None:
    rep = replay(game("1. e4 d5 2. exd5 Qxd5 3. N@f3 Qxd2+ 4. Kxd2", Variant=variant))
    assert rep.unsupported == variant and rep.start is None and not rep.plies
    assert codes(rep) == ["variant.unsupported"] and rep.diagnostics[0].severity == "info"


def test_variant_kind() -> None:
    assert variant_kind({}) == "standard"
    assert variant_kind({"Variant": "From Position"}) == "standard"
    assert variant_kind({"Variant": "Standard"}) == "standard"
    assert variant_kind({"Variant": "chess 960"}) == "chess960"
    assert variant_kind({"Variant": "Fischer Random"}) == "chess960"
    assert variant_kind({"Variant": "Horde"}) == "Horde"


def test_null_move_is_a_warning_and_play_continues() -> None:
    rep = replay(game("1. e4 -- 2. d4 e5"))
    assert codes(rep) == ["san.null-move"] and len(rep.plies) == 4
    assert rep.plies[1].san == "--"


def test_hand_built_game_without_reader() -> None:
    g = Game(tags={"Result": "*"}, moves=[MoveNode("e4"), MoveNode("e5"), MoveNode("Qh5")], result="*")
    rep = replay(g)
    assert len(rep.plies) == 3 and codes(rep) == []


def test_package_level_names_are_the_functions() -> None:
    g = game("1. e4 e5")
    assert len(notation.replay(g).plies) == 2
    import notation.validation.replay as module

    assert notation.replay is module.replay  # no module shadows a public function


def test_fast_canonical_san_agrees_with_the_engine_on_sample_games() -> None:
    checked = 0
    for path in sorted(SAMPLE_GAMES.glob("*.pgn")):
        for g in read_games(path):
            rep = replay(g)
            for record in rep.plies:
                assert record.san == record.before.san(record.move), (path.name, g.number, record.ply)
                checked += 1
    assert checked > 300


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.sampled_from(
            [
                "e4",
                "e5",
                "Nf3",
                "Nc6",
                "Bb5",
                "a6",
                "O-O",
                "0-0",
                "Qxf7#",
                "Nxe5+",
                "exd6",
                "Ke2",
                "--",
                "Sf3",
                "e8=Q",
                "(",
                ")",
                "{c}",
                "1.",
                "12...",
                "$1",
                "Rxa8",
                "Kxh8",
                "bxc3",
                "O-O-O+",
            ]
        ),
        max_size=30,
    )
)
def test_replay_never_raises(tokens: list[str]) -> None:
    text = f'{HEAD}[Result "*"]\n\n{" ".join(tokens)} *\n'
    for g in read_games(io.StringIO(text)):
        rep = replay(g)
        assert len(rep.plies) <= len(g.moves)
