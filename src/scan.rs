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
    // the digits' value as `str::parse::<u64>` reads them (None on overflow)
    let mut value: u64 = 0;
    for &d in &b[i..j] {
        value = value.checked_mul(10)?.checked_add(u64::from(d - b'0'))?;
    }
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

/// Like [`scan_extent`], and where the moves end inside `text` and their run is at most
/// [`KEEP_LIMIT`] bytes long, the pieces are kept (as byte ranges, with the run's text) for
/// the next [`Pieces::of`] on this thread: the replay that follows an outline reads the very
/// `MOVES` text the lexer cut, and takes its pieces from here instead of scanning it again.
pub fn scan_extent_kept(text: &str) -> Result<(usize, usize), NotRead> {
    KEPT.with(|kept| {
        let mut kept = kept.borrow_mut();
        kept.valid = false;
        kept.cuts.clear();
        let mut scanner = Scanner::new(text);
        let mut count = 0;
        let mut keep = true;
        while let Some(token) = scanner.step()? {
            count += 1;
            if keep {
                if scanner.at() > KEEP_LIMIT {
                    keep = false;
                    kept.cuts = Vec::new();
                } else {
                    kept.cuts.push(Cut::of(text, &token));
                }
            }
        }
        if keep && count > 0 {
            kept.text.clear();
            kept.text.push_str(&text[..scanner.at()]);
            kept.valid = true;
        }
        Ok((count, scanner.at()))
    })
}

/// The longest run whose pieces [`scan_extent_kept`] keeps (bytes).
pub const KEEP_LIMIT: usize = 1 << 20;

/// One piece of a run as byte offsets in it (a [`Token`] without the borrow).
#[derive(Debug, Clone, Copy)]
pub enum Cut {
    Move {
        number: Option<u64>,
        at: u32,
        san_end: u32,
        parsed: SanMove,
        suffix: u8,
        glyph_len: u8,
    },
    Comment(u32, u32),
    Nag(u32, u32),
}

impl Cut {
    fn of(run: &str, token: &Token<'_>) -> Cut {
        let offset = |part: &str| (part.as_ptr() as usize - run.as_ptr() as usize) as u32;
        match *token {
            Token::Move {
                number,
                san,
                at,
                parsed,
                suffix,
                glyph,
            } => Cut::Move {
                number,
                at: at as u32,
                san_end: (at + san.len()) as u32,
                parsed,
                suffix,
                glyph_len: glyph.map_or(0, |g| g.len() as u8),
            },
            Token::Comment(c) => Cut::Comment(offset(c), offset(c) + c.len() as u32),
            Token::Nag(n) => Cut::Nag(offset(n), offset(n) + n.len() as u32),
        }
    }

    fn token(self, run: &str) -> Token<'_> {
        match self {
            Cut::Move {
                number,
                at,
                san_end,
                parsed,
                suffix,
                glyph_len,
            } => {
                let (at, end) = (at as usize, san_end as usize);
                Token::Move {
                    number,
                    san: &run[at..end],
                    at,
                    parsed,
                    suffix,
                    glyph: (glyph_len > 0).then(|| &run[end..end + usize::from(glyph_len)]),
                }
            }
            Cut::Comment(start, end) => Token::Comment(&run[start as usize..end as usize]),
            Cut::Nag(start, end) => Token::Nag(&run[start as usize..end as usize]),
        }
    }
}

/// The pieces the last [`scan_extent_kept`] on this thread kept, and the run they are of.
#[derive(Default)]
struct Kept {
    valid: bool,
    text: String,
    cuts: Vec<Cut>,
}

thread_local! {
    static KEPT: std::cell::RefCell<Kept> = std::cell::RefCell::new(Kept::default());
}

/// The pieces of a whole run, one at a time: those [`scan_extent_kept`] kept when it read this
/// very text last (a piece depends only on the text before its end and the byte after it, and
/// the lexer's run ends after blanks, where no piece starts: a test checks the two readings
/// agree), else read by a [`Scanner`].
pub enum Pieces<'a> {
    Scan(Scanner<'a>),
    Kept {
        run: &'a str,
        cuts: Vec<Cut>,
        next: usize,
    },
}

impl<'a> Pieces<'a> {
    pub fn of(run: &'a str) -> Self {
        let cuts = KEPT.with(|kept| {
            let mut kept = kept.borrow_mut();
            if kept.valid && kept.text == run {
                kept.valid = false;
                Some(std::mem::take(&mut kept.cuts))
            } else {
                None
            }
        });
        match cuts {
            Some(cuts) => {
                #[cfg(debug_assertions)]
                {
                    let fresh = scan_prefix(run).ok();
                    let kept: Vec<Token<'_>> = cuts.iter().map(|c| c.token(run)).collect();
                    assert_eq!(fresh, Some((kept, run.len())), "kept pieces of {run:?}");
                }
                Pieces::Kept { run, cuts, next: 0 }
            }
            None => Pieces::Scan(Scanner::new(run)),
        }
    }

    /// As [`Scanner::step`].
    pub fn step(&mut self) -> Result<Option<Token<'a>>, NotRead> {
        match self {
            Pieces::Scan(scanner) => scanner.step(),
            Pieces::Kept { run, cuts, next } => {
                let token = cuts.get(*next).map(|c| c.token(run));
                *next += usize::from(token.is_some());
                Ok(token)
            }
        }
    }

    /// As [`Scanner::at`] once the pieces are all read.
    pub fn at(&self) -> usize {
        match self {
            Pieces::Scan(scanner) => scanner.at(),
            Pieces::Kept { run, .. } => run.len(),
        }
    }
}

impl Drop for Pieces<'_> {
    fn drop(&mut self) {
        // the buffer goes back for the next game's lexing
        if let Pieces::Kept { cuts, .. } = self {
            let mut cuts = std::mem::take(cuts);
            cuts.clear();
            let _ = KEPT.try_with(|kept| {
                if let Ok(mut kept) = kept.try_borrow_mut() {
                    if kept.cuts.capacity() < cuts.capacity() {
                        kept.cuts = cuts;
                    }
                }
            });
        }
    }
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
            let close = memchr::memchr(b'}', &b[i + 1..]).ok_or(NotRead)? + i + 1;
            self.i = skip_blanks(b, close + 1);
            return Ok(Some(Token::Comment(&run[i..=close])));
        }
        if self.seen_move && c == b';' {
            let end = memchr::memchr(b'\n', &b[i..]).map_or(b.len(), |k| k + i);
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

    /// The pieces the lexer's scan keeps are the ones a scan of the cut run reads.
    #[test]
    fn kept_pieces_are_the_scanners() {
        for text in [
            "1. e4 {c} e5 2. Nf3 $1 1-0",
            "1. e4 e5 *",
            "e4 ; x\n e5 +- 1/2-1/2",
            "1. e4 e5 2. Nf3 (2. Nc3) 1-0",
            "1. e4 e5 2. Qh5?! Nc6 3. Bc4 Nf6?? 4. Qxf7# 1-0",
            "12... Qxd8+! {x} ± e4",
        ] {
            let (count, stop) = scan_extent_kept(text).unwrap();
            let run = &text[..stop];
            let mut pieces = Pieces::of(run);
            assert!(matches!(pieces, Pieces::Kept { .. }), "{text}");
            let mut kept = Vec::new();
            while let Some(token) = pieces.step().unwrap() {
                kept.push(token);
            }
            assert_eq!(kept.len(), count);
            assert_eq!(scan_prefix(run), Ok((kept, run.len())), "{text}");
            // taken once: the next reading scans
            assert!(matches!(Pieces::of(run), Pieces::Scan(_)));
        }
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
