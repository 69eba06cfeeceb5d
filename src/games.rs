//! `notation import`'s rows of a batch of plain games, written by the core in one call: the
//! games table's raw columns (`notation.tables.rows.GamesBuilder`'s, before Polars types them)
//! and the moves table's columns ([`MovesColumns`]), for the games whose verdict the core decides
//! whole. The games taken are the ones whose `validate` report line the core writes
//! (`crate::report`: its conditions, checked by the same functions), from the standard start
//! position or the one Python gives for a game with FEN, SetUp or Variant tags; the first game
//! it does not take ends the call, and Python reads that game the per-game way
//! (`notation.tables.rows.TableBuilder.add_raw`), then calls again with the rest.
//! A test compares the tables with the batch on and off, and with the Python reference.
//!
//! What a taken game's row holds of its checks: `status` ("ok", or "warning" for a wrong check
//! suffix or move number, a move after a fivefold repetition, the 75-move rule or a dead
//! position), `warning_count` (those), no errors (the conditions leave those to Python), and
//! the claims, the rule-based end and both sides' dead-position verdicts from the replay.

use std::sync::Arc;

use arrow_array::builder::{
    BooleanBuilder, Int32Builder, Int64Builder, ListBuilder, StringBuilder, StructBuilder,
    UInt64Builder,
};
use arrow_array::{ArrayRef, StructArray};
use arrow_schema::{DataType, Field, Fields};

use crate::columns::{struct_of, MovesColumns};
use crate::dead;
use crate::python::{replay_game_kept, CoreGame};
use crate::report::{decided, outline_tag, plain, Limits, Plain, Start, RESULTS};

/// The start position of a game from its `FEN`, `Variant` and `SetUp` tags (None: absent), as
/// `notation.tables.rows` gives it: what the core is given ([`Start`]) and the games table's
/// `start_fen` (None for the standard position), or None when Python must read the game.
pub(crate) type ImportStartOf<'a> =
    dyn FnMut(Option<&str>, Option<&str>, Option<&str>) -> Option<(Start, Option<String>)> + 'a;

/// A taken game's start: None for the standard start, else its `FEN`, `Variant` and `SetUp`
/// tags (as the outline read them), for Python to account for the position.
pub(crate) type SetUp = Option<(Option<String>, Option<String>, Option<String>)>;

/// The tags with columns of their own (`notation.tables.schema.COLUMN_TAGS`); the others go
/// to `extra_tags`.
const COLUMN_TAGS: [&str; 19] = [
    "Event",
    "Site",
    "Date",
    "Round",
    "White",
    "Black",
    "Result",
    "WhiteElo",
    "BlackElo",
    "WhiteTitle",
    "BlackTitle",
    "ECO",
    "Opening",
    "TimeControl",
    "Termination",
    "UTCDate",
    "UTCTime",
    "Variant",
    "FEN",
];

/// Tag values that mean "unknown" (`notation.tables.schema.UNKNOWN_VALUES`).
const UNKNOWN_VALUES: [&str; 4] = ["", "?", "??", "-"];

/// Python's `str.strip()`: Unicode whitespace and the separators U+001C..U+001F, which Python
/// counts as whitespace and Rust does not.
fn py_strip(text: &str) -> &str {
    text.trim_matches(|c: char| c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c))
}

/// `notation.tables.rows._text`: stripped, None when unknown.
fn known(value: Option<&str>) -> Option<&str> {
    let value = py_strip(value?);
    (!UNKNOWN_VALUES.contains(&value)).then_some(value)
}

/// The games table's raw columns, in `GamesBuilder._RAW`'s order.
pub(crate) struct GamesColumns {
    game_id: UInt64Builder,
    source_file: StringBuilder,
    game_number: Int64Builder,
    /// event .. variant, start_fen: the tag-text columns, in order
    texts: Vec<StringBuilder>,
    plies: Int32Builder,
    status: StringBuilder,
    error_count: Int32Builder,
    warning_count: Int32Builder,
    first_error: StringBuilder,
    final_fen: StringBuilder,
    outcome: StringBuilder,
    threefold_ply: Int32Builder,
    fifty_moves_ply: Int32Builder,
    first_dead_ply: Int32Builder,
    white_can_mate: BooleanBuilder,
    black_can_mate: BooleanBuilder,
    extra_tags: ListBuilder<StructBuilder>,
    /// Games taken with a warning
    pub(crate) warnings: usize,
}

/// The text columns between `game_number` and `plies`.
const TEXT_COLUMNS: [&str; 19] = [
    "event",
    "site",
    "date_text",
    "round",
    "white",
    "black",
    "result",
    "white_elo",
    "black_elo",
    "white_title",
    "black_title",
    "eco",
    "opening",
    "time_control",
    "termination",
    "utc_date",
    "utc_time",
    "variant",
    "start_fen",
];

fn tag_fields() -> Fields {
    Fields::from(vec![
        Field::new("name", DataType::Utf8, true),
        Field::new("value", DataType::Utf8, true),
    ])
}

impl GamesColumns {
    pub(crate) fn new() -> Self {
        GamesColumns {
            game_id: UInt64Builder::new(),
            source_file: StringBuilder::new(),
            game_number: Int64Builder::new(),
            texts: TEXT_COLUMNS.iter().map(|_| StringBuilder::new()).collect(),
            plies: Int32Builder::new(),
            status: StringBuilder::new(),
            error_count: Int32Builder::new(),
            warning_count: Int32Builder::new(),
            first_error: StringBuilder::new(),
            final_fen: StringBuilder::new(),
            outcome: StringBuilder::new(),
            threefold_ply: Int32Builder::new(),
            fifty_moves_ply: Int32Builder::new(),
            first_dead_ply: Int32Builder::new(),
            white_can_mate: BooleanBuilder::new(),
            black_can_mate: BooleanBuilder::new(),
            extra_tags: ListBuilder::new(StructBuilder::from_fields(tag_fields(), 0)),
            warnings: 0,
        }
    }

    /// One game's row (`GamesBuilder.add`): its tags, what the replay found and its warnings.
    fn push(
        &mut self,
        (gid, file, number): (u64, &str, i64),
        tags: &[(&str, std::borrow::Cow<'_, str>)],
        game: &CoreGame,
        warnings: u32,
        start_fen: Option<&str>,
    ) {
        let tag = |name: &str| {
            tags.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.as_ref())
        };
        self.game_id.append_value(gid);
        self.source_file.append_value(file);
        self.game_number.append_value(number);
        let date = match tag("Date") {
            Some(date) if !date.is_empty() => Some(date),
            _ => tag("UTCDate"),
        };
        let time_control = tag("TimeControl")
            .map(py_strip)
            .filter(|tc| !tc.is_empty() && *tc != "?");
        let result = tag("Result").filter(|r| RESULTS.contains(r));
        let values: [Option<&str>; 19] = [
            known(tag("Event")),
            known(tag("Site")),
            date,
            known(tag("Round")),
            known(tag("White")),
            known(tag("Black")),
            result,
            tag("WhiteElo"),
            tag("BlackElo"),
            known(tag("WhiteTitle")),
            known(tag("BlackTitle")),
            known(tag("ECO")),
            known(tag("Opening")),
            time_control,
            known(tag("Termination")),
            tag("UTCDate"),
            tag("UTCTime"),
            known(tag("Variant")),
            start_fen,
        ];
        for (builder, value) in self.texts.iter_mut().zip(values) {
            builder.append_option(value);
        }
        self.plies.append_value(game.plies as i32);
        self.status
            .append_value(if warnings > 0 { "warning" } else { "ok" });
        self.error_count.append_value(0);
        self.warning_count.append_value(warnings as i32);
        self.first_error.append_null();
        self.final_fen.append_value(&game.final_fen);
        self.outcome.append_option(game.termination);
        let ply = |value: Option<u32>| value.map(|p| p as i32);
        self.threefold_ply.append_option(ply(game.threefold));
        self.fifty_moves_ply.append_option(ply(game.fifty_moves));
        self.first_dead_ply.append_option(ply(game.first_dead));
        self.white_can_mate.append_option(game.white_mate.0);
        self.black_can_mate.append_option(game.black_mate.0);
        let list = self.extra_tags.values();
        for (name, value) in tags {
            if !COLUMN_TAGS.contains(name) {
                list.field_builder::<StringBuilder>(0)
                    .expect("name")
                    .append_value(name);
                list.field_builder::<StringBuilder>(1)
                    .expect("value")
                    .append_value(value.as_ref());
                list.append(true);
            }
        }
        self.extra_tags.append(true);
        if warnings > 0 {
            self.warnings += 1;
        }
    }

    /// The columns as one struct array (names as `GamesBuilder._RAW`).
    pub(crate) fn finish(mut self) -> StructArray {
        let mut columns: Vec<(&str, ArrayRef)> = vec![
            ("game_id", Arc::new(self.game_id.finish())),
            ("source_file", Arc::new(self.source_file.finish())),
            ("game_number", Arc::new(self.game_number.finish())),
        ];
        for (name, builder) in TEXT_COLUMNS.iter().zip(self.texts.iter_mut()) {
            columns.push((name, Arc::new(builder.finish())));
        }
        columns.extend([
            ("plies", Arc::new(self.plies.finish()) as ArrayRef),
            ("status", Arc::new(self.status.finish())),
            ("error_count", Arc::new(self.error_count.finish())),
            ("warning_count", Arc::new(self.warning_count.finish())),
            ("first_error", Arc::new(self.first_error.finish())),
            ("final_fen", Arc::new(self.final_fen.finish())),
            ("outcome", Arc::new(self.outcome.finish())),
            ("threefold_ply", Arc::new(self.threefold_ply.finish())),
            ("fifty_moves_ply", Arc::new(self.fifty_moves_ply.finish())),
            ("first_dead_ply", Arc::new(self.first_dead_ply.finish())),
            ("white_can_mate", Arc::new(self.white_can_mate.finish())),
            ("black_can_mate", Arc::new(self.black_can_mate.finish())),
            ("extra_tags", Arc::new(self.extra_tags.finish())),
        ]);
        struct_of(columns)
    }
}

/// The warnings a taken game's report holds (`crate::report::report_line`'s: the remarks, a
/// move after a fivefold repetition, the 75-move rule or a dead position).
fn warnings(game: &CoreGame) -> u32 {
    let last = game.plies;
    let after = |ply: Option<u32>| u32::from(ply.is_some_and(|p| p < last));
    game.remarks.len() as u32
        + after(game.fivefold)
        + after(game.seventyfive_moves)
        + after(game.first_dead)
}

/// Game `number` of the batch (its text starting at `line`, id `gid`, imported from `file`):
/// its row appended to `games` and its plies to `moves`, and its start ([`SetUp`]); None when
/// the core does not take it (nothing appended). `start` gives a set-up game's position.
pub(crate) fn import_game(
    text: &str,
    (gid, file, number, line): (u64, &str, i64, usize),
    limits: &Limits,
    games: &mut GamesColumns,
    moves: &mut MovesColumns,
    start: &mut ImportStartOf<'_>,
) -> Option<SetUp> {
    let plain = plain(text, line, limits)?;
    let set_up = plain.set_up();
    let Plain {
        found,
        result,
        wins,
        run,
    } = plain;
    let tag = |name: &str| outline_tag(&found, name);
    let ((fen, halfmove, fullmove, chess960, _), start_fen) = if set_up {
        start(tag("FEN"), tag("Variant"), tag("SetUp"))?
    } else {
        ((None, 0, 1, false, 0), None)
    };
    let termination = tag("Termination");
    let mut taken = false;
    let replayed = replay_game_kept(
        fen.as_deref(),
        vec![run],
        halfmove,
        fullmove,
        Some(moves),
        chess960,
        wins,
        limits.searches,
        dead::Need::Both,
        &mut |game| {
            taken = decided(game, result, wins, termination);
            taken
        },
    );
    match replayed {
        Ok(game) if taken => {
            let warnings = warnings(&game);
            games.push(
                (gid, file, number),
                &found.tags,
                &game,
                warnings,
                start_fen.as_deref(),
            );
            let owned = |name: &str| tag(name).map(str::to_owned);
            Some(set_up.then(|| (owned("FEN"), owned("Variant"), owned("SetUp"))))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_as_python_does() {
        assert_eq!(py_strip("\u{1c} a b\u{a0}\t"), "a b");
        assert_eq!(known(Some(" ? ")), None);
        assert_eq!(known(Some(" x ")), Some("x"));
        assert_eq!(known(None), None);
    }
}
