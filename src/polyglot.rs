//! The Polyglot position key: the standard Random64 numbers of the Polyglot opening-book
//! format, read from `notation/rules/polyglot.txt` (the same file the Python engine reads), with
//! the en passant file counted only when an en passant capture is legal (FIDE 9.2 identity).

use cozy_chess::{Board, Color, File, Piece, Rank, Square};
use std::sync::OnceLock;

const TABLE_TEXT: &str = include_str!("../notation/rules/polyglot.txt");

/// The 781 numbers: 768 piece-square, 4 castling, 8 en passant files, 1 turn.
pub fn table() -> &'static [u64; 781] {
    static TABLE: OnceLock<[u64; 781]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut out = [0u64; 781];
        let mut count = 0;
        for line in TABLE_TEXT.lines() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let digits = line.trim_start_matches("0x");
            assert!(count < 781, "polyglot.txt holds more than 781 numbers");
            out[count] =
                u64::from_str_radix(digits, 16).expect("polyglot.txt: a hex number per line");
            count += 1;
        }
        assert_eq!(count, 781, "polyglot.txt must hold exactly 781 numbers");
        out
    })
}

fn piece_kind(piece: Piece, color: Color) -> usize {
    2 * (piece as usize) + usize::from(color == Color::White)
}

/// Whether the side to move has a legal en passant capture.
pub fn legal_en_passant(board: &Board) -> bool {
    let Some(file) = board.en_passant() else {
        return false;
    };
    let us = board.side_to_move();
    let target = Square::new(file, Rank::Sixth.relative_to(us));
    let pawns = board.colored_pieces(us, Piece::Pawn);
    let mut found = false;
    board.generate_moves_for(pawns, |moves| {
        if moves.to.has(target) {
            found = true;
        }
        found
    });
    found
}

/// The Polyglot key of `board` (en passant only when the capture is legal).
pub fn key(board: &Board) -> u64 {
    key_with_pieces(board, pieces_key(board))
}

/// The piece-square part of the key of `board`.
pub fn pieces_key(board: &Board) -> u64 {
    let t = table();
    let mut h = 0u64;
    for &color in &Color::ALL {
        for &piece in &Piece::ALL {
            let kind = piece_kind(piece, color);
            for sq in board.colored_pieces(color, piece) {
                h ^= t[64 * kind + sq as usize];
            }
        }
    }
    h
}

/// The piece-square part of the key of `after` from that of `before` (`before_pieces`): only
/// the squares whose piece changed are counted (XOR out what left, XOR in what came), so the
/// part is the one [`pieces_key`] computes from scratch, whatever the move.
pub fn pieces_key_after(before: &Board, before_pieces: u64, after: &Board) -> u64 {
    let t = table();
    let mut h = before_pieces;
    let changed_squares = (before.occupied() ^ after.occupied())
        | (before.colors(Color::White) ^ after.colors(Color::White));
    for &piece in &Piece::ALL {
        let moved = before.pieces(piece) ^ after.pieces(piece);
        // a capture of a piece by one of its own kind changes colours only
        let moved = moved | (changed_squares & (before.pieces(piece) | after.pieces(piece)));
        if moved.is_empty() {
            continue;
        }
        for &color in &Color::ALL {
            let kind = piece_kind(piece, color);
            let diff =
                (before.colored_pieces(color, piece) ^ after.colored_pieces(color, piece)) & moved;
            for sq in diff {
                h ^= t[64 * kind + sq as usize];
            }
        }
    }
    h
}

/// The whole key of `board` from its piece-square part `pieces` (castling, en passant, turn
/// added).
pub fn key_with_pieces(board: &Board, pieces: u64) -> u64 {
    let t = table();
    let mut h = pieces;
    let white = board.castle_rights(Color::White);
    let black = board.castle_rights(Color::Black);
    if white.short.is_some() {
        h ^= t[768];
    }
    if white.long.is_some() {
        h ^= t[769];
    }
    if black.short.is_some() {
        h ^= t[770];
    }
    if black.long.is_some() {
        h ^= t[771];
    }
    if legal_en_passant(board) {
        let file: File = board.en_passant().expect("checked by legal_en_passant");
        h ^= t[772 + file as usize];
    }
    if board.side_to_move() == Color::White {
        h ^= t[780];
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    fn after(moves: &[&str]) -> Board {
        let mut board = Board::default();
        for text in moves {
            let mv = text.parse().unwrap();
            board.play(mv);
        }
        board
    }

    /// The key kept move by move is the key computed from scratch, on every position three
    /// plies deep from positions with castling (Chess960 too), en passant, promotions and
    /// captures of a piece by one of its own kind.
    #[test]
    fn incremental_pieces_key_is_the_full_one() {
        fn walk(board: &Board, pieces: u64, depth: u32, count: &mut u64) {
            assert_eq!(pieces, pieces_key(board));
            assert_eq!(key_with_pieces(board, pieces), key(board));
            if depth == 0 {
                return;
            }
            let mut moves = Vec::new();
            board.generate_moves(|list| {
                moves.extend(list);
                false
            });
            for mv in moves {
                let mut next = board.clone();
                next.play_unchecked(mv);
                *count += 1;
                walk(
                    &next,
                    pieces_key_after(board, pieces, &next),
                    depth - 1,
                    count,
                );
            }
        }
        let roots = [
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                false,
            ),
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                false,
            ),
            ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", false),
            (
                "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                false,
            ),
            (
                "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
                false,
            ),
            (
                "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
                false,
            ),
            (
                "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
                true,
            ),
        ];
        let mut count = 0;
        for (fen, chess960) in roots {
            let board = Board::from_fen(fen, chess960).unwrap();
            walk(&board, pieces_key(&board), 3, &mut count);
        }
        assert!(count > 100_000);
    }

    #[test]
    fn standard_vectors() {
        assert_eq!(key(&Board::default()), 0x463b96181691fc9c);
        assert_eq!(key(&after(&["e2e4"])), 0x823c9b50fd114196);
        assert_eq!(key(&after(&["e2e4", "d7d5"])), 0x0756b94461c50fb0);
        assert_eq!(key(&after(&["e2e4", "d7d5", "e4e5"])), 0x662fafb965db29d4);
        assert_eq!(
            key(&after(&["e2e4", "d7d5", "e4e5", "f7f5"])),
            0x22a48b5a8e47ff78
        );
        assert_eq!(
            key(&after(&["e2e4", "d7d5", "e4e5", "f7f5", "e1e2"])),
            0x652a607ca3f242c1
        );
        assert_eq!(
            key(&after(&["e2e4", "d7d5", "e4e5", "f7f5", "e1e2", "e8f7"])),
            0x00fdd303c946bdd9
        );
    }
}
