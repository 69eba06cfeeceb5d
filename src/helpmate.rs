//! "This side can still mate", proved by playing a helpmate: the cheap sufficient condition the
//! dead-position verdict ([`crate::dead`]) tries before any full search.
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
//! cannot mate no line of legal moves ends in its checkmate, so none is found. Which moves are
//! tried, in which order, and how many, only decides how often and how cheaply a line is found,
//! never whether a found line is one: the heuristics below can be changed freely without
//! touching soundness. `false` proves nothing (the walk is bounded): the caller then runs the
//! full search, so the verdict is the one the full search alone would give wherever that search
//! finds a mate, and no position is called winnable that the search would call unwinnable (which
//! would need a legal mating line, found here, that the search proved not to exist).
//!
//! # How the line is looked for
//!
//! Cheaply, by the progress rules of the first phase of M. Ambrona's helpmate search (the MIT
//! crate `chasolver`, FUN 2022), which find most lines of ordinary positions: a depth-first walk
//! that follows *progress* moves (for the side that mates: pawn moves, captures, its king
//! towards the mating corner and its knights towards the square they mate from; for the other
//! side: its king into the corner and its knights towards the square beside it), allowing one
//! move without progress after each move of progress (and at the start: the position handed in
//! usually has the side to be mated to move, its king often already in the corner); every other
//! move of the side that mates is only tried as a mate in one, when it gives check. A move
//! forced at the start (the only legal move) is played whatever it is. A position reached again
//! by moves in another order is not walked again. The side to be mated promotes to a bishop
//! first. Where a walk towards the first corner (the one of the mating side's bishops' colour on
//! the mated side's back rank) finds nothing within [`WALK_NODES`] moves looked at, the walk is
//! tried towards the other three corners, [`CORNER_NODES`] each. Lines are at most 128 plies.
//!
//! The moves of a position are generated piece by piece as they are tried (the walk goes on from
//! the first move of progress, so most positions never need the rest), and sorted into progress,
//! plain and checking moves by a few bitboard operations per piece.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

use cozy_chess::{BitBoard, Board, Color, File, Move, Piece, PieceMoves, Rank, Square};

/// Moves the walk towards the first corner may look at (each candidate move counts once).
/// Chosen by callgrind's instruction counts on the final positions of the 2,027 decisive games
/// not ended by mate among the first 3,000 of the shared Lichess file (a full search, where the
/// walks find nothing, costs 7 to 25 M instructions on what is left): with [`CORNER_NODES`]
/// 8,000, 4,000 moves leave 3 positions to the full search, 8,000 one, 16,000 none.
pub const WALK_NODES: u32 = 12000;

/// Moves each walk towards one of the other three corners may look at.
pub const CORNER_NODES: u32 = 6000;

/// Moves a short walk ([`short_walk_mates`]) may look at (measured: 300, 1,000 and 3,000 cost
/// about the same on the benchmark's games; 1,000 the least).
pub const SHORT_WALK_NODES: u32 = 1000;

/// The order promotions are tried in.
const PROMOTIONS: [Piece; 4] = [Piece::Queen, Piece::Knight, Piece::Rook, Piece::Bishop];

/// The order the side to be mated promotes in: the weakest piece first (a queen of its own
/// mostly stands in the way of the mate).
const LOSER_PROMOTIONS: [Piece; 4] = [Piece::Bishop, Piece::Knight, Piece::Rook, Piece::Queen];

/// At most this many squares for the king to be mated to flee to, and every check of the
/// mating side is tried as a mate in one before the walk goes on (measured: 0 to 3 squares,
/// 2 the cheapest on the decisive games of the benchmark).
const SCAN_ESCAPES: u32 = 2;

/// The longest line a walk plays.
const MAX_PLIES: u32 = 128;

/// Whether a helpmate by `winner` was found (and so proved to exist): walks towards each corner
/// in turn (the first corner's bound [`WALK_NODES`], the others' [`CORNER_NODES`]).
pub fn mate_found(board: &Board, winner: Color) -> bool {
    let first = default_corner(board, winner);
    let corners = [
        first,
        mirror_file(first),
        mirror_rank(first),
        mirror_file(mirror_rank(first)),
    ];
    corners.into_iter().enumerate().any(|(i, corner)| {
        let limit = if i == 0 { WALK_NODES } else { CORNER_NODES };
        walk_towards(board, winner, corner, limit)
    })
}

/// A short walk: towards the first corner only, within [`SHORT_WALK_NODES`] moves looked at
/// (for the walk back to the first dead position, where either side's mate ends the question).
pub fn short_walk_mates(board: &Board, winner: Color) -> bool {
    walk_towards(
        board,
        winner,
        default_corner(board, winner),
        SHORT_WALK_NODES,
    )
}

/// One walk towards `corner`, within `limit` moves looked at.
fn walk_towards(board: &Board, winner: Color, corner: Square, limit: u32) -> bool {
    let mut walk = Walk {
        winner,
        nodes: 0,
        limit,
        targets: Targets::towards(corner),
        seen: HashMap::with_capacity_and_hasher(256, BuildHasherDefault::default()),
    };
    walk.node(board, true, true, 0)
}

fn mirror_file(square: Square) -> Square {
    Square::new(File::index(7 - square.file() as usize), square.rank())
}

fn mirror_rank(square: Square) -> Square {
    Square::new(square.file(), Rank::index(7 - square.rank() as usize))
}

/// The mating corner on the mated side's back rank (the one of the mating side's bishops'
/// colour, so that a bishop can cover it).
fn default_corner(board: &Board, winner: Color) -> Square {
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
    if h_side {
        h_corner
    } else {
        Square::new(File::A, back)
    }
}

/// The squares the pieces head for: the mated king into the corner, the mating king one square
/// diagonally in front of it, its knights three squares along that diagonal, the mated side's
/// knights beside the corner, each with its distances ([`Rings`]).
struct Targets {
    winner_king: &'static Rings,
    winner_knight: &'static Rings,
    loser_king: &'static Rings,
    loser_knight: &'static Rings,
}

/// The distances from one target square, a king's steps or a knight's jumps on an empty board:
/// `within[d]`, the squares at most `d` away, so that the squares on which a piece on `from`
/// comes closer are one lookup.
struct Rings {
    distance: [u8; 64],
    within: [BitBoard; 8],
}

impl Rings {
    /// The rings of every target square, by king distance (`[0]`) and knight distance (`[1]`).
    fn table() -> &'static [[Rings; 64]; 2] {
        static TABLE: OnceLock<Box<[[Rings; 64]; 2]>> = OnceLock::new();
        TABLE.get_or_init(|| {
            let metrics: [fn(Square, Square) -> u8; 2] = [king_distance, knight_distance];
            Box::new(metrics.map(|metric| Square::ALL.map(|target| Rings::new(target, metric))))
        })
    }

    fn new(target: Square, metric: fn(Square, Square) -> u8) -> Self {
        let mut distance = [0; 64];
        let mut within = [BitBoard::EMPTY; 8];
        for square in Square::ALL {
            let d = metric(square, target);
            distance[square as usize] = d;
            for ring in within.iter_mut().skip(d as usize) {
                *ring |= square.bitboard();
            }
        }
        Rings { distance, within }
    }

    /// The squares closer to the target than `from`.
    fn closer(&self, from: Square) -> BitBoard {
        match self.distance[from as usize] {
            0 => BitBoard::EMPTY,
            d => self.within[d as usize - 1],
        }
    }
}

impl Targets {
    fn towards(corner: Square) -> Self {
        let df: i8 = if corner.file() == File::H { -1 } else { 1 };
        let dr: i8 = if corner.rank() == Rank::Eighth { -1 } else { 1 };
        let [king, knight] = Rings::table();
        Targets {
            winner_king: &king[corner.offset(df, dr) as usize],
            winner_knight: &knight[corner.offset(3 * df, 3 * dr) as usize],
            loser_king: &king[corner as usize],
            loser_knight: &knight[corner.offset(df, 0) as usize],
        }
    }
}

struct Walk {
    winner: Color,
    nodes: u32,
    limit: u32,
    targets: Targets,
    /// Positions already gone on from (their key, and whether a move of progress led there, once
    /// it has): the same position reached by moves in another order is not walked again.
    seen: HashMap<u64, bool, BuildHasherDefault<KeyHasher>>,
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

/// What became of the moves of one position.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Outcome {
    /// Go on with the next move.
    Next,
    /// A mate was found.
    Mate,
    /// The walk is out of moves to look at.
    Spent,
}

impl Walk {
    /// Whether a mate is found from `board`; `progress`: the move that led here made progress;
    /// `taken`: it took a piece or promoted one (only then can the material have run short).
    fn node(&mut self, board: &Board, progress: bool, taken: bool, ply: u32) -> bool {
        // a position walked on from with a move of progress behind it (every move tried) is
        // not walked on from again without one (fewer moves tried); one look-up, the entry
        // recording whether the position was gone on from after progress
        match self.seen.entry(board.hash()) {
            std::collections::hash_map::Entry::Occupied(mut entry) => {
                if !progress || *entry.get() {
                    return false;
                }
                entry.insert(true);
            }
            std::collections::hash_map::Entry::Vacant(entry) => {
                entry.insert(progress);
            }
        }
        let mover = board.side_to_move();
        if (taken && cannot_mate_by_material(board, self.winner)) || ply >= MAX_PLIES {
            // nothing is walked from here: only a mate on the board counts
            return mover != self.winner && !board.checkers().is_empty() && !has_moves(board);
        }
        let here = Here::new(self, board, progress, ply);
        let mut outcome = Outcome::Next;
        let mut any = false;
        // where the king to be mated has few squares to flee to, every check (a move of progress
        // too) is first tried as a mate in one: lines end sooner
        if here.winning && here.escapes(board).len() <= SCAN_ESCAPES {
            // the sets generated once: every check first, then the walk over the same sets
            let mut sets = [None; 18];
            let mut count = 0;
            board.generate_moves(|set| {
                sets[count] = Some(set);
                count += 1;
                false
            });
            let sets = &sets[..count];
            if sets.iter().flatten().any(|&set| here.mates(board, set)) {
                return true;
            }
            any = count > 0;
            for &set in sets.iter().flatten() {
                outcome = self.set(board, &here, set, ply);
                if outcome != Outcome::Next {
                    break;
                }
            }
        } else {
            // the generator's sets of moves, each tried as it comes (the rest are not generated
            // once a mate is found or the walk is spent)
            board.generate_moves(|set| {
                any = true;
                outcome = self.set(board, &here, set, ply);
                outcome != Outcome::Next
            });
        }
        if !any {
            return mover != self.winner && !board.checkers().is_empty();
        }
        outcome == Outcome::Mate
    }

    /// The moves of one piece (`set`), in the generator's order.
    fn set(&mut self, board: &Board, here: &Here, set: PieceMoves, ply: u32) -> Outcome {
        let (ahead, walked, checking) = here.classify(board, &self.targets, set);
        let promoting = if set.piece == Piece::Pawn {
            set.to & LAST_RANKS
        } else {
            BitBoard::EMPTY
        };
        // the moves neither walked on from nor tried as a mate only count: in bulk
        let tried = (walked | checking | promoting) & set.to;
        let mut skipped_below = BitBoard::EMPTY;
        for to in tried {
            let below = BitBoard(to.bitboard().0 - 1);
            let skipped = set.to & !tried & below & !skipped_below;
            skipped_below |= skipped;
            self.nodes += skipped.len();
            if self.nodes > self.limit {
                return Outcome::Spent;
            }
            let outcome = if promoting.has(to) {
                let order = if here.winning {
                    PROMOTIONS
                } else {
                    LOSER_PROMOTIONS
                };
                let mut outcome = Outcome::Next;
                for promotion in order {
                    let mv = Move {
                        from: set.from,
                        to,
                        promotion: Some(promotion),
                    };
                    let check = here.winning && here.checks(promotion, set.from).has(to);
                    outcome =
                        self.try_move(board, mv, walked.has(to), ahead.has(to), check, true, ply);
                    if outcome != Outcome::Next {
                        break;
                    }
                }
                outcome
            } else {
                let mv = Move {
                    from: set.from,
                    to,
                    promotion: None,
                };
                let taken = here.theirs.has(to)
                    || (set.piece == Piece::Pawn && to.file() != set.from.file());
                self.try_move(
                    board,
                    mv,
                    walked.has(to),
                    ahead.has(to),
                    checking.has(to),
                    taken,
                    ply,
                )
            };
            if outcome != Outcome::Next {
                return outcome;
            }
        }
        self.nodes += (set.to & !tried & !skipped_below).len();
        if self.nodes > self.limit {
            return Outcome::Spent;
        }
        Outcome::Next
    }

    /// One move: walked on from (`walk`; `ahead`: it made progress), or, when it gives check
    /// (`check`), tried as a mate in one. `taken`: it takes or promotes.
    #[allow(clippy::too_many_arguments)]
    fn try_move(
        &mut self,
        board: &Board,
        mv: Move,
        walk: bool,
        ahead: bool,
        check: bool,
        taken: bool,
        ply: u32,
    ) -> Outcome {
        self.nodes += 1;
        if self.nodes > self.limit {
            return Outcome::Spent;
        }
        if walk {
            let mut after = board.clone();
            after.play_unchecked(mv);
            if self.node(&after, ahead, taken, ply + 1) {
                return Outcome::Mate;
            }
            if self.nodes > self.limit {
                return Outcome::Spent;
            }
        } else if check {
            // only a mate in one can come of it: tried when the moved piece gives check (a
            // discovered check is not looked for: the walk may miss a line, never invent one)
            let mut after = board.clone();
            after.play_unchecked(mv);
            if !after.checkers().is_empty() && !has_moves_in_check(&after) {
                return Outcome::Mate;
            }
        }
        Outcome::Next
    }
}

/// What the moves of one position are weighed against, found once per position.
struct Here {
    winning: bool,
    progress: bool,
    forced: bool,
    mine: BitBoard,
    theirs: BitBoard,
    occupied: BitBoard,
    /// The king of the side not to move.
    king: Square,
    mover: Color,
    /// The squares that king could flee to now (found when first needed).
    escapes: std::cell::Cell<Option<BitBoard>>,
}

impl Here {
    fn new(walk: &Walk, board: &Board, progress: bool, ply: u32) -> Self {
        let mover = board.side_to_move();
        Here {
            winning: mover == walk.winner,
            progress,
            // a move forced at the start is played whatever it is (the line must go through it)
            forced: ply == 0 && single_move(board),
            mine: board.colors(mover),
            theirs: board.colors(!mover),
            occupied: board.occupied(),
            king: board.king(!mover),
            mover,
            escapes: std::cell::Cell::new(None),
        }
    }

    /// The squares the other king could step to if nothing changed: next to it, not its own
    /// pieces', not attacked by the side to move (lines seen through that king).
    fn escapes(&self, board: &Board) -> BitBoard {
        if let Some(escapes) = self.escapes.get() {
            return escapes;
        }
        let occupied = self.occupied ^ self.king.bitboard();
        let mut attacked = cozy_chess::get_king_moves(board.king(self.mover));
        for square in board.colored_pieces(self.mover, Piece::Pawn) {
            attacked |= cozy_chess::get_pawn_attacks(square, self.mover);
        }
        for square in board.colored_pieces(self.mover, Piece::Knight) {
            attacked |= cozy_chess::get_knight_moves(square);
        }
        let queens = board.pieces(Piece::Queen);
        for square in (board.pieces(Piece::Bishop) | queens) & self.mine {
            attacked |= cozy_chess::get_bishop_moves(square, occupied);
        }
        for square in (board.pieces(Piece::Rook) | queens) & self.mine {
            attacked |= cozy_chess::get_rook_moves(square, occupied);
        }
        let escapes = cozy_chess::get_king_moves(self.king) & !self.theirs & !attacked;
        self.escapes.set(Some(escapes));
        escapes
    }

    /// Whether one of the checks among the moves of `set` mates (a queen for a promotion): each
    /// check the sieve of [`Here::may_mate`] lets through is played and looked at.
    fn mates(&self, board: &Board, set: PieceMoves) -> bool {
        let checking = self.checks(set.piece, set.from) & set.to;
        if checking.is_empty() {
            return false;
        }
        self.may_mate(board, set.piece, set.from, checking)
            .into_iter()
            .any(|to| {
                let promotion =
                    (set.piece == Piece::Pawn && LAST_RANKS.has(to)).then_some(Piece::Queen);
                let mut after = board.clone();
                after.play_unchecked(Move {
                    from: set.from,
                    to,
                    promotion,
                });
                !after.checkers().is_empty() && !has_moves_in_check(&after)
            })
    }

    /// Of the checking squares `to` of `piece` come from `from`, those from which the check
    /// leaves the king no square to step to that is free now (a cheap sieve before the move is
    /// played to see whether it mates; it may keep a check that does not mate, and lets a mate
    /// through only where the piece leaving `from` would open a line onto an escape square).
    fn may_mate(&self, board: &Board, piece: Piece, from: Square, to: BitBoard) -> BitBoard {
        let escapes = self.escapes(board);
        if escapes.is_empty() {
            return to;
        }
        let mut kept = BitBoard::EMPTY;
        for square in to {
            let occupied =
                (self.occupied ^ from.bitboard() ^ self.king.bitboard()) | square.bitboard();
            let cover = match piece {
                Piece::Pawn => cozy_chess::get_pawn_attacks(square, self.mover),
                Piece::Knight => cozy_chess::get_knight_moves(square),
                Piece::Bishop => cozy_chess::get_bishop_moves(square, occupied),
                Piece::Rook => cozy_chess::get_rook_moves(square, occupied),
                Piece::Queen => {
                    cozy_chess::get_bishop_moves(square, occupied)
                        | cozy_chess::get_rook_moves(square, occupied)
                }
                Piece::King => cozy_chess::get_king_moves(square),
            };
            if (escapes & !cover & !square.bitboard()).is_empty() {
                kept |= square.bitboard();
            }
        }
        kept
    }

    /// The squares of `set.to` whose move makes progress (`ahead`), those walked on from
    /// (progress, or a plain move right after progress), those that give check (tried as a mate
    /// in one when not walked; the winner's only).
    fn classify(
        &self,
        board: &Board,
        targets: &Targets,
        set: PieceMoves,
    ) -> (BitBoard, BitBoard, BitBoard) {
        let ahead = if self.forced {
            BitBoard::FULL
        } else if self.winning {
            match set.piece {
                Piece::Pawn => BitBoard::FULL,
                // castling is encoded as the king taking its own rook: never counted as approach
                Piece::King => self.theirs | (targets.winner_king.closer(set.from) & !self.mine),
                Piece::Knight => self.theirs | targets.winner_knight.closer(set.from),
                _ => self.theirs,
            }
        } else {
            match set.piece {
                Piece::King => targets.loser_king.closer(set.from) & !self.mine,
                Piece::Knight => targets.loser_knight.closer(set.from),
                _ => BitBoard::EMPTY,
            }
        };
        // a capture by the side to be mated (it takes away material the mate may need) is
        // never gone on from unless it makes progress
        let plain = match (self.progress, self.winning) {
            (false, _) => BitBoard::EMPTY,
            (true, true) => !ahead,
            (true, false) => !ahead & !self.theirs,
        };
        let walked = ahead | plain;
        let checking = if self.winning && !(set.to & !walked).is_empty() {
            let checking = self.checks(set.piece, set.from) & set.to & !walked;
            if checking.is_empty() {
                checking
            } else {
                self.may_mate(board, set.piece, set.from, checking)
            }
        } else {
            BitBoard::EMPTY
        };
        (ahead, walked, checking)
    }

    /// The squares from which `piece`, come from `from`, attacks the other king (the board as
    /// it will be without the piece on `from`; a capture leaves the king's lines as they were
    /// beyond the square taken).
    fn checks(&self, piece: Piece, from: Square) -> BitBoard {
        let occupied = self.occupied ^ from.bitboard();
        match piece {
            Piece::Pawn => cozy_chess::get_pawn_attacks(self.king, !self.mover),
            Piece::Knight => cozy_chess::get_knight_moves(self.king),
            Piece::Bishop => cozy_chess::get_bishop_moves(self.king, occupied),
            Piece::Rook => cozy_chess::get_rook_moves(self.king, occupied),
            Piece::Queen => {
                cozy_chess::get_bishop_moves(self.king, occupied)
                    | cozy_chess::get_rook_moves(self.king, occupied)
            }
            Piece::King => BitBoard::EMPTY,
        }
    }
}

/// The first and last ranks: where a pawn promotes.
const LAST_RANKS: BitBoard = BitBoard(Rank::First.bitboard().0 | Rank::Eighth.bitboard().0);

fn has_moves(board: &Board) -> bool {
    board.generate_moves(|_| true)
}

/// [`has_moves`] for a side in check: the king's moves first (the likeliest way out).
fn has_moves_in_check(board: &Board) -> bool {
    let king = board.king(board.side_to_move()).bitboard();
    board.generate_moves_for(king, |_| true) || board.generate_moves_for(!king, |_| true)
}

/// Whether the side to move has exactly one legal move.
fn single_move(board: &Board) -> bool {
    let mut moves = 0;
    board.generate_moves(|set| {
        moves += set.to.len();
        if set.piece == Piece::Pawn {
            moves += 3 * (set.to & (Rank::First.bitboard() | Rank::Eighth.bitboard())).len();
        }
        moves > 1
    });
    moves == 1
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

/// Runs `f` on a thread with a stack large enough for the deepest walk in an unoptimised
/// build (tests): the walk recurses from inside the move generator's callback, up to
/// [`MAX_PLIES`] deep, and a debug build's frames are many times a release build's (which
/// needs under 256 KiB for the deepest line).
#[cfg(test)]
pub(crate) fn on_a_large_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(64 << 20)
            .spawn_scoped(scope, f)
            .expect("a test thread")
            .join()
            .expect("the test thread's result")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(fen: &str) -> Board {
        Board::from_fen(fen, false).unwrap()
    }

    /// The walks towards every corner with a bound of their own (the tests' upper bound).
    fn found_within(b: &Board, side: Color, limit: u32) -> bool {
        [Square::A1, Square::H1, Square::A8, Square::H8]
            .into_iter()
            .any(|corner| walk_towards(b, side, corner, limit))
    }

    #[test]
    fn a_queen_mates_a_bare_king() {
        on_a_large_stack(|| {
            let b = board("8/8/4k3/8/8/2KQ4/8/8 w - - 0 1");
            assert!(mate_found(&b, Color::White));
            assert!(!mate_found(&b, Color::Black));
        });
    }

    /// Positions where a rule of the walk is what finds the mate (the full search finds one in
    /// each): it must fire.
    #[test]
    fn the_walk_finds_these_mates() {
        on_a_large_stack(|| {
            for (fen, side, why) in [
                (
                    "8/8/8/8/1q6/2k5/8/K7 w - - 0 1",
                    Color::Black,
                    "a move without progress at the start: the king already in the corner steps out, Qb2#",
                ),
                (
                    "1rQ4k/3P2pp/8/4p3/3n4/6P1/5PPK/8 b - - 0 1",
                    Color::White,
                    "a forced move at the start: Rxc8, then dxc8=Q#",
                ),
                (
                    "K7/8/8/8/6Q1/3k2R1/8/8 b - - 0 1",
                    Color::White,
                    "another corner: the mating king stands in the first one",
                ),
                (
                    "4B3/8/8/8/p7/1kn5/8/2K5 b - - 0 1",
                    Color::White,
                    "a long line with a bishop against knight and pawn",
                ),
                (
                    "3rkr2/pp1bn2p/2nQ4/4N1B1/4P3/2P5/P5PP/1R3q1K w - - 0 1",
                    Color::Black,
                    "a forced capture at the start: Rxf1, then Rxf1#",
                ),
            ] {
                assert!(mate_found(&board(fen), side), "{fen}: {why}");
                assert_eq!(crate::dead::full_search(&board(fen), side), Some(true), "{fen}");
            }
        });
    }

    /// Positions where the side cannot mate: the walk must never fire, however far it looks.
    #[test]
    fn never_a_mate_where_none_exists() {
        on_a_large_stack(|| {
            for (fen, side) in [
                // a locked pawn wall (Black cannot mate)
                (
                    "5b2/p7/Pp3k2/1Pp1pBp1/2P1P1P1/5K2/8/8 w - - 0 1",
                    Color::Black,
                ),
                // a knight alone
                ("8/8/4k3/8/8/2KN4/8/8 b - - 0 1", Color::White),
                // a stalemate
                ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", Color::White),
                // a pawn wall with both kings behind it
                ("k7/8/p1p1p1p1/P1P1P1P1/8/8/8/K7 w - - 0 1", Color::White),
                // the forced move at the start takes the rook: a knight alone is left
                ("7n/8/8/8/8/8/r1k5/K7 w - - 0 1", Color::Black),
                // the forced move at the start takes the only queen
                ("k7/1Q6/8/8/8/8/8/7K b - - 0 1", Color::White),
            ] {
                assert!(!found_within(&board(fen), side, 200_000), "{fen}");
                assert!(!mate_found(&board(fen), side), "{fen}");
            }
        });
    }

    #[test]
    fn rings_give_the_squares_closer_to_a_target() {
        let [king, knight] = Rings::table();
        assert_eq!(
            king[Square::H8 as usize].closer(Square::H8),
            BitBoard::EMPTY
        );
        assert_eq!(
            king[Square::H8 as usize].closer(Square::F6),
            Square::G7.bitboard()
                | Square::G8.bitboard()
                | Square::H7.bitboard()
                | Square::H8.bitboard()
        );
        let closer = knight[Square::A1 as usize].closer(Square::B3);
        assert_eq!(closer, Square::A1.bitboard());
        for from in Square::ALL {
            for to in Square::ALL {
                assert_eq!(
                    king[Square::C3 as usize].closer(from).has(to),
                    king_distance(to, Square::C3) < king_distance(from, Square::C3)
                );
            }
        }
    }

    /// On the labelled positions of the shared corpus (when present), the walk never finds a
    /// mate for a side labelled unable to mate, and wherever it finds one the full search finds
    /// one too (a sample here: the full search is slow in a debug build; the whole file is
    /// checked through the release core by `tests/validation/test_dead_positions.py`).
    #[test]
    fn the_walk_against_the_labelled_positions_and_the_search() {
        on_a_large_stack(|| {
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
                    let walk = mate_found(&b, side);
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
        });
    }

    #[test]
    fn knight_distances() {
        assert_eq!(knight_distance(Square::A1, Square::A1), 0);
        assert_eq!(knight_distance(Square::A1, Square::B3), 1);
        assert_eq!(knight_distance(Square::A1, Square::B2), 4);
        assert_eq!(knight_distance(Square::A1, Square::H8), 6);
    }
}

/// The walk over a file of positions (`NOTATION_WALK_FILE`: lines `W fen` / `B fen`, the side
/// asked about first), for measuring its cost under callgrind (`cargo test --release --lib
/// walk_cost_on_file -- --ignored --nocapture`); ignored by default.
#[cfg(test)]
mod cost {
    #[test]
    #[ignore]
    fn walk_cost_on_file() {
        let Ok(path) = std::env::var("NOTATION_WALK_FILE") else {
            return;
        };
        let text = std::fs::read_to_string(path).expect("the file of positions");
        let (mut found, mut total) = (0, 0);
        for line in text.lines() {
            let (side, fen) = line.split_at(2);
            let Ok(b) = cozy_chess::Board::from_fen(fen.trim(), false) else {
                continue;
            };
            let side = if side.starts_with('W') {
                cozy_chess::Color::White
            } else {
                cozy_chess::Color::Black
            };
            total += 1;
            found += u32::from(super::mate_found(&b, side));
        }
        eprintln!("walk: {found} of {total}");
    }
}
