//! Topic ids interned (each distinct id once, numbered in order of first appearance) and
//! the rows of a file grouped by topic.

use rustc_hash::FxHashMap;

/// Distinct byte strings numbered from 0 in order of first appearance.
#[derive(Default)]
pub struct Interner<'a> {
    ids: FxHashMap<&'a [u8], u32>,
    /// The strings, by number.
    pub names: Vec<&'a [u8]>,
    last: Option<(&'a [u8], u32)>,
}

impl<'a> Interner<'a> {
    /// The number of `key` (a new one when first seen). Consecutive equal keys, the layout
    /// of TREC files, are not hashed again.
    pub fn id(&mut self, key: &'a [u8]) -> u32 {
        if let Some((last, id)) = self.last
            && last == key
        {
            return id;
        }
        let next = self.names.len() as u32;
        let id = *self.ids.entry(key).or_insert(next);
        if id == next {
            self.names.push(key);
        }
        self.last = Some((key, id));
        id
    }
}

/// The rows of every topic, in file order: topic `t`'s rows are
/// `rows[starts[t]..starts[t + 1]]` (a counting sort of the rows by topic number).
pub struct Groups {
    pub starts: Vec<usize>,
    pub rows: Vec<u32>,
}

impl Groups {
    /// The groups of `topic` (the topic number of every row; numbers below `n`).
    pub fn of(topic: &[u32], n: usize) -> Groups {
        let mut starts = vec![0usize; n + 1];
        for &t in topic {
            starts[t as usize + 1] += 1;
        }
        for t in 0..n {
            starts[t + 1] += starts[t];
        }
        let mut next = starts.clone();
        let mut rows = vec![0u32; topic.len()];
        for (row, &t) in topic.iter().enumerate() {
            rows[next[t as usize]] = row as u32;
            next[t as usize] += 1;
        }
        Groups { starts, rows }
    }

    /// The rows of topic `t`, in file order.
    pub fn rows_of(&self, t: usize) -> &[u32] {
        &self.rows[self.starts[t]..self.starts[t + 1]]
    }

    /// The number of topics.
    pub fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// Whether there is no topic.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn topics_numbered_in_order_of_first_appearance() {
        let mut interner = Interner::default();
        let ids: Vec<u32> = [&b"9"[..], b"9", b"10", b"9", b"2"]
            .iter()
            .map(|k| interner.id(k))
            .collect();
        assert_eq!(ids, [0, 0, 1, 0, 2]);
        assert_eq!(interner.names, [&b"9"[..], b"10", b"2"]);
        let groups = Groups::of(&ids, 3);
        assert_eq!(groups.rows_of(0), &[0, 1, 3]);
        assert_eq!(groups.rows_of(2), &[4]);
    }
}
