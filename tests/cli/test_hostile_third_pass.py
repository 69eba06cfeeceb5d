"""Hostile input, third pass, through the commands a user runs: what an HTML chart embeds stays
data, odd dates, file names and option values give located diagnostics or usage errors (never
a traceback), and an output that is also an input is refused."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from tables_support import run_cli

HOSTILE = "</script><script>alert(1)</script><!--\u2028x\u2029"
NAME = "</script><script>alert(1)</script><!--x"  # a player's name: the chart looks it up


def _hostile_games() -> str:
    out = []
    for i, result in enumerate(["1-0", "0-1", "1/2-1/2", "1-0"]):
        out.append(
            f'[Event "{HOSTILE}"]\n[Site "{HOSTILE}"]\n[Date "2024.01.0{i + 1}"]\n[Round "{i}"]\n'
            f'[White "{NAME}"]\n[Black "B{i}{HOSTILE}"]\n[Result "{result}"]\n[ECO "{HOSTILE}"]\n'
            f'[TimeControl "{HOSTILE}"]\n[Opening "{HOSTILE}"]\n[WhiteElo "{1500 + i}"]\n[BlackElo "1500"]\n\n'
            f"1. e4 e5 2. Nf3 Nc6 {result}\n\n"
        )
    return "".join(out)


def _page_is_inert(page: str) -> None:
    """One script element for the libraries, one for the chart, and no text of the games that
    could end a script element, open an HTML comment or break a JavaScript string."""
    assert page.lower().count("<script") == 2, page.lower().count("<script")
    assert page.lower().count("</script") == 2
    last = page[page.lower().rindex("<script") :]
    assert "<!--" not in last and "\u2028" not in page and "\u2029" not in page
    assert "alert(1)" in last  # the text is there, as data


@pytest.mark.parametrize("kind", ["results-eco", "length-eco", "results-time-control", "length-time-control", "player"])
def test_html_chart_escapes_every_tag_it_shows(tmp_path: Path, kind: str) -> None:
    pytest.importorskip("altair")
    pytest.importorskip("vl_convert")
    games = tmp_path / "hostile.pgn"
    games.write_text(_hostile_games(), encoding="utf-8")
    out = tmp_path / "chart.html"
    extra = ["--player", NAME] if kind == "player" else []
    result = run_cli("chart", games, "--kind", kind, "--out", out, *extra)
    assert result.exit_code in (0, 1), result.stderr
    _page_is_inert(out.read_text(encoding="utf-8"))


def test_stats_plot_html_escapes(tmp_path: Path) -> None:
    pytest.importorskip("altair")
    pytest.importorskip("vl_convert")
    games = tmp_path / "hostile.pgn"
    games.write_text(_hostile_games(), encoding="utf-8")
    out = tmp_path / "plot.html"
    result = run_cli("stats", games, "--by", "eco", "--plot", out)
    assert result.exit_code == 0, result.stderr
    _page_is_inert(out.read_text(encoding="utf-8"))


def test_script_json_reads_back_as_the_same_value() -> None:
    import json

    from notation.pictures.charts import script_json

    value = {"a": [HOSTILE, "&amp; <b> \u2028"], "b": 1.5}
    text = script_json(value)
    assert not re.search("[<>&\u2028\u2029]", text)
    assert json.loads(text) == value


# ------------------------------------------------------------------- dates, names, option values
def _dated(date: str, utc: str = "2024.01.01") -> str:
    return (
        f'[Event "e"]\n[Date "{date}"]\n[UTCDate "{utc}"]\n[UTCTime "10:00:00"]\n[White "a"]\n[Black "b"]\n'
        '[Result "1-0"]\n\n1. e4 1-0\n\n'
    )


@pytest.mark.parametrize("date", ["0000.01.01", "-5.01.01", "-0001.12.31"])
@pytest.mark.parametrize("command", [["stats"], ["ledger"], ["tree"], ["standings"]])
def test_a_date_outside_the_calendar_is_no_traceback(tmp_path: Path, date: str, command: list[str]) -> None:
    games = tmp_path / "dates.pgn"
    games.write_text(_dated(date, utc=date) + _dated("2024.05.01"), encoding="utf-8")
    result = run_cli(*command, games)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code in (0, 1), result.output


def test_to_frames_keeps_an_impossible_date_as_text_only(tmp_path: Path) -> None:
    from notation.tables.frames import to_frames

    games = tmp_path / "dates.pgn"
    games.write_text(_dated("0000.01.01", utc="-5.01.01") + _dated("2024.05.01"), encoding="utf-8")
    frame, _ = to_frames(games)
    assert frame.get_column("date").to_list()[0] is None  # a Python reader of the column: no ValueError
    assert frame.get_column("date_text").to_list()[0] == "0000.01.01"
    assert frame.get_column("utc_datetime").to_list()[0] is None
    assert str(frame.get_column("date").to_list()[1]) == "2024-05-01"


@pytest.fixture()
def odd_names(tmp_path: Path) -> Path:
    """A folder whose one file's name is not UTF-8, beside a file whose name is."""
    import os

    folder = tmp_path / "games"
    folder.mkdir()
    with open(os.path.join(os.fsencode(folder), b"\xffodd\xfe.pgn"), "wb") as handle:
        handle.write((_dated("2024.01.02") + _dated("2024.01.03")).encode())
    (folder / "plain.pgn").write_text(_dated("2024.01.04"), encoding="utf-8")
    return folder


@pytest.mark.parametrize("command", [["stats"], ["standings"], ["ledger"], ["tree"], ["validate"]])
def test_a_file_name_that_is_not_utf8_sinks_nothing(odd_names: Path, command: list[str]) -> None:
    result = run_cli(*command, odd_names)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code in (0, 1), result.output


def test_stats_counts_every_game_of_a_folder_with_an_odd_name(odd_names: Path) -> None:
    result = run_cli("stats", odd_names, "--format", "json")
    assert result.exit_code == 0, result.output
    assert '"games": 3' in result.stdout or '"games":3' in result.stdout


def test_chart_and_import_take_a_file_name_that_is_not_utf8(odd_names: Path, tmp_path: Path) -> None:
    import polars as pl

    out = tmp_path / "ds"
    result = run_cli("import", odd_names, "--out", out)
    assert result.exit_code == 0, result.output
    games = pl.read_parquet(out / "games")
    assert games.height == 3
    assert sorted(games.get_column("source_file").unique().to_list()) == ["plain.pgn", "\ufffdodd\ufffd.pgn"]
    pytest.importorskip("altair")
    pytest.importorskip("vl_convert")
    chart = run_cli("chart", odd_names, "--kind", "results-time-control", "--out", tmp_path / "c.svg")
    assert chart.exit_code == 0, chart.output


def test_tree_names_a_damaged_dataset_part(tmp_path: Path) -> None:
    games = tmp_path / "g.pgn"
    games.write_text(_dated("2024.01.02") + _dated("2024.01.03"), encoding="utf-8")
    out = tmp_path / "ds"
    assert run_cli("import", games, "--out", out).exit_code == 0
    part = sorted((out / "moves").glob("*.parquet"))[0]
    part.write_bytes(part.read_bytes()[:100])
    result = run_cli("tree", out)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 2 and "dataset.bad-part" in result.stderr and part.name in result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["stats", "--limit", "99999999999999999999"],
        ["tree", "--depth", "99999999999999999999"],
        ["tree", "--min-games", "99999999999999999999"],
        ["chart", "--limit", "99999999999999999999"],
        ["filter", "--min-elo", "-99999999999999999999"],
        ["convert", "--columns", "99999999999999999999"],
    ],
)
def test_a_huge_number_is_a_usage_error(tmp_path: Path, args: list[str]) -> None:
    games = tmp_path / "g.pgn"
    games.write_text(_dated("2024.01.02"), encoding="utf-8")
    result = run_cli(
        args[0],
        games,
        *args[1:],
        *(["--kind", "results-eco", "--out", tmp_path / "c.svg"] if args[0] == "chart" else []),
    )
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 2 and "2147483647" in result.output, result.output


def test_tree_depth_beyond_any_game_is_every_ply(tmp_path: Path) -> None:
    games = tmp_path / "g.pgn"
    games.write_text(_dated("2024.01.02").replace("1. e4 1-0", "1. e4 e5 2. Nf3 1-0"), encoding="utf-8")
    deep = run_cli("tree", games, "--depth", "2147483647", "--format", "csv")
    assert deep.exit_code == 0, deep.output
    assert deep.stdout == run_cli("tree", games, "--depth", "3", "--format", "csv").stdout
    assert "Nf3" in deep.stdout


# ------------------------------------------------------------------- an output that is an input
@pytest.mark.parametrize(
    "args",
    [
        ["filter", "{in}", "--unique", "--duplicates", "{in}"],
        ["filter", "{in}", "--out", "{in}"],
        ["filter", "{dir}", "--out", "{dir}/picked.pgn"],
        ["convert", "{in}", "--out", "{in}"],
        ["convert", "{in}", "--split", "1", "--out", "{dir}"],
        ["stats", "{in}", "--out", "{in}"],
        ["stats", "{in}", "--by", "eco", "--plot", "{in}"],
        ["board", "{in}", "--out", "{in}"],
        ["chart", "{in}", "--kind", "results-eco", "--out", "{in}"],
    ],
)
def test_an_output_that_is_an_input_is_refused(tmp_path: Path, args: list[str]) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    pictures = args[0] in ("board", "chart") or "--plot" in args
    games = folder / ("in.svg" if pictures else "in.pgn")  # a name each output takes
    original = _dated("2024.01.02") + _dated("2024.01.02")
    games.write_text(original, encoding="utf-8")
    (folder / "picked.pgn").write_text(_dated("2024.01.03"), encoding="utf-8")
    result = run_cli(*[a.format(**{"in": games, "dir": folder}) for a in args])
    assert result.exit_code == 2, result.output
    assert "would replace an input" in result.stderr
    assert games.read_text(encoding="utf-8") == original


def test_an_output_beside_the_input_is_written(tmp_path: Path) -> None:
    games = tmp_path / "in.pgn"
    games.write_text(_dated("2024.01.02") + _dated("2024.01.02"), encoding="utf-8")
    result = run_cli("filter", games, "--unique", "--duplicates", tmp_path / "dupes.pgn", "--out", tmp_path / "o.pgn")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "dupes.pgn").read_text(encoding="utf-8").count("[Event") == 1


# ------------------------------------------------------------------- compressed data, then garbage
def _compressed(kind: str, data: bytes) -> bytes:
    import bz2
    import gzip
    import lzma

    import zstandard

    return {"gz": gzip.compress, "bz2": bz2.compress, "xz": lzma.compress, "zst": zstandard.ZstdCompressor().compress}[
        kind
    ](data)


@pytest.mark.parametrize("kind", ["gz", "bz2", "xz", "zst"])
@pytest.mark.parametrize("garbage", [b"garbage, not compressed data\n", b"\0\0\0\0junk", b"\x1f"])
def test_garbage_after_the_compressed_data_keeps_the_last_game(tmp_path: Path, kind: str, garbage: bytes) -> None:
    from notation.validation.run import validate

    text = (_dated("2024.01.02") + _dated("2024.01.03") + _dated("2024.01.04")).encode()
    path = tmp_path / f"games.pgn.{kind}"
    path.write_bytes(_compressed(kind, text) + garbage)
    reports = list(validate(path))
    whole = [r for r in reports if not any(d.code == "pgn.io" for d in r.diagnostics)]
    assert len(whole) == 3  # as zcat gives them: the last game is whole
    (failure,) = [d for r in reports for d in r.diagnostics if d.code == "pgn.io"]
    assert failure.line == text.count(b"\n") + 1 and "after game 3" in failure.message
    result = run_cli("stats", path, "--format", "json")
    assert result.exit_code == 2 and '"games": 3' in result.stdout, result.output


def test_two_members_then_garbage(tmp_path: Path) -> None:
    import gzip

    from notation.pgn.chunks import ReadFailure
    from notation.pgn.reader import read_games

    path = tmp_path / "games.pgn.gz"
    path.write_bytes(gzip.compress(_dated("2024.01.02").encode()) + gzip.compress(_dated("2024.01.03").encode()) + b"x")
    games = list(read_games(path))
    assert [g.tags.get("Date") for g in games[:2]] == ["2024.01.02", "2024.01.03"]  # type: ignore[union-attr]
    assert isinstance(games[2], ReadFailure) and games[2].diagnostic.code == "pgn.io"


# ------------------------------------------------------------------- text between games
def test_a_byte_order_mark_between_games_is_blank(tmp_path: Path) -> None:
    from notation.validation.run import validate

    one, two = _dated("2024.01.02").encode(), _dated("2024.01.03").encode()
    path = tmp_path / "joined.pgn"
    path.write_bytes(b"\xef\xbb\xbf" + one + b"\xef\xbb\xbf" + two + b"\xef\xbb\xbf\n" + one)
    reports = list(validate(path))
    assert [r.status for r in reports] == ["ok"] * 3
    assert [sorted({d.code for d in r.diagnostics} - {"tags.missing-roster"}) for r in reports] == [[]] * 3
    assert [r.line for r in reports] == [1, 11, 22]
    result = run_cli("stats", path, "--format", "json")
    assert result.exit_code == 0 and '"games": 3' in result.stdout, result.output


# ------------------------------------------------------------------- a standard FEN stays standard
FEN_GAME = (
    '[Event "e"]\n[Site "s"]\n[Date "2024.01.01"]\n[Round "1"]\n[White "a"]\n[Black "b"]\n[Result "*"]\n'
    '{variant}[SetUp "1"]\n[FEN "r3k2r/8/8/8/8/8/8/R2K3R w KQkq - 0 1"]\n\n1. O-O *\n'
)


def test_a_standard_fen_with_chess960_rights_is_not_chess960(tmp_path: Path) -> None:
    import json

    path = tmp_path / "fen.pgn"
    path.write_text(FEN_GAME.format(variant=""), encoding="utf-8")
    result = run_cli("validate", path, "--format", "json")
    assert result.exit_code == 1, result.output
    codes = [d["code"] for d in json.loads(result.stdout)["games"][0]["diagnostics"]]
    assert "fen.chess960-castling" in codes  # the warning names what was dropped
    assert "san.illegal" in codes  # and O-O is not a Chess960 castling
    assert "'KQ'" in result.stdout


def test_the_variant_tag_makes_the_same_fen_chess960(tmp_path: Path) -> None:
    import json

    path = tmp_path / "fen.pgn"
    path.write_text(FEN_GAME.format(variant='[Variant "Chess960"]\n'), encoding="utf-8")
    result = run_cli("validate", path, "--format", "json")
    assert result.exit_code == 0, result.output
    assert "fen.chess960-castling" not in result.stdout
    assert json.loads(result.stdout)["games"][0]["plies"] == 1


# ------------------------------------------------------------------- pipes and /dev/stdin
def _fifo_with(tmp_path: Path, data: bytes) -> tuple[Path, object]:
    import os
    import threading

    fifo = tmp_path / "games.pgn"
    os.mkfifo(fifo)

    def write() -> None:
        with open(fifo, "wb") as handle:  # blocks until the command opens it
            handle.write(data)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    return fifo, writer


@pytest.mark.parametrize(
    "args",
    [
        ["import", "{p}", "--out", "{t}/ds"],
        ["tree", "{p}"],
        ["board", "{p}", "--out", "{t}/b.svg"],
        ["stats", "{p}"],
        ["validate", "{p}"],
    ],
)
def test_a_named_pipe_is_an_input(tmp_path: Path, args: list[str]) -> None:
    import os

    if not hasattr(os, "mkfifo"):
        pytest.skip("no named pipes here")
    fifo, writer = _fifo_with(tmp_path, (_dated("2024.01.02") + _dated("2024.01.03")).encode())
    result = run_cli(*[a.format(p=fifo, t=tmp_path) for a in args])
    writer.join(timeout=10)  # type: ignore[attr-defined]
    assert result.exit_code == 0, result.output
    assert "no such file" not in result.output


@pytest.mark.parametrize(
    "args",
    [
        ["import", "/dev/stdin", "--out", "{t}/ds"],
        ["tree", "/dev/stdin"],
        ["board", "/dev/stdin", "--out", "{t}/b.svg"],
    ],
)
def test_dev_stdin_from_a_pipe_is_an_input(tmp_path: Path, args: list[str]) -> None:
    import os
    import shutil
    import subprocess

    program = shutil.which("notation")
    if program is None or not os.path.exists("/dev/stdin"):
        pytest.skip("needs the installed notation command and /dev/stdin")
    data = (_dated("2024.01.02") + _dated("2024.01.03")).encode()
    done = subprocess.run(
        [program, *[a.format(t=tmp_path) for a in args]], input=data, capture_output=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")


# ------------------------------------------------------------------- arrows
def test_a_flood_of_arrows_draws_each_pair_of_squares_once(tmp_path: Path) -> None:
    import random

    rng = random.Random(7)
    squares = [f + r for f in "abcdefgh" for r in "12345678"]
    cal = ",".join(rng.choice("GRYB") + rng.choice(squares) + rng.choice(squares) for _ in range(50_000))
    csl = ",".join("R" + rng.choice(squares) for _ in range(5_000))
    path = tmp_path / "arrows.pgn"
    path.write_text(f'[Event "e"]\n[Result "*"]\n\n1. e4 {{[%cal {cal}] [%csl {csl}]}} *\n', encoding="utf-8")
    out = tmp_path / "b.svg"
    result = run_cli("board", path, "--ply", "1", "--out", out)
    assert result.exit_code == 0, result.output
    svg = out.read_text(encoding="utf-8")
    drawn = re.findall(r'class="arrow \w+" data-from="(\w+)" data-to="(\w+)"', svg)
    assert len(drawn) == len(set(drawn)) <= 64 * 64
    assert svg.count('class="mark ') <= 64
    assert len(svg) < 1_000_000  # it was 61 MB for 200,000 arrows


# ------------------------------------------------------------------- text tables
def test_the_direct_layout_is_rich_s_layout(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tables that fit are written without rich's per-row objects; the text is the same."""
    import random

    from notation.cli import table_output

    rng = random.Random(3)
    words = ["x", "yyyy", "é漢", "", None, 1, 22.5, -3, "a b", "Nf3 e5", "\x07bell", "[bold]m[/]", "🙂", "ｗｉｄｅ"]
    cases = []
    for _ in range(300):
        n = rng.randint(1, 6)
        columns = [rng.choice(["a", "bb", "score_pct", "line", "名前"]) + str(i) for i in range(n)]
        rows = [[rng.choice(words) for _ in range(n)] for _ in range(rng.randint(0, 6))]
        cases.append(
            (
                columns,
                rows,
                rng.choice([None, "T", "x" * rng.randint(1, 80)]),
                rng.choice([None, "cap", "y" * rng.randint(1, 80)]),
                [c for c in columns if rng.random() < 0.5],
            )
        )
    direct = [table_output.rich_table(c, r, title=t, caption=k, right=g) for c, r, t, k, g in cases]
    monkeypatch.setattr(table_output, "_plain", lambda *args: None)
    assert direct == [table_output.rich_table(c, r, title=t, caption=k, right=g) for c, r, t, k, g in cases]


def _cpu(call: object) -> float:
    import time

    started = time.process_time()
    call()  # type: ignore[operator]
    return time.process_time() - started


@pytest.mark.parametrize("shape", ["many rows", "huge value"])
def test_a_text_table_costs_linear_time(shape: str) -> None:
    """4x and 16x inputs: the 16x table may cost at most 8x the 4x one (quadratic: 16x)."""
    from notation.cli.table_output import rich_table

    def table(n: int) -> object:
        if shape == "many rows":
            rows = [[f"1. e4 e5 2. Nf3 line {i}", i, 0.5 * i, "B00"] for i in range(n)]
            return lambda: rich_table(["line", "games", "score", "eco"], rows, title="t")
        return lambda: rich_table(["event", "games", "a", "b", "c", "d"], [["x" * (100 * n), 1, 2, 3, 4, 5]], title="t")

    table(250)()
    small, large = _cpu(table(4 * 250)), _cpu(table(16 * 250))
    assert large <= 8 * max(small, 0.05), (shape, small, large)


def test_stats_by_event_with_a_huge_value(tmp_path: Path) -> None:
    path = tmp_path / "big.pgn"
    value = "Z" * 1_000_000
    path.write_text(f'[Event "{value}"]\n[White "a"]\n[Black "b"]\n[Result "1-0"]\n\n1. e4 1-0\n', encoding="utf-8")
    result = run_cli("stats", path, "--by", "event")
    assert result.exit_code == 0, result.output
    assert result.stdout.count("Z") == 1_000_000  # whole, folded, and written once (it was once per column)
    assert len(result.stdout) < 1_300_000


# ------------------------------------------------------------------- many small files
def _many_files(folder: Path, count: int) -> str:
    from faults_support import make_games

    folder.mkdir()
    for i in range(count):
        (folder / f"g{i:04d}.pgn").write_text(make_games(1, first=i), encoding="utf-8")
    return make_games(count)


def test_stats_over_many_small_files_costs_what_one_file_costs(tmp_path: Path) -> None:
    """200 one-game files are read as one table, not 200 (each had a table build of its own:
    2,000 files took 37 s where one file of the same games took 1 s)."""
    import time

    whole = tmp_path / "one.pgn"
    whole.write_text(_many_files(tmp_path / "many", 200), encoding="utf-8")
    run_cli("stats", whole)  # warm
    started = time.process_time()
    one = run_cli("stats", whole, "--format", "json")
    single = time.process_time() - started
    started = time.process_time()
    many = run_cli("stats", tmp_path / "many", "--format", "json")
    spread = time.process_time() - started
    assert one.exit_code == many.exit_code == 0, many.output
    assert one.stdout == many.stdout
    assert spread <= 3 * single + 0.5, (single, spread)


def test_import_of_many_small_files_writes_few_parts(tmp_path: Path) -> None:
    import polars as pl

    _many_files(tmp_path / "many", 120)
    out = tmp_path / "ds"
    result = run_cli("import", tmp_path / "many", "--out", out, "--chunk-games", "50")
    assert result.exit_code == 0, result.output
    assert len(list((out / "games").glob("*.parquet"))) == 3  # 120 games in chunks of 50, not 120 parts
    games = pl.read_parquet(out / "games")
    assert games.height == 120 and games.get_column("source_file").n_unique() == 120
    assert games.sort("game_number").get_column("source_file")[0].startswith("g")


# ------------------------------------------------------------------- a tag line over 1 MiB
def _long_tag_file(path: Path, size: int) -> None:
    game = _dated("2024.01.02")
    path.write_text(game + f'[Annotator "{"w" * size}"]\n' + game + game, encoding="utf-8")


def test_a_tag_line_over_a_mebibyte_is_a_tag(tmp_path: Path) -> None:
    from notation.pgn.reader import read_games

    path = tmp_path / "long.pgn"
    _long_tag_file(path, 3 << 20)
    games = list(read_games(path))
    assert len(games) == 3
    assert [g.diagnostics for g in games] == [[], [], []]  # the game before it stays sound
    assert len(games[1].tags["Annotator"]) == 3 << 20 and games[1].tags["Date"] == "2024.01.02"
    result = run_cli("validate", path)
    assert result.exit_code == 0, result.output


def test_a_long_tag_line_costs_linear_time(tmp_path: Path) -> None:
    from notation.pgn.reader import read_games

    small, large = tmp_path / "small.pgn", tmp_path / "large.pgn"
    _long_tag_file(small, 2 << 20)
    _long_tag_file(large, 8 << 20)
    list(read_games(small))
    first = _cpu(lambda: list(read_games(small)))
    second = _cpu(lambda: list(read_games(large)))
    assert second <= 8 * max(first, 0.05), (first, second)


@pytest.mark.parametrize(
    ("between", "code"),
    [(b"[Event broken\n", "pgn.bad-tag"), (b"\0" * 5000 + b"\n\n", "pgn.syntax"), (b"}}]] junk\n\n", "pgn.syntax")],
    ids=["damaged-tag-line", "nul-block", "junk"],
)
def test_text_between_games_is_located_on_its_own(tmp_path: Path, between: bytes, code: str) -> None:
    from notation.validation.run import validate

    first, second = _dated("2024.01.02").encode(), _dated("2024.01.03").encode()
    path = tmp_path / "between.pgn"
    path.write_bytes(first + between + second)
    reports = list(validate(path))
    assert len(reports) == 3
    assert reports[0].status == reports[2].status == "ok"  # neither neighbour is charged with it
    assert reports[1].line == first.count(b"\n") + 1
    assert code in {d.code for d in reports[1].diagnostics}
    assert max(len(d.message) for r in reports for d in r.diagnostics) < 300  # quoted short


@pytest.mark.parametrize("gap", [b"", b"\n"])
def test_an_appended_utf16_file_is_located_not_lost(tmp_path: Path, gap: bytes) -> None:
    from notation.validation.run import validate

    first = _dated("2024.01.02").encode().rstrip(b"\n") + b"\n" + gap
    path = tmp_path / "joined.pgn"
    path.write_bytes(first + _dated("2024.01.03").encode("utf-16"))
    reports = list(validate(path))
    assert reports[0].status == "ok"
    found = [d for r in reports for d in r.diagnostics if d.code == "pgn.utf16-inside"]
    assert len(found) == 1 and found[0].line == first.count(b"\n") + 1
    result = run_cli("validate", path)
    assert result.exit_code == 1 and "pgn.utf16-inside" in result.output
