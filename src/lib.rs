//! The compiled core of the `notation` chess toolkit (`notation._core` in Python).
//!
//! It does the per-move work of one game in one call: it splits the movetext runs that
//! `grammars/pgn.lark` found (`MOVES` tokens) into moves, comments and NAGs ([`scan`]), reads
//! each move in standard SAN ([`san`]), resolves and plays it ([`replay`], move generation by
//! the MIT-licensed `cozy-chess` crate), and computes what `notation validate` and
//! `notation import` report: checks, mate, stalemate, dead positions and who can still mate
//! ([`dead`], with the MIT-licensed `chasolver` crate), the repetition key ([`polyglot`]) and
//! claim plies, the final FEN ([`fen`]), and per-ply columns, with the values read from each
//! move's comments ([`commands`]).
//!
//! The core handles the common case exactly, wrong `+`/`#` suffixes and move numbers included
//! (it locates those warnings: [`replay::Remark`]), and *declines* anything else: a lenient
//! spelling, an illegal, ambiguous or invalid move, a move after mate, a null move. It also
//! finds where a game ends for the reader's boundary scan ([`split`]), cuts a plain game's
//! tokens ([`lex`]) and parses them with Lark's automaton into the game's outline ([`outline`]).
//! A declined game is replayed by the pure-Python reference (`notation.validation.replay`),
//! which explains what is wrong with located diagnostics. So both paths give one behaviour,
//! and tests compare them over the whole corpus.

pub mod commands;
pub mod dead;
pub mod fen;
pub mod helpmate;
pub mod identity;
pub mod lalr;
pub mod lex;
pub mod outline;
pub mod polyglot;
pub mod replay;
pub mod report;
pub mod san;
pub mod scan;
pub mod sheet;
pub mod split;

#[cfg(feature = "python")]
mod columns;
#[cfg(feature = "python")]
mod games;
#[cfg(feature = "python")]
mod python;
