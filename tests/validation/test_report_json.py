"""The jsonl line written out directly (``GameReport.to_json``, ``Diagnostic.to_json``) is the
text ``json.dumps`` makes of the contract's dict (``to_dict``), byte for byte."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from notation.diagnostics import Diagnostic
from notation.validation.checks import Claims, Outcome
from notation.validation.reports import GameReport
from notation.validation.run import validate

SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"


def _dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def test_every_report_of_the_sample_games() -> None:
    reports = [report for path in sorted(SAMPLES.glob("*.pgn")) for report in validate(path)]
    assert len(reports) > 20 and any(report.diagnostics for report in reports)
    for report in reports:
        assert report.to_json() == _dumps(report.to_dict())


_text = st.text(alphabet=st.characters(codec="utf-8"), max_size=12)
_maybe_text = st.none() | _text
_maybe_int = st.none() | st.integers(min_value=-(1 << 40), max_value=1 << 40)


@given(
    code=_text,
    message=_text,
    line=_maybe_int,
    column=_maybe_int,
    ply=_maybe_int,
    san=_maybe_text,
    fen=_maybe_text,
    candidates=st.lists(_text, max_size=3),
)
def test_a_diagnostic_of_any_text(
    code: str,
    message: str,
    line: int | None,
    column: int | None,
    ply: int | None,
    san: str | None,
    fen: str | None,
    candidates: list[str],
) -> None:
    diagnostic = Diagnostic(
        code, "info", message, line=line, column=column, ply=ply, san=san, fen=fen, candidates=tuple(candidates)
    )
    assert diagnostic.to_json() == _dumps(diagnostic.to_dict())


@given(
    names=st.tuples(_text, _maybe_text, _maybe_text, _maybe_text, _maybe_text, _maybe_text),
    numbers=st.tuples(st.integers(0, 1 << 31), st.integers(0, 1 << 31), st.integers(0, 1 << 20)),
    claims=st.tuples(_maybe_int, _maybe_int, _maybe_int, _maybe_int),
    end=st.tuples(_maybe_text, _maybe_text),
)
def test_a_report_of_any_text(
    names: tuple[str, str | None, str | None, str | None, str | None, str | None],
    numbers: tuple[int, int, int],
    claims: tuple[int | None, ...],
    end: tuple[str | None, str | None],
) -> None:
    file, white, black, result, status, fen = names
    game, line, plies = numbers
    report = GameReport(
        file=file,
        game=game,
        line=line,
        white=white,
        black=black,
        result=result,
        status=status or "ok",
        plies=plies,
        final_fen=fen,
        outcome=Outcome(*end),
        claims=Claims(*claims),
        diagnostics=(Diagnostic("x", "warning", 'm\n"q"', line=1),),
    )
    assert report.to_json() == _dumps(report.to_dict())
