//! FEN of a position, written exactly as `notation.formats.fen.format_fen` writes it:
//! X-FEN castling (`KQkq`; a file letter for a rook with another rook further out), the en
//! passant square only when an en passant capture is legal.

use cozy_chess::{Board, Color, File, Piece, Rank, Square};

use crate::polyglot::legal_en_passant;

fn letter(piece: Piece, color: Color) -> char {
    let c = match piece {
        Piece::Pawn => 'p',
        Piece::Knight => 'n',
        Piece::Bishop => 'b',
        Piece::Rook => 'r',
        Piece::Queen => 'q',
        Piece::King => 'k',
    };
    if color == Color::White {
        c.to_ascii_uppercase()
    } else {
        c
    }
}

fn file_letter(file: File) -> char {
    char::from(b'a' + file as u8)
}

/// The placement field.
pub fn placement(board: &Board) -> String {
    let mut out = String::with_capacity(72);
    for rank in Rank::ALL.iter().rev() {
        let mut empty = 0;
        for file in File::ALL {
            let sq = Square::new(file, *rank);
            match (board.piece_on(sq), board.color_on(sq)) {
                (Some(piece), Some(color)) => {
                    if empty > 0 {
                        out.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    out.push(letter(piece, color));
                }
                _ => empty += 1,
            }
        }
        if empty > 0 {
            out.push(char::from(b'0' + empty));
        }
        if *rank != Rank::First {
            out.push('/');
        }
    }
    out
}

/// The castling field (X-FEN).
pub fn castling(board: &Board) -> String {
    let corner = |file: Option<File>| file.is_none_or(|f| f == File::A || f == File::H);
    let all_corners = Color::ALL.iter().all(|&c| {
        let rights = board.castle_rights(c);
        corner(rights.short) && corner(rights.long)
    });
    let mut out = String::new();
    if all_corners {
        // rights on corner rooks only: short is the h-file rook, long the a-file rook
        for (color, upper) in [(Color::White, true), (Color::Black, false)] {
            let rights = board.castle_rights(color);
            for (present, c) in [
                (rights.short == Some(File::H), 'k'),
                (rights.long == Some(File::A), 'q'),
            ] {
                if present {
                    out.push(if upper { c.to_ascii_uppercase() } else { c });
                }
            }
        }
    } else {
        for color in [Color::White, Color::Black] {
            let rights = board.castle_rights(color);
            let back = Rank::First.relative_to(color);
            let rooks = board.colored_pieces(color, Piece::Rook) & back.bitboard();
            // by square, descending: the short (king's right) rook first
            for (file, short) in [(rights.short, true), (rights.long, false)] {
                let Some(file) = file else { continue };
                let outer = rooks.into_iter().any(|sq| {
                    if short {
                        sq.file() > file
                    } else {
                        sq.file() < file
                    }
                });
                let c = if outer {
                    file_letter(file)
                } else if short {
                    'k'
                } else {
                    'q'
                };
                out.push(if color == Color::White {
                    c.to_ascii_uppercase()
                } else {
                    c
                });
            }
        }
    }
    if out.is_empty() {
        out.push('-');
    }
    out
}

/// The whole FEN with the given half-move clock and move number.
pub fn format(board: &Board, halfmove: u32, fullmove: u32) -> String {
    let ep = if legal_en_passant(board) {
        let file = board.en_passant().expect("checked");
        let rank = if board.side_to_move() == Color::White {
            '6'
        } else {
            '3'
        };
        format!("{}{}", file_letter(file), rank)
    } else {
        "-".to_string()
    };
    format!(
        "{} {} {} {} {} {}",
        placement(board),
        if board.side_to_move() == Color::White {
            "w"
        } else {
            "b"
        },
        castling(board),
        ep,
        halfmove,
        fullmove
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position() {
        assert_eq!(
            format(&Board::default(), 0, 1),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
    }

    #[test]
    fn inner_rook_gets_its_file() {
        let board = Board::from_fen("1r2k1r1/8/8/8/8/8/8/R3K1RR w GAg - 0 1", true).unwrap();
        assert_eq!(castling(&board), "GQk");
    }
}
