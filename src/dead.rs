//! Can a side still checkmate? Dead positions (FIDE 5.2.2) and wins on time (6.9).
//!
//! A side *can mate* when some series of legal moves, the opponent cooperating, ends with it
//! checkmating (a helpmate). A position is *dead* when neither side can. Answers are sound:
//! "cannot" is said only when it is proved; "undecided" (the budget ran out, or a position
//! the solver does not take, such as Chess960 castling rights) is never taken for "cannot".
//!
//! The test, cheapest first: the textbook material cases (a bare king, one minor piece against
//! a bare king, bishops only and all on one colour), a game over on the board (checkmate,
//! stalemate: no move is left, so no mate but the one given), then the quick static test of M. Ambrona's
//! unwinnability algorithm (FUN 2022, the MIT crate `chasolver`), then, while the game's
//! [`Budget`] lasts, its full helpmate search (itself bounded by the crate's node limits). On
//! the side the recorded result makes the winner, which nearly always can mate, the full search
//! comes before the quick static test, which is then only run where no mate was found
//! ([`search_first`]: the same verdicts, the same budget). And before every full search (the
//! winner's, a side's whose opponent cannot mate, those of the walk back), a cheap walk that
//! looks for a helpmate and plays it ([`crate::helpmate`]): a line of legal moves ending in the
//! side's checkmate is itself the proof that the side can mate, so where the walk finds one the
//! verdict is "can" without the full search (which it spares on nearly every ordinary position:
//! the full search was 92% of the verdict's cost before the walk). The walk never answers
//! "cannot"; where it finds nothing, the full search decides as before.
//!
//! Deadness is kept by every legal move: a position reached from a dead one is dead. So the
//! first dead position of a game is found from the end ([`first_dead`]): if the final
//! position is not dead, none was; if it is, the scan walks back while positions stay dead,
//! each position first given a short walk for each side ([`is_dead`]): a mate played ends it.

use std::panic::{catch_unwind, AssertUnwindSafe};

use cozy_chess::{BitBoard, Board, Color, File, Piece};

/// Why a side cannot mate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// It has only its king.
    BareKing,
    /// The material on the board cannot mate (one minor piece against a bare king, bishops
    /// all on one colour).
    Material,
    /// The position is locked: pawn walls, pieces that cannot get through.
    Blocked,
    /// The moves from here are forced (the side to move has one legal move) into a position
    /// where no mate is possible.
    Forced,
}

impl Reason {
    pub fn name(self) -> &'static str {
        match self {
            Reason::BareKing => "bare king",
            Reason::Material => "material",
            Reason::Blocked => "blocked position",
            Reason::Forced => "forced line",
        }
    }
}

/// Whether a side can still mate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Can,
    Cannot(Reason),
    Undecided,
    /// Not looked at: the caller reads no more than whether the position is dead, and the other
    /// side was already shown not proved unable to mate (see [`Need::Deadness`]).
    NotComputed,
}

/// What a caller reads of the final position's two verdicts ([`final_verdicts`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Need {
    /// Both sides' verdicts, each decided as far as the budget allows (`import`'s
    /// `white_can_mate` and `black_can_mate` columns).
    Both,
    /// Whether the position is dead (both sides proved unable to mate) and the verdict of the
    /// side the recorded result makes the winner (`validate`: a dead position, a win on time
    /// against a side that cannot mate, 6.9). The loser's verdict is then left
    /// [`Verdict::NotComputed`] wherever the winner's is not "cannot": the position is not
    /// proved dead whatever the loser's verdict, and nothing else reads it. Without a decisive
    /// result both are left so wherever a short helpmate walk plays a mate (not dead).
    Deadness,
}

/// Full searches a game may spend (each bounded by the solver's own node limits).
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    pub searches: u32,
}

/// The default per game: enough for the final position's two sides and a short scan back.
pub const DEFAULT_SEARCHES: u32 = 8;

impl Default for Budget {
    fn default() -> Self {
        Budget {
            searches: DEFAULT_SEARCHES,
        }
    }
}

/// The textbook cases, decided from the material alone (None: not one of them).
fn by_material(board: &Board, side: Color) -> Option<Reason> {
    let mine = board.colors(side);
    if mine.len() == 1 {
        return Some(Reason::BareKing);
    }
    let heavy = board.pieces(Piece::Pawn) | board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    if !heavy.is_empty() {
        return None;
    }
    let minors = board.pieces(Piece::Knight) | board.pieces(Piece::Bishop);
    // one minor piece against a bare king, or no minor piece at all for this side
    if (minors & mine).len() <= 1 && board.colors(!side).len() == 1 {
        return Some(Reason::Material);
    }
    if !board.pieces(Piece::Knight).is_empty() {
        return None;
    }
    let bishops = board.pieces(Piece::Bishop);
    if (bishops & BitBoard::LIGHT_SQUARES).is_empty()
        || (bishops & BitBoard::DARK_SQUARES).is_empty()
    {
        return Some(Reason::Material);
    }
    None
}

/// Castling rights the solver's board can hold (standard chess: king on e, rooks on a and h).
fn standard_castling(board: &Board) -> bool {
    Color::ALL.iter().all(|&c| {
        let rights = board.castle_rights(c);
        if rights.short.is_none() && rights.long.is_none() {
            return true;
        }
        board.king(c).file() == File::E
            && rights.short.is_none_or(|f| f == File::H)
            && rights.long.is_none_or(|f| f == File::A)
    })
}

/// The position as the solver's board, when it takes it: built square by square (no FEN text
/// in between), exactly as the solver's FEN reader would build it from `crate::fen::format`
/// (en passant only when the capture is legal), and checked by the solver's own sanity test.
fn solver_board(board: &Board) -> Option<chess::Board> {
    if !standard_castling(board) {
        return None;
    }
    let mut builder = chess::BoardBuilder::new();
    for color in Color::ALL {
        for piece in Piece::ALL {
            for square in board.colored_pieces(color, piece) {
                builder.piece(
                    chess::ALL_SQUARES[square as usize],
                    solver_piece(piece),
                    solver_colour(color),
                );
            }
        }
        let rights = board.castle_rights(color);
        let solver_rights = match (rights.short.is_some(), rights.long.is_some()) {
            (true, true) => chess::CastleRights::Both,
            (true, false) => chess::CastleRights::KingSide,
            (false, true) => chess::CastleRights::QueenSide,
            (false, false) => chess::CastleRights::NoRights,
        };
        builder.castle_rights(solver_colour(color), solver_rights);
    }
    builder.side_to_move(solver_colour(board.side_to_move()));
    if crate::polyglot::legal_en_passant(board) {
        let file = board.en_passant().expect("checked");
        builder.en_passant(Some(chess::File::from_index(file as usize)));
    }
    chess::Board::try_from(&builder).ok()
}

fn solver_piece(piece: Piece) -> chess::Piece {
    match piece {
        Piece::Pawn => chess::Piece::Pawn,
        Piece::Knight => chess::Piece::Knight,
        Piece::Bishop => chess::Piece::Bishop,
        Piece::Rook => chess::Piece::Rook,
        Piece::Queen => chess::Piece::Queen,
        Piece::King => chess::Piece::King,
    }
}

fn solver_colour(side: Color) -> chess::Color {
    if side == Color::White {
        chess::Color::White
    } else {
        chess::Color::Black
    }
}

/// The reason given for a side the solver proved cannot mate.
fn searched_reason(board: &Board) -> Reason {
    let mut moves = 0;
    board.generate_moves(|set| {
        moves += set.len();
        moves > 1
    });
    if moves == 1 {
        Reason::Forced
    } else {
        Reason::Blocked
    }
}

/// A position under test: whether the side to move has a legal move, and the solver's board,
/// each found once, when first needed.
struct Probe<'a> {
    board: &'a Board,
    moves: Option<bool>,
    solver: Option<Option<chess::Board>>,
}

impl<'a> Probe<'a> {
    fn new(board: &'a Board) -> Self {
        Probe {
            board,
            moves: None,
            solver: None,
        }
    }

    fn has_moves(&mut self) -> bool {
        let board = self.board;
        *self.moves.get_or_insert_with(|| has_moves(board))
    }

    fn solver(&mut self) -> Option<chess::Board> {
        let board = self.board;
        *self.solver.get_or_insert_with(|| solver_board(board))
    }
}

/// The answer without the full search: the material cases; a game over on the board (after a
/// checkmate the side that gave it can mate, the other cannot; after a stalemate neither can:
/// no move is left to play); the quick static test. None: only the search can tell.
fn quick(probe: &mut Probe<'_>, side: Color) -> Option<Verdict> {
    if let Some(verdict) = on_the_board(probe, side) {
        return Some(verdict);
    }
    let Some(solver) = probe.solver() else {
        return Some(Verdict::Undecided);
    };
    fast(probe.board, &solver, side)
}

/// The part of [`quick`] that needs no solver: the material cases and a game over on the board.
fn on_the_board(probe: &mut Probe<'_>, side: Color) -> Option<Verdict> {
    let board = probe.board;
    if let Some(reason) = by_material(board, side) {
        return Some(Verdict::Cannot(reason));
    }
    if !probe.has_moves() {
        if board.side_to_move() != side && !board.checkers().is_empty() {
            return Some(Verdict::Can);
        }
        return Some(Verdict::Cannot(Reason::Blocked));
    }
    None
}

/// The solver's quick static test (None: it does not prove that `side` cannot mate).
fn fast(board: &Board, solver: &chess::Board, side: Color) -> Option<Verdict> {
    // the solver is a dependency: a panic in it is an undecided answer, never a failed game
    match catch_unwind(AssertUnwindSafe(|| {
        chasolver::is_unwinnable_fast(solver, solver_colour(side))
    })) {
        Ok(true) => Some(Verdict::Cannot(searched_reason(board))),
        Ok(false) => None,
        Err(_) => Some(Verdict::Undecided),
    }
}

/// The verdict `quick`, then (when it does not tell) one full search, would give, with the
/// full search tried first: on the side a result makes the winner the search is nearly always
/// spent, and nearly always finds a mate, so the quick static test (sound: it never calls a
/// side that can mate unable to) is then not needed. Where the search does not find one, the
/// quick test is run after it and decides as it would have before, the search it made
/// unnecessary given back to the budget. The same verdict and the same budget left, in every
/// case (but a panic inside the solver's quick test, which cannot be seen once a mate is found).
fn search_first(probe: &mut Probe<'_>, side: Color, budget: &mut Budget) -> Verdict {
    if let Some(verdict) = on_the_board(probe, side) {
        return verdict;
    }
    let Some(solver) = probe.solver() else {
        return Verdict::Undecided;
    };
    if budget.searches == 0 {
        return fast(probe.board, &solver, side).unwrap_or(Verdict::Undecided);
    }
    budget.searches -= 1;
    // a helpmate played out on the board proves the side can mate (see `crate::helpmate`): the
    // verdict the search would give, for a fraction of its cost on most ordinary positions
    if crate::helpmate::mate_found(probe.board, side) {
        return Verdict::Can;
    }
    let found = catch_unwind(AssertUnwindSafe(|| {
        chasolver::winnability(&solver, solver_colour(side))
    }));
    if let Ok(Some(chasolver::Winnability::Winnable { .. })) = found {
        return Verdict::Can;
    }
    match fast(probe.board, &solver, side) {
        Some(verdict) => {
            budget.searches += 1; // the quick test decided: no search would have been made
            verdict
        }
        None => match found {
            Ok(Some(chasolver::Winnability::Unwinnable)) => {
                Verdict::Cannot(searched_reason(probe.board))
            }
            _ => Verdict::Undecided,
        },
    }
}

/// One search, while the budget lasts: the helpmate walk first ([`crate::helpmate`]: a mate
/// played out on the board proves the side can mate, the verdict the full search gives wherever
/// it finds one), then, where the walk finds none, the full search.
fn search(probe: &mut Probe<'_>, side: Color, budget: &mut Budget) -> Verdict {
    let Some(solver) = probe.solver() else {
        return Verdict::Undecided;
    };
    if budget.searches == 0 {
        return Verdict::Undecided;
    }
    budget.searches -= 1;
    if crate::helpmate::mate_found(probe.board, side) {
        return Verdict::Can;
    }
    match catch_unwind(AssertUnwindSafe(|| {
        chasolver::winnability(&solver, solver_colour(side))
    })) {
        Ok(Some(chasolver::Winnability::Winnable { .. })) => Verdict::Can,
        Ok(Some(chasolver::Winnability::Unwinnable)) => {
            Verdict::Cannot(searched_reason(probe.board))
        }
        _ => Verdict::Undecided,
    }
}

fn has_moves(board: &Board) -> bool {
    board.generate_moves(|_| true)
}

/// The full search alone, without the quick tests or the helpmate walk: `Some(true)` a mate
/// exists, `Some(false)` none does, `None` undecided or a position the solver does not take.
/// For the tests that hold the walk's answers against it.
pub fn full_search(board: &Board, side: Color) -> Option<bool> {
    let solver = solver_board(board)?;
    match catch_unwind(AssertUnwindSafe(|| {
        chasolver::winnability(&solver, solver_colour(side))
    })) {
        Ok(Some(chasolver::Winnability::Winnable { .. })) => Some(true),
        Ok(Some(chasolver::Winnability::Unwinnable)) => Some(false),
        _ => None,
    }
}

/// Whether `side` can still mate in `board`: the quick answer, else one full search.
pub fn verdict(board: &Board, side: Color, budget: &mut Budget) -> Verdict {
    let mut probe = Probe::new(board);
    quick(&mut probe, side).unwrap_or_else(|| search(&mut probe, side, budget))
}

/// Both sides' verdicts on a game's final position (White's first). The full search is spent
/// only where a finding depends on it: on `wins`, the side the recorded result makes the
/// winner (is the position dead? can a winner on time mate?), and on a side whose opponent is
/// proved unable to mate (is the position dead?). A side not searched is undecided.
///
/// With [`Need::Deadness`], where the winner's verdict is not "cannot", the loser's is not
/// looked at ([`Verdict::NotComputed`]; its quick static test was most of what the loser's
/// verdict cost). Every verdict computed is the one [`Need::Both`] gives, and so is the budget
/// left wherever it is read afterwards: the loser's quick tests spend none, and its search is
/// only made where the winner cannot mate, where nothing is skipped; the position is proved
/// dead in exactly the same games (both sides "cannot").
pub fn final_verdicts(
    board: &Board,
    wins: Option<Color>,
    need: Need,
    budget: &mut Budget,
) -> (Verdict, Verdict) {
    // A drawn result, and only deadness read: a short helpmate walk for each side that has
    // more than the textbook material, before any quick static test; a mate it plays out
    // proves the position not dead (the answer the tests below give: they never call a side
    // that can mate unable to), and neither verdict is read. While the budget allows a search
    // (a budget of 0 asks for the quick tests alone). No budget is spent, so where the walks
    // find nothing every verdict and the budget are as without them.
    if wins.is_none()
        && need == Need::Deadness
        && budget.searches > 0
        && Color::ALL.into_iter().any(|side| {
            by_material(board, side).is_none() && crate::helpmate::short_walk_mates(board, side)
        })
    {
        return (Verdict::NotComputed, Verdict::NotComputed);
    }
    let mut probe = Probe::new(board);
    let mut found = [None, None];
    if let Some(side) = wins {
        let winner = search_first(&mut probe, side, budget);
        found[side as usize] = Some(winner);
        if need == Need::Deadness && !matches!(winner, Verdict::Cannot(_)) {
            found[1 - side as usize] = Some(Verdict::NotComputed);
        }
    }
    for side in Color::ALL {
        let i = side as usize;
        if found[i].is_none() {
            found[i] = quick(&mut probe, side);
        }
    }
    for side in Color::ALL {
        let i = side as usize;
        if found[i].is_none() && matches!(found[1 - i], Some(Verdict::Cannot(_))) {
            found[i] = Some(search(&mut probe, side, budget));
        }
    }
    (
        found[0].unwrap_or(Verdict::Undecided),
        found[1].unwrap_or(Verdict::Undecided),
    )
}

/// Whether `board` is proved dead (White is tried first; Black only if White cannot mate).
///
/// The quick tests of both sides come first ([`quick`]: no budget spent): both "cannot" is
/// dead, either side shown able to mate or undecided is not. Only for what they leave, while
/// the budget allows a search, a short helpmate walk for each side they left open
/// ([`crate::helpmate::short_walk_mates`]): a mate it plays out proves that side able to mate,
/// so the position is not dead, the answer the searches give (sound, they never call a side
/// that can mate unable to). Then the searches, White's first, as before. The answer is the
/// one the walks-first order gave (a side the quick tests call unable to mate has no mate for
/// a walk to find, and a quick answer "can" or "undecided" is "not dead" either way), and so is
/// the budget left wherever the answer is "dead" (the same searches, in the same order); only
/// after an answer of "not dead" may it differ, and nothing spends it then ([`first_dead`]
/// ends there). The walk back mostly meets dead positions, where the walks always failed.
pub fn is_dead(board: &Board, budget: &mut Budget) -> bool {
    let mut probe = Probe::new(board);
    let mut open = [false; 2];
    for side in Color::ALL {
        match quick(&mut probe, side) {
            Some(Verdict::Cannot(_)) => {}
            Some(_) => return false,
            None => open[side as usize] = true,
        }
    }
    if budget.searches > 0
        && Color::ALL
            .into_iter()
            .any(|side| open[side as usize] && crate::helpmate::short_walk_mates(board, side))
    {
        return false;
    }
    for side in Color::ALL {
        if open[side as usize] && !matches!(search(&mut probe, side, budget), Verdict::Cannot(_)) {
            return false;
        }
    }
    true
}

/// The first dead position of a line whose final position is proved dead: `positions[i]`
/// stands after ply `i` (0: the start), the last is the final position. Walks back from the
/// end while the positions are proved dead.
pub fn first_dead<'a, I>(positions: I, budget: &mut Budget) -> u32
where
    I: DoubleEndedIterator<Item = &'a Board> + ExactSizeIterator,
{
    let mut first = positions.len().saturating_sub(1) as u32;
    for board in positions.rev().skip(1) {
        if !is_dead(board, budget) {
            break;
        }
        first -= 1;
    }
    first
}

/// Both proved unable to mate.
pub fn both_cannot(verdicts: (Verdict, Verdict)) -> bool {
    matches!(verdicts, (Verdict::Cannot(_), Verdict::Cannot(_)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::helpmate::on_a_large_stack;

    fn board(fen: &str) -> Board {
        Board::from_fen(fen, false).unwrap()
    }

    fn both(fen: &str) -> (Verdict, Verdict) {
        let b = board(fen);
        let mut budget = Budget::default();
        (
            verdict(&b, Color::White, &mut budget),
            verdict(&b, Color::Black, &mut budget),
        )
    }

    /// The solver's board built square by square is the one its FEN reader makes from our FEN,
    /// over every position two plies from positions with castling, en passant and promotions.
    #[test]
    fn the_solver_board_is_the_one_its_fen_reader_makes() {
        use std::str::FromStr;
        let roots = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        ];
        let mut checked = 0;
        for root in roots {
            let mut level = vec![board(root)];
            for _ in 0..3 {
                let mut next = Vec::new();
                for b in &level {
                    let by_text = chess::Board::from_str(&crate::fen::format(b, 0, 1)).ok();
                    assert_eq!(solver_board(b), by_text, "{}", crate::fen::format(b, 0, 1));
                    checked += 1;
                    b.generate_moves(|moves| {
                        for mv in moves {
                            let mut after = b.clone();
                            after.play_unchecked(mv);
                            next.push(after);
                        }
                        false
                    });
                }
                next.truncate(2_000);
                level = next;
            }
        }
        assert!(checked > 4_000);
    }

    /// The winner's search first gives what the quick test and then the search give, verdict
    /// and budget left, whatever the budget.
    #[test]
    fn the_search_first_is_the_quick_test_then_the_search() {
        on_a_large_stack(|| {
            let positions = [
                "5b2/p7/Pp3k2/1Pp1pBp1/2P1P1P1/5K2/8/8 w - - 0 1",
                "8/8/4k3/8/8/2KQ4/8/8 w - - 0 1",
                "8/8/4k3/8/8/2KN4/8/8 b - - 0 1",
                "k1b5/1p1p4/1P1P4/8/8/4p1p1/4P1P1/5B1K w - - 0 1",
                "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                "8/5b2/8/2Kn4/8/8/8/1k6 w - - 4 96",
                "8/4kp1p/6p1/p1p5/2P1b3/PP2K1P1/7P/3B4 b - - 2 30",
            ];
            for fen in positions {
                let b = board(fen);
                for side in Color::ALL {
                    for searches in [0, 1, 8] {
                        let mut before = Budget { searches };
                        let mut probe = Probe::new(&b);
                        let old = quick(&mut probe, side)
                            .unwrap_or_else(|| search(&mut probe, side, &mut before));
                        let mut after = Budget { searches };
                        let new = search_first(&mut Probe::new(&b), side, &mut after);
                        assert_eq!(
                            (old, before.searches),
                            (new, after.searches),
                            "{fen} {side:?}"
                        );
                    }
                }
            }
        });
    }

    #[test]
    fn textbook_material() {
        on_a_large_stack(|| {
            assert_eq!(
                both("8/8/4k3/8/8/2K5/8/8 w - - 0 1"),
                (
                    Verdict::Cannot(Reason::BareKing),
                    Verdict::Cannot(Reason::BareKing)
                )
            );
            assert_eq!(
                both("8/8/4k3/8/8/2KN4/8/8 w - - 0 1"),
                (
                    Verdict::Cannot(Reason::Material),
                    Verdict::Cannot(Reason::BareKing)
                )
            );
            assert_eq!(both("8/8/4k3/8/8/2KQ4/8/8 w - - 0 1").0, Verdict::Can);
        });
    }

    #[test]
    fn a_locked_pawn_wall() {
        on_a_large_stack(|| {
            // the chasolver README's game: Black cannot mate, White can
            let (white, black) = both("5b2/p7/Pp3k2/1Pp1pBp1/2P1P1P1/5K2/8/8 w - - 0 1");
            assert_eq!(white, Verdict::Can);
            assert_eq!(black, Verdict::Cannot(Reason::Blocked));
        });
    }

    #[test]
    fn no_budget_leaves_the_search_undecided() {
        on_a_large_stack(|| {
            let b = board("8/8/4k3/8/8/2KQ4/8/8 w - - 0 1");
            let mut none = Budget { searches: 0 };
            assert_eq!(verdict(&b, Color::White, &mut none), Verdict::Undecided);
            assert_eq!(
                verdict(&b, Color::Black, &mut none),
                Verdict::Cannot(Reason::BareKing)
            );
        });
    }

    #[test]
    fn chess960_castling_is_not_guessed() {
        on_a_large_stack(|| {
            let b = Board::from_fen(
                "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
                true,
            )
            .unwrap();
            assert_eq!(
                verdict(&b, Color::White, &mut Budget::default()),
                Verdict::Undecided
            );
        });
    }

    #[test]
    fn a_game_over_on_the_board_needs_no_solver() {
        on_a_large_stack(|| {
            // a back-rank mate with a Chess960 castling right left (the solver does not take it)
            let b = Board::from_fen("4k3/8/8/8/8/8/5PPP/4r1KR w H - 0 1", true).unwrap();
            let mut none = Budget { searches: 0 };
            assert_eq!(
                verdict(&b, Color::White, &mut none),
                Verdict::Cannot(Reason::Blocked)
            );
            assert_eq!(verdict(&b, Color::Black, &mut none), Verdict::Can);
            // a stalemate: neither side can mate
            let b = board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
            assert!(is_dead(&b, &mut none));
        });
    }

    #[test]
    fn the_first_dead_position_from_the_end() {
        on_a_large_stack(|| {
            let boards = [
                board("8/8/4k3/8/8/2KR4/8/4r3 w - - 0 1"),
                board("8/8/4k3/8/8/2K5/8/3r4 w - - 0 1"),
                board("8/8/4k3/8/8/8/8/3K4 b - - 0 1"),
            ];
            let mut budget = Budget::default();
            assert!(both_cannot(final_verdicts(
                &boards[2],
                None,
                Need::Both,
                &mut budget
            )));
            assert_eq!(first_dead(boards.iter(), &mut budget), 2);
            let mut budget = Budget::default();
            assert_eq!(first_dead(boards[1..].iter(), &mut budget), 1);
        });
    }

    /// What validate asks for ([`Need::Deadness`]) gives the verdicts [`Need::Both`] gives on
    /// every side it computes, the same budget left and the same deadness; the loser is left
    /// out exactly where the winner is not proved unable to mate, both sides of a draw where a
    /// short walk plays a mate.
    #[test]
    fn deadness_alone_computes_the_same_verdicts() {
        on_a_large_stack(|| {
            for fen in [
                "8/8/4k3/8/8/2KR4/8/4r3 w - - 0 1",
                "8/8/4k3/8/8/8/8/3K4 b - - 0 1",
                "8/8/8/4k3/8/8/8/4KB2 w - - 0 1",
                "r5k1/pp4p1/2p2q2/2bp3p/5P2/3r4/PPP1N1PP/1R1K3R w - - 0 22",
                "8/8/8/5QK1/8/8/2q5/1k6 w - - 10 67",
                "k7/8/1K6/8/8/8/8/7R b - - 0 1",
                "8/8/8/8/8/8/8/k1K4R w - - 0 1",
                "4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/4K3 w - - 0 1",
                "4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/4KB2 w - - 0 1",
            ] {
                let b = board(fen);
                for wins in [Some(Color::White), Some(Color::Black), None] {
                    let mut both_budget = Budget::default();
                    let both = final_verdicts(&b, wins, Need::Both, &mut both_budget);
                    let mut budget = Budget::default();
                    let dead = final_verdicts(&b, wins, Need::Deadness, &mut budget);
                    assert_eq!(both_cannot(dead), both_cannot(both), "{fen} {wins:?}");
                    if wins.is_none() && dead == (Verdict::NotComputed, Verdict::NotComputed) {
                        // a short walk played a mate: not dead, so neither the verdicts nor
                        // the budget (only the walk back spends it) are read
                        continue;
                    }
                    assert_eq!(budget.searches, both_budget.searches, "{fen} {wins:?}");
                    for (side, (d, a)) in [
                        (Color::White, (dead.0, both.0)),
                        (Color::Black, (dead.1, both.1)),
                    ] {
                        let skipped = wins.is_some_and(|w| {
                            w != side
                                && !matches!(
                                    if w == Color::White { both.0 } else { both.1 },
                                    Verdict::Cannot(_)
                                )
                        });
                        if skipped {
                            assert_eq!(d, Verdict::NotComputed, "{fen} {wins:?} {side:?}");
                        } else {
                            assert_eq!(d, a, "{fen} {wins:?} {side:?}");
                        }
                    }
                }
            }
        });
    }
}
