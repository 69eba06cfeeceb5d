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
