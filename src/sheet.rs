//! The position-bound work of the scoresheet reader (`notation.scoresheet.decoder`): the legal
//! moves of a position in the reader's tie order, each with what a written box is compared
//! with (`notation.scoresheet.channel.MoveFacts`), the check it gives and the facts of its
//! plausibility class (`notation.scoresheet.plausibility`), all in one pass per position.
//!
//! Squares are numbered `a1 = 0 .. h8 = 63` and piece types `1` (pawn) to `6` (king), as in
//! `notation.rules`. A move is given as `notation.rules` writes it: castling is the king's move
//! to its destination (`e1g1`) in a standard position and *king takes own rook* (`e1h1`) in a
//! Chess960 position (cozy-chess always writes the latter).

use cozy_chess::{
    get_bishop_moves, get_king_moves, get_knight_moves, get_pawn_attacks, get_rook_moves, BitBoard,
    Board, Color, File, Move, Piece, Square,
};

/// A move leaves material hanging when the opponent can win this much at once after it,
/// beyond what the move took (`notation.scoresheet.plausibility`'s classes).
pub const HANG: i32 = 2;

/// One legal move of a position with its facts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SheetMove {
    /// The move as `notation.rules` writes it: from, to, promotion piece type.
    pub from: u8,
    pub to: u8,
    pub promotion: Option<u8>,
    /// The piece type that moves (the king for castling).
    pub piece: u8,
    /// The destination a written box names: the king's destination for castling.
    pub target: u8,
    /// The piece type taken (a pawn for en passant; none for castling).
    pub taken: Option<u8>,
    /// `b'K'` short castling, `b'Q'` long.
    pub castle: Option<u8>,
    /// SAN writes the origin file (a pawn capture, or to tell two pieces apart) / rank.
    pub needs_file: bool,
    pub needs_rank: bool,
    /// 0 no check, 1 check, 2 mate.
    pub check: u8,
    /// The square of what the move takes as the plausibility classes see it: the destination
    /// when a piece stands there (the rook a Chess960 castling "takes" included) or the move
    /// takes en passant; none otherwise.
    pub captured: Option<u8>,
    /// The move leaves material hanging (see [`HANG`]).
    pub hangs: bool,
}

/// The value of a piece type (pawn 1 .. queen 9; the king is worth no exchange: 99).
fn value(piece: Piece) -> i32 {
    match piece {
        Piece::Pawn => 1,
        Piece::Knight | Piece::Bishop => 3,
        Piece::Rook => 5,
        Piece::Queen => 9,
        Piece::King => 99,
    }
}

fn kind(piece: Piece) -> u8 {
    piece as u8 + 1
}

/// The pieces of `colour` attacking `sq` (through nothing: the board's occupancy).
fn attackers(board: &Board, colour: Color, sq: Square) -> BitBoard {
    let occ = board.occupied();
    let queens = board.pieces(Piece::Queen);
    (get_knight_moves(sq) & board.pieces(Piece::Knight)
        | get_king_moves(sq) & board.pieces(Piece::King)
        | get_pawn_attacks(sq, !colour) & board.pieces(Piece::Pawn)
        | get_rook_moves(sq, occ) & (board.pieces(Piece::Rook) | queens)
        | get_bishop_moves(sq, occ) & (board.pieces(Piece::Bishop) | queens))
        & board.colors(colour)
}

/// The most material `colour` can lose at once: a piece (not a pawn) attacked and undefended,
/// or attacked by a cheaper piece (its value less the cheapest attacker's when defended).
pub fn en_prise(board: &Board, colour: Color) -> i32 {
    let mut best = 0;
    for piece in [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen] {
        for sq in board.colored_pieces(colour, piece) {
            let against = attackers(board, !colour, sq);
            if against.is_empty() {
                continue;
            }
            if attackers(board, colour, sq).is_empty() {
                best = best.max(value(piece));
                continue;
            }
            let cheapest = against
                .into_iter()
                .filter_map(|a| board.piece_on(a))
                .map(value)
                .min()
                .unwrap_or(99);
            best = best.max(value(piece) - cheapest);
        }
    }
    best
}

fn has_legal_moves(board: &Board) -> bool {
    board.generate_moves(|moves| !moves.is_empty())
}

/// 0 no check, 1 check, 2 mate: the check the side to move of `board` is in.
pub fn check_level(board: &Board) -> u8 {
    if board.checkers().is_empty() {
        0
    } else if has_legal_moves(board) {
        1
    } else {
        2
    }
}

/// True when `mv` (as cozy-chess writes it) castles: the king onto its own rook.
fn is_castling(board: &Board, mv: Move) -> bool {
    board.piece_on(mv.from) == Some(Piece::King) && board.colors(board.side_to_move()).has(mv.to)
}

/// The legal moves of `board` in the reader's tie order (the piece from the higher square first,
/// then the higher destination, then the stronger promotion), each with its facts.
pub fn sheet_moves(board: &Board, chess960: bool) -> Vec<SheetMove> {
    let us = board.side_to_move();
    let mut raw: Vec<Move> = Vec::new();
    board.generate_moves(|moves| {
        raw.extend(moves);
        false
    });
    let mut out: Vec<(Move, SheetMove)> = raw
        .into_iter()
        .map(|mv| {
            let castle = is_castling(board, mv);
            let piece = board.piece_on(mv.from).map_or(1, kind);
            let short = castle && mv.to > mv.from;
            let king_to = Square::new(if short { File::G } else { File::C }, mv.from.rank());
            let to = if castle && !chess960 { king_to } else { mv.to };
            let mut taken = if castle {
                None
            } else {
                board.piece_on(to).map(kind)
            };
            if taken.is_none() && piece == 1 && to.file() != mv.from.file() {
                taken = Some(1); // en passant
            }
            let facts = SheetMove {
                from: mv.from as u8,
                to: to as u8,
                promotion: mv.promotion.map(kind),
                piece,
                target: if castle { king_to as u8 } else { to as u8 },
                taken,
                castle: castle.then_some(if short { b'K' } else { b'Q' }),
                needs_file: false,
                needs_rank: false,
                check: 0,
                captured: None,
                hangs: false,
            };
            (mv, facts)
        })
        .collect();
    out.sort_by(|(_, a), (_, b)| {
        (b.from, b.to, b.promotion.unwrap_or(0)).cmp(&(a.from, a.to, a.promotion.unwrap_or(0)))
    });
    // the disambiguation SAN needs: the other moves of a piece of the same kind to the same square
    let facts: Vec<(u8, u8, u8)> = out.iter().map(|(_, f)| (f.piece, f.to, f.from)).collect();
    for (_, f) in out.iter_mut() {
        if f.piece == 1 {
            f.needs_file = f.taken.is_some();
        } else if f.piece != 6 {
            let rivals: Vec<u8> = facts
                .iter()
                .filter(|&&(p, t, s)| p == f.piece && t == f.to && s != f.from)
                .map(|&(_, _, s)| s)
                .collect();
            if !rivals.is_empty() {
                if rivals.iter().all(|&s| s % 8 != f.from % 8) {
                    f.needs_file = true;
                } else if rivals.iter().all(|&s| s / 8 != f.from / 8) {
                    f.needs_rank = true;
                } else {
                    f.needs_file = true;
                    f.needs_rank = true;
                }
            }
        }
    }
    // what the move gives: check or mate, material left hanging
    for (mv, f) in out.iter_mut() {
        let victim = board.piece_on(Square::index(f.to as usize));
        let en_passant = f.piece == 1 && victim.is_none() && f.to % 8 != f.from % 8;
        f.captured = (victim.is_some() || en_passant).then_some(f.to);
        let gained = victim.map_or(if en_passant { 1 } else { 0 }, |p| {
            if p == Piece::King {
                0
            } else {
                value(p)
            }
        });
        let mut after = board.clone();
        after.play_unchecked(*mv);
        let any = has_legal_moves(&after);
        f.check = if after.checkers().is_empty() {
            0
        } else if any {
            1
        } else {
            2
        };
        f.hangs = any && en_prise(&after, us) - gained >= HANG;
    }
    out.into_iter().map(|(_, f)| f).collect()
}

/// The move `from`-`to`-`promotion` as `notation.rules` writes it, as cozy-chess writes it
/// (castling onto the rook in a standard position); None when it is no legal move of `board`.
pub fn core_move(board: &Board, from: u8, to: u8, promotion: Option<u8>) -> Option<Move> {
    let from_sq = Square::try_index(from as usize)?;
    let mut to_sq = Square::try_index(to as usize)?;
    let us = board.side_to_move();
    if board.piece_on(from_sq) == Some(Piece::King)
        && from_sq.rank() == to_sq.rank()
        && !board.colors(us).has(to_sq)
    {
        let distance = (to_sq.file() as i8 - from_sq.file() as i8).abs();
        if distance == 2 && from_sq.file() == File::E {
            let rights = board.castle_rights(us);
            let rook = if to_sq > from_sq {
                rights.short
            } else {
                rights.long
            };
            if let Some(file) = rook {
                to_sq = Square::new(file, from_sq.rank());
            }
        }
    }
    let promotion = match promotion {
        None => None,
        Some(2) => Some(Piece::Knight),
        Some(3) => Some(Piece::Bishop),
        Some(4) => Some(Piece::Rook),
        Some(5) => Some(Piece::Queen),
        Some(_) => return None,
    };
    let mv = Move {
        from: from_sq,
        to: to_sq,
        promotion,
    };
    board.is_legal(mv).then_some(mv)
}

/// One way all the copies of a sheet take one move (the decoder's `Combo`): its cost, whether no
/// copy wrote it (0 some copy did, 1 none did, 2 every copy has ended), whether every copy's box
/// was read as any move (the blank opening prior applies), and the copies' cursors after it.
#[derive(Clone, Debug, PartialEq)]
pub struct ComboCost {
    pub cost: f64,
    pub unwritten: u8,
    pub blank: bool,
    pub cursors: Vec<(i64, i64)>,
}

/// The moves of one state of a layer, for [`select_layer`]: the state's index in its layer and
/// cost, the cost of a move no copy wrote (`choice`), the opening priors of its moves (`book`,
/// and `blind` where no box says anything), and for each move its combos (None: the move is not
/// played).
pub struct LayerRow<'a> {
    pub state: usize,
    pub cost: f64,
    pub choice: f64,
    pub book: Option<&'a [f64]>,
    pub blind: Option<&'a [f64]>,
    pub moves: Vec<Option<&'a [ComboCost]>>,
}

/// One candidate chosen for the next layer: the state, the move (its index among the state's
/// moves), the combo (its index among the move's), the rank, the opening prior, the cost of the
/// state reached (before the move's plausibility and marks) and what the copies still owe.
#[derive(Clone, Debug, PartialEq)]
pub struct Chosen {
    pub state: usize,
    /// The order the candidate was made in (ties of rank go to the first made).
    pub order: usize,
    pub mv: usize,
    pub combo: usize,
    pub rank: f64,
    pub prior: f64,
    pub total: f64,
    pub debt: f64,
}

/// What the boxes before `horizon` that a copy has not read at `cursor` will cost at least
/// (`owed`: the least each box will cost), summed box by box in order.
fn pending(owed: &[f64], cursor: (i64, i64), horizon: i64) -> f64 {
    let (i, phase) = cursor;
    let n = owed.len() as i64;
    let mut total = 0.0;
    let mut add = |j: i64| {
        if j < n {
            total += owed[j as usize];
        }
    };
    match phase {
        0 => (i..horizon).for_each(&mut add),
        1 => {
            add(i);
            add(i + 1);
            (i + 3..horizon).for_each(&mut add);
        }
        _ => {
            add(i);
            (i + if phase == 2 { 3 } else { 2 }..horizon).for_each(&mut add);
        }
    }
    total
}

/// The candidates of a layer (every move of every row, taken by the copies every way its combos
/// say) and the ones that may make the next layer: ranked by cost (plus, with `owed` given, one
/// list per copy, what the copies still owe), ties by the order they were made; the cheapest
/// `3 * width`, and past them those within `2 * span` of the best, up to `3 * wide`.
pub fn select_layer(
    rows: &[LayerRow<'_>],
    owed: Option<&[Vec<f64>]>,
    width: usize,
    wide: usize,
    span: f64,
) -> Vec<Chosen> {
    let mut all: Vec<Chosen> = Vec::new();
    let mut cursors: Vec<&[(i64, i64)]> = Vec::new();
    for row in rows {
        for (mi, combos) in row.moves.iter().enumerate() {
            let Some(combos) = combos else { continue };
            for (ci, combo) in combos.iter().enumerate() {
                let mut prior = 0.0;
                if let Some(book) = row.book {
                    prior = match row.blind {
                        Some(blind) if combo.blank => blind[mi],
                        _ => book[mi],
                    };
                }
                let mut c = combo.cost;
                if combo.unwritten != 0 {
                    if combo.unwritten == 2 {
                        continue;
                    }
                    c += row.choice;
                }
                let total = row.cost + c + prior;
                all.push(Chosen {
                    state: row.state,
                    order: all.len(),
                    mv: mi,
                    combo: ci,
                    rank: total,
                    prior,
                    total,
                    debt: 0.0,
                });
                cursors.push(&combo.cursors);
            }
        }
    }
    if let Some(owed) = owed {
        let horizon: Vec<i64> = (0..owed.len())
            .map(|k| cursors.iter().map(|c| c[k].0).max().unwrap_or(0) + 3)
            .collect();
        let mut debts: std::collections::HashMap<&[(i64, i64)], f64> =
            std::collections::HashMap::new();
        for (cand, cur) in all.iter_mut().zip(cursors.iter()) {
            let debt = *debts.entry(cur).or_insert_with(|| {
                let mut sum = 0.0;
                for ((c, o), h) in cur.iter().zip(owed.iter()).zip(horizon.iter()) {
                    sum += pending(o, *c, *h);
                }
                sum
            });
            cand.debt = debt;
            cand.rank = cand.total + debt;
        }
    }
    // the cheapest `3 * wide` by (rank, order): a stable sort keeps the order of equal ranks
    let keep = wide * 3;
    let mut order: Vec<usize> = (0..all.len()).collect();
    let by_rank = |a: &usize, b: &usize| {
        all[*a]
            .rank
            .partial_cmp(&all[*b].rank)
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(a.cmp(b))
    };
    if order.len() > keep {
        order.select_nth_unstable_by(keep, by_rank);
        order.truncate(keep);
    }
    order.sort_unstable_by(by_rank);
    if order.len() > width * 3 {
        let near = all[order[0]].rank + 2.0 * span;
        let past = order[width * 3..]
            .iter()
            .filter(|&&k| all[k].rank <= near)
            .count();
        order.truncate(width * 3 + past);
    }
    order.into_iter().map(|k| all[k].clone()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(fen: &str, chess960: bool) -> Board {
        Board::from_fen(fen, chess960).unwrap()
    }

    #[test]
    fn start_position_in_tie_order() {
        let moves = sheet_moves(&Board::default(), false);
        assert_eq!(moves.len(), 20);
        // the piece from the higher square first: the h-pawn before the knights
        assert_eq!((moves[0].from, moves[0].to), (15, 31));
        assert!(moves
            .iter()
            .all(|m| m.check == 0 && !m.hangs && m.captured.is_none()));
    }

    #[test]
    fn castling_written_as_the_king_moves() {
        let b = board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false);
        let moves = sheet_moves(&b, false);
        let short = moves.iter().find(|m| m.castle == Some(b'K')).unwrap();
        assert_eq!((short.from, short.to, short.target), (4, 6, 6));
        let long = moves.iter().find(|m| m.castle == Some(b'Q')).unwrap();
        assert_eq!((long.from, long.to, long.target), (4, 2, 2));
        assert_eq!(core_move(&b, 4, 6, None).map(|m| m.to), Some(Square::H1));
        let b960 = board("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1", true);
        let short = sheet_moves(&b960, true)
            .into_iter()
            .find(|m| m.castle == Some(b'K'))
            .unwrap();
        assert_eq!(
            (short.from, short.to, short.target, short.captured),
            (4, 7, 6, Some(7))
        );
    }

    #[test]
    fn mate_and_hanging_material() {
        // Qh5xf7 is mate (scholar's mate)
        let b = board(
            "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 2 4",
            false,
        );
        let mate = sheet_moves(&b, false)
            .into_iter()
            .find(|m| m.from == 39 && m.to == 53)
            .unwrap();
        assert_eq!(
            (mate.check, mate.taken, mate.captured),
            (2, Some(1), Some(53))
        );
        // Qh5-h6 puts the queen where the g7 pawn takes it
        let hang = sheet_moves(&b, false)
            .into_iter()
            .find(|m| m.from == 39 && m.to == 47)
            .unwrap();
        assert!(hang.hangs);
        assert_eq!(en_prise(&b, Color::White), 0);
    }

    #[test]
    fn select_layer_keeps_the_cheapest_ties_to_the_first_made() {
        let combo = |cost: f64, unwritten: u8, box_: i64| ComboCost {
            cost,
            unwritten,
            blank: false,
            cursors: vec![(box_, 0)],
        };
        let a = [combo(2.0, 0, 1), combo(7.0, 1, 0), combo(1.0, 2, 0)];
        let b = [combo(2.0, 0, 1)];
        let rows = [LayerRow {
            state: 0,
            cost: 1.0,
            choice: 0.5,
            book: None,
            blind: None,
            moves: vec![Some(&a[..]), None, Some(&b[..])],
        }];
        let chosen = select_layer(&rows, None, 1, 1, 3.0);
        // every copy ended (unwritten 2) is no candidate; equal ranks keep the order made
        let got: Vec<(usize, usize, f64)> =
            chosen.iter().map(|c| (c.mv, c.combo, c.rank)).collect();
        assert_eq!(got, vec![(0, 0, 3.0), (2, 0, 3.0), (0, 1, 8.5)]);
        let chosen = select_layer(&rows, None, 0, 1, 2.0);
        assert_eq!(chosen.len(), 2); // past the width, only those within twice the span
                                     // with what the copies owe: box 0 left unread owes its least cost
        let owed = vec![vec![4.0, 1.0, 1.0, 1.0, 1.0]];
        let chosen = select_layer(&rows, Some(&owed), 1, 1, 3.0);
        let got: Vec<(usize, usize, f64)> =
            chosen.iter().map(|c| (c.mv, c.combo, c.debt)).collect();
        assert_eq!(got, vec![(0, 0, 3.0), (2, 0, 3.0), (0, 1, 7.0)]);
    }
}
