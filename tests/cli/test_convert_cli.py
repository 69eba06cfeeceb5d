"""`notation convert` on the command line: formats, split, strip, tags, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import SAMPLE_GAMES
from tables_support import run_cli

from notation.pgn.reader import read_games

ROUND_ROBIN = SAMPLE_GAMES / "round_robin.pgn"


def test_convert_to_pgn_file_with_tags(tmp_path: Path) -> None:
    out = tmp_path / "out.pgn"
    result = run_cli("convert", ROUND_ROBIN, "--out", out, "--add-tags", "plycount,hashcode,final-fen")
    assert result.exit_code == 0, result.output
    games = list(read_games(out))
    assert len(games) == 15
    assert all({"PlyCount", "HashCode", "FinalFEN"} <= set(g.tags) for g in games)
    assert all(len(g.tags["HashCode"]) == 16 for g in games)


def test_split_writes_numbered_files(tmp_path: Path) -> None:
    folder = tmp_path / "parts"
    result = run_cli("convert", ROUND_ROBIN, "--out", folder, "--split", "4")
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["1.pgn", "2.pgn", "3.pgn", "4.pgn"]
    assert [len(list(read_games(folder / n))) for n in names] == [4, 4, 4, 3]
    assert run_cli("convert", ROUND_ROBIN, "--split", "4").exit_code == 2  # needs --out DIR


def test_formats_to_stdout() -> None:
    result = run_cli("convert", ROUND_ROBIN, "--to", "jsonl")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert len(lines) == 15 and json.loads(lines[0])["moves"][0]["uci"] == "e2e4"
    result = run_cli("convert", ROUND_ROBIN, "--to", "epd")
    assert "hmvc 0; fmvn 1; c0 " in result.stdout.splitlines()[0]
    result = run_cli("convert", ROUND_ROBIN, "--to", "uci", "--columns", "30")
    assert max(len(x) for x in result.stdout.splitlines() if not x.startswith("[")) <= 30


def test_bad_games_exit_1_and_usage_errors_exit_2(tmp_path: Path) -> None:
    out = tmp_path / "b.pgn"
    result = run_cli("convert", SAMPLE_GAMES / "broken.pgn", "--out", out)
    assert result.exit_code == 1
    assert len(list(read_games(out))) == len(list(read_games(SAMPLE_GAMES / "broken.pgn")))
    assert run_cli("convert", ROUND_ROBIN, "--strip", "everything").exit_code == 2
    assert run_cli("convert", ROUND_ROBIN, "--add-tags", "colour").exit_code == 2
    assert run_cli("convert", tmp_path / "missing.pgn").exit_code == 2


def test_strip_clocks_and_comments(tmp_path: Path) -> None:
    out = tmp_path / "c.pgn"
    result = run_cli("convert", SAMPLE_GAMES / "classics.pgn", "--strip", "comments,variations,nags", "--out", out)
    assert result.exit_code == 0
    text = out.read_text(encoding="utf-8")
    assert "{" not in text and "(" not in text and "$" not in text


def test_the_docs_example_is_the_real_output() -> None:
    from conftest import ROOT

    command = (
        "$ notation convert sample_games/special_moves.pgn --strip comments,variations "
        "--add-tags plycount,hashcode --to lan --columns 70\n"
    )
    page = (ROOT / "docs" / "convert.md").read_text(encoding="utf-8")
    shown = page.split(command, 1)[1].split("```", 1)[0]
    assert shown.endswith("...\n")
    result = run_cli(
        "convert",
        SAMPLE_GAMES / "special_moves.pgn",
        "--strip",
        "comments,variations",
        "--add-tags",
        "plycount,hashcode",
        "--to",
        "lan",
        "--columns",
        "70",
    )
    assert result.exit_code == 0
    assert result.stdout.startswith(shown.removesuffix("...\n"))


def test_fen_and_epd_separate_the_games_and_name_each_line() -> None:
    for to in ("fen", "epd"):
        result = run_cli("convert", ROUND_ROBIN, "--to", to)
        assert result.exit_code == 0, result.output
        blocks = result.stdout.rstrip("\n").split("\n\n")
        assert len(blocks) == 15  # one block per game, a blank line between them
        for number, block in enumerate(blocks, 1):
            label = f"{ROUND_ROBIN}:{number}"
            for ply, line in enumerate(block.splitlines()):
                if to == "fen":
                    fen, _, named = line.partition("\t")
                    assert named == label and len(fen.split()) == 6
                else:
                    assert line.endswith(f'c1 "{label} ply {ply}";'), line
                    assert ' c0 "' in line


def test_add_tags_keeps_the_games_own_tags_unless_replace_tags(tmp_path: Path) -> None:
    lichess = tmp_path / "lichess.pgn"
    lichess.write_text(
        '[Event "Rated blitz game"]\n[Site "https://lichess.org/abc"]\n[White "a"]\n'
        '[Black "b"]\n[Result "1-0"]\n[ECO "C20"]\n[Opening "King\'s Pawn Game: Lichess name"]\n'
        '[PlyCount "99"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n',
        encoding="utf-8",
    )
    kept = run_cli("convert", lichess, "--add-tags", "eco,plycount,final-fen")
    assert kept.exit_code == 0, kept.output
    (game,) = read_games_text(kept.stdout)
    assert game["Opening"] == "King's Pawn Game: Lichess name" and game["ECO"] == "C20"
    assert game["PlyCount"] == "99" and "FinalFEN" in game
    replaced = run_cli("convert", lichess, "--add-tags", "eco,plycount", "--replace-tags")
    (game,) = read_games_text(replaced.stdout)
    assert game["ECO"] == "C70" and game["Opening"].startswith("Ruy Lopez") and game["PlyCount"] == "6"


def read_games_text(text: str) -> list[dict[str, str]]:
    import io

    return [g.tags for g in read_games(io.StringIO(text))]
