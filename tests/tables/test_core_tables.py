"""``import`` through the compiled core equals the pure-Python reference: the same games and
moves tables, row for row, whichever path each game took (the core's columns reach Polars
through the Arrow C data interface)."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from conftest import SAMPLE_GAMES, corpus_game_files, corpus_path
from notation.tables.rows import tabulate_source
from notation import compiled
from notation.validation import core


def _reference(path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[pl.DataFrame, pl.DataFrame]:
    monkeypatch.setenv(compiled.CORE_VARIABLE, "python")
    compiled.core_module.cache_clear()
    try:
        return tabulate_source(path)
    finally:
        monkeypatch.delenv(compiled.CORE_VARIABLE)
        compiled.core_module.cache_clear()


def _check(path: Path, monkeypatch: pytest.MonkeyPatch) -> int:
    assert core.core_available(), "the compiled core is not built (pip install builds it)"
    games, moves = tabulate_source(path)
    ref_games, ref_moves = _reference(path, monkeypatch)
    assert games.equals(ref_games), path.name
    assert moves.equals(ref_moves), path.name
    assert moves.schema == ref_moves.schema
    return len(moves)


@pytest.mark.parametrize(
    "parts",
    [
        ("lichess", "lichess_DannyTheDonkey_2019-01-29.pgn.gz"),
        ("lichess", "chesscom_MagnusCarlsen_games.pgn.gz"),
        ("classic", "London1851.pgn"),
    ],
)
def test_core_and_reference_build_the_same_tables(parts: tuple[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    assert _check(corpus_path("games", *parts), monkeypatch) > 5000


def test_own_sample_games_mix_both_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    """Files where some games are declined (errors, lenient spellings) and some are taken: the
    rows stay in file order across the two paths."""
    for path in sorted(SAMPLE_GAMES.glob("*.pgn")):
        _check(path, monkeypatch)


def test_comments_nags_and_castling_columns(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = (
        '[Event "T"]\n[Result "*"]\n\n1. e4 {[%clk 0:03:00]  first\n line} $1 e5!? 2. Nf3 (2. f4 exf4) '
        "{after the variation} $14 Nc6 3. Bc4 Bc5 4. O-O {} Nf6 ; to the end\n5. d4 exd4 6. e5 d5 7. exd6 *\n"
    )
    path = tmp_path / "g.pgn"
    path.write_text(text)
    _check(path, monkeypatch)
    _, moves = tabulate_source(path)
    first, third, seventh = moves.row(0, named=True), moves.row(2, named=True), moves.row(6, named=True)
    assert first["clock_seconds"] == 180.0 and first["comment"] == "first line" and first["nags"] == [1]
    assert third["comment"] == "after the variation" and third["nags"] == [14]
    assert seventh["uci"] == "e1g1" and seventh["is_castle"]
    assert moves.row(12, named=True)["is_en_passant"]


@pytest.mark.slow
def test_core_and_reference_build_the_same_tables_on_the_whole_corpus(monkeypatch: pytest.MonkeyPatch) -> None:
    for path in corpus_game_files():
        _check(path, monkeypatch)


def test_wrong_suffixes_and_move_numbers_keep_the_reference_columns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game the core takes with warnings: its SAN column carries the suffix each move calls
    for (as the reference writes it) and its verdict counts the warnings."""
    path = tmp_path / "g.pgn"
    path.write_text(
        '[Event "T"]\n[Result "1-0"]\n\n1. e4 e5 2. Nf3+ Nc6 3. Bc4 Nf6 5. Ng5 d5 4. Nxf7 Qe7 '
        '6. Nxh8+ Qb4 7. Bxf7 1-0\n[Event "U"]\n[Result "1-0"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7+ 1-0\n'
    )
    _check(path, monkeypatch)
    games, moves = tabulate_source(path)
    assert moves["san"].to_list()[:3] == ["e4", "e5", "Nf3"]
    assert moves["san"].to_list()[-1] == "Qxf7#" and moves["is_mate"].to_list()[-1]
    assert games["warning_count"].to_list()[1] == 1


def test_the_standard_start_material_is_the_engines() -> None:
    """The core path gives no start position for the standard start (no rules engine loaded):
    its material is the constant, which must be what the engine counts."""
    from notation.formats.position import Position
    from notation.tables.moves_rows import STANDARD_MATERIAL

    start = Position.initial()
    assert start.material() == STANDARD_MATERIAL
    assert start.turn and start.fullmove_number == 1


def test_uci_of_null_moves_and_promotions(tmp_path: Path) -> None:
    """``uci``: ``0000`` for a null move (only batches holding one choose per ply), the
    promotion in lower case; the same with and without a null move in the batch."""
    null_move = '[Event "T"]\n[Result "*"]\n\n1. e4 -- 2. d4 e5 *\n\n'
    others = (
        '[Event "T"]\n[SetUp "1"]\n[FEN "8/P7/8/8/8/8/8/k6K w - - 0 1"]\n[Result "*"]\n\n1. a8=N Kb2 *\n\n'
        '[Event "T"]\n[Result "*"]\n\n1. d4 d5 *\n'
    )
    path = tmp_path / "uci.pgn"
    path.write_text(null_move + others, encoding="utf-8")
    _, moves = tabulate_source(path)
    assert moves.get_column("uci").to_list() == ["e2e4", "0000", "d2d4", "e7e5", "a7a8n", "a1b2", "d2d4", "d7d5"]
    path.write_text(others, encoding="utf-8")
    _, moves = tabulate_source(path)
    assert moves.get_column("uci").to_list() == ["a7a8n", "a1b2", "d2d4", "d7d5"]


def _tables_both_ways(path: Path, *, moves: bool = True) -> tuple[tuple[pl.DataFrame, pl.DataFrame], ...]:
    return tuple(tabulate_source(path, moves=moves, batch=batch) for batch in (True, False))


@pytest.mark.parametrize("moves", [True, False])
def test_the_core_s_batch_writes_the_per_game_rows(moves: bool) -> None:
    """``import_rows`` (the core's rows of a run of plain games, one call) gives the tables that
    the per-game path gives, with the moves table and without (the openings from the keys),
    on a file where most games go through the batch and a mix of declined ones."""
    paths = [corpus_path("games", "lichess", "lichess_DannyTheDonkey_2019-01-29.pgn.gz")]
    paths += sorted(SAMPLE_GAMES.glob("*.pgn"))
    for path in paths:
        (games, plies), (ref_games, ref_plies) = _tables_both_ways(path, moves=moves)
        assert games.equals(ref_games), path.name
        assert plies.equals(ref_plies), path.name
        assert games.schema == ref_games.schema and plies.schema == ref_plies.schema


def test_the_batch_takes_plain_games_and_stops_at_the_first_it_does_not(tmp_path: Path) -> None:
    """The core takes the plain games of a batch in order, those from a FEN too (the start
    position from Python), stops at a game it leaves to the per-game path (here an illegal
    move), and the rows stay in file order."""
    from notation import _core
    from notation.pgn.reader import split_games
    from notation.tables.moves_rows import CORE_PATTERNS
    from notation.tables.rows import _core_start

    plain = '[Event "T"]\n[White "a"]\n[Black "b"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n'
    fen = '[Event "F"]\n[SetUp "1"]\n[FEN "8/P7/8/8/8/8/8/k6K w - - 0 1"]\n[Result "*"]\n\n1. a8=N Kb2 *\n\n'
    illegal = '[Event "I"]\n[Result "*"]\n\n1. e4 e5 2. Ke3 *\n\n'
    path = tmp_path / "mix.pgn"
    path.write_text(plain * 2 + fen + illegal + plain.replace('"a"', '"c"'), encoding="utf-8")
    raws = list(split_games(path))
    taken, games, _, _, plies, warnings, starts = _core.import_rows(
        raws, [1, 2, 3, 4, 5], "mix.pgn", 50, 8, _core.MovesBatch(commands=CORE_PATTERNS), _core_start
    )
    assert (taken, plies, warnings) == (3, [7, 7, 2], 1)  # (a move after the dead position)
    assert starts == [None, None, ("8/P7/8/8/8/8/8/k6K w - - 0 1", None, "1")]
    frame = pl.DataFrame(games)
    assert frame["game_id"].to_list() == [1, 2, 3]
    assert frame["start_fen"].to_list() == [None, None, "8/P7/8/8/8/8/8/k6K w - - 0 1"]
    (games_frame, moves_frame), (ref_games, ref_moves) = _tables_both_ways(path)
    assert games_frame.equals(ref_games) and moves_frame.equals(ref_moves)
    assert games_frame["white"].to_list() == ["a", "a", None, None, "c"]
    assert games_frame["outcome"].to_list() == ["checkmate", "checkmate", "dead_position", None, "checkmate"]


def test_games_from_a_fen_in_the_batch_as_the_per_game_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Games from a FEN (Black to move, a late move number, Chess960 castling, a position the
    per-game path reads since the core cannot, a move number beyond the column) in the batch:
    the tables and the located warnings of the per-game path and of the reference."""
    from notation.tables.rows import raw_games, tabulate_raw

    games = [
        '[Event "B"]\n[SetUp "1"]\n[FEN "4k3/8/8/8/8/8/4P3/4K3 b - - 3 40"]\n[Result "*"]\n\n40... Kd7 41. e4 *\n\n',
        '[Event "C"]\n[Variant "Chess960"]\n[SetUp "1"]\n'
        '[FEN "bnrbkrqn/pppppppp/8/8/8/8/PPPPPPPP/BNRBKRQN w KQkq - 0 1"]\n[Result "*"]\n\n1. g3 g6 2. Ng2 Ng7 *\n\n',
        '[Event "N"]\n[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]\n[Result "*"]\n\n1. d4 *\n\n',
        '[Event "X"]\n[SetUp "1"]\n[FEN "8/8/8/8/8/8/8/8 w - - 0 1"]\n[Result "*"]\n\n*\n\n',
        '[Event "M"]\n[SetUp "1"]\n[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 3000000000"]\n[Result "*"]\n\n1. e4 *\n\n',
        '[Event "P"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n',
    ]
    path = tmp_path / "fen.pgn"
    path.write_text("".join(games), encoding="utf-8")
    found = []
    for batch in (True, False):
        problems: list[object] = []
        tables = tabulate_raw(raw_games(path), source_file="fen.pgn", diagnostics=problems, batch=batch)
        found.append((tables, problems))
    ((games_frame, moves_frame, statuses), problems), ((ref_games, ref_moves, ref_statuses), ref_problems) = found
    assert games_frame.equals(ref_games) and moves_frame.equals(ref_moves)
    assert statuses == ref_statuses and problems == ref_problems
    _check(path, monkeypatch)


def test_a_panic_in_the_batch_leaves_the_games_to_the_per_game_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """``import_rows`` raising ``CorePanic``: every game of the batch is read the per-game way
    (whose own core calls work here), and the tables are those of the per-game path."""
    module = compiled.core_module()
    assert module is not None

    class _PanicInBatch:
        def __getattr__(self, name: str) -> object:
            return getattr(module, name)

        def import_rows(self, *args: object) -> object:
            raise module.CorePanic("index out of bounds")

    path = corpus_path("games", "classic", "London1851.pgn")
    reference = tabulate_source(path, batch=False)
    monkeypatch.setattr(compiled, "core_module", lambda: _PanicInBatch())
    games, moves = tabulate_source(path)
    assert games.equals(reference[0]) and moves.equals(reference[1])
    assert (games["status"] != "error").all()


def test_values_out_of_range_are_located_alike_with_the_batch_on_and_off(tmp_path: Path) -> None:
    """A value its column cannot hold, in a game the batch takes and in one between games it
    leaves to the per-game path: the same rows, and the same located warnings, either way."""
    from notation.tables.rows import raw_games, tabulate_raw

    plain = '[Event "T"]\n[WhiteElo "{elo}"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n'
    declined = '[Event "D"]\n[WhiteElo "99999999"]\n[Result "*"]\n\n1. e4 e5 2. Ke3 *\n\n'  # (an illegal king move: the per-game path)
    fen = '[Event "F"]\n[SetUp "1"]\n[FEN "8/P7/8/8/8/8/8/k6K w - - 0 1"]\n[Result "*"]\n\n1. a8=N Kb2 *\n\n'
    text = plain.format(elo="2100") + plain.format(elo="123456789") + fen + declined + plain.format(elo="7e9")
    path = tmp_path / "range.pgn"
    path.write_text(text, encoding="utf-8")
    found = []
    for batch in (True, False):
        problems: list[object] = []
        games, moves, statuses = tabulate_raw(
            (item for item in raw_games(path)), source_file="range.pgn", diagnostics=problems, batch=batch
        )
        found.append((games, moves, statuses, problems))
    (games, moves, statuses, problems), (ref_games, ref_moves, ref_statuses, ref_problems) = found
    assert games.equals(ref_games) and moves.equals(ref_moves)
    assert statuses == ref_statuses and problems == ref_problems
    assert [d.game for d in problems] == [2, 4]  # type: ignore[attr-defined]


def test_a_game_of_an_unsupported_variant_from_the_core_s_outline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Three-check game: its row from the core's outline (no parser), the reference's row."""
    from notation.pgn.reader import split_games
    from notation.validation.core import unsupported_outline

    text = (
        '[Event "T"]\n[White "a"]\n[Variant "Three-check"]\n[Result "1-0"]\n\n1. e4 e5 2. Bc4 Nc6 3. Bxf7+ Kxf7 1-0\n\n'
        '[Event "U"]\n[Variant "Three-check"]\n[Result "*"]\n\n1. e4 {a comment} (1. d4) e5 *\n\n'
        '[Event "V"]\n[Result "*"]\n\n1. e4 e5 *\n'
    )
    path = tmp_path / "three.pgn"
    path.write_text(text, encoding="utf-8")
    raws = list(split_games(path))
    assert [unsupported_outline(raw) is not None for raw in raws] == [
        True,
        False,
        False,
    ]  # (a variation: the parser reads it)
    _check(path, monkeypatch)
    games, _ = tabulate_source(path)
    assert games["status"].to_list() == ["unsupported", "unsupported", "ok"]


def test_tag_texts_as_the_games_builder_reads_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The batch's tag columns read as :meth:`GamesBuilder.add` reads them: stripped as Python
    strips (the separators U+001C..U+001F too), unknown values null, no Date giving way to UTCDate, a TimeControl of ``?`` null, other tags kept in order in ``extra_tags``."""
    game = (
        '[Event "\x1c Open \u3000"]\n[Site "?"]\n[UTCDate "2024.01.02"]\n[Round "-"]\n'
        '[White " W "]\n[Black "B"]\n[Result "0-1"]\n[TimeControl " ? "]\n[Opening "\x1f"]\n'
        '[Annotator "me"]\n[WhiteFideId "1"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n'
    )
    path = tmp_path / "tags.pgn"
    path.write_text(game, encoding="utf-8")
    _check(path, monkeypatch)
    (games, _), (ref_games, _) = _tables_both_ways(path)
    assert games.equals(ref_games)
    from notation import _core
    from notation.pgn.reader import split_games
    from notation.tables.moves_rows import CORE_PATTERNS

    from notation.tables.rows import _core_start

    taken = _core.import_rows(
        list(split_games(path)), [1], "tags.pgn", 50, 8, _core.MovesBatch(commands=CORE_PATTERNS), _core_start
    )
    assert taken[0] == 1  # (the batch took it)
    row = games.row(0, named=True)
    assert (row["event"], row["site"], row["round"], row["white"], row["opening"]) == ("Open", None, None, "W", None)
    assert (row["date_text"], row["time_control"], row["outcome"]) == ("2024.01.02", None, "checkmate")
    assert row["extra_tags"] == [{"name": "Annotator", "value": "me"}, {"name": "WhiteFideId", "value": "1"}]


def _rust_names(constant: str) -> list[str]:
    """The strings of ``const CONSTANT: [&str; N] = [...]`` in ``src/games.rs``."""
    import re

    from conftest import ROOT

    text = (ROOT / "src" / "games.rs").read_text(encoding="utf-8")
    found = re.search(rf"const {constant}: \[&str; \d+\] = \[(.*?)\];", text, re.S)
    assert found is not None, constant
    return re.findall(r'"([^"]*)"', found.group(1))


def test_the_core_s_tag_columns_are_the_python_builder_s() -> None:
    """The core's batch names the same tags with columns of their own, and their text columns in
    the same order, as the Python games builder (two lists of one vocabulary, kept equal here)."""
    from notation.tables.rows import GamesBuilder
    from notation.tables.schema import COLUMN_TAGS

    assert set(_rust_names("COLUMN_TAGS")) == COLUMN_TAGS
    raw = list(GamesBuilder._RAW)
    assert _rust_names("TEXT_COLUMNS") == raw[raw.index("game_number") + 1 : raw.index("plies")]
