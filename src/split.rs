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
}
