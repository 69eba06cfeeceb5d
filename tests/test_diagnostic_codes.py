"""Every stable diagnostic code the library emits is registered in notation.diagnostics.CODES."""

from __future__ import annotations

import re

from conftest import ROOT

from notation.diagnostics import CODES, Diagnostic

CODE_LITERAL = re.compile(
    r"\"((?:pgn|san|fen|game|result|tags|claim|pattern|sheet|variant|movenumber|internal|standings|ledger)"
    r"\.[a-z0-9-]+)\""
)


def test_every_code_literal_in_the_library_is_registered() -> None:
    used: dict[str, str] = {}
    for path in list((ROOT / "notation").rglob("*.py")) + list((ROOT / "cli").rglob("*.py")):
        if path.name == "diagnostics.py":
            continue
        for code in CODE_LITERAL.findall(path.read_text(encoding="utf-8")):
            used.setdefault(code, str(path))
    for name in ("pgn.lark", "pgn.lalr"):  # grammar file names, not codes
        used.pop(name, None)
    unregistered = {code: where for code, where in used.items() if code not in CODES}
    assert not unregistered
    assert len(used) > 30


def test_codes_are_dotted_lowercase_with_a_severity_and_meaning() -> None:
    for code, (severity, meaning) in CODES.items():
        assert re.fullmatch(r"[a-z0-9]+(\.[a-z0-9-]+)+", code), code
        assert severity in ("error", "warning", "info")
        assert meaning


def test_rendering_is_compiler_style() -> None:
    d = Diagnostic.make("san.illegal", "illegal move 'Nxe5'", file="g.pgn", line=12, column=7, ply=24, san="Nxe5")
    assert d.render("game 4 (A–B)") == "g.pgn:12:7: error[san.illegal] game 4 (A–B), 12... Nxe5: illegal move 'Nxe5'"
    assert d.to_dict()["code"] == "san.illegal"
