"""`--unique` on the whole shared corpus beside `pgn-extract -D` (slow: run with ``-m slow``).

Recorded on 2026-12-01 (58,310 games read by our reader in the 17 files):

- ours: 57,661 unique, 649 duplicates; pgn-extract -D (on decompressed copies, it reads plain
  PGN only): 57,615 games written.
- Standard and Chess960 games: the same unique games on both sides (compared by start position
  and mainline moves) but one: pgn-extract drops the standard game lichess.org/iuHgTI7b
  (``1. e4 e5 2. Nf3``) as a duplicate of the earlier *King of the Hill* game lichess.org/Ocaf3tzl
  with the same three moves: it ignores the Variant tag; we never call games of two different
  variants duplicates (57,528 unique standard/Chess960 games here, 57,527 there).
- Other variants (Atomic, Crazyhouse, Antichess, King of the Hill: 159 games): we do not play
  them; their identity is the variant and the moves as written (133 unique). pgn-extract plays
  them as standard chess, stops at the first move that standard chess forbids and cannot read
  Crazyhouse drops (``N@f3``), so it keeps 88 of them in other shapes.
"""

from __future__ import annotations

import gzip
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import corpus_game_files

from notation.select.criteria import Criteria, Subject
from notation.pgn.chunks import ReadFailure
from notation.select.run import select
from notation.validation.replay import variant_kind

PGN_EXTRACT = "/usr/games/pgn-extract"


@pytest.mark.slow
def test_unique_on_the_whole_corpus(tmp_path: Path) -> None:
    files = corpus_game_files()
    unique = duplicates = 0
    standard: dict[bytes, str] = {}
    for item in select([str(f) for f in files], Criteria(), unique=True):
        if isinstance(item, ReadFailure):
            continue
        if item.duplicate:
            duplicates += 1
            continue
        unique += 1
        if variant_kind(item.subject.tags) in ("standard", "chess960"):
            standard[item.subject.identity()] = item.subject.tags.get("Site", "")
    assert (unique, duplicates) == (57_661, 649)
    assert len(standard) == 57_528
    if not Path(PGN_EXTRACT).exists():
        pytest.skip("pgn-extract is not installed: the side-by-side half is skipped")
    plain = []
    for index, path in enumerate(files):
        target = tmp_path / f"{index}.pgn"
        with gzip.open(path, "rb") if path.name.endswith(".gz") else open(path, "rb") as src, open(target, "wb") as dst:
            shutil.copyfileobj(src, dst)
        plain.append(str(target))
    out = tmp_path / "theirs.pgn"
    subprocess.run(
        [PGN_EXTRACT, "-D", "--quiet", "-s", "-o", str(out), *plain],
        check=False,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    from notation.pgn.reader import split_games
    from notation.select.run import raw_tags

    theirs: dict[bytes, str] = {}
    count = 0
    for raw in split_games(out):
        count += 1
        subject = Subject(raw, raw_tags(raw))
        if variant_kind(subject.tags) in ("standard", "chess960"):
            theirs[subject.identity()] = subject.tags.get("Site", "")
    assert count == 57_615
    assert set(theirs) <= set(standard)
    assert sorted(standard[k] for k in set(standard) - set(theirs)) == ["https://lichess.org/iuHgTI7b"]
