//! Splitting one `MOVES` token of `grammars/pgn.lark` into moves, comments and NAGs.
//!
//! The grammar defines a run as `MOVE+`, a move as `MOVE_NUMBER? SAN GLYPH? MOVE_END
//! ANNOTATION*` (tokens.lark and pgn.lark). This scanner follows those terminals for the
//! spellings the core reads (standard SAN, ASCII digits and blanks, the NAG texts); at any
//! other text it returns `None` and the game goes to the Python reference, which splits with a
//! regex built from the grammar itself. A test proves that, wherever this scanner accepts a
//! run, its split is the grammar's (the whole corpus and generated runs).

use crate::san::{self, SanMove};

/// One piece of a move run.
#[derive(Debug, Clone, PartialEq)]
pub enum Token<'a> {
    /// A move: its move number (if written), SAN text, byte offset of the SAN in the run,
    /// the parsed SAN, its check suffix (`b'+'`, `b'#'` or 0) and glyph (`!`, `?!`, ...).
    Move {
        number: Option<u64>,
        san: &'a str,
        at: usize,
        parsed: SanMove,
        suffix: u8,
        glyph: Option<&'a str>,
    },
    /// A `{...}` or `;...` comment, as written (with its delimiters).
    Comment(&'a str),
    /// A NAG text: `$n` or a symbol (`!`, `+-`, `±`, ...).
    Nag(&'a str),
}

fn is_blank(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

fn skip_blanks(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && is_blank(b[i]) {
        i += 1;
    }
    i
}

/// The NAG symbols written as one non-ASCII character (pgn.lark's NAG_TEXT).
const NAG_SYMBOLS: [&str; 5] = ["±", "∓", "⩲", "⩱", "∞"];

/// Length of the NAG_TEXT at the start of `rest`, trying the grammar's alternatives in order.
fn nag_len(rest: &str) -> Option<usize> {
    let b = rest.as_bytes();
    let first = *b.first()?;
    if first == b'$' {
        let digits = b[1..].iter().take_while(|c| c.is_ascii_digit()).count();
        return if digits > 0 { Some(1 + digits) } else { None };
    }
    if first == b'!' || first == b'?' {
        return Some(if b.len() > 1 && (b[1] == b'!' || b[1] == b'?') {
            2
        } else {
            1
        });
    }
    for text in ["+/=", "=/+", "+/-", "-/+", "+-", "-+", "=+", "+="] {
        if rest.starts_with(text) {
            return Some(text.len());
        }
    }
    if first == b'=' {
        return Some(1);
    }
    NAG_SYMBOLS
        .iter()
        .find(|s| rest.starts_with(*s))
        .map(|s| s.len())
}

/// Whether the text at `i` may follow a move (pgn.lark's MOVE_END: not `\w`, `@` or `=`).
fn move_end_ok(run: &str, i: usize) -> bool {
    let b = run.as_bytes();
    if i >= b.len() {
        return true;
    }
    let c = b[i];
    if c < 0x80 {
        return !(c.is_ascii_alphanumeric() || c == b'_' || c == b'@' || c == b'=');
    }
    // Non-ASCII: only the NAG symbols are known not to be word characters.
    NAG_SYMBOLS.iter().any(|s| run[i..].starts_with(s))
}

/// A move number at `i` (`12.`, `12...`, `12 …`, `12`), with the index after it and its
/// blanks; None when there is none or it is not one the core reads.
fn move_number(run: &str, i: usize) -> Option<(u64, usize)> {
    let b = run.as_bytes();
    let digits = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 || b[i] == b'0' {
        return None; // no number, or 0... (0000 is a null move; leading zeros are left to Python)
    }
    let mut j = i + digits;
    if j < b.len() && (b[j] == b'/' || b[j] == b'-') {
        return None; // a result, or something else
    }
    let value: u64 = run[i..j].parse().ok()?;
    loop {
        let mut k = j;
        while k < b.len() && (b[k] == b' ' || b[k] == b'\t') {
            k += 1;
        }
        if k < b.len() && b[k] == b'.' {
            j = k + 1;
        } else if run[k..].starts_with('…') {
            j = k + '…'.len_utf8();
        } else {
            break;
        }
    }
    Some((value, skip_blanks(b, j)))
}

/// A piece of movetext that the core does not read (the grammar's own reading is needed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotRead;

/// Split a whole `MOVES` token; None when some part of it is not read by the core.
pub fn scan(run: &str) -> Option<Vec<Token<'_>>> {
    match scan_prefix(run) {
        Ok((tokens, stop)) if stop == run.len() && !tokens.is_empty() => Some(tokens),
        _ => None,
    }
}

/// Read moves, comments and NAGs from the start of `text` for as long as they are the core's:
/// `Ok((pieces, stop))` where `stop` is the first byte where no move, comment or NAG starts
/// (a move must come first); `Err` where a piece starts that the core does not read (then the
/// grammar's own reading of the text is needed).
pub fn scan_prefix(text: &str) -> Result<(Vec<Token<'_>>, usize), NotRead> {
    let mut out = Vec::with_capacity(text.len().min(4096) / 6 + 1);
    let mut scanner = Scanner::new(text);
    while let Some(token) = scanner.step()? {
        out.push(token);
    }
    Ok((out, scanner.at()))
}

/// Like [`scan_prefix`] without keeping the pieces: `Ok((pieces read, stop))`. Memory does not
/// grow with the text (the lexer only needs where the moves end).
pub fn scan_extent(text: &str) -> Result<(usize, usize), NotRead> {
    let mut scanner = Scanner::new(text);
    let mut count = 0;
    while scanner.step()?.is_some() {
        count += 1;
    }
    Ok((count, scanner.at()))
}

/// Reads the pieces of a run one at a time (see [`scan_prefix`]), so that a caller can stop
/// early and never hold more than one piece.
pub struct Scanner<'a> {
    run: &'a str,
    i: usize,
    seen_move: bool,
}

impl<'a> Scanner<'a> {
    pub fn new(run: &'a str) -> Self {
        Scanner {
            run,
            i: 0,
            seen_move: false,
        }
    }

    /// The byte where reading stands (after the last piece read; where reading stopped).
    pub fn at(&self) -> usize {
        self.i
    }

    /// The next piece: `Ok(Some(piece))`, `Ok(None)` where no move, comment or NAG starts (or
    /// at the end), `Err` where a piece starts that the core does not read.
    pub fn step(&mut self) -> Result<Option<Token<'a>>, NotRead> {
        let run = self.run;
        let b = run.as_bytes();
        let i = self.i;
        if i >= b.len() {
            return Ok(None);
        }
        let c = b[i];
        if self.seen_move && c == b'{' {
            let close = run[i + 1..].find('}').ok_or(NotRead)? + i + 1;
            self.i = skip_blanks(b, close + 1);
            return Ok(Some(Token::Comment(&run[i..=close])));
        }
        if self.seen_move && c == b';' {
            let end = run[i..].find('\n').map_or(b.len(), |k| k + i);
            self.i = skip_blanks(b, end);
            return Ok(Some(Token::Comment(&run[i..end])));
        }
        let (number, at) = if c.is_ascii_digit() {
            match move_number(run, i) {
                Some((value, next)) => (Some(value), next),
                None => return Ok(None),
            }
        } else {
            (None, i)
        };
        if let Some((parsed, len)) = san::parse(&b[at..]) {
            let mut j = at + len;
            let mut suffix = 0u8;
            if j < b.len() && (b[j] == b'+' || b[j] == b'#') {
                suffix = b[j];
                j += 1;
                if j < b.len() && (b[j] == b'+' || b[j] == b'#') {
                    return Err(NotRead); // '++', '+#': lenient, read by Python
                }
            }
            let san_text = &run[at..j];
            let mut glyph = None;
            if j < b.len() && (b[j] == b'!' || b[j] == b'?') {
                let g = if j + 1 < b.len() && (b[j + 1] == b'!' || b[j + 1] == b'?') {
                    2
                } else {
                    1
                };
                glyph = Some(&run[j..j + g]);
                j += g;
            }
            if !move_end_ok(run, j) {
                return Err(NotRead);
            }
            self.seen_move = true;
            self.i = skip_blanks(b, j);
            return Ok(Some(Token::Move {
                number,
                san: san_text,
                at,
                parsed,
                suffix,
                glyph,
            }));
        }
        if number.is_some() {
            return Err(NotRead);
        }
        match nag_len(&run[i..]) {
            Some(len) if self.seen_move => {
                self.i = skip_blanks(b, i + len);
                Ok(Some(Token::Nag(&run[i..i + len])))
            }
            _ => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(run: &str) -> Option<Vec<String>> {
        scan(run).map(|tokens| {
            tokens
                .iter()
                .map(|t| match t {
                    Token::Move {
                        number, san, glyph, ..
                    } => {
                        format!(
                            "{}|{}|{}",
                            number.map_or(String::new(), |n| n.to_string()),
                            san,
                            glyph.unwrap_or("")
                        )
                    }
                    Token::Comment(c) => format!("C{c}"),
                    Token::Nag(n) => format!("N{n}"),
                })
                .collect()
        })
    }

    #[test]
    fn plain_moves() {
        assert_eq!(
            shape("1. e4 e5 2.Nf3 "),
            Some(vec!["1|e4|".into(), "|e5|".into(), "2|Nf3|".into()])
        );
        assert_eq!(shape("12... Qxd8+! "), Some(vec!["12|Qxd8+|!".into()]));
        assert_eq!(shape("1 … e4"), Some(vec!["1|e4|".into()]));
    }

    #[test]
    fn annotations() {
        let got = shape("e4 {[%clk 0:03:00]} $1 ; line\n e5 +- ").unwrap();
        assert_eq!(
            got,
            vec!["|e4|", "C{[%clk 0:03:00]}", "N$1", "C; line", "|e5|", "N+-"]
        );
    }

    #[test]
    fn declines_lenient_and_odd_text() {
        for run in [
            "0-0 ", "e8Q ", "Qh7++ ", "ed5 ", "e2e4 ", "Nf3: ", "1-0", "♘f3 ", "e4 e.p. ", "-- ",
            "0000 ",
        ] {
            assert_eq!(scan(run), None, "{run}");
        }
    }
}
