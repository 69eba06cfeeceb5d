//! The `validate` report line (jsonl) of an ordinary game, written by the core: what
//! `notation.validation.core.check_raw` and `GameReport.to_json` make of a game, for the games
//! whose every check is decided here.
//!
//! A game is taken when the core reads its outline whole (`crate::outline`), its start position
//! is one the core takes (Python's answer for a game with `FEN`, `SetUp` or `Variant` tags,
//! remembered there), its `Result` tag is a result and its termination marker says the same,
//! its dates are plain valid dates, the core replays its mainline, and what it finds is what an
//! ordinary game's report says: the roster tags missing, the claims (threefold, fifty moves,
//! perpetual check; fivefold and 75 moves with the moves played after them), wrong check
//! suffixes and move numbers, a checkmate or a stalemate that agrees with the result, a dead
//! position after which the game was not won, a win on time where the winner can still mate.
//! Anything else (a result the board contradicts, a win on time to be looked at) is not written
//! (`None`) and Python makes the report, as before: the two are the same text, which a test
//! compares on the corpus.

#![cfg_attr(not(feature = "python"), allow(dead_code))]

use std::fmt::Write;

#[cfg(feature = "python")]
use crate::dead;
#[cfg(feature = "python")]
use crate::python::{replay_game_inner, CoreGame};
#[cfg(feature = "python")]
use crate::replay::Item;

#[cfg(feature = "python")]
/// What the reference's limits are (`notation.pgn.model.MAX_VARIATION_DEPTH`, the reader's
/// cap on reported diagnostics) and the dead-position search budget of each game.
pub(crate) struct Limits {
    pub max_depth: usize,
    pub reported: usize,
    pub searches: u32,
}

/// What the core is given of a game's start position (`notation.validation.core.core_start`):
/// its FEN (None: the standard start), halfmove clock, move number, whether it is Chess960, and
/// the plies before it counted from move 1 (the labels of a text listing).
#[cfg(feature = "python")]
pub(crate) type Start = (Option<String>, u32, u32, bool, u32);

/// The start position of a game from its `FEN`, `Variant` and `SetUp` tags (None: absent), or
/// None when Python must read the game.
#[cfg(feature = "python")]
pub(crate) type StartOf<'a> =
    dyn FnMut(Option<&str>, Option<&str>, Option<&str>) -> Option<Start> + 'a;

#[cfg(feature = "python")]
/// A game's report line and what the run's summary counts of it.
pub(crate) struct Line {
    pub text: String,
    /// "ok", or "warning" (a wrong check suffix or move number, a move after an automatic end)
    pub status: &'static str,
    pub plies: u32,
    pub variation_plies: u32,
    /// The codes of its diagnostics, in order
    pub codes: Vec<&'static str>,
    /// Plies before the start position (see [`Start`])
    pub start_ply: u32,
}

pub(crate) const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];
const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];
pub(crate) const DATE_TAGS: [&str; 3] = ["Date", "EventDate", "UTCDate"];

/// `notation.pgn.plain.needs_guard`: whether the text may nest variations deeper than the
/// cap or hold more unmatched `)` than can be reported (every parenthesis counted).
pub(crate) fn needs_guard(text: &str, max_depth: usize, reported: usize) -> bool {
    let bytes = text.as_bytes();
    let opening = memchr::memchr_iter(b'(', bytes).count();
    let closing = memchr::memchr_iter(b')', bytes).count();
    if opening <= max_depth && closing <= reported {
        return false;
    }
    let (mut depth, mut unmatched) = (0usize, 0usize);
    for &byte in bytes {
        if byte == b'(' {
            depth += 1;
            if depth > max_depth {
                return true;
            }
        } else if byte == b')' {
            if depth > 0 {
                depth -= 1;
            } else {
                unmatched += 1;
                if unmatched > reported {
                    return true;
                }
            }
        }
    }
    false
}

/// A date the reference finds valid, written plainly: `YYYY.MM.DD` in ASCII digits with `????`
/// and `??` for unknown parts, no blanks, a real calendar date when complete. Anything else
/// (which the reference may report, or read with Unicode digits) is left to it.
pub(crate) fn plain_valid_date(text: &str) -> bool {
    let b = text.as_bytes();
    if b.len() != 10 || b[4] != b'.' || b[7] != b'.' {
        return false;
    }
    let part = |range: std::ops::Range<usize>| -> Option<Option<u32>> {
        let field = &b[range];
        if field.iter().all(|&c| c == b'?') {
            Some(None)
        } else if field.iter().all(u8::is_ascii_digit) {
            Some(Some(
                field
                    .iter()
                    .fold(0u32, |n, &c| n * 10 + u32::from(c - b'0')),
            ))
        } else {
            None
        }
    };
    let (Some(year), Some(month), Some(day)) = (part(0..4), part(5..7), part(8..10)) else {
        return false;
    };
    if month.is_some_and(|m| !(1..=12).contains(&m)) || day.is_some_and(|d| !(1..=31).contains(&d))
    {
        return false;
    }
    match (year, month, day) {
        (Some(y), Some(m), Some(d)) => y >= 1 && d <= days_in_month(y, m),
        _ => true,
    }
}

fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        2 if year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400)) => {
            29
        }
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Whether a `Termination` tag may say the game was won on time: a superset of
/// `notation.validation.checks.TIME_FORFEIT_PATTERN` (each of its branches holds `time` or
/// `flag`), and any text with a character that is not ASCII (Unicode case folding).
pub(crate) fn may_be_time_forfeit(termination: &str) -> bool {
    if !termination.is_ascii() {
        return true;
    }
    let lower = termination.to_ascii_lowercase();
    lower.contains("time") || lower.contains("flag")
}

/// `json.dumps(text, ensure_ascii=False)`: quotes, backslashes and control characters escaped.
fn push_json_string(out: &mut String, text: &str) {
    out.push('"');
    let mut from = 0;
    for (i, byte) in text.bytes().enumerate() {
        let escaped = match byte {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0..=0x1f => "",
            _ => continue,
        };
        out.push_str(&text[from..i]);
        if escaped.is_empty() {
            let _ = write!(out, "\\u{byte:04x}");
        } else {
            out.push_str(escaped);
        }
        from = i + 1;
    }
    out.push_str(&text[from..]);
    out.push('"');
}

fn push_json_option(out: &mut String, text: Option<&str>) {
    match text {
        Some(text) => push_json_string(out, text),
        None => out.push_str("null"),
    }
}

/// The line and column (in characters) of byte `at` of a game's text that starts at `line`.
pub(crate) fn place(text: &str, line: usize, at: usize) -> (usize, usize) {
    let before = &text[..at];
    let newlines = memchr::memchr_iter(b'\n', before.as_bytes()).count();
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line + newlines, text[line_start..at].chars().count() + 1)
}

const INFO: &str = "info";
const WARNING: &str = "warning";

/// A diagnostic of the report (`notation.diagnostics.Diagnostic`'s JSON fields).
struct Found {
    code: &'static str,
    severity: &'static str,
    message: String,
    line: u32,
    column: Option<u32>,
    ply: Option<u32>,
    san: Option<String>,
}

impl Found {
    /// At a ply: `(line, column, ply, SAN as written)`.
    fn at(
        code: &'static str,
        severity: &'static str,
        message: String,
        (line, column, ply, san): (u32, u32, u32, &String),
    ) -> Found {
        Found {
            code,
            severity,
            message,
            line,
            column: Some(column),
            ply: Some(ply),
            san: Some(san.clone()),
        }
    }

    fn push_json(&self, out: &mut String) {
        let _ = write!(
            out,
            "{{\"code\":\"{}\",\"severity\":\"{}\",\"message\":",
            self.code, self.severity
        );
        push_json_string(out, &self.message);
        let _ = write!(out, ",\"line\":{},\"column\":", self.line);
        push_json_number(out, self.column);
        out.push_str(",\"ply\":");
        push_json_number(out, self.ply);
        out.push_str(",\"san\":");
        push_json_option(out, self.san.as_deref());
        out.push('}');
    }
}

fn push_json_number(out: &mut String, value: Option<u32>) {
    match value {
        Some(value) => {
            let _ = write!(out, "{value}");
        }
        None => out.push_str("null"),
    }
}

/// Python's `repr` of a SAN as the core reads it (letters, digits and `=+#-`): in single
/// quotes. None for anything else (the reference words it).
fn san_repr(san: &str) -> Option<String> {
    san.bytes()
        .all(|c| c.is_ascii_alphanumeric() || b"=+#-".contains(&c))
        .then(|| format!("'{san}'"))
}

/// `notation.validation.shared.suffix_message`.
fn suffix_message(san: &str, suffix: &str, expected: &str) -> Option<String> {
    let san = san_repr(san)?;
    Some(if expected.is_empty() {
        format!("{san} does not give check: drop the '{suffix}'")
    } else if suffix.is_empty() {
        let what = if expected == "#" {
            "checkmate"
        } else {
            "check"
        };
        format!("{san} gives {what}: write '{expected}'")
    } else if expected == "#" {
        format!("{san} gives checkmate: write '#' not '+'")
    } else {
        format!("{san} gives check but not mate: write '+' not '#'")
    })
}

/// `notation.validation.checks.located_claim_diagnostics`: the claims' information and the
/// warnings for moves played after an automatic end. None where a ply is not marked.
#[cfg(feature = "python")]
fn claim_diagnostics(game: &CoreGame, found: &mut Vec<Found>) -> Option<()> {
    let locate = |ply: u32| game.marks.iter().find(|m| m.0 == ply);
    let mut at = |ply: u32, code: &'static str, severity: &'static str, message: String| {
        let mark = locate(ply)?;
        found.push(Found::at(
            code,
            severity,
            message,
            (mark.1, mark.2, ply, &mark.3),
        ));
        Some(())
    };
    let last = game.plies;
    if let Some(ply) = game.threefold {
        at(
            ply,
            "claim.threefold",
            INFO,
            "threefold repetition: a draw could be claimed (10.10)".into(),
        )?;
    }
    if let Some(ply) = game.fifty_moves {
        at(
            ply,
            "claim.fifty-moves",
            INFO,
            "50 moves by each side without capture or pawn move: a draw could be claimed (10.12)"
                .into(),
        )?;
    }
    if let Some(ply) = game.fivefold {
        at(
            ply,
            "claim.fivefold",
            INFO,
            "the position occurred for the fifth time: the game is drawn (9.6.1)".into(),
        )?;
        if ply < last {
            at(
                ply + 1,
                "game.move-after-fivefold",
                WARNING,
                format!("move played after the fivefold repetition at ply {ply} ended the game"),
            )?;
        }
    }
    if let Some(ply) = game.seventyfive_moves {
        at(
            ply,
            "claim.seventyfive-moves",
            INFO,
            "75 moves by each side without capture or pawn move: the game is drawn (9.6.2)".into(),
        )?;
        if ply < last {
            at(
                ply + 1,
                "game.move-after-75-moves",
                WARNING,
                format!("move played after the 75-move rule ended the game at ply {ply}"),
            )?;
        }
    }
    if let Some((side, first, ply)) = game.perpetual {
        let mark = locate(first)?;
        let dots = if mark.5 { "." } else { "..." };
        let label = format!("{}{dots} {}", mark.4, mark.3);
        at(
            ply,
            "pattern.perpetual-check",
            INFO,
            format!(
                "perpetual check: {side} checked with every move from {label} until the position repeated three times"
            ),
        )?;
    }
    Some(())
}

/// `m.fullmove` `.`/`...` `m.san`: a ply's label (`notation.validation.checks._label`).
#[cfg(feature = "python")]
fn label(mark: &(u32, u32, u32, String, u32, bool)) -> String {
    format!("{}{} {}", mark.4, if mark.5 { "." } else { "..." }, mark.3)
}

/// `notation.validation.checks.dead_diagnostics`: the first dead position (5.2.2), an
/// information, and a warning for the moves played after it; a stalemate that ends the game is
/// dead too, and not reported twice. None where a ply is not marked.
#[cfg(feature = "python")]
fn dead_diagnostics(game: &CoreGame, line: usize, found: &mut Vec<Found>) -> Option<()> {
    let Some(first) = game.first_dead else {
        return Some(());
    };
    let last = game.plies;
    if first == last && game.termination == Some("stalemate") {
        return Some(());
    }
    let locate = |ply: u32| game.marks.iter().find(|m| m.0 == ply);
    let why: Vec<String> = [("white", game.white_mate), ("black", game.black_mate)]
        .into_iter()
        .filter_map(|(name, (can, reason))| {
            (can == Some(false))
                .then_some(reason)
                .flatten()
                .map(|reason| format!("{name}: {reason}"))
        })
        .collect();
    let because = if why.is_empty() {
        String::new()
    } else {
        format!(" ({})", why.join(", "))
    };
    let message = format!(
        "neither side can checkmate by any series of legal moves{because}: the game is drawn (5.2.2)"
    );
    if first == 0 {
        found.push(Found {
            code: "game.dead-position",
            severity: INFO,
            message: format!("the start position is dead: {message}"),
            line: u32::try_from(line).ok()?,
            column: None,
            ply: Some(0),
            san: None,
        });
    } else {
        let mark = locate(first)?;
        found.push(Found::at(
            "game.dead-position",
            INFO,
            format!("the position after {} is dead: {message}", label(mark)),
            (mark.1, mark.2, first, &mark.3),
        ));
    }
    if first < last {
        let mark = locate(first + 1)?;
        let since = if first == 0 {
            "the start position".to_string()
        } else {
            label(locate(first)?)
        };
        found.push(Found::at(
            "game.move-after-dead-position",
            WARNING,
            format!("move played after the game ended in a dead position ({since}, ply {first})"),
            (mark.1, mark.2, first + 1, &mark.3),
        ));
    }
    Some(())
}

/// A game the core may take whole (validate's report line, import's rows), as its outline
/// reads it: a mainline run and a result marker that agrees with a valid `Result` tag, dates
/// the reference reads as valid, and the run's place in the file.
#[cfg(feature = "python")]
pub(crate) struct Plain<'t> {
    pub found: crate::outline::Outline<'t>,
    /// The `Result` tag (one of [`RESULTS`]) and the winner it names (`Some(true)`: White).
    pub result: &'t str,
    pub wins: Option<bool>,
    /// The mainline's run, placed in the file.
    pub run: Item,
}

#[cfg(feature = "python")]
impl Plain<'_> {
    /// The value of tag `name` (the first, unescaped), if the game has it.
    pub fn tag(&self, name: &str) -> Option<&str> {
        outline_tag(&self.found, name)
    }

    /// Whether the game starts from a position the tags give (`FEN`, `SetUp` or a `Variant`
    /// other than `Standard`): Python reads it.
    pub fn set_up(&self) -> bool {
        self.tag("FEN").is_some()
            || self.tag("SetUp").is_some()
            || self.tag("Variant").is_some_and(|v| v != "Standard")
    }
}

/// The value of tag `name` in `outline` (the first, unescaped), if it has it.
#[cfg(feature = "python")]
pub(crate) fn outline_tag<'a>(
    outline: &'a crate::outline::Outline<'_>,
    name: &str,
) -> Option<&'a str> {
    outline
        .tags
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, v)| v.as_ref())
}

/// [`Plain`] of the game `text` (starting at `line`), or None when Python must read it: its
/// variations may go past the reader's caps, the outline does not read it whole, it has no
/// moves (the reader reports an empty game) or no marker (the reader reports it missing), the
/// marker and the `Result` tag disagree, or a date is one the reference reads otherwise.
#[cfg(feature = "python")]
pub(crate) fn plain<'t>(text: &'t str, line: usize, limits: &Limits) -> Option<Plain<'t>> {
    if needs_guard(text, limits.max_depth, limits.reported) {
        return None;
    }
    let found = crate::outline::outline(text)?;
    let (moves_start, moves_end) = found.moves?;
    let (result_start, result_end) = found.result?;
    let mut game = Plain {
        found,
        result: "*",
        wins: None,
        run: Item::Comment(String::new()),
    };
    let result = game.tag("Result")?;
    if !RESULTS.contains(&result) || text[result_start..result_end].trim_end() != result {
        return None;
    }
    if DATE_TAGS
        .iter()
        .any(|name| game.tag(name).is_some_and(|value| !plain_valid_date(value)))
    {
        return None;
    }
    let result: &str = RESULTS.iter().copied().find(|r| *r == result)?;
    let (run_line, run_column) = place(text, line, moves_start);
    game.run = Item::Run {
        text: text[moves_start..moves_end].to_owned(),
        line: u32::try_from(run_line).ok()?,
        column: u32::try_from(run_column).ok()?,
    };
    game.wins = match result {
        "1-0" => Some(true),
        "0-1" => Some(false),
        _ => None,
    };
    game.result = result;
    Some(game)
}

/// Whether the report of a replayed game with this recorded `result` (`wins`: the winner it
/// names; `termination`: its `Termination` tag) is one the core writes whole: not a decisive
/// result after a dead position, a mate or stalemate the result contradicts, or a win on time
/// the core has not shown the winner could still mate (the reference words those).
#[cfg(feature = "python")]
pub(crate) fn decided(
    game: &CoreGame,
    result: &str,
    wins: Option<bool>,
    termination: Option<&str>,
) -> bool {
    if game.first_dead.is_some() && wins.is_some() {
        return false;
    }
    match game.termination {
        None | Some("fivefold_repetition" | "seventyfive_moves") => {} // (no result checked against them)
        Some("checkmate") => {
            let expected = if game.winner == Some("white") {
                "1-0"
            } else {
                "0-1"
            };
            if result != "*" && result != expected {
                return false;
            }
        }
        Some("stalemate" | "dead_position") if wins.is_none() => {}
        Some(_) => return false,
    }
    if let Some(white) = wins {
        let verdict = if white {
            game.white_mate
        } else {
            game.black_mate
        };
        if verdict.0 != Some(true) && termination.is_some_and(may_be_time_forfeit) {
            return false;
        }
    }
    true
}

#[cfg(feature = "python")]
/// The report line of game `number` of `file` (its text starting at `line`), or None when
/// Python must make the report.
pub(crate) fn report_line(
    text: &str,
    file: &str,
    number: u64,
    line: usize,
    limits: &Limits,
    start: &mut StartOf<'_>,
) -> Option<Line> {
    let plain = plain(text, line, limits)?;
    let set_up = plain.set_up();
    let Plain {
        found: outline,
        result,
        wins,
        run,
    } = plain;
    let tag = |name: &str| outline_tag(&outline, name);
    let (fen, halfmove, fullmove, chess960, start_ply) = if set_up {
        start(tag("FEN"), tag("Variant"), tag("SetUp"))?
    } else {
        (None, 0, 1, false, 0)
    };
    let game: CoreGame = replay_game_inner(
        fen.as_deref(),
        vec![run],
        halfmove,
        fullmove,
        None,
        chess960,
        wins,
        limits.searches,
        dead::Need::Deadness,
    )
    .ok()?;
    if !decided(&game, result, wins, tag("Termination")) {
        return None;
    }
    let mut found: Vec<Found> = Vec::new();
    for &(kind, ply, at_line, at_column, ref san, ref written, ref expected) in &game.remarks {
        let message = if kind == "suffix" {
            suffix_message(san, written, expected)?
        } else {
            format!("move number {written} written, but this is move {expected}")
        };
        let code = if kind == "suffix" {
            "san.check-suffix"
        } else {
            "movenumber.mismatch"
        };
        found.push(Found::at(
            code,
            WARNING,
            message,
            (at_line, at_column, ply, san),
        ));
    }
    let missing: Vec<&str> = ROSTER
        .iter()
        .copied()
        .filter(|name| tag(name).is_none())
        .collect();
    if !missing.is_empty() {
        let plural = if missing.len() > 1 { "s" } else { "" };
        found.push(Found {
            code: "tags.missing-roster",
            severity: INFO,
            message: format!(
                "missing Seven Tag Roster tag{plural}: {}",
                missing.join(", ")
            ),
            line: u32::try_from(line).ok()?,
            column: None,
            ply: None,
            san: None,
        });
    }
    claim_diagnostics(&game, &mut found)?;
    dead_diagnostics(&game, line, &mut found)?;
    // in order of place, as `game_report` sorts them (a stable sort: no column counts as 0)
    found.sort_by_key(|d| (d.line, d.column.unwrap_or(0)));
    let status = if found.iter().any(|d| d.severity == WARNING) {
        "warning"
    } else {
        "ok"
    };
    let mut out = String::with_capacity(512 + file.len());
    out.push_str("{\"file\":");
    push_json_string(&mut out, file);
    let _ = write!(out, ",\"game\":{number},\"line\":{line},\"white\":");
    push_json_option(&mut out, tag("White"));
    out.push_str(",\"black\":");
    push_json_option(&mut out, tag("Black"));
    out.push_str(",\"result\":");
    push_json_string(&mut out, result);
    let _ = write!(
        out,
        ",\"status\":\"{status}\",\"plies\":{},\"final_fen\":",
        game.plies
    );
    push_json_string(&mut out, &game.final_fen);
    out.push_str(",\"outcome\":");
    match (game.termination, game.winner) {
        (None, None) => out.push_str("{\"termination\":null,\"winner\":null}"),
        (termination, winner) => {
            out.push_str("{\"termination\":");
            push_json_option(&mut out, termination);
            out.push_str(",\"winner\":");
            push_json_option(&mut out, winner);
            out.push('}');
        }
    }
    out.push_str(",\"claims\":{\"threefold\":");
    push_json_number(&mut out, game.threefold);
    out.push_str(",\"fifty_moves\":");
    push_json_number(&mut out, game.fifty_moves);
    out.push_str(",\"fivefold\":");
    push_json_number(&mut out, game.fivefold);
    out.push_str(",\"seventyfive_moves\":");
    push_json_number(&mut out, game.seventyfive_moves);
    out.push_str("},\"diagnostics\":[");
    for (i, d) in found.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        d.push_json(&mut out);
    }
    out.push_str("]}");
    Some(Line {
        text: out,
        status,
        plies: game.plies,
        variation_plies: game.variation_plies,
        codes: found.iter().map(|d| d.code).collect(),
        start_ply,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_as_the_reference_reads_plain_ones() {
        for valid in [
            "2024.02.29",
            "????.??.??",
            "2023.??.??",
            "2023.12.??",
            "????.02.30",
        ] {
            assert!(plain_valid_date(valid), "{valid}");
        }
        for not in [
            "2023.02.29",
            "0000.01.01",
            "2023.13.01",
            "2023.00.??",
            " 2023.01.01",
            "2023-01-01",
            "1900.02.29",
        ] {
            assert!(!plain_valid_date(not), "{not}");
        }
    }

    #[test]
    fn json_strings_as_python_writes_them() {
        let mut out = String::new();
        push_json_string(&mut out, "a\"b\\c\nd\u{1}é\u{7f}");
        assert_eq!(out, "\"a\\\"b\\\\c\\nd\\u0001é\u{7f}\"");
    }

    #[test]
    fn the_guard_as_the_reader_counts() {
        assert!(!needs_guard("1. e4 (1. d4) *", 64, 50));
        assert!(needs_guard(&"(".repeat(65), 64, 50));
        assert!(!needs_guard(&"()".repeat(65), 64, 50));
        assert!(needs_guard(&")".repeat(51), 64, 50));
    }
}
