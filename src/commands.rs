//! The values the moves table reads from a move's comment text: `[%clk]`/`tl=` (clock seconds),
//! `[%emt]`/`mt=` (move time in milliseconds), `[%eval]`/`wv=`/`score/depth` (centipawns and
//! mate distance, White's view), `[%eval …,depth]`/`d=`/`score/depth` (search depth) and the
//! comment with its commands removed.
//!
//! The patterns are not written here: the caller hands over those of
//! `notation.pgn.comment_commands` (and `notation.tables.moves_rows.SPACES`), in the order of
//! [`PATTERNS`]. The arithmetic is that of `notation.tables.moves_rows.read_comments`, the Polars
//! reference: string-to-number casts that give no value for non-ASCII digits, products and sums
//! in `f64`, rounding half to even, and the out-of-range problems `notation.tables.ranges`
//! reports. Tests compare both readings over the corpus and generated comments.

use fancy_regex::{Captures, Regex};

/// The names of the patterns [`Commands::new`] takes, in order.
pub const PATTERNS: [&str; 10] = [
    "COMMAND",
    "CLOCK",
    "EMT",
    "EVAL",
    "WV",
    "TL",
    "MT",
    "SCORE_DEPTH",
    "DEPTH",
    "SPACES",
];

/// The moves-table columns whose values can fail to fit (the names of `MOVES_SCHEMA`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Column {
    ClockSeconds,
    EvalCp,
    EvalMate,
    MoveTimeMs,
    Depth,
}

impl Column {
    pub fn name(self) -> &'static str {
        match self {
            Column::ClockSeconds => "clock_seconds",
            Column::EvalCp => "eval_cp",
            Column::EvalMate => "eval_mate",
            Column::MoveTimeMs => "move_time_ms",
            Column::Depth => "depth",
        }
    }
}

/// What one ply's comment text gives.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Read {
    pub clock_seconds: Option<f64>,
    pub move_time_ms: Option<i64>,
    pub eval_cp: Option<i32>,
    pub eval_mate: Option<i16>,
    pub depth: Option<i16>,
    /// The text without its commands, whitespace runs folded; None when nothing is left.
    pub comment: Option<String>,
    /// Values present in the text that their column cannot hold: (column, the text as written).
    pub problems: Vec<(Column, String)>,
}

/// Which of the literals the patterns' matches hold a text holds (one pass over its bytes; the
/// same answers as `str::contains` of each).
#[derive(Default)]
struct Held {
    command: bool, // "[%"
    clk: bool,     // "[%clk"
    eval: bool,    // "[%eval"
    emt: bool,     // "[%emt"
    wv: bool,      // "wv="
    tl: bool,      // "tl="
    mt: bool,      // "mt="
    d: bool,       // "d="
    slash: bool,   // "/"
    /// Printable ASCII, tabs and line ends only: where the hand-written matchers ([`fast`]) apply.
    plain: bool,
}

impl Held {
    fn of(text: &str) -> Held {
        let bytes = text.as_bytes();
        let mut held = Held {
            plain: true,
            ..Held::default()
        };
        for (i, &b) in bytes.iter().enumerate() {
            if !(b' '..=b'~').contains(&b) && !matches!(b, b'\t' | b'\n' | b'\r') {
                held.plain = false;
            }
            match b {
                b'[' if bytes.get(i + 1) == Some(&b'%') => {
                    held.command = true;
                    let rest = &bytes[i + 2..];
                    held.clk |= rest.starts_with(b"clk");
                    held.eval |= rest.starts_with(b"eval");
                    held.emt |= rest.starts_with(b"emt");
                }
                b'=' => {
                    let before = &bytes[..i];
                    held.wv |= before.ends_with(b"wv");
                    held.tl |= before.ends_with(b"tl");
                    held.mt |= before.ends_with(b"mt");
                    held.d |= before.ends_with(b"d");
                }
                b'/' => held.slash = true,
                _ => {}
            }
        }
        held
    }
}

/// The compiled patterns.
pub struct Commands {
    command: Regex,
    clock: Regex,
    emt: Regex,
    eval: Regex,
    wv: Regex,
    tl: Regex,
    mt: Regex,
    score_depth: Regex,
    depth: Regex,
    spaces: Regex,
    /// SPACES is `\s+` (Unicode White_Space runs, as `char::is_whitespace`): folded word by word.
    fold_by_words: bool,
    /// COMMAND is `\[%[^\]]*\]` (from `[%` to the next `]`): removed by [`without_commands`].
    commands_by_brackets: bool,
    /// Which patterns are those the matchers of [`fast`] were written from.
    known: Known,
}

/// Which of the handed-over patterns have a hand-written matcher ([`fast`]).
#[derive(Default)]
struct Known {
    clock: bool,
    emt: bool,
    eval: bool,
}

/// Where `literal` first occurs in `text` (its first byte found with `memchr`: cheaper than
/// `str::find`'s searcher for the short texts of comments).
fn find_literal(text: &str, literal: &str) -> Option<usize> {
    let (bytes, wanted) = (text.as_bytes(), literal.as_bytes());
    let mut from = 0;
    while let Some(found) = memchr::memchr(wanted[0], &bytes[from..]) {
        let at = from + found;
        if bytes[at..].starts_with(wanted) {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// `text` with each command (`[%` up to the next `]`) replaced by a space: what the COMMAND
/// pattern `\[%[^\]]*\]` replaces (leftmost first; after a `[%` with no `]` nothing matches).
fn without_commands(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = find_literal(rest, "[%") {
        let Some(end) = memchr::memchr(b']', &rest.as_bytes()[start + 2..]) else {
            break;
        };
        out.push_str(&rest[..start]);
        out.push(' ');
        rest = &rest[start + 2 + end + 1..];
    }
    out.push_str(rest);
    out
}

/// `s` cast to `Float64` as Polars casts strings (strict=False): ASCII decimal text only.
fn float(s: Option<&str>) -> Option<f64> {
    let s = s?;
    if !s.is_empty() && s.len() <= 15 && s.bytes().all(|b| b.is_ascii_digit()) {
        // (a clock's hours, minutes, seconds): at most 15 digits are exact as an f64, so the
        // integer's value is the parse's
        return Some(s.bytes().fold(0u64, |n, b| n * 10 + u64::from(b - b'0')) as f64);
    }
    if !s.is_ascii() {
        return None;
    }
    s.parse::<f64>().ok()
}

/// `s` as an `Int64` (Polars `str.to_integer(strict=False)`): None for non-ASCII digits or overflow.
fn integer(s: Option<&str>) -> Option<i64> {
    let s = s?;
    if !s.is_ascii() {
        return None;
    }
    s.parse::<i64>().ok()
}

/// Polars' loose `Float64` -> `Int64` cast: None outside the range (and for NaN).
fn to_i64(value: f64) -> Option<i64> {
    let bound = -(i64::MIN as f64); // 2^63, exact
    (-bound..bound).contains(&value).then_some(value as i64)
}

/// A match's groups (0: the whole match; the patterns have at most four groups of their own).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Groups<'t>([Option<&'t str>; 5]);

impl<'t> Groups<'t> {
    fn of(caps: &Captures<'t, str>) -> Groups<'t> {
        let mut groups = [None; 5];
        for (index, slot) in groups.iter_mut().enumerate() {
            *slot = caps.get(index).map(|m| m.as_str());
        }
        Groups(groups)
    }
}

fn group<'t>(caps: &Option<Groups<'t>>, index: usize) -> Option<&'t str> {
    caps.as_ref()?.0.get(index).copied().flatten()
}

/// `h:mm(:ss(.f))` (groups 1-3) as whole milliseconds, missing seconds as 0.
fn milliseconds(caps: &Option<Groups<'_>>) -> Option<i64> {
    let hours = float(group(caps, 1))?;
    let minutes = float(group(caps, 2))?;
    let seconds = float(group(caps, 3)).unwrap_or(0.0);
    to_i64((hours * 3_600_000.0 + minutes * 60_000.0 + seconds * 1000.0).round_ties_even())
}

/// Milliseconds written as digits as seconds, as `ranges.milliseconds_as_seconds` computes them.
fn milliseconds_as_seconds(digits: &str) -> Option<f64> {
    if !digits.is_ascii() {
        return None;
    }
    let padded = format!("{digits:0>4}");
    let (whole, fraction) = padded.split_at(padded.len() - 3);
    format!("{whole}.{fraction}").parse::<f64>().ok()
}

fn strip_separators(text: &str) -> &str {
    text.trim_matches([' ', '\t', '\n', '\r', ',', '{', '}'])
}

impl Commands {
    /// [`Commands::new`] of `patterns`, compiled once while the same patterns come again (each
    /// chunk of an import makes its own batch with the same patterns; compiling them cost about
    /// as much as reading 8,000 comments).
    pub fn shared(patterns: &[String]) -> Result<std::sync::Arc<Commands>, String> {
        type Last = Option<(Vec<String>, std::sync::Arc<Commands>)>;
        static LAST: std::sync::Mutex<Last> = std::sync::Mutex::new(None);
        let mut last = LAST.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some((known, commands)) = last.as_ref() {
            if known.as_slice() == patterns {
                return Ok(commands.clone());
            }
        }
        let commands = std::sync::Arc::new(Commands::new(patterns)?);
        *last = Some((patterns.to_vec(), commands.clone()));
        Ok(commands)
    }

    /// The patterns in the order of [`PATTERNS`].
    pub fn new(patterns: &[String]) -> Result<Commands, String> {
        if patterns.len() != PATTERNS.len() {
            return Err(format!(
                "{} patterns given, {} expected ({})",
                patterns.len(),
                PATTERNS.len(),
                PATTERNS.join(", ")
            ));
        }
        let compile = |i: usize| {
            Regex::new(&patterns[i]).map_err(|e| format!("pattern {}: {e}", PATTERNS[i]))
        };
        Ok(Commands {
            command: compile(0)?,
            clock: compile(1)?,
            emt: compile(2)?,
            eval: compile(3)?,
            wv: compile(4)?,
            tl: compile(5)?,
            mt: compile(6)?,
            score_depth: compile(7)?,
            depth: compile(8)?,
            spaces: compile(9)?,
            fold_by_words: patterns[9] == r"\s+",
            commands_by_brackets: patterns[0] == r"\[%[^\]]*\]",
            known: Known {
                clock: patterns[1] == fast::CLOCK,
                emt: patterns[2] == fast::EMT,
                eval: patterns[3] == fast::EVAL,
            },
        })
    }

    /// The first match of `pattern` in `text`, looked for only when `held` (`text` holds the
    /// literal every match of the pattern holds).
    fn find<'t>(pattern: &Regex, text: &'t str, held: bool) -> Option<Groups<'t>> {
        if held {
            pattern
                .captures(text)
                .ok()
                .flatten()
                .map(|caps| Groups::of(&caps))
        } else {
            None
        }
    }

    /// [`Self::find`] for a pattern that has a matcher written by hand (`fast`): used when the
    /// pattern handed over is the one the matcher was written from (`known`) and the text is
    /// [`Held::plain`] (where `\d` and `\s` mean their ASCII classes alone).
    fn find_fast<'t>(
        pattern: &Regex,
        known: bool,
        fast: fn(&'t str) -> Option<Groups<'t>>,
        text: &'t str,
        held: bool,
        plain: bool,
    ) -> Option<Groups<'t>> {
        if held && known && plain {
            fast(text)
        } else {
            Self::find(pattern, text, held)
        }
    }

    /// Read one ply's comment text (the comments joined by a space); `white`: White moved.
    pub fn read(&self, text: &str, white: bool) -> Read {
        match self.clock_only(text) {
            Some(read) => read,
            None => self.read_any(text, white),
        }
    }

    /// [`Self::read`] of a comment that is one `[%clk]` command between blanks (nearly every
    /// comment of a Lichess game): the clock alone, without the scans and copies of
    /// [`Self::read_any`]; None for any other text. No other pattern can match such a text
    /// (each needs `[%` again, `=` or `/`), and nothing is left of it once its command is gone.
    fn clock_only(&self, text: &str) -> Option<Read> {
        if !(self.known.clock && self.commands_by_brackets && self.fold_by_words) {
            return None;
        }
        let body = text.trim_matches([' ', '\t', '\n', '\r']);
        let rest = body.strip_prefix("[%clk")?;
        let plain = |b: u8| (b' '..=b'~').contains(&b) || matches!(b, b'\t' | b'\n' | b'\r');
        if !rest
            .bytes()
            .all(|b| plain(b) && !matches!(b, b'[' | b'=' | b'/'))
        {
            return None;
        }
        if rest.find(']')? + 1 != rest.len() {
            return None; // (text after the command)
        }
        let clk = fast::clock(body);
        if group(&clk, 0) != Some(body) {
            return None;
        }
        let hours = float(group(&clk, 1))?;
        let minutes = float(group(&clk, 2))?;
        let seconds = hours * 3600.0 + minutes * 60.0 + float(group(&clk, 3)).unwrap_or(0.0);
        seconds.is_finite().then(|| Read {
            clock_seconds: Some(seconds),
            ..Read::default()
        })
    }

    /// [`Self::read`] of any text.
    fn read_any(&self, text: &str, white: bool) -> Read {
        let held = Held::of(text);
        let plain = held.plain;
        let clk = Self::find_fast(
            &self.clock,
            self.known.clock,
            fast::clock,
            text,
            held.clk,
            plain,
        );
        let ev = Self::find_fast(
            &self.eval,
            self.known.eval,
            fast::eval,
            text,
            held.eval,
            plain,
        );
        let wv = Self::find(&self.wv, text, held.wv);
        let tl = Self::find(&self.tl, text, held.tl);
        let emt = Self::find_fast(&self.emt, self.known.emt, fast::emt, text, held.emt, plain);
        let mt = Self::find(&self.mt, text, held.mt);
        let dp = Self::find(&self.depth, text, held.d);
        let sd = Self::find(&self.score_depth, text, held.slash);
        let view = if white { 1.0 } else { -1.0 };
        let mut read = Read::default();

        // clock: [%clk], else tl= (milliseconds or h:mm:ss)
        let clock_value = float(group(&clk, 1)).and_then(|hours| {
            let minutes = float(group(&clk, 2))?;
            Some(hours * 3600.0 + minutes * 60.0 + float(group(&clk, 3)).unwrap_or(0.0))
        });
        let time_left = match group(&tl, 4) {
            Some(digits) => milliseconds_as_seconds(digits),
            None => (|| {
                Some(
                    float(group(&tl, 1))? * 3600.0
                        + float(group(&tl, 2))? * 60.0
                        + float(group(&tl, 3))?,
                )
            })(),
        };
        let clock = clock_value.or(time_left);
        read.clock_seconds = clock.filter(|v| v.is_finite());
        if group(&clk, 1).is_some() && read.clock_seconds.is_none() {
            read.problems.push((
                Column::ClockSeconds,
                group(&clk, 0).unwrap_or("").to_string(),
            ));
        }

        // evaluation, White's view: [%eval], else wv=, else score/depth (the mover's view)
        let cp = float(group(&ev, 2))
            .or_else(|| float(group(&wv, 3)))
            .or_else(|| float(group(&sd, 3)).map(|pawns| pawns * view))
            .map(|pawns| (pawns * 100.0).round_ties_even());
        read.eval_cp = cp
            .filter(|v| (-2_147_483_648.0..=2_147_483_647.0).contains(v))
            .map(|v| v as i32);
        let mate = integer(group(&ev, 1))
            .or_else(|| {
                let distance = group(&wv, 2)?;
                integer(Some(&format!("{}{distance}", group(&wv, 1)?)))
            })
            .or_else(|| {
                let sign = if group(&sd, 1) == Some("-") { -1 } else { 1 };
                Some(
                    integer(group(&sd, 2))?
                        .wrapping_mul(sign)
                        .wrapping_mul(view as i64),
                )
            });
        read.eval_mate = mate.and_then(|v| i16::try_from(v).ok());
        let eval_text = || group(&ev, 0).unwrap_or("").to_string();
        if group(&ev, 2).is_some() && read.eval_cp.is_none() {
            read.problems.push((Column::EvalCp, eval_text()));
        }
        if group(&ev, 1).is_some() && read.eval_mate.is_none() {
            read.problems.push((Column::EvalMate, eval_text()));
        }

        // move time: [%emt] wins over mt= (milliseconds or h:mm:ss)
        read.move_time_ms = if group(&emt, 1).is_some() {
            milliseconds(&emt)
        } else if let Some(digits) = group(&mt, 4) {
            integer(Some(digits))
        } else {
            milliseconds(&mt)
        };
        let timed = group(&emt, 1).is_some() || group(&mt, 1).is_some() || group(&mt, 4).is_some();
        if timed && read.move_time_ms.is_none() {
            let written = match group(&emt, 0) {
                Some(whole) => whole,
                None => strip_separators(group(&mt, 0).unwrap_or("")),
            };
            read.problems
                .push((Column::MoveTimeMs, written.to_string()));
        }

        // depth: [%eval …,depth], else d=, else score/depth (the first written, then read)
        let depth_text = group(&ev, 3)
            .or_else(|| group(&dp, 1))
            .or_else(|| group(&sd, 4));
        read.depth = integer(depth_text).and_then(|v| i16::try_from(v).ok());
        if (group(&ev, 3).is_some() || group(&dp, 1).is_some()) && read.depth.is_none() {
            let written = match group(&ev, 3) {
                Some(_) => group(&ev, 0).unwrap_or(""),
                None => strip_separators(group(&dp, 0).unwrap_or("")),
            };
            read.problems.push((Column::Depth, written.to_string()));
        }

        // the comment: commands removed, whitespace runs folded, trimmed
        let without = if held.command && self.commands_by_brackets {
            std::borrow::Cow::Owned(without_commands(text))
        } else if held.command {
            self.command.replace_all(text, " ")
        } else {
            std::borrow::Cow::Borrowed(text)
        };
        let folded = if self.fold_by_words {
            // what SPACES (`\s+`: Unicode White_Space runs) and trimming give
            let mut words = without.split_whitespace();
            words.next().map(|first| {
                let mut folded = first.to_string();
                for word in words {
                    folded.push(' ');
                    folded.push_str(word);
                }
                folded
            })
        } else {
            let folded = self.spaces.replace_all(&without, " ");
            let trimmed = folded.trim();
            (!trimmed.is_empty()).then(|| trimmed.to_string())
        };
        read.comment = folded;
        read
    }
}

/// Hand-written matchers for the commands of nearly every comment that holds one (`[%clk]`,
/// `[%emt]`, `[%eval]`): the leftmost match and the groups the regular expressions they were
/// written from give, on [`Held::plain`] text (where `\d` is `[0-9]` and `\s` is
/// `[ \t\n\r]`). Each tries the patterns' alternatives in their order of preference, so that
/// the groups are those of the backtracking search. A test compares them with the patterns on
/// every text of a small alphabet up to a length and on random longer ones.
mod fast {
    use super::Groups;

    pub const CLOCK: &str = r"\[%clk\s+(\d+):(\d{1,2})(?::(\d{1,2}(?:\.\d*)?))?\s*\]";
    pub const EMT: &str = r"\[%emt\s+(\d+):(\d{1,2})(?::(\d{1,2}(?:\.\d*)?))?\s*\]";
    pub const EVAL: &str =
        r"\[%eval\s+(?:#([+-]?\d+)|([+-]?(?:\d+(?:\.\d*)?|\.\d+)))(?:\s*,\s*(\d+))?\s*\]";

    fn space(b: u8) -> bool {
        matches!(b, b' ' | b'\t' | b'\n' | b'\r')
    }

    /// The end of the run of bytes from `at` that `class` takes.
    fn run(bytes: &[u8], at: usize, class: fn(u8) -> bool) -> usize {
        at + bytes[at..].iter().take_while(|&&b| class(b)).count()
    }

    fn digit(b: u8) -> bool {
        b.is_ascii_digit()
    }

    /// `\s*\]` from `at`: the end of the match.
    fn close(bytes: &[u8], at: usize) -> Option<usize> {
        let at = run(bytes, at, space);
        (bytes.get(at) == Some(&b']')).then_some(at + 1)
    }

    /// `\d{1,2}` from `at`: the ends to try, two digits first.
    fn one_or_two(bytes: &[u8], at: usize) -> impl Iterator<Item = usize> + '_ {
        [2, 1]
            .into_iter()
            .map(move |n| at + n)
            .filter(move |&end| end <= bytes.len() && bytes[at..end].iter().all(|&b| digit(b)))
    }

    /// Every start of `literal` in `text`, left to right, and the match `at` finds there.
    fn leftmost<'t>(
        text: &'t str,
        literal: &str,
        at: impl Fn(&'t str, usize) -> Option<Groups<'t>>,
    ) -> Option<Groups<'t>> {
        let mut from = 0;
        while let Some(found) = super::find_literal(&text[from..], literal) {
            let start = from + found;
            if let Some(groups) = at(text, start) {
                return Some(groups);
            }
            from = start + 1;
        }
        None
    }

    /// `LITERAL\s+(\d+):(\d{1,2})(?::(\d{1,2}(?:\.\d*)?))?\s*\]` at `start`.
    fn time_at<'t>(text: &'t str, start: usize, literal: usize) -> Option<Groups<'t>> {
        let bytes = text.as_bytes();
        let at = start + literal;
        let hours = run(bytes, at, space);
        if hours == at {
            return None;
        }
        let colon = run(bytes, hours, digit);
        if colon == hours || bytes.get(colon) != Some(&b':') {
            return None;
        }
        let found = |minutes: usize, seconds: Option<(usize, usize)>, end: usize| {
            Groups([
                Some(&text[start..end]),
                Some(&text[hours..colon]),
                Some(&text[colon + 1..minutes]),
                seconds.map(|(from, to)| &text[from..to]),
                None,
            ])
        };
        for minutes in one_or_two(bytes, colon + 1) {
            if bytes.get(minutes) == Some(&b':') {
                for whole in one_or_two(bytes, minutes + 1) {
                    if bytes.get(whole) == Some(&b'.') {
                        let fraction = run(bytes, whole + 1, digit);
                        if let Some(end) = close(bytes, fraction) {
                            return Some(found(minutes, Some((minutes + 1, fraction)), end));
                        }
                    }
                    if let Some(end) = close(bytes, whole) {
                        return Some(found(minutes, Some((minutes + 1, whole)), end));
                    }
                }
            }
            if let Some(end) = close(bytes, minutes) {
                return Some(found(minutes, None, end));
            }
        }
        None
    }

    /// [`CLOCK`]'s first match.
    pub fn clock(text: &str) -> Option<Groups<'_>> {
        leftmost(text, "[%clk", |text, start| time_at(text, start, 5))
    }

    /// [`EMT`]'s first match.
    pub fn emt(text: &str) -> Option<Groups<'_>> {
        leftmost(text, "[%emt", |text, start| time_at(text, start, 5))
    }

    /// `(?:\s*,\s*(\d+))?\s*\]` from `at`: (depth, end).
    fn depth_and_close(bytes: &[u8], at: usize) -> Option<(Option<(usize, usize)>, usize)> {
        let comma = run(bytes, at, space);
        if bytes.get(comma) == Some(&b',') {
            let from = run(bytes, comma + 1, space);
            let to = run(bytes, from, digit);
            if to > from {
                if let Some(end) = close(bytes, to) {
                    return Some((Some((from, to)), end));
                }
            }
        }
        close(bytes, at).map(|end| (None, end))
    }

    /// `\[%eval\s+(?:#([+-]?\d+)|([+-]?(?:\d+(?:\.\d*)?|\.\d+)))(?:\s*,\s*(\d+))?\s*\]` at `start`.
    fn eval_at(text: &str, start: usize) -> Option<Groups<'_>> {
        let bytes = text.as_bytes();
        let at = start + 6;
        let value = run(bytes, at, space);
        if value == at {
            return None;
        }
        let signed = |from: usize| from + usize::from(matches!(bytes.get(from), Some(b'+' | b'-')));
        let found = |mate: bool, number: (usize, usize), rest: (Option<(usize, usize)>, usize)| {
            let (depth, end) = rest;
            let number = Some(&text[number.0..number.1]);
            Groups([
                Some(&text[start..end]),
                if mate { number } else { None },
                if mate { None } else { number },
                depth.map(|(from, to)| &text[from..to]),
                None,
            ])
        };
        if bytes.get(value) == Some(&b'#') {
            let digits = signed(value + 1);
            let end = run(bytes, digits, digit);
            if end == digits {
                return None;
            }
            return depth_and_close(bytes, end).map(|rest| found(true, (value + 1, end), rest));
        }
        let digits = signed(value);
        let whole = run(bytes, digits, digit);
        if whole > digits {
            if bytes.get(whole) == Some(&b'.') {
                let fraction = run(bytes, whole + 1, digit);
                if let Some(rest) = depth_and_close(bytes, fraction) {
                    return Some(found(false, (value, fraction), rest));
                }
            }
            return depth_and_close(bytes, whole).map(|rest| found(false, (value, whole), rest));
        }
        if bytes.get(digits) == Some(&b'.') {
            let fraction = run(bytes, digits + 1, digit);
            if fraction > digits + 1 {
                return depth_and_close(bytes, fraction)
                    .map(|rest| found(false, (value, fraction), rest));
            }
        }
        None
    }

    /// [`EVAL`]'s first match.
    pub fn eval(text: &str) -> Option<Groups<'_>> {
        leftmost(text, "[%eval", eval_at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digit_runs_read_as_the_parse_reads_them() {
        for text in [
            "0",
            "00",
            "03",
            "59",
            "123456789012345",
            "999999999999999",
            "1234567890123456",
            "99999999999999999999",
            "1.5",
            "",
            "+3",
            "٣",
        ] {
            let parsed = if text.is_ascii() {
                text.parse::<f64>().ok()
            } else {
                None
            };
            assert_eq!(
                float(Some(text)).map(f64::to_bits),
                parsed.map(f64::to_bits),
                "{text:?}"
            );
        }
    }

    // The patterns live in notation/pgn/comment_commands.py; these copies only exercise the
    // arithmetic here (tests/tables/test_comment_values.py compares against the Python reading).
    fn commands() -> Commands {
        Commands::new(&patterns()).unwrap()
    }

    fn patterns() -> Vec<String> {
        [
            r"\[%[^\]]*\]",
            r"\[%clk\s+(\d+):(\d{1,2})(?::(\d{1,2}(?:\.\d*)?))?\s*\]",
            r"\[%emt\s+(\d+):(\d{1,2})(?::(\d{1,2}(?:\.\d*)?))?\s*\]",
            r"\[%eval\s+(?:#([+-]?\d+)|([+-]?(?:\d+(?:\.\d*)?|\.\d+)))(?:\s*,\s*(\d+))?\s*\]",
            r"(?:^|[\s,{])wv=(?:(-?)M(\d+)|([+-]?(?:\d+(?:\.\d*)?|\.\d+)))(?:[\s,}]|$)",
            r"(?:^|[\s,{])tl=(?:(\d+):(\d{1,2}):(\d{1,2}(?:\.\d*)?)|(\d+))(?:[\s,}]|$)",
            r"(?:^|[\s,{])mt=(?:(\d+):(\d{1,2}):(\d{1,2}(?:\.\d*)?)|(\d+))(?:[\s,}]|$)",
            r"^\s*(?:([+-]?)M(\d+)|([+-]?(?:\d+\.\d*|\.\d+)))/(\d+)(?:[\s,}]|$)",
            r"(?:^|[\s,{])d=(\d+)(?:[\s,}]|$)",
            r"\s+",
        ]
        .iter()
        .map(|p| p.to_string())
        .collect()
    }

    #[test]
    fn the_same_patterns_share_their_compilation() {
        let patterns = patterns();
        let first = Commands::shared(&patterns).unwrap();
        assert!(std::sync::Arc::ptr_eq(
            &first,
            &Commands::shared(&patterns).unwrap()
        ));
        let mut other = patterns.clone();
        other[9] = r"\s+ ?".to_string();
        let second = Commands::shared(&other).unwrap();
        assert!(!std::sync::Arc::ptr_eq(&first, &second) && !second.fold_by_words);
        assert!(Commands::shared(&patterns[..3]).is_err());
    }

    #[test]
    fn clock_only_comments_read_as_any_text() {
        let commands = commands();
        let mut taken = 0;
        for text in [
            " [%clk 0:01:00] ",
            "[%clk 0:01:00]",
            "\n[%clk 1:02:03.5]\t",
            "[%clk 10:02]",
            "[%clk 0:01:00 ]",
            "[%clk  0:1:0]",
            "[%clk 0:01:00] x",
            "x [%clk 0:01:00]",
            "[%clk 0:01:00] [%eval 0.3]",
            "[%clk 0:01:00]]",
            "[%clk 0:01:0a]",
            "[%clk 0:01:00=]",
            "[%clk 0:01/00]",
            "[%clk 0:123:00]",
            "[%clk :01:00]",
            "[%clk 0:01:00.]",
            "[%clk\t0:01:00]",
            "[%clk 0:01:00]\x0b",
            "[%clk 99999999999999999999999:00]",
            &format!("[%clk {}:00]", "9".repeat(400)),
            "[%clk é]",
            "[%clkx 0:01]",
            "[%clk]",
            "",
        ] {
            for white in [true, false] {
                if let Some(read) = commands.clock_only(text) {
                    taken += 1;
                    assert_eq!(read, commands.read_any(text, white), "{text:?}");
                }
                assert_eq!(
                    commands.read(text, white),
                    commands.read_any(text, white),
                    "{text:?}"
                );
            }
        }
        assert!(taken >= 12, "{taken}");
    }

    #[test]
    fn hand_written_folding_and_removal_equal_the_patterns() {
        let fast = commands();
        assert!(fast.fold_by_words && fast.commands_by_brackets);
        let mut slow = commands();
        slow.fold_by_words = false;
        slow.commands_by_brackets = false;
        for text in [
            "",
            "  ",
            "[%clk 0:01:00]",
            " a [%csl Ge4][%cal Ge2e4]b\u{a0}\u{2003}c\u{200b} [% x",
            "[%[%]] ] [%",
            "x\u{85}y\u{2028}\u{3000}z [%eval 1] \t\n",
        ] {
            assert_eq!(fast.read(text, true), slow.read(text, true), "{text:?}");
        }
    }

    /// Every text of `tokens` up to `len` tokens, then random ones of up to 14 tokens.
    fn texts(tokens: &[&str], len: u32) -> Vec<String> {
        let mut out = Vec::new();
        let n = tokens.len();
        for k in 0..=len {
            for mut code in 0..n.pow(k) {
                let mut text = String::new();
                for _ in 0..k {
                    text.push_str(tokens[code % n]);
                    code /= n;
                }
                out.push(text);
            }
        }
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..20_000 {
            let mut text = String::new();
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            for _ in 0..(state % 15) {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                text.push_str(tokens[(state >> 32) as usize % n]);
            }
            out.push(text);
        }
        out
    }

    #[test]
    fn hand_written_matchers_equal_the_patterns() {
        type Matcher = fn(&str) -> Option<Groups<'_>>;
        let cases: [(&str, Matcher, [&str; 9]); 3] = [
            (
                fast::CLOCK,
                fast::clock,
                ["[%clk", " ", "1", "23", ":", ".", "]", "x", "\n"],
            ),
            (
                fast::EMT,
                fast::emt,
                ["[%emt", "\t", "4", "56", ":", ".", "]", "[%clk", " "],
            ),
            (
                fast::EVAL,
                fast::eval,
                ["[%eval", " ", "7", "#", "-", ".", ",", "]", "+"],
            ),
        ];
        for (pattern, matcher, tokens) in cases {
            let regex = Regex::new(pattern).unwrap();
            for text in texts(&tokens, 5) {
                let expected = regex
                    .captures(text.as_str())
                    .unwrap()
                    .map(|caps| Groups::of(&caps));
                assert_eq!(matcher(&text), expected, "{pattern} on {text:?}");
            }
        }
    }

    #[test]
    fn hand_written_matchers_are_used_for_plain_text_only() {
        let c = commands();
        assert!(c.known.clock && c.known.emt && c.known.eval);
        let read = c.read("[%clk 0:0\u{663}:00] [%eval 1.5]", true);
        assert_eq!(read.clock_seconds, None); // the pattern's \d takes the Arabic-Indic digit
        assert_eq!(
            read.problems,
            vec![(Column::ClockSeconds, "[%clk 0:0\u{663}:00]".to_string())]
        );
        assert!(!Held::of("a\u{b}b").plain && Held::of("[%clk 1:00]\t\r\n").plain);
    }

    #[test]
    fn lichess_comment() {
        let read = commands().read("[%eval -0.25] [%clk 0:02:59.5]", false);
        assert_eq!(read.clock_seconds, Some(179.5));
        assert_eq!(read.eval_cp, Some(-25));
        assert_eq!(read.comment, None);
        assert!(read.problems.is_empty());
    }

    #[test]
    fn engine_comment_and_score_depth() {
        let c = commands();
        let read = c.read("d=34, mt=3076, tl=57236, wv=-M15, good", true);
        assert_eq!(read.depth, Some(34));
        assert_eq!(read.move_time_ms, Some(3076));
        assert_eq!(read.clock_seconds, Some(57.236));
        assert_eq!(read.eval_mate, Some(-15));
        let read = c.read("+0.18/23 239", false);
        assert_eq!((read.eval_cp, read.depth), (Some(-18), Some(23)));
    }

    #[test]
    fn values_that_do_not_fit() {
        let read = commands().read("[%eval #-99999] [%emt 0:00:٣]", true);
        assert_eq!(read.eval_mate, None);
        assert_eq!(read.move_time_ms, Some(0)); // unreadable seconds count as none
        assert_eq!(
            read.problems,
            vec![(Column::EvalMate, "[%eval #-99999]".to_string())]
        );
        assert!(Commands::new(&[]).is_err());
    }
}
