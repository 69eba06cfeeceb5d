"""The compiled core (``notation._core``, Rust in ``src/``): the engine, the run scanner, keys,
and never a panic on any input (its own unit tests, clippy and rustfmt are steps of ``.ci/run``).

The core is built by the README's install (maturin is the build backend), so its absence is a
failure here, not a skip.
"""

from __future__ import annotations
from collections.abc import Iterator


import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import corpus_path, epd_cases, scalachess_cases
from notation import Position
from notation.pgn.parser import _split_run, parse_game_outline
from notation.pgn.chunks import RawGame
from notation.pgn.reader import split_games

from notation import _core  # the core must be built: no skip
from pgn_pieces import MOVETEXT_PIECES


# ------------------------------------------------------------------------------ perft
def test_perft_standard_positions() -> None:
    for fen, counts in epd_cases(corpus_path("perft", "standard-perft-positions.txt")):
        for depth in (d for d in counts if d <= 4):
            assert _core.perft(fen, depth) == counts[depth], (fen, depth)


def test_perft_sunfish_suite() -> None:
    for fen, counts in epd_cases(corpus_path("perft", "sunfish-perft.epd")):
        for depth in (d for d in counts if d <= 3):
            assert _core.perft(fen, depth) == counts[depth], (fen, depth)


@pytest.mark.parametrize("name", ["tricky.perft", "chess960.perft", "random.perft"])
def test_perft_scalachess_suites(name: str) -> None:
    cases = [(fen, counts) for _, fen, counts in scalachess_cases(corpus_path("perft", "scalachess", name))]
    assert cases
    unread = []
    for fen, counts in cases:
        # X-FEN castling letters name rooks by position: the Python engine reads them, the core
        # takes the Shredder-FEN it writes (as replay hands start positions over)
        shredder = Position.from_fen(fen, chess960=True).fen(shredder=True, en_passant="fen")
        try:
            _core.perft(shredder, 0)
        except ValueError:
            # a position that cannot arise in a game (a check no last move explains): the
            # move generator refuses it, and a game starting there is replayed by Python
            unread.append(fen)
            continue
        for depth in (d for d in counts if counts[d] <= 2_000_000):
            assert _core.perft(shredder, depth) == counts[depth], (fen, depth)
    assert len(unread) <= max(2, len(cases) // 20), unread


@pytest.mark.slow
def test_perft_deep() -> None:
    for fen, counts in epd_cases(corpus_path("perft", "standard-perft-positions.txt")):
        for depth in (d for d in counts if counts[d] <= 200_000_000):
            assert _core.perft(fen, depth) == counts[depth], (fen, depth)


# ------------------------------------------------------------------------------ keys
def test_position_key_is_polyglot() -> None:
    assert _core.position_key("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1") == 0x463B96181691FC9C
    # after 1. e4 d5 2. e5 f5: the en passant capture exf6 is legal, so its file counts
    assert _core.position_key("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3") == 0x22A48B5A8E47FF78


def test_position_key_equals_the_python_engine_on_corpus_positions() -> None:
    path = corpus_path("games", "otb-pgnmentor", "Carlsen.pgn.gz")
    from notation.validation.replay import replay
    from notation.pgn.reader import read_games

    checked = 0
    for number, game in enumerate(read_games(path)):
        if number >= 150:
            break
        rep = replay(game, variations=False, notes=False)
        for record in rep.plies:
            fen = record.after.fen(shredder=True, en_passant="fen")
            assert _core.position_key(fen) == record.after.key(), fen
            checked += 1
    assert checked > 10_000


# ------------------------------------------------------------------------------ the scanner
def _grammar_split(run: str) -> list[tuple[str, str, int | None, str | None]]:
    """How the grammar's terminals split a MOVES run (the parser's regex built from them)."""
    out: list[tuple[str, str, int | None, str | None]] = []
    for match in _split_run()(run):
        number_text, san, glyph, after, comment, nag = match.groups()
        if san is not None:
            number = int(number_text.rstrip(" \t\r\n.…")) if number_text else None
            out.append(("move", san, number, glyph))
            if after is not None:
                out.append(("comment", after, None, None))
        elif comment is not None:
            out.append(("comment", comment, None, None))
        else:
            out.append(("nag", nag, None, None))
    return out


def _runs(lines: list[object]) -> list[str]:
    out: list[str] = []
    for item in lines:
        if isinstance(item, tuple):
            out.append(item[0])
        elif isinstance(item, list):
            out.extend(_runs(item))
        # str / int items: comments and NAGs outside runs
    return out


def _corpus_runs(limit: int | None) -> list[str]:
    runs: list[str] = []
    games = corpus_path("games")
    for path in sorted(p for p in games.rglob("*") if p.is_file() and ".pgn" in p.name):
        for number, raw in enumerate(split_games(path)):
            if limit is not None and number >= limit:
                break
            text = raw.data if isinstance(raw.data, str) else raw.data.decode("utf-8", "replace")
            _, outline = parse_game_outline(text)
            runs.extend(_runs(outline))
    return runs


def _check_runs(runs: list[str]) -> int:
    accepted = 0
    for run in runs:
        split = _core.split_run(run)
        if split is not None:
            # comments right after a move come out of the regex in the move's match: compare
            # the sequence of pieces, which is what both produce
            assert split == _grammar_split(run), run
            accepted += 1
    return accepted


def test_scanner_splits_runs_as_the_grammar_on_corpus_games() -> None:
    runs = _corpus_runs(limit=200)
    accepted = _check_runs(runs)
    assert accepted > 0.9 * len(runs), (accepted, len(runs))


@pytest.mark.slow
def test_scanner_splits_runs_as_the_grammar_on_the_whole_corpus() -> None:
    runs = _corpus_runs(limit=None)
    assert _check_runs(runs) > 0.9 * len(runs)


_PIECES = st.sampled_from(MOVETEXT_PIECES)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_PIECES, min_size=1, max_size=14))
def test_scanner_agrees_with_the_grammar_on_generated_runs(pieces: list[str]) -> None:
    run = "".join(pieces)
    if not run.strip():
        return
    tokens = [t for t in _grammar_runs(run)]
    for text in tokens:
        split = _core.split_run(text)
        if split is not None:
            assert split == _grammar_split(text), text


def _grammar_runs(text: str) -> list[str]:
    _, outline = parse_game_outline(text + " *")
    return _runs(outline)


# ------------------------------------------------------------------------------ never a panic
@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200), st.integers(0, 200), st.integers(1, 500))
def test_any_text_never_panics(text: str, halfmove: int, fullmove: int) -> None:
    result = _core.replay_game(None, [(text, 1, 1)], halfmove, fullmove)
    assert isinstance(result, (_core.Decline, _core.CoreGame))
    split = _core.split_run(text)
    assert split is None or isinstance(split, list)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_as_a_game_never_panic(data: bytes) -> None:
    text = data.decode("latin-1")
    result = _core.replay_game(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", [(text, 1, 1), [(text, 2, 1)]]
    )
    assert isinstance(result, (_core.Decline, _core.CoreGame))


@settings(max_examples=150, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(1, 160), st.booleans())
def test_random_legal_games_replay_like_the_python_engine(rng: object, length: int, chess960: bool) -> None:
    import random

    assert isinstance(rng, random.Random)
    if chess960:
        from notation.formats.fen import STARTING_FEN

        pos = Position.from_fen(STARTING_FEN, chess960=True)
    else:
        pos = Position.initial()
    start = pos
    words = []
    for _ in range(length):
        moves = pos.legal_moves()
        if not moves:
            break
        move = rng.choice(moves)
        if pos.turn:
            words.append(f"{pos.fullmove_number}.")
        words.append(pos.san(move))
        pos = pos.play(move)
    if not words:
        return
    fen = start.fen(shredder=True, en_passant="fen") if chess960 else None
    result = _core.replay_game(fen, [(" ".join(words) + " ", 1, 1)])
    assert isinstance(result, _core.CoreGame), (result, words)
    assert result.final_fen == pos.fen()
    assert result.plies == sum(1 for w in words if not w.endswith("."))


# ------------------------------------------------------------------------------ the lexer
def _lark_tokens(text: str) -> list[tuple[object, ...]]:
    """The tokens Lark's own (contextual) lexer cuts from a game, as the parser receives them."""
    from notation.pgn.parser import _outline_parser

    parser, builder = _outline_parser(False)
    builder.reset()
    interactive = parser.parse_interactive(text)
    return [
        (t.type, str(t), t.start_pos, t.line, t.column, t.end_line, t.end_column, t.end_pos)
        for t in interactive.iter_parse()
        if t.type != "$END"
    ]


def _check_lexed(texts: list[str]) -> int:
    cut = 0
    for text in texts:
        fields = _core.lex_game(text)
        if fields is not None:
            assert [tuple(f) for f in fields] == _lark_tokens(text), text[:300]
            cut += 1
    return cut


def _corpus_texts(limit: int | None) -> list[str]:
    texts = []
    for path in sorted(p for p in corpus_path("games").rglob("*") if p.is_file() and ".pgn" in p.name):
        for number, raw in enumerate(split_games(path)):
            if limit is not None and number >= limit:
                break
            if isinstance(raw, RawGame) and not raw.oversized:
                texts.append(raw.data if isinstance(raw.data, str) else raw.data.decode("utf-8", "replace"))
    return texts


_TAGS = st.sampled_from(
    [
        '[Event "x"]\n',
        '[Site "a \\"b\\" c"]\n',
        '[White "é"]  \n',
        '[Black "x"] [Round "1"]\n',
        "[Bad tag]\n",
        '[Event "x"\n',
        '[ Date  "2020.01.01" ]\r\n',
        "\n",
        '[X "\\\\"]\n',
        '[Y "tab\there"]\n',
    ]
)
_ENDS = st.sampled_from(["1-0", "0-1", "1/2-1/2", "*", "½-½", "", "1-0 junk", "*\n\n", "1-0x", "0-1\xa0", "(1. d4) *"])


#: comments before the first move (TCEC games open with one), closed or not, with odd blanks
_INTROS = st.sampled_from(
    ["{intro} ", "{a\nb}\n", "; line\n", ";x", "{open", "{é}  ", "{x}\xa0", "{}", "{a}{b}", "{%x}\n%esc\n", "1. {c} "]
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_TAGS, max_size=4), st.lists(_INTROS, max_size=2), st.lists(_PIECES, max_size=12), _ENDS)
def test_the_core_cuts_tokens_as_lark_does_on_generated_games(
    tags: list[str],
    intros: list[str],
    pieces: list[str],
    end: str,
) -> None:
    text = "".join(tags) + "\n" + "".join(intros) + "".join(pieces) + " " + end
    _check_lexed([text])


# ------------------------------------------------------------------------------ the outline
def _reference_outline(text: str, line: int) -> tuple[object, ...]:
    """What Lark's parse in Python (``parse_game_outline`` with the core's outline off) makes
    of a game: tags in order, mainline outline, result, diagnostics."""
    from unittest import mock

    with mock.patch("notation.pgn.parser.core_outline", return_value=(None, None)):
        game, outline = parse_game_outline(text, file="f.pgn", number=3, line=line, offset=7)
    return list(game.tags.items()), outline, game.result, game.diagnostics


def _check_outlines(texts: list[str]) -> int:
    """The core's outline (``_core.game_outline`` through ``parse_game_outline``) equals the
    Python parse's on every text it takes; how many it took."""
    taken = 0
    for number, text in enumerate(texts):
        line = 1 + number % 5
        if _core.game_outline(text, line) is None:
            continue
        taken += 1
        game, outline = parse_game_outline(text, file="f.pgn", number=3, line=line, offset=7)
        found = (list(game.tags.items()), outline, game.result, game.diagnostics)
        assert found == _reference_outline(text, line), text[:300]
    return taken


_CORPUS_CHECKS = {"tokens": _check_lexed, "outline": _check_outlines}


@pytest.mark.parametrize("what", sorted(_CORPUS_CHECKS))
def test_the_core_reads_corpus_games_as_lark_does(what: str) -> None:
    """The core's tokens and outlines equal Lark's on the first 150 games of each corpus file."""
    texts = _corpus_texts(limit=150)
    assert _CORPUS_CHECKS[what](texts) > 0.5 * len(texts)


@pytest.mark.slow
@pytest.mark.parametrize("what", sorted(_CORPUS_CHECKS))
def test_the_core_reads_the_whole_corpus_as_lark_does(what: str) -> None:
    texts = _corpus_texts(limit=None)
    assert _CORPUS_CHECKS[what](texts) > 0.5 * len(texts)


def test_the_core_outline_leaves_what_the_builder_reports_to_lark() -> None:
    text = '[Event "x"]\n[Event "y"]\n\n1. e4 *\n'
    assert _core.game_outline(text, 1) is None
    game, _ = parse_game_outline(text)
    assert [d.code for d in game.diagnostics] == ["pgn.duplicate-tag"]
    for text in ['[Event "x"]\n\n1. e4 (1. d4) *', '[Event "x"]\n\n1. e4 * junk', "1. e4 *"]:
        assert _core.game_outline(text, 1) is None


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(_TAGS | st.sampled_from(['[Result "1-0"]\n', '[Result "0-1"]\n'])),
    st.lists(_INTROS, max_size=2),
    st.lists(_PIECES, max_size=12),
    _ENDS,
)
def test_the_core_outlines_generated_games_as_lark_does(
    tags: list[str], intros: list[str], pieces: list[str], end: str
) -> None:
    _check_outlines(["".join(tags) + "\n" + "".join(intros) + "".join(pieces) + " " + end])


_SAMPLE = (
    '[Event "Rated Blitz"]\n[Site "https://lichess.org/x"]\n[White "a\\"b"]\n[Result "1/2-1/2"]\n\n'
    "{ intro } 1. e4 { [%clk 0:03:00] } 1... e5 2. Nf3 $1 Nc6 3. Bb5+ a6?! 4. Ba4 Nf6 1/2-1/2\n\n"
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, len(_SAMPLE)), st.integers(0, 6), _PIECES | _TAGS | _ENDS), max_size=3))
def test_the_core_outlines_mutated_games_as_lark_does(edits: list[tuple[int, int, str]]) -> None:
    text = _SAMPLE
    for at, cut, insert in edits:
        at = min(at, len(text))
        text = text[:at] + insert + text[at + cut :]
    _check_outlines([text])


# ------------------------------------------------------------------------ the boundary scan
def _regex_end(data: bytes) -> int | None:
    from notation.pgn.reader import _between_games

    found = _between_games(True).search(data)
    return None if found is None else found.end()


_SPLIT_PARTS = st.sampled_from(
    [
        b"1-0",
        b"0-1",
        b"1/2-1/2",
        b"*",
        b" ",
        b"\t",
        b"\r",
        b"\n",
        b"\n\n",
        b"x",
        b"e4",
        b"\x0b",
        b"\x0c",
        b"\xff\xfe",
        b"\xfe\xff",
        b"[",
        b"1",
        b"-",
        b"/2",
        b"\xc3\xa9",
    ]
)


@settings(max_examples=2000, deadline=None)
@given(st.lists(_SPLIT_PARTS, max_size=30))
def test_the_core_finds_a_games_end_as_the_readers_regex_on_generated_text(parts: list[bytes]) -> None:
    data = b"".join(parts)
    assert _core.game_end(data) == _regex_end(data), data


def _corpus_heads(size: int) -> Iterator[tuple[str, bytes]]:
    """(name, the first ``size`` bytes) of every game file of the corpus, decompressed."""
    import gzip

    for path in sorted(p for p in corpus_path("games").rglob("*") if p.is_file() and ".pgn" in p.name):
        data = gzip.decompress(path.read_bytes()) if path.name.endswith(".gz") else path.read_bytes()
        yield path.name, data[:size]


def test_the_core_finds_a_games_end_as_the_readers_regex_on_corpus_files() -> None:
    found = 0
    for name, data in _corpus_heads(1 << 19):  # (each step copies the rest: kept short)
        at = 0
        while True:
            end = _core.game_end(data[at:])
            assert end == _regex_end(data[at:]), (name, at)
            if end is None:
                break
            at, found = at + end, found + 1
    assert found > 2_000


# ------------------------------------------------------------------------ the tag sections
def _regex_sections(data: bytes) -> list[tuple[int, int]]:
    from notation.pgn.reader import _tag_section

    return [match.span() for match in _tag_section(True).finditer(data)]


_TAG_PARTS = st.sampled_from(
    [
        b"\n",
        b"\r\n",
        b"[",
        b"]",
        b'"',
        b" ",
        b"\t",
        b"\r",
        b"Event",
        b"a",
        b"_",
        b"+#=:-",
        b"!",
        b"x y",
        b"\x0b",
        b"\xc3\xa9",
        b"\xef\xbb\xbf",
    ]
)


@settings(max_examples=3000, deadline=None)
@given(st.lists(_TAG_PARTS, max_size=40))
def test_the_core_finds_tag_sections_as_the_readers_regex_on_generated_text(parts: list[bytes]) -> None:
    data = b"".join(parts)
    assert _core.tag_sections(data) == _regex_sections(data), data
    assert _core.newlines(data) == data.count(b"\n")
    for needle in (b"\n\xef\xbb\xbf", b"[", b"\r\n", b"Event a"):
        assert _core.contains(data, needle) == (needle in data)


def test_the_core_finds_tag_sections_as_the_readers_regex_on_corpus_files() -> None:
    found = 0
    for name, head in _corpus_heads(1 << 21):
        data = b"\n" + head
        sections = _core.tag_sections(data)
        assert sections == _regex_sections(data), name
        assert _core.newlines(data) == data.count(b"\n")
        found += len(sections)
    assert found > 10_000
