"""The commands of ``notation`` as its top-level help lists them: their names and modules, the
start of each one's help, and ``notation --help`` laid out without the application
(:func:`top_help`), which :func:`notation.cli.main.run` prints without importing Typer."""

from __future__ import annotations

#: What ``notation --help`` says the tool is.
HELP = (
    "Chess game scores: validate PGN against the FIDE Laws, import to Polars/Parquet, "
    "compute standings and the club ledger, reconstruct scoresheets."
)

#: The commands, by name, in the order ``notation --help`` lists them, and the module of each
#: (in :mod:`notation.cli`), whose ``register(app)`` adds it.
COMMANDS: dict[str, str] = {
    "validate": "validate_cmd",
    "import": "import_cmd",
    "stats": "stats_cmd",
    "standings": "standings_cmd",
    "ledger": "ledger_cmd",
    "players": "players_cmd",
    "scoresheet": "scoresheet_cmd",
    "filter": "filter_cmd",
    "convert": "convert_cmd",
    "tree": "tree_cmd",
    "chart": "chart_cmd",
    "board": "board_cmd",  # pictures: charts and board diagrams
}

#: The start of each command's help, as much of it as ``notation --help`` can show on its line
#: (at most 62 characters and "..."); ``tests/cli/test_cli_surface.py`` holds it to the commands'.
SUMMARIES: dict[str, str] = {
    "validate": "Replay every game against the FIDE Laws and report what is wrong, like",
    "import": "Import PGN games into a Parquet dataset: DIR/games and DIR/moves, one",
    "stats": "Statistics over PGN files or imported datasets, computed with Polars",
    "standings": "The final table of a tournament: score (win 1, draw ½, loss 0), crosstable",
    "ledger": "Apply every decisive and drawn game, in date order, to the ledger of",
    "players": "List the spellings of a player's name that look like one person: the",
    "scoresheet": "Reconstruct the game written on a scoresheet (or on both players' sheets):",
    "filter": "Write the games that match every given criterion (in the PGN export",
    "convert": "Re-render games: PGN export format with standard SAN (Ngf3 -> Nf3 where",
    "tree": "The opening explorer: every game of PATH (a PGN file, a folder of PGN",
    "chart": "Draw a chart of games: PGN files, folders of PGN files, or datasets",
    "board": "Draw a board diagram: of a FEN (quote it), or of a game of a PGN file",
}


def version() -> str:
    """The version of ``notation`` (the package's ``__version__``, which ``tests/cli`` holds
    equal to the installed distribution's: reading the metadata would import
    ``importlib.metadata``, about a third of ``notation --version``'s time)."""
    from notation import __version__

    return __version__


def _short(text: str, limit: int) -> str:
    """A command's line in the command list: its help cut to ``limit`` characters the way the
    command-line framework cuts it (``make_default_short_help``: at the first full stop, or at a
    word with "...")."""
    words = text.split()
    total = 0
    for i, word in enumerate(words):
        total += len(word) + (i > 0)
        if total > limit:
            break
        if word[-1] == ".":
            return " ".join(words[: i + 1])
        if total == limit and i != len(words) - 1:
            break
    else:
        return " ".join(words)
    total += len("...")
    while i > 0:
        total -= len(words[i]) + (i > 0)
        if total <= limit:
            break
        i -= 1
    return " ".join(words[:i]) + "..."


def _wrap(text: str, width: int, indent: str) -> list[str]:
    """``text``'s words in lines of at most ``width`` characters, each starting with ``indent``."""
    lines = [indent]
    for word in text.split():
        if lines[-1] == indent:
            lines[-1] += word
        elif len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(indent + word)
    return lines


def _listing(rows: list[tuple[str, str]]) -> list[str]:
    first = max(len(name) for name, _ in rows) + 2
    return [f"  {name:<{first}}{text}" for name, text in rows]


def top_help(columns: int) -> str:
    """What ``notation --help`` prints on a terminal ``columns`` wide, as the whole application
    prints it (laid out as the command-line framework lays out help text, where the command list
    is plain text: ``tests/cli/test_cli_surface.py`` compares the two at many widths), without
    importing Typer or building a command."""
    width = max(min(columns, 80) - 2, 50)
    limit = width - 6 - max(len(name) for name in COMMANDS)
    return "\n".join(
        [
            "Usage: notation [OPTIONS] COMMAND [ARGS]...",
            "",
            *_wrap(HELP, width, "  "),
            "",
            "Options:",
            *_listing([("--version", "Show the version and exit."), ("-h, --help", "Show this message and exit.")]),
            "",
            "Commands:",
            *_listing([(name, _short(SUMMARIES[name], limit)) for name in COMMANDS]),
            "",
        ]
    )
