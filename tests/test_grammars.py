"""Grammars are changed the way Lark changes grammars: ``%override`` after the file's own text,
never a text edit of the file and never a patch of the terminals Lark compiled."""

from __future__ import annotations

from notation.grammars import grammar_text, overridden, regex_literal, terminal_patterns
from notation.pgn.parser import POSSESSIVE_RUNS, get_parser, pgn_grammar
from notation.scoresheet.tokens import LANGUAGES, language_grammar


def _tail(text: str, name: str) -> list[str]:
    assert text.startswith(grammar_text(name))  # the file itself, untouched
    return [line for line in text[len(grammar_text(name)):].splitlines() if line]


def test_each_language_overrides_the_piece_terminals_only() -> None:
    for lang in LANGUAGES:
        lines = _tail(language_grammar(lang), "sheet")
        assert [line.split(":")[0] for line in lines] == [
            "%override KING", "%override QUEEN", "%override ROOK", "%override BISHOP", "%override KNIGHT", "%override PAWN"]


def test_the_pgn_runs_are_the_grammars_own_made_possessive() -> None:
    lines = _tail(pgn_grammar(), "pgn")
    assert [line.split(":")[0] for line in lines] == ["%override MOVES.3", "%override TAGS.4"]
    parser, _ = get_parser(False)
    compiled = {t.name: t.pattern.to_regexp() for t in parser.terminals}
    for term, (greedy, possessive) in POSSESSIVE_RUNS.items():
        # the same expression, its last repetitions possessive (``\\/`` is ``/`` to ``re``)
        assert compiled[term].replace("\\/", "/") == terminal_patterns("pgn")[term][: -len(greedy)].replace("\\/", "/") + possessive


def test_a_regex_literal_is_the_same_expression() -> None:
    import re

    pattern = "a/b\\/c[^\n]\t;"
    text = overridden("tokens", {"GLYPH": regex_literal(pattern)})
    assert text.rstrip().endswith("%override GLYPH: /a\\/b\\/c[^\\n]\\t;/")
    assert re.fullmatch(regex_literal(pattern)[1:-1], "a/b/cx\t;")
