//! The terminals of `grammars/pgn.lark` for a game whose text the core reads whole: a run of
//! tag pairs (`TAGS`), one run of moves (`MOVES`) and the termination marker (`RESULT`), each
//! with the blanks after it, as Lark's contextual lexer would cut them.
//!
//! Comments before the first move are `COMMENT` tokens (as in every TCEC game, which opens
//! with the engines' options).
//!
//! The core parses these tokens with Lark's automaton ([`crate::outline`]), or Lark parses them
//! in Python (where its builder has something to report). Anything else (a malformed tag, a variation, a lenient spelling, an escape line, non-ASCII blanks, text after the result) returns `None`,
//! and the game is lexed by Lark itself. A test compares the tokens with Lark's own on the
//! corpus and on generated games.

use crate::scan::scan_extent_kept;

/// One token: its terminal name and its byte range in the game's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tok {
    pub kind: &'static str,
    pub start: usize,
    pub end: usize,
}

/// Blanks as `\s*` takes them, or None at a byte that Python's `\s` might also take (a
/// non-ASCII character, or the separators U+001C..U+001F).
fn blanks(b: &[u8], mut i: usize) -> Option<usize> {
    while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c) {
        i += 1;
    }
    if i < b.len() && (b[i] >= 0x80 || (0x1c..=0x1f).contains(&b[i])) {
        return None;
    }
    Some(i)
}

fn spaces(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
        i += 1;
    }
    i
}

/// The parts of one well-formed tag pair (`TAG_PAIR`): byte ranges in the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TagParts {
    /// `TAG_NAME`
    pub name: (usize, usize),
    /// `TAG_STRING`, its quotes included
    pub string: (usize, usize),
    /// The index after the `]`
    pub end: usize,
}

/// The `TAG_PAIR` at `i`, or None when there is none.
pub fn tag_parts(text: &str, i: usize) -> Option<TagParts> {
    let b = text.as_bytes();
    if b.get(i) != Some(&b'[') {
        return None;
    }
    let mut j = spaces(b, i + 1);
    let name_start = j;
    let first = *b.get(j)?;
    if !(first.is_ascii_alphanumeric() || first == b'_') {
        return None;
    }
    j += 1;
    while j < b.len() && (b[j].is_ascii_alphanumeric() || b"_+#=:-".contains(&b[j])) {
        j += 1;
    }
    let name = (name_start, j);
    j = spaces(b, j);
    if b.get(j) != Some(&b'"') {
        return None;
    }
    let string_start = j;
    j += 1;
    loop {
        match *b.get(j)? {
            b'"' => break,
            b'\r' | b'\n' => return None,
            b'\\' => {
                // '.' after the backslash: any character but a line feed
                let c = text[j + 1..].chars().next()?;
                if c == '\n' {
                    return None;
                }
                j += 1 + c.len_utf8();
            }
            _ => j += 1,
        }
    }
    let string = (string_start, j + 1);
    j = spaces(b, j + 1);
    if b.get(j) != Some(&b']') {
        return None;
    }
    Some(TagParts {
        name,
        string,
        end: j + 1,
    })
}

/// A closed `{...}` (`BRACE_COMMENT`) or a `;...` comment (`LINE_COMMENT`) at `i`: the index
/// after it. An unclosed `{` is Lark's (`UNCLOSED_COMMENT`, reported).
fn comment(b: &[u8], i: usize) -> Option<usize> {
    match b.get(i)? {
        b'{' => b[i + 1..]
            .iter()
            .position(|&c| c == b'}')
            .map(|k| i + k + 2),
        b';' => Some(
            b[i + 1..]
                .iter()
                .position(|&c| c == b'\n')
                .map_or(b.len(), |k| i + 1 + k),
        ),
        _ => None,
    }
}

const RESULTS: [&str; 4] = ["1/2-1/2", "1-0", "0-1", "*"];

/// The tokens of a whole game chunk, or None when Lark must lex it.
pub fn lex_game(text: &str) -> Option<Vec<Tok>> {
    lex_game_tags(text, &mut Vec::new())
}

/// [`lex_game`], and the parts of the tag pairs of its `TAGS` token in `tags` (in order), so
/// that the outline need not read them again.
pub fn lex_game_tags(text: &str, tags: &mut Vec<TagParts>) -> Option<Vec<Tok>> {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(3);
    // TAGS: one or more tag pairs, each with the blanks after it
    let mut i = 0;
    tags.clear();
    while b.get(i) == Some(&b'[') {
        let parts = tag_parts(text, i)?;
        i = blanks(b, parts.end)?;
        tags.push(parts);
    }
    if i == 0 {
        return None;
    }
    out.push(Tok {
        kind: "TAGS",
        start: 0,
        end: i,
    });
    // COMMENT: comments before the first move (an engine's options, an annotator's intro),
    // each with the blanks after it; a comment after a move belongs to its MOVES run
    while let Some(end) = comment(b, i) {
        let end = blanks(b, end)?;
        out.push(Tok {
            kind: "COMMENT",
            start: i,
            end,
        });
        i = end;
    }
    // MOVES: the core's moves up to the termination marker or the end
    if i < b.len() {
        let (pieces, stop) = scan_extent_kept(&text[i..]).ok()?;
        if pieces > 0 {
            let end = i + stop;
            out.push(Tok {
                kind: "MOVES",
                start: i,
                end,
            });
            i = end;
        }
    }
    // RESULT, then nothing
    if i < b.len() {
        let marker = RESULTS.iter().find(|r| text[i..].starts_with(*r))?;
        let after = i + marker.len();
        if let Some(&c) = b.get(after) {
            if c.is_ascii_alphanumeric() || c == b'_' || c == b'-' || c >= 0x80 {
                return None; // (?![\w-]), or a character to leave to the regex
            }
        }
        let end = blanks(b, after)?;
        if end != b.len() {
            return None;
        }
        out.push(Tok {
            kind: "RESULT",
            start: i,
            end,
        });
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Option<Vec<(&'static str, String)>> {
        lex_game(text).map(|tokens| {
            tokens
                .iter()
                .map(|t| (t.kind, text[t.start..t.end].to_string()))
                .collect()
        })
    }

    #[test]
    fn a_clean_game() {
        let text =
            "[Event \"A \\\"b\\\"\"]\n[Result \"1-0\"]\n\n1. e4 {[%clk 0:01:00]} e5 2. Qh5 1-0\n";
        assert_eq!(
            kinds(text),
            Some(vec![
                (
                    "TAGS",
                    "[Event \"A \\\"b\\\"\"]\n[Result \"1-0\"]\n\n".to_string()
                ),
                ("MOVES", "1. e4 {[%clk 0:01:00]} e5 2. Qh5 ".to_string()),
                ("RESULT", "1-0\n".to_string()),
            ])
        );
    }

    #[test]
    fn leaves_the_rest_to_lark() {
        for text in [
            "[Event \"x\"\n1. e4 *",
            "[Event \"x\"]\n\n{intro 1. e4 *",
            "[Event \"x\"]\n\n1. e4 (1. d4) *",
            "[Event \"x\"]\n\n1. e4 0-0 *",
            "[Event \"x\"]\n\n1. e4 * junk",
            "[Event \"x\"]\n\n1. e4 ½-½",
            "[Event \"x\"]\u{a0}\n1. e4 *",
            "1. e4 *",
            "[Event \"x\"]\n\n1. e4 {open",
        ] {
            assert_eq!(lex_game(text), None, "{text}");
        }
    }

    #[test]
    fn comments_before_the_first_move() {
        let text = "[Event \"x\"]\n\n{intro} ; a line\n{two}\n1. e4 {c} *\n";
        assert_eq!(
            kinds(text),
            Some(vec![
                ("TAGS", "[Event \"x\"]\n\n".to_string()),
                ("COMMENT", "{intro} ".to_string()),
                ("COMMENT", "; a line\n".to_string()),
                ("COMMENT", "{two}\n".to_string()),
                ("MOVES", "1. e4 {c} ".to_string()),
                ("RESULT", "*\n".to_string()),
            ])
        );
        assert_eq!(kinds("[Event \"x\"]\n{only}\n").unwrap().len(), 2);
    }

    #[test]
    fn tags_alone_or_a_result_alone() {
        assert_eq!(kinds("[Event \"x\"]\n").unwrap().len(), 1);
        assert_eq!(kinds("[Event \"x\"]\n\n*\n").unwrap()[1].0, "RESULT");
    }
}
