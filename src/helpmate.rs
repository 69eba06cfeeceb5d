//! "This side can still mate", proved by playing a helpmate: the cheap sufficient condition the
//! dead-position verdict ([`crate::dead`]) tries before the full search.
//!
//! # Why a found line is a proof
//!
//! A side *can mate* (FIDE 5.2.2, 6.9) when **some** sequence of legal moves from the position,
//! the opponent cooperating, ends with that side checkmating. So one such sequence is a complete
//! proof, and nothing else is needed: [`mate_found`] answers `true` only after it has played a
//! line move by move, each move taken from the legal moves `cozy_chess` generates for the
//! position it is played in (the generator this crate's replay uses, perft-exact), and the last
//! position has the opponent to move, in check, with no legal move: checkmate given by the side
//! asked about. Every position in between is reached by legal play, so the rules of play (pins,
//! checks, castling through attacked squares, en passant) are the generator's, not this
//! module's. Nothing static is assumed about the position: pawn walls, trapped pieces and forced
//! lines (the dead cases) cannot produce a false "can mate", because in a position where the side
//! cannot mate no line of legal moves ends in its checkmate, so none is found. `false` proves
//! nothing (the walk is bounded): the caller then runs the full search, so the verdict is the one
//! the full search alone would give wherever that search finds a mate, and no position is called
//! winnable that the search would call unwinnable (which would need a legal mating line, found
//! here, that the search proved not to exist).
//!
//! # How the line is looked for
//!
//! Cheaply, by the progress rules of the first phase of M. Ambrona's helpmate search (the MIT
//! crate `chasolver`, FUN 2022), which finds most lines of ordinary positions: a depth-first walk
//! that follows *progress* moves (for the side that mates: pawn moves, captures, its king
//! towards the mating corner and its knights towards the square they mate from; for the other
//! side: its king into the corner and its knights towards the square beside it), allowing one
//! move without progress after each move of progress; every other move of the side that mates is
//! only tried as a mate in one. Where the search runs the move and then generates all the moves
//! of the position after it, this walk tests such a leaf only when the move gives check, and on
//! this crate's own board; a position reached again by moves in another order is not walked
//! again. The walk is bounded by [`WALK_NODES`] moves looked at and 128 plies.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

use cozy_chess::{BitBoard, Board, Color, File, Move, Piece, PieceMoves, Rank, Square};

/// Moves a walk may look at (each candidate move counts once). Chosen by callgrind's instruction
/// counts on the final positions of the 2,027 decisive games not ended by mate among the first
/// 3,000 of the shared Lichess file, the walk, then the full search where it finds nothing (the
/// full search alone: 929 M instructions): 4,000 moves find a mate for 1,574 winners (489 M in
/// all), 8,000 for 1,582 (467 M, the least), 16,000 for 1,583 (486 M).
pub const WALK_NODES: u32 = 8000;

/// The order promotions are tried in.
const PROMOTIONS: [Piece; 4] = [Piece::Queen, Piece::Knight, Piece::Rook, Piece::Bishop];

/// The longest line a walk plays.
const MAX_PLIES: u32 = 128;

/// Whether a helpmate by `winner` was found (and so proved to exist) within `limit` moves looked at.
pub fn mate_found(board: &Board, winner: Color, limit: u32) -> bool {
    let mut walk = Walk {
        winner,
        nodes: 0,
        limit,
        targets: Targets::of(board, winner),
        seen: HashSet::with_capacity_and_hasher(256, BuildHasherDefault::default()),
    };
    walk.node(board, false, 0)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Step {
    /// Progress: the walk goes on from the position after it.
    Progress,
    /// No progress: gone on from only right after a move of progress.
    Plain,
    /// A capture by the side to be mated (it takes away material the mate may need): never gone
    /// on from.
    Spoils,
}

/// The squares the pieces head for: the mating corner on the mated side's back rank (the one
/// of the mating side's bishops' colour, so that a bishop can cover it), the mated king into
/// it, the mating king one square diagonally in front of it, its knights three squares along
/// that diagonal, the mated side's knights beside the corner.
struct Targets {
    winner_king: Square,
    winner_knight: Square,
    loser_king: Square,
    loser_knight: Square,
}

impl Targets {
    fn of(board: &Board, winner: Color) -> Self {
        let back = if winner == Color::White {
            Rank::Eighth
        } else {
            Rank::First
        };
        let h_corner = Square::new(File::H, back);
        let h_colour = if (h_corner.bitboard() & BitBoard::DARK_SQUARES).is_empty() {
            BitBoard::LIGHT_SQUARES
        } else {
            BitBoard::DARK_SQUARES
        };
        let bishops = board.pieces(Piece::Bishop);
        let mine = bishops & board.colors(winner);
        let theirs = bishops & board.colors(!winner);
        let h_side =
            !(mine & h_colour).is_empty() || (mine.is_empty() && !(theirs & !h_colour).is_empty());
        let corner = if h_side {
            h_corner
        } else {
            Square::new(File::A, back)
        };
        let df: i8 = if h_side { -1 } else { 1 };
        let dr: i8 = if back == Rank::Eighth { -1 } else { 1 };
        Targets {
            winner_king: corner.offset(df, dr),
            winner_knight: corner.offset(3 * df, 3 * dr),
            loser_king: corner,
            loser_knight: corner.offset(df, 0),
        }
    }
}

struct Walk {
    winner: Color,
    nodes: u32,
    limit: u32,
    targets: Targets,
    /// Positions already gone on from (their key, and whether a move of progress led there):
    /// the same position reached by moves in another order is not walked again.
    seen: HashSet<u64, BuildHasherDefault<KeyHasher>>,
}

/// The position keys are Zobrist keys already: hashed as they are.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

impl Walk {
    /// Whether a mate is found from `board`; `progress`: the move that led here made progress.
    fn node(&mut self, board: &Board, progress: bool, ply: u32) -> bool {
        if !self.seen.insert(board.hash() ^ u64::from(progress)) {
            return false;
        }
        // the generator's sets of moves (one per piece; at most 18), unpacked as they are tried
        let mut sets: [Option<PieceMoves>; 18] = [None; 18];
        let mut count = 0;
        board.generate_moves(|set| {
            sets[count] = Some(set);
            count += 1;
            false
        });
        if count == 0 {
            return board.side_to_move() != self.winner && !board.checkers().is_empty();
        }
        if cannot_mate_by_material(board, self.winner) || ply >= MAX_PLIES {
            return false;
        }
        for set in sets.iter().take(count).flatten() {
            for to in set.to {
                let last_rank = matches!(to.rank(), Rank::First | Rank::Eighth);
                if set.piece == Piece::Pawn && last_rank {
                    // a queen first (the generator gives a knight first)
                    for promotion in PROMOTIONS {
                        let mv = Move {
                            from: set.from,
                            to,
                            promotion: Some(promotion),
                        };
                        if let Some(found) = self.try_move(board, mv, set.piece, progress, ply) {
                            return found;
                        }
                    }
                } else {
                    let mv = Move {
                        from: set.from,
                        to,
                        promotion: None,
                    };
                    if let Some(found) = self.try_move(board, mv, set.piece, progress, ply) {
                        return found;
                    }
                }
            }
        }
        false
    }

    /// One move of the position `board`: Some(true) a mate found, Some(false) the walk is over
    /// (out of moves to look at), None go on with the next move.
    fn try_move(
        &mut self,
        board: &Board,
        mv: Move,
        piece: Piece,
        progress: bool,
        ply: u32,
    ) -> Option<bool> {
        self.nodes += 1;
        if self.nodes > self.limit {
            return Some(false);
        }
        let step = self.step(board, mv, piece);
        if step == Step::Progress || (step == Step::Plain && progress) {
            let mut after = board.clone();
            after.play_unchecked(mv);
            if self.node(&after, step == Step::Progress, ply + 1) {
                return Some(true);
            }
            if self.nodes > self.limit {
                return Some(false);
            }
        } else if board.side_to_move() == self.winner && checks_directly(board, mv, piece) {
            // only a mate in one can come of it: tried when the moved piece gives check (a
            // discovered check is not looked for: the walk may miss a line, never invent one)
            let mut after = board.clone();
            after.play_unchecked(mv);
            if !after.checkers().is_empty() && !has_moves(&after) {
                return Some(true);
            }
        }
        None
    }

    fn step(&self, board: &Board, mv: Move, piece: Piece) -> Step {
        let mover = board.side_to_move();
        let captures = board.color_on(mv.to) == Some(!mover);
        let (king, knight) = if mover == self.winner {
            if piece == Piece::Pawn || captures {
                return Step::Progress;
            }
            (self.targets.winner_king, self.targets.winner_knight)
        } else {
            (self.targets.loser_king, self.targets.loser_knight)
        };
        let closer = match piece {
            // castling is encoded as the king taking its own rook: never counted as approach
            Piece::King => {
                board.color_on(mv.to) != Some(mover)
                    && king_distance(mv.to, king) < king_distance(mv.from, king)
            }
            Piece::Knight => knight_distance(mv.to, knight) < knight_distance(mv.from, knight),
            _ => false,
        };
        if closer {
            Step::Progress
        } else if mover != self.winner && captures {
            Step::Spoils
        } else {
            Step::Plain
        }
    }
}

/// Whether the piece `mv` moves attacks the opponent's king from where it lands (the board
/// as it will be without the piece on its square; a capture leaves the king's lines as they
/// were beyond the square taken).
fn checks_directly(board: &Board, mv: Move, moved: Piece) -> bool {
    let mover = board.side_to_move();
    let king = board.king(!mover);
    let occupied = board.occupied() ^ mv.from.bitboard();
    let piece = mv.promotion.unwrap_or(moved);
    let from_king = match piece {
        Piece::Pawn => cozy_chess::get_pawn_attacks(king, !mover),
        Piece::Knight => cozy_chess::get_knight_moves(king),
        Piece::Bishop => cozy_chess::get_bishop_moves(king, occupied),
        Piece::Rook => cozy_chess::get_rook_moves(king, occupied),
        Piece::Queen => {
            cozy_chess::get_bishop_moves(king, occupied)
                | cozy_chess::get_rook_moves(king, occupied)
        }
        Piece::King => BitBoard::EMPTY,
    };
    from_king.has(mv.to)
}

fn has_moves(board: &Board) -> bool {
    board.generate_moves(|_| true)
}

/// Material with which `winner` can never mate (the walk stops there; a pruning only, it
/// decides nothing): a bare king; king and knight against a king with at most queens; king and
/// bishops when every bishop on the board stands on one colour and there are no knights or pawns.
fn cannot_mate_by_material(board: &Board, winner: Color) -> bool {
    let mine = board.colors(winner);
    let theirs = board.colors(!winner);
    if mine.len() == 1 {
        return true;
    }
    let minors = board.pieces(Piece::Knight) | board.pieces(Piece::Bishop);
    if mine.len() == 2
        && !(mine & board.pieces(Piece::Knight)).is_empty()
        && (theirs & (minors | board.pieces(Piece::Rook) | board.pieces(Piece::Pawn))).is_empty()
    {
        return true;
    }
    let bishops = board.pieces(Piece::Bishop);
    let my_bishops = mine & bishops;
    if !my_bishops.is_empty() && mine.len() == my_bishops.len() + 1 {
        let colour = if (my_bishops & BitBoard::DARK_SQUARES).is_empty() {
            BitBoard::LIGHT_SQUARES
        } else {
            BitBoard::DARK_SQUARES
        };
        return (bishops & !colour).is_empty()
            && board.pieces(Piece::Knight).is_empty()
            && board.pieces(Piece::Pawn).is_empty();
    }
    false
}

fn king_distance(a: Square, b: Square) -> u8 {
    let files = (a.file() as i8 - b.file() as i8).unsigned_abs();
    let ranks = (a.rank() as i8 - b.rank() as i8).unsigned_abs();
    files.max(ranks)
}

/// Knight moves between two squares on an empty board.
fn knight_distance(a: Square, b: Square) -> u8 {
    static TABLE: OnceLock<Box<[[u8; 64]; 64]>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut table = Box::new([[u8::MAX; 64]; 64]);
        for start in Square::ALL {
            let row = &mut table[start as usize];
            row[start as usize] = 0;
            let mut frontier = vec![start];
            let mut distance = 0;
            while !frontier.is_empty() {
                distance += 1;
                let mut next = Vec::new();
                for square in frontier {
                    for to in cozy_chess::get_knight_moves(square) {
                        if row[to as usize] == u8::MAX {
                            row[to as usize] = distance;
                            next.push(to);
                        }
                    }
                }
                frontier = next;
            }
        }
        table
    });
    table[a as usize][b as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(fen: &str) -> Board {
        Board::from_fen(fen, false).unwrap()
    }

    #[test]
    fn a_queen_mates_a_bare_king() {
        assert!(mate_found(
            &board("8/8/4k3/8/8/2KQ4/8/8 w - - 0 1"),
            Color::White,
            WALK_NODES
        ));
        assert!(!mate_found(
            &board("8/8/4k3/8/8/2KQ4/8/8 w - - 0 1"),
            Color::Black,
            WALK_NODES
        ));
    }

    #[test]
    fn never_a_mate_where_none_exists() {
        // a locked pawn wall (Black cannot mate), a knight alone, a stalemate
        for (fen, side) in [
            (
                "5b2/p7/Pp3k2/1Pp1pBp1/2P1P1P1/5K2/8/8 w - - 0 1",
                Color::Black,
            ),
            ("8/8/4k3/8/8/2KN4/8/8 b - - 0 1", Color::White),
            ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", Color::White),
            ("k7/8/p1p1p1p1/P1P1P1P1/8/8/8/K7 w - - 0 1", Color::White),
        ] {
            assert!(!mate_found(&board(fen), side, 200_000), "{fen}");
        }
    }

    /// On the labelled positions of the shared corpus (when present), the walk never finds a
    /// mate for a side labelled unable to mate, and wherever it finds one the full search finds
    /// one too (a sample here: the full search is slow in a debug build; the whole file is
    /// checked through the release core by `tests/validation/test_dead_positions.py`).
    #[test]
    fn the_walk_against_the_labelled_positions_and_the_search() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../shared/corpus/unwinnable/chasolver-positions.txt");
        let Ok(text) = std::fs::read_to_string(path) else {
            return; // the shared corpus is not beside this checkout
        };
        let (mut walked, mut found) = (0, 0);
        for line in text.lines().filter(|l| !l.starts_with('#') && l.len() > 3) {
            let (label, fen) = line.split_at(2);
            let fen = fen.trim();
            let fen = if fen.split_whitespace().count() < 6 {
                format!("{fen} 0 1")
            } else {
                fen.to_string()
            };
            let Ok(b) = Board::from_fen(&fen, false) else {
                continue;
            };
            for (i, side) in Color::ALL.into_iter().enumerate() {
                let can = label.as_bytes()[i] != b'-';
                let walk = mate_found(&b, side, WALK_NODES);
                assert!(
                    !walk || can,
                    "{fen} {side:?}: a mate found for a side that cannot mate"
                );
                walked += 1;
                if walk && walked % 25 == 0 {
                    assert_eq!(
                        crate::dead::full_search(&b, side),
                        Some(true),
                        "{fen} {side:?}"
                    );
                }
                found += walk as u32;
            }
        }
        assert!(walked > 6_000 && found > 1_000, "{walked} {found}");
    }

    #[test]
    fn knight_distances() {
        assert_eq!(knight_distance(Square::A1, Square::A1), 0);
        assert_eq!(knight_distance(Square::A1, Square::B3), 1);
        assert_eq!(knight_distance(Square::A1, Square::B2), 4);
        assert_eq!(knight_distance(Square::A1, Square::H8), 6);
    }
}
