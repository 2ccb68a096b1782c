//! The quick check of a per-user table (`irscale.io.user_tables`): one pass over the rows
//! of a CSV or TSV text under its header, deciding whether the table is *plain* (one row a
//! line, none blank, no quote or carriage return, a field per column on every line, every
//! byte of a number column's cell a digit or one of `.eE+-`) and whether its users (the
//! cells of one column) are distinct byte strings none of which starts with a blank.
//!
//! Only the decision is here: a table that is not plain is checked again, and its first
//! bad line named, by the full check in Python (the specification of validity and of the
//! messages); users that may repeat are left to pandas' check of the parsed column. The
//! users are compared by a 64-bit hash of each (FxHash, then MurmurHash3's finaliser),
//! sorted: two equal hashes (two equal users, or a collision) say "not known distinct".

use rustc_hash::FxHasher;
use std::hash::Hasher;

/// The bytes of a number column's cells.
const NUMBER_BYTES: &[u8] = b"0123456789.eE+-";

/// A plain table's rows.
#[derive(Debug, PartialEq, Eq)]
pub struct Plain {
    /// The offset of each row's first byte in the text given.
    pub starts: Vec<i64>,
    /// The offset of each row's end (its line end, or the end of the text).
    pub ends: Vec<i64>,
    /// The cells of the user column are distinct and none starts with a blank (false: not
    /// known; always false without a user column).
    pub distinct: bool,
}

/// The rows of `text[body..]` when the table is plain (module documentation), else `None`;
/// `numeric[k]`: column k holds numbers; `user`: the index of the user column.
pub fn check(
    text: &[u8],
    body: usize,
    sep: u8,
    numeric: &[bool],
    user: Option<usize>,
) -> Option<Plain> {
    let rows = &text[body.min(text.len())..];
    if rows.is_empty() || memchr::memchr2(b'"', b'\r', text).is_some() {
        return None;
    }
    let mut number = [false; 256];
    for &byte in NUMBER_BYTES {
        number[byte as usize] = true;
    }
    let mut starts = Vec::new();
    let mut ends = Vec::new();
    let mut users: Vec<u64> = Vec::new();
    let mut distinct = user.is_some();
    let mut at = body;
    while at < text.len() {
        let end = memchr::memchr(b'\n', &text[at..]).map_or(text.len(), |i| at + i);
        let line = &text[at..end];
        if line.is_empty() {
            return None; // (a blank line: pandas skips it)
        }
        let mut fields = 0;
        for cell in line.split(|&byte| byte == sep) {
            let column = fields;
            fields += 1;
            if fields > numeric.len() {
                return None;
            }
            if numeric[column] && !cell.iter().all(|&byte| number[byte as usize]) {
                return None;
            }
            if distinct && Some(column) == user {
                distinct = !matches!(cell.first(), Some(b' ' | b'\t'));
                users.push(hash(cell));
            }
        }
        if fields != numeric.len() {
            return None;
        }
        starts.push(at as i64);
        ends.push(end as i64);
        at = end + 1;
    }
    if distinct {
        users.sort_unstable();
        distinct = users.windows(2).all(|pair| pair[0] != pair[1]);
    }
    Some(Plain {
        starts,
        ends,
        distinct,
    })
}

/// A 64-bit hash of `cell`: FxHash, mixed by MurmurHash3's `fmix64` (FxHash alone leaves
/// the keys that differ in their last bytes close together).
fn hash(cell: &[u8]) -> u64 {
    let mut hasher = FxHasher::default();
    hasher.write(cell);
    hasher.write_usize(cell.len());
    let mut h = hasher.finish();
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

#[cfg(test)]
mod tests {
    use super::*;

    const NUMBERS: [bool; 3] = [false, false, true];

    #[test]
    fn plain_rows_and_their_users() {
        let text = b"user,variant,clicks\nu1,A,3\nu2,B,\nu3,A,1e3";
        let plain = check(text, 20, b',', &NUMBERS, Some(0)).unwrap();
        assert_eq!(plain.starts, [20, 27, 33]);
        assert_eq!(plain.ends, [26, 32, 41]);
        assert!(plain.distinct);
        let twice = check(b"h\nu1,A,3\nu1,B,4\n", 2, b',', &NUMBERS, Some(0)).unwrap();
        assert!(!twice.distinct);
        let blank = check(b"h\n u1,A,3\nu2,B,4\n", 2, b',', &NUMBERS, Some(0)).unwrap();
        assert!(!blank.distinct);
        assert!(
            !check(b"h\nu1,A,3\n", 2, b',', &NUMBERS, None)
                .unwrap()
                .distinct
        );
    }

    #[test]
    fn tables_that_are_not_plain() {
        for text in [
            &b"h\nu1,A,3\n\nu2,B,4\n"[..], // a blank line
            b"h\nu1,A,3,4\nu2,B\n",        // a field too many, then one too few
            b"h\nu1,A\n",                  // a field too few
            b"h\nu1,A,nan\n",              // a word in a number column
            b"h\nu1,A, 3\n",               // a blank in one
            b"h\n\"u1\",A,3\n",            // a quote
            b"h\nu1,A,3\r\n",              // a carriage return
            b"h\n",                        // no row
        ] {
            assert_eq!(check(text, 2, b',', &NUMBERS, Some(0)), None, "{text:?}");
        }
    }
}
