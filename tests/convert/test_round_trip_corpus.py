"""Round trips on the shared corpus (slow): `convert --to pgn` re-read gives the same games, and
`--to uci` re-read through the UCI reader gives the same moves."""

from __future__ import annotations

import io
from itertools import islice

import pytest
from conftest import corpus_game_files

from notation.convert.normalise import normalise
from notation.convert.render import ConvertOptions, render
from notation.pgn.reader import read_games
from notation.validation.replay import start_position

PER_FILE = 1500


@pytest.mark.slow
def test_pgn_and_uci_round_trips_on_the_corpus() -> None:
    checked = 0
    for path in corpus_game_files():
        for game in islice(read_games(path), PER_FILE):
            new, line = normalise(game)
            if line.start is None:
                continue
            moves = [m.uci() for m in line.moves]
            again = next(read_games(io.StringIO(render(new, line, ConvertOptions()))))
            assert again.tags == new.tags, (path, game.number)
            assert again.moves == new.moves, (path, game.number)
            uci = render(new, line, ConvertOptions(to="uci"))
            pos, _, _, _ = start_position(new.tags)
            assert pos is not None
            played = []
            for word in uci.split("\n\n", 1)[1].split()[:-1]:
                move = pos.parse_uci(word)
                played.append(move.uci())
                pos = pos.play(move)
            assert played == moves, (path, game.number)
            checked += 1
    assert checked > 11_000  # 12,009 on 2026-12-01
