"""Reading hostile input: a source that cannot be read to the end, unreadable folders, and
line ends and encodings that must not change the games.

* Truncated or corrupt compressed data (gzip, bzip2, xz, zstd): the reader yields exactly the
  games that decompressing the readable prefix with Python's own incremental decompressors
  gives, less the last one (cut by the truncation: its end is missing), then one ``size == -1``
  chunk located at that game (number, first line) with a ``pgn.io`` diagnostic. Before, whole
  blocks of decodable games were dropped (gzip, bzip2) or the truncation went unseen (zstd).
* A file named ``.gz`` (etc.) that is neither compressed nor text is a ``pgn.io`` error, not
  games read from its bytes.
* A folder that cannot be listed is reported in its place (:func:`walk_pgn_files`), never
  skipped.
* CR-only (old Mac), LF, CRLF and mixed line ends, and UTF-8/UTF-16/UTF-32 byte order marks,
  give the same games with the same lines, by path, binary handle, text handle and stdin.
"""

from __future__ import annotations

import bz2
import codecs
import gzip
import io
import lzma
import random
import subprocess
import sys
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import zstandard
from conftest import OUTSIDE
from faults_support import deny_folder, pgn_tree

from notation.pgn import reader, sources
from notation.pgn.model import Game
from notation.pgn.chunks import Chunk, RawGame, ReadFailure
from notation.pgn.reader import read_games, read_headers, split_games
from notation.pgn.sources import Unreadable, expand_paths, is_plain_file, walk_pgn_files, wide_encoding

# --- a varied set of games (varied enough that compression does not shrink it to nothing) -------

_MOVES = ["1. e4 e5 2. Nf3 Nc6 3. Bb5 a6", "1. d4 d5 2. c4 e6 3. Nc3 Nf6", "1. c4 e5 2. Nc3 Nf6 3. g3 d5"]


def make_games(count: int, seed: int = 7) -> str:
    """``count`` games with distinct tags and comments (about 200 bytes each)."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        result = rng.choice(["1-0", "0-1", "1/2-1/2"])
        out.append(
            f'[Event "Club {i}"]\n[White "P{rng.randrange(40)}"]\n[Black "Q{rng.randrange(40)}"]\n'
            f'[Result "{result}"]\n[Note "{rng.getrandbits(64):x}"]\n\n'
            f"{rng.choice(_MOVES)} {{eval {rng.random():.3f}}} {result}\n\n"
        )
    return "".join(out)


TEXT = make_games(4000).encode()  # ~800 KB: more than three read blocks

COMPRESSORS: dict[str, Callable[[bytes], bytes]] = {
    "gz": gzip.compress,
    "bz2": bz2.compress,
    "xz": lzma.compress,
    "zst": lambda data: zstandard.ZstdCompressor().compress(data),
}


def decode_prefix(kind: str, data: bytes) -> bytes:
    """What a full incremental decoding of a (truncated) compressed prefix yields (``zcat``)."""
    decoder: Any = {
        "gz": lambda: zlib.decompressobj(16 + zlib.MAX_WBITS),
        "bz2": bz2.BZ2Decompressor,
        "xz": lzma.LZMADecompressor,
        "zst": lambda: zstandard.ZstdDecompressor().decompressobj(),
    }[kind]()
    out: bytes = decoder.decompress(data)
    return out


def chunks(source: Any) -> list[Chunk]:
    return list(split_games(source))


def whole_games(raws: list[RawGame]) -> list[bytes | str]:
    return [r.data for r in raws if isinstance(r, RawGame)]


# --- truncated and corrupt compressed data -----------------------------------------------------


@pytest.mark.parametrize("kind", sorted(COMPRESSORS))
@pytest.mark.parametrize("fraction", [0.002, 0.15, 0.5, 0.83, 0.999])
def test_truncated_compressed_data_keeps_every_whole_game(tmp_path: Path, kind: str, fraction: float) -> None:
    compressed = COMPRESSORS[kind](TEXT)
    cut = compressed[: max(12, int(len(compressed) * fraction))]
    prefix = decode_prefix(kind, cut)
    in_prefix = chunks(io.BytesIO(prefix))  # the prefix read as plain text: its last game is cut
    expected = whole_games(in_prefix)[:-1]

    path = tmp_path / f"cut.pgn.{kind}"
    path.write_bytes(cut)
    for source in (path, io.BytesIO(cut)):
        raws = chunks(source)
        assert whole_games(raws) == expected
        failure = raws[-1]
        assert isinstance(failure, ReadFailure) and len(raws) == len(expected) + 1
        assert failure.number == len(expected) + 1
        assert "truncated" in failure.reason
        if prefix.strip():  # located at the game that was cut: its number and first line
            assert failure.line == in_prefix[-1].line and failure.offset == in_prefix[-1].offset
            assert f"game {failure.number}" in failure.reason

    *games, failed = read_games(path)
    assert len(games) == len(expected) and all(isinstance(g, Game) for g in games)
    assert isinstance(failed, ReadFailure) and failed.kind == "io" and failed.diagnostic.code == "pgn.io"
    assert failed.diagnostic.game == failed.number and failed.diagnostic.file == str(path)
    assert all("pgn.io" not in [d.code for d in g.diagnostics] for g in games)  # type: ignore[union-attr]
    headers = list(read_headers(path))
    assert [h.number for h in headers] == [g.number for g in [*games, failed]]
    assert isinstance(headers[-1], ReadFailure) and headers[-1].diagnostic == failed.diagnostic


def test_truncation_loses_no_block_of_games() -> None:
    """The 1 MiB-block loss: everything ``zcat`` gives (less the cut game) is read."""
    big = make_games(20000, seed=3).encode()  # ~4 MB
    compressed = gzip.compress(big)
    cut = compressed[: len(compressed) * 2 // 3]
    expected = whole_games(chunks(io.BytesIO(decode_prefix("gz", cut))))[:-1]
    assert len(whole_games(chunks(io.BytesIO(cut)))) == len(expected) > 12000


def test_truncated_zstd_at_a_frame_edge_is_seen() -> None:
    """zstd stops silently on a truncated frame: the reader must still see it."""
    frames = b"".join(zstandard.ZstdCompressor().compress(TEXT[i : i + 100_000]) for i in range(0, len(TEXT), 100_000))
    whole = chunks(io.BytesIO(frames))
    assert all(isinstance(r, RawGame) for r in whole) and b"".join(whole_games(whole)) == TEXT  # type: ignore[arg-type]
    raws = chunks(io.BytesIO(frames[:-3]))  # the last frame loses its checksum/last bytes
    assert isinstance(raws[-1], ReadFailure) and "truncated" in raws[-1].reason


@pytest.mark.parametrize("kind", sorted(COMPRESSORS))
def test_corrupt_data_in_the_middle(kind: str) -> None:
    compress = (lambda data: bz2.compress(data, 1)) if kind == "bz2" else COMPRESSORS[kind]  # 100 kB blocks
    compressed = bytearray(compress(TEXT))
    damage = len(compressed) * 3 // 4
    compressed[damage : damage + 64] = bytes(64)  # zeroed bytes
    raws = chunks(io.BytesIO(bytes(compressed)))
    assert isinstance(raws[-1], ReadFailure) and "corrupt" in raws[-1].reason
    got, original = whole_games(raws), whole_games(chunks(io.BytesIO(TEXT)))
    # the games decoded before the damage are read; gzip sees damage only at the member's CRC
    # (what decoded before is read, as zcat shows it): its first games are still the original
    assert len(got) > 1000
    if kind == "gz":
        assert got[:1000] == original[:1000]
    else:
        assert got == original[: len(got)]


def test_concatenated_members_and_padding_read_whole() -> None:
    a, b = TEXT[:300_000], TEXT[300_000:]
    cut = a.rfind(b"[Event ")
    a, b = TEXT[:cut], TEXT[cut:]
    expected = whole_games(chunks(io.BytesIO(TEXT)))
    for data in (
        gzip.compress(a) + gzip.compress(b),
        gzip.compress(a) + bytes(1000) + gzip.compress(b) + bytes(10),
        bz2.compress(a) + bz2.compress(b),
        lzma.compress(a) + lzma.compress(b),
        zstandard.ZstdCompressor().compress(a) + zstandard.ZstdCompressor().compress(b),
    ):
        raws = chunks(io.BytesIO(data))
        assert all(isinstance(r, RawGame) for r in raws) and whole_games(raws) == expected


def test_garbage_after_the_compressed_data_is_reported() -> None:
    raws = chunks(io.BytesIO(gzip.compress(TEXT) + b"this is not gzip"))
    assert isinstance(raws[-1], ReadFailure) and "not gzip data" in raws[-1].reason
    # the data ended cleanly before the garbage: every game is whole, as zcat gives them
    assert len(raws) == TEXT.count(b"[Event ") + 1
    assert whole_games(raws[:-1]) == whole_games(chunks(io.BytesIO(TEXT)))


@pytest.mark.parametrize("suffix", [".pgn.gz", ".pgn.bz2", ".pgn.zst", ".pgn.xz"])
def test_bad_magic_is_an_error_not_games(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"archive{suffix}"
    path.write_bytes(b"PK\x03\x04\x14\x00\x00\x00\x08\x00" + bytes(range(256)) * 4)  # a zip, named .gz
    (raw,) = chunks(path)
    assert isinstance(raw, ReadFailure) and "not " in raw.reason and "50 4b 03 04" in raw.reason
    (failed,) = read_games(path)
    assert (
        isinstance(failed, ReadFailure) and failed.diagnostic.code == "pgn.io" and failed.diagnostic.file == str(path)
    )
    with path.open("rb") as handle:  # a handle with that name too
        assert isinstance(chunks(handle)[0], ReadFailure)


def test_a_misnamed_plain_file_still_reads(tmp_path: Path) -> None:
    path = tmp_path / "plain.pgn.gz"
    path.write_bytes(TEXT[:5000])
    assert whole_games(chunks(path)) == whole_games(chunks(io.BytesIO(TEXT[:5000])))


def test_corrupt_gzip_header_reads_nothing_and_says_so() -> None:
    (raw,) = chunks(io.BytesIO(b"\x1f\x8b\x08garbage and more garbage"))
    assert isinstance(raw, ReadFailure) and raw.line == 0 and "gzip" in raw.reason


class _FailingAfter(io.RawIOBase):
    """A binary stream whose read fails (EIO) after ``limit`` bytes."""

    def __init__(self, data: bytes, limit: int) -> None:
        self._data, self._limit, self._at = data, limit, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self._at >= self._limit:
            raise OSError(5, "Input/output error")
        n = min(len(buffer), self._limit - self._at)
        buffer[:n] = self._data[self._at : self._at + n]
        self._at += n
        return n


def test_an_io_error_in_a_plain_stream_is_located() -> None:
    limit = 300_000
    raws = chunks(io.BufferedReader(_FailingAfter(TEXT, limit), buffer_size=8192))
    expected = whole_games(chunks(io.BytesIO(TEXT[:limit])))[:-1]
    assert whole_games(raws) == expected
    assert isinstance(raws[-1], ReadFailure) and "Input/output error" in raws[-1].reason


@pytest.mark.parametrize("kind", sorted(COMPRESSORS))
def test_an_io_error_in_compressed_data_keeps_what_decoded(kind: str) -> None:
    compressed = COMPRESSORS[kind](TEXT)
    limit = len(compressed) * 3 // 5
    raws = chunks(io.BufferedReader(_FailingAfter(compressed, limit), buffer_size=8192))
    assert whole_games(raws) == whole_games(chunks(io.BytesIO(decode_prefix(kind, compressed[:limit]))))[:-1]
    assert isinstance(raws[-1], ReadFailure) and "Input/output error" in raws[-1].reason


def test_an_io_error_at_a_game_start_cuts_the_game_before() -> None:
    """Nothing says the game before a failure had ended, even at a game's first tag: it is cut."""
    limit = TEXT.index(b"[Event ", 10_000)
    raws = chunks(io.BufferedReader(_FailingAfter(TEXT, limit), buffer_size=8192))
    assert whole_games(raws) == whole_games(chunks(io.BytesIO(TEXT[:limit])))[:-1]
    assert isinstance(raws[-1], ReadFailure) and "inside game" in raws[-1].reason


def test_an_io_error_before_any_game() -> None:
    raws = chunks(io.BufferedReader(_FailingAfter(b"\n\n\n" + TEXT, 3), buffer_size=8192))
    assert len(raws) == 1 and isinstance(raws[0], ReadFailure)
    assert (raws[0].number, raws[0].line) == (1, 4) and "before any game" in raws[0].reason


# --- folders that cannot be read ----------------------------------------------------------------


def test_an_unreadable_subfolder_is_reported_in_place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = pgn_tree(tmp_path)
    deny_folder(monkeypatch, root / "b")
    found = walk_pgn_files(root)
    assert found[0] == root / "a" / "one.pgn"
    assert isinstance(found[1], Unreadable) and found[1].path == root / "b"
    (folder,) = expand_paths([root])
    assert (
        folder.kind == "folder"
        and [str(f) for f in folder.files] == [str(f) for f in found]
        and folder.readable == [root / "a" / "one.pgn"]
    )
    (diag,) = folder.unreadable()
    assert diag.code == "pgn.io" and diag.file == str(root / "b") and "Permission denied" in diag.message
    (raw,) = chunks(found[1])  # read as a source, it reports its error
    assert isinstance(raw, ReadFailure) and raw.file == str(root / "b")


def test_an_unreadable_top_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = pgn_tree(tmp_path)
    deny_folder(monkeypatch, root)
    (only,) = walk_pgn_files(root)
    assert isinstance(only, Unreadable) and only.path == root


def test_the_walk_matches_the_old_search(tmp_path: Path) -> None:
    root = pgn_tree(tmp_path)
    (root / "a" / "notes.txt").write_text("x")
    (root / "c" / "d").mkdir(parents=True)
    (root / "c" / "d" / "x.PGN.GZ").write_bytes(gzip.compress(TEXT[:1000]))
    (root / "link").symlink_to(root / "a")  # a symlinked folder is not entered (as rglob did)
    expected = sorted(
        (p for p in root.rglob("*") if p.is_file() and p.name.lower().endswith(sources.PGN_SUFFIXES)),
        key=lambda p: p.as_posix(),
    )
    assert walk_pgn_files(root) == expected


# --- line ends and encodings ---------------------------------------------------------------------

#: Three games; the second has an illegal move on its second movetext line (a located error).
SMALL = (
    '[Event "Één"]\n[White "Réti"]\n[Black "B"]\n[Result "1-0"]\n\n'
    "1. e4 e5 2. Qh5 Nc6 {a\ncomment over two lines} 3. Bc4 Nf6 4. Qxf7# 1-0\n\n"
    '[Event "Two"]\n[White "Ω"]\n[Black "B"]\n[Result "*"]\n\n1. d4 d5\n2. Ke3 *\n\n'
    '[Event "Three"]\n[Result "0-1"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n'
)

LINE_ENDS: dict[str, Callable[[str], str]] = {
    "lf": lambda t: t,
    "cr": lambda t: t.replace("\n", "\r"),
    "crlf": lambda t: t.replace("\n", "\r\n"),
    "mixed": lambda t: "".join(
        ["\n", "\r", "\r\n"][i % 3] + part if i else part for i, part in enumerate(t.split("\n"))
    ),
}


def signature(games: Any) -> list[tuple[Any, ...]]:
    from notation.validation.replay import replay

    out = []
    for g in games:
        rep = replay(g)
        out.append(
            (
                g.number,
                g.line,
                dict(g.tags),
                g.mainline(),
                g.result,
                [(d.code, d.line) for d in g.diagnostics],
                [(d.code, d.line, d.ply) for d in rep.diagnostics],
            )
        )
    return out


EXPECTED = signature(read_games(io.BytesIO(SMALL.encode())))


def test_the_reference_reading() -> None:
    assert [s[1] for s in EXPECTED] == [1, 9, 17]
    assert EXPECTED[1][6] and EXPECTED[1][6][0][1] == 15  # the illegal 2. Ke3, on its own line
    assert EXPECTED[0][2]["White"] == "Réti" and EXPECTED[1][2]["White"] == "Ω"


def _stdin(data: bytes) -> list[tuple[Any, ...]]:
    code = (
        "import sys, json, notation\n"
        "out = [[g.number, g.line, g.tags.get('Event'), g.tags.get('White'), g.mainline()] for g in notation.read_games('-')]\n"
        "sys.stdout.write(json.dumps(out))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], input=data, capture_output=True, cwd=OUTSIDE, check=True)
    import json

    return [tuple(x) for x in json.loads(done.stdout)]


@pytest.mark.parametrize("ends", sorted(LINE_ENDS))
@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"])
def test_line_ends_and_encodings_give_the_same_games(tmp_path: Path, ends: str, encoding: str) -> None:
    text = LINE_ENDS[ends](SMALL)
    bom = {
        "utf-16-le": codecs.BOM_UTF16_LE,
        "utf-16-be": codecs.BOM_UTF16_BE,
        "utf-32-le": codecs.BOM_UTF32_LE,
        "utf-32-be": codecs.BOM_UTF32_BE,
    }.get(encoding, b"")
    data = bom + text.encode(encoding)
    path = tmp_path / "games.pgn"
    path.write_bytes(data)
    assert signature(read_games(path)) == EXPECTED
    assert signature(read_games(io.BytesIO(data))) == EXPECTED
    text_encoding = {"utf-16-le": "utf-16", "utf-16-be": "utf-16", "utf-32-le": "utf-32", "utf-32-be": "utf-32"}
    with path.open(encoding=text_encoding.get(encoding, encoding)) as handle:  # universal newlines
        assert signature(read_games(handle)) == EXPECTED
    with path.open(encoding=text_encoding.get(encoding, encoding), newline="") as handle:  # as stored
        assert signature(read_games(handle)) == EXPECTED
    assert signature(read_games(io.StringIO(text))) == EXPECTED  # StringIO keeps a lone CR
    gz = tmp_path / "games.pgn.gz"
    gz.write_bytes(gzip.compress(data))
    assert signature(read_games(gz)) == EXPECTED
    assert [h.tags for h in read_headers(path)] == [s[2] for s in EXPECTED]
    if ends in ("cr", "mixed") and encoding in ("utf-8", "utf-16-le"):  # stdin (a subprocess: a few only)
        assert _stdin(data) == [(s[0], s[1], s[2].get("Event"), s[2].get("White"), s[3]) for s in EXPECTED]


@pytest.mark.parametrize("block", [1, 5, 65536])
@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"])
def test_wide_encodings_without_a_byte_order_mark(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, encoding: str, block: int
) -> None:
    """UTF-16/32 written without a BOM (some Windows tools) is told by the NULs of its ASCII start."""
    monkeypatch.setattr(reader, "BLOCK", block)
    data = LINE_ENDS["crlf"](SMALL).encode(encoding)
    path = tmp_path / "games.pgn"
    path.write_bytes(data)
    assert signature(read_games(path)) == EXPECTED
    assert signature(read_games(io.BytesIO(data))) == EXPECTED
    gz = tmp_path / "games.pgn.gz"
    gz.write_bytes(gzip.compress(data))
    assert signature(read_games(gz)) == EXPECTED
    assert not is_plain_file(path)  # byte offsets are not the file's: never read by byte ranges
    assert wide_encoding(data[:16]) == encoding
    assert wide_encoding(SMALL.encode()[:16]) is None


@pytest.mark.parametrize("block", [1, 2, 3, 7, 64])
def test_line_ends_across_read_blocks(monkeypatch: pytest.MonkeyPatch, block: int) -> None:
    """A CR at the end of one block and the LF at the start of the next are one CRLF."""
    monkeypatch.setattr(reader, "BLOCK", block)
    for ends in LINE_ENDS.values():
        text = ends(SMALL)
        assert signature(read_games(io.BytesIO(text.encode()))) == EXPECTED
        assert signature(read_games(io.StringIO(text))) == EXPECTED
        wide = codecs.BOM_UTF16_LE + text.encode("utf-16-le")
        assert signature(read_games(io.BytesIO(wide))) == EXPECTED


def test_crlf_keeps_byte_offsets_and_cr_only_maps_one_to_one() -> None:
    crlf = SMALL.replace("\n", "\r\n").encode()
    for raw in chunks(io.BytesIO(crlf)):
        assert crlf[raw.offset : raw.offset + len(raw.data)] == raw.data  # CRLF is left as it is
    cr = SMALL.replace("\n", "\r").encode()
    lf = SMALL.encode()
    assert [(r.offset, r.data) for r in chunks(io.BytesIO(cr))] == [(r.offset, r.data) for r in chunks(io.BytesIO(lf))]


def test_utf16_text_has_no_encoding_warning() -> None:
    data = codecs.BOM_UTF16_LE + SMALL.encode("utf-16-le")
    games = list(read_games(io.BytesIO(data)))
    assert all(g.encoding == "utf-8" for g in games)
    assert all("pgn.encoding" not in [d.code for d in g.diagnostics] for g in games)


def test_wide_encodings_are_not_plain_files(tmp_path: Path) -> None:
    path = tmp_path / "wide.pgn"
    path.write_bytes(codecs.BOM_UTF16_LE + SMALL.encode("utf-16-le"))
    assert not sources.is_plain_file(path)
    plain = tmp_path / "plain.pgn"
    plain.write_bytes(SMALL.encode())
    assert sources.is_plain_file(plain)


@pytest.mark.parametrize(
    "text", [b"%\n\n[", b'% escape\n  \n\t%x\n[Event "A"]\n\n1. e4 *\n', b'%a\r%b\r\rjunk\r[Event "B"]\r']
)
def test_escape_lines_before_the_first_game_whatever_the_blocks(monkeypatch: pytest.MonkeyPatch, text: bytes) -> None:
    """Blank and ``%`` lines before the first game are skipped line by line: the same game
    (text, line, offset) however the blocks fall (before, one block kept the ``%`` line)."""

    def located(raws: list[Chunk]) -> list[tuple[Any, ...]]:
        return [(r.data, r.number, r.line, r.offset, r.size) if isinstance(r, RawGame) else r for r in raws]

    expected = located(chunks(io.BytesIO(text)))
    assert expected and (
        isinstance(expected[0], ReadFailure) or expected[0][0][:1] not in (b"%", "%")
    )  # a lone '[' is no PGN
    for block in (1, 2, 3, 5):
        monkeypatch.setattr(reader, "BLOCK", block)
        assert located(chunks(io.BytesIO(text))) == expected


def test_a_missing_path_raises_file_not_found(tmp_path: Path) -> None:
    from notation.pgn.reader import read_games, read_headers
    from notation.validation.run import validate

    for read in (read_games, read_headers, validate):
        with pytest.raises(FileNotFoundError):
            next(iter(read(tmp_path / "missing.pgn")))  # type: ignore[operator]


def test_every_argument_is_expanded_one_way(tmp_path: Path) -> None:
    """``-``, a file, a folder, a dataset and a missing path: the one expansion every command uses."""
    root = pgn_tree(tmp_path)
    data = tmp_path / "data"
    (data / "games").mkdir(parents=True)
    given = ["-", str(root / "a" / "one.pgn"), str(root), str(data), str(tmp_path / "nope"), "-"]
    kinds = [item.kind for item in expand_paths(given, dataset=lambda p: (p / "games").is_dir())]
    assert kinds == ["stdin", "file", "folder", "dataset", "missing", "stdin"]
    assert [item.kind for item in expand_paths([str(data)])] == ["folder"]  # no dataset test: a folder
