//! The outline of a plain game, read without Python: the tokens [`crate::lex`] cuts, parsed
//! by Lark's own LALR automaton of `grammars/pgn.lark` ([`crate::lalr`], the tables Lark
//! builds), and the tree's nodes built as `notation.pgn.parser.OutlineBuilder` builds them.
//!
//! For the games `lex` cuts, the tree has the rules `tags_start`, `tags_add`, `line_start`,
//! `line_comment`, `line_moves`, `end_result`/`end_none` and `start`; their builder methods are
//! mirrored here: the tags of the `TAGS` run (split into tag pairs, values unescaped), the
//! mainline's `MOVES` run, the `RESULT` token. A comment before the first move stays out of
//! the outline, as in the builder. Anything else (another rule, a tag given twice, which the
//! builder reports) returns None, and Lark parses the game in Python. A test compares the
//! outlines with the builder's on the corpus and on mutated games.

use std::borrow::Cow;
use std::sync::OnceLock;

use crate::lalr::{self, Event};
use crate::lex::{self, Tok};

/// What the builder makes of a plain game's parse: byte ranges in its text.
#[derive(Debug, PartialEq, Eq)]
pub struct Outline<'t> {
    /// The tag pairs in order (names given once each): name, value unescaped.
    pub tags: Vec<(&'t str, Cow<'t, str>)>,
    /// The mainline's `MOVES` run, if it has one.
    pub moves: Option<(usize, usize)>,
    /// The `RESULT` token (its blanks included), if the game has one.
    pub result: Option<(usize, usize)>,
}

/// The terminals `lex` cuts, as indices into the tables' terminals.
fn terminal_of(kind: &str) -> Option<u16> {
    static TERMINALS: OnceLock<[Option<u16>; 4]> = OnceLock::new();
    let found = TERMINALS.get_or_init(|| {
        let terminals = &lalr::pgn().terminals;
        ["TAGS", "COMMENT", "MOVES", "RESULT"].map(|name| {
            terminals
                .iter()
                .position(|t| t.name == name)
                .and_then(|i| u16::try_from(i).ok())
        })
    });
    let index = match kind {
        "TAGS" => 0,
        "COMMENT" => 1,
        "MOVES" => 2,
        "RESULT" => 3,
        _ => return None,
    };
    found[index]
}

/// A `TAG_STRING`'s value: quotes removed, `\x` read as `x` (`notation.pgn.tags.unquote`).
fn unquote(string: &str) -> Cow<'_, str> {
    let inner = &string[1..string.len() - 1];
    if !inner.contains('\\') {
        return Cow::Borrowed(inner);
    }
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(next) = chars.next() {
                out.push(next);
            }
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// The tag pairs of one `TAGS` run (pairs and the blanks after each), or None when a name is
/// given twice (the builder reports it).
fn tag_pairs(text: &str, start: usize, end: usize) -> Option<Vec<(&str, Cow<'_, str>)>> {
    let b = text.as_bytes();
    let mut pairs: Vec<(&str, Cow<'_, str>)> = Vec::with_capacity(12);
    let mut i = start;
    while i < end {
        if b[i].is_ascii_whitespace() || b[i] == 0x0b {
            i += 1;
            continue;
        }
        let pair = lex::tag_parts(text, i)?;
        let name = &text[pair.name.0..pair.name.1];
        if pairs.iter().any(|(seen, _)| *seen == name) {
            return None;
        }
        pairs.push((name, unquote(&text[pair.string.0..pair.string.1])));
        i = pair.end;
    }
    Some(pairs)
}

/// The tag pairs `lex` read (names and unescaped values), or None when a name is given twice
/// (as [`tag_pairs`] reads them from the text).
fn pairs_of<'t>(text: &'t str, parts: &[lex::TagParts]) -> Option<Vec<(&'t str, Cow<'t, str>)>> {
    let mut pairs: Vec<(&str, Cow<'_, str>)> = Vec::with_capacity(parts.len());
    for pair in parts {
        let name = &text[pair.name.0..pair.name.1];
        if pairs.iter().any(|(seen, _)| *seen == name) {
            return None;
        }
        pairs.push((name, unquote(&text[pair.string.0..pair.string.1])));
    }
    Some(pairs)
}

/// The outline of `text` when `lex` cuts its tokens and the builder's rules cover its tree.
pub fn outline(text: &str) -> Option<Outline<'_>> {
    let mut parts = Vec::with_capacity(16);
    let cut: Vec<Tok> = lex::lex_game_tags(text, &mut parts)?;
    let tokens = cut
        .iter()
        .map(|t| Some((terminal_of(t.kind)?, t.start, t.end)))
        .collect::<Option<Vec<_>>>()?;
    let tables = lalr::pgn();
    let mut events = Vec::with_capacity(2 * tokens.len() + 4);
    tables.parse_tokens(&tokens, &mut events).ok()?;
    let mut out = Outline {
        tags: Vec::new(),
        moves: None,
        result: None,
    };
    let (mut last, mut lines, mut tag_runs) = (None, 0, 0);
    for event in &events {
        match *event {
            Event::Token { start, end, .. } => last = Some((start, end)),
            Event::Reduce { rule } => match tables.rules[usize::from(rule)].name.as_str() {
                "tags_start" | "line_comment" | "end_none" | "start" => {}
                "tags_add" => {
                    tag_runs += 1;
                    if tag_runs > 1 {
                        return None; // a second run merges into the first: the builder's
                    }
                    let (start, end) = last?;
                    // the one TAGS token `lex` cuts: its pairs are the ones it read
                    debug_assert_eq!(Some(pairs_of(text, &parts)?), tag_pairs(text, start, end));
                    out.tags = if parts.first().map(|p| p.name.0) > Some(start)
                        && parts.last().map(|p| p.end) <= Some(end)
                    {
                        pairs_of(text, &parts)?
                    } else {
                        tag_pairs(text, start, end)?
                    };
                }
                "line_start" => {
                    lines += 1;
                    if lines > 1 {
                        return None; // a variation
                    }
                }
                "line_moves" => {
                    if out.moves.is_some() {
                        return None;
                    }
                    out.moves = Some(last?);
                }
                "end_result" => out.result = Some(last?),
                _ => return None,
            },
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_game() {
        let text = "[Event \"A \\\"b\\\"\"]\n[Result \"1-0\"]\n\n{intro} 1. e4 {c} e5 1-0\n";
        let found = outline(text).expect("a plain game");
        assert_eq!(
            found.tags,
            vec![
                ("Event", Cow::Owned("A \"b\"".to_string())),
                ("Result", Cow::Borrowed("1-0")),
            ]
        );
        let (start, end) = found.moves.expect("moves");
        assert_eq!(&text[start..end], "1. e4 {c} e5 ");
        let (start, end) = found.result.expect("a result");
        assert_eq!(&text[start..end], "1-0\n");
    }

    #[test]
    fn tags_alone_and_the_builders_cases() {
        let found = outline("[Event \"x\"]\n").expect("tags alone");
        assert_eq!((found.moves, found.result), (None, None));
        // a tag given twice is reported by the builder; a variation is Lark's
        assert_eq!(outline("[Event \"x\"]\n[Event \"y\"]\n\n1. e4 *\n"), None);
        assert_eq!(outline("[Event \"x\"]\n\n1. e4 (1. d4) *\n"), None);
    }
}
