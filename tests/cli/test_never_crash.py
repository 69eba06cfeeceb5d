"""The never-crash harness: each reading command on mutated PGN ends with exit 0, 1 or 2,
never a traceback. A small sample runs by default; ``-m slow`` runs many more examples."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import SAMPLE_GAMES
from harness_support import mutated
from hypothesis import HealthCheck, given, settings
from typer.testing import CliRunner

from notation.cli.main import app

SEED = (SAMPLE_GAMES / "round_robin.pgn").read_text(encoding="utf-8")[:3000]
VERBS = [["validate"], ["stats"], ["standings"], ["ledger"], ["players"], ["convert"], ["filter"], ["tree"]]


def _check(tmp_path: Path, verb: list[str], text: str) -> None:
    source = tmp_path / "in.pgn"
    source.write_text(text, encoding="utf-8", errors="surrogatepass")
    result = CliRunner().invoke(app, [*verb, str(source)])
    assert result.exit_code in (0, 1, 2), (verb, text, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit), (verb, text, result.exception)


@pytest.mark.parametrize("verb", VERBS, ids=[v[0] for v in VERBS])
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=mutated(SEED))
def test_every_reading_command_survives_mutated_pgn(verb: list[str], text: str, tmp_path: Path) -> None:
    _check(tmp_path, verb, text)


@pytest.mark.slow
@pytest.mark.parametrize("verb", VERBS, ids=[v[0] for v in VERBS])
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=mutated(SEED))
def test_every_reading_command_survives_mutated_pgn_long(verb: list[str], text: str, tmp_path: Path) -> None:
    _check(tmp_path, verb, text)
