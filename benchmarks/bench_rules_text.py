"""The pure-Python rules with the text one layer up: perft and FEN round trips, for counting
instructions (``valgrind --tool=callgrind python benchmarks/bench_rules_text.py``); prints the
node counts so that two versions can be compared on the same work."""

try:
    from notation.formats.position import Position
except ImportError:
    from notation.rules.position import Position
from notation.rules.perft import perft

pos = Position.from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
print(perft(pos, 2), perft(Position.initial(), 3))
for _ in range(200):
    Position.from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").fen()
