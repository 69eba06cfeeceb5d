"""The dask engine's byte ranges: workers read their own part of an uncompressed file.

What is checked: ``split_range`` gives exactly the games (text, number, line, offset, parsed
game, diagnostics, move spans) that ``split_games`` gives for the same stretch of the whole
file; ``plan_ranges`` makes the local engines' chunk plan (indices, part names, sizes, stats,
de-duplication) while shipping only byte ranges for plain files and game texts for compressed
files and stdin; and a dask import (an in-process ``LocalCluster``) writes the very dataset the
default engine writes, on awkward files made here (CRLF, a BOM, ``%`` lines, a game without
tags, syntax errors, CP1252 bytes, UTF-8 comments, duplicates, no final newline) and on real
games of the shared corpus.

``notation.tables.dataset.import_files`` plans with the executor's ``planner`` when it has one
(the dask engine's byte ranges); ``_use_planner`` records the kinds of the tasks planned.
"""

from __future__ import annotations

import bz2
import gzip
import pickle
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from notation.pgn.model import Game, MoveNode
from notation.pgn.chunks import RawGame, ReadFailure
from notation.pgn.reader import parse_raw_game, split_games, split_range
from notation.pgn.sources import is_plain_file
from notation.tables import dataset
from notation.tables.dataset import ChunkTask, PlanStats, WriteOptions, committed_parts, plan_chunks
from notation.tables.distributed import (
    RangeChanged,
    RangeTask,
    dask_executor,
    plan_ranges,
    run_range,
    run_task,
)
from notation.validation.replay import replay
from notation.validation.reports import check_replayed
from conftest import corpus_path

# ------------------------------------------------------------------------------ test files
_MOVES = (
    "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 {Ruy Lopez} 6. Re1 b5 7. Bb3 d6 8. c3 O-O",
    "1. d4 Nf6 2. c4 e6 3. Nc3 Bb4 4. e3 O-O 5. Bd3 d5 6. Nf3 c5 7. O-O Nc6 8. a3 Bxc3 9. bxc3",
    "1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. Be3 e5 7. Nb3 Be6 8. f3 Be7",
    "1. f3 e5 2. g4 Qh4#",
)


def _game(i: int, *, event: str, white: str = "Alpha, A.", moves: str | None = None, result: str = "*") -> str:
    text = moves if moves is not None else _MOVES[i % len(_MOVES)]
    if moves is None and i % len(_MOVES) == 3:
        result = "0-1"
    return (
        f'[Event "{event}"]\n[Site "Here"]\n[Date "2024.05.{1 + i % 28:02d}"]\n[Round "{i}"]\n'
        f'[White "{white}"]\n[Black "Beta, B."]\n[Result "{result}"]\n\n{text} {result}\n'
    )


def mixed_text(event: str, count: int = 40) -> str:
    """Games of every awkward kind, some repeated (duplicates), as one text (LF line ends)."""
    parts = ["% exported by a test\n\n"]
    for i in range(count):
        kind = i % 10
        if kind == 1:
            parts.append(_game(i, event=event, moves="1. e4 e5 2. Nf3 {unclosed comment 3. Bb5 a6"))
        elif kind == 2:
            parts.append(_game(i, event=event, moves="1. e4 e5 2. Ke3 Nc6 3. Qh5 ) Nf6"))  # illegal move, stray ')'
        elif kind == 3:
            parts.append(_game(i, event=event, moves="1. d4 d5 2. c4 {Damengambit – ein Klassiker} e6 3. Nc3 Nf6"))
        elif kind == 4:
            parts.append(_game(i - 4, event=event))  # a duplicate of an earlier game
        elif kind == 5:
            parts.append(_game(i, event=event))  # no blank line before the next [Event
        elif kind == 6:
            parts.append(_game(i, event=event, white="Müller, Jörg"))  # written as CP1252 below
        elif kind == 7:
            parts.append(_game(i, event=event, moves="1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7"))  # '#' missing
        else:
            parts.append(_game(i, event=event))
        parts.append("" if kind == 5 else "\n")
    return "".join(parts)


def _encode(text: str) -> bytes:
    """UTF-8, except the games with Müller, which are CP1252 (the reader's fallback)."""
    out = []
    for chunk in text.split("[Event"):
        encoding = "cp1252" if "Müller" in chunk else "utf-8"
        out.append(chunk.encode(encoding))
    return b"[Event".join(out)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Plain files of several kinds, plus compressed copies."""
    root = tmp_path_factory.mktemp("ranges")
    made = {
        "lf": _encode(mixed_text("LF")),
        "crlf": _encode(mixed_text("CRLF").replace("\n", "\r\n")),
        "bom": b"\xef\xbb\xbf" + _encode(mixed_text("BOM")),
        "tagless": _encode("\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n" + mixed_text("Tagless")),
        "no_final_newline": _encode(mixed_text("End").rstrip("\n")),
        "blank": b"\n% nothing but an escape line\n\n",
    }
    paths = {}
    for name, data in made.items():
        path = root / f"{name}.pgn"
        path.write_bytes(data)
        paths[name] = path
    paths["gz"] = root / "crlf.pgn.gz"
    paths["gz"].write_bytes(gzip.compress(_encode(mixed_text("GZ").replace("\n", "\r\n"))))
    paths["bz2_misnamed"] = root / "misnamed.pgn"  # compressed although named .pgn
    paths["bz2_misnamed"].write_bytes(bz2.compress(_encode(mixed_text("BZ2"))))
    return paths


def _fields(raw: RawGame) -> tuple[Any, ...]:
    return (raw.data, raw.file, raw.number, raw.line, raw.offset, raw.size, raw.oversized, raw.io_error)


def _spans(nodes: list[MoveNode]) -> Iterator[tuple[Any, ...]]:
    for node in nodes:
        yield node.san, node.span, node.number
        for line in node.variations:
            yield from _spans(line)


def _located(game: Game) -> tuple[Any, ...]:
    """A parsed game with everything ``Game.__eq__`` leaves out: where it is, its diagnostics."""
    return (
        game,
        game.file,
        game.number,
        game.line,
        game.offset,
        game.encoding,
        game.diagnostics,
        list(_spans(game.moves)),
    )


# ----------------------------------------------------------------------------- split_range
@pytest.mark.parametrize("name", ["lf", "crlf", "bom", "tagless", "no_final_newline"])
def test_split_range_is_the_whole_file_split(files: dict[str, Path], name: str) -> None:
    path = files[name]
    whole = list(split_games(path))
    assert len(whole) > 30
    assert whole[-1].offset + whole[-1].size == path.stat().st_size
    for first in range(0, len(whole), 3):
        for last in (first, first + 4, len(whole) - 1):
            if last >= len(whole):
                continue
            a, b = whole[first], whole[last]
            part = list(split_range(path, a.offset, b.offset + b.size, number=a.number, line=a.line))
            assert [_fields(r) for r in part] == [_fields(r) for r in whole[first : last + 1]]


@pytest.mark.parametrize("name", ["lf", "crlf", "tagless"])
def test_split_range_parses_to_the_same_games(files: dict[str, Path], name: str) -> None:
    """Line, column and offset of every diagnostic (reader's and replay's) and move are
    file-absolute."""
    path = files[name]
    whole = list(split_games(path))
    codes = set()
    for first in range(1, len(whole), 6):
        a = whole[first]
        b = whole[min(first + 5, len(whole) - 1)]
        part = list(split_range(path, a.offset, b.offset + b.size, number=a.number, line=a.line))
        for got, expected in zip(part, whole[first:], strict=False):
            game, reference = parse_raw_game(got), parse_raw_game(expected)
            assert _located(game) == _located(reference)
            report = check_replayed(game, replay(game)).diagnostics
            assert report == check_replayed(reference, replay(reference)).diagnostics
            codes.update(d.code for d in report)
    assert {"pgn.encoding", "pgn.unclosed-comment", "san.illegal", "san.check-suffix"} <= codes


def test_split_range_across_read_blocks(tmp_path: Path) -> None:
    """A file of several read blocks (1 MiB each): ranges start at any block alignment."""
    path = tmp_path / "big.pgn"
    path.write_bytes(b"".join(_encode(mixed_text(f"Big {i}")) for i in range(360)))
    assert path.stat().st_size > 2.5 * (1 << 20)
    whole = list(split_games(path))
    for first in (0, 1, 4999, 7777, 11111, len(whole) - 300):
        a, b = whole[first], whole[first + 299]
        part = list(split_range(path, a.offset, b.offset + b.size, number=a.number, line=a.line))
        assert [_fields(r) for r in part] == [_fields(r) for r in whole[first : first + 300]]


def test_split_range_oversized_game(files: dict[str, Path]) -> None:
    path = files["crlf"]
    whole = list(split_games(path, max_game_bytes=200))
    assert any(r.oversized for r in whole)
    a, b = whole[2], whole[20]
    part = list(split_range(path, a.offset, b.offset + b.size, number=a.number, line=a.line, max_game_bytes=200))
    assert [_fields(r) for r in part] == [_fields(r) for r in whole[2:21]]


def test_split_range_missing_file(tmp_path: Path) -> None:
    (raw,) = split_range(tmp_path / "gone.pgn", 10, 20, number=3, line=7)
    assert isinstance(raw, ReadFailure) and raw.number == 3


def test_is_plain_file(files: dict[str, Path], tmp_path: Path) -> None:
    assert is_plain_file(files["lf"]) and is_plain_file(str(files["crlf"]))
    assert not is_plain_file(files["gz"])
    assert not is_plain_file(files["bz2_misnamed"])  # magic bytes decide, not the name
    assert not is_plain_file("-") and not is_plain_file(tmp_path) and not is_plain_file(tmp_path / "gone.pgn")


# ------------------------------------------------------------------------------- planning
@pytest.fixture(autouse=True)
def _ranges_for_every_plain_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests are about byte ranges: no file is small enough to share a chunk (except in
    the test of sharing itself, which sets the size back)."""
    monkeypatch.setattr(dataset, "SMALL_FILE_BYTES", -1)


def _plan(planner: Any, paths: list[Path], out: Path, **kwargs: Any) -> tuple[list[Any], PlanStats, set[int]]:
    stats, seen = PlanStats(), set(kwargs.pop("seen", set()))
    tasks = list(planner(paths, out, seen=seen, options=WriteOptions(), stats=stats, batch=3, **kwargs))
    return tasks, stats, seen


def test_small_files_share_chunks_in_both_plans(
    files: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder of small files is a few parts, not one per file; both planners agree."""
    monkeypatch.setattr(dataset, "SMALL_FILE_BYTES", 1 << 20)
    order = ["lf", "gz", "crlf", "blank", "tagless", "no_final_newline", "bom"]
    paths = [files[name] for name in order]
    chunks, _, _ = _plan(plan_chunks, paths, tmp_path, chunk_games=7)
    ranges, _, _ = _plan(plan_ranges, paths, tmp_path, chunk_games=7)
    assert [(t.index, t.source_file, t.part_name, t.nbytes) for t in ranges] == [
        (t.index, t.source_file, t.part_name, t.nbytes) for t in chunks
    ]
    assert all(len(task.items) == 7 for task in chunks[:-1])  # full chunks across the files
    assert any(task.source_file is None for task in chunks)  # a chunk of games of several files


@pytest.mark.parametrize(("chunk_games", "chunk_bytes"), [(7, 1 << 20), (2000, 1500), (1, 1 << 20), (2000, 8 << 20)])
def test_plan_ranges_is_the_chunk_plan(
    files: dict[str, Path], tmp_path: Path, chunk_games: int, chunk_bytes: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    order = ["lf", "gz", "crlf", "blank", "lf", "tagless", "bz2_misnamed", "no_final_newline", "bom"]
    paths = [files[name] for name in order]
    sizes = {"chunk_games": chunk_games, "chunk_bytes": chunk_bytes}
    earlier = {gid for gid, _ in _items(files["bom"])[:5]}  # as if already in the dataset
    chunks, chunk_stats, chunk_seen = _plan(plan_chunks, paths, tmp_path, seen=earlier, **sizes)
    ranges, range_stats, range_seen = _plan(plan_ranges, paths, tmp_path, seen=earlier, **sizes)
    assert (range_stats.files, range_stats.games_read, range_stats.duplicates) == (
        chunk_stats.files,
        chunk_stats.games_read,
        chunk_stats.duplicates,
    )
    assert range_stats.duplicates > 0 and range_seen == chunk_seen
    assert len(ranges) == len(chunks)
    compressed = {files["gz"].name, files["bz2_misnamed"].name}
    for got, expected in zip(ranges, chunks, strict=True):
        assert (got.index, got.source_file, got.part_name, got.nbytes, got.batch) == (
            expected.index,
            expected.source_file,
            expected.part_name,
            expected.nbytes,
            expected.batch,
        )
        if expected.source_file in compressed:
            assert isinstance(got, ChunkTask)
            continue
        assert isinstance(got, RangeTask)
        raws = [raw for _, raw in expected.items]
        assert (got.start, got.end) == (raws[0].offset, raws[-1].offset + raws[-1].size)
        assert (got.number, got.line) == (raws[0].number, raws[0].line)
        kept = {raw.number for raw in raws}
        assert got.games == raws[-1].number - raws[0].number + 1
        assert set(got.skip) == set(range(got.number, got.number + got.games)) - kept
    if chunk_games > 1:  # some duplicates fall inside a range
        assert any(task.skip for task in ranges if isinstance(task, RangeTask))


def _items(path: Path) -> list[tuple[int, RawGame]]:
    from notation.tables.rows import raw_games

    return list(raw_games(path))


def test_range_tasks_carry_no_game_text(files: dict[str, Path], tmp_path: Path) -> None:
    tasks, _, _ = _plan(plan_ranges, [files["crlf"]], tmp_path)
    (task,) = tasks
    assert isinstance(task, RangeTask) and task.end - task.start > 5000
    shipped = pickle.dumps(task)
    assert len(shipped) < 600 and b"Nf3" not in shipped
    assert pickle.loads(shipped) == task


def test_range_worker_detects_a_changed_file(files: dict[str, Path], tmp_path: Path) -> None:
    path = tmp_path / "changing.pgn"
    path.write_bytes(files["lf"].read_bytes())
    tasks, _, _ = _plan(plan_ranges, [path], tmp_path / "out", chunk_games=10)
    run_task(tasks[1])  # reads its range, writes its part
    path.write_bytes(files["lf"].read_bytes().replace(b"LF", b"LF!"))
    with pytest.raises(RangeChanged):
        run_range(tasks[2])
    path.write_bytes(b"")
    with pytest.raises(RangeChanged):
        run_range(tasks[0])


# ----------------------------------------------------------------------- whole imports
@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """The address of an in-process LocalCluster (two single-threaded workers)."""
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=2, processes=False, threads_per_worker=1, dashboard_address=None)
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()


def _use_planner(monkeypatch: pytest.MonkeyPatch, executor: Any) -> list[str]:
    """Make ``import_files`` plan with the executor's planner; the kinds of the tasks planned."""
    kinds: list[str] = []
    original = executor.planner

    def planner(*args: Any, **kwargs: Any) -> Iterator[Any]:
        for task in original(*args, **kwargs):
            kinds.append(type(task).__name__)
            yield task

    monkeypatch.setattr(executor, "planner", planner)
    return kinds


def _dataset(out: Path) -> tuple[list[str], pl.DataFrame, pl.DataFrame]:
    games_parts, moves_parts = committed_parts(out)
    assert [p.name for p in games_parts] == [p.name for p in moves_parts]
    games = pl.concat([pl.read_parquet(p) for p in games_parts])
    moves = pl.concat([pl.read_parquet(p) for p in moves_parts])
    return [p.name for p in games_parts], games, moves


def _summary(summary: dataset.ImportSummary) -> tuple[Any, ...]:
    facts = summary.to_dict()
    facts.pop("seconds")
    return facts, [d.render() for d in summary.diagnostics]


def _compare_imports(
    paths: list[Path], tmp_path: Path, executor: Any, monkeypatch: pytest.MonkeyPatch, **sizes: Any
) -> list[str]:
    """Import ``paths`` twice into a dataset that holds ``paths[0]`` already: default engine,
    then ``executor``; both datasets must be the same. The kinds of tasks the dask engine ran."""
    expected, got = tmp_path / "default", tmp_path / "dask"
    for out in (expected, got):
        dataset.import_files(paths[:1], out, **sizes)  # an earlier import: its games are skipped
    reference = dataset.import_files(paths, expected, **sizes)
    kinds = _use_planner(monkeypatch, executor)
    summary = dataset.import_files(paths, got, executor=executor, **sizes)
    assert _summary(summary) == _summary(reference)
    names, games, moves = _dataset(got)
    expected_names, expected_games, expected_moves = _dataset(expected)
    assert names == expected_names
    assert games.equals(expected_games)
    assert moves.equals(expected_moves)
    assert games.sort("game_id").equals(expected_games.sort("game_id"))
    return kinds


def test_dask_ranges_import_like_the_default_engine(
    files: dict[str, Path], tmp_path: Path, scheduler: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    order = ["bom", "lf", "crlf", "gz", "tagless", "no_final_newline", "bz2_misnamed"]
    paths = [files[name] for name in order]
    kinds = _compare_imports(paths, tmp_path, dask_executor(scheduler), monkeypatch, chunk_games=9, chunk_bytes=3000)
    assert kinds.count("RangeTask") > 10 and "ChunkTask" in kinds
    _, games, _ = _dataset(tmp_path / "dask")
    assert set(games["status"].to_list()) >= {"ok", "warning", "error"}


def test_dask_ranges_corpus_file(tmp_path: Path, scheduler: str, monkeypatch: pytest.MonkeyPatch) -> None:
    paths = [corpus_path("games", "classic", name) for name in ("Carlsen8games.pgn", "tatamast22.pgn")]
    kinds = _compare_imports(paths, tmp_path, dask_executor(scheduler), monkeypatch, chunk_games=20)
    assert kinds == ["RangeTask"] * 5  # Tata Steel 2022: 91 games in chunks of 20


@pytest.mark.slow
def test_dask_ranges_worker_processes_whole_classic_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A LocalCluster of worker processes (tasks are pickled), every plain classic file."""
    pytest.importorskip("distributed")
    root = corpus_path("games", "classic")
    paths = sorted(root.glob("*.pgn"))
    kinds = _compare_imports(paths, tmp_path, dask_executor(workers=2), monkeypatch, chunk_games=25)
    assert set(kinds) == {"RangeTask"} and len(kinds) > len(paths)
