"""`notation ledger`: golden outputs, options and exit codes."""

from __future__ import annotations

import json
import shutil
from decimal import Decimal
from pathlib import Path

import pytest
from conftest import GOLDEN
from tables_support import (
    ROUND_ROBIN,
    check_golden,
    pgn_frame,
    run_cli,
    write_dataset,
)

INITIAL = GOLDEN / "ledger" / "initial.csv"

UNFINISHED_PGN = '[Event "x"]\n[White "A"]\n[Black "B"]\n[Result "*"]\n\n1. e4 e5 *\n'


@pytest.mark.parametrize(
    ("options", "golden"),
    [
        ([], "round_robin.txt"),
        (["--format", "csv"], "round_robin.csv"),
        (["--format", "json"], "round_robin.json"),
        (["--history"], "history.txt"),
        (["--history", "--format", "csv"], "history.csv"),
        (["--history", "--format", "json"], "history.json"),
        (["--initial", str(INITIAL)], "initial.txt"),
        (["--initial", str(INITIAL), "--format", "csv"], "initial.csv.out"),
        (["--initial", str(INITIAL), "--history", "--format", "csv"], "initial-history.csv"),
    ],
)
def test_golden(options: list[str], golden: str) -> None:
    result = run_cli("ledger", ROUND_ROBIN, *options)
    assert result.exit_code == 0, result.stderr
    check_golden(f"ledger/{golden}", result.stdout)


def test_json_is_valid_and_exact() -> None:
    result = run_cli("ledger", ROUND_ROBIN, "--format", "json", "--initial", INITIAL, "--exact")
    rows = json.loads(result.stdout, parse_float=Decimal)
    assert {r["player"] for r in rows} >= {"Newcomer, Nina", "Cedar, Chen"}
    assert sum(Decimal(str(r["points"])) for r in rows) == Decimal(2995) + Decimal("99.99") + Decimal("150.5") + 100
    history = json.loads(
        run_cli("ledger", ROUND_ROBIN, "--history", "--format", "json", "--exact").stdout, parse_float=Decimal
    )
    assert len(history) == 15
    assert all(Decimal(str(h["white_delta"])) + Decimal(str(h["black_delta"])) == 0 for h in history)


def test_dataset_and_folder_give_the_same_ledger(tmp_path: Path) -> None:
    expected = run_cli("ledger", ROUND_ROBIN, "--format", "csv").stdout
    dataset = write_dataset(pgn_frame(), tmp_path / "ds")
    assert run_cli("ledger", dataset, "--format", "csv").stdout == expected
    folder = tmp_path / "pgns"
    folder.mkdir()
    shutil.copy(ROUND_ROBIN, folder / ROUND_ROBIN.name)
    assert run_cli("ledger", folder, "--format", "csv").stdout == expected


def test_places_rounds_the_display_only() -> None:
    exact = run_cli("ledger", ROUND_ROBIN, "--format", "csv", "--initial", INITIAL, "--exact").stdout
    assert "955.4791234375" in exact
    shown = run_cli("ledger", ROUND_ROBIN, "--format", "csv", "--initial", INITIAL).stdout  # 2 places by default
    assert '"Brook, Ben",955.48,22,5' in shown and '"Newcomer, Nina",100,30,0' in shown
    assert run_cli("ledger", ROUND_ROBIN, "--format", "csv", "--initial", INITIAL, "--places", "2").stdout == shown
    history = run_cli("ledger", ROUND_ROBIN, "--history", "--format", "csv", "--places", "1").stdout
    assert history.splitlines()[-1] == '2024-03-05,"Elm, Eva","Alder, Anna",0-1,-22.6,-2.3,-8.4,8.4'
    assert run_cli("ledger", ROUND_ROBIN, "--places", "-1").exit_code == 2


def test_unnamed_player_warning_names_file_and_game(tmp_path: Path) -> None:
    pgn = tmp_path / "anon.pgn"
    pgn.write_text('[White "A"]\n[Black "?"]\n[Result "1-0"]\n\n1. e4 1-0\n', encoding="utf-8")
    result = run_cli("ledger", pgn)
    assert result.exit_code == 1
    assert "anon.pgn: warning[ledger.unnamed-player] game 1:" in result.stderr


def test_exit_1_when_no_game_applies(tmp_path: Path) -> None:
    pgn = tmp_path / "unfinished.pgn"
    pgn.write_text(UNFINISHED_PGN, encoding="utf-8")
    result = run_cli("ledger", pgn, "--format", "csv")
    assert result.exit_code == 1
    assert result.stdout == "player,points,level,games\n"
    assert "1 unfinished" in result.stderr and "no decisive or drawn game" in result.stderr


def test_exit_2_for_missing_input() -> None:
    result = run_cli("ledger", "does/not/exist.pgn")
    assert result.exit_code == 2
    assert "error[pgn.io]" in result.stderr and result.stdout == ""


def test_exit_2_for_bad_initial_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("player,points\nAnna,many\n", encoding="utf-8")
    result = run_cli("ledger", ROUND_ROBIN, "--initial", bad)
    assert result.exit_code == 2
    assert "error[ledger.bad-initial]" in result.stderr and ":2" in result.stderr
    assert run_cli("ledger", ROUND_ROBIN, "--initial", tmp_path / "absent.csv").exit_code == 2


def test_duplicate_initial_row_is_a_warning_only(tmp_path: Path) -> None:
    dup = tmp_path / "dup.csv"
    dup.write_text("Elm, Eva,1\nElm,1,5\n", encoding="utf-8")  # a decimal comma: an error
    result = run_cli("ledger", ROUND_ROBIN, "--initial", dup)
    assert result.exit_code == 2 and ":2:" in result.stderr and ":1:" not in result.stderr
    dup.write_text('"Elm, Eva",1\nElm, Eva,2\n', encoding="utf-8")
    result = run_cli("ledger", ROUND_ROBIN, "--initial", dup)
    assert result.exit_code == 0 and "warning[ledger.bad-initial]" in result.stderr


def test_usage_errors_exit_2() -> None:
    assert run_cli("ledger").exit_code == 2
    assert run_cli("ledger", ROUND_ROBIN, "--format", "xml").exit_code == 2
    assert run_cli("ledger", ROUND_ROBIN, "--bogus").exit_code == 2


def test_help() -> None:
    result = run_cli("ledger", "--help")
    assert result.exit_code == 0
    for word in ("--initial", "--format", "--history", "--places", "unranked", "12.5"):
        assert word in result.stdout


# --- line length on real games: every ledger line < 200 characters -----------------------------

#: The longest ledger line accepted (characters): a table row is read on one screen line.
LEDGER_LINE_LIMIT = 200
#: The fast default: a small corpus file with long player names (many players, 1851).
SMALL_CORPUS_FILE = ("classic", "London1851.pgn")


def _ledger_lines(path: Path) -> dict[str, int]:
    """The longest line of ``notation ledger PATH`` (and ``--history``) per rendering: on a
    terminal 250 columns wide and piped (no COLUMNS); each run must succeed."""
    import os
    import subprocess
    import sys

    from conftest import OUTSIDE
    from terminal_support import CODE, through_terminal

    longest: dict[str, int] = {}
    for extra in ([], ["--history"]):
        args = ["ledger", *extra, str(path)]
        label = "history" if extra else "ledger"
        shown, _, code = through_terminal(args, 250)
        assert code in (0, 1), (args, code)
        longest[f"{label} terminal 250"] = max((len(line) for line in shown.splitlines()), default=0)
        env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
        run = subprocess.run(
            [sys.executable, "-c", CODE, *args], cwd=OUTSIDE, capture_output=True, text=True, env=env, timeout=600
        )
        assert run.returncode in (0, 1), run.stderr
        longest[f"{label} piped"] = max((len(line) for line in run.stdout.splitlines()), default=0)
    return longest


def _check_lines(path: Path) -> None:
    longest = _ledger_lines(path)
    assert all(n > 0 for n in longest.values()), longest  # a ledger was printed
    assert max(longest.values()) < LEDGER_LINE_LIMIT, (path.name, longest)


def test_ledger_lines_fit_on_a_small_corpus_file() -> None:
    from conftest import corpus_path

    _check_lines(corpus_path("games", *SMALL_CORPUS_FILE))


def _corpus_files() -> list[object]:
    """One parameter per shared-corpus game file (its path relative to ``games/``); one that
    skips with the reason when the corpus is absent."""
    from conftest import CORPUS

    root = CORPUS / "games"
    if not root.is_dir():
        return [pytest.param(None, id="corpus-absent")]
    return [str(p.relative_to(root)) for p in sorted(root.rglob("*")) if p.is_file() and ".pgn" in p.name]


@pytest.mark.slow  # the whole corpus: about three minutes (the 37,000-game Lichess file alone ~40 s)
@pytest.mark.parametrize("relative", _corpus_files())
def test_ledger_lines_fit_on_every_corpus_file(relative: str | None) -> None:
    from conftest import corpus_game_files, corpus_path

    if relative is None:
        corpus_game_files()  # skips with the reason
        pytest.skip("shared corpus not available")
    _check_lines(corpus_path("games", relative))


def test_the_table_writes_every_place_so_the_points_align() -> None:
    table = run_cli("ledger", ROUND_ROBIN).stdout
    points = [line.split()[-3] for line in table.splitlines() if line.strip().endswith(" 5")]
    assert "9.60" in points and "13.42" in points and all(len(p.split(".")[1]) == 2 for p in points)
    assert (
        len(
            {
                line.index(p) + len(p)
                for line, p in zip([ln for ln in table.splitlines() if ln.strip().endswith(" 5")], points)
            }
        )
        == 1
    )  # right-aligned
    assert "9.6," in run_cli("ledger", ROUND_ROBIN, "--format", "csv").stdout  # machine formats: the value
    three = run_cli("ledger", ROUND_ROBIN, "--places", "3").stdout
    assert "13.416" in three and "9.600" in three
