//! A game's stable id (`notation.tables.rows.game_id`): BLAKE2b with an 8-byte digest of its
//! text with every run of ASCII blanks (space, tab, line feed, carriage return, vertical tab,
//! form feed: what Python's `bytes.split()` splits on) folded to one space and the ends
//! trimmed, read as a little-endian integer. The Python function is the reference; a test
//! compares both on the corpus and on generated texts.

use blake2::digest::{Update, VariableOutput};
use blake2::Blake2bVar;

/// The ASCII blanks, by byte value: space, tab, line feed, vertical tab, form feed, carriage
/// return.
const BLANK: [bool; 256] = {
    let mut table = [false; 256];
    table[b' ' as usize] = true;
    table[b'\t' as usize] = true;
    table[b'\n' as usize] = true;
    table[0x0b] = true;
    table[0x0c] = true;
    table[b'\r' as usize] = true;
    table
};

/// Bytes of folded text hashed at a time: the hasher is fed whole blocks rather than a word and
/// a space at a time (its per-call buffering cost as much as the compression).
const CHUNK: usize = 8192;

/// The id of the game text `data`, in one pass: the stretches of words with one space between
/// them are written as they stand to the block hashed next; a run of blanks other than one
/// space becomes one space (none at the ends).
pub fn game_id(data: &[u8]) -> u64 {
    let mut hasher = Blake2bVar::new(8).expect("8 is a valid BLAKE2b digest size");
    let mut block = Block {
        bytes: [0; CHUNK],
        len: 0,
    };
    let blank = |at: usize| BLANK[usize::from(data[at])];
    let mut at = (0..data.len()).find(|&i| !blank(i)).unwrap_or(data.len());
    while at < data.len() {
        // a stretch: words and single spaces, up to a blank that is not one space between words
        let start = at;
        while at < data.len()
            && (!blank(at) || (data[at] == b' ' && at + 1 < data.len() && !blank(at + 1)))
        {
            at += 1;
        }
        block.write(&data[start..at], &mut hasher);
        while at < data.len() && blank(at) {
            at += 1;
        }
        if at < data.len() {
            block.write(b" ", &mut hasher);
        }
    }
    hasher.update(&block.bytes[..block.len]);
    let mut digest = [0u8; 8];
    hasher
        .finalize_variable(&mut digest)
        .expect("the buffer has the digest's size");
    u64::from_le_bytes(digest)
}

/// The folded text's next bytes to hash, [`CHUNK`] at a time.
struct Block {
    bytes: [u8; CHUNK],
    len: usize,
}

impl Block {
    fn write(&mut self, mut text: &[u8], hasher: &mut Blake2bVar) {
        while !text.is_empty() {
            if self.len == CHUNK {
                hasher.update(&self.bytes);
                self.len = 0;
            }
            let n = text.len().min(CHUNK - self.len);
            self.bytes[self.len..self.len + n].copy_from_slice(&text[..n]);
            self.len += n;
            text = &text[n..];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::game_id;
    use blake2::digest::{Update, VariableOutput};
    use blake2::Blake2bVar;

    #[test]
    fn ids_of_python_reference() {
        // hashlib.blake2b(normal, digest_size=8), little-endian, as notation.tables.rows.game_id
        assert_eq!(game_id(b""), 13_020_603_013_274_838_756);
        assert_eq!(game_id(b"1. e4 e5 *"), 17_948_309_172_324_323_767);
        assert_eq!(
            game_id(b"  [Event \"x\"]\r\n\r\n1. e4\te5\x0b\x0c *  "),
            5_421_635_362_097_747_104
        );
    }

    #[test]
    fn long_texts_hash_as_one_piece() {
        // folded text longer than a chunk: the same id as the text folded first
        let words: Vec<String> = (0..5000).map(|i| format!("w{i}")).collect();
        let spaced = words.join(" \r\n\t");
        let folded = words.join(" ");
        assert_eq!(game_id(spaced.as_bytes()), game_id(folded.as_bytes()));
        let long_word = "x".repeat(3 * super::CHUNK);
        let text = format!("a {long_word}  b");
        let mut hasher = Blake2bVar::new(8).unwrap();
        hasher.update(text.replace("  ", " ").as_bytes());
        let mut digest = [0u8; 8];
        hasher.finalize_variable(&mut digest).unwrap();
        assert_eq!(game_id(text.as_bytes()), u64::from_le_bytes(digest));
    }
}
