"""The report lines the compiled core writes itself (``notation._core.report_lines``, through
:func:`notation.validation.core.report_lines`) are the very jsonl lines of the reports, byte for
byte (the reference's and the core path's), and it writes them only where it decides every
check: any game it leaves goes through :func:`notation.validation.core.check_raw`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import SAMPLE_GAMES, corpus_game_files, corpus_path
from notation.pgn.chunks import RawGame
from notation.pgn.reader import parse_raw_game, split_games
from notation.validation import core
from notation.validation.reports import check_game, report_line
from notation.validation.run import lined, validate_sources

pytestmark = pytest.mark.skipif(not core.core_available(), reason="the compiled core is not built")


def _compare(raws: list[RawGame], name: str | None = None) -> int:
    """Assert the core's lines equal the reports'; the number of lines the core wrote."""
    written = core.report_lines(raws, name)
    assert len(written) == len(raws)
    for raw, line in zip(raws, written):
        if line is None:
            continue
        expected = report_line(core.check_raw(raw, name))
        reference = check_game(parse_raw_game(raw), file=name).to_json()
        assert line == expected, (raw.number, line.text, expected.text)
        assert line.text == reference
    return sum(line is not None for line in written)


def _raws(path: Path) -> list[RawGame]:
    return [raw for raw in split_games(path) if isinstance(raw, RawGame)]


@pytest.mark.parametrize(
    "parts",
    [
        ("lichess", "lichess_DannyTheDonkey_2019-01-29.pgn.gz"),
        ("lichess", "chesscom_MagnusCarlsen_games.pgn.gz"),
        ("classic", "London1851.pgn"),
        ("classic", "tatamast22.pgn"),
    ],
)
def test_the_core_s_lines_are_the_reports_on_corpus_files(parts: tuple[str, str]) -> None:
    raws = _raws(corpus_path("games", *parts))
    written = _compare(raws)
    assert written >= 0.5 * len(raws), (written, len(raws))


def test_the_core_s_lines_are_the_reports_on_own_sample_games() -> None:
    for path in sorted(SAMPLE_GAMES.glob("*.pgn")):
        _compare(_raws(path), "shown name.pgn")


@pytest.mark.slow
def test_the_core_s_lines_are_the_reports_on_the_whole_corpus() -> None:
    for path in corpus_game_files():
        _compare(_raws(path))


_GAME = '[Event "E"]\n[Site "S"]\n[Date "2024.01.02"]\n[Round "1"]\n[White "W"]\n[Black "B"]\n{tags}[Result "{result}"]\n\n{moves} {marker}\n'
_MATE = "1. f3 e5 2. g4 Qh4#"
_SHORT = "1. e4 e5 2. Nf3 Nc6"
_STALEMATE = (
    "1. e3 a5 2. Qh5 Ra6 3. Qxa5 h5 4. h4 Rah6 5. Qxc7 f6 6. Qxd7+ Kf7 7. Qxb7 Qd3 8. Qxb8 Qh7 9. Qxc8 Kg6 10. Qe6"
)


def _one(tmp_path: Path, text: str) -> tuple[bool, str]:
    path = tmp_path / "one.pgn"
    path.write_bytes(text.encode("utf-8"))
    raws = _raws(path)
    assert len(raws) == 1
    _compare(raws)
    line = core.report_lines(raws, None)[0]
    return line is not None, report_line(core.check_raw(raws[0], None)).text


@pytest.mark.parametrize(
    ("tags", "moves", "result", "marker", "written"),
    [
        ("", _SHORT, "*", "*", True),
        ("", _MATE, "0-1", "0-1", True),
        ("", _MATE, "*", "*", True),
        ("", _MATE, "1-0", "1-0", False),  # the result disagrees with the mate
        ("", _SHORT, "1-0", "0-1", False),  # the marker disagrees with the tag
        ("", _SHORT, "1-0 ", "1-0", False),  # a tag with blanks: the reference reads it
        ("", _SHORT, "1-0", "", False),  # no marker
        ("", "", "*", "*", False),  # no moves
        ('[Date "2023.02.29"]\n', _SHORT, "*", "*", False),  # a date given twice: the builder's
        ('[EventDate "2023.02.29"]\n', _SHORT, "*", "*", False),  # not a calendar date
        ('[UTCDate "2023.02.??"]\n', _SHORT, "*", "*", True),
        ('[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]\n', _SHORT, "*", "*", True),
        (
            '[SetUp "1"]\n[FEN "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"]\n',
            "1... e5",
            "*",
            "*",
            True,
        ),
        ('[FEN "8/8/8 w - - 0 1"]\n', _SHORT, "*", "*", False),  # bad FEN
        ('[SetUp "1"]\n', _SHORT, "*", "*", False),  # SetUp without a FEN
        ('[SetUp "0"]\n', _SHORT, "*", "*", True),
        ('[Variant "Standard"]\n', _SHORT, "*", "*", True),
        ('[Variant "Chess960"]\n', _SHORT, "*", "*", True),
        (
            '[Variant "Chess960"]\n[FEN "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"]\n',
            "9. g3 Ng4",
            "*",
            "*",
            True,
        ),
        ('[Variant "Crazyhouse"]\n', _SHORT, "*", "*", False),  # not chess the Laws cover
        ('[Termination "Time forfeit"]\n', _SHORT, "1-0", "1-0", True),  # White can mate
        ('[Termination "Normal"]\n', _SHORT, "1-0", "1-0", True),
        ("", "1. e4 e5 2. Nf3+ Nc6", "*", "*", True),  # a wrong check suffix: a warning
        ("", "1. e4 e5 2. Nf3 Nc6 4. Bb5 a6", "*", "*", True),  # a wrong move number
        ("", "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7+", "1-0", "1-0", True),  # mate written '+'
        ("", "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8", "*", "*", True),  # threefold
        ("", _STALEMATE, "1/2-1/2", "1/2-1/2", True),
        ("", _STALEMATE, "1-0", "1-0", False),  # the board says a draw
        ("", "1. e4 (1. d4) e5", "*", "*", False),  # a variation
        ('[FEN "8/8/8/4k3/8/8/8/4KB2 w - - 0 1"]\n', "1. Kd1 Kd5", "1/2-1/2", "1/2-1/2", True),  # dead from the start
        ('[FEN "8/8/8/4k3/8/8/8/4KB2 w - - 0 1"]\n', "1. Kd1 Kd5", "1-0", "1-0", False),  # won after it
        (
            '[FEN "8/8/8/3pk3/8/8/8/4KB2 w - - 0 1"]\n',
            "1. Bb5 Kd6 2. Kd2 d4 3. Bc4 Kc5 4. Bd3 Kd5 5. Kc2 Kc5 6. Kd2 Kd6 7. Bc4 Kc5 8. Bb3 Kd6 9. Ba4 Kc5 10. Bb3 Kd6 11. Bc2 Kc5 12. Bxa4",
            "*",
            "*",
            False,
        ),  # an illegal last move
        (
            '[FEN "8/8/8/3pk3/8/8/8/4KB2 w - - 0 1"]\n',
            "1. Bb5 Kd4 2. Kd2 Ke4 3. Bd7 d4 4. Kc2 Kd5 5. Bb5 Kc5 6. Ba4 d3+ 7. Kxd3",
            "1/2-1/2",
            "1/2-1/2",
            True,
        ),  # dead after a capture
    ],
)
def test_the_core_writes_only_what_it_decides(
    tmp_path: Path, tags: str, moves: str, result: str, marker: str, written: bool
) -> None:
    text = _GAME.format(tags=tags, moves=moves, result=result, marker=marker)
    assert _one(tmp_path, text)[0] is written


@pytest.mark.parametrize(
    "name",
    ['quote " and back\\slash', "tab\there", "bell\x07 and nul-less", "Élodie 中文 😀", "line\u2028sep", "del\x7f"],
)
def test_names_are_written_as_json_writes_them(tmp_path: Path, name: str) -> None:
    escaped = name.replace("\\", "\\\\").replace('"', '\\"')
    text = f'[White "{escaped}"]\n[Black "b"]\n[Result "*"]\n\n{_SHORT} *\n'
    assert _one(tmp_path, text)[0] is True


def test_a_file_name_that_is_no_utf8_text_leaves_the_lines_to_the_reports(tmp_path: Path) -> None:
    path = tmp_path / "one.pgn"
    path.write_text(_GAME.format(tags="", moves=_SHORT, result="*", marker="*"))
    raws = _raws(path)
    name = "bad\udcff.pgn"  # (os.fsdecode of a name whose bytes are not UTF-8)
    assert core.report_lines(raws, name) == [None]
    (line,) = lined(list(raws), name)
    assert line == report_line(core.check_raw(raws[0], name))


def test_a_batch_keeps_the_reader_s_order_and_read_failures(tmp_path: Path) -> None:
    path = tmp_path / "mixed.pgn"
    games = [
        _GAME.format(tags="", moves=_SHORT, result="*", marker="*"),
        _GAME.format(tags="", moves="1. e4 e5 2. Ke3", result="*", marker="*"),  # illegal: the reference
        _GAME.format(tags="", moves=_MATE, result="0-1", marker="0-1"),
    ]
    path.write_text("\n".join(games))
    items = list(split_games(path))
    lines = lined(items, "mixed")
    assert [line.text for line in lines] == [report_line(core.check_raw(raw, "mixed")).text for raw in items]
    assert [line.status for line in lines] == ["ok", "error", "ok"]


def test_warnings_are_counted_as_warnings(tmp_path: Path) -> None:
    written, text = _one(tmp_path, _GAME.format(tags="", moves="1. e4+ e5", result="*", marker="*"))
    assert written and '"status":"warning"' in text and "san.check-suffix" in text


@pytest.mark.parametrize("jobs", [1, 2])
def test_validate_lines_equal_the_reports_lines(jobs: int) -> None:
    path = SAMPLE_GAMES / "round_robin.pgn"
    by_reports = [report_line(report) for report in validate_sources([(path, None)], jobs=1)]
    assert list(validate_sources([(path, None)], jobs=jobs, render=report_line)) == by_reports


def test_threads_give_the_lines_of_one_job_in_order(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from notation.validation import run

    monkeypatch.setattr(run, "BATCH_GAMES", 3)  # many small batches, several in flight at once
    monkeypatch.setattr(run, "THREADS_UP_TO", 3)  # threads for three jobs too
    broken = tmp_path / "broken.pgn"
    broken.write_bytes(b'[Event "x"]\n\n1. e4 e5 2. Kx9 *\n\n[Event "y"]\n\n1. d4 *\n\xff\xfe\n1. e4 *\n')
    sources = [(path, None) for path in sorted(SAMPLE_GAMES.glob("*.pgn"))] + [(broken, "shown.pgn")]
    by_reports = [report_line(report) for report in validate_sources(sources, jobs=1)]
    for jobs in (2, 3):
        assert list(validate_sources(sources, jobs=jobs, render=report_line)) == by_reports


def test_more_jobs_than_threads_take_give_the_lines_of_one_job(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from notation.validation import run

    text = "\n".join(path.read_text(encoding="utf-8") for path in sorted(SAMPLE_GAMES.glob("*.pgn")))
    big = tmp_path / "big.pgn"
    big.write_text("\n".join([text] * 4), encoding="utf-8")
    one = list(validate_sources([(big, None)], jobs=1, render=report_line))
    monkeypatch.setattr(run, "THREADS_UP_TO", 1)  # two jobs: worker processes, each writing lines
    monkeypatch.setattr(run, "RANGE_MIN_BYTES", 1)  # and splitting byte ranges of the file itself
    monkeypatch.setattr(run, "HEAD_BYTES", 3_000)
    monkeypatch.setattr(run, "RANGE_BYTES", 5_000)
    assert run.uses_processes(2, report_line)
    assert list(validate_sources([(big, None)], jobs=2, render=report_line)) == one


def test_threads_stop_when_the_lines_are_no_longer_read() -> None:
    import threading

    path = SAMPLE_GAMES / "round_robin.pgn"
    lines = validate_sources([(path, None)] * 20, jobs=2, render=report_line)
    first = [next(lines) for _ in range(3)]
    lines.close()  # (--max-errors stops reading so): the threads finish, nothing is left running
    assert first == list(validate_sources([(path, None)], jobs=1, render=report_line))[:3]
    assert not [thread for thread in threading.enumerate() if thread.name.startswith("notation-validate")]


def test_the_core_lets_other_threads_run_while_it_writes_lines() -> None:
    import sys
    import threading
    import time

    from notation import compiled

    raws = _raws(SAMPLE_GAMES / "round_robin.pgn") * 200
    core_module = compiled.core_module()
    assert core_module is not None
    counted, done = [0], threading.Event()

    def count() -> None:
        while not done.is_set():
            counted[0] += 1
            time.sleep(0)  # (lets go of the interpreter, so this thread never keeps it from the caller)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(60.0)  # the caller keeps the interpreter unless it lets go of it itself
    counter = threading.Thread(target=count)
    counter.start()
    try:
        before = counted[0]
        core_module.report_lines(raws, "x.pgn", 50, 1000, lambda *tags: None)
        during = counted[0] - before
    finally:
        done.set()
        counter.join()
        sys.setswitchinterval(interval)
    assert during > 0


_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    white=_TEXT,
    date=st.sampled_from(["2024.01.02", "2024.1.2", "????.??.??", "２０２４.01.01", "2024.02.30"]),
    termination=st.sampled_from(["", "Normal", "Time forfeit", "flagged", "TIME OUT", "ſlag"]),
    moves=st.sampled_from([_SHORT, _MATE, "1. e4 e5 2. Qh5 Ke7 3. Qxe5#"]),
    result=st.sampled_from(["1-0", "0-1", "1/2-1/2", "*"]),
)
def test_any_tags_give_the_reports_line(
    tmp_path: Path, white: str, date: str, termination: str, moves: str, result: str
) -> None:
    escaped = white.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ").replace("\r", " ")
    tags = f'[White "{escaped}"]\n[Date "{date}"]\n' + (f'[Termination "{termination}"]\n' if termination else "")
    text = f'{tags}[Result "{result}"]\n\n{moves} {result}\n'
    path = tmp_path / "h.pgn"
    path.write_bytes(text.encode("utf-8"))
    _compare(_raws(path), "h")


def _listing(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], core_on: bool, *args: Any) -> str:
    from notation import compiled
    from notation.cli.validate_cmd import run_validate

    if not core_on:
        monkeypatch.setenv(compiled.CORE_VARIABLE, "python")
    compiled.core_module.cache_clear()
    try:
        path, options = args[0], args[1]
        code = run_validate([str(path)], **options)
    finally:
        monkeypatch.delenv(compiled.CORE_VARIABLE, raising=False)
        compiled.core_module.cache_clear()
    out = capsys.readouterr().out
    kept = [line for line in out.splitlines() if not line.startswith("elapsed:") and '"elapsed_seconds"' not in line]
    return f"exit {code}\n" + "\n".join(kept)


@pytest.mark.parametrize(
    "options",
    [{}, {"quiet": True}, {"verbose": True}, {"strict": True}, {"max_errors": 1}, {"jobs": 2}],
    ids=["text", "quiet", "verbose", "strict", "max-errors", "jobs"],
)
@pytest.mark.parametrize(
    "path",
    [
        *sorted(SAMPLE_GAMES.glob("*.pgn")),
        ("games", "lichess", "chesscom_MagnusCarlsen_games.pgn.gz"),
        ("games", "classic", "tatamast22.pgn"),
    ],
    ids=lambda p: p.name if isinstance(p, Path) else p[-1],
)
def test_a_text_listing_from_the_core_s_lines_is_the_reports_listing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], path: Any, options: dict[str, Any]
) -> None:
    if not isinstance(path, Path):
        path = corpus_path(*path)
    by_core = _listing(monkeypatch, capsys, True, path, options)
    by_reports = _listing(monkeypatch, capsys, False, path, options)
    assert by_core == by_reports
