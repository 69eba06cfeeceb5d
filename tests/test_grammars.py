"""Grammars are changed the way Lark changes grammars: ``%override`` after the file's own text,
never a text edit of the file and never a patch of the terminals Lark compiled; the terminals as
regexes (:func:`notation.grammars.terminal_patterns`) are kept in a file of the temporary folder
between processes, never trusted when damaged."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from notation import grammars

from notation.grammars import grammar_text, overridden, regex_literal, terminal_patterns
from notation.pgn.parser import POSSESSIVE_RUNS, get_parser, pgn_grammar
from notation.scoresheet.tokens import LANGUAGES, language_grammar


def _tail(text: str, name: str) -> list[str]:
    assert text.startswith(grammar_text(name))  # the file itself, untouched
    return [line for line in text[len(grammar_text(name)) :].splitlines() if line]


def test_each_language_overrides_the_piece_terminals_only() -> None:
    for lang in LANGUAGES:
        lines = _tail(language_grammar(lang), "sheet")
        assert [line.split(":")[0] for line in lines] == [
            "%override KING",
            "%override QUEEN",
            "%override ROOK",
            "%override BISHOP",
            "%override KNIGHT",
            "%override PAWN",
        ]


def test_the_pgn_runs_are_the_grammars_own_made_possessive() -> None:
    lines = _tail(pgn_grammar(), "pgn")
    assert [line.split(":")[0] for line in lines] == ["%override MOVES.3", "%override TAGS.4"]
    parser, _ = get_parser(False)
    compiled = {t.name: t.pattern.to_regexp() for t in parser.terminals}
    for term, (greedy, possessive) in POSSESSIVE_RUNS.items():
        # the same expression, its last repetitions possessive (``\\/`` is ``/`` to ``re``)
        assert (
            compiled[term].replace("\\/", "/")
            == terminal_patterns("pgn")[term][: -len(greedy)].replace("\\/", "/") + possessive
        )


def test_a_regex_literal_is_the_same_expression() -> None:
    import re

    pattern = "a/b\\/c[^\n]\t;"
    text = overridden("tokens", {"GLYPH": regex_literal(pattern)})
    assert text.rstrip().endswith("%override GLYPH: /a\\/b\\/c[^\\n]\\t;/")
    assert re.fullmatch(regex_literal(pattern)[1:-1], "a/b/cx\t;")


def test_the_kept_terminals_are_the_compiled_ones_and_a_damaged_file_is_rewritten(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    grammars.terminal_patterns.cache_clear()
    try:
        first = grammars.terminal_patterns("pgn")
        assert first == grammars._compiled_terminals("pgn")
        (kept,) = tmp_path.glob(".notation_terminals_pgn_*.json")
        kept.write_text('{"MOVES": ', encoding="utf-8")  # cut short
        grammars.terminal_patterns.cache_clear()
        assert grammars.terminal_patterns("pgn") == first
        grammars.terminal_patterns.cache_clear()
        assert grammars.terminal_patterns("pgn") == first  # read back from the rewritten file
        assert list(tmp_path.glob(".notation_terminals_*")) == [kept]
    finally:
        grammars.terminal_patterns.cache_clear()


def test_the_kept_priorities_are_lark_s_and_a_damaged_file_is_rewritten(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``overridden`` (the PGN parser's grammar) takes the terminals' priorities from the kept
    file, so a process that reads it never compiles the grammar for them."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    grammars.terminal_priorities.cache_clear()
    try:
        first = grammars.terminal_priorities("pgn")
        assert first == {term: t.priority for term, t in grammars._terminals("pgn").items()}
        assert first["MOVES"] == 3 and first["TAGS"] == 4
        (kept,) = tmp_path.glob(".notation_priorities_pgn_*.json")
        kept.write_text('{"MOVES": "3"}', encoding="utf-8")  # a value of the wrong type
        grammars.terminal_priorities.cache_clear()
        assert grammars.terminal_priorities("pgn") == first
        grammars.terminal_priorities.cache_clear()
        assert grammars.terminal_priorities("pgn") == first  # read back from the rewritten file
    finally:
        grammars.terminal_priorities.cache_clear()
