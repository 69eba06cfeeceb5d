"""The rules of chess (FIDE Laws 1-5, 9, 10): squares and bitboards, attack tables, Zobrist keys,
moves, immutable positions and perft. No text formats live here (see ``notation.formats``)."""
