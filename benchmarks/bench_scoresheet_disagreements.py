"""Where the two copies of a real game disagree: the boxes the sheets themselves leave open.

    PYTHONPATH=. python benchmarks/bench_scoresheet_disagreements.py [--corpus ../shared/corpus]

For each game of the shared HCS sheets with two copies (or more) and an answer (``corroborated``), every
ply where both copies have a box, the two boxes name two different legal moves in the answer's
position, and the boxes either side read alike on both copies (not a copy shifted by a box left
out or added): both players wrote a move there, and they wrote different ones. The copies read
together (``--same-game``) then either settle it from the rest of the game (one of the two moves
makes later boxes illegal or costly) or cannot: then the reading flags the move (confidence
below 0.99; a ``--pin`` of either move reads the same rest of the game), and the answer key (the legal game its authors' own beam search found closest to both sheets) is one pick among
two. Printed for each such box: what each copy wrote, the answer, the reading and its
confidence; then the counts. The boxes left open bound what "exact against the answer" can
measure for copies read together: there a reviewer decides (one question each).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> int:
    from notation.formats.position import Position
    from notation.scoresheet.learn import load_hcs
    from notation.scoresheet.reader import read_sheets

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    args = parser.parse_args()
    games = [
        game
        for game in load_hcs(args.corpus / "scoresheets" / "hcs")
        if game.answer and game.corroborated and len(game.copies) >= 2
    ]
    open_boxes = settled = settled_right = open_as_answer = 0
    for game in games:
        answer = game.answer
        assert answer is not None
        positions = [Position.initial()]
        for san in answer:
            positions.append(positions[-1].play_san(san)[1])
        texts = [copy.text() for copy in game.copies]
        reading = None
        for index in range(len(answer)):
            written = [copy.boxes[index] if index < len(copy.boxes) else "?" for copy in game.copies]
            if "?" in written or len(set(written)) < 2:
                continue
            near = [[c.boxes[k] if 0 <= k < len(c.boxes) else "?" for c in game.copies] for k in (index - 1, index + 1)]
            if any(len(set(boxes)) > 1 for boxes in near):
                continue
            afters = []
            for text in written:
                try:
                    afters.append(positions[index].play_san(text)[1].fen())
                except Exception:  # noqa: BLE001 - not a legal move there: not two readings
                    afters.append(None)
            if None in afters or len(set(afters)) < 2:
                continue
            if reading is None:
                reading = read_sheets(texts)
            read = reading.sans[index] if index < len(reading.sans) else None
            confidence = reading.per_move[index].confidence if index < len(reading.per_move) else 0.0
            if confidence >= 0.99:
                settled += 1
                settled_right += read == answer[index]
            else:
                open_boxes += 1
                open_as_answer += read == answer[index]
            print(
                f"{game.game} ply {index + 1}: copies wrote {' and '.join(map(repr, written))}, answer {answer[index]}, "
                f"read {read} at {confidence:.3f}" + ("" if confidence >= 0.99 else ": left open (flagged)")
            )
    print(
        f"{len(games)} two-copy games: {settled + open_boxes} boxes where the copies write two different legal "
        f"moves; {settled} read at 0.99 or more ({settled_right} as the answer), {open_boxes} left open, flagged "
        f"below 0.99 ({open_as_answer} read as the answer's pick)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
