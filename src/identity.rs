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

/// The id of the game text `data`. One pass: each byte that is no blank is written to the
/// block hashed next, after one space where a run of blanks separates it from the word before.
pub fn game_id(data: &[u8]) -> u64 {
    let mut hasher = Blake2bVar::new(8).expect("8 is a valid BLAKE2b digest size");
    let mut block = [0u8; CHUNK];
    let mut len = 0;
    let (mut seen, mut pending) = (false, false); // a word written; blanks after it
    for &byte in data {
        if BLANK[usize::from(byte)] {
            pending = seen;
            continue;
        }
        if len + 2 > CHUNK {
            hasher.update(&block[..len]);
            len = 0;
        }
        if pending {
            block[len] = b' ';
            len += 1;
            pending = false;
        }
        block[len] = byte;
        len += 1;
        seen = true;
    }
    hasher.update(&block[..len]);
    let mut digest = [0u8; 8];
    hasher
        .finalize_variable(&mut digest)
        .expect("the buffer has the digest's size");
    u64::from_le_bytes(digest)
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
