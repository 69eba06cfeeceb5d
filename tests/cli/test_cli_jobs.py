"""``--jobs N`` on every command that reads games: the output is the same as ``--jobs 1``, ``0``
means one worker per CPU, and no command starts more workers (processes or threads) than there are CPUs."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import OUTSIDE, SAMPLE_GAMES
from terminal_support import CODE

from notation.parallel import CHUNK_GAMES, available_cpus, worker_count

ROUND_ROBIN = SAMPLE_GAMES / "round_robin.pgn"


@pytest.fixture(scope="module")
def several_chunks(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """More games than two chunks hold, with duplicates (the same games again) and a broken game."""
    text = ROUND_ROBIN.read_text(encoding="utf-8")
    copies = 2 * CHUNK_GAMES // text.count("[Event ") + 2
    big = tmp_path_factory.mktemp("jobs") / "many.pgn"
    broken = (SAMPLE_GAMES / "broken.pgn").read_text(encoding="utf-8")
    big.write_text("\n".join([text] * copies + [broken]), encoding="utf-8")
    return big


def _run(args: list[str], cwd: Path) -> tuple[int, str, str]:
    run = subprocess.run([sys.executable, "-c", CODE, *args], cwd=cwd, capture_output=True, timeout=300)
    return run.returncode, hashlib.sha256(run.stdout).hexdigest(), run.stderr.decode()


READERS = {
    "filter": ["filter", "--player", "cedar"],
    "filter-unique": ["filter", "--unique", "--duplicates", "dupes.pgn"],
    "filter-material": ["filter", "--material", "Q*R*:q*r*", "--invert"],
    "convert": ["convert", "--add-tags", "plycount,eco"],
    "convert-epd": ["convert", "--to", "epd"],
    "stats": ["stats", "--format", "json"],
    "standings": ["standings", "--format", "csv"],
    "ledger": ["ledger", "--history", "--format", "csv"],
    "tree": ["tree", "--depth", "3", "--format", "csv"],
    "chart": ["chart", "--kind", "results-eco", "--out", "chart.svg"],
    "validate": ["validate", "--format", "jsonl"],
}


@pytest.mark.parametrize("name", sorted(READERS))
def test_jobs_2_writes_what_jobs_1_writes(name: str, several_chunks: Path, tmp_path: Path) -> None:
    results = []
    for jobs in ("1", "2"):
        folder = tmp_path / jobs
        folder.mkdir()
        code, out, err = _run([*READERS[name], str(several_chunks), "--jobs", jobs], folder)
        files = {p.name: p.read_bytes() for p in sorted(folder.iterdir())}
        results.append((code, out, err.replace(str(folder), "DIR"), files))
        assert "Traceback" not in err, err
    assert results[0] == results[1]


def test_jobs_0_is_one_worker_per_cpu_and_never_more_than_the_cpus() -> None:
    cpus = available_cpus()
    assert worker_count(0) == cpus
    assert worker_count(64) == cpus
    assert worker_count(1) == 1


COUNTED = """
import concurrent.futures, os, sys
os.sched_setaffinity(0, sorted(os.sched_getaffinity(0))[:{cpus}])
started = []
original = concurrent.futures.ProcessPoolExecutor.__init__
def counting(self, max_workers=None, *args, **kwargs):
    started.append(max_workers)
    original(self, max_workers, *args, **kwargs)
concurrent.futures.ProcessPoolExecutor.__init__ = counting
threaded = concurrent.futures.ThreadPoolExecutor.__init__
def counting_threads(self, max_workers=None, *args, **kwargs):
    if kwargs.get("thread_name_prefix", "").startswith("notation"):
        started.append(max_workers)  # (validate's jsonl and text: the core's work in threads)
    threaded(self, max_workers, *args, **kwargs)
concurrent.futures.ThreadPoolExecutor.__init__ = counting_threads
sys.argv = ["notation", *{args!r}]
from notation.cli.main import run
try:
    run()
except SystemExit:
    pass
print("POOLS", started, file=sys.stderr)
"""


@pytest.mark.skipif(not hasattr(__import__("os"), "sched_setaffinity"), reason="needs sched_setaffinity (Linux)")
@pytest.mark.parametrize(
    "args",
    [
        ["validate", str(ROUND_ROBIN), "--jobs", "64"],
        ["filter", str(ROUND_ROBIN), "--jobs", "64"],
        ["stats", str(ROUND_ROBIN), "--jobs", "64", "--by", "result"],
        ["import", str(ROUND_ROBIN), "--out", "OUT", "--jobs", "64"],
        ["import", str(ROUND_ROBIN), "--out", "OUT", "--jobs", "0"],
    ],
)
def test_jobs_64_on_two_cpus_starts_at_most_two_workers(args: list[str], tmp_path: Path) -> None:
    if available_cpus() < 2:
        pytest.skip("needs two CPUs")
    given = [str(tmp_path / "dataset") if a == "OUT" else a for a in args]
    run = subprocess.run(
        [sys.executable, "-c", COUNTED.format(cpus=2, args=given)],
        cwd=OUTSIDE,
        capture_output=True,
        text=True,
        timeout=300,
    )
    line = next(text for text in run.stderr.splitlines() if text.startswith("POOLS "))
    pools = eval(line.removeprefix("POOLS "))  # noqa: S307 - a list of ints printed by the child
    assert pools and all(count <= 2 for count in pools), run.stderr
    assert "Traceback" not in run.stderr, run.stderr
