//! The moves table's per-ply columns, built in Arrow arrays (the layout
//! `notation.tables.rows.MovesBuilder` gives Polars: the raw columns its derivations start from).

use std::sync::Arc;

use arrow_array::builder::{
    BooleanBuilder, Int8Builder, ListBuilder, StringBuilder, UInt64Builder, UInt8Builder,
};
use arrow_array::{ArrayRef, StructArray};
use arrow_schema::{Field, Fields};
use cozy_chess::{File, Piece, Square};

use crate::replay::{Game, Note};

/// Piece types as the Python engine numbers them (pawn 1 .. king 6).
fn piece_type(piece: Piece) -> i8 {
    piece as i8 + 1
}

pub struct MovesColumns {
    san: StringBuilder,
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
    rows: usize,
}

impl Default for MovesColumns {
    fn default() -> Self {
        MovesColumns {
            san: StringBuilder::new(),
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
            rows: 0,
        }
    }
}

impl MovesColumns {
    pub fn len(&self) -> usize {
        self.rows
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
            if comments > 0 {
                self.text.append_value(&text);
            } else {
                self.text.append_null();
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
            ("from_sq", Arc::new(self.from_sq.finish())),
            ("to_sq", Arc::new(self.to_sq.finish())),
            ("piece", Arc::new(self.piece.finish())),
            ("target", Arc::new(self.target.finish())),
            ("promotion", Arc::new(self.promotion.finish())),
            ("castle", Arc::new(self.castle.finish())),
            ("check", Arc::new(self.check.finish())),
            ("mate", Arc::new(self.mate.finish())),
            ("text", Arc::new(self.text.finish())),
            ("nags", Arc::new(nags)),
            ("position_key", Arc::new(self.position_key.finish())),
        ];
        let fields: Fields = columns
            .iter()
            .map(|(name, array)| Arc::new(Field::new(*name, array.data_type().clone(), true)))
            .collect();
        let arrays = columns.into_iter().map(|(_, array)| array).collect();
        StructArray::new(fields, arrays, None)
    }
}
