//! Operations on a column of strings ([`Strings`]: offsets into UTF-8 bytes) that numpy
//! cannot vectorise: hashing them into codes, sorting them by bytes, looking them up in
//! another column, comparing two columns row by row. `irscale.core.strings.Strings`
//! calls them; the strings are compared as bytes, so byte order is the order of UTF-8 text
//! by code point (and Arrow's `sort_indices` order of strings).

use crate::columns::Strings;
use rustc_hash::FxHashMap;

/// Every string's code (its value's place among the distinct values, numbered in order of
/// first appearance) and the first row of every distinct value: `(codes, first)`, as
/// Arrow's `dictionary_encode` numbers them.
pub fn encode(strings: &Strings<'_>) -> (Vec<i64>, Vec<i64>) {
    let mut seen: FxHashMap<&[u8], i64> = FxHashMap::default();
    let mut first = Vec::new();
    let codes = (0..strings.len())
        .map(|i| {
            *seen.entry(strings.get(i)).or_insert_with(|| {
                first.push(i as i64);
                first.len() as i64 - 1
            })
        })
        .collect();
    (codes, first)
}

/// The rows in the byte order of their strings (a shorter string before the longer ones
/// it begins), rows of equal strings in their order: a stable sort.
pub fn order(strings: &Strings<'_>) -> Vec<i64> {
    let mut rows: Vec<i64> = (0..strings.len() as i64).collect();
    rows.sort_by(|&a, &b| strings.get(a as usize).cmp(strings.get(b as usize)));
    rows
}

/// The row of every string of `values` in `set` (its first row there), -1 when absent, as
/// Arrow's `index_in`.
pub fn index_in(values: &Strings<'_>, set: &Strings<'_>) -> Vec<i64> {
    let mut rows: FxHashMap<&[u8], i64> = FxHashMap::default();
    for i in (0..set.len()).rev() {
        rows.insert(set.get(i), i as i64);
    }
    (0..values.len())
        .map(|i| rows.get(values.get(i)).copied().unwrap_or(-1))
        .collect()
}

/// The strings at `rows` (each below the number of strings), in their order, as a new
/// column: `(offsets, data)`, the offsets from 0.
pub fn take(strings: &Strings<'_>, rows: &[i64]) -> (Vec<i64>, Vec<u8>) {
    let mut offsets = Vec::with_capacity(rows.len() + 1);
    offsets.push(0i64);
    let mut total = 0i64;
    for &row in rows {
        total += strings.get(row as usize).len() as i64;
        offsets.push(total);
    }
    let mut data = Vec::with_capacity(total as usize);
    for &row in rows {
        data.extend_from_slice(strings.get(row as usize));
    }
    (offsets, data)
}

/// Whether string `i` of `left` equals string `i` of `right`, for every row (the columns
/// are as long).
pub fn equal(left: &Strings<'_>, right: &Strings<'_>) -> Vec<bool> {
    (0..left.len())
        .map(|i| left.get(i) == right.get(i))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::columns::Offsets;

    fn column<'a>(offsets: &'a [i64], data: &'a [u8]) -> Strings<'a> {
        Strings {
            offsets: Offsets::Wide(offsets),
            data,
        }
    }

    #[test]
    fn codes_in_order_of_first_appearance() {
        // "b", "a", "b", "", "ab"
        let c = column(&[0, 1, 2, 3, 3, 5], b"babab");
        assert_eq!(encode(&c), (vec![0, 1, 0, 2, 3], vec![0, 1, 3, 4]));
    }

    #[test]
    fn byte_order_is_stable() {
        // "b", "a", "b", "", "ab"
        let c = column(&[0, 1, 2, 3, 3, 5], b"babab");
        assert_eq!(order(&c), vec![3, 1, 4, 0, 2]);
    }

    #[test]
    fn lookups_give_the_first_row() {
        let values = column(&[0, 1, 2, 4], b"bzab");
        let set = column(&[0, 2, 3, 5], b"abbab");
        assert_eq!(index_in(&values, &set), vec![1, -1, 0]);
    }

    #[test]
    fn rows_taken_in_their_order() {
        let c = column(&[0, 1, 2, 3, 3, 5], b"babab");
        assert_eq!(
            take(&c, &[4, 3, 0, 4]),
            (vec![0, 2, 2, 3, 5], b"abbab".to_vec())
        );
    }

    #[test]
    fn rows_compared_in_turn() {
        let left = column(&[0, 1, 3], b"abc");
        let right = column(&[0, 1, 2], b"ab");
        assert_eq!(equal(&left, &right), vec![true, false]);
    }
}
