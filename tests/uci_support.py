"""A fake UCI engine for the tests: a small Python program written to a temporary directory
that answers the UCI handshake and gives scripted scores (no real engine needed in CI).

``fake_engine(tmp_path, scores={"g1f3": 30}, mode=...)`` returns the program's path. Each move
searched scores ``scores.get(move, default)`` centipawns; every command received is appended to
``<tmp_path>/fake-engine.log`` (``quit`` included), so a test can see the engine was quit.
``mode``: ``ok``; ``no-multipv`` (no MultiPV option, one variation per search: the client asks
for each move after it); ``die-on-go`` (exits when asked to search); ``hang-on-go`` (never
answers a search, not even ``stop``); ``silent`` (never answers ``uci``); ``exit`` (exits at
once); ``ignore-quit`` (does not exit on ``quit``: it must be killed); ``slow`` (each search
takes its movetime).
"""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

PROGRAM = r"""
import json, sys, time
SCORES = json.loads(__SCORES__)
DEFAULT = __DEFAULT__
MODE = __MODE__
LOG = __LOG__

def log(line):
    with open(LOG, "a", encoding="utf-8") as f:
        f.write(line + "\n")

def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()

if MODE == "exit":
    sys.exit(0)
multipv = 1
after = []
for raw in sys.stdin:
    line = raw.strip()
    log(line)
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        if MODE == "silent":
            continue
        say("id name Fake Engine 1.0")
        say("id author the tests")
        if MODE != "no-multipv":
            say("option name MultiPV type spin default 1 min 1 max 500")
        say("option name UCI_Chess960 type check default false")
        say("uciok")
    elif words[0] == "isready":
        say("readyok")
    elif words[0] == "setoption" and "MultiPV" in words:
        multipv = int(words[-1])
    elif words[0] == "position":
        after = words[words.index("moves") + 1:] if "moves" in words else []
    elif words[0] == "go":
        if MODE == "die-on-go":
            sys.exit(3)
        if MODE == "hang-on-go":
            time.sleep(3600)
        if MODE == "slow" and "movetime" in words:
            time.sleep(int(words[words.index("movetime") + 1]) / 1000)
        moves = words[words.index("searchmoves") + 1:] if "searchmoves" in words else ["a2a3", "h2h3"]
        if after:  # the position after a move: the reply scores minus the move's own
            say("info depth 1 score cp %d pv h7h6" % -SCORES.get(after[-1], DEFAULT))
            say("bestmove h7h6")
            continue
        ranked = sorted(moves, key=lambda m: -SCORES.get(m, DEFAULT))
        shown = ranked[:multipv if MODE != "no-multipv" else 1]
        for k, m in enumerate(shown, 1):
            say("info depth 1 seldepth 1 multipv %d score cp %d upperbound nodes 1 pv %s" % (k, SCORES.get(m, DEFAULT) - 50, m))
        for k, m in enumerate(shown, 1):
            say("info depth 2 seldepth 2 multipv %d score cp %d nodes 20 nps 1000 pv %s e7e5" % (k, SCORES.get(m, DEFAULT), m))
        say("bestmove %s" % ranked[0])
    elif words[0] == "quit":
        if MODE == "ignore-quit":
            time.sleep(3600)
        break
"""


def fake_engine(directory: Path, scores: dict[str, int] | None = None, *, default: int = 0, mode: str = "ok") -> str:
    """Write the fake engine into ``directory`` and return its path (see the module docstring)."""
    log = directory / "fake-engine.log"
    text = (
        PROGRAM.replace("__SCORES__", repr(json.dumps(scores or {})))
        .replace("__DEFAULT__", repr(default))
        .replace("__MODE__", repr(mode))
        .replace("__LOG__", repr(str(log)))
    )
    path = directory / f"fake-engine-{mode}"
    path.write_text(f"#!{sys.executable}\n{text}", encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return os.fspath(path)


def commands(directory: Path) -> list[str]:
    """The commands the fake engine of ``directory`` received, in order."""
    log = directory / "fake-engine.log"
    return log.read_text(encoding="utf-8").splitlines() if log.exists() else []
