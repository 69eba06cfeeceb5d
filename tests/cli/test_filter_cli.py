"""`notation filter` on the command line: options, output files, exit codes."""

from __future__ import annotations

import io
from pathlib import Path

from conftest import SAMPLE_GAMES
from tables_support import run_cli

from notation.pgn.reader import read_games

ROUND_ROBIN = SAMPLE_GAMES / "round_robin.pgn"


def _whites(path: Path) -> list[str]:
    return [g.tags["White"] for g in read_games(path)]


def test_tags_only_filter_to_a_file(tmp_path: Path) -> None:
    out = tmp_path / "cedar.pgn"
    result = run_cli("filter", ROUND_ROBIN, "--white", "cedar", "--out", out)
    assert result.exit_code == 0, result.output
    assert _whites(out) == ["Cedar, Chen"] * 3
    assert "3 game(s) written" in result.stderr


def test_stdout_by_default_and_no_match_exits_1() -> None:
    result = run_cli("filter", ROUND_ROBIN, "--white", "Elm", "--result", "1-0")
    assert result.exit_code == 1
    assert result.stdout == ""
    result = run_cli("filter", ROUND_ROBIN, "--player", "Elm", "--result", "1/2-1/2,0-1")
    assert result.exit_code == 0
    assert result.stdout.count("[Event ") == 2


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    for args in (
        ["--eco", "Z99"],
        ["--material", "KQ"],
        ["--date-from", "soon"],
        ["--tag", "White"],
        ["--tag", "White=("],
        ["--fen", "not a fen"],
        ["--result", "2-0"],
        ["--status", "fine"],
    ):
        result = run_cli("filter", ROUND_ROBIN, *args)
        assert result.exit_code == 2, args
    assert run_cli("filter", tmp_path / "missing.pgn").exit_code == 2


def test_unique_and_duplicates(tmp_path: Path) -> None:
    doubled = tmp_path / "doubled.pgn"
    text = ROUND_ROBIN.read_text(encoding="utf-8")
    doubled.write_text(text + "\n" + text.replace("{", "{again "), encoding="utf-8")
    out, dupes = tmp_path / "u.pgn", tmp_path / "d.pgn"
    result = run_cli("filter", doubled, "--unique", "--duplicates", dupes, "--out", out)
    assert result.exit_code == 0, result.output
    assert len(list(read_games(out))) == 15 and len(list(read_games(dupes))) == 15


def test_verbatim_copies_the_text(tmp_path: Path) -> None:
    out = tmp_path / "v.pgn"
    assert (
        run_cli("filter", SAMPLE_GAMES / "broken.pgn", "--verbatim", "--white", "Illegal", "--out", out).exit_code == 0
    )
    original = (SAMPLE_GAMES / "broken.pgn").read_text(encoding="utf-8")
    assert out.read_text(encoding="utf-8").strip() in original


def test_replay_criteria_and_invert(tmp_path: Path) -> None:
    out = tmp_path / "m.pgn"
    result = run_cli("filter", SAMPLE_GAMES, "--checkmate", "--moves", "1. e4 e5", "--out", out)
    assert result.exit_code == 0, result.output
    games = list(read_games(out))
    assert games and all(g.moves[0].san == "e4" for g in games)
    inverted = tmp_path / "i.pgn"
    run_cli("filter", SAMPLE_GAMES, "--checkmate", "--moves", "1. e4 e5", "--invert", "--out", inverted)
    total = sum(1 for f in sorted(SAMPLE_GAMES.glob("*.pgn")) for _ in read_games(f))
    assert len(games) + len(list(read_games(inverted))) == total


def test_status_and_variant(tmp_path: Path) -> None:
    out = tmp_path / "s.pgn"
    assert run_cli("filter", SAMPLE_GAMES, "--status", "error", "--out", out).exit_code == 0
    assert {g.file for g in read_games(out)} == {str(out)}
    assert len(list(read_games(out))) >= 10
    assert run_cli("filter", SAMPLE_GAMES, "--variant", "chess960", "--out", out).exit_code == 0
    assert len(list(read_games(out))) == 1


def test_the_docs_example_is_the_real_output() -> None:
    from conftest import ROOT

    command = "$ notation filter sample_games/ --player cedar --checkmate\n"
    page = (ROOT / "docs" / "filter.md").read_text(encoding="utf-8")
    shown = page.split(command, 1)[1].split("```", 1)[0]
    result = run_cli("filter", SAMPLE_GAMES, "--player", "cedar", "--checkmate")
    assert result.exit_code == 0 and result.stdout.rstrip("\n") == shown.rstrip("\n")


def test_an_output_that_cannot_be_written_exits_2(tmp_path: Path) -> None:
    missing = tmp_path / "no" / "such" / "dir" / "out.pgn"
    for command in ("filter", "convert"):
        result = run_cli(command, ROUND_ROBIN, "--out", missing)
        assert result.exit_code == 2 and "cannot write the output" in result.stderr, command
        assert result.exception is None or isinstance(result.exception, SystemExit)
    result = run_cli("filter", ROUND_ROBIN, "--unique", "--duplicates", missing, "--out", tmp_path / "ok.pgn")
    assert result.exit_code == 2
    assert list(tmp_path.iterdir()) == []  # no output, no temporary file left


def _count(result: object) -> int:
    return str(getattr(result, "stdout")).count("[Event ")


def test_event_site_elo_and_length_options() -> None:
    """Each option against the same rule computed from the tags and moves directly."""
    games = [g for path in sorted(SAMPLE_GAMES.glob("*.pgn")) for g in read_games(path)]

    def elo(game: object, side: str) -> int | None:
        value = getattr(game, "tags").get(f"{side}Elo", "")
        return int(value) if value.isdigit() else None

    def rated(game: object, test: object) -> bool:
        pair = (elo(game, "White"), elo(game, "Black"))
        return None not in pair and all(test(v) for v in pair)  # type: ignore[operator]

    cases = {
        ("--event", "CASUAL"): sum("casual" in g.tags.get("Event", "").lower() for g in games),
        ("--site", "riverside"): sum("riverside" in g.tags.get("Site", "").lower() for g in games),
        ("--min-elo", "2150"): sum(rated(g, lambda v: v >= 2150) for g in games),
        ("--max-elo", "2150"): sum(rated(g, lambda v: v <= 2150) for g in games),
    }
    for (option, value), expected in cases.items():
        assert expected > 0, option
        result = run_cli("filter", SAMPLE_GAMES, option, value)
        assert result.exit_code == 0, (option, result.output)
        assert _count(result) == expected, option
    short = run_cli("filter", SAMPLE_GAMES, "--max-plies", "10")
    assert short.exit_code == 0
    assert 0 < _count(short) < len(games)
    assert all(len(g.mainline()) <= 10 for g in read_games(io.StringIO(short.stdout)))
