//! The reader's boundary scan (`notation.pgn.reader`): where a game's text ends and other text
//! follows before the next tag section. The Python reader holds the same rule as a regex
//! (`reader._between_games`); this is the same search, one pass over the lines, for byte input.
//! A test compares the two on the corpus and on generated text.

/// `\s` of a bytes regex: space, `\t`, `\n`, `\r`, `\x0b`, `\x0c`.
fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

fn is_pad(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\r')
}

const MARKERS: [&[u8]; 4] = [b"1-0", b"0-1", b"1/2-1/2", b"*"];

/// Whether the line `data[start..nl]` ends with a termination marker that starts the text or
/// follows a blank (`(?<![^\s])(?:1-0|0-1|1/2-1/2|\*)[ \t\r]*` before the newline `nl`).
fn ends_with_marker(data: &[u8], start: usize, nl: usize) -> bool {
    let mut end = nl;
    while end > start && is_pad(data[end - 1]) {
        end -= 1;
    }
    let line = &data[..end];
    MARKERS.iter().any(|marker| {
        line.ends_with(marker) && {
            let at = end - marker.len();
            at == 0 || is_space(data[at - 1])
        }
    })
}

/// The end of the blank lines after the newline at `nl` when at least one follows and then a
/// line with something on it (`(?:[ \t\r]*\n)+(?=[ \t\r]*[^\s])`), else None.
fn blank_lines_then_text(data: &[u8], nl: usize) -> Option<usize> {
    let mut end = None;
    let mut i = nl + 1;
    loop {
        let mut j = i;
        while j < data.len() && is_pad(data[j]) {
            j += 1;
        }
        if j < data.len() && data[j] == b'\n' {
            i = j + 1;
            end = Some(i);
        } else {
            // the line after the blank ones: something other than blanks on it
            return end.filter(|_| j < data.len() && !is_space(data[j]));
        }
    }
}

/// Where the first game in `data` ends with other text after it: the index after the blank
/// lines that follow a line ending in a termination marker, when a line with something on it
/// follows them; or after a newline that starts a UTF-16 text (a byte order mark). None when
/// neither occurs. The leftmost match of the reader's regex, as `re.search` finds it.
pub fn game_end(data: &[u8]) -> Option<usize> {
    let mut line_start = 0;
    let mut from = 0;
    while let Some(k) = memchr::memchr(b'\n', &data[from..]) {
        let nl = from + k;
        if ends_with_marker(data, line_start, nl) {
            if let Some(end) = blank_lines_then_text(data, nl) {
                return Some(end);
            }
        }
        if data[nl + 1..].starts_with(b"\xff\xfe") || data[nl + 1..].starts_with(b"\xfe\xff") {
            return Some(nl + 1);
        }
        line_start = nl + 1;
        from = nl + 1;
    }
    None
}

/// The end of the tag line that starts at `start` (after its newline), when the line is one:
/// `notation.pgn.tags.TagPatterns.section_line`, the tag line as the grammar has it: blanks,
/// `[`, blanks, a name (`[A-Za-z0-9_][A-Za-z0-9_+#=:-]*`), then either blanks and a `"` with
/// anything after it on the line, or at least one blank and anything ending in `]` with only
/// blanks (and a carriage return) after it.
fn tag_line(data: &[u8], start: usize) -> Option<usize> {
    let nl = start + memchr::memchr(b'\n', &data[start..])?;
    let line = &data[start..nl];
    let blanks = |from: usize| {
        line[from..]
            .iter()
            .position(|&c| c != b' ' && c != b'\t')
            .map_or(line.len(), |k| from + k)
    };
    let mut i = blanks(0);
    if line.get(i) != Some(&b'[') {
        return None;
    }
    i = blanks(i + 1);
    if !line
        .get(i)
        .is_some_and(|&c| c.is_ascii_alphanumeric() || c == b'_')
    {
        return None;
    }
    i += 1;
    while line
        .get(i)
        .is_some_and(|&c| c.is_ascii_alphanumeric() || b"_+#=:-".contains(&c))
    {
        i += 1;
    }
    let after = blanks(i);
    if line.get(after) == Some(&b'"') {
        return Some(nl + 1);
    }
    if after == i {
        return None; // no blank after the name
    }
    let mut end = line.len();
    if end > i && line[end - 1] == b'\r' {
        end -= 1;
    }
    while end > i && (line[end - 1] == b' ' || line[end - 1] == b'\t') {
        end -= 1;
    }
    (end > i + 1 && line[end - 1] == b']').then_some(nl + 1)
}

/// The tag sections of `data`: each a newline followed by one or more tag lines ([`tag_line`]),
/// as `(start, end)`, in order and not overlapping. The spans of the reader's regex
/// (`notation.pgn.reader._tag_section`), as `re.finditer` finds them.
pub fn tag_sections(data: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(k) = memchr::memchr(b'\n', &data[from..]) {
        let nl = from + k;
        let mut end = nl + 1;
        while let Some(next) = tag_line(data, end) {
            end = next;
        }
        if end > nl + 1 {
            out.push((nl, end));
            from = end;
        } else {
            from = nl + 1;
        }
    }
    out
}

/// The newlines in `data`, and its tag lines that follow a blank line (`\n\n[`, `\n\r\n[`):
/// for the parallel reader (`notation.validation.run`), the first line of the next byte range
/// and a guess of the games in this one (checked when the range is split).
pub fn lines_and_starts(data: &[u8]) -> (usize, usize) {
    let (mut lines, mut starts) = (0, 0);
    for at in memchr::memchr_iter(b'\n', data) {
        lines += 1;
        let rest = &data[at + 1..];
        if rest.starts_with(b"\n[") || rest.starts_with(b"\r\n[") {
            starts += 1;
        }
    }
    (lines, starts)
}

/// The file offset of `region[index]`, the region at `base` (-1 when a sentinel newline
/// before the file's first byte starts it).
fn at(base: isize, index: usize) -> usize {
    base.saturating_add_unsigned(index).max(0).unsigned_abs()
}

/// The game being assembled by [`Regions`] (`notation.pgn.reader._Chunk`): its kept text
/// (`data`, at most the cap), its size and newlines in all, where it starts, whether it holds
/// anything besides its leading tag lines (`nontag`), whether it passed the cap (`oversized`)
/// and text that is not blank past it (`late_text`), and the end of its movetext (`tail`, see
/// [`tail_after`]), where [`game_end`] looks for the game's end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    pub data: Vec<u8>,
    pub size: usize,
    pub newlines: usize,
    pub line: usize,
    pub offset: usize,
    pub nontag: bool,
    pub oversized: bool,
    pub tail: Vec<u8>,
    pub late_text: bool,
}

impl Chunk {
    pub fn new(line: usize, offset: usize) -> Self {
        Chunk {
            data: Vec::new(),
            size: 0,
            newlines: 0,
            line,
            offset,
            nontag: false,
            oversized: false,
            tail: Vec::new(),
            late_text: false,
        }
    }
}

/// A game the split completed (`notation.pgn.chunks.RawGame`'s fields but the file's name).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    pub data: Vec<u8>,
    pub number: usize,
    pub line: usize,
    pub offset: usize,
    pub size: usize,
    pub oversized: bool,
}

/// The end of a game's text that [`tail_after`] keeps (enough for a termination marker).
const TAIL: usize = 48;

/// `bytes.rstrip()`: without the ASCII blanks at its end.
fn rstrip(text: &[u8]) -> &[u8] {
    let end = text
        .iter()
        .rposition(|&c| !is_space(c))
        .map_or(0, |k| k + 1);
    &text[..end]
}

fn newlines_in(text: &[u8]) -> usize {
    memchr::memchr_iter(b'\n', text).count()
}

/// The end of a game's text after `piece` follows the end `tail` kept before it
/// (`reader._tail`): the end of its last non-blank line and, after it, at most two of its line
/// ends (blank space in between dropped).
fn tail_after(tail: &[u8], piece: &[u8]) -> Vec<u8> {
    let body = rstrip(piece);
    let (mut out, ends) = if body.is_empty() {
        let kept = rstrip(tail);
        (
            kept.to_vec(),
            newlines_in(&tail[kept.len()..]) + newlines_in(piece),
        )
    } else {
        (
            body[body.len().saturating_sub(TAIL)..].to_vec(),
            newlines_in(&piece[body.len()..]),
        )
    };
    out.resize(out.len() + ends.min(2), b'\n');
    out
}

/// Text before any game (`reader._start`): blank lines and `%` escape lines are skipped, line by
/// line; the first other line starts a game with no tags. The game (if one starts) and the
/// newlines before it.
fn start(seg: &[u8], pos: usize, consumed_nl: usize) -> (Option<Chunk>, usize) {
    let (mut at, mut skipped) = (0, 0);
    while at < seg.len() {
        let text = seg[at..]
            .iter()
            .position(|&c| !is_space(c))
            .map_or(seg.len(), |k| at + k);
        if text >= seg.len() {
            skipped += newlines_in(&seg[at..]);
            break;
        }
        let line = memchr::memrchr(b'\n', &seg[at..text]).map_or(at, |k| at + k + 1);
        skipped += newlines_in(&seg[at..line]);
        if seg[text] != b'%' {
            let chunk = Chunk::new(consumed_nl + skipped + 1, pos + line);
            return (Some(chunk), consumed_nl + skipped);
        }
        let Some(end) = memchr::memchr(b'\n', &seg[text..]) else {
            break;
        };
        skipped += 1;
        at = text + end + 1;
    }
    (None, consumed_nl + skipped)
}

/// The reader's boundary split of byte input (`notation.pgn.reader._Regions`, the same state
/// and the same steps): fed one region of whole lines at a time, it completes the games that
/// end in it. A game starts at a tag section (a newline and tag lines) when the game before it
/// holds anything besides its own tag lines; a game also ends where [`game_end`] finds its end
/// followed by other text. Keeps at most `cap` bytes of a game. (Text only, not the tags-only
/// mode: that is left to the Python reader.)
#[derive(Debug, Clone)]
pub struct Regions {
    pub cap: usize,
    pub chunk: Option<Chunk>,
    pub number: usize,
    pub consumed_nl: usize,
    pub mark: usize,
    pub mark_line: usize,
}

impl Regions {
    /// The state without the text of the game being read (for a caller that restores it).
    pub fn clone_without_text(&self) -> Regions {
        let chunk = self.chunk.as_ref().map(|c| Chunk {
            data: Vec::new(),
            tail: c.tail.clone(),
            ..*c
        });
        Regions { chunk, ..*self }
    }

    /// `piece` added to the game being read (a tag section's, else movetext).
    fn add(&mut self, piece: &[u8], is_tag: bool) {
        let cap = self.cap;
        let Some(chunk) = self.chunk.as_mut() else {
            return;
        };
        chunk.size += piece.len();
        chunk.newlines += newlines_in(piece);
        if !is_tag {
            chunk.nontag = true;
            chunk.tail = tail_after(&chunk.tail, piece);
        }
        if chunk.size > cap {
            let before = chunk.size - piece.len();
            let room = cap.saturating_sub(before).min(piece.len());
            if !chunk.late_text && !rstrip(&piece[room..]).is_empty() {
                chunk.late_text = true;
            }
            if !chunk.oversized {
                chunk.oversized = true;
                chunk.data.extend_from_slice(&piece[..room]);
            }
        } else {
            chunk.data.extend_from_slice(piece);
        }
    }

    /// The game being read, completed.
    fn complete(&mut self, out: &mut Vec<Game>) {
        if let Some(chunk) = self.chunk.take() {
            self.number += 1;
            self.consumed_nl += chunk.newlines;
            out.push(Game {
                data: chunk.data,
                number: self.number,
                line: chunk.line,
                offset: chunk.offset,
                size: chunk.size,
                oversized: chunk.oversized,
            });
        }
    }

    /// Text that is no tag section, at offset `pos` (`reader._Regions.feed`): the current
    /// game's up to where it ended; text after that and before the next tag section is a game
    /// of its own (without tags).
    fn feed(&mut self, mut seg: &[u8], mut pos: usize, out: &mut Vec<Game>) {
        while !seg.is_empty() {
            if self.chunk.is_none() {
                let (chunk, consumed) = start(seg, pos, self.consumed_nl);
                self.consumed_nl = consumed;
                let Some(chunk) = chunk else {
                    return;
                };
                (self.mark, self.mark_line) = (chunk.offset, chunk.line);
                let skip = chunk.offset - pos;
                (seg, pos) = (&seg[skip..], pos + skip);
                self.chunk = Some(chunk);
            }
            let tail = self.chunk.as_ref().map_or(&[][..], |c| c.tail.as_slice());
            let found = if tail.is_empty() {
                game_end(seg)
            } else {
                game_end(&[tail, seg].concat())
            };
            let Some(found) = found else {
                self.add(seg, false);
                return;
            };
            // the end is past the tail: after a newline, only newlines follow in a tail
            let cut = found.saturating_sub(tail.len()).min(seg.len());
            self.add(&seg[..cut], false);
            self.complete(out);
            (seg, pos) = (&seg[cut..], pos + cut);
            (self.mark, self.mark_line) = (pos, self.consumed_nl + 1);
        }
    }

    /// One region of whole lines (`reader._Regions.region`): `region[cur..]` is new text, at
    /// file offset `base + cur`; `region[..cur]` is at most the newline before it (so that a
    /// tag section at its start is found). The games completed in it are added to `out`.
    pub fn region(&mut self, region: &[u8], cur: usize, base: isize, out: &mut Vec<Game>) {
        let mut cur = cur;
        for (found, end) in tag_sections(region) {
            let start = found + 1;
            if start > cur {
                self.feed(&region[cur..start], at(base, cur), out);
            }
            if self.chunk.as_ref().is_some_and(|c| c.nontag) {
                self.complete(out);
            }
            if self.chunk.is_none() {
                let chunk = Chunk::new(self.consumed_nl + 1, at(base, start));
                (self.mark, self.mark_line) = (chunk.offset, chunk.line);
                self.chunk = Some(chunk);
            }
            cur = end;
            self.add(&region[start..cur], true);
        }
        if region.len() > cur {
            self.feed(&region[cur..], at(base, cur), out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tag_sections_as_the_reader_s_regex() {
        let text = b"\n[Event \"x\"]\n[Site \"y\"]\n\n1. e4 *\n\n [A b]\r\n[Bad\n[C  d] \t\n";
        assert_eq!(tag_sections(text), vec![(0, 24), (33, 42), (46, 56)]);
        assert_eq!(tag_sections(b"[A \"1\"]\n"), vec![]); // no newline before it
        assert_eq!(
            tag_sections(b"\n[A]\n\n[A ]\n\n[A \"\n"),
            vec![(5, 11), (11, 17)]
        );
    }

    #[test]
    fn lines_and_the_tag_lines_after_a_blank_line() {
        assert_eq!(lines_and_starts(b""), (0, 0));
        assert_eq!(
            lines_and_starts(b"[A \"1\"]\n\n1. e4 *\n\n[A \"2\"]\n"),
            (5, 1)
        );
        assert_eq!(lines_and_starts(b"*\r\n\r\n[A \"\"]\r\n\n\n["), (5, 2));
    }

    /// Every text of up to seven characters of `\n`, `\r`, `[` and `a`: the same counts as the
    /// plain definition (newlines; occurrences of `\n\n[` and `\n\r\n[`).
    #[test]
    fn counts_as_the_definition_on_every_short_text() {
        let alphabet = [b'\n', b'\r', b'[', b'a'];
        for len in 0..=7u32 {
            for code in 0..4usize.pow(len) {
                let text: Vec<u8> = (0..len).map(|i| alphabet[(code >> (2 * i)) & 3]).collect();
                let lines = text.iter().filter(|&&c| c == b'\n').count();
                let starts = text.windows(3).filter(|w| *w == b"\n\n[").count()
                    + text.windows(4).filter(|w| *w == b"\n\r\n[").count();
                assert_eq!(lines_and_starts(&text), (lines, starts), "{text:?}");
            }
        }
    }

    #[test]
    fn ends_after_the_blank_lines() {
        assert_eq!(game_end(b"1. e4 1-0\n\nnext"), Some(11));
        assert_eq!(game_end(b"1. e4 1-0 \r\n \r\n\r\n  x"), Some(17));
        assert_eq!(game_end(b"*\n\nx"), Some(3));
        assert_eq!(game_end(b"1. e4 1/2-1/2\n\n[x"), Some(15));
    }

    #[test]
    fn needs_a_marker_a_blank_line_and_text_after() {
        assert_eq!(game_end(b"1. e4 1-0\nnext"), None);
        assert_eq!(game_end(b"1. e4 1-0\n\n"), None);
        assert_eq!(game_end(b"1. e4 1-0\n\n  \n"), None);
        assert_eq!(game_end(b"1. e4 x1-0\n\nnext"), None);
        assert_eq!(game_end(b"1. e4 1-0\n\n\x0cx"), None);
        assert_eq!(game_end(b"1. e4\n\nnext"), None);
    }

    #[test]
    fn a_utf16_text_after_a_newline() {
        assert_eq!(game_end(b"1. e4\n\xff\xfe["), Some(6));
        assert_eq!(game_end(b"1. e4 1-0\n\n\xff\xfe["), Some(11));
    }

    fn split(text: &[u8], cap: usize) -> (Vec<Game>, Regions) {
        let mut regions = Regions {
            cap,
            chunk: None,
            number: 0,
            consumed_nl: 0,
            mark: 0,
            mark_line: 1,
        };
        let mut games = Vec::new();
        let region = [b"\n", text].concat();
        regions.region(&region, 1, -1, &mut games);
        (games, regions)
    }

    #[test]
    fn regions_complete_games_at_the_next_tag_section_and_after_a_game_end() {
        let text =
            b"% skipped\n[A \"1\"]\n\n1. e4 *\n\n[A \"2\"]\n\n1. d4 1-0\n\nloose text\n[A \"3\"]\n";
        let (games, regions) = split(text, 1 << 20);
        let got: Vec<(&[u8], usize, usize, usize)> = games
            .iter()
            .map(|g| (g.data.as_slice(), g.number, g.line, g.offset))
            .collect();
        assert_eq!(
            got,
            vec![
                (&b"[A \"1\"]\n\n1. e4 *\n\n"[..], 1, 2, 10),
                (&b"[A \"2\"]\n\n1. d4 1-0\n\n"[..], 2, 6, 28),
                (&b"loose text\n"[..], 3, 10, 48),
            ]
        );
        let last = regions.chunk.expect("the last game is being read");
        assert_eq!((last.line, last.offset, last.nontag), (11, 59, false));
        assert_eq!(regions.number, 3);
    }

    #[test]
    fn regions_keep_at_most_the_cap() {
        let (games, regions) = split(b"[A \"1\"]\n\n1. e4 {long} *\n\n[B \"2\"]\n", 12);
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].data, b"[A \"1\"]\n\n1. ");
        assert!(games[0].oversized && games[0].size == 25);
        assert!(regions.chunk.is_some_and(|c| !c.oversized));
    }
}
