//! The Python module `notation._core` (PyO3). Results cross as a few Python objects per game,
//! never one per move: a [`CoreGame`] for `validate`, and (for `import`) column buffers.

use std::panic::{catch_unwind, AssertUnwindSafe};

use cozy_chess::Board;
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyCapsule, PyDict, PyInt, PyList, PyString, PyTuple};

use crate::columns::MovesColumns;
use crate::commands::Commands;
use crate::dead;
use crate::fen;
use crate::replay::{self, Decline, Item, Pos, MAX_DEPTH, MAX_PLIES, SYMBOL_NAGS};

create_exception!(
    _core,
    CorePanic,
    PyException,
    "A bug in the compiled core (a Rust panic), caught."
);

/// One game replayed by the core (see `notation.validation.core`).
#[pyclass(frozen, get_all, module = "notation._core")]
pub struct CoreGame {
    pub(crate) plies: u32,
    pub(crate) final_fen: String,
    pub(crate) termination: Option<&'static str>,
    /// "white" or "black"
    pub(crate) winner: Option<&'static str>,
    pub(crate) threefold: Option<u32>,
    pub(crate) fifty_moves: Option<u32>,
    pub(crate) fivefold: Option<u32>,
    pub(crate) seventyfive_moves: Option<u32>,
    /// (side, first ply, repetition ply)
    pub(crate) perpetual: Option<(&'static str, u32, u32)>,
    /// (ply, line, column, SAN as written, move number, White moved) of the plies reports name
    pub(crate) marks: Vec<(u32, u32, u32, String, u32, bool)>,
    pub(crate) variation_plies: u32,
    /// The move-level warnings in text order: (kind, ply, line, column, SAN as written, what
    /// was written, what the move calls for): kind "suffix" (the suffixes, "" for none) or
    /// "number" (the move numbers)
    pub(crate) remarks: Vec<(&'static str, u32, u32, u32, String, String, String)>,
    /// The first dead position (FIDE 5.2.2): its ply, 0 for the start position
    pub(crate) first_dead: Option<u32>,
    /// Whether each side can still mate in the final position: (True, None), (False, reason)
    /// or (None, None) when undecided
    pub(crate) white_mate: (Option<bool>, Option<&'static str>),
    pub(crate) black_mate: (Option<bool>, Option<&'static str>),
}

/// What the caller reads of the final verdicts: `both` (import) or only whether the position is
/// dead and the winner's verdict (validate).
fn need(both: bool) -> dead::Need {
    if both {
        dead::Need::Both
    } else {
        dead::Need::Deadness
    }
}

/// The reason given with a verdict not looked at ([`dead::Verdict::NotComputed`]).
const NOT_COMPUTED: &str = "not computed";

fn verdict_tuple(verdict: dead::Verdict) -> (Option<bool>, Option<&'static str>) {
    match verdict {
        dead::Verdict::Can => (Some(true), None),
        dead::Verdict::Cannot(reason) => (Some(false), Some(reason.name())),
        dead::Verdict::Undecided => (None, None),
        dead::Verdict::NotComputed => (None, Some(NOT_COMPUTED)),
    }
}

fn winner_colour(wins: Option<bool>) -> Option<cozy_chess::Color> {
    wins.map(|white| {
        if white {
            cozy_chess::Color::White
        } else {
            cozy_chess::Color::Black
        }
    })
}

fn side(white: bool) -> &'static str {
    if white {
        "white"
    } else {
        "black"
    }
}

/// Why the core declined a game (`replay_game` returns it instead of a `CoreGame`): the
/// stable `code` of [`Decline`] and its `reason` in words. The Python reference replays the game.
#[pyclass(name = "Decline", frozen, get_all, eq, module = "notation._core")]
#[derive(PartialEq)]
pub struct PyDecline {
    code: &'static str,
    reason: &'static str,
}

#[pymethods]
impl PyDecline {
    fn __repr__(&self) -> String {
        format!("Decline({:?}: {})", self.code, self.reason)
    }
}

impl From<Decline> for PyDecline {
    fn from(decline: Decline) -> Self {
        PyDecline {
            code: decline.code(),
            reason: decline.reason(),
        }
    }
}

/// The tree of runs and variations handed over by Python, or why the core declines it.
fn items(list: &Bound<'_, PyList>, depth: usize) -> PyResult<Result<Vec<Item>, Decline>> {
    if depth > MAX_DEPTH {
        return Ok(Err(Decline::NestedTooDeep));
    }
    let mut out = Vec::with_capacity(list.len());
    for element in list.iter() {
        if let Ok(run) = element.cast::<PyTuple>() {
            let (text, line, column): (String, u32, u32) = run.extract()?;
            out.push(Item::Run { text, line, column });
        } else if let Ok(text) = element.cast::<PyString>() {
            out.push(Item::Comment(text.to_str()?.to_owned()));
        } else if let Ok(value) = element.cast::<PyInt>() {
            match value.extract::<u8>() {
                Ok(nag) => out.push(Item::Nag(nag)),
                Err(_) => return Ok(Err(Decline::NagRange)), // the reference decides
            }
        } else {
            let sub = element.cast::<PyList>()?;
            match items(sub, depth + 1)? {
                Ok(v) => out.push(Item::Variation(v)),
                Err(decline) => return Ok(Err(decline)),
            }
        }
    }
    Ok(Ok(out))
}

fn start(fen_text: Option<&str>, halfmove: u32, fullmove: u32) -> Option<Pos> {
    let board = match fen_text {
        None => Board::default(),
        Some(text) => {
            // counters are kept here, not in the engine's board (which caps them)
            let fields: Vec<&str> = text.split(' ').collect();
            if fields.len() < 4 {
                return None;
            }
            let engine_fen = format!(
                "{} {} {} {} 0 1",
                fields[0], fields[1], fields[2], fields[3]
            );
            Board::from_fen(&engine_fen, true).ok()?
        }
    };
    Some(Pos {
        board,
        halfmove,
        fullmove,
    })
}

#[allow(clippy::too_many_arguments)]
pub(crate) fn replay_game_inner(
    fen_text: Option<&str>,
    lines: Vec<Item>,
    halfmove: u32,
    fullmove: u32,
    moves: Option<&mut MovesColumns>,
    chess960: bool,
    wins: Option<bool>,
    searches: u32,
    need: dead::Need,
) -> Result<CoreGame, Decline> {
    replay_game_kept(
        fen_text,
        lines,
        halfmove,
        fullmove,
        moves,
        chess960,
        wins,
        searches,
        need,
        &mut |_| true,
    )
}

/// [`replay_game_inner`], the game's rows appended to `moves` only when `keep` says so of the
/// result (a caller that decides after the replay whether it takes the game).
#[allow(clippy::too_many_arguments)]
pub(crate) fn replay_game_kept(
    fen_text: Option<&str>,
    lines: Vec<Item>,
    halfmove: u32,
    fullmove: u32,
    moves: Option<&mut MovesColumns>,
    chess960: bool,
    wins: Option<bool>,
    searches: u32,
    need: dead::Need,
    keep: &mut dyn FnMut(&CoreGame) -> bool,
) -> Result<CoreGame, Decline> {
    let pos = start(fen_text, halfmove, fullmove).ok_or(Decline::StartPosition)?;
    let start_board = pos.board.clone();
    let game = replay::replay(pos, &lines, moves.is_some())?;
    let (claims, perpetual) = game.claims();
    let mut budget = dead::Budget { searches };
    let verdicts = dead::final_verdicts(
        &game.final_pos.board,
        winner_colour(wins),
        need,
        &mut budget,
    );
    let first_dead = if dead::both_cannot(verdicts) {
        let mut boards = Vec::with_capacity(game.plies.len() + 1);
        boards.push(start_board);
        for ply in &game.plies {
            let mut next = boards[boards.len() - 1].clone();
            next.play_unchecked(ply.mv);
            boards.push(next);
        }
        Some(dead::first_dead(boards.iter(), &mut budget))
    } else {
        None
    };
    let end = game.outcome(&claims, first_dead);
    let last = game.plies.len() as u32;
    let mut wanted: Vec<u32> = Vec::new();
    for ply in [
        claims.threefold,
        claims.fifty_moves,
        claims.fivefold,
        claims.seventyfive_moves,
    ]
    .into_iter()
    .flatten()
    {
        wanted.push(ply);
        if ply < last {
            wanted.push(ply + 1);
        }
    }
    if let Some((_, first, ply)) = perpetual {
        wanted.push(first);
        wanted.push(ply);
    }
    if last > 0 {
        wanted.push(last);
    }
    if let Some(ply) = first_dead {
        if ply > 0 {
            wanted.push(ply);
        }
        if ply < last {
            wanted.push(ply + 1);
        }
    }
    wanted.sort_unstable();
    wanted.dedup();
    let marks = wanted
        .into_iter()
        .filter_map(|ply| game.mark(ply))
        .map(|m| (m.ply, m.line, m.column, m.san, m.fullmove, m.white))
        .collect();
    let board = &game.final_pos.board;
    let result = CoreGame {
        plies: last,
        final_fen: fen::format(board, game.final_pos.halfmove, game.final_pos.fullmove),
        termination: end.map(replay::Termination::name),
        winner: end.and_then(replay::Termination::winner).map(side),
        threefold: claims.threefold,
        fifty_moves: claims.fifty_moves,
        fivefold: claims.fivefold,
        seventyfive_moves: claims.seventyfive_moves,
        perpetual: perpetual.map(|(white, first, ply)| (side(white), first, ply)),
        marks,
        variation_plies: game.variation_plies,
        remarks: game.remarks.iter().map(remark_tuple).collect(),
        first_dead,
        white_mate: verdict_tuple(verdicts.0),
        black_mate: verdict_tuple(verdicts.1),
    };
    // the table rows last: a game either adds all its rows or none
    if let Some(columns) = moves {
        if keep(&result) {
            columns.push(&game, chess960);
        }
    }
    Ok(result)
}

fn suffix_text(suffix: u8) -> String {
    if suffix == 0 {
        String::new()
    } else {
        char::from(suffix).to_string()
    }
}

fn remark_tuple(remark: &replay::Remark) -> (&'static str, u32, u32, u32, String, String, String) {
    let (kind, written, expected) = match remark.kind {
        replay::RemarkKind::Suffix { written, expected } => {
            ("suffix", suffix_text(written), suffix_text(expected))
        }
        replay::RemarkKind::Number { written, actual } => {
            ("number", written.to_string(), actual.to_string())
        }
    };
    (
        kind,
        remark.ply,
        remark.line,
        remark.column,
        remark.san.clone(),
        written,
        expected,
    )
}

fn panic_message(payload: Box<dyn std::any::Any + Send>) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_string()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "unknown panic".to_string()
    }
}

/// What `replay_game` hands back: the game, or why the core declined it.
#[derive(IntoPyObject)]
enum Replayed {
    Game(CoreGame),
    Declined(PyDecline),
}

/// Replay a game's mainline (a list of runs `(text, line, column)` and variation lists) from
/// `fen` (Shredder-FEN; None for the standard start). Returns a `CoreGame`, or a `Decline`
/// saying why the core declines the game (the Python reference then replays it).
///
/// With `moves` (a `MovesBatch`), the game's mainline plies are appended to it as moves-table
/// columns when the core takes the game (`chess960`: castling is written king-takes-rook).
///
/// `wins`: the side the recorded result makes the winner (True White, None for no decisive
/// result), which the dead-position search is spent on; `searches`: the game's budget of full
/// unwinnability searches (see `crate::dead`); `both`: both sides' verdicts wanted (import),
/// else only what validate reads (`dead::Need::Deadness`: the loser's verdict is `(None, "not
/// computed")` where the winner's is not "cannot").
#[pyfunction]
#[pyo3(signature = (fen, lines, halfmove = 0, fullmove = 1, moves = None, chess960 = false, wins = None, searches = dead::DEFAULT_SEARCHES, both = true))]
#[allow(clippy::too_many_arguments)]
fn replay_game(
    fen: Option<&str>,
    lines: &Bound<'_, PyList>,
    halfmove: u32,
    fullmove: u32,
    moves: Option<&Bound<'_, MovesBatch>>,
    chess960: bool,
    wins: Option<bool>,
    searches: u32,
    both: bool,
) -> PyResult<Replayed> {
    let tree = match items(lines, 0)? {
        Ok(tree) => tree,
        Err(decline) => return Ok(Replayed::Declined(decline.into())),
    };
    let fen_owned = fen.map(str::to_owned);
    let mut batch = moves.map(|b| b.borrow_mut());
    let columns = batch.as_mut().map(|b| &mut b.columns);
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        replay_game_inner(
            fen_owned.as_deref(),
            tree,
            halfmove,
            fullmove,
            columns,
            chess960,
            wins,
            searches,
            need(both),
        )
    }));
    match outcome {
        Ok(Ok(game)) => Ok(Replayed::Game(game)),
        Ok(Err(decline)) => Ok(Replayed::Declined(decline.into())),
        Err(payload) => Err(CorePanic::new_err(panic_message(payload))),
    }
}

/// Perft: leaf nodes at `depth` from `fen` (X-FEN or Shredder-FEN castling; Chess960
/// castling rights are read from the rook files either way).
#[pyfunction]
fn perft(py: Python<'_>, fen: &str, depth: u32) -> PyResult<u64> {
    fn count(board: &Board, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut total = 0;
        board.generate_moves(|moves| {
            if depth == 1 {
                total += moves.len() as u64;
            } else {
                for mv in moves {
                    let mut next = board.clone();
                    next.play_unchecked(mv);
                    total += count(&next, depth - 1);
                }
            }
            false
        });
        total
    }
    let board = read_fen(fen)?;
    Ok(py.detach(move || count(&board, depth)))
}

/// The dead-position analysis of a line for the Python reference, exactly as `replay_game`
/// does it: `fens` are the positions of the mainline (start, then after each ply; Shredder-FEN
/// castling), `wins`, `searches` and `both` as for `replay_game`. Returns (first dead ply or None,
/// White's verdict, Black's verdict on the final position), each verdict (can mate or None
/// when undecided, the reason it cannot). Only the final FEN is read unless it is dead.
#[pyfunction]
#[pyo3(signature = (fens, wins = None, searches = dead::DEFAULT_SEARCHES, both = true))]
#[allow(clippy::type_complexity)]
fn dead_analysis(
    fens: Vec<String>,
    wins: Option<bool>,
    searches: u32,
    both: bool,
) -> PyResult<(
    Option<u32>,
    (Option<bool>, Option<&'static str>),
    (Option<bool>, Option<&'static str>),
)> {
    let board_of = |text: &str| {
        start(Some(text), 0, 1)
            .map(|p| p.board)
            .ok_or_else(|| pyo3::exceptions::PyValueError::new_err(format!("invalid FEN {text:?}")))
    };
    let Some(last) = fens.last() else {
        return Err(pyo3::exceptions::PyValueError::new_err("no position"));
    };
    let final_board = board_of(last)?;
    let mut budget = dead::Budget { searches };
    let outcome = catch_unwind(AssertUnwindSafe(|| -> PyResult<_> {
        let verdicts =
            dead::final_verdicts(&final_board, winner_colour(wins), need(both), &mut budget);
        let first = if dead::both_cannot(verdicts) {
            let boards = fens
                .iter()
                .map(|f| board_of(f))
                .collect::<PyResult<Vec<Board>>>()?;
            Some(dead::first_dead(boards.iter(), &mut budget))
        } else {
            None
        };
        Ok((first, verdict_tuple(verdicts.0), verdict_tuple(verdicts.1)))
    }));
    match outcome {
        Ok(result) => result,
        Err(payload) => Err(CorePanic::new_err(panic_message(payload))),
    }
}

/// The helpmate walk's answer and the full search's for one side of a position (tests: the walk
/// must never find a mate the search says cannot exist, nor one a labelled position denies):
/// (the walk found a mate, the full search's answer: True can mate, False cannot, None
/// undecided; None as well when `search` is false). `white`: the side asked about.
#[pyfunction]
#[pyo3(signature = (fen, white, search = true))]
fn helpmate_walk(fen: &str, white: bool, search: bool) -> PyResult<(bool, Option<bool>)> {
    let board = read_fen(fen)?;
    let side = if white {
        cozy_chess::Color::White
    } else {
        cozy_chess::Color::Black
    };
    let walk = crate::helpmate::mate_found(&board, side);
    Ok((
        walk,
        search.then(|| dead::full_search(&board, side)).flatten(),
    ))
}

/// A board from FEN or EPD (4 to 6 fields; X-FEN `KQkq` or Shredder-FEN `HAha` castling).
fn read_fen(fen: &str) -> PyResult<Board> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let full = match fields.len() {
        4 => format!("{} 0 1", fields.join(" ")),
        5 => format!("{} 1", fields.join(" ")),
        _ => fields.join(" "),
    };
    Board::from_fen(&full, false)
        .or_else(|_| Board::from_fen(&full, true))
        .map_err(|e| pyo3::exceptions::PyValueError::new_err(format!("invalid FEN {fen:?}: {e:?}")))
}

/// The Polyglot key of a position given as FEN (X-FEN or Shredder-FEN castling).
#[pyfunction]
fn position_key(fen: &str) -> PyResult<u64> {
    Ok(crate::polyglot::key(&read_fen(fen)?))
}

/// Split a `MOVES` run as the core reads it: a list of (kind, text) with kind "move"
/// (text = SAN as written, with the move number as an int or None), "comment" or "nag";
/// None when the core does not read the run. For the test that proves it splits as the grammar.
#[pyfunction]
fn split_run(py: Python<'_>, run: &str) -> PyResult<Py<PyAny>> {
    use crate::scan::Token;
    let scanned = catch_unwind(|| crate::scan::scan(run))
        .map_err(|payload| CorePanic::new_err(panic_message(payload)))?;
    let Some(tokens) = scanned else {
        return Ok(py.None());
    };
    let out = PyList::empty(py);
    for token in tokens {
        let item = match token {
            Token::Move {
                number, san, glyph, ..
            } => ("move", san.to_string(), number, glyph.map(str::to_string))
                .into_pyobject(py)?
                .into_any(),
            Token::Comment(text) => ("comment", text.to_string(), None::<u64>, None::<String>)
                .into_pyobject(py)?
                .into_any(),
            Token::Nag(text) => ("nag", text.to_string(), None::<u64>, None::<String>)
                .into_pyobject(py)?
                .into_any(),
        };
        out.append(item)?;
    }
    Ok(out.into_any().unbind())
}

/// Moves-table columns of the games the core took, in the order they were replayed. `take()`
/// hands them over as one Arrow struct array (`pl.DataFrame(batch.take())`) and starts afresh.
#[pyclass(module = "notation._core")]
pub struct MovesBatch {
    pub(crate) columns: MovesColumns,
}

#[pymethods]
impl MovesBatch {
    /// `commands`: the comment patterns (`crate::commands::PATTERNS`, in that order); with them
    /// each ply's comments are read into the moves table's columns here (no raw `text` column).
    #[new]
    #[pyo3(signature = (commands = None))]
    fn new(commands: Option<Vec<String>>) -> PyResult<Self> {
        let columns = match commands {
            Some(patterns) => MovesColumns::with_commands(
                Commands::shared(&patterns).map_err(pyo3::exceptions::PyValueError::new_err)?,
            ),
            None => MovesColumns::default(),
        };
        Ok(MovesBatch { columns })
    }

    /// The values of the rows held that their column cannot hold, `(row, column, text)`, in
    /// row order; they are forgotten (call before `take`).
    fn take_problems(&mut self) -> Vec<(usize, &'static str, String)> {
        self.columns.take_problems()
    }

    /// Rows held.
    fn __len__(&self) -> usize {
        self.columns.len()
    }

    /// The rows so far as an object with `__arrow_c_array__` (a struct array); the batch empties.
    fn take(&mut self) -> ArrowColumns {
        ArrowColumns {
            array: Some({
                let fresh = self.columns.fresh();
                std::mem::replace(&mut self.columns, fresh).finish()
            }),
        }
    }
}

/// One value of [`comment_values`]: clock seconds, move time ms, centipawns, mate, depth,
/// comment, and the values that did not fit, `(column, text)`.
type CommentValues = (
    Option<f64>,
    Option<i64>,
    Option<i32>,
    Option<i16>,
    Option<i16>,
    Option<String>,
    Vec<(&'static str, String)>,
);

/// What the moves table reads from each `(comment text, white moved)` with `patterns` (as
/// `MovesBatch(commands=...)` reads them; for the tests that compare it with the reference).
#[pyfunction]
fn comment_values(
    patterns: Vec<String>,
    texts: Vec<(String, bool)>,
) -> PyResult<Vec<CommentValues>> {
    let commands = Commands::new(&patterns).map_err(pyo3::exceptions::PyValueError::new_err)?;
    Ok(texts
        .iter()
        .map(|(text, white)| {
            let read = commands.read(text, *white);
            (
                read.clock_seconds,
                read.move_time_ms,
                read.eval_cp,
                read.eval_mate,
                read.depth,
                read.comment,
                read.problems
                    .into_iter()
                    .map(|(column, written)| (column.name(), written))
                    .collect(),
            )
        })
        .collect())
}

/// A struct array for the Arrow PyCapsule interface (consumed once, by Polars).
#[pyclass(module = "notation._core")]
pub struct ArrowColumns {
    pub(crate) array: Option<arrow_array::StructArray>,
}

#[pymethods]
impl ArrowColumns {
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_array__<'py>(
        &mut self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<(Bound<'py, PyCapsule>, Bound<'py, PyCapsule>)> {
        use arrow_array::Array;
        let _ = requested_schema; // the columns have one type each
        let array = self.array.take().ok_or_else(|| {
            pyo3::exceptions::PyValueError::new_err("the columns were already taken")
        })?;
        let field = arrow_schema::Field::new("", array.data_type().clone(), false);
        let schema = arrow_schema::ffi::FFI_ArrowSchema::try_from(&field)
            .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
        let data = arrow_data::ffi::FFI_ArrowArray::new(&array.to_data());
        let schema_capsule = PyCapsule::new_with_value(py, schema, c"arrow_schema")?;
        let array_capsule = PyCapsule::new_with_value(py, data, c"arrow_array")?;
        Ok((schema_capsule, array_capsule))
    }
}

/// The fields of the Lark tokens of a whole game (`grammars/pgn.lark`'s `TAGS`, `MOVES` and
/// `RESULT` terminals, see `lex.rs`): a list of (type, value, start_pos, line, column,
/// end_line, end_column, end_pos), positions in characters as Lark counts them; None when the
/// game must be lexed by Lark itself.
#[pyfunction]
#[allow(clippy::type_complexity)]
fn lex_game(
    text: &str,
) -> PyResult<Option<Vec<(&'static str, &str, usize, usize, usize, usize, usize, usize)>>> {
    match catch_unwind(|| lex_fields(text)) {
        Ok(fields) => Ok(fields),
        Err(payload) => Err(CorePanic::new_err(panic_message(payload))),
    }
}

#[allow(clippy::type_complexity)]
fn lex_fields(
    text: &str,
) -> Option<Vec<(&'static str, &str, usize, usize, usize, usize, usize, usize)>> {
    let tokens = crate::lex::lex_game(text)?;
    let mut out = Vec::with_capacity(tokens.len());
    let (mut line, mut char_pos, mut line_start) = (1usize, 0usize, 0usize);
    for token in tokens {
        let value = &text[token.start..token.end];
        let (start_pos, start_line, start_column) = (char_pos, line, char_pos - line_start + 1);
        let mut chars = 0;
        for (index, c) in value.chars().enumerate() {
            if c == '\n' {
                line += 1;
                line_start = char_pos + index + 1;
            }
            chars += 1;
        }
        char_pos += chars;
        out.push((
            token.kind,
            value,
            start_pos,
            start_line,
            start_column,
            line,
            char_pos - line_start + 1,
            char_pos,
        ));
    }
    Some(out)
}

/// A plain game's outline (see `outline.rs`): the tags (a dict, in order), the mainline
/// outline as `OutlineBuilder` gives it (`[(MOVES text, line, column)]` or `[]`) and the result
/// token `(text, line, column)` or None; lines counted from `line`, the chunk's first line,
/// columns in characters. None when Lark must parse the game in Python.
#[pyfunction]
fn game_outline<'py>(
    py: Python<'py>,
    text: &str,
    line: usize,
) -> PyResult<Option<GameOutline<'py>>> {
    let found = catch_unwind(|| {
        crate::outline::outline(text).map(|found| {
            let at = |(start, end): (usize, usize)| {
                let before = &text[..start];
                let newlines = memchr::memchr_iter(b'\n', before.as_bytes()).count();
                let line_start = before.rfind('\n').map_or(0, |i| i + 1);
                let column = text[line_start..start].chars().count() + 1;
                (text[start..end].to_owned(), line + newlines, column)
            };
            (found.tags, found.moves.map(at), found.result.map(at))
        })
    })
    .map_err(|payload| CorePanic::new_err(panic_message(payload)))?;
    let Some((tags, moves, result)) = found else {
        return Ok(None);
    };
    let dict = PyDict::new(py);
    for (name, value) in tags {
        dict.set_item(name, value.as_ref())?;
    }
    let outline = PyList::empty(py);
    if let Some(run) = moves {
        outline.append(run)?;
    }
    Ok(Some((dict, outline, result)))
}

/// What `game_outline` returns: tags, mainline outline, result token.
type GameOutline<'py> = (
    Bound<'py, PyDict>,
    Bound<'py, PyList>,
    Option<(String, usize, usize)>,
);

/// Byte offsets of one text as character offsets (Python's), counted forwards from the last.
struct CharOffsets<'t> {
    text: &'t str,
    byte: usize,
    chars: usize,
}

impl CharOffsets<'_> {
    fn at(&mut self, byte: usize) -> usize {
        if byte < self.byte {
            self.byte = 0;
            self.chars = 0;
        }
        self.chars += self.text[self.byte..byte].chars().count();
        self.byte = byte;
        self.chars
    }
}

/// A parse of `lalr_parse`: the events of Lark's tree, or where Lark fails.
type LalrParse = (
    Vec<(&'static str, i64, i64)>,
    Option<(&'static str, usize, &'static str)>,
);

/// One game chunk parsed with Lark's LALR automaton of `grammars/pgn.lark` (see `lalr.rs`):
/// the post-order events of Lark's tree -- a token `(TYPE, start, end)`, a node `(rule,
/// children, -1)`, in character offsets -- and None; or no events and where Lark fails:
/// `("character", offset, "")` or `("token", offset, TYPE)` (`$END` for the end).
#[pyfunction]
fn lalr_parse(py: Python<'_>, text: &str) -> PyResult<LalrParse> {
    py.detach(|| catch_unwind(|| lalr_events(text)))
        .map_err(|payload| CorePanic::new_err(panic_message(payload)))
}

fn lalr_events(text: &str) -> LalrParse {
    let tables = crate::lalr::pgn();
    let mut offsets = CharOffsets {
        text,
        byte: 0,
        chars: 0,
    };
    match tables.parse(text) {
        Ok(events) => {
            let out = events
                .iter()
                .map(|event| match *event {
                    crate::lalr::Event::Token {
                        terminal,
                        start,
                        end,
                    } => {
                        let name = tables.terminals[usize::from(terminal)].name.as_str();
                        (name, offsets.at(start) as i64, offsets.at(end) as i64)
                    }
                    crate::lalr::Event::Reduce { rule } => {
                        let rule = &tables.rules[usize::from(rule)];
                        (rule.name.as_str(), rule.size as i64, -1)
                    }
                })
                .collect();
            (out, None)
        }
        Err(crate::lalr::Failure::Character { at }) => {
            (Vec::new(), Some(("character", offsets.at(at), "")))
        }
        Err(crate::lalr::Failure::Token { at, terminal }) => {
            let name = terminal.map_or("$END", |t| tables.terminals[usize::from(t)].name.as_str());
            (Vec::new(), Some(("token", offsets.at(at), name)))
        }
    }
}

/// Where the first game of `data` ends with other text after it (see `split.rs`): the index
/// after the blank lines that follow its termination marker, or None. The reader's boundary
/// scan for byte input; the same search as `notation.pgn.reader._between_games`.
#[pyfunction]
fn game_end(py: Python<'_>, data: &[u8]) -> PyResult<Option<usize>> {
    py.detach(|| catch_unwind(|| crate::split::game_end(data)))
        .map_err(|payload| CorePanic::new_err(panic_message(payload)))
}

/// The tag sections of `data` (see `split.rs`): `(start, end)` of each newline followed by tag
/// lines, as the reader's regex (`notation.pgn.reader._tag_section`) finds them in bytes.
#[pyfunction]
fn tag_sections(py: Python<'_>, data: &[u8]) -> PyResult<Vec<(usize, usize)>> {
    py.detach(|| catch_unwind(|| crate::split::tag_sections(data)))
        .map_err(|payload| CorePanic::new_err(panic_message(payload)))
}

/// Whether `needle` occurs in `data` (`needle in data`, by `memchr::memmem`).
#[pyfunction]
fn contains(py: Python<'_>, data: &[u8], needle: &[u8]) -> PyResult<bool> {
    py.detach(|| catch_unwind(|| memchr::memmem::find(data, needle).is_some()))
        .map_err(|payload| CorePanic::new_err(panic_message(payload)))
}

/// The newlines in `data` (`bytes.count(b"\n")`, a word at a time).
#[pyfunction]
fn newlines(data: &[u8]) -> PyResult<usize> {
    catch_unwind(|| memchr::memchr_iter(b'\n', data).count())
        .map_err(|payload| CorePanic::new_err(panic_message(payload)))
}

/// (newlines, tag lines after a blank line) of `data` (see `split.rs`): where the parallel
/// reader's next byte range starts counting lines, and its guess of the games in this one.
#[pyfunction]
fn lines_and_starts(py: Python<'_>, data: &[u8]) -> PyResult<(usize, usize)> {
    py.detach(|| catch_unwind(|| crate::split::lines_and_starts(data)))
        .map_err(|payload| CorePanic::new_err(panic_message(payload)))
}

/// The reader's boundary split of byte input, a region of whole lines at a call
/// (`crate::split::Regions`): the twin of `notation.pgn.reader._Regions`, with its state and
/// steps (a test holds the two equal), the region scanned without the interpreter. Completed
/// games are made `raw_game(data, name, number, line, offset, size, oversized)`.
#[pyclass(name = "Regions", module = "notation._core")]
struct PyRegions {
    inner: crate::split::Regions,
    raw_game: Py<PyAny>,
    name: Py<PyAny>,
}

/// The game being read as `reader._Regions` holds it: `(data, size, newlines, line, offset,
/// nontag, oversized, tail, late_text)`.
type ChunkFields<'py> = (
    Bound<'py, PyBytes>,
    usize,
    usize,
    usize,
    usize,
    bool,
    bool,
    Bound<'py, PyBytes>,
    bool,
);

#[pymethods]
impl PyRegions {
    #[new]
    #[allow(clippy::too_many_arguments)]
    fn new(
        raw_game: Py<PyAny>,
        name: Py<PyAny>,
        cap: usize,
        number: usize,
        consumed_nl: usize,
        mark: usize,
        mark_line: usize,
    ) -> Self {
        let inner = crate::split::Regions {
            cap,
            chunk: None,
            number,
            consumed_nl,
            mark,
            mark_line,
        };
        PyRegions {
            inner,
            raw_game,
            name,
        }
    }

    /// The games completed in `region` (see `crate::split::Regions::region`). A panic leaves
    /// the state as it was before the call (CorePanic), so the Python twin can take the region.
    fn region(
        &mut self,
        py: Python<'_>,
        region: &[u8],
        cur: usize,
        base: isize,
    ) -> PyResult<Vec<Py<PyAny>>> {
        // the state before, but the game's text, which only grows (its length is kept)
        let mut before = self.inner.clone_without_text();
        let kept = self.inner.chunk.as_ref().map_or(0, |c| c.data.len());
        let mut games = Vec::new();
        let inner = &mut self.inner;
        let outcome = py.detach(|| {
            catch_unwind(AssertUnwindSafe(|| {
                inner.region(region, cur, base, &mut games)
            }))
        });
        if let Err(payload) = outcome {
            if let Some(chunk) = before.chunk.as_mut() {
                // the game being read then: completed first, or still being read
                let text =
                    match games.first_mut() {
                        Some(game) => &mut game.data,
                        None => &mut self.inner.chunk.as_mut().map(|c| &mut c.data).ok_or_else(
                            || CorePanic::new_err("the split lost the game being read"),
                        )?,
                    };
                text.truncate(kept);
                chunk.data = std::mem::take(text);
            }
            self.inner = before;
            return Err(CorePanic::new_err(panic_message(payload)));
        }
        games
            .into_iter()
            .map(|game| {
                let data = PyBytes::new(py, &game.data);
                let fields = (
                    data,
                    &self.name,
                    game.number,
                    game.line,
                    game.offset,
                    game.size,
                    game.oversized,
                );
                self.raw_game.call1(py, fields)
            })
            .collect()
    }

    #[getter]
    fn number(&self) -> usize {
        self.inner.number
    }

    #[getter]
    fn consumed_nl(&self) -> usize {
        self.inner.consumed_nl
    }

    #[getter]
    fn mark(&self) -> usize {
        self.inner.mark
    }

    #[getter]
    fn mark_line(&self) -> usize {
        self.inner.mark_line
    }

    /// The game being read, or None.
    fn chunk<'py>(&self, py: Python<'py>) -> Option<ChunkFields<'py>> {
        self.inner.chunk.as_ref().map(|c| {
            (
                PyBytes::new(py, &c.data),
                c.size,
                c.newlines,
                c.line,
                c.offset,
                c.nontag,
                c.oversized,
                PyBytes::new(py, &c.tail),
                c.late_text,
            )
        })
    }
}

/// The stable id of a game's text (`crate::identity::game_id`).
#[pyfunction]
fn game_id(py: Python<'_>, data: &[u8]) -> u64 {
    py.detach(|| crate::identity::game_id(data))
}

/// One mainline walked for `notation filter` (see `walk_mainline`).
type Walk = (Vec<(u8, u8, Option<u8>)>, Vec<u64>, Vec<(u32, [u8; 12])>);

/// (white pawns..kings, black pawns..kings) counts of `board`.
fn material(board: &Board) -> [u8; 12] {
    let mut counts = [0u8; 12];
    for (side, color) in [cozy_chess::Color::White, cozy_chess::Color::Black]
        .into_iter()
        .enumerate()
    {
        for (index, piece) in cozy_chess::Piece::ALL.into_iter().enumerate() {
            counts[side * 6 + index] = (board.colors(color) & board.pieces(piece)).len() as u8;
        }
    }
    counts
}

fn walk_inner(fen_text: Option<&str>, sans: &[String], chess960: bool) -> Option<Walk> {
    let mut pos = start(fen_text, 0, 1)?;
    let mut moves = Vec::with_capacity(sans.len());
    let mut keys = vec![crate::polyglot::key(&pos.board)];
    let mut made = vec![(0, material(&pos.board))];
    for (index, text) in sans.iter().enumerate() {
        let bytes = text.trim_end_matches(['+', '#']).as_bytes();
        let (san, used) = crate::san::parse(bytes)?;
        if used != bytes.len() {
            return None;
        }
        let mv = replay::resolve(&pos.board, &san).ok()?;
        let (next, _, captured, castle, _) = replay::play(&pos, mv);
        let mut to = mv.to;
        if castle && !chess960 {
            let file = if to.file() > mv.from.file() {
                cozy_chess::File::G
            } else {
                cozy_chess::File::C
            };
            to = cozy_chess::Square::new(file, mv.from.rank());
        }
        moves.push((mv.from as u8, to as u8, mv.promotion.map(|p| p as u8 + 1)));
        keys.push(crate::polyglot::key(&next.board));
        if captured.is_some() || mv.promotion.is_some() {
            made.push((index as u32 + 1, material(&next.board)));
        }
        pos = next;
    }
    Some((moves, keys, made))
}

/// Walk a mainline given as standard SAN (`+`/`#` suffixes allowed) from `fen` (Shredder-FEN;
/// None for the standard start), for the play criteria of `notation filter` and its
/// `--unique`. Returns `(moves, keys, material)`: each move as `(from, to, promotion)` in the
/// Python engine's encoding (a1 = 0; castling the king's move to its destination unless
/// `chess960`; promotion 2..5 for N, B, R, Q), the repetition key of the start and of the
/// position after each move, and `(ply, counts)` for the start and after each capture or
/// promotion (counts: White's pawns..king then Black's). None when a move is not a plain
/// legal SAN the core resolves (the Python walk then decides), or the start is not read.
#[pyfunction]
#[pyo3(signature = (fen, sans, chess960 = false))]
fn walk_mainline(
    py: Python<'_>,
    fen: Option<&str>,
    sans: Vec<String>,
    chess960: bool,
) -> PyResult<Py<PyAny>> {
    let fen_owned = fen.map(str::to_owned);
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        walk_inner(fen_owned.as_deref(), &sans, chess960)
    }));
    match outcome {
        Ok(Some(walk)) => Ok(walk.into_pyobject(py)?.into_any().unbind()),
        Ok(None) => Ok(py.None()),
        Err(payload) => Err(CorePanic::new_err(panic_message(payload))),
    }
}

/// What a written box is compared with: one legal move in its position (the scoresheet
/// reader's `MoveFacts`, computed by [`crate::sheet::sheet_moves`]; hashable, the readings'
/// caches are keyed by it).
#[pyclass(
    name = "MoveFacts",
    frozen,
    eq,
    hash,
    get_all,
    module = "notation._core"
)]
#[derive(Clone, PartialEq, Eq, Hash)]
struct PyMoveFacts {
    piece: u8,
    from_square: u8,
    to_square: u8,
    taken: Option<u8>,
    promotion: Option<u8>,
    castle: Option<&'static str>,
    needs_file: bool,
    needs_rank: bool,
}

#[pymethods]
impl PyMoveFacts {
    #[new]
    #[pyo3(signature = (piece, from_square, to_square, taken, promotion, castle, needs_file, needs_rank))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        piece: u8,
        from_square: u8,
        to_square: u8,
        taken: Option<u8>,
        promotion: Option<u8>,
        castle: Option<&str>,
        needs_file: bool,
        needs_rank: bool,
    ) -> PyResult<Self> {
        let castle = match castle {
            None => None,
            Some("K") => Some("K"),
            Some("Q") => Some("Q"),
            Some(other) => {
                return Err(pyo3::exceptions::PyValueError::new_err(format!(
                    "castle {other:?}"
                )))
            }
        };
        Ok(PyMoveFacts {
            piece,
            from_square,
            to_square,
            taken,
            promotion,
            castle,
            needs_file,
            needs_rank,
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "MoveFacts(piece={}, from_square={}, to_square={}, taken={:?}, promotion={:?}, castle={:?}, needs_file={}, needs_rank={})",
            self.piece, self.from_square, self.to_square, self.taken, self.promotion, self.castle,
            self.needs_file, self.needs_rank
        )
    }
}

/// A position for the scoresheet reader: its legal moves with their facts in one call, and
/// the position after one of them.
#[pyclass(name = "SheetBoard", frozen, module = "notation._core")]
struct SheetBoard {
    board: Board,
    chess960: bool,
}

/// One move of [`SheetBoard::moves`]: (from, to, promotion) as `notation.rules` writes it.
type MoveTuple = (u8, u8, Option<u8>);
/// What the move gives: (check level 0/1/2, the square it takes on or None, leaves material hanging).
type GivesTuple = (u8, Option<u8>, bool);

#[pymethods]
impl SheetBoard {
    /// The position of `fen` (X-FEN or Shredder-FEN castling); `chess960`: castling is written
    /// king-takes-rook.
    #[new]
    #[pyo3(signature = (fen, chess960 = false))]
    fn new(fen: &str, chess960: bool) -> PyResult<Self> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let full = fields.join(" ");
        let board = Board::from_fen(&full, chess960)
            .or_else(|_| Board::from_fen(&full, !chess960))
            .map_err(|e| {
                pyo3::exceptions::PyValueError::new_err(format!("invalid FEN {fen:?}: {e:?}"))
            })?;
        Ok(SheetBoard { board, chess960 })
    }

    /// The legal moves in the reader's tie order: the moves, their facts, and what each gives.
    fn moves(&self) -> (Vec<MoveTuple>, Vec<PyMoveFacts>, Vec<GivesTuple>) {
        let found = crate::sheet::sheet_moves(&self.board, self.chess960);
        let mut moves = Vec::with_capacity(found.len());
        let mut facts = Vec::with_capacity(found.len());
        let mut gives = Vec::with_capacity(found.len());
        for m in found {
            moves.push((m.from, m.to, m.promotion));
            facts.push(PyMoveFacts {
                piece: m.piece,
                from_square: m.from,
                to_square: m.target,
                taken: m.taken,
                promotion: m.promotion,
                castle: m.castle.map(|c| if c == b'K' { "K" } else { "Q" }),
                needs_file: m.needs_file,
                needs_rank: m.needs_rank,
            });
            gives.push((m.check, m.captured, m.hangs));
        }
        (moves, facts, gives)
    }

    /// The position after the legal move `from`-`to`-`promotion` (as `notation.rules` writes it).
    #[pyo3(signature = (from_square, to_square, promotion = None))]
    fn play(&self, from_square: u8, to_square: u8, promotion: Option<u8>) -> PyResult<SheetBoard> {
        let mv = crate::sheet::core_move(&self.board, from_square, to_square, promotion)
            .ok_or_else(|| pyo3::exceptions::PyValueError::new_err("not a legal move"))?;
        let mut board = self.board.clone();
        board.play_unchecked(mv);
        Ok(SheetBoard {
            board,
            chess960: self.chess960,
        })
    }

    /// 0 no check, 1 check, 2 mate.
    fn check_level(&self) -> u8 {
        crate::sheet::check_level(&self.board)
    }

    /// The most material `white` (True) or Black can lose at once (see `crate::sheet::en_prise`).
    fn en_prise(&self, white: bool) -> i32 {
        crate::sheet::en_prise(
            &self.board,
            if white {
                cozy_chess::Color::White
            } else {
                cozy_chess::Color::Black
            },
        )
    }
}

/// The ways the copies take one move (the decoder's combos), as [`select_layer`] reads them:
/// `(cost, unwritten, blank, cursors)` each.
#[pyclass(name = "ComboCosts", frozen, module = "notation._core")]
struct ComboCosts {
    combos: Vec<crate::sheet::ComboCost>,
}

/// One combo as Python gives it: (cost, unwritten, blank, each copy's cursor after it).
type ComboTuple = (f64, u8, bool, Vec<(i64, i64)>);

#[pymethods]
impl ComboCosts {
    #[new]
    fn new(combos: Vec<ComboTuple>) -> Self {
        let combos = combos
            .into_iter()
            .map(
                |(cost, unwritten, blank, cursors)| crate::sheet::ComboCost {
                    cost,
                    unwritten,
                    blank,
                    cursors,
                },
            )
            .collect();
        ComboCosts { combos }
    }

    fn __len__(&self) -> usize {
        self.combos.len()
    }
}

/// One state of a layer as Python gives it to [`select_layer`]: (index, cost, choice, each
/// move's combos or None, opening prior or None, blank opening prior or None).
type LayerTuple<'py> = (
    usize,
    f64,
    f64,
    Vec<Option<Bound<'py, ComboCosts>>>,
    Option<Vec<f64>>,
    Option<Vec<f64>>,
);

/// One chosen candidate as Python reads it: (state, move, combo, order, rank, prior, total, debt).
type ChosenTuple = (usize, usize, usize, usize, f64, f64, f64, f64);

/// The candidates of a layer that may make the next one (see `crate::sheet::select_layer`):
/// (state, move, combo, order, rank, prior, total, debt) each, best first.
#[pyfunction]
#[pyo3(signature = (rows, owed, width, wide, span))]
fn select_layer(
    rows: Vec<LayerTuple<'_>>,
    owed: Option<Vec<Vec<f64>>>,
    width: usize,
    wide: usize,
    span: f64,
) -> Vec<ChosenTuple> {
    let layer: Vec<crate::sheet::LayerRow<'_>> = rows
        .iter()
        .map(
            |(state, cost, choice, moves, book, blind)| crate::sheet::LayerRow {
                state: *state,
                cost: *cost,
                choice: *choice,
                book: book.as_deref(),
                blind: blind.as_deref(),
                moves: moves
                    .iter()
                    .map(|m| m.as_ref().map(|t| t.get().combos.as_slice()))
                    .collect(),
            },
        )
        .collect();
    crate::sheet::select_layer(&layer, owed.as_deref(), width, wide, span)
        .into_iter()
        .map(|c| {
            (
                c.state, c.mv, c.combo, c.order, c.rank, c.prior, c.total, c.debt,
            )
        })
        .collect()
}

/// A game's report line: (jsonl text, status, plies, variation plies, its diagnostics' codes,
/// plies before its start position).
type ReportLine = (String, &'static str, u32, u32, Vec<&'static str>, u32);

/// The `validate` report lines of a batch of the reader's games (`RawGame`s of one source,
/// whose reports carry the name `file`): for each, `(jsonl line, status, plies, variation
/// plies, diagnostics' codes, plies before the start)` where
/// the core writes the whole report (see `crate::report`), else None and Python makes it (the
/// game is cut or followed by a read failure, is not UTF-8, needs the reference, or the core
/// panicked on it: the reference then reads it again and says so). `reported`: the reader's
/// cap on a game's syntax diagnostics; `searches`: each game's dead-position search budget;
/// `start(fen, variant, setup)`: a game's start position from those tags (`(FEN or None,
/// halfmove clock, move number, Chess960, plies before it)`), or None when Python must read
/// the game.
#[pyfunction]
fn report_lines(
    raws: &Bound<'_, PyList>,
    file: &str,
    reported: usize,
    searches: u32,
    start: &Bound<'_, PyAny>,
) -> PyResult<Vec<Option<ReportLine>>> {
    let py = raws.py();
    let limits = crate::report::Limits {
        max_depth: MAX_DEPTH,
        reported,
        searches,
    };
    // the games' texts, numbers and lines, read with the interpreter held; the reports are
    // then written without it (other threads run), taking it again only to ask `start`
    let mut datas = Vec::with_capacity(raws.len());
    let mut places = Vec::with_capacity(raws.len());
    for raw in raws.iter() {
        let place = if raw.getattr(intern!(py, "oversized"))?.is_truthy()?
            || !raw.getattr(intern!(py, "io_error"))?.is_none()
        {
            None
        } else if let (Ok(number), Ok(line)) = (
            raw.getattr(intern!(py, "number"))?.extract::<u64>(),
            raw.getattr(intern!(py, "line"))?.extract::<usize>(),
        ) {
            Some((number, line))
        } else {
            None
        };
        datas.push(if place.is_some() {
            Some(raw.getattr(intern!(py, "data"))?)
        } else {
            None
        });
        places.push(place);
    }
    let texts: Vec<Option<(&str, u64, usize)>> = datas
        .iter()
        .zip(&places)
        .map(|(data, place)| {
            let (data, &(number, line)) = (data.as_ref()?, place.as_ref()?);
            let text = if let Ok(bytes) = data.cast::<PyBytes>() {
                std::str::from_utf8(bytes.as_bytes()).ok()
            } else if let Ok(string) = data.cast::<PyString>() {
                string.to_str().ok()
            } else {
                None
            };
            Some((text?, number, line))
        })
        .collect();
    let start = start.clone().unbind();
    let written = py.detach(|| {
        // a game with FEN, SetUp or Variant tags: Python's start position (None on any failure)
        let mut start_of = |fen: Option<&str>, variant: Option<&str>, setup: Option<&str>| {
            Python::attach(|py| {
                start
                    .bind(py)
                    .call1((fen, variant, setup))
                    .and_then(|found| found.extract::<Option<crate::report::Start>>())
                    .ok()
                    .flatten()
            })
        };
        texts
            .iter()
            .map(|game| {
                let &(text, number, line) = game.as_ref()?;
                catch_unwind(AssertUnwindSafe(|| {
                    crate::report::report_line(text, file, number, line, &limits, &mut start_of)
                }))
                .ok()
                .flatten()
            })
            .collect::<Vec<_>>()
    });
    Ok(written
        .into_iter()
        .map(|written| {
            written.map(|l| {
                (
                    l.text,
                    l.status,
                    l.plies,
                    l.variation_plies,
                    l.codes,
                    l.start_ply,
                )
            })
        })
        .collect())
}

/// What `import_rows` hands back: the games taken (a prefix of the batch), their games-table
/// raw columns and moves-table columns (Arrow struct arrays), the moves values that did not fit
/// their column `(row, column, text)`, each taken game's plies and how many have a warning.
type ImportRows = (
    usize,
    ArrowColumns,
    ArrowColumns,
    Vec<(usize, &'static str, String)>,
    Vec<u32>,
    usize,
    Vec<crate::games::SetUp>,
);

/// `notation import`'s rows of the reader's games `raws` (ids `gids`, imported from `file`)
/// while the core takes them (`crate::games`): the call ends at the first game it does not
/// take, which Python reads the per-game way. `moves`: the builder's `MovesBatch`, whose kind
/// (comments read or not) the moves columns take; it is left as it is. `reported`: the reader's
/// cap on a game's syntax diagnostics; `searches`: each game's dead-position search budget;
/// `start`: a set-up game's start position and `start_fen` column (`crate::games::ImportStartOf`,
/// None: the per-game path reads the game). Also returns each taken game's start tags (None for
/// the standard start). A panic raises `CorePanic` and nothing is taken.
#[pyfunction]
fn import_rows(
    raws: &Bound<'_, PyList>,
    gids: Vec<u64>,
    file: &str,
    reported: usize,
    searches: u32,
    moves: &Bound<'_, MovesBatch>,
    start: &Bound<'_, PyAny>,
) -> PyResult<ImportRows> {
    let py = raws.py();
    // a game with FEN, SetUp or Variant tags: Python's start position (None on any failure)
    let mut start_of = |fen: Option<&str>, variant: Option<&str>, setup: Option<&str>| {
        start
            .call1((fen, variant, setup))
            .ok()
            .and_then(|given| {
                given
                    .extract::<Option<(crate::report::Start, Option<String>)>>()
                    .ok()
            })
            .flatten()
    };
    let mut starts = Vec::new();
    let limits = crate::report::Limits {
        max_depth: MAX_DEPTH,
        reported,
        searches,
    };
    let mut games = crate::games::GamesColumns::new();
    let mut columns = moves.borrow().columns.fresh();
    let mut plies = Vec::new();
    let mut taken = 0;
    for (raw, &gid) in raws.iter().zip(&gids) {
        if raw.getattr(intern!(py, "oversized"))?.is_truthy()?
            || !raw.getattr(intern!(py, "io_error"))?.is_none()
        {
            break;
        }
        let (Ok(number), Ok(line)) = (
            raw.getattr(intern!(py, "number"))?.extract::<i64>(),
            raw.getattr(intern!(py, "line"))?.extract::<usize>(),
        ) else {
            break;
        };
        let data = raw.getattr(intern!(py, "data"))?;
        let text = if let Ok(bytes) = data.cast::<PyBytes>() {
            std::str::from_utf8(bytes.as_bytes()).ok()
        } else if let Ok(string) = data.cast::<PyString>() {
            string.to_str().ok()
        } else {
            None
        };
        let Some(text) = text else {
            break;
        };
        let rows = columns.len();
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            crate::games::import_game(
                text,
                (gid, file, number, line),
                &limits,
                &mut games,
                &mut columns,
                &mut start_of,
            )
        }));
        match outcome {
            Ok(Some(set_up)) => {
                plies.push(u32::try_from(columns.len() - rows).unwrap_or(u32::MAX));
                starts.push(set_up);
                taken += 1;
            }
            Ok(None) => break,
            Err(payload) => return Err(CorePanic::new_err(panic_message(payload))),
        }
    }
    let warnings = games.warnings;
    let problems = columns.take_problems();
    Ok((
        taken,
        ArrowColumns {
            array: Some(games.finish()),
        },
        ArrowColumns {
            array: Some(columns.finish()),
        },
        problems,
        plies,
        warnings,
        starts,
    ))
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(lex_game, m)?)?;
    m.add_function(wrap_pyfunction!(game_outline, m)?)?;
    m.add_function(wrap_pyfunction!(lalr_parse, m)?)?;
    m.add_function(wrap_pyfunction!(game_end, m)?)?;
    m.add_function(wrap_pyfunction!(lines_and_starts, m)?)?;
    m.add_function(wrap_pyfunction!(tag_sections, m)?)?;
    m.add_function(wrap_pyfunction!(newlines, m)?)?;
    m.add_function(wrap_pyfunction!(contains, m)?)?;
    m.add_function(wrap_pyfunction!(game_id, m)?)?;
    m.add_class::<PyRegions>()?;
    m.add_class::<MovesBatch>()?;
    m.add_function(wrap_pyfunction!(comment_values, m)?)?;
    m.add_class::<ArrowColumns>()?;
    // A panic is reported to Python as CorePanic (and by notation as internal.error); the
    // default hook would also print to stderr, which a library must not do.
    std::panic::set_hook(Box::new(|_| {}));
    m.add_class::<CoreGame>()?;
    m.add_class::<PyDecline>()?;
    let codes: Vec<&str> = Decline::ALL.iter().map(|d| d.code()).collect();
    m.add("DECLINE_CODES", pyo3::types::PyTuple::new(m.py(), codes)?)?;
    m.add("CorePanic", m.py().get_type::<CorePanic>())?;
    m.add_function(wrap_pyfunction!(replay_game, m)?)?;
    m.add_function(wrap_pyfunction!(report_lines, m)?)?;
    m.add_function(wrap_pyfunction!(import_rows, m)?)?;
    m.add_function(wrap_pyfunction!(perft, m)?)?;
    m.add_function(wrap_pyfunction!(dead_analysis, m)?)?;
    m.add_function(wrap_pyfunction!(helpmate_walk, m)?)?;
    m.add_function(wrap_pyfunction!(position_key, m)?)?;
    m.add_function(wrap_pyfunction!(split_run, m)?)?;
    m.add_function(wrap_pyfunction!(walk_mainline, m)?)?;
    m.add_class::<PyMoveFacts>()?;
    m.add_class::<SheetBoard>()?;
    m.add_class::<ComboCosts>()?;
    m.add_function(wrap_pyfunction!(select_layer, m)?)?;
    m.add("HANG", crate::sheet::HANG)?;
    // The limits and the table the core shares with the Python reader (tests assert them equal
    // to notation.pgn.model.MAX_VARIATION_DEPTH, MAX_LINE_PLIES and parser.SYMBOL_NAGS).
    m.add("MAX_DEPTH", MAX_DEPTH)?;
    m.add("MAX_PLIES", MAX_PLIES)?;
    let nags = pyo3::types::PyDict::new(m.py());
    for (symbol, nag) in SYMBOL_NAGS {
        nags.set_item(symbol, nag)?;
    }
    m.add("SYMBOL_NAGS", nags)?;
    Ok(())
}
