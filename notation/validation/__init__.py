"""Validation: replay (the only place notation becomes moves), game-level checks and the
per-game reports of ``notation validate``."""
