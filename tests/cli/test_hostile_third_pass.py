"""Hostile input, third pass, through the commands a user runs: what an HTML chart embeds stays
data, odd dates, file names and option values give located diagnostics or usage errors (never
a traceback), and an output that is also an input is refused."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from tables_support import run_cli

HOSTILE = "</script><script>alert(1)</script><!--\u2028x\u2029"
NAME = "</script><script>alert(1)</script><!--x"  # a player's name: the chart looks it up


def _hostile_games() -> str:
    out = []
    for i, result in enumerate(["1-0", "0-1", "1/2-1/2", "1-0"]):
        out.append(
            f'[Event "{HOSTILE}"]\n[Site "{HOSTILE}"]\n[Date "2024.01.0{i + 1}"]\n[Round "{i}"]\n'
            f'[White "{NAME}"]\n[Black "B{i}{HOSTILE}"]\n[Result "{result}"]\n[ECO "{HOSTILE}"]\n'
            f'[TimeControl "{HOSTILE}"]\n[Opening "{HOSTILE}"]\n[WhiteElo "{1500 + i}"]\n[BlackElo "1500"]\n\n'
            f"1. e4 e5 2. Nf3 Nc6 {result}\n\n"
        )
    return "".join(out)


def _page_is_inert(page: str) -> None:
    """One script element for the libraries, one for the chart, and no text of the games that
    could end a script element, open an HTML comment or break a JavaScript string."""
    assert page.lower().count("<script") == 2, page.lower().count("<script")
    assert page.lower().count("</script") == 2
    last = page[page.lower().rindex("<script") :]
    assert "<!--" not in last and "\u2028" not in page and "\u2029" not in page
    assert "alert(1)" in last  # the text is there, as data


@pytest.mark.parametrize("kind", ["results-eco", "length-eco", "results-time-control", "length-time-control",
                                  "player"])
def test_html_chart_escapes_every_tag_it_shows(tmp_path: Path, kind: str) -> None:
    pytest.importorskip("altair")
    pytest.importorskip("vl_convert")
    games = tmp_path / "hostile.pgn"
    games.write_text(_hostile_games(), encoding="utf-8")
    out = tmp_path / "chart.html"
    extra = ["--player", NAME] if kind == "player" else []
    result = run_cli("chart", games, "--kind", kind, "--out", out, *extra)
    assert result.exit_code in (0, 1), result.stderr
    _page_is_inert(out.read_text(encoding="utf-8"))


def test_stats_plot_html_escapes(tmp_path: Path) -> None:
    pytest.importorskip("altair")
    pytest.importorskip("vl_convert")
    games = tmp_path / "hostile.pgn"
    games.write_text(_hostile_games(), encoding="utf-8")
    out = tmp_path / "plot.html"
    result = run_cli("stats", games, "--by", "eco", "--plot", out)
    assert result.exit_code == 0, result.stderr
    _page_is_inert(out.read_text(encoding="utf-8"))


def test_script_json_reads_back_as_the_same_value() -> None:
    import json

    from notation.pictures.charts import script_json

    value = {"a": [HOSTILE, "&amp; <b> \u2028"], "b": 1.5}
    text = script_json(value)
    assert not re.search("[<>&\u2028\u2029]", text)
    assert json.loads(text) == value
