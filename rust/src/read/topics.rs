//! Topic ids interned (each distinct id once, numbered in order of first appearance) and
//! the rows of a file grouped by topic.

use super::fields::same;
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
            && same(last, key)
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

/// The rows of every topic, in file order: topic `t`'s rows are those at
/// `starts[t]..starts[t + 1]` of the rows grouped by topic (a counting sort of the rows by
/// topic number), which are the rows themselves when every topic's rows are together (the
/// layout of TREC files: no array is made then).
pub struct Groups {
    pub starts: Vec<usize>,
    order: Option<Vec<u32>>,
}

impl Groups {
    /// The groups of rows that are together by topic: topic `t`'s are
    /// `starts[t]..starts[t + 1]`.
    pub fn contiguous(starts: Vec<usize>) -> Groups {
        Groups {
            starts,
            order: None,
        }
    }

    /// The groups of `topic` (the topic number of every row, numbered in order of first
    /// appearance; numbers below `n`).
    pub fn of(topic: &[u32], n: usize) -> Groups {
        let mut segments: Vec<(u32, u32)> = Vec::new();
        for &t in topic {
            match segments.last_mut() {
                Some((last, rows)) if *last == t => *rows += 1,
                _ => segments.push((t, 1)),
            }
        }
        Groups::of_segments(&segments, n)
    }

    /// The groups of rows whose topics are given in runs: `(topic, rows)` for each run of
    /// consecutive rows of one topic, in file order (topics numbered in order of first
    /// appearance, below `n`).
    pub fn of_segments(segments: &[(u32, u32)], n: usize) -> Groups {
        let mut starts = vec![0usize; n + 1];
        for &(t, rows) in segments {
            starts[t as usize + 1] += rows as usize;
        }
        for t in 0..n {
            starts[t + 1] += starts[t];
        }
        // numbered in order of first appearance: a topic in one run each time they ascend
        if segments.windows(2).all(|w| w[0].0 < w[1].0) {
            return Groups {
                starts,
                order: None,
            };
        }
        let mut next = starts.clone();
        let mut order = vec![0u32; starts[n]];
        let mut row = 0u32;
        for &(t, rows) in segments {
            let at = next[t as usize];
            for (slot, r) in order[at..at + rows as usize].iter_mut().zip(row..) {
                *slot = r;
            }
            next[t as usize] += rows as usize;
            row += rows;
        }
        Groups {
            starts,
            order: Some(order),
        }
    }

    /// The rows of topic `t`, in file order.
    pub fn rows_of(&self, t: usize) -> Rows<'_> {
        let (first, stop) = (self.starts[t], self.starts[t + 1]);
        match &self.order {
            Some(order) => Rows::Grouped(order[first..stop].iter()),
            None => Rows::Direct(first as u32..stop as u32),
        }
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

/// The rows of one topic ([`Groups::rows_of`]).
pub enum Rows<'a> {
    Grouped(std::slice::Iter<'a, u32>),
    Direct(std::ops::Range<u32>),
}

impl Iterator for Rows<'_> {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        match self {
            Rows::Grouped(rows) => rows.next().copied(),
            Rows::Direct(rows) => rows.next(),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            Rows::Grouped(rows) => rows.size_hint(),
            Rows::Direct(rows) => rows.size_hint(),
        }
    }
}

impl ExactSizeIterator for Rows<'_> {}

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
        assert_eq!(groups.rows_of(0).collect::<Vec<_>>(), [0, 1, 3]);
        assert_eq!(groups.rows_of(2).collect::<Vec<_>>(), [4]);
        let together = Groups::of(&[0, 0, 1, 2, 2], 3);
        assert!(together.order.is_none());
        assert_eq!(together.rows_of(2).collect::<Vec<_>>(), [3, 4]);
        let runs = Groups::of_segments(&[(0, 2), (1, 1), (0, 3), (2, 1), (1, 2)], 3);
        assert_eq!(runs.rows_of(0).collect::<Vec<_>>(), [0, 1, 3, 4, 5]);
        assert_eq!(runs.rows_of(1).collect::<Vec<_>>(), [2, 7, 8]);
        assert_eq!(runs.rows_of(2).collect::<Vec<_>>(), [6]);
    }
}
