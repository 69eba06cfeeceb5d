"""`notation validate` through Typer's CliRunner: every option, exit code and format; golden files.

Golden files live in tests/golden/validate/; regenerate them with ``NOTATION_UPDATE_GOLDEN=1`` and review
the diff like an API change.
"""

from __future__ import annotations

import bz2
import gzip
import json
import re
import shutil
from pathlib import Path

import pytest
from conftest import CONTRACT_KEYS, OWN_SAMPLES, ROOT, SAMPLE_GAMES, check_golden
from typer.testing import CliRunner

from notation.cli.main import app


runner = CliRunner()


def invoke(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, ["validate", *args], input=input, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def own_files() -> list[str]:
    return [f"sample_games/{name}" for name in OWN_SAMPLES]


def without_elapsed(text: str) -> str:
    return re.sub(r"^elapsed: .*$", "elapsed: <masked>", text, flags=re.MULTILINE)


def check_validate_golden(name: str, text: str) -> None:
    check_golden(f"validate/{name}", text)


@pytest.fixture(autouse=True)
def _in_project_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


# ----------------------------------------------------------------------------- formats and golden
def test_text_golden() -> None:
    code, out, err = invoke(*own_files())
    assert code == 1 and err == ""
    check_validate_golden("sample_games.txt", without_elapsed(out))


def test_jsonl_golden_and_contract() -> None:
    code, out, _ = invoke(*own_files(), "--format", "jsonl")
    assert code == 1
    rows = [json.loads(line) for line in out.splitlines()]
    assert all(list(row) == CONTRACT_KEYS for row in rows)
    assert [row["game"] for row in rows if row["file"] == "sample_games/broken.pgn"] == list(range(1, 18))
    check_validate_golden("sample_games.jsonl", out)


def test_json_is_the_same_objects_plus_a_summary() -> None:
    code, out, _ = invoke(*own_files(), "-f", "json")
    assert code == 1
    data = json.loads(out)
    _, lines, _ = invoke(*own_files(), "-f", "jsonl")
    assert data["games"] == [json.loads(line) for line in lines.splitlines()]
    summary = data["summary"]
    assert summary["games"] == len(data["games"]) == 30
    assert summary["files"] == 6 and summary["unsupported"] == 1
    assert summary["ok"] + summary["warning"] + summary["error"] + summary["unsupported"] == 30
    assert summary["error"] == 13 and summary["plies"] > 350 and summary["stopped_early"] is False


def test_text_lines_look_like_a_compiler() -> None:
    _, out, _ = invoke("sample_games/broken.pgn")
    assert (
        "sample_games/broken.pgn:11:25: error[san.illegal] game 1 (Illegal, Move\u2013Sample, Black), "
        "10. Nxb6: illegal move 'Nxb6': no knight can go to b6"
    ) in out.splitlines()
    assert "sample_games/broken.pgn:96:24: error[game.move-after-end] game 9" in out
    assert re.search(
        r"^games read: 17 in 1 file \(ok 0, with warnings 4, with errors 13, unsupported 0\)$", out, re.MULTILINE
    )
    assert re.search(r"^plies replayed: \d+ mainline, \d+ in variations$", out, re.MULTILINE)
    assert re.search(r"^elapsed: \d+\.\d\d s", out, re.MULTILINE)


def test_black_move_label_in_fen_games() -> None:
    _, out, _ = invoke("sample_games/draws.pgn")
    assert "game 3 (Sample, White\u2013Sample, Black), 75... Kc5: 50 moves" in out


def test_quiet_hides_information() -> None:
    _, out, _ = invoke("sample_games/draws.pgn")
    assert "info[claim.threefold]" in out
    code, quiet, _ = invoke("sample_games/draws.pgn", "--quiet")
    assert code == 0 and "info[" not in quiet and "games read: 5" in quiet


# ----------------------------------------------------------------------------- exit codes
def test_exit_0_on_clean_files() -> None:
    code, out, _ = invoke("sample_games/classics.pgn", "sample_games/chess960.pgn")
    assert code == 0 and "games read: 4 in 2 files (ok 4," in out


def test_strict_turns_warnings_into_exit_1(tmp_path: Path) -> None:
    warn = tmp_path / "warn.pgn"
    warn.write_text(
        '[Event "x"]\n[Site "?"]\n[Date "2026.01.01"]\n[Round "1"]\n[White "a"]\n[Black "b"]\n'
        '[Result "*"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7 *\n',
        encoding="utf-8",
    )
    assert invoke(str(warn))[0] == 0
    code, out, _ = invoke(str(warn), "--strict")
    assert code == 1 and "warning[san.check-suffix]" in out


def test_exit_2_on_missing_path() -> None:
    code, out, err = invoke("no/such/file.pgn")
    assert code == 2 and out == "" and "no/such/file.pgn: error[pgn.io]: no such file or directory" in err


def test_exit_2_on_directory_without_pgn(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("nothing", encoding="utf-8")
    code, _, err = invoke(str(tmp_path))
    assert code == 2 and "no PGN files" in err


def test_exit_2_on_bad_option_values() -> None:
    assert invoke("sample_games/draws.pgn", "--format", "xml")[0] == 2
    assert invoke("sample_games/draws.pgn", "--max-errors", "-1")[0] == 2
    assert runner.invoke(app, ["validate"]).exit_code == 2


# ----------------------------------------------------------------------------- options
def test_jobs_output_is_identical() -> None:
    one = invoke(*own_files(), "-f", "jsonl", "--jobs", "1")
    two = invoke(*own_files(), "-f", "jsonl", "--jobs", "2")
    assert one == two
    text1 = invoke(*own_files(), "-j", "1")
    text2 = invoke(*own_files(), "-j", "2")
    assert text1[0] == text2[0] and without_elapsed(text1[1]) == without_elapsed(text2[1])
    auto = invoke("sample_games/draws.pgn", "-f", "jsonl", "--jobs", "0")
    assert auto == invoke("sample_games/draws.pgn", "-f", "jsonl")


def test_max_errors_stops_after_n_games_with_errors() -> None:
    code, out, _ = invoke("sample_games/broken.pgn", "--max-errors", "2", "-f", "jsonl")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 1 and [r["game"] for r in rows] == [1, 2]
    code, out, _ = invoke("sample_games/broken.pgn", "--max-errors", "3")
    assert code == 1 and "stopped after 3 games with errors (--max-errors)" in out
    assert "games read: 3 in 1 file" in out
    code, out, _ = invoke("sample_games/broken.pgn", "--max-errors", "3", "-j", "2", "-f", "json")
    assert json.loads(out)["summary"]["stopped_early"] is True and len(json.loads(out)["games"]) == 3


def test_directories_are_searched_for_compressed_pgn(tmp_path: Path) -> None:
    source = (SAMPLE_GAMES / "draws.pgn").read_bytes()
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.pgn.gz").write_bytes(gzip.compress(source))
    (tmp_path / "sub" / "b.pgn.bz2").write_bytes(bz2.compress(source))
    shutil.copy(SAMPLE_GAMES / "classics.pgn", tmp_path / "sub" / "c.PGN")
    (tmp_path / "ignored.txt").write_bytes(source)
    try:
        import zstandard

        (tmp_path / "d.pgn.zst").write_bytes(zstandard.ZstdCompressor().compress(source))
        expected = 5 + 5 + 3 + 5
    except ImportError:  # pragma: no cover
        expected = 5 + 5 + 3
    code, out, _ = invoke(str(tmp_path), "-f", "json")
    summary = json.loads(out)["summary"]
    assert code == 0 and summary["games"] == expected


def test_stdin(tmp_path: Path) -> None:
    text = (SAMPLE_GAMES / "broken.pgn").read_text(encoding="utf-8")
    code, out, _ = invoke("-", "-f", "jsonl", input=text)
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 1 and len(rows) == 17 and rows[0]["file"] == "<stdin>"
    _, from_file, _ = invoke("sample_games/broken.pgn", "-f", "jsonl")
    assert [dict(r, file=None) for r in rows] == [dict(json.loads(x), file=None) for x in from_file.splitlines()]


def test_whole_sample_directory() -> None:
    code, out, _ = invoke("sample_games/", "-f", "json")
    files = {g["file"] for g in json.loads(out)["games"]}
    assert code == 1 and {f"sample_games/{n}" for n in OWN_SAMPLES} <= files


def test_no_progress_bar_when_not_a_terminal() -> None:
    _, out, err = invoke("sample_games/draws.pgn")
    assert "\r" not in out and err == ""


def test_help() -> None:
    result = runner.invoke(app, ["validate", "--help"])
    assert result.exit_code == 0
    for option in ("--format", "--jobs", "--strict", "--max-errors", "--quiet"):
        assert option in result.stdout


def test_exit_2_on_a_truncated_compressed_file(tmp_path: Path) -> None:
    data = b"".join((SAMPLE_GAMES / name).read_bytes() for name in OWN_SAMPLES)
    path = tmp_path / "cut.pgn.gz"
    path.write_bytes(gzip.compress(data)[:2000])
    code, out, err = invoke(str(path))
    assert code == 2 and "games read:" in out
    assert "error[pgn.io]" in out  # reported by the reader, located at the game where reading stopped


# ----------------------------------------------------------------------------- repeated information
def _rosterless(tmp_path: Path, games: int) -> Path:
    """``games`` sound games, each without Site and Round (info[tags.missing-roster] each)."""
    one = '[Event "E"]\n[Date "2024.01.01"]\n[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n\n'
    path = tmp_path / "export.pgn"
    path.write_text(one * games, encoding="utf-8")
    return path


def test_repeated_information_is_one_line_per_code_with_its_count_and_first_place(tmp_path: Path) -> None:
    path = _rosterless(tmp_path, 40)
    code, out, _ = invoke(str(path))
    assert code == 0
    listed = [line for line in out.splitlines() if "info[tags.missing-roster]" in line]
    assert len(listed) == 2, listed  # the first finding as it is, then the count
    assert listed[0].startswith(f"{path}:1: info[tags.missing-roster] game 1 ")
    assert listed[1] == f"info[tags.missing-roster]: 40 findings, the first at {path}:1 (--verbose prints each)"
    assert "games read: 40" in out


def test_verbose_prints_every_information_finding(tmp_path: Path) -> None:
    path = _rosterless(tmp_path, 40)
    _, out, _ = invoke(str(path), "--verbose")
    listed = [line for line in out.splitlines() if "info[tags.missing-roster]" in line]
    assert len(listed) == 40 and all(line.startswith(f"{path}:") for line in listed)
    assert "findings, the first at" not in out
    _, quiet, _ = invoke(str(path), "--quiet")
    assert "info[" not in quiet


@pytest.mark.parametrize("output", ["json", "jsonl"])
def test_json_and_jsonl_carry_every_information_finding(tmp_path: Path, output: str) -> None:
    path = _rosterless(tmp_path, 40)
    _, out, _ = invoke(str(path), "--format", output)
    assert out.count('"tags.missing-roster"') == 40
    assert "findings, the first at" not in out


def test_a_path_given_twice_is_read_once_and_the_note_says_so() -> None:
    code, out, err = invoke(
        "-q", "sample_games/classics.pgn", "sample_games/classics.pgn", "./sample_games/classics.pgn"
    )
    assert code == 0 and "games read: 3 in 1 file " in out
    assert err.splitlines() == [
        "sample_games/classics.pgn: note: given more than once, read once",
        "./sample_games/classics.pgn: note: given more than once, read once",
    ]
    code, out, err = invoke("-q", "sample_games/draws.pgn", "sample_games/")
    assert "games read: 45 in 7 files " in out  # as the folder alone
    assert err.strip() == "sample_games/draws.pgn: note: given more than once, read once"
