"""The PGN grammar (grammars/pgn.lark) through the parser: tokens, lenient forms, structure,
and identical results with and without lark-cython."""

from __future__ import annotations

import functools
import io
import itertools
import os
import re
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notation.grammars import grammar_text, lark_cython_available, terminal_patterns
from notation.pgn.model import Game
from notation.pgn.parser import parse_game_text, standard_spelling
from notation.pgn.reader import parse_raw_game, split_games
from conftest import OUTSIDE, ROOT, corpus_path


def parse(text: str, **kw: object) -> Game:
    return parse_game_text(text, **kw)  # type: ignore[arg-type]


def codes(game: Game) -> list[str]:
    return [d.code for d in game.diagnostics]


def test_grammar_is_package_data() -> None:
    text = grammar_text("pgn")
    assert "start:" in text and "MOVES" in text


@pytest.mark.parametrize(
    "movetext, sans, numbers",
    [
        ("1. e4 e5 2. Nf3 *", ["e4", "e5", "Nf3"], [1, None, 2]),
        ("1.e4 1...e5 2.Nf3 *", ["e4", "e5", "Nf3"], [1, 1, 2]),
        ("12... Nf6 13.Qxd8+ Kxd8 14. O-O-O# *", ["Nf6", "Qxd8+", "Kxd8", "O-O-O#"], [12, 13, None, 14]),
        ("1… e5 2 d4 *", ["e5", "d4"], [1, 2]),
        ("e4 e5 Nf3 *", ["e4", "e5", "Nf3"], [None, None, None]),
        ("1. e4 -- 2. -- Nf6 *", ["e4", "--", "--", "Nf6"], [1, None, 2, None]),
        (
            "1. exd6 Rxe8=Q+ b1=N R1a3 Nbd7 Qh4xe1 *",
            ["exd6", "Rxe8=Q+", "b1=N", "R1a3", "Nbd7", "Qh4xe1"],
            [1] + [None] * 5,
        ),
        ("1. N@f3 P@e4 *", ["N@f3", "P@e4"], [1, None]),
        ("1.\ne4\ne5\n2.\nNf3\n*", ["e4", "e5", "Nf3"], [1, None, 2]),
    ],
)
def test_moves_and_numbers(movetext: str, sans: list[str], numbers: list[int | None]) -> None:
    game = parse(movetext)
    assert game.mainline() == sans
    assert [m.number for m in game.moves] == numbers
    assert game.result == "*"
    assert [c for c in codes(game) if c != "pgn.lenient-token"] == []


@pytest.mark.parametrize(
    "token, canonical",
    [
        ("0-0", "O-O"),
        ("0-0-0+", "O-O-O+"),
        ("o-o", "O-O"),
        ("e8Q", "e8=Q"),
        ("exd8N#", "exd8=N#"),
        ("e8=q", "e8=Q"),
        ("♘f3", "Nf3"),
        ("♞xe4+", "Nxe4+"),
        ("♙e4", "e4"),
        ("Pe4", "e4"),
        ("e5:d6", "exd6"),
        ("ed5", "exd5"),
        ("e2e4", "e4"),
        ("e8(Q)", "e8=Q"),
        ("e8/Q", "e8=Q"),
        ("exd6e.p.", "exd6"),
        ("0000", "--"),
        ("Z0", "--"),
        ("Qh7++", "Qh7#"),
        ("Nf3", None),
        ("O-O", None),
        ("e8=Q", None),
        ("--", None),
        ("Qa1", None),
    ],
)
def test_lenient_forms(token: str, canonical: str | None) -> None:
    assert standard_spelling(token) == canonical
    game = parse(f"1. {token} *")
    assert game.mainline() == [token]
    assert game.moves[0].lenient == canonical
    if canonical is None:
        assert codes(game) == []
    else:
        (diag,) = game.diagnostics
        assert (diag.code, diag.line, diag.column, diag.san) == ("pgn.lenient-token", 1, 4, token)
        assert repr(canonical) in diag.message


@pytest.mark.parametrize(
    "suffix, nags",
    [
        ("!", [1]),
        ("?", [2]),
        ("!!", [3]),
        ("??", [4]),
        ("!?", [5]),
        ("?!", [6]),
        (" $19", [19]),
        (" ±", [16]),
        (" +-", [18]),
        ("! $14 =", [1, 14, 10]),
    ],
)
def test_glyphs_and_nags(suffix: str, nags: list[int]) -> None:
    game = parse(f"1. e4{suffix} e5 *")
    assert game.mainline() == ["e4", "e5"]
    assert game.moves[0].nags == nags


def test_check_suffix_kept_and_glyph_moved() -> None:
    game = parse("1. Qxf7+!? Kxf7 2. Bc4#! *")
    assert game.mainline() == ["Qxf7+", "Kxf7", "Bc4#"]
    assert [m.nags for m in game.moves] == [[5], [], [1]]


def test_tags_escapes_and_duplicates() -> None:
    game = parse('[Event "A \\"quoted\\" \\\\ name"][Site "x"]\n[Event "B"]\n\n*')
    assert game.tags == {"Event": "B", "Site": "x"}
    assert codes(game) == ["pgn.duplicate-tag", "pgn.empty-game"]
    assert parse('[Event "A \\"q\\" \\\\ n"]\n*').tags["Event"] == 'A "q" \\ n'


def test_duplicate_tags_are_located_inside_a_run_of_tags() -> None:
    """Well-formed tag pairs reach Lark as one token; each duplicate still gets its own place."""
    game = parse_game_text('[Event "a"]\n[Site "b"] [Event "c"]\n[Event "d"]\n\n1. e4 *', line=10)
    found = [(d.code, d.line, d.column, d.san) for d in game.diagnostics]
    assert found == [("pgn.duplicate-tag", 11, 12, "Event"), ("pgn.duplicate-tag", 12, 1, "Event")]
    assert game.tags == {"Event": "d", "Site": "b"}


def test_comments_variations_and_positions() -> None:
    text = (
        "{intro}\n1. e4 {c1} {c2} (1. d4 d5 (1... Nf6 {deep}) 2. c4) (1. c4) 1... e5 ; rest of line\n"
        "2. Nf3 ({pre} 2. f4) *"
    )
    game = parse(text, line=10, offset=100)
    assert game.intro_comments == ["intro"]
    e4, e5, nf3 = game.moves
    assert e4.comments == ["c1", "c2"]
    assert [[m.san for m in v] for v in e4.variations] == [["d4", "d5", "c4"], ["c4"]]
    assert e4.variations[0][1].variations[0][0].comments == ["deep"]
    assert e5.comments == ["rest of line"] and e5.number == 1
    assert nf3.variations[0][0].pre_comments == ["pre"]
    assert (e4.span.line, e4.span.column, e4.span.offset) == (11, 4, 100 + text.index("e4"))
    assert (nf3.span.line, nf3.span.column) == (12, 4)
    assert codes(game) == []


def test_multiline_comment_normalised() -> None:
    game = parse("1. e4 {first line\n   second\tline } e5 *")
    assert game.moves[0].comments == ["first line second line"]


def test_escape_lines_ignored() -> None:
    game = parse('[Event "x"]\n\n1. e4\n% 2. d4 ignored\ne5 *')
    assert game.mainline() == ["e4", "e5"] and codes(game) == []


def test_results() -> None:
    for marker in ("1-0", "0-1", "1/2-1/2", "*"):
        assert parse(f"1. e4 {marker}").result == marker
    game = parse('[Result "1-0"]\n\n1. e4 0-1')
    assert codes(game) == ["pgn.result-mismatch"]
    assert codes(parse("1. e4")) == ["pgn.missing-result"]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("1. e4 ) e5 *", [("pgn.unmatched-paren", 1, 7, ")")]),
        ("1. e4 (1. d4 *", [("pgn.unclosed-variation", 1, 7, "(")]),
        ("1. e4 {open *", [("pgn.unclosed-comment", 1, 7, "{"), ("pgn.missing-result", 1, 14, None)]),
        ("1. e4 xyz e5 *", [("pgn.syntax", 1, 7, "xyz")]),
        ("1. e4 * e5", [("pgn.unexpected-token", 1, 9, "e5")]),
        ("$1 1. e4 *", [("pgn.unexpected-token", 1, 1, "$1")]),
        ('[Event "x]\n\n1. e4 *', [("pgn.bad-tag", 1, 1, '[Event "x]')]),
    ],
)
def test_errors_are_located(text: str, expected: list[tuple[object, ...]]) -> None:
    game = parse(text)
    assert [(d.code, d.line, d.column, d.san) for d in game.diagnostics] == expected
    assert game.mainline()[:1] == ["e4"]


def test_diagnostics_capped() -> None:
    game = parse("1. e4 " + "zz " * 500 + "*")
    assert len(game.diagnostics) <= 60


def _pure_vs_cython_script(path: str) -> str:
    return (
        "import itertools, pickle, sys\n"
        "from notation.pgn.reader import read_games\n"
        f"games = list(itertools.islice(read_games({path!r}), 60))\n"
        "sys.stdout.buffer.write(pickle.dumps([(g.line, g.offset, g.tags, g.moves, g.result, g.intro_comments,"
        " [m.span for m in g.moves], [m.number for m in g.moves], g.diagnostics) for g in games]))\n"
    )


@pytest.mark.skipif(not lark_cython_available(), reason="lark-cython not installed")
def test_lark_cython_and_pure_lark_agree() -> None:
    import pickle

    paths = [
        str(corpus_path("games", "lichess", "chesscom_MagnusCarlsen_games.pgn.gz")),
        str(corpus_path("parser-tests", "fastchess", "corrupted.pgn")),
        str(ROOT / "tests" / "golden" / "pgn" / "inputs" / "deep_unclosed.pgn"),
        str(ROOT / "tests" / "golden" / "pgn" / "inputs" / "annotated.pgn"),
    ]
    for path in paths:
        outputs = []
        for pure in ("0", "1"):
            env = {**os.environ, "NOTATION_PURE_LARK": pure}
            run = subprocess.run(
                [sys.executable, "-c", _pure_vs_cython_script(path)],
                capture_output=True,
                cwd=OUTSIDE,
                env=env,
                check=True,
            )
            outputs.append(pickle.loads(run.stdout))
        assert outputs[0] == outputs[1], path
        assert outputs[0]


def test_pure_lark_in_process_matches_default() -> None:
    raws = list(itertools.islice(split_games(corpus_path("games", "classic", "London1851.pgn")), 30))
    for raw in raws:
        a = parse_raw_game(raw, use_cython=False)
        b = parse_raw_game(raw)
        assert (a, a.diagnostics, [m.span for m in a.moves]) == (b, b.diagnostics, [m.span for m in b.moves])


def test_read_games_from_text_handle_parses_movetext() -> None:
    from notation.pgn.reader import read_games

    (game,) = read_games(io.StringIO('[Event "x"]\n\n1. e4 e5 *\n'))
    assert game.mainline() == ["e4", "e5"]


@functools.lru_cache(maxsize=1)
def _moves_regex() -> re.Pattern[str]:
    return re.compile(terminal_patterns("pgn")["MOVES"])


_RUN_PIECES = [
    "1.",
    "12...",
    "3…",
    " ",
    "\n",
    "\r\n",
    "e4",
    "exd5",
    "Nbd7",
    "O-O-O",
    "0-0",
    "e8=Q",
    "e8Q",
    "♘f3",
    "--",
    "Z0",
    "0000",
    "N@f3",
    "e8(Q)",
    "e8/Q",
    "exd6e.p.",
    "e4:d5",
    "Qxf7++",
    "+",
    "#",
    "!",
    "?!",
    "$14",
    "±",
    "{a comment}",
    "{multi\nline}",
    "; rest\n",
    "=",
    "+-",
    "x",
    "junk",
    "(",
    ")",
    "*",
    "1-0",
]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(_RUN_PIECES), min_size=1, max_size=25).map("".join))
def test_split_regex_tiles_runs(text: str) -> None:
    """Every MOVES token the grammar accepts is cut by the transformer's regex without gaps."""
    from notation.pgn.parser import _split_run

    match = _moves_regex().match(text)
    if match is None:
        return
    run = match.group()
    position = 0
    for item in _split_run()(run):
        assert item.start() == position, (run, position)
        position = item.end()
    assert position == len(run)
    game = parse(run + " *")
    assert not [d for d in game.diagnostics if d.code == "pgn.syntax"]


def test_a_comment_after_the_result_is_reported_not_kept() -> None:
    game = parse_game_text('[Event "x"]\n\n1. e4 e5 1-0 {White won on time}\n', line=3)
    assert game.result == "1-0" and game.moves[-1].comments == []
    found = [(d.code, d.severity, d.line, d.column, d.san) for d in game.diagnostics]
    assert found == [("pgn.comment-after-result", "info", 5, 14, "{White won on time}")]
