"""Atomic output: a failed write leaves the old file and no temporary file behind."""

from __future__ import annotations

from pathlib import Path

import pytest

from notation.cli.atomic import write_text_atomic, write_with_atomic


def test_write_text_atomic_replaces_whole_file(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    target.write_text("old", encoding="utf-8")
    write_text_atomic(target, "new\n")
    assert target.read_text(encoding="utf-8") == "new\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


def test_failed_write_keeps_old_file_and_no_temp(tmp_path: Path) -> None:
    target = tmp_path / "out.parquet"
    target.write_text("old", encoding="utf-8")

    def broken_writer(path: Path) -> None:
        path.write_text("half", encoding="utf-8")
        raise RuntimeError("disk full")

    with pytest.raises(OSError, match="disk full") as caught:  # a library's own error, as an OSError
        write_with_atomic(target, broken_writer)
    assert isinstance(caught.value.__cause__, RuntimeError)
    assert target.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.parquet"]


@pytest.mark.parametrize("umask", [0o022, 0o077, 0o002])
def test_files_honour_the_umask(tmp_path: Path, umask: int) -> None:
    import os
    import stat

    old = os.umask(umask)
    try:
        write_text_atomic(tmp_path / "a.html", "<p>shared</p>")
        write_with_atomic(tmp_path / "b.csv", lambda path: path.write_text("x", encoding="utf-8"))
    finally:
        os.umask(old)
    for name in ("a.html", "b.csv"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o666 & ~umask
