//! Replaying one game's movetext: resolve each standard SAN, play it, check its suffix and move
//! number, keep the repetition keys, and compute the claims and the rule-based end exactly as
//! `notation.validation.replay` and `notation.validation.checks` do (the Python reference).
//!
//! Any move the reference would remark on (an error, a lenient spelling, a wrong suffix or
//! move number) makes [`replay`] return `Err(`[`Decline`]`)`: the game is *declined*, and the
//! reference replays it to explain.

use cozy_chess::{BitBoard, Board, Color, File, Move, Piece, Rank, Square};
use std::collections::HashMap;

use crate::polyglot;
use crate::san::SanMove;
use crate::scan::{Pieces, Token};

/// Deepest variation nesting the core follows (deeper games go to the reference); the reader
/// keeps no deeper ones (`notation.pgn.model.MAX_VARIATION_DEPTH`, the same number). Recursion
/// over variations is bounded by it, so no input can exhaust the stack.
pub const MAX_DEPTH: usize = 64;

/// The longest a line of play can go on, in plies from the game's first move (FIDE 9.6.2;
/// `notation.pgn.model.MAX_LINE_PLIES`). A line that goes on past it is declined (the reference
/// reports `game.too-long`); the core reads a run one piece at a time, so it stops there
/// without reading, or keeping, the rest.
pub const MAX_PLIES: u32 = 17_697;

/// Why the core declines a game: the Python reference then replays it and explains. Each has
/// a stable [`code`](Decline::code) (what `notation._core.Decline.code` carries) and a reason
/// in words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decline {
    /// The start position (FEN) is not one the core reads.
    StartPosition,
    /// Variations nested deeper than [`MAX_DEPTH`].
    NestedTooDeep,
    /// A NAG (`$n` or a glyph's) beyond 255, or a glyph with no NAG.
    NagRange,
    /// A line longer than [`MAX_PLIES`] plies.
    TooLong,
    /// A move after a mate.
    MoveAfterMate,
    /// Movetext the core's scanner does not read.
    NotRead,
    /// A variation before any move of its line.
    VariationFirst,
    /// Castling without the right.
    CastlingRight,
    /// Castling that is not legal.
    IllegalCastling,
    /// A piece move onto a square its own side holds.
    OwnPiece,
    /// A capture mark where nothing is taken, or none where something is.
    CaptureMark,
    /// No piece, or more than one, can make the move.
    IllegalOrAmbiguous,
    /// A disambiguation other than the one needed.
    Disambiguation,
    /// A pawn move from off the board.
    PawnOrigin,
    /// A pawn push onto an occupied square.
    OccupiedPush,
    /// No pawn of the side to move can make the move.
    NoPawn,
    /// A pawn move that is not legal.
    IllegalPawnMove,
}

impl Decline {
    /// Every decline, in declaration order (`notation._core.DECLINE_CODES` lists their codes).
    pub const ALL: [Decline; 17] = [
        Decline::StartPosition,
        Decline::NestedTooDeep,
        Decline::NagRange,
        Decline::TooLong,
        Decline::MoveAfterMate,
        Decline::NotRead,
        Decline::VariationFirst,
        Decline::CastlingRight,
        Decline::IllegalCastling,
        Decline::OwnPiece,
        Decline::CaptureMark,
        Decline::IllegalOrAmbiguous,
        Decline::Disambiguation,
        Decline::PawnOrigin,
        Decline::OccupiedPush,
        Decline::NoPawn,
        Decline::IllegalPawnMove,
    ];

    /// The stable code (kebab-case) tests and statistics name the decline by.
    pub fn code(self) -> &'static str {
        match self {
            Decline::StartPosition => "start-position",
            Decline::NestedTooDeep => "nested-too-deep",
            Decline::NagRange => "nag-range",
            Decline::TooLong => "too-long",
            Decline::MoveAfterMate => "move-after-mate",
            Decline::NotRead => "not-read",
            Decline::VariationFirst => "variation-first",
            Decline::CastlingRight => "castling-right",
            Decline::IllegalCastling => "illegal-castling",
            Decline::OwnPiece => "own-piece",
            Decline::CaptureMark => "capture-mark",
            Decline::IllegalOrAmbiguous => "illegal-or-ambiguous",
            Decline::Disambiguation => "disambiguation",
            Decline::PawnOrigin => "pawn-origin",
            Decline::OccupiedPush => "occupied-push",
            Decline::NoPawn => "no-pawn",
            Decline::IllegalPawnMove => "illegal-pawn-move",
        }
    }

    /// The reason in words.
    pub fn reason(self) -> &'static str {
        match self {
            Decline::StartPosition => "start position the core does not read",
            Decline::NestedTooDeep => "variations nested too deep",
            Decline::NagRange => "a NAG beyond 255 or a glyph with no NAG",
            Decline::TooLong => "a line longer than any game can last",
            Decline::MoveAfterMate => "a move after mate",
            Decline::NotRead => "movetext the core does not read",
            Decline::VariationFirst => "variation before any move",
            Decline::CastlingRight => "castling without the right",
            Decline::IllegalCastling => "illegal castling",
            Decline::OwnPiece => "target holds an own piece",
            Decline::CaptureMark => "capture mark",
            Decline::IllegalOrAmbiguous => "illegal or ambiguous",
            Decline::Disambiguation => "disambiguation",
            Decline::PawnOrigin => "pawn origin",
            Decline::OccupiedPush => "push onto an occupied square",
            Decline::NoPawn => "no pawn",
            Decline::IllegalPawnMove => "illegal pawn move",
        }
    }
}

/// A line of movetext as the grammar parsed it: move runs (`MOVES` token text, with the
/// file line and column where the token starts) and the variations after a run's last move.
#[derive(Debug, Clone)]
pub enum Item {
    Run {
        text: String,
        line: u32,
        column: u32,
    },
    Variation(Vec<Item>),
    /// A comment token outside a run (its text as the reader keeps it), after the line's last move.
    Comment(String),
    /// A NAG token outside a run, after the line's last move.
    Nag(u8),
}

/// A position with the counters the engine's board does not keep exactly.
#[derive(Clone)]
pub struct Pos {
    pub board: Board,
    pub halfmove: u32,
    pub fullmove: u32,
}

/// What one legal mainline ply recorded.
#[derive(Debug, Clone)]
pub struct Ply {
    /// Repetition key of the position after the move.
    pub key: u64,
    /// The move gives check.
    pub check: bool,
    /// The move gives checkmate.
    pub mate: bool,
    /// White made the move.
    pub white: bool,
    /// Half-move clock after the move.
    pub halfmove: u32,
    /// Move number of the move.
    pub fullmove: u32,
    /// The side to move after it has a legal move (only computed when the clock reaches 100).
    pub has_moves: bool,
    /// Index of the mainline run, byte offset and length of the SAN as written.
    pub run: u32,
    pub at: u32,
    pub len: u32,
    /// The move (castling as king takes own rook), the piece and what it captured.
    pub mv: Move,
    pub piece: Piece,
    pub captured: Option<Piece>,
    pub castle: bool,
    pub en_passant: bool,
    /// Comments and NAGs written after the move: index range into [`Game::notes`].
    pub notes: (u32, u32),
    /// The check suffix the move should carry (0, `b'+'` or `b'#'`) when it was written with
    /// another: the SAN is then the written one with this suffix, as the reference spells it.
    pub suffix_fix: Option<u8>,
}

/// A move-level warning the reference gives and the core repeats: where the move was
/// written (ply, line, column, SAN as written) and what is remarked.
#[derive(Debug, Clone, PartialEq)]
pub struct Remark {
    pub ply: u32,
    pub line: u32,
    pub column: u32,
    pub san: String,
    pub kind: RemarkKind,
}

/// What a [`Remark`] says (messages are built by the Python side, shared with the reference).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RemarkKind {
    /// `san.check-suffix`: the suffix written (0, `+`, `#`) and the one the move calls for.
    Suffix { written: u8, expected: u8 },
    /// `movenumber.mismatch`: the number written and the move's number.
    Number { written: u64, actual: u32 },
}

/// A comment (its text as the reader keeps it: whitespace runs collapsed) or a NAG after a
/// mainline move.
#[derive(Debug, Clone)]
pub enum Note {
    Comment(String),
    Nag(u8),
}

/// Python's `str.isspace()` (Unicode White_Space plus the separators U+001C..U+001F).
fn is_py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// The text the reader keeps of a `{...}` or `;...` comment: the body with whitespace runs
/// collapsed to one space (`notation.pgn.parser._comment_text`).
pub fn comment_text(token: &str) -> String {
    let body = if let Some(rest) = token.strip_prefix('{') {
        match rest.rfind('}') {
            Some(end) => &rest[..end],
            None => rest,
        }
    } else {
        &token[1..]
    };
    let mut out = String::with_capacity(body.len());
    for word in body.split(is_py_space).filter(|w| !w.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// The annotation symbols written instead of `$n` (suffix glyphs and ChessBase symbols) and
/// the NAG each stands for: the table of `notation.pgn.parser.SYMBOL_NAGS` (a test asserts the
/// two equal through `notation._core.SYMBOL_NAGS`).
pub const SYMBOL_NAGS: [(&str, u8); 20] = [
    ("!", 1),
    ("?", 2),
    ("!!", 3),
    ("??", 4),
    ("!?", 5),
    ("?!", 6),
    ("=", 10),
    ("∞", 13),
    ("+=", 14),
    ("⩲", 14),
    ("+/=", 14),
    ("=+", 15),
    ("⩱", 15),
    ("=/+", 15),
    ("±", 16),
    ("+/-", 16),
    ("∓", 17),
    ("-/+", 17),
    ("+-", 18),
    ("-+", 19),
];

/// The NAG a glyph or NAG text stands for (`$n`, `!`, `+-`, `±`, ...); None beyond 255.
pub fn nag_value(text: &str) -> Option<u8> {
    if let Some(digits) = text.strip_prefix('$') {
        return digits.parse::<u8>().ok();
    }
    SYMBOL_NAGS
        .iter()
        .find(|(symbol, _)| *symbol == text)
        .map(|(_, nag)| *nag)
}

/// Where a ply was written, for located diagnostics.
#[derive(Debug, Clone, PartialEq)]
pub struct Mark {
    pub ply: u32,
    pub line: u32,
    pub column: u32,
    pub san: String,
    pub fullmove: u32,
    pub white: bool,
}

/// The four claim plies (first ply each happened).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Claims {
    pub threefold: Option<u32>,
    pub fifty_moves: Option<u32>,
    pub fivefold: Option<u32>,
    pub seventyfive_moves: Option<u32>,
}

/// One replayed game.
pub struct Game<'a> {
    pub plies: Vec<Ply>,
    pub notes: Vec<Note>,
    pub start_key: u64,
    pub start_white: bool,
    pub final_pos: Pos,
    pub variation_plies: u32,
    /// The move-level warnings, in text order (mainline and variations).
    pub remarks: Vec<Remark>,
    runs: Vec<(&'a str, u32, u32)>,
}

fn has_moves(board: &Board) -> bool {
    board.generate_moves(|_| true)
}

/// Legal origins of `piece` moves to `to`.
fn origins(board: &Board, piece: Piece, to: Square) -> BitBoard {
    let us = board.side_to_move();
    let mut found = BitBoard::EMPTY;
    board.generate_moves_for(board.colored_pieces(us, piece), |moves| {
        if moves.piece == piece && moves.to.has(to) {
            found |= moves.from.bitboard();
        }
        false
    });
    found
}

/// The disambiguation standard SAN needs for a move of `piece` from `from` to `to`, as
/// (file, rank) written; `legal` holds every legal origin of such moves.
fn needed(piece: Piece, from: Square, legal: BitBoard) -> (Option<File>, Option<Rank>) {
    if piece == Piece::King {
        return (None, None);
    }
    let others = legal & !from.bitboard();
    if others.is_empty() {
        (None, None)
    } else if (others & from.file().bitboard()).is_empty() {
        (Some(from.file()), None)
    } else if (others & from.rank().bitboard()).is_empty() {
        (None, Some(from.rank()))
    } else {
        (Some(from.file()), Some(from.rank()))
    }
}

/// The legal move a standard SAN names when the reference would have nothing to remark on it.
pub fn resolve(board: &Board, san: &SanMove) -> Result<Move, Decline> {
    let us = board.side_to_move();
    let back = Rank::First.relative_to(us);
    match *san {
        SanMove::Castle { long } => {
            let rights = board.castle_rights(us);
            let rook = if long { rights.long } else { rights.short };
            let rook = rook.ok_or(Decline::CastlingRight)?;
            let mv = Move {
                from: board.king(us),
                to: Square::new(rook, back),
                promotion: None,
            };
            if board.is_legal(mv) {
                Ok(mv)
            } else {
                Err(Decline::IllegalCastling)
            }
        }
        SanMove::Piece {
            piece,
            file,
            rank,
            capture,
            to,
        } => {
            if board.colors(us).has(to) {
                return Err(Decline::OwnPiece);
            }
            if capture != board.colors(!us).has(to) {
                return Err(Decline::CaptureMark);
            }
            let legal = origins(board, piece, to);
            let mut cands = legal;
            if let Some(f) = file {
                cands &= f.bitboard();
            }
            if let Some(r) = rank {
                cands &= r.bitboard();
            }
            if cands.len() != 1 {
                return Err(Decline::IllegalOrAmbiguous);
            }
            let from = cands.next_square().expect("one candidate");
            if needed(piece, from, legal) != (file, rank) {
                return Err(Decline::Disambiguation);
            }
            Ok(Move {
                from,
                to,
                promotion: None,
            })
        }
        SanMove::Pawn {
            from_file,
            to,
            promotion,
        } => {
            let forward: i8 = if us == Color::White { 1 } else { -1 };
            let from = match from_file {
                Some(f) => Square::new(
                    f,
                    to.rank().try_offset(-forward).ok_or(Decline::PawnOrigin)?,
                ),
                None => {
                    if board.occupied().has(to) {
                        return Err(Decline::OccupiedPush);
                    }
                    let one = to.try_offset(0, -forward).ok_or(Decline::PawnOrigin)?;
                    let pawns = board.colored_pieces(us, Piece::Pawn);
                    if pawns.has(one) {
                        one
                    } else if to.rank() == Rank::Fourth.relative_to(us)
                        && !board.occupied().has(one)
                    {
                        one.try_offset(0, -forward).ok_or(Decline::PawnOrigin)?
                    } else {
                        return Err(Decline::NoPawn);
                    }
                }
            };
            if board.piece_on(from) != Some(Piece::Pawn) || board.color_on(from) != Some(us) {
                return Err(Decline::NoPawn);
            }
            let mv = Move {
                from,
                to,
                promotion,
            };
            if board.is_legal(mv) {
                Ok(mv)
            } else {
                Err(Decline::IllegalPawnMove)
            }
        }
    }
}

trait RankOffset {
    fn try_offset(self, by: i8) -> Option<Rank>;
}

impl RankOffset for Rank {
    fn try_offset(self, by: i8) -> Option<Rank> {
        let r = self as i8 + by;
        (0..8).contains(&r).then(|| Rank::index(r as usize))
    }
}

/// Play `mv` (legal) on `pos`: the position after it and (piece, captured, castle, en passant).
pub fn play(pos: &Pos, mv: Move) -> (Pos, Piece, Option<Piece>, bool, bool) {
    let board = &pos.board;
    let us = board.side_to_move();
    let piece = board.piece_on(mv.from).expect("a legal move has a piece");
    let castle = piece == Piece::King && board.colors(us).has(mv.to);
    let mut captured = if castle { None } else { board.piece_on(mv.to) };
    let mut en_passant = false;
    if piece == Piece::Pawn && captured.is_none() && mv.from.file() != mv.to.file() {
        en_passant = true;
        captured = Some(Piece::Pawn);
    }
    let mut next = board.clone();
    next.play_unchecked(mv);
    let halfmove = if piece == Piece::Pawn || captured.is_some() {
        0
    } else {
        pos.halfmove + 1
    };
    let fullmove = if us == Color::Black {
        pos.fullmove + 1
    } else {
        pos.fullmove
    };
    (
        Pos {
            board: next,
            halfmove,
            fullmove,
        },
        piece,
        captured,
        castle,
        en_passant,
    )
}

struct Replayer<'a> {
    plies: Vec<Ply>,
    notes: Vec<Note>,
    runs: Vec<(&'a str, u32, u32)>,
    variation_plies: u32,
    keep_notes: bool,
    remarks: Vec<Remark>,
    /// The piece-square part of the last mainline position's key (kept move by move).
    pieces: u64,
}

/// Line and column (1-based, in characters) of byte `at` of a run written at `line:column`.
fn locate(text: &str, line: u32, column: u32, at: usize) -> (u32, u32) {
    let before = &text[..at];
    let newlines = memchr::memchr_iter(b'\n', before.as_bytes()).count() as u32;
    let col = match memchr::memrchr(b'\n', before.as_bytes()) {
        None => column + before.chars().count() as u32,
        Some(nl) => before[nl + 1..].chars().count() as u32 + 1,
    };
    (line + newlines, col)
}

impl<'a> Replayer<'a> {
    /// A comment or NAG for the last mainline ply.
    fn note(&mut self, note: Note) {
        self.notes.push(note);
        if let Some(ply) = self.plies.last_mut() {
            ply.notes.1 = self.notes.len() as u32;
        }
    }

    /// Replay one line (`first_ply`: the ply of its first move, from the game's first move).
    fn line(
        &mut self,
        items: &'a [Item],
        start: Pos,
        mainline: bool,
        depth: usize,
        first_ply: u32,
    ) -> Result<Pos, Decline> {
        if depth > MAX_DEPTH {
            return Err(Decline::NestedTooDeep);
        }
        let mut pos = start;
        let mut before: Option<Pos> = None;
        let mut ply = first_ply; // the ply of the line's next move
        let mut mated = false; // the last move mated: a further move is not the reference's
        for item in items {
            match item {
                Item::Run { text, line, column } => {
                    let run_index = self.runs.len() as u32;
                    if mainline {
                        self.runs.push((text.as_str(), *line, *column));
                    }
                    let mut scanner = Pieces::of(text);
                    let mut pieces = 0;
                    while let Some(token) = scanner.step().map_err(|_| Decline::NotRead)? {
                        pieces += 1;
                        match token {
                            Token::Move {
                                number,
                                at,
                                san,
                                parsed,
                                suffix,
                                glyph,
                            } => {
                                if ply > MAX_PLIES {
                                    return Err(Decline::TooLong);
                                }
                                if mated {
                                    return Err(Decline::MoveAfterMate); // the reference explains
                                }
                                let mv = resolve(&pos.board, &parsed)?;
                                let (after, piece, captured, castle, en_passant) = play(&pos, mv);
                                let check = !after.board.checkers().is_empty();
                                let mate = check && !has_moves(&after.board);
                                // (a mate written '+' that is not its line's last move is
                                // declined above, at the next move, as the reference stops there)
                                let expected = if mate {
                                    b'#'
                                } else if check {
                                    b'+'
                                } else {
                                    0
                                };
                                let wrong_number = number.filter(|&n| n != u64::from(pos.fullmove));
                                if expected != suffix || wrong_number.is_some() {
                                    let (line_no, column_no) = locate(text, *line, *column, at);
                                    let remark = |kind| Remark {
                                        ply,
                                        line: line_no,
                                        column: column_no,
                                        san: san.to_string(),
                                        kind,
                                    };
                                    if expected != suffix {
                                        self.remarks.push(remark(RemarkKind::Suffix {
                                            written: suffix,
                                            expected,
                                        }));
                                    }
                                    if let Some(written) = wrong_number {
                                        self.remarks.push(remark(RemarkKind::Number {
                                            written,
                                            actual: pos.fullmove,
                                        }));
                                    }
                                }
                                mated = mate;
                                if mainline {
                                    let has = after.halfmove < 100 || has_moves(&after.board);
                                    let first = self.notes.len() as u32;
                                    self.pieces = polyglot::pieces_key_after(
                                        &pos.board,
                                        self.pieces,
                                        &after.board,
                                    );
                                    self.plies.push(Ply {
                                        key: polyglot::key_with_pieces(&after.board, self.pieces),
                                        check,
                                        mate,
                                        white: pos.board.side_to_move() == Color::White,
                                        halfmove: after.halfmove,
                                        fullmove: pos.fullmove,
                                        has_moves: has,
                                        run: run_index,
                                        at: at as u32,
                                        len: san.len() as u32,
                                        mv,
                                        piece,
                                        captured,
                                        castle,
                                        en_passant,
                                        notes: (first, first),
                                        suffix_fix: (expected != suffix).then_some(expected),
                                    });
                                    if self.keep_notes {
                                        if let Some(g) = glyph {
                                            self.note(Note::Nag(
                                                nag_value(g).ok_or(Decline::NagRange)?,
                                            ));
                                        }
                                    }
                                } else {
                                    self.variation_plies += 1;
                                }
                                before = Some(pos);
                                pos = after;
                                ply += 1;
                            }
                            Token::Comment(text) => {
                                if mainline && self.keep_notes {
                                    self.note(Note::Comment(comment_text(text)));
                                }
                            }
                            Token::Nag(text) => {
                                if mainline && self.keep_notes {
                                    self.note(Note::Nag(nag_value(text).ok_or(Decline::NagRange)?));
                                }
                            }
                        }
                    }
                    if pieces == 0 || scanner.at() != text.len() {
                        return Err(Decline::NotRead);
                    }
                }
                Item::Variation(sub) => {
                    let from = before.as_ref().ok_or(Decline::VariationFirst)?;
                    // it replaces the last move played: its first ply is that move's
                    self.line(sub, from.clone(), false, depth + 1, ply - 1)?;
                }
                Item::Comment(text) => {
                    if mainline && self.keep_notes && before.is_some() {
                        self.note(Note::Comment(text.clone()));
                    }
                }
                Item::Nag(value) => {
                    if mainline && self.keep_notes && before.is_some() {
                        self.note(Note::Nag(*value));
                    }
                }
            }
        }
        Ok(pos)
    }
}

/// Replay a game from `start`; `Err(decline)` when the core declines it. `keep_notes` keeps
/// the mainline comments and NAGs (for tables).
pub fn replay(start: Pos, lines: &[Item], keep_notes: bool) -> Result<Game<'_>, Decline> {
    let pieces = polyglot::pieces_key(&start.board);
    let start_key = polyglot::key_with_pieces(&start.board, pieces);
    let start_white = start.board.side_to_move() == Color::White;
    let mut replayer = Replayer {
        plies: Vec::new(),
        notes: Vec::new(),
        runs: Vec::new(),
        variation_plies: 0,
        keep_notes,
        remarks: Vec::new(),
        pieces,
    };
    let final_pos = replayer.line(lines, start, true, 0, 1)?;
    Ok(Game {
        plies: replayer.plies,
        notes: replayer.notes,
        start_key,
        start_white,
        final_pos,
        variation_plies: replayer.variation_plies,
        remarks: replayer.remarks,
        runs: replayer.runs,
    })
}

/// How a mainline ended by rule (`notation.validation.checks.Outcome`'s termination).
///
/// The order of the automatic ends (dead position, fivefold, seventy-five moves) is the order
/// of their names: of two on one ply, [`Game::outcome`] takes the first, as the reference does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Termination {
    DeadPosition,
    FivefoldRepetition,
    SeventyfiveMoves,
    Checkmate { white_wins: bool },
    Stalemate,
}

impl Termination {
    /// The name the reference gives it.
    pub fn name(self) -> &'static str {
        match self {
            Termination::DeadPosition => "dead_position",
            Termination::FivefoldRepetition => "fivefold_repetition",
            Termination::SeventyfiveMoves => "seventyfive_moves",
            Termination::Checkmate { .. } => "checkmate",
            Termination::Stalemate => "stalemate",
        }
    }

    /// The winner it makes (True White): checkmate only.
    pub fn winner(self) -> Option<bool> {
        match self {
            Termination::Checkmate { white_wins } => Some(white_wins),
            _ => None,
        }
    }
}

/// A perpetual check: the side, the first checking ply and the repetition ply.
pub type Perpetual = (bool, u32, u32);

/// A hasher for keys that are already uniformly random (Zobrist keys): the key itself.
#[derive(Default)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

type KeyMap<V> = HashMap<u64, V, std::hash::BuildHasherDefault<KeyHasher>>;

impl Game<'_> {
    /// Claim plies and the first perpetual check (`notation.validation.checks.claims`).
    pub fn claims(&self) -> (Claims, Option<Perpetual>) {
        // key -> (ply of its first occurrence, occurrences)
        let mut seen: KeyMap<(u32, u32)> =
            KeyMap::with_capacity_and_hasher(self.plies.len() + 1, Default::default());
        seen.insert(self.start_key, (0, 1));
        let mut claims = Claims::default();
        let mut perpetual = None;
        for (index, record) in self.plies.iter().enumerate() {
            let ply = index as u32 + 1;
            let entry = seen.entry(record.key).or_insert((ply, 0));
            entry.1 += 1;
            let count = entry.1;
            if count == 3 {
                let first = entry.0;
                if claims.threefold.is_none() {
                    claims.threefold = Some(ply);
                }
                if perpetual.is_none() {
                    perpetual = self.perpetual(first, ply);
                }
            } else if count == 5 && claims.fivefold.is_none() {
                claims.fivefold = Some(ply);
            }
            let clock = record.halfmove;
            if clock >= 100
                && (claims.fifty_moves.is_none()
                    || (clock >= 150 && claims.seventyfive_moves.is_none()))
                && record.has_moves
            {
                if claims.fifty_moves.is_none() {
                    claims.fifty_moves = Some(ply);
                }
                if clock >= 150 && claims.seventyfive_moves.is_none() {
                    claims.seventyfive_moves = Some(ply);
                }
            }
        }
        (claims, perpetual)
    }

    fn perpetual(&self, first: u32, ply: u32) -> Option<Perpetual> {
        let window = &self.plies[first as usize..ply as usize];
        for side in [true, false] {
            let own: Vec<(usize, &Ply)> = window
                .iter()
                .enumerate()
                .filter(|(_, r)| r.white == side)
                .map(|(i, r)| (i + first as usize, r))
                .collect();
            if own.len() >= 2 && own.iter().all(|(_, r)| r.check) {
                let mut start = own[0].0 as i64;
                let mut index = start - 2;
                while index >= 0
                    && self.plies[index as usize].check
                    && self.plies[index as usize].white == side
                {
                    start = index;
                    index -= 2;
                }
                return Some((side, start as u32 + 1, ply));
            }
        }
        None
    }

    /// How the mainline ended by rule (`notation.validation.checks.outcome`), if it did (a
    /// checkmate names its winner). `first_dead`: the ply of the first dead position, if any
    /// (`crate::dead`).
    pub fn outcome(&self, claims: &Claims, first_dead: Option<u32>) -> Option<Termination> {
        let board = &self.final_pos.board;
        let checkmate = !board.checkers().is_empty() && !has_moves(board);
        let mut automatic: Vec<(u32, Termination)> = Vec::new();
        if let Some(p) = claims.fivefold {
            automatic.push((p, Termination::FivefoldRepetition));
        }
        if let Some(p) = claims.seventyfive_moves {
            automatic.push((p, Termination::SeventyfiveMoves));
        }
        if let Some(p) = first_dead {
            if (p as usize) < self.plies.len() {
                automatic.push((p, Termination::DeadPosition));
            }
        }
        if let Some(&(ply, end)) = automatic.iter().min() {
            if (ply as usize) < self.plies.len() || !checkmate {
                return Some(end);
            }
        }
        if checkmate {
            return Some(Termination::Checkmate {
                white_wins: board.side_to_move() == Color::Black,
            });
        }
        if board.checkers().is_empty() && !has_moves(board) {
            return Some(Termination::Stalemate);
        }
        if first_dead.is_some() || dead_position(board) {
            return Some(Termination::DeadPosition);
        }
        None
    }

    /// The SAN of a mainline ply as written (with its suffix; the core takes standard SAN only).
    /// The SAN of a mainline ply as the reference keeps it: as written, with the check suffix
    /// the move calls for.
    pub fn san(&self, ply: &Ply) -> std::borrow::Cow<'_, str> {
        let text = self.runs[ply.run as usize].0;
        let written = &text[ply.at as usize..(ply.at + ply.len) as usize];
        match ply.suffix_fix {
            None => std::borrow::Cow::Borrowed(written),
            Some(suffix) => {
                let base = written.trim_end_matches(['+', '#']);
                let mut fixed = String::with_capacity(base.len() + 1);
                fixed.push_str(base);
                if suffix != 0 {
                    fixed.push(char::from(suffix));
                }
                std::borrow::Cow::Owned(fixed)
            }
        }
    }

    /// Where ply `ply` (1-based, mainline) was written.
    pub fn mark(&self, ply: u32) -> Option<Mark> {
        let record = self.plies.get((ply as usize).checked_sub(1)?)?;
        let (text, line, column) = &self.runs[record.run as usize];
        let at = record.at as usize;
        let (line, column) = locate(text, *line, *column, at);
        Some(Mark {
            ply,
            line,
            column,
            san: text[at..at + record.len as usize].to_string(),
            fullmove: record.fullmove,
            white: record.white,
        })
    }
}

/// Dead positions the reference recognises: K v K, K v K+minor, bishops only on one colour.
pub fn dead_position(board: &Board) -> bool {
    if !(board.pieces(Piece::Pawn) | board.pieces(Piece::Rook) | board.pieces(Piece::Queen))
        .is_empty()
    {
        return false;
    }
    let minors = board.pieces(Piece::Knight) | board.pieces(Piece::Bishop);
    if minors.len() <= 1 {
        return true;
    }
    if !board.pieces(Piece::Knight).is_empty() {
        return false;
    }
    let bishops = board.pieces(Piece::Bishop);
    (bishops & BitBoard::LIGHT_SQUARES).is_empty() || (bishops & BitBoard::DARK_SQUARES).is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str) -> Vec<Item> {
        vec![Item::Run {
            text: text.to_string(),
            line: 1,
            column: 1,
        }]
    }

    fn start() -> Pos {
        Pos {
            board: Board::default(),
            halfmove: 0,
            fullmove: 1,
        }
    }

    #[test]
    fn scholars_mate() {
        let lines = run("1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# ");
        let game = replay(start(), &lines, false).unwrap();
        assert_eq!(game.plies.len(), 7);
        let (claims, _) = game.claims();
        assert_eq!(
            game.outcome(&claims, None),
            Some(Termination::Checkmate { white_wins: true })
        );
        assert_eq!(
            crate::fen::format(&game.final_pos.board, 0, 4),
            "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4"
        );
    }

    #[test]
    fn declines_what_needs_explaining() {
        for (text, decline) in [
            ("1. e4 e5 2. Ke3 ", Decline::IllegalOrAmbiguous),
            ("1. Nf3 Nf6 2. Ngh3 ", Decline::IllegalOrAmbiguous),
            ("1. Ngf3 ", Decline::Disambiguation),
            ("1. e4 e5 2. Nxf3 ", Decline::CaptureMark),
            ("1. e4 e5 2. e4 ", Decline::OccupiedPush),
            ("1. O-O ", Decline::IllegalCastling),
            ("1. e4 e5 2. Ke2 Ke7 3. O-O ", Decline::CastlingRight),
            ("1. Ng1 ", Decline::OwnPiece),
            ("1. exd4 ", Decline::NoPawn),
            ("1. e5 ", Decline::NoPawn),
            ("1. f3 e5 2. g4 Qh4+ 3. a3 ", Decline::MoveAfterMate), // after a mate written '+'
            ("1. e4 e5 & ", Decline::NotRead),
        ] {
            assert_eq!(
                replay(start(), &run(text), false).err(),
                Some(decline),
                "{text}"
            );
        }
        let codes: std::collections::HashSet<_> = Decline::ALL.iter().map(|d| d.code()).collect();
        assert_eq!(codes.len(), Decline::ALL.len(), "codes are distinct");
    }

    #[test]
    fn remarks_wrong_suffixes_and_move_numbers_where_written() {
        let lines = run("1. e4 e5 2. Nf3+ Nc6\n3. Bc4 Nf6 5. Ng5 Be7 4. Bxf7 ");
        let game = replay(start(), &lines, true).unwrap();
        let kinds: Vec<_> = game
            .remarks
            .iter()
            .map(|r| (r.ply, r.line, r.column, r.san.as_str(), r.kind))
            .collect();
        assert_eq!(
            kinds,
            vec![
                (
                    3,
                    1,
                    13,
                    "Nf3+",
                    RemarkKind::Suffix {
                        written: b'+',
                        expected: 0
                    }
                ),
                (
                    7,
                    2,
                    15,
                    "Ng5",
                    RemarkKind::Number {
                        written: 5,
                        actual: 4
                    }
                ),
                (
                    9,
                    2,
                    26,
                    "Bxf7",
                    RemarkKind::Suffix {
                        written: 0,
                        expected: b'+'
                    }
                ),
                (
                    9,
                    2,
                    26,
                    "Bxf7",
                    RemarkKind::Number {
                        written: 4,
                        actual: 5
                    }
                ),
            ]
        );
        // the SAN kept is the one the move calls for
        assert_eq!(game.san(&game.plies[2]), "Nf3");
        assert_eq!(game.san(&game.plies[8]), "Bxf7+");
        let lines = run("1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7+ ");
        let mate = replay(start(), &lines, false).unwrap();
        assert_eq!(game_suffix(&mate), (b'+', b'#'));
        assert_eq!(mate.san(&mate.plies[6]), "Qxf7#");
    }

    fn game_suffix(game: &Game<'_>) -> (u8, u8) {
        match game.remarks.last().unwrap().kind {
            RemarkKind::Suffix { written, expected } => (written, expected),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn threefold_and_perpetual() {
        let lines = run("1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 ");
        let game = replay(start(), &lines, false).unwrap();
        let (claims, perpetual) = game.claims();
        assert_eq!(claims.threefold, Some(8));
        assert_eq!(perpetual, None);
    }

    fn shuffle(plies: usize) -> String {
        let moves = ["Nf3", "Nf6", "Ng1", "Ng8"];
        let mut text = String::new();
        for i in 0..plies {
            text.push_str(moves[i % 4]);
            text.push(' ');
        }
        text
    }

    #[test]
    fn a_line_stops_at_the_longest_game() {
        let longest = run(&shuffle(MAX_PLIES as usize));
        let full = replay(start(), &longest, false).unwrap();
        assert_eq!(full.plies.len(), MAX_PLIES as usize);
        let longer = run(&shuffle(MAX_PLIES as usize + 1));
        assert_eq!(
            replay(start(), &longer, false).err(),
            Some(Decline::TooLong)
        );
        // a variation's plies count from the game's first move: from ply 2, 17,696 fit
        let variation = |plies: usize| {
            let mut items = run("Nf3 Nc6 ");
            items.push(Item::Variation(run(&shuffle(plies + 1)[4..])));
            items
        };
        assert!(replay(start(), &variation(MAX_PLIES as usize - 1), false).is_ok());
        assert_eq!(
            replay(start(), &variation(MAX_PLIES as usize), false).err(),
            Some(Decline::TooLong)
        );
    }

    #[test]
    fn nesting_beyond_the_cap_is_declined() {
        fn nest(levels: usize) -> Vec<Item> {
            let mut inner = run("d4 ");
            for _ in 0..levels {
                let mut outer = run("d4 ");
                outer.push(Item::Variation(inner));
                inner = outer;
            }
            inner
        }
        assert!(replay(start(), &nest(MAX_DEPTH), false).is_ok());
        assert_eq!(
            replay(start(), &nest(MAX_DEPTH + 1), false).err(),
            Some(Decline::NestedTooDeep)
        );
    }

    #[test]
    fn a_move_after_mate_is_declined() {
        let mate = "1. f3 e5 2. g4 Qh4# ";
        assert!(replay(start(), &run(mate), false).is_ok());
        assert_eq!(
            replay(start(), &run(&format!("{mate}3. a3 ")), false).err(),
            Some(Decline::MoveAfterMate)
        );
        let mut split = run(mate);
        split.push(Item::Run {
            text: "3. a3 ".to_string(),
            line: 1,
            column: 30,
        });
        assert!(replay(start(), &split, false).is_err());
    }

    #[test]
    fn marks_count_lines_and_characters() {
        let items = vec![Item::Run {
            text: "1. e4 {é}\ne5 ".to_string(),
            line: 3,
            column: 5,
        }];
        let game = replay(start(), &items, false).unwrap();
        assert_eq!(game.mark(1).unwrap().column, 8);
        let second = game.mark(2).unwrap();
        assert_eq!(
            (second.line, second.column, second.san.as_str()),
            (4, 1, "e5")
        );
    }
}
