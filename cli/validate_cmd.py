"""`notation validate PATH...`: replay every game against the Laws and report like a compiler.

Options → one library call (:func:`notation.validation.run.validate_sources`) → render → exit code:
0 no errors, 1 errors found (or warnings with ``--strict``), 2 usage or I/O failure.

``--max-errors N`` stops reading after the N-th game with errors (the summary says so); all
errors and warnings of the games read are printed. Information (``info[...]``) is printed in text
the first time its code is found; the later findings of that code are counted, and one line per
code closes the listing with the count and the first place (``--verbose`` prints every one; json
and jsonl always carry every one).
"""

from __future__ import annotations

import sys
import time
from contextlib import ExitStack
from enum import Enum
from typing import TYPE_CHECKING, Any

import typer

from notation.cli.render import (
    EXIT_OK,
    EXIT_PROBLEMS,
    EXIT_USAGE,
    diagnostic_line,
    dumps,
    error,
    game_context,
    printable,
)
from notation.cli.progress import reading_progress
from notation.cli.sources import pgn_sources

if TYPE_CHECKING:  # pragma: no cover
    from notation.validation.reports import ReportLine


class OutputFormat(str, Enum):
    text = "text"
    json = "json"
    jsonl = "jsonl"


class Summary:
    """Counts for the closing summary."""

    def __init__(self) -> None:
        self.files: set[str] = set()
        self.games = 0
        self.by_status = {"ok": 0, "warning": 0, "error": 0, "unsupported": 0}
        self.plies = 0
        self.variation_plies = 0
        self.io_failure = False
        self.stopped = False
        self.not_pgn = 0  # texts with no PGN structure: an error each, but no game

    def add(self, report: Any) -> None:
        from notation.validation.reports import report_line

        self.add_line(report_line(report))

    def add_line(self, line: ReportLine) -> None:
        if line.unread:  # a source that could not be read (to the end): counted as no game
            self.io_failure = True
            return
        self.files.add(line.file)
        if line.not_pgn:
            self.not_pgn += 1
            return
        self.games += 1
        self.by_status[line.status] = self.by_status.get(line.status, 0) + 1
        self.plies += line.plies
        self.variation_plies += line.variation_plies
        if line.io_failure:
            self.io_failure = True

    def to_dict(self, elapsed: float) -> dict[str, Any]:
        return {
            "files": len(self.files),
            "games": self.games,
            "ok": self.by_status["ok"],
            "warning": self.by_status["warning"],
            "error": self.by_status["error"],
            "unsupported": self.by_status["unsupported"],
            "not_pgn": self.not_pgn,
            "plies": self.plies,
            "variation_plies": self.variation_plies,
            "stopped_early": self.stopped,
            "elapsed_seconds": round(elapsed, 3),
        }

    def text(self, elapsed: float, max_errors: int) -> list[str]:
        s = self.by_status
        lines = [
            f"games read: {self.games} in {len(self.files)} file{'s' if len(self.files) != 1 else ''} "
            f"(ok {s['ok']}, with warnings {s['warning']}, with errors {s['error']}, "
            f"unsupported {s['unsupported']})" + (f"; not PGN: {self.not_pgn}" if self.not_pgn else ""),
            f"plies replayed: {self.plies} mainline, {self.variation_plies} in variations",
        ]
        if self.stopped:
            lines.append(f"stopped after {max_errors} game{'s' if max_errors != 1 else ''} with errors (--max-errors)")
        rate = f" ({self.games / elapsed:.0f} games/s)" if elapsed > 0 and self.games else ""
        lines.append(f"elapsed: {elapsed:.2f} s{rate}")
        return lines


class InfoTally:
    """The information findings of a text listing: each code's first place and its count."""

    def __init__(self) -> None:
        self.first: dict[str, str] = {}
        self.count: dict[str, int] = {}

    def shows(self, code: str, place: str) -> bool:
        """Count a finding of ``code`` at ``place``; True when it is the code's first (printed)."""
        self.count[code] = self.count.get(code, 0) + 1
        if code in self.first:
            return False
        self.first[code] = place
        return True

    def lines(self) -> list[str]:
        """One line per code found more than once, in the order the codes were first found."""
        return [
            f"info[{code}]: {self.count[code]} findings, the first at {place} (--verbose prints each)"
            for code, place in self.first.items()
            if self.count[code] > 1
        ]


def exit_code(summary: Summary, *, strict: bool) -> int:
    """0 clean, 1 errors (or warnings with --strict), 2 I/O failure."""
    if summary.io_failure:
        return EXIT_USAGE
    if summary.by_status["error"] or summary.not_pgn:
        return EXIT_PROBLEMS
    if strict and summary.by_status["warning"]:
        return EXIT_PROBLEMS
    return EXIT_OK


def pedantic_jsonl_line(report: Any) -> ReportLine:
    """The report's jsonl line (:func:`notation.validation.reports.report_line`) as
    ``--pedantic`` sees it."""
    from notation.validation.reports import pedantic, report_line

    return report_line(pedantic(report))


def run_validate(
    paths: list[str],
    *,
    output: OutputFormat = OutputFormat.text,
    jobs: int = 1,
    strict: bool = False,
    max_errors: int = 0,
    quiet: bool = False,
    pedantic: bool = False,
    verbose: bool = False,
) -> int:
    """The command body; returns the exit code."""
    from notation.validation.reports import pedantic as pedantic_report, report_line
    from notation.parallel import worker_count
    from notation.validation.run import process_pool, uses_processes, validate_sources

    sources, problems = pgn_sources(paths)
    if problems:
        for problem in problems:
            error(problem)
        return EXIT_USAGE
    jobs = worker_count(jobs)  # 0: one per CPU; never more than the CPUs available
    summary = Summary()
    tally = None if verbose else InfoTally()
    collected: list[dict[str, Any]] = []
    started = time.perf_counter()
    out = sys.stdout
    jsonl = output is OutputFormat.jsonl
    # jsonl, and text: each report is rendered in the workers (less to send back), the ordinary
    # games' lines by the core itself (report_line as render); text reads a line back only
    # where it prints a finding
    text = output is OutputFormat.text and not pedantic
    lines = jsonl or text  # what the loop gets: ReportLines, else reports
    if jsonl:
        render: Any = pedantic_jsonl_line if pedantic else report_line
    elif text:
        render = report_line
    else:
        render = pedantic_report if pedantic else None
    pool = ExitStack()
    try:
        # worker processes are forked before the progress display starts its thread
        executor = pool.enter_context(process_pool(jobs)) if uses_processes(jobs, render) else None
        with reading_progress("validating", paths):
            reports = validate_sources(sources, jobs=jobs, executor=executor, render=render)
            try:
                for report in reports:
                    if lines:
                        summary.add_line(report)
                        if jsonl:
                            sys.stdout.write(report.text + "\n")  # (rich may proxy it)
                        else:
                            _print_line(report, quiet=quiet, tally=tally)
                    else:
                        summary.add(report)
                        if output is OutputFormat.json:
                            collected.append(report.to_dict())
                        else:
                            _print_text(report, quiet=quiet, tally=tally)
                    if max_errors and summary.by_status["error"] >= max_errors:
                        summary.stopped = True
                        break
            finally:
                close = getattr(reports, "close", None)
                if close is not None:
                    close()
    except BrokenPipeError:  # the reader of our output went away (`| head`): stop quietly
        import os

        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError, AttributeError):
            pass
        return exit_code(summary, strict=strict)
    except Exception as exc:  # noqa: BLE001 - I/O and decompression failures (OSError, EOFError, zlib...)
        out.flush()
        typer.echo(f"notation validate: error: cannot read input: {type(exc).__name__}: {exc}", err=True)
        summary.io_failure = True
    finally:
        pool.close()
    elapsed = time.perf_counter() - started
    if output is OutputFormat.json:
        out.write(dumps({"games": collected, "summary": summary.to_dict(elapsed)}, pretty=True) + "\n")
    elif output is OutputFormat.text:
        repeated = tally.lines() if tally is not None and not quiet else []
        if repeated:
            out.write("\n".join(repeated) + "\n")
        if summary.games:
            out.write("\n")
        out.write("\n".join(summary.text(elapsed, max_errors)) + "\n")
    out.flush()
    return exit_code(summary, strict=strict)


def _print_line(line: ReportLine, *, quiet: bool, tally: InfoTally | None) -> None:
    """:func:`_print_text` of the report ``line`` holds, read back from its JSON only where a
    finding is printed (an error or warning; information whose code the listing has not shown
    yet, or every one with ``--verbose``); otherwise its information is only counted."""
    codes = line.codes
    if codes == ():
        return
    if codes is not None:
        if quiet:
            return
        if tally is not None and all(code in tally.first for code in codes):
            for code in codes:
                tally.count[code] += 1
            return
    _print_text(_read_back(line), quiet=quiet, tally=tally)


def _read_back(line: ReportLine) -> Any:
    """What :func:`_print_text` reads of a report, from its jsonl line."""
    import json
    from types import SimpleNamespace

    from notation.diagnostics import Diagnostic

    data = json.loads(line.text)
    number = data["game"]
    diagnostics = [
        Diagnostic(
            code=d["code"],
            severity=d["severity"],
            message=d["message"],
            file=line.file,
            game=number,
            line=d["line"],
            column=d["column"],
            ply=d["ply"],
            san=d["san"],
            fen=d.get("fen"),
            candidates=tuple(d.get("candidates", ())),
        )
        for d in data["diagnostics"]
    ]
    return SimpleNamespace(
        game=number, white=data["white"], black=data["black"], diagnostics=diagnostics, start_ply=line.start_ply
    )


def _print_text(report: Any, *, quiet: bool, tally: InfoTally | None) -> None:
    context = game_context(report.game, report.white, report.black)
    lines = [
        diagnostic_line(d, context, report.start_ply)
        for d in report.diagnostics
        if d.severity != "info" or not quiet and (tally is None or tally.shows(d.code, printable(d.place())))
    ]
    if lines:
        sys.stdout.write("\n".join(lines) + "\n")


def register(app: typer.Typer) -> None:
    """Add ``validate`` to ``app``."""

    @app.command("validate")
    def validate_command(
        paths: list[str] = typer.Argument(
            ...,
            metavar="PATH...",
            help="PGN files or directories (searched for .pgn, .pgn.gz, .pgn.bz2, .pgn.zst); '-' reads standard input.",
        ),
        output: OutputFormat = typer.Option(
            OutputFormat.text,
            "--format",
            "-f",
            help="text (compiler style), json (one document) or jsonl (one object per game).",
        ),
        jobs: int = typer.Option(
            1,
            "--jobs",
            "-j",
            min=0,
            help="workers (0 = one per CPU; at most the CPUs available): two share the core in threads for jsonl and text, else processes; output is identical.",
        ),
        strict: bool = typer.Option(False, "--strict", help="exit 1 on warnings too."),
        pedantic: bool = typer.Option(
            False,
            "--pedantic",
            help="check the PGN standard to the letter: a missing Seven Tag Roster tag is a warning, not information.",
        ),
        max_errors: int = typer.Option(
            0, "--max-errors", min=0, help="stop after N games with errors (0 = read everything)."
        ),
        quiet: bool = typer.Option(False, "--quiet", "-q", help="text format: hide information diagnostics."),
        verbose: bool = typer.Option(
            False,
            "--verbose",
            "-v",
            help="text format: print every information diagnostic (by default each "
            "code's first, and a count of the rest).",
        ),
    ) -> None:
        """Replay every game against the FIDE Laws and report what is wrong, like a compiler."""
        code = run_validate(
            paths,
            output=output,
            jobs=jobs,
            strict=strict,
            max_errors=max_errors,
            quiet=quiet,
            pedantic=pedantic,
            verbose=verbose,
        )
        raise typer.Exit(code)
