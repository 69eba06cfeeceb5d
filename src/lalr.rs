//! Lark's LALR automaton for `grammars/pgn.lark`, run by the core.
//!
//! `notation.pgn.tables` exports what Lark builds for the product's PGN parser (LALR, the
//! contextual lexer, the grammar's possessive `%override` runs) into `grammars/pgn.lalr`: the
//! parse table, the terminals as the regexes Lark compiles them to, and for each parser state
//! the terminals its lexer tries, in Lark's order. This module loads that file and parses a
//! game the way Lark does:
//!
//! * lexing is Lark's contextual lexer: in the current parser state, the first terminal of that
//!   state's list whose regex matches at the position gives the token (Lark joins the regexes
//!   in that order into one alternation, so the first alternative that matches wins; the order
//!   is Lark's: priority, then the longest possible match, then the pattern's length, then the
//!   name); an ignored terminal is skipped; where no terminal of the state matches, all the
//!   terminals are tried (Lark's root lexer) to tell an unexpected token from an unexpected
//!   character;
//! * parsing is Lark's LALR loop: reduce while the table says so, shift the token; at the end,
//!   `$END` reduces up to the end state.
//!
//! The terminals' regexes use look-around and possessive repetitions, which the `regex` crate
//! does not have: they run on `fancy-regex`, which adds them on top of `regex` (and delegates
//! the plain parts of a pattern to it). The output is the post-order walk of the tree Lark
//! builds without a transformer ([`Event`]), compared with Lark's own in the tests.

use std::collections::HashMap;
use std::sync::OnceLock;

use fancy_regex::{Regex, RegexInput};

/// The exported tables of `grammars/pgn.lark` (see `notation.pgn.tables`).
pub const PGN_TABLES: &str = include_str!("../grammars/pgn.lalr");

/// One terminal: its name, whether the grammar ignores it, its regex.
pub struct Terminal {
    pub name: String,
    pub ignored: bool,
    regex: Regex,
}

/// One rule: the name of its tree node (the alias, or the rule's name) and its length.
pub struct Rule {
    pub name: String,
    origin: usize,
    pub size: usize,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Action {
    Error,
    Shift(u16),
    Reduce(u16),
}

/// A loaded automaton: terminals, rules, per-state lexers and the action/goto table.
pub struct Tables {
    pub terminals: Vec<Terminal>,
    pub rules: Vec<Rule>,
    /// The terminals each lexer tries, in order (indices into `terminals`).
    lexers: Vec<Vec<u16>>,
    root: usize,
    /// Per state: its lexer and its actions by symbol (terminals, then `$END`, then the
    /// nonterminals).
    state_lexer: Vec<usize>,
    actions: Vec<Vec<Action>>,
    start: u16,
    end: u16,
}

/// One step of the parse, in the order of a post-order walk of Lark's tree.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Event {
    /// A token: its terminal and its byte range.
    Token {
        terminal: u16,
        start: usize,
        end: usize,
    },
    /// A tree node closed: its rule (its children are the last `size` nodes).
    Reduce { rule: u16 },
}

/// Where and why a parse failed, as Lark raises it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Failure {
    /// No terminal matches at this byte (`UnexpectedCharacters`).
    Character { at: usize },
    /// A token the parser state does not accept (`UnexpectedToken`); `terminal` None is
    /// `$END`, located as Lark does at the last token's start (0 without tokens).
    Token { at: usize, terminal: Option<u16> },
}

fn field<'a>(line: Option<&'a str>, head: &str) -> Result<&'a str, String> {
    let line = line.ok_or_else(|| format!("missing '{head}' line"))?;
    line.strip_prefix(head)
        .and_then(|rest| rest.strip_prefix(' '))
        .ok_or_else(|| format!("expected '{head}', found {line:?}"))
}

fn number<T: std::str::FromStr>(text: &str) -> Result<T, String> {
    text.parse().map_err(|_| format!("not a number: {text:?}"))
}

impl Tables {
    /// Loads the text that `notation.pgn.tables.export` writes.
    pub fn load(text: &str) -> Result<Tables, String> {
        let mut lines = text.lines();
        if lines.next() != Some("notation-lalr 1") {
            return Err("not a notation-lalr 1 file".into());
        }
        field(lines.next(), "hash")?;
        field(lines.next(), "lark")?;
        let count: usize = number(field(lines.next(), "terminals")?)?;
        let mut terminals = Vec::with_capacity(count);
        for _ in 0..count {
            let line = lines.next().ok_or("missing terminal")?;
            let mut parts = line.splitn(3, '\t');
            let (name, ignored, pattern) = (parts.next(), parts.next(), parts.next());
            let (Some(name), Some(ignored), Some(pattern)) = (name, ignored, pattern) else {
                return Err(format!("bad terminal line {line:?}"));
            };
            let regex = Regex::new(pattern).map_err(|e| format!("terminal {name}: {e}"))?;
            terminals.push(Terminal {
                name: name.into(),
                ignored: ignored == "1",
                regex,
            });
        }
        let count: usize = number(field(lines.next(), "rules")?)?;
        let mut raw_rules = Vec::with_capacity(count);
        for _ in 0..count {
            let line = lines.next().ok_or("missing rule")?;
            let parts: Vec<&str> = line.split('\t').collect();
            let [name, origin, size] = parts[..] else {
                return Err(format!("bad rule line {line:?}"));
            };
            raw_rules.push((name.to_string(), origin.to_string(), number::<usize>(size)?));
        }
        let count: usize = number(field(lines.next(), "lexers")?)?;
        let mut lexers = Vec::with_capacity(count);
        for _ in 0..count {
            let line = lines.next().ok_or("missing lexer")?;
            let order = line
                .split(' ')
                .map(number::<u16>)
                .collect::<Result<Vec<_>, _>>()?;
            if order.iter().any(|&t| usize::from(t) >= terminals.len()) {
                return Err(format!("bad lexer line {line:?}"));
            }
            lexers.push(order);
        }
        let root: usize = number(field(lines.next(), "root")?)?;
        let count: usize = number(field(lines.next(), "states")?)?;
        // symbols: terminals, `$END`, then nonterminals as they are met
        let mut symbols: HashMap<String, usize> = terminals
            .iter()
            .enumerate()
            .map(|(i, t)| (t.name.clone(), i))
            .collect();
        symbols.insert("$END".into(), terminals.len());
        for (_, origin, _) in &raw_rules {
            let next = symbols.len();
            symbols.entry(origin.clone()).or_insert(next);
        }
        let mut state_lexer = Vec::with_capacity(count);
        let mut actions = Vec::with_capacity(count);
        for _ in 0..count {
            let line = lines.next().ok_or("missing state")?;
            let (lexer, list) = line
                .split_once('\t')
                .ok_or_else(|| format!("bad state {line:?}"))?;
            let lexer: usize = number(lexer)?;
            if lexer >= lexers.len() {
                return Err(format!("bad lexer in {line:?}"));
            }
            let mut row = vec![Action::Error; symbols.len()];
            for item in list.split(' ').filter(|item| !item.is_empty()) {
                let (symbol, action) = item
                    .split_once('=')
                    .ok_or_else(|| format!("bad action {item:?}"))?;
                let &symbol = symbols
                    .get(symbol)
                    .ok_or_else(|| format!("unknown symbol {symbol:?}"))?;
                row[symbol] = match action.split_at(1) {
                    ("s", to) => Action::Shift(number(to)?),
                    ("r", rule) => Action::Reduce(number(rule)?),
                    _ => return Err(format!("bad action {item:?}")),
                };
            }
            state_lexer.push(lexer);
            actions.push(row);
        }
        let start: u16 = number(field(lines.next(), "start")?)?;
        let end: u16 = number(field(lines.next(), "end")?)?;
        let rules: Vec<Rule> = raw_rules
            .into_iter()
            .map(|(name, origin, size)| Rule {
                name,
                origin: symbols[&origin],
                size,
            })
            .collect();
        for row in &actions {
            for action in row {
                let bad = match *action {
                    Action::Shift(to) => usize::from(to) >= count,
                    Action::Reduce(rule) => usize::from(rule) >= rules.len(),
                    Action::Error => false,
                };
                if bad {
                    return Err(format!("action {action:?} out of range"));
                }
            }
        }
        if root >= lexers.len() || usize::from(start) >= count || usize::from(end) >= count {
            return Err("start, end or root out of range".into());
        }
        Ok(Tables {
            terminals,
            rules,
            lexers,
            root,
            state_lexer,
            actions,
            start,
            end,
        })
    }

    /// The first terminal of `lexer` that matches at `at`, and the end of its match.
    fn match_at(&self, lexer: usize, text: &str, at: usize) -> Option<(u16, usize)> {
        for &terminal in &self.lexers[lexer] {
            let input = RegexInput::new(text).from_pos(at).anchored(true);
            // a regex that gives up (its backtracking limit) matches nothing here; the tests
            // compare with Lark, whose engine has no such limit
            if let Ok(Some(found)) = self.terminals[usize::from(terminal)]
                .regex
                .find_input(input)
            {
                return Some((terminal, found.end()));
            }
        }
        None
    }

    /// The next token that `lexer` cuts from `at` (ignored terminals skipped), None at the end.
    fn next_token(
        &self,
        lexer: usize,
        text: &str,
        mut at: usize,
    ) -> Result<Option<(u16, usize, usize)>, usize> {
        while at < text.len() {
            let Some((terminal, end)) = self.match_at(lexer, text, at) else {
                return Err(at);
            };
            if !self.terminals[usize::from(terminal)].ignored {
                return Ok(Some((terminal, at, end)));
            }
            at = end;
        }
        Ok(None)
    }

    /// Parses `text` as Lark does, appending the events of its tree to `events` (cleared
    /// first); on failure the events are those before it.
    pub fn parse_into(&self, text: &str, events: &mut Vec<Event>) -> Result<(), Failure> {
        self.run(events, |state, at| {
            self.next_token(self.state_lexer[state], text, at)
                .map_err(|at| match self.match_at(self.root, text, at) {
                    Some((terminal, _)) => Failure::Token {
                        at,
                        terminal: Some(terminal),
                    },
                    None => Failure::Character { at },
                })
        })
    }

    /// Parses tokens cut beforehand (`(terminal, start, end)`, ignored terminals left out) as
    /// Lark's parser does with a lexer that hands them over: the same loop without lexing.
    pub fn parse_tokens(
        &self,
        tokens: &[(u16, usize, usize)],
        events: &mut Vec<Event>,
    ) -> Result<(), Failure> {
        let mut next = tokens.iter().copied();
        self.run(events, |_, _| Ok(next.next()))
    }

    /// Lark's LALR loop: `next_token(state, at)` gives the token after byte `at` in parser
    /// state `state` (None at the end).
    fn run(
        &self,
        events: &mut Vec<Event>,
        mut next_token: impl FnMut(usize, usize) -> Result<Option<(u16, usize, usize)>, Failure>,
    ) -> Result<(), Failure> {
        events.clear();
        let end_symbol = self.terminals.len();
        let mut stack: Vec<u16> = vec![self.start];
        let mut at = 0;
        let mut last_start = 0;
        loop {
            let state = usize::from(*stack.last().expect("the start state stays"));
            let token = next_token(state, at)?;
            let symbol = token.map_or(end_symbol, |(terminal, _, _)| usize::from(terminal));
            loop {
                let state = usize::from(*stack.last().expect("the start state stays"));
                match self.actions[state][symbol] {
                    Action::Error => {
                        return Err(match token {
                            Some((terminal, start, _)) => Failure::Token {
                                at: start,
                                terminal: Some(terminal),
                            },
                            None => Failure::Token {
                                at: last_start,
                                terminal: None,
                            },
                        });
                    }
                    Action::Shift(to) => {
                        let (terminal, start, end) = token.expect("the table shifts no $END");
                        stack.push(to);
                        events.push(Event::Token {
                            terminal,
                            start,
                            end,
                        });
                        at = end;
                        last_start = start;
                        break;
                    }
                    Action::Reduce(rule) => {
                        let definition = &self.rules[usize::from(rule)];
                        stack.truncate(stack.len() - definition.size);
                        let top = usize::from(*stack.last().expect("the start state stays"));
                        let Action::Shift(to) = self.actions[top][definition.origin] else {
                            unreachable!("Lark's table has a goto after every reduction")
                        };
                        stack.push(to);
                        events.push(Event::Reduce { rule });
                        if token.is_none() && to == self.end {
                            return Ok(());
                        }
                    }
                }
            }
        }
    }

    /// Parses `text` as Lark does: the events of its tree, or where it fails.
    pub fn parse(&self, text: &str) -> Result<Vec<Event>, Failure> {
        let mut events = Vec::new();
        self.parse_into(text, &mut events).map(|()| events)
    }
}

/// The automaton of `grammars/pgn.lark`, loaded once.
pub fn pgn() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        Tables::load(PGN_TABLES).expect("grammars/pgn.lalr is the exporter's output")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str) -> Result<Vec<String>, Failure> {
        let tables = pgn();
        tables.parse(text).map(|events| {
            events
                .iter()
                .map(|event| match *event {
                    Event::Token {
                        terminal,
                        start,
                        end,
                    } => {
                        format!(
                            "{}:{}",
                            tables.terminals[usize::from(terminal)].name,
                            &text[start..end]
                        )
                    }
                    Event::Reduce { rule } => tables.rules[usize::from(rule)].name.clone(),
                })
                .collect()
        })
    }

    fn terminal(name: &str) -> u16 {
        pgn()
            .terminals
            .iter()
            .position(|t| t.name == name)
            .expect("a terminal") as u16
    }

    #[test]
    fn a_plain_game_is_tags_moves_and_result() {
        let text = "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Nf3 {ok} 1-0\n";
        let events = names(text).expect("parses");
        assert_eq!(
            events,
            [
                "tags_start",
                "TAGS:[White \"A\"]\n[Black \"B\"]\n\n",
                "tags_add",
                "line_start",
                "MOVES:1. e4 e5 2. Nf3 {ok} ",
                "line_moves",
                "RESULT:1-0\n",
                "end_result",
                "start",
            ]
        );
    }

    #[test]
    fn variations_nest_and_ignored_terminals_are_skipped() {
        let events = names("1. e4 (1. d4 d5) 3. e5 *").expect("parses");
        assert!(events.contains(&"line_variation".to_string()));
        assert!(events.contains(&"lpar".to_string()));
        assert!(!events
            .iter()
            .any(|e| e.starts_with("LONE_NUMBER") || e.starts_with("WS")));
        assert_eq!(
            names("").expect("parses"),
            ["tags_start", "line_start", "end_none", "start"]
        );
    }

    #[test]
    fn an_escape_line_is_ignored_only_at_a_line_start() {
        assert!(names("%comment\n1. e4 *")
            .expect("parses")
            .iter()
            .all(|e| !e.contains("comment")));
        // not at a line start: '%' is junk
        assert!(names("1. e4 %x *")
            .expect("parses")
            .contains(&"JUNK:%x ".to_string()));
    }

    #[test]
    fn failures_are_located_as_lark_locates_them() {
        // a ')' without '(' is a token the state does not accept
        assert_eq!(
            names("1. e4 ) *"),
            Err(Failure::Token {
                at: 6,
                terminal: Some(terminal("RPAR"))
            })
        );
        // an unclosed variation fails at the end, located at the last token
        assert_eq!(
            names("1. e4 (1. d4"),
            Err(Failure::Token {
                at: 7,
                terminal: None
            })
        );
        // text after the result
        assert_eq!(
            names("1. e4 * e5"),
            Err(Failure::Token {
                at: 8,
                terminal: Some(terminal("MOVES"))
            })
        );
    }

    #[test]
    fn a_damaged_file_is_refused() {
        assert!(Tables::load("").is_err());
        assert!(Tables::load(&PGN_TABLES.replace("states 19", "states 20")).is_err());
        assert!(Tables::load(&PGN_TABLES.replace("=s1 ", "=s99 ")).is_err());
    }
}
