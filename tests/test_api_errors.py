"""One error contract for the Python API's readers: a wrong argument raises when the reader is
called (or, for a generator, first iterated), the same way everywhere -- a missing path
``FileNotFoundError``, what is neither a path nor an open file ``TypeError``, a closed file
(binary or text) ``ValueError``. Bad data never raises: it is diagnostics."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from notation.pgn.reader import read_games, read_headers
from notation.tables.frames import scan, to_frames
from notation.validation.run import validate

READERS: dict[str, Callable[[Any], object]] = {
    "read_games": lambda source: list(read_games(source)),
    "read_headers": lambda source: list(read_headers(source)),
    "validate": lambda source: list(validate(source)),
    "to_frames": to_frames,
}


def _closed(handle: Any) -> Any:
    handle.close()
    return handle


@pytest.mark.parametrize("reader", sorted(READERS))
@pytest.mark.parametrize(
    ("source", "error"),
    [
        (lambda tmp: str(tmp / "missing.pgn"), FileNotFoundError),
        (lambda tmp: tmp / "missing.pgn", FileNotFoundError),
        (lambda tmp: None, TypeError),
        (lambda tmp: 42, TypeError),
        (lambda tmp: b"games.pgn", TypeError),
        (lambda tmp: _closed(io.BytesIO(b'[Event "x"]\n\n1. e4 *\n')), ValueError),
        (lambda tmp: _closed(io.StringIO('[Event "x"]\n\n1. e4 *\n')), ValueError),
        (lambda tmp: _closed(open(tmp / "g.pgn", "rb")), ValueError),  # noqa: SIM115
        (lambda tmp: _closed(open(tmp / "g.pgn", encoding="utf-8")), ValueError),  # noqa: SIM115
    ],
    ids=[
        "missing-str",
        "missing-path",
        "none",
        "int",
        "bytes",
        "closed-bytesio",
        "closed-stringio",
        "closed-binary-file",
        "closed-text-file",
    ],
)
def test_a_wrong_argument_raises_the_same_error_everywhere(
    tmp_path: Path, reader: str, source: Callable[[Path], Any], error: type[Exception]
) -> None:
    (tmp_path / "g.pgn").write_text('[Event "x"]\n\n1. e4 *\n', encoding="utf-8")
    with pytest.raises(error):
        READERS[reader](source(tmp_path))


@pytest.mark.parametrize(("argument", "error"), [("missing", FileNotFoundError), (None, TypeError), (3, TypeError)])
def test_scan_keeps_the_contract(tmp_path: Path, argument: Any, error: type[Exception]) -> None:
    with pytest.raises(error):
        scan(tmp_path / "missing" if argument == "missing" else argument)


def test_an_open_handle_and_an_existing_path_read(tmp_path: Path) -> None:
    path = tmp_path / "g.pgn"
    path.write_text('[Event "x"]\n\n1. e4 *\n', encoding="utf-8")
    with open(path, encoding="utf-8") as text, open(path, "rb") as binary:
        assert [g.tags["Event"] for g in read_games(text)] == ["x"]
        assert to_frames(binary)[0].height == 1
    assert len(list(validate(path))) == 1
