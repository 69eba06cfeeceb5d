"""Shared fixtures: where the shared corpus is, and skipping cleanly when it is absent."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
SAMPLE_GAMES = ROOT / "sample_games"


def corpus_path(*parts: str) -> Path:
    """A path under ../shared/corpus, skipping the calling test when it is not there."""
    path = CORPUS.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"shared corpus not available: {path} is missing")
    return path


@pytest.fixture
def corpus() -> Path:
    """The root of ../shared/corpus (the test is skipped if absent)."""
    return corpus_path()
