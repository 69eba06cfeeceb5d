"""Test support: run the command line with one of its streams on a pseudo-terminal.

The other stream goes to a pipe (kept) or nowhere, standard input is empty; the terminal is
``columns`` wide. Returns what the terminal received, line ends as ``\\n``, and the piped text.
"""

from __future__ import annotations

import fcntl
import os
import pty
import struct
import subprocess
import sys
import tempfile
import termios
from pathlib import Path

from conftest import OUTSIDE

CODE = "from notation.cli.main import run; run()"


def through_terminal(
    args: list[str], columns: int, *, terminal: str = "stdout", cwd: Path = OUTSIDE, term: str = "dumb"
) -> tuple[str, str, int]:
    """``(terminal text, piped text, exit code)`` of ``notation ARGS`` with ``terminal`` (stdout or
    stderr) on a pseudo-terminal; the other stream is piped. ``term``: the TERM it says it is
    (rich draws no live display on a ``dumb`` one)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
    env = dict(os.environ, COLUMNS=str(columns), TERM=term, NO_COLOR="1")
    piped = tempfile.TemporaryFile()  # (a pipe could fill up while the terminal is read)
    streams = {"stdout": slave, "stderr": piped} if terminal == "stdout" else {"stdout": piped, "stderr": slave}
    proc = subprocess.Popen([sys.executable, "-c", CODE, *args], cwd=cwd, stdin=subprocess.DEVNULL, env=env, **streams)
    os.close(slave)
    output = drain(master)
    proc.wait(timeout=120)
    piped.seek(0)
    other = piped.read().decode("utf-8")
    piped.close()
    return output.decode("utf-8").replace("\r\n", "\n"), other, proc.returncode


def drain(master: int) -> bytes:
    """Everything a pseudo-terminal's other end wrote, until it closed; ``master`` is closed."""
    chunks: list[bytes] = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(master)
    return b"".join(chunks)
