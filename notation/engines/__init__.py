"""Chess engines the toolkit can consult: :mod:`notation.engines.uci`, a small client for any
engine that speaks the Universal Chess Interface (Stockfish, say)."""
