"""Severity that means something: a sound game of a common export (Lichess, Chess.com, OTB
databases) is ``ok``; a missing Seven Tag Roster tag is information, a warning only when the
check is pedantic."""

from __future__ import annotations

import io
import itertools
from collections import Counter
from pathlib import Path

import pytest
from conftest import corpus_game_files
from typer.testing import CliRunner

from notation.cli.main import app
from notation.pgn.reader import split_games
from notation.validation.core import check_raw
from notation.validation.reports import pedantic
from notation.validation.run import validate

LICHESS_API = (
    '[Event "Rated Blitz game"]\n[Site "https://lichess.org/abc"]\n[White "a"]\n[Black "b"]\n'
    '[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n'
)


def test_a_missing_round_is_information_by_default_and_a_warning_when_pedantic() -> None:
    (report,) = validate(io.StringIO(LICHESS_API))
    assert report.status == "ok"
    assert [(d.code, d.severity) for d in report.diagnostics] == [("tags.missing-roster", "info")]
    strict = pedantic(report)
    assert strict.status == "warning"
    assert [(d.code, d.severity) for d in strict.diagnostics] == [("tags.missing-roster", "warning")]


@pytest.mark.parametrize("fmt", ["text", "jsonl"])
def test_cli_pedantic(fmt: str) -> None:
    runner = CliRunner()
    plain = runner.invoke(app, ["validate", "-", "--format", fmt, "--strict"], input=LICHESS_API)
    strict = runner.invoke(app, ["validate", "-", "--format", fmt, "--strict", "--pedantic"], input=LICHESS_API)
    assert plain.exit_code == 0, plain.output
    assert strict.exit_code == 1, strict.output
    assert "warning" in strict.output


def _ok_rate(path: Path, limit: int | None) -> tuple[float, Counter[str]]:
    statuses: Counter[str] = Counter()
    codes: Counter[str] = Counter()
    for raw in itertools.islice(split_games(path), limit):
        report = check_raw(raw, path.name)
        statuses[report.status] += 1
        codes.update(d.code for d in report.diagnostics if d.severity != "info")
    return statuses["ok"] / max(1, sum(statuses.values())), codes


def _sweep(limit: int | None) -> None:
    rates = {}
    for path in corpus_game_files("lichess") + corpus_game_files("otb-pgnmentor"):
        rate, codes = _ok_rate(path, limit)
        rates[path.name] = rate
        print(f"{path.name}: {rate:.1%} ok; most common findings: {codes.most_common(3)}")
    assert all(rate >= 0.95 for rate in rates.values()), rates


def test_common_exports_are_ok() -> None:
    _sweep(1500)


@pytest.mark.slow
def test_common_exports_are_ok_whole_files() -> None:
    _sweep(None)
