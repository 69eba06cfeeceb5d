"""Conversion: normalised SAN, stripping, added tags, renderers and round trips."""

from __future__ import annotations

import io
import json
from itertools import islice

import pytest
from conftest import SAMPLE_GAMES, corpus_path

from notation.convert.normalise import normalise, polyglot_key
from notation.convert.render import ConvertOptions, convert, convert_game, wrap
from notation.pgn.reader import read_games
from notation.formats.position import Position
from notation.validation.replay import replay

SLOPPY = """[Event "E"]
[White "W"]
[Black "B"]
[Result "*"]

1. e4 e5 2. Ngf3 {[%clk 0:05:00] good} Nc6 3. Bb5 a6 $1 (3... Nf6 4. 0-0 Nxe4) 4. Ba4 Nf6 5. 0-0 *
"""


def _game() -> object:
    return next(read_games(io.StringIO(SLOPPY)))


def test_san_is_normalised_in_mainline_and_variations() -> None:
    game, line = normalise(next(read_games(io.StringIO(SLOPPY))))
    assert [n.san for n in game.moves] == ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O"]
    assert [n.san for n in game.moves[5].variations[0]] == ["Nf6", "O-O", "Nxe4"]
    assert line.complete and len(line.moves) == 9


def test_strip_parts() -> None:
    game = next(read_games(io.StringIO(SLOPPY)))
    text, whole = convert_game(game, ConvertOptions(strip=frozenset({"clocks"})))
    assert whole and "{good}" in text and "%clk" not in text and "$1" in text
    text, _ = convert_game(game, ConvertOptions(strip=frozenset({"comments", "variations", "nags"})))
    assert "{" not in text and "(" not in text and "$" not in text
    assert text.endswith("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O *\n")


def test_added_tags() -> None:
    game = next(read_games(io.StringIO(SLOPPY)))
    new, line = normalise(game, add_tags=("plycount", "final-fen", "hashcode"))
    final = line.final
    assert final is not None
    assert new.tags["PlyCount"] == "9"
    assert new.tags["FinalFEN"] == final.fen()
    assert new.tags["HashCode"] == f"{polyglot_key(final):016x}"


def test_eco_tag() -> None:
    game = next(read_games(io.StringIO(SLOPPY)))
    new, _ = normalise(game, add_tags=("eco",))
    assert new.tags["ECO"].startswith("C")
    assert "Ruy Lopez" in new.tags["Opening"]


def test_wrap_keeps_semicolon_comments_whole() -> None:
    assert wrap("1. e4 e5 2. Nf3 Nc6", 9) == "1. e4 e5\n2. Nf3\nNc6"
    assert wrap("1. e4 ; a comment } here\n1... e5", 8) == "1. e4\n; a comment } here\n1... e5"
    assert wrap("1. e4 e5", 0) == "1. e4 e5"


def test_columns() -> None:
    game = next(read_games(SAMPLE_GAMES / "classics.pgn"))
    text, _ = convert_game(game, ConvertOptions(columns=40))
    movetext = text.split("\n\n", 1)[1]
    assert max(len(line) for line in movetext.splitlines()) <= 40
    text, _ = convert_game(game, ConvertOptions(columns=0))
    assert len(text.split("\n\n", 1)[1].strip().splitlines()) == 1


def test_pgn_round_trip_gives_the_same_games() -> None:
    for path in sorted(SAMPLE_GAMES.glob("*.pgn")):
        originals = list(read_games(path))
        text = "\n".join(convert(path))
        again = list(read_games(io.StringIO(text)))
        assert len(again) == len(originals)
        for before, after in zip(originals, again):
            a, b = replay(before), replay(after)
            assert [r.move for r in a.plies] == [r.move for r in b.plies]
            assert after.tags == before.tags
            if not a.diagnostics:
                assert normalise(before)[0].moves == after.moves


def _uci_games(text: str) -> list[tuple[dict[str, str], list[str]]]:
    """Read `convert --to uci` output back: tags, then UCI moves played through Position.parse_uci."""
    from notation.pgn.tags import tags_from_text
    from notation.validation.replay import start_position

    out = []
    for block in text.split("\n\n["):
        block = block if block.startswith("[") else "[" + block
        head, _, movetext = block.partition("\n\n")
        tags = tags_from_text(head)
        pos, _, _, _ = start_position(tags)
        assert pos is not None
        played = []
        for word in movetext.split()[:-1]:
            move = pos.parse_uci(word)
            played.append(move.uci())
            pos = pos.play(move)
        out.append((tags, played))
    return out


def test_uci_round_trip_gives_the_same_moves() -> None:
    path = SAMPLE_GAMES / "special_moves.pgn"
    text = "\n".join(convert(path, ConvertOptions(to="uci")))
    games = list(read_games(path))
    back = _uci_games(text)
    assert [m for _, m in back] == [[r.move.uci() for r in replay(g).plies] for g in games]


def test_fen_epd_jsonl() -> None:
    path = SAMPLE_GAMES / "classics.pgn"
    game = next(read_games(path))
    plies = len(replay(game).plies)
    lines = convert_game(game, ConvertOptions(to="fen"))[0].splitlines()
    assert all(line.endswith(f"\t{path}:1") for line in lines)  # the game's id on each line
    fens = [line.split("\t")[0] for line in lines]
    assert len(fens) == plies + 1 and fens[0] == Position.initial().fen()
    epd = convert_game(game, ConvertOptions(to="epd"))[0].splitlines()
    assert epd[0].startswith("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - hmvc 0; fmvn 1; c0 ")
    assert epd[0].endswith(f'; c1 "{path}:1 ply 0";') and epd[-1].endswith(f' ply {plies}";')
    record = json.loads(convert_game(game, ConvertOptions(to="jsonl"))[0])
    assert record["tags"] == game.tags and len(record["moves"]) == plies
    assert record["moves"][0] == {"ply": 1, "san": "e4", "uci": "e2e4", "fen": fens[1]}


def test_bad_moves_stop_the_mainline_without_losing_it() -> None:
    game = next(read_games(io.StringIO('[White "X"]\n\n1. e4 e5 2. Ke3 Nc6 3. Nf3 *\n')))
    text, whole = convert_game(game)
    assert not whole and "2. Ke3 Nc6 3. Nf3 *" in text
    text, _ = convert_game(game, ConvertOptions(to="uci"))
    assert text.endswith("e2e4 e7e5 *\n")


def test_hashcode_equals_python_chess_zobrist_hash() -> None:
    chess_polyglot = pytest.importorskip("chess.polyglot")
    import chess

    path = corpus_path("games", "lichess", "lichess-jishanshaikh4.pgn.gz")
    checked = 0
    for game in islice(read_games(path), 2500):
        _, line = normalise(game)
        if line.start is None or line.start.chess960:
            continue
        board = chess.Board(line.start.fen())
        for move in line.moves:
            board.push(chess.Move.from_uci(move.uci()))
        final = line.final
        assert final is not None
        assert f"{polyglot_key(final):016x}" == f"{chess_polyglot.zobrist_hash(board):016x}", game.number
        checked += 1
    assert checked > 2000


def test_polyglot_key_counts_a_pseudo_legal_en_passant() -> None:
    chess_polyglot = pytest.importorskip("chess.polyglot")
    import chess

    # Black's d-pawn double-stepped beside White's e5 pawn, which is pinned on the e-file: the
    # capture is illegal (FIDE key leaves the file out) but Polyglot counts it
    fen = "4r1k1/8/8/3pP3/8/8/8/4K3 w - d6 0 1"
    pos = Position.from_fen(fen)
    assert polyglot_key(pos) == chess_polyglot.zobrist_hash(chess.Board(fen))
    assert polyglot_key(pos) != pos.key()
