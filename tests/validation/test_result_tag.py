"""A Result tag must hold a result: ``2-0``, ``1/2``, ``draw`` or an empty value are reported,
on the compiled core's path and on the Python reference alike, and the game's result is then
taken from the termination marker."""

from __future__ import annotations

import io

import pytest

from notation import compiled
from notation.validation.run import validate

ROSTER = '[Event "E"]\n[Site "S"]\n[Date "2020.01.01"]\n[Round "1"]\n[White "A"]\n[Black "B"]\n'
MATE = "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#"


def _codes(tag: str, marker: str, monkeypatch: pytest.MonkeyPatch, core: bool) -> list[str]:
    if not core:
        monkeypatch.setenv("NOTATION_CORE", "python")
    compiled.core_module.cache_clear()
    try:
        text = f'{ROSTER}[Result "{tag}"]\n\n{MATE} {marker}\n'
        (report,) = validate(io.StringIO(text))
    finally:
        compiled.core_module.cache_clear()
    return [d.code for d in report.diagnostics]


@pytest.mark.parametrize("core", [True, False], ids=["core", "python"])
@pytest.mark.parametrize("tag", ["2-0", "1/2", "draw", "", " ", "1-0 ", "0:1"])
def test_a_result_tag_that_is_not_a_result_is_an_error(tag: str, core: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    codes = _codes(tag, "1-0", monkeypatch, core)
    if tag.strip() == "1-0":
        assert "tags.bad-result" not in codes
    else:
        assert "tags.bad-result" in codes


@pytest.mark.parametrize("core", [True, False], ids=["core", "python"])
def test_with_a_bad_tag_the_marker_is_checked_against_the_position(core: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    assert "result.mismatch" in _codes("draw", "0-1", monkeypatch, core)  # White mated, marker says 0-1
    assert "result.mismatch" not in _codes("draw", "1-0", monkeypatch, core)
