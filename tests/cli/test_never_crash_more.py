"""The never-crash harness, second part: mutated FENs (``board``, ``tree --fen``,
``scoresheet --fen``), mutated datasets (``stats``, ``tree``, ``ledger``, ``chart`` on a dataset
with a Parquet file flipped, cut, removed or beside junk) and any value of any option of the
reading commands (Unicode digits and blanks included). Each run ends with exit 0, 1 or 2, never a
traceback. A small sample runs by default (about 10 s); ``-m slow`` runs many more examples.
(Mutated PGN: tests/cli/test_never_crash.py.)

The long run of 2026-12-04 (``-m slow``: FENs 3 x 200, damaged datasets 4 x 100, option values
11 commands x 150, board, chart and scoresheet on mutated PGN 3 x 60; about 10 minutes on one
shared core) found no traceback a command line can cause: its one finding was ``filter
--duplicates`` given a NUL character (``ValueError: embedded null byte``), which no command line
holds (the harness now draws none). The sweep of every Unicode blank over the PGN reader found
``1.\x0b e4`` raising in the parser (fixed; tests/test_unicode_digits.py)."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest
from conftest import SAMPLE_GAMES
from harness_support import mutated
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from notation.cli.main import app

ROUND_ROBIN = SAMPLE_GAMES / "round_robin.pgn"
SHEET = "1. e4 e5\n2. Nf3 Nc6\n"
FENS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
    "8/8/8/4k3/8/8/8/4K2R w K - 0 1",
]
#: (a command line holds no NUL character: none is drawn)
ARGUMENT = st.text(alphabet=st.characters(blacklist_characters="\x00"), max_size=12)
FEN_TEXT = (
    st.text(alphabet=st.sampled_from("rnbqkpRNBQKP12345678/ -wKQkqa-h0123456789¹١\u3000\x0b"), max_size=12) | ARGUMENT
)
SETTINGS = {"deadline": None, "suppress_health_check": [HealthCheck.function_scoped_fixture]}


def _survives(args: list[str]) -> None:
    """Run the command in a folder of its own (a stray relative path writes nothing elsewhere)."""
    folder = tempfile.mkdtemp(prefix="never-crash-")
    here = os.getcwd()
    os.chdir(folder)
    try:
        result = CliRunner().invoke(app, args)
    finally:
        os.chdir(here)
        shutil.rmtree(folder, ignore_errors=True)
    assert result.exit_code in (0, 1, 2), (args, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit), (args, result.exception)


@st.composite
def mutated_fen(draw: st.DrawFn) -> str:
    seed = draw(st.sampled_from(FENS))
    start = draw(st.integers(0, len(seed)))
    end = draw(st.integers(start, min(len(seed), start + 6)))
    return seed[:start] + draw(FEN_TEXT) + seed[end:]


def _fen_command(kind: str, fen: str, tmp_path: Path) -> list[str]:
    if kind == "board":
        return ["board", fen, "--out", str(tmp_path / "board.svg")]
    if kind == "tree":
        return ["tree", str(ROUND_ROBIN), "--fen", fen, "--depth", "2"]
    sheet = tmp_path / "sheet.txt"
    sheet.write_text(SHEET, encoding="utf-8")
    return ["scoresheet", str(sheet), "--fen", fen, "--max-cost", "5", "-q"]


FEN_KINDS = ["board", "tree", "scoresheet"]


@pytest.mark.parametrize("kind", FEN_KINDS)
@settings(max_examples=6, **SETTINGS)  # type: ignore[arg-type]
@given(fen=mutated_fen())
def test_every_fen_reader_survives_mutated_fens(kind: str, fen: str, tmp_path: Path) -> None:
    _survives(_fen_command(kind, fen, tmp_path))


@pytest.mark.slow
@pytest.mark.parametrize("kind", FEN_KINDS)
@settings(max_examples=200, **SETTINGS)  # type: ignore[arg-type]
@given(fen=mutated_fen())
def test_every_fen_reader_survives_mutated_fens_long(kind: str, fen: str, tmp_path: Path) -> None:
    _survives(_fen_command(kind, fen, tmp_path))


# ------------------------------------------------------------------------------------- datasets
@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dataset") / "games.dataset"
    result = CliRunner().invoke(app, ["import", str(ROUND_ROBIN), "--out", str(out), "--jobs", "1", "--quiet"])
    assert result.exit_code == 0, result.output
    return out


DATASET_VERBS = [["stats"], ["tree", "--depth", "2"], ["ledger"], ["chart", "--kind", "rating", "--out", "{tmp}/c.svg"]]


@st.composite
def damage(draw: st.DrawFn) -> tuple[str, int, bytes]:
    """(what, where, bytes): flip bytes at an offset, cut at an offset, remove, or add a junk file."""
    what = draw(st.sampled_from(["flip", "cut", "remove", "junk"]))
    return what, draw(st.integers(0, 1 << 16)), draw(st.binary(min_size=1, max_size=16))


def _damaged(dataset: Path, tmp_path: Path, which: int, harm: tuple[str, int, bytes]) -> Path:
    copy = tmp_path / "copy.dataset"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(dataset, copy)
    files = sorted(p for p in copy.rglob("*.parquet"))
    target = files[which % len(files)]
    what, where, data = harm
    content = target.read_bytes()
    at = where % max(1, len(content))
    if what == "flip":
        target.write_bytes(content[:at] + data + content[at + len(data) :])
    elif what == "cut":
        target.write_bytes(content[:at])
    elif what == "remove":
        target.unlink()
    else:
        (target.parent / "part-9999-junk.parquet").write_bytes(data)
    return copy


@pytest.mark.parametrize("verb", DATASET_VERBS, ids=[v[0] for v in DATASET_VERBS])
@settings(max_examples=4, **SETTINGS)  # type: ignore[arg-type]
@given(which=st.integers(0, 10), harm=damage())
def test_every_dataset_reader_survives_a_damaged_dataset(
    verb: list[str], which: int, harm: tuple[str, int, bytes], dataset: Path, tmp_path: Path
) -> None:
    copy = _damaged(dataset, tmp_path, which, harm)
    _survives([verb[0], str(copy), *[a.replace("{tmp}", str(tmp_path)) for a in verb[1:]]])


@pytest.mark.slow
@pytest.mark.parametrize("verb", DATASET_VERBS, ids=[v[0] for v in DATASET_VERBS])
@settings(max_examples=100, **SETTINGS)  # type: ignore[arg-type]
@given(which=st.integers(0, 10), harm=damage())
def test_every_dataset_reader_survives_a_damaged_dataset_long(
    verb: list[str], which: int, harm: tuple[str, int, bytes], dataset: Path, tmp_path: Path
) -> None:
    copy = _damaged(dataset, tmp_path, which, harm)
    _survives([verb[0], str(copy), *[a.replace("{tmp}", str(tmp_path)) for a in verb[1:]]])


# ---------------------------------------------------------------------------------- option values
#: (verb and what it needs, the options that take a value and name no file: not --out, --plot,
#: --aliases, --initial, --duplicates, nor --jobs and --scheduler, which start processes)
OPTIONS: dict[str, tuple[list[str], list[str]]] = {
    "validate": (["validate", str(ROUND_ROBIN)], ["--format", "--max-errors"]),
    "stats": (
        ["stats", str(ROUND_ROBIN)],
        ["--by", "--format", "--limit", "--player", "--color", "--since", "--until", "--event", "--time-control"],
    ),
    "standings": (["standings", str(ROUND_ROBIN)], ["--event", "--format", "--tiebreak"]),
    "ledger": (["ledger", str(ROUND_ROBIN)], ["--format", "--places"]),
    "players": (["players", str(ROUND_ROBIN)], ["--format"]),
    "filter": (
        ["filter", str(ROUND_ROBIN)],
        [
            "--white",
            "--black",
            "--player",
            "--event",
            "--site",
            "--eco",
            "--result",
            "--date-from",
            "--date-to",
            "--min-elo",
            "--max-elo",
            "--elo-diff",
            "--min-plies",
            "--max-plies",
            "--tag",
            "--status",
            "--variant",
            "--moves",
            "--fen",
            "--material",
        ],
    ),
    "convert": (["convert", str(ROUND_ROBIN)], ["--to", "--strip", "--add-tags", "--columns"]),
    "tree": (["tree", str(ROUND_ROBIN)], ["--moves", "--depth", "--min-games", "--format"]),
    "chart": (
        ["chart", str(ROUND_ROBIN), "--out", "{tmp}/c.svg"],
        ["--kind", "--player", "--game", "--limit", "--title"],
    ),
    "board": (["board", str(ROUND_ROBIN), "--out", "{tmp}/b.svg"], ["--game", "--ply", "--moves", "--size"]),
    "scoresheet": (
        ["scoresheet", "{tmp}/sheet.txt", "-q"],
        ["--lang", "--tags", "--max-cost", "--pin", "--diagram", "--format", "--game"],
    ),
}
VALUE = (
    st.sampled_from(
        [
            "",
            "0",
            "-1",
            "1",
            "3",
            "99999999999999999999",
            "nan",
            "inf",
            "-inf",
            "1e309",
            "¹",
            "١٢",
            "\u3000",
            "12w",
            "24b",
            "e4",
            "a=b",
            "=",
            ",",
            "1-0",
            "2024.01.01",
            "json",
            "csv",
            "\x7f",
        ]
    )
    | ARGUMENT
    | st.integers(-(2**70), 2**70).map(str)
)


def _option_command(verb: str, option: str, value: str, tmp_path: Path) -> list[str]:
    base, _ = OPTIONS[verb]
    (tmp_path / "sheet.txt").write_text(SHEET, encoding="utf-8")
    return [*[a.replace("{tmp}", str(tmp_path)) for a in base], f"{option}={value}"]


@pytest.mark.parametrize("verb", sorted(OPTIONS))
@settings(max_examples=5, **SETTINGS)  # type: ignore[arg-type]
@given(data=st.data())
def test_every_option_value_is_used_or_refused(verb: str, data: st.DataObject, tmp_path: Path) -> None:
    option = data.draw(st.sampled_from(OPTIONS[verb][1]))
    _survives(_option_command(verb, option, data.draw(VALUE), tmp_path))


@pytest.mark.slow
@pytest.mark.parametrize("verb", sorted(OPTIONS))
@settings(max_examples=150, **SETTINGS)  # type: ignore[arg-type]
@given(data=st.data())
def test_every_option_value_is_used_or_refused_long(verb: str, data: st.DataObject, tmp_path: Path) -> None:
    option = data.draw(st.sampled_from(OPTIONS[verb][1]))
    _survives(_option_command(verb, option, data.draw(VALUE), tmp_path))


# ------------------------------------------------- mutated PGN for the commands that draw or read sheets
SEED = ROUND_ROBIN.read_text(encoding="utf-8")[:3000]
DRAWING = {
    "board": ["board", "{in}", "--out", "{tmp}/b.svg", "--game", "2", "--ply", "12w"],
    "chart": ["chart", "{in}", "--kind", "rating", "--out", "{tmp}/c.svg"],
    "scoresheet": ["scoresheet", "{in}", "-q", "-o", "{tmp}/s.html", "-o", "{tmp}/s.json"],
}


def _drawing(verb: str, text: str, tmp_path: Path) -> list[str]:
    source = tmp_path / "in.pgn"
    source.write_text(text, encoding="utf-8", errors="surrogatepass")
    return [a.replace("{in}", str(source)).replace("{tmp}", str(tmp_path)) for a in DRAWING[verb]]


@pytest.mark.parametrize("verb", ["board", "chart"])
@settings(max_examples=3, **SETTINGS)  # type: ignore[arg-type]
@given(text=mutated(SEED))
def test_the_drawing_commands_survive_mutated_pgn(verb: str, text: str, tmp_path: Path) -> None:
    _survives(_drawing(verb, text, tmp_path))


@pytest.mark.slow
@pytest.mark.parametrize("verb", sorted(DRAWING))
@settings(max_examples=60, **SETTINGS)  # type: ignore[arg-type]
@given(text=mutated(SEED))
def test_the_drawing_commands_and_scoresheet_survive_mutated_pgn_long(verb: str, text: str, tmp_path: Path) -> None:
    """scoresheet reconstructs every damaged game (seconds each): in the long run only."""
    _survives(_drawing(verb, text, tmp_path))
