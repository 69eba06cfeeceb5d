//! Standard SAN as the core reads it (PGN standard 8.2.3): piece moves with the
//! disambiguation written, pawn pushes and captures, promotions with `=`, `O-O`, `O-O-O`.
//! Every other spelling the grammar accepts (`0-0`, `e8Q`, `ed5`, figurines, null moves, ...)
//! is left to the Python reference, which reports it.

use cozy_chess::{File, Piece, Rank, Square};

/// What a standard SAN token says (suffix and glyph aside).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SanMove {
    /// `O-O` (`long` false) or `O-O-O`.
    Castle { long: bool },
    /// `Nf3`, `Nbd7`, `R1e2`, `Qh4xe1`: the file and rank written before the target.
    Piece {
        piece: Piece,
        file: Option<File>,
        rank: Option<Rank>,
        capture: bool,
        to: Square,
    },
    /// `e4`, `exd5`, `e8=Q`: `from_file` is the file of a capturing pawn.
    Pawn {
        from_file: Option<File>,
        to: Square,
        promotion: Option<Piece>,
    },
}

fn file_of(c: u8) -> Option<File> {
    (b'a'..=b'h')
        .contains(&c)
        .then(|| File::index(usize::from(c - b'a')))
}

fn rank_of(c: u8) -> Option<Rank> {
    (b'1'..=b'8')
        .contains(&c)
        .then(|| Rank::index(usize::from(c - b'1')))
}

fn square(f: u8, r: u8) -> Option<Square> {
    Some(Square::new(file_of(f)?, rank_of(r)?))
}

fn piece_of(c: u8) -> Option<Piece> {
    match c {
        b'N' => Some(Piece::Knight),
        b'B' => Some(Piece::Bishop),
        b'R' => Some(Piece::Rook),
        b'Q' => Some(Piece::Queen),
        b'K' => Some(Piece::King),
        _ => None,
    }
}

/// The run of `[a-h1-8x]` bytes at the start of `b` (at most 6 are looked at).
fn body(b: &[u8]) -> &[u8] {
    let n = b
        .iter()
        .take(6)
        .take_while(|c| matches!(c, b'a'..=b'h' | b'1'..=b'8' | b'x'))
        .count();
    &b[..n]
}

/// Parse a standard SAN at the start of `b`: the move and the bytes it takes (without the
/// `+`/`#` suffix). None for anything else.
pub fn parse(b: &[u8]) -> Option<(SanMove, usize)> {
    let first = *b.first()?;
    if first == b'O' {
        if b.starts_with(b"O-O-O") {
            return Some((SanMove::Castle { long: true }, 5));
        }
        if b.starts_with(b"O-O") {
            return Some((SanMove::Castle { long: false }, 3));
        }
        return None;
    }
    if let Some(piece) = piece_of(first) {
        let s = body(&b[1..]);
        let (file, rank, capture, to) = match *s {
            [f, r] => (None, None, false, square(f, r)?),
            [b'x', f, r] => (None, None, true, square(f, r)?),
            [d, f, r] if file_of(d).is_some() => (file_of(d), None, false, square(f, r)?),
            [d, f, r] if rank_of(d).is_some() => (None, rank_of(d), false, square(f, r)?),
            [d, b'x', f, r] if file_of(d).is_some() => (file_of(d), None, true, square(f, r)?),
            [d, b'x', f, r] if rank_of(d).is_some() => (None, rank_of(d), true, square(f, r)?),
            [df, dr, f, r] => (Some(file_of(df)?), Some(rank_of(dr)?), false, square(f, r)?),
            [df, dr, b'x', f, r] => (Some(file_of(df)?), Some(rank_of(dr)?), true, square(f, r)?),
            _ => return None,
        };
        if piece == Piece::King && (file.is_some() || rank.is_some()) {
            return None;
        }
        return Some((
            SanMove::Piece {
                piece,
                file,
                rank,
                capture,
                to,
            },
            1 + s.len(),
        ));
    }
    file_of(first)?;
    let s = body(b);
    let (from_file, to) = match *s {
        [f, r] => (None, square(f, r)?),
        [d, b'x', f, r] => {
            let from = file_of(d)?;
            let to = square(f, r)?;
            if (from as i32 - to.file() as i32).abs() != 1 {
                return None;
            }
            (Some(from), to)
        }
        _ => return None,
    };
    let mut len = s.len();
    let mut promotion = None;
    if b.len() >= len + 2 && b[len] == b'=' {
        let p = piece_of(b[len + 1]).filter(|p| *p != Piece::King)?;
        promotion = Some(p);
        len += 2;
    }
    let last = matches!(to.rank(), Rank::First | Rank::Eighth);
    if last != promotion.is_some() {
        return None;
    }
    Some((
        SanMove::Pawn {
            from_file,
            to,
            promotion,
        },
        len,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_standard_san() {
        assert!(matches!(
            parse(b"e4"),
            Some((
                SanMove::Pawn {
                    from_file: None,
                    ..
                },
                2
            ))
        ));
        assert!(matches!(
            parse(b"exd5+"),
            Some((
                SanMove::Pawn {
                    from_file: Some(File::E),
                    ..
                },
                4
            ))
        ));
        assert!(matches!(
            parse(b"e8=Q#"),
            Some((
                SanMove::Pawn {
                    promotion: Some(Piece::Queen),
                    ..
                },
                4
            ))
        ));
        assert!(matches!(
            parse(b"Nbd7"),
            Some((
                SanMove::Piece {
                    file: Some(File::B),
                    rank: None,
                    ..
                },
                4
            ))
        ));
        assert!(matches!(
            parse(b"R1xe2"),
            Some((
                SanMove::Piece {
                    rank: Some(Rank::First),
                    capture: true,
                    ..
                },
                5
            ))
        ));
        assert!(matches!(
            parse(b"Qh4xe1"),
            Some((
                SanMove::Piece {
                    file: Some(File::H),
                    rank: Some(Rank::Fourth),
                    ..
                },
                6
            ))
        ));
        assert_eq!(parse(b"O-O-O"), Some((SanMove::Castle { long: true }, 5)));
        assert_eq!(parse(b"O-O+"), Some((SanMove::Castle { long: false }, 3)));
    }

    #[test]
    fn leaves_lenient_spellings() {
        for text in [
            &b"0-0"[..],
            b"ed5",
            b"e2e4",
            b"e8Q",
            b"e8",
            b"e7=Q",
            b"Pe4",
            b"exe5",
            b"Kef1",
            b"Z0",
            b"--",
        ] {
            assert!(
                parse(text).is_none_or(|(_, n)| n < text.len()),
                "{:?}",
                std::str::from_utf8(text)
            );
        }
    }
}
