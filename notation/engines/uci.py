"""A small client for chess engines that speak the Universal Chess Interface (UCI).

:class:`UciEngine` starts the engine program (no shell), says ``uci`` and waits for ``uciok``,
then ``isready`` / ``readyok``; :meth:`UciEngine.scores` sets up a position (``position fen …``)
and searches only the given moves (``go movetime N`` or ``go nodes N`` with ``searchmoves`` and
one principal variation per move, ``MultiPV``), reading each move's ``info … score cp|mate …``.
A move the engine leaves without a score of its own (an engine without ``MultiPV``) is searched
from the position after it, and its score negated. The engine is always stopped: ``quit`` when
the client is closed (it is a context manager), killed when it does not exit at once.

Every wait has a deadline: an engine that does not start, is no UCI engine, stops answering or
dies raises :class:`EngineError`, whose message says which (the process is then killed). The
client never prints.
"""

from __future__ import annotations

import queue
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import TracebackType

#: Centipawns standing for a mate: a mate in ``n`` plies scores ``MATE_SCORE - n`` (negated for
#: the side being mated), above any material count.
MATE_SCORE = 100_000
#: Seconds an engine has to answer ``uci`` and ``isready`` when it starts.
STARTUP_TIMEOUT = 5.0
#: Seconds beyond a search's own limit before the engine counts as not answering.
GRACE = 2.0
#: Seconds a ``quit`` engine has to exit before it is killed.
QUIT_TIMEOUT = 1.0


class EngineError(Exception):
    """The engine cannot be used: it did not start, is no UCI engine, did not answer in time or
    died. ``str(error)`` says which, in words for the user."""


@dataclass(frozen=True, slots=True)
class Score:
    """A move's score for the side that plays it, in centipawns (a mate in ``mate`` plies or
    moves, as the engine counts: ``cp`` is ``±(MATE_SCORE - |mate|)``), at search ``depth``."""

    cp: int
    mate: int | None = None
    depth: int = 0


@dataclass(frozen=True, slots=True)
class Info:
    """What one ``info`` line says of a principal variation (None: not said)."""

    multipv: int
    score: Score | None
    bound: bool  # a lowerbound/upperbound score (not exact)
    move: str | None  # the variation's first move


def parse_info(line: str) -> Info | None:
    """The principal-variation facts of one engine output line (None: no ``info`` line with a
    score)."""
    words = line.split()
    if not words or words[0] != "info" or "score" not in words:
        return None
    multipv = 1
    depth = 0
    cp: int | None = None
    mate: int | None = None
    bound = False
    move: str | None = None
    i = 1
    try:
        while i < len(words):
            word = words[i]
            if word == "multipv":
                multipv = int(words[i + 1])
                i += 2
            elif word == "depth":
                depth = int(words[i + 1])
                i += 2
            elif word == "score":
                kind, value = words[i + 1], int(words[i + 2])
                if kind == "cp":
                    cp = value
                elif kind == "mate":
                    mate = value
                    cp = MATE_SCORE - abs(value) if value > 0 else -(MATE_SCORE - abs(value))
                i += 3
            elif word in ("lowerbound", "upperbound"):
                bound = True
                i += 1
            elif word == "pv":
                move = words[i + 1] if i + 1 < len(words) else None
                break
            elif word == "string":
                break  # free text to the end of the line
            else:
                i += 1
    except (IndexError, ValueError):
        return None
    if cp is None:
        return None
    return Info(multipv, Score(cp, mate, depth), bound, move)


class UciEngine:
    """A running UCI engine (see the module docstring). Use it as a context manager::

        with UciEngine("/usr/games/stockfish") as engine:
            engine.scores(fen, ["g1f3", "b1c3"], movetime=0.1)

    Raises :class:`EngineError` when the program cannot be started or does not complete the
    UCI handshake within ``startup_timeout`` seconds (the process is killed).
    """

    def __init__(self, path: str, *, startup_timeout: float = STARTUP_TIMEOUT) -> None:
        self.path = path
        self.name: str | None = None
        self.options: set[str] = set()
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._ended = False
        self._multipv = 1
        self._chess960 = False
        try:
            self._process: subprocess.Popen[str] = subprocess.Popen(
                [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                text=True, encoding="utf-8", errors="replace", bufsize=1)
        except OSError as exc:
            raise EngineError(f"cannot start the engine {path}: {exc.strerror or exc}") from None
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        try:
            self._send("uci")
            for line in self._until(lambda w: w == ["uciok"], time.monotonic() + startup_timeout, "uci"):
                words = line.split()
                if words[:2] == ["id", "name"]:
                    self.name = " ".join(words[2:]) or None
                elif words[:2] == ["option", "name"] and "type" in words:
                    self.options.add(" ".join(words[2:words.index("type")]).lower())
            self.ready(startup_timeout)
        except EngineError:
            self.close()
            raise

    # --- plumbing ---------------------------------------------------------------------------

    def _read(self) -> None:
        stdout = self._process.stdout
        assert stdout is not None
        try:
            for line in stdout:
                self._lines.put(line.rstrip("\r\n"))
        except (OSError, ValueError):
            pass
        self._lines.put(None)

    def _send(self, command: str) -> None:
        stdin = self._process.stdin
        if self._ended or stdin is None:
            raise EngineError(f"the engine {self.path} has exited")
        try:
            stdin.write(command + "\n")
            stdin.flush()
        except (OSError, ValueError):
            self._ended = True
            raise EngineError(f"the engine {self.path} has exited; is it a UCI engine?") from None

    def _until(self, done: Callable[[list[str]], bool], deadline: float, what: str) -> list[str]:
        """The engine's lines up to the first for which ``done`` (of its words) is true, that one
        included; :class:`EngineError` when the engine exits first or ``deadline`` passes."""
        lines: list[str] = []
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise EngineError(f"the engine {self.path} did not answer '{what}' in time")
            try:
                line = self._lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                self._ended = True
                raise EngineError(f"the engine {self.path} exited (answering '{what}'); is it a UCI engine?")
            lines.append(line)
            if done(line.split()):
                return lines

    # --- commands ---------------------------------------------------------------------------

    def ready(self, timeout: float = STARTUP_TIMEOUT) -> None:
        """``isready``, waiting for ``readyok``."""
        self._send("isready")
        self._until(lambda w: w == ["readyok"], time.monotonic() + timeout, "isready")

    def set_option(self, name: str, value: str | int | bool) -> None:
        """``setoption name NAME value VALUE`` (booleans as ``true``/``false``), when the engine
        has that option (it is skipped otherwise)."""
        if name.lower() not in self.options:
            return
        text = ("true" if value else "false") if isinstance(value, bool) else str(value)
        self._send(f"setoption name {name} value {text}")

    def search(self, fen: str, *, moves: Sequence[str] = (), searchmoves: Sequence[str] = (),
               movetime: float | None = None, nodes: int | None = None, multipv: int = 1,
               chess960: bool = False) -> dict[str, tuple[Score, bool]]:
        """One search from ``fen`` (after ``moves``, UCI), limited to ``movetime`` seconds and/or
        ``nodes``: the last score the engine gave each first move of a principal variation, and
        whether it was only a bound."""
        if chess960 != self._chess960:
            self.set_option("UCI_Chess960", chess960)
            self._chess960 = chess960
        if multipv != self._multipv and "multipv" in self.options:
            self.set_option("MultiPV", multipv)
            self._multipv = multipv
        self._send(f"position fen {fen}" + (" moves " + " ".join(moves) if moves else ""))
        go = ["go"]
        if nodes is not None:
            go += ["nodes", str(max(1, nodes))]
        if movetime is not None:
            go += ["movetime", str(max(1, round(movetime * 1000)))]
        if nodes is None and movetime is None:
            go += ["depth", "1"]
        if searchmoves:
            go += ["searchmoves", *searchmoves]
        self._send(" ".join(go))
        limit = (movetime or 0.0) + GRACE + (nodes or 0) / 100_000
        try:
            lines = self._until(lambda w: bool(w) and w[0] == "bestmove", time.monotonic() + limit, "go")
        except EngineError:
            if self._ended:
                raise
            self._send("stop")  # not answering in time: stopped, and a last chance to say bestmove
            try:
                lines = self._until(lambda w: bool(w) and w[0] == "bestmove", time.monotonic() + QUIT_TIMEOUT,
                                    "go")
            except EngineError:
                self._ended = True  # no use any more: closing kills it
                raise
        found: dict[str, tuple[Score, bool]] = {}
        for line in lines:
            info = parse_info(line)
            if info is None or info.move is None or info.score is None:
                continue
            known = found.get(info.move)
            if known is None or not info.bound or known[1]:
                found[info.move] = (info.score, info.bound)
        if len(searchmoves) == 1 and not found:
            # an engine that names no variation (the move ends the game, say): its score is the move's
            for line in lines:
                info = parse_info(line)
                if info is not None and info.score is not None:
                    found[searchmoves[0]] = (info.score, info.bound)
        return found

    def scores(self, fen: str, moves: Sequence[str], *, movetime: float | None = None, nodes: int | None = None,
               chess960: bool = False) -> dict[str, Score]:
        """The score of each of ``moves`` (UCI) in the position ``fen`` for the side to move, from
        one search of just those moves (the time or node limit is that search's). A move without
        a score of its own is searched from the position after it (the score negated), at a
        share of the limit."""
        wanted = list(dict.fromkeys(moves))
        if not wanted:
            return {}
        found = self.search(fen, searchmoves=wanted, movetime=movetime, nodes=nodes, multipv=len(wanted),
                            chess960=chess960)
        out = {m: found[m][0] for m in wanted if m in found}
        missing = [m for m in wanted if m not in out]
        for move in missing:
            share = (movetime / len(wanted)) if movetime is not None else None
            reply = self.search(fen, moves=[move], movetime=share,
                                nodes=(nodes // len(wanted)) if nodes is not None else None, chess960=chess960)
            best = max((s for s, _ in reply.values()), key=lambda s: s.cp, default=None)
            if best is None:
                continue
            out[move] = Score(-best.cp, -best.mate if best.mate is not None else None, best.depth)
        return out

    def close(self) -> None:
        """``quit``; the process is killed when it has not exited within :data:`QUIT_TIMEOUT`."""
        process = self._process
        if process.poll() is None:
            try:
                if process.stdin is not None and not self._ended:
                    process.stdin.write("quit\n")
                    process.stdin.flush()
            except (OSError, ValueError):
                pass
            try:
                process.wait(QUIT_TIMEOUT)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self._ended = True
        for stream in (process.stdin, process.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        self._reader.join(QUIT_TIMEOUT)

    @property
    def alive(self) -> bool:
        """True while the engine process runs and answers."""
        return not self._ended and self._process.poll() is None

    def __enter__(self) -> UciEngine:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


__all__ = ["MATE_SCORE", "EngineError", "Info", "Score", "UciEngine", "parse_info"]
