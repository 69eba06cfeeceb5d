//! The moves table's per-ply columns, built in Arrow arrays (the layout
//! `notation.tables.rows.MovesBuilder` gives Polars: the raw columns its derivations start from).

use std::sync::Arc;

use arrow_array::builder::{
    BooleanBuilder, Float64Builder, Int16Builder, Int32Builder, Int64Builder, Int8Builder,
    ListBuilder, StringBuilder, UInt64Builder, UInt8Builder,
};
use arrow_array::{ArrayRef, StructArray};
use arrow_schema::{Field, Fields};
use cozy_chess::{File, Piece, Square};

use crate::commands::{Column, Commands};
use crate::replay::{Game, Note};

/// Piece types as the Python engine numbers them (pawn 1 .. king 6).
fn piece_type(piece: Piece) -> i8 {
    piece as i8 + 1
}

/// The letters of a square's file and rank.
fn square_name(square: Square) -> [u8; 2] {
    [b'a' + square.file() as u8, b'1' + square.rank() as u8]
}

/// `from`, `to` and the promotion's lower-case letter, as `notation.formats.uci` writes a move.
fn uci(from: Square, to: Square, promotion: Option<Piece>) -> UciText {
    let [a, b] = square_name(from);
    let [c, d] = square_name(to);
    let mut text = UciText {
        bytes: [a, b, c, d, 0],
        len: 4,
    };
    if let Some(piece) = promotion {
        text.bytes[4] = b"pnbrqk"[piece as usize];
        text.len = 5;
    }
    text
}

/// A move's UCI text (4 or 5 ASCII bytes) without an allocation.
struct UciText {
    bytes: [u8; 5],
    len: usize,
}

impl UciText {
    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..self.len]).expect("ASCII")
    }
}

pub struct MovesColumns {
    san: StringBuilder,
    /// The move in UCI (`e2e4`, `e7e8q`; castling as `from_sq` to `to_sq`)
    uci: StringBuilder,
    from_sq: Int8Builder,
    to_sq: Int8Builder,
    piece: Int8Builder,
    target: Int8Builder,
    promotion: Int8Builder,
    castle: BooleanBuilder,
    check: BooleanBuilder,
    mate: BooleanBuilder,
    text: StringBuilder,
    nags: ListBuilder<UInt8Builder>,
    position_key: UInt64Builder,
    /// With the comment patterns: the values read from each ply's comments (the moves table's
    /// columns) instead of the raw `text`.
    read: Option<ReadColumns>,
    rows: usize,
}

/// The comment-read columns (`notation.tables.moves_rows.COMMENT_COLUMNS`) and the values that
/// did not fit their column: (row, column, text as written).
struct ReadColumns {
    commands: Arc<Commands>,
    clock_seconds: Float64Builder,
    move_time_ms: Int64Builder,
    eval_cp: Int32Builder,
    eval_mate: Int16Builder,
    depth: Int16Builder,
    comment: StringBuilder,
    problems: Vec<(usize, Column, String)>,
}

impl ReadColumns {
    fn new(commands: Arc<Commands>) -> Self {
        ReadColumns {
            commands,
            clock_seconds: Float64Builder::new(),
            move_time_ms: Int64Builder::new(),
            eval_cp: Int32Builder::new(),
            eval_mate: Int16Builder::new(),
            depth: Int16Builder::new(),
            comment: StringBuilder::new(),
            problems: Vec::new(),
        }
    }

    fn push(&mut self, row: usize, text: Option<&str>, white: bool) {
        let Some(text) = text else {
            self.clock_seconds.append_null();
            self.move_time_ms.append_null();
            self.eval_cp.append_null();
            self.eval_mate.append_null();
            self.depth.append_null();
            self.comment.append_null();
            return;
        };
        let read = self.commands.read(text, white);
        self.clock_seconds.append_option(read.clock_seconds);
        self.move_time_ms.append_option(read.move_time_ms);
        self.eval_cp.append_option(read.eval_cp);
        self.eval_mate.append_option(read.eval_mate);
        self.depth.append_option(read.depth);
        self.comment.append_option(read.comment);
        self.problems.extend(
            read.problems
                .into_iter()
                .map(|(column, written)| (row, column, written)),
        );
    }
}

impl Default for MovesColumns {
    fn default() -> Self {
        MovesColumns {
            san: StringBuilder::new(),
            uci: StringBuilder::new(),
            from_sq: Int8Builder::new(),
            to_sq: Int8Builder::new(),
            piece: Int8Builder::new(),
            target: Int8Builder::new(),
            promotion: Int8Builder::new(),
            castle: BooleanBuilder::new(),
            check: BooleanBuilder::new(),
            mate: BooleanBuilder::new(),
            text: StringBuilder::new(),
            nags: ListBuilder::new(UInt8Builder::new()),
            position_key: UInt64Builder::new(),
            read: None,
            rows: 0,
        }
    }
}

impl MovesColumns {
    pub fn len(&self) -> usize {
        self.rows
    }

    /// Columns that read each ply's comments with `commands` (see [`ReadColumns`]).
    pub fn with_commands(commands: Arc<Commands>) -> Self {
        MovesColumns {
            read: Some(ReadColumns::new(commands)),
            ..MovesColumns::default()
        }
    }

    /// Empty columns of the same kind (reading comments or not).
    pub fn fresh(&self) -> Self {
        match &self.read {
            Some(read) => MovesColumns::with_commands(read.commands.clone()),
            None => MovesColumns::default(),
        }
    }

    /// The values of the rows so far that did not fit their column: (row, column, text).
    pub fn take_problems(&mut self) -> Vec<(usize, &'static str, String)> {
        match &mut self.read {
            Some(read) => std::mem::take(&mut read.problems)
                .into_iter()
                .map(|(row, column, text)| (row, column.name(), text))
                .collect(),
            None => Vec::new(),
        }
    }

    /// Append every mainline ply of `game` (castling king-takes-rook when `chess960`, else the
    /// king's move to its destination, as the Python engine encodes it).
    pub fn push(&mut self, game: &Game<'_>, chess960: bool) {
        let mut text = String::new();
        for ply in &game.plies {
            self.san.append_value(game.san(ply));
            let mut to = ply.mv.to;
            if ply.castle && !chess960 {
                let file = if to.file() > ply.mv.from.file() {
                    File::G
                } else {
                    File::C
                };
                to = Square::new(file, ply.mv.from.rank());
            }
            self.from_sq.append_value(ply.mv.from as i8);
            self.to_sq.append_value(to as i8);
            self.uci
                .append_value(uci(ply.mv.from, to, ply.mv.promotion).as_str());
            self.piece.append_value(piece_type(ply.piece));
            if ply.en_passant {
                self.target.append_null();
            } else {
                self.target.append_value(ply.captured.map_or(0, piece_type));
            }
            self.promotion
                .append_option(ply.mv.promotion.map(piece_type));
            self.castle.append_value(ply.castle);
            self.check.append_value(ply.check);
            self.mate.append_value(ply.mate);
            text.clear();
            let mut comments = 0;
            let mut nags = 0;
            for note in &game.notes[ply.notes.0 as usize..ply.notes.1 as usize] {
                match note {
                    Note::Comment(body) => {
                        if comments > 0 {
                            text.push(' ');
                        }
                        text.push_str(body);
                        comments += 1;
                    }
                    Note::Nag(value) => {
                        self.nags.values().append_value(*value);
                        nags += 1;
                    }
                }
            }
            let written = (comments > 0).then_some(text.as_str());
            match &mut self.read {
                Some(read) => read.push(self.rows, written, ply.white),
                None => self.text.append_option(written),
            }
            self.nags.append(nags > 0);
            self.position_key.append_value(ply.key);
            self.rows += 1;
        }
    }

    /// The columns as one struct array (names as the Python builder's).
    pub fn finish(mut self) -> StructArray {
        let nags = self.nags.finish();
        let columns: Vec<(&str, ArrayRef)> = vec![
            ("san", Arc::new(self.san.finish())),
            ("uci", Arc::new(self.uci.finish())),
            ("from_sq", Arc::new(self.from_sq.finish())),
            ("to_sq", Arc::new(self.to_sq.finish())),
            ("piece", Arc::new(self.piece.finish())),
            ("target", Arc::new(self.target.finish())),
            ("promotion", Arc::new(self.promotion.finish())),
            ("castle", Arc::new(self.castle.finish())),
            ("check", Arc::new(self.check.finish())),
            ("mate", Arc::new(self.mate.finish())),
        ];
        let mut columns = columns;
        if self.read.is_none() {
            columns.push(("text", Arc::new(self.text.finish())));
        }
        columns.push(("nags", Arc::new(nags)));
        columns.push(("position_key", Arc::new(self.position_key.finish())));
        if let Some(read) = &mut self.read {
            columns.extend([
                (
                    "clock_seconds",
                    Arc::new(read.clock_seconds.finish()) as ArrayRef,
                ),
                ("move_time_ms", Arc::new(read.move_time_ms.finish())),
                ("eval_cp", Arc::new(read.eval_cp.finish())),
                ("eval_mate", Arc::new(read.eval_mate.finish())),
                ("depth", Arc::new(read.depth.finish())),
                ("comment", Arc::new(read.comment.finish())),
            ]);
        }
        struct_of(columns)
    }
}

/// Named arrays as one struct array (every field nullable), as the Python builders read them.
pub(crate) fn struct_of(columns: Vec<(&str, ArrayRef)>) -> StructArray {
    let fields: Fields = columns
        .iter()
        .map(|(name, array)| Arc::new(Field::new(*name, array.data_type().clone(), true)))
        .collect();
    let arrays = columns.into_iter().map(|(_, array)| array).collect();
    StructArray::new(fields, arrays, None)
}

#[cfg(test)]
mod tests {
    use super::uci;
    use cozy_chess::{Piece, Square};

    #[test]
    fn uci_texts() {
        assert_eq!(uci(Square::E2, Square::E4, None).as_str(), "e2e4");
        assert_eq!(
            uci(Square::A7, Square::A8, Some(Piece::Knight)).as_str(),
            "a7a8n"
        );
        assert_eq!(
            uci(Square::H2, Square::G1, Some(Piece::Queen)).as_str(),
            "h2g1q"
        );
        assert_eq!(uci(Square::E1, Square::G1, None).as_str(), "e1g1");
    }
}
