"""The boundary split's two implementations agree: the compiled core's ``Regions`` (bytes split
whole) and the Python reader's ``_Regions`` give the same games and read failures, field for
field, on the corpus, on generated text at any cap and read size, and when the core panics
part-way through a source."""

from __future__ import annotations

import functools
import itertools
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notation import compiled
from notation.pgn import reader
from notation.pgn.chunks import Chunk, RawGame
from notation.pgn.sources import SafeRead

pytestmark = pytest.mark.skipif(compiled.core_module() is None, reason="the compiled core is not built")

CORPUS = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus"


_python_regions = functools.partial(reader._regions, compiled=False)


def _fields(item: Chunk) -> Any:
    if isinstance(item, RawGame):
        return ("game", item.data, item.file, item.number, item.line, item.offset, item.size, item.oversized)
    return ("failure", item)


def _split(data: bytes, sizes: list[int], cap: int, limit: int | None, *, python: bool) -> list[Any]:
    position = 0
    steps = itertools.cycle(sizes)

    def read(_: int) -> bytes:
        nonlocal position
        step = next(steps)
        piece = data[position : position + step]
        position += step
        return piece

    chosen = _python_regions if python else reader._regions
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(reader, "_regions", chosen)
        return [_fields(item) for item in reader._structured(SafeRead(read), "f.pgn", cap, False, limit)]


def _both(
    data: bytes, sizes: list[int] | None = None, cap: int = reader.DEFAULT_MAX_GAME_BYTES, limit: int | None = None
) -> list[Any]:
    sizes = sizes or [reader.BLOCK]
    core = _split(data, sizes, cap, limit, python=False)
    assert core == _split(data, sizes, cap, limit, python=True)
    return core


def test_the_core_splits_bytes_and_python_text() -> None:
    assert isinstance(reader._regions(None, 10, False, 0, 0, 0, True), reader._CoreRegions)
    assert isinstance(reader._regions(None, 10, False, 0, 0, 0, False), reader._Regions)
    assert isinstance(reader._regions(None, 10, True, 0, 0, 0, True), reader._Regions)  # tags only
    assert isinstance(reader._regions(None, 10, reader._Mode(False), 0, 0, 0, True), reader._Regions)
    assert isinstance(_python_regions(None, 10, False, 0, 0, 0, True), reader._Regions)


_GAME = b'[Event "e"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 1-0\n'


@pytest.mark.parametrize(
    "text",
    [
        b"",
        b"\n\n",
        _GAME * 3,
        _GAME + b"\n" + _GAME,
        _GAME.replace(b"\n", b"\r\n") * 2,
        b"% escape\n\n" + _GAME + b"1. d4 *\n\n" + _GAME,  # text between games, a game without tags
        _GAME + b"\n\ngarbage after\n" + _GAME,
        b"\xef\xbb\xbf" + _GAME + b"\xef\xbb\xbf" + _GAME,  # byte order marks (cat of two files)
        _GAME + b"\n\xff\xfe[\x00",  # a UTF-16 text after a game
        b"1. e4 e5 *\n\n\n1. d4 *",  # no tags, no final newline
        _GAME + b"[Event",  # a tag line cut at the end
    ],
)
def test_crafted_texts_split_alike(text: bytes) -> None:
    for sizes in ([reader.BLOCK], [1], [3, 7], [64]):
        _both(text, sizes)


def test_a_game_past_the_cap_splits_alike() -> None:
    big = b'[Event "big"]\n\n1. e4 {' + b"x" * 500 + b"} e5 1-0\n\n"
    for cap in (10, 40, 100, 600):
        got = _both(big + _GAME + big + b"   \n\n" + _GAME, [37], cap)
        assert any(item[0] == "game" and item[7] for item in got) == (cap < 600)  # oversized


def test_endless_text_stops_alike() -> None:
    got = _both(_GAME + b"y\n" * 5000, [100], cap=64, limit=300)
    assert got[-1][0] == "failure"


_PIECES = [
    b'[Event "x"]\n',
    b'[Result "1-0"]\n',
    b"[Bad\n",
    b"\n",
    b"\r\n",
    b"\n\n",
    b"  \t",
    b"1. e4 e5 ",
    b"1-0",
    b"0-1",
    b"1/2-1/2",
    b"*",
    b"% esc\n",
    b"{c}",
    b"\xef\xbb\xbf",
    b"\xff\xfe",
    b"\r",
    b"x",
    b"[",
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.sampled_from(_PIECES), max_size=60).map(b"".join),
    st.lists(st.integers(1, 50), min_size=1, max_size=6),
    st.sampled_from([reader.DEFAULT_MAX_GAME_BYTES, 8, 30, 100]),
)
def test_generated_texts_split_alike(text: bytes, sizes: list[int], cap: int) -> None:
    _both(text, sizes, cap)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=400), st.lists(st.integers(1, 50), min_size=1, max_size=4))
def test_any_bytes_split_alike(data: bytes, sizes: list[int]) -> None:
    _both(data, sizes, 64, 128)


def test_a_panic_in_the_core_leaves_the_rest_to_python(monkeypatch: pytest.MonkeyPatch) -> None:
    """The core's region fails part-way (here: its third call, inside a game): that region and
    the rest of the input are split by the Python twin, from the state the core had."""
    core = compiled.core_module()
    text = (_GAME + b"1. d4 {" + b"z" * 40 + b"} *\n\n") * 6
    expected = _split(text, [29], reader.DEFAULT_MAX_GAME_BYTES, None, python=True)
    calls = 0
    real = reader._CoreRegions.region

    def failing(self: Any, region: bytes, cur: int, base: int) -> Any:
        nonlocal calls
        calls += 1
        if calls == 3:
            raise core.CorePanic("injected")
        return real(self, region, cur, base)

    monkeypatch.setattr(reader._CoreRegions, "region", failing)
    assert _split(text, [29], reader.DEFAULT_MAX_GAME_BYTES, None, python=False) == expected
    assert calls == 3  # the rest went to Python


def _corpus_texts() -> list[tuple[str, bytes]]:
    """Every PGN file of the corpus (its first megabyte; compressed ones decompressed)."""
    import bz2
    import gzip

    texts = []
    for path in sorted(CORPUS.glob("**/*.pgn*")):
        opener: Any = {".gz": gzip.open, ".bz2": bz2.open}.get(path.suffix, open)
        if path.suffix not in (".pgn", ".gz", ".bz2"):
            continue
        with opener(path, "rb") as handle:
            texts.append((str(path), handle.read(1 << 20)))
    return texts


@pytest.mark.skipif(not CORPUS.exists(), reason="the shared corpus (../shared/corpus) is absent")
def test_corpus_files_split_alike() -> None:
    texts = _corpus_texts()
    assert len(texts) > 100
    for _, data in texts:
        _both(data)
    for _, data in texts[::10]:  # another block size: regions end elsewhere
        _both(data[:200_000], [4096 + 7])
