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
}
