//! Judging a run per intent: every ranked document looked up among the relevant
//! `(topic, docno)` pairs of the diversity qrels, each intent it is relevant to giving one
//! relevant entry `(ranking, rank, intent, level)`, in the order of [`super::Rankings`]
//! (ranking, rank, intent).
//!
//! The run's rows come grouped by topic in the ranking order (ndeval's: by the rank
//! column, or by score then docno with `-traditional`), as the caller put them; each
//! ranking is the first `length` rows of its block, as ndeval's `-M` cuts it.

use rustc_hash::FxHashMap;

/// Strings stored end to end (arrow's layout): string `i` is
/// `data[offsets[i]..offsets[i + 1]]`.
#[derive(Debug, Clone, Copy)]
pub struct Strings<'a> {
    pub offsets: &'a [i64],
    pub data: &'a [u8],
}

impl<'a> Strings<'a> {
    /// Checks that the offsets are non-decreasing and within `data`.
    pub fn new(offsets: &'a [i64], data: &'a [u8]) -> Result<Self, String> {
        if offsets.is_empty()
            || offsets[0] < 0
            || offsets.windows(2).any(|w| w[1] < w[0])
            || offsets[offsets.len() - 1] as usize > data.len()
        {
            return Err("string offsets must increase within the data".into());
        }
        Ok(Strings { offsets, data })
    }

    pub fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn get(&self, i: usize) -> &'a [u8] {
        &self.data[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }
}

/// The relevant `(topic, docno)` pairs of the qrels with their intents and levels.
#[derive(Debug, Clone)]
pub struct RelevantIndex {
    /// Per topic, the index `d` of each relevant docno (looked up without a copy of the
    /// run's docno).
    lookup: FxHashMap<i64, FxHashMap<Box<[u8]>, usize>>,
    /// `mask[d · width + j]`: document `d` is relevant to intent `j`.
    mask: Vec<bool>,
    /// `level[d · width + j]`: its level for intent `j`.
    level: Vec<i64>,
    width: usize,
}

/// One run judged per intent: the entries' ranking, rank, intent and level.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Entries {
    pub ranking: Vec<i64>,
    pub rank: Vec<i64>,
    pub intent: Vec<i64>,
    pub level: Vec<i64>,
}

/// A run's rankings: ranking `r` is the first `length[r]` of the rows
/// `order[start[r]..]` (the rows in ranking order; `order` empty: the identity), of qrels
/// topic `topic[r]` (−1: not judged, no entry).
#[derive(Debug, Clone, Copy)]
pub struct RunRankings<'a> {
    pub order: &'a [i64],
    pub start: &'a [i64],
    pub length: &'a [i64],
    pub topic: &'a [i64],
}

impl RelevantIndex {
    /// The index of the relevant documents `d` of topic `topic[d]` and docno `docno[d]`,
    /// relevant to the intents `j` with `mask[d · width + j]`, at `level[d · width + j]`.
    pub fn new(
        topic: &[i64],
        docno: &Strings,
        mask: &[bool],
        level: &[i64],
        width: usize,
    ) -> Result<Self, String> {
        let n = topic.len();
        if docno.len() != n || mask.len() != n * width || level.len() != n * width {
            return Err("one topic, docno and row of intents per relevant document".into());
        }
        let mut lookup: FxHashMap<i64, FxHashMap<Box<[u8]>, usize>> = FxHashMap::default();
        for (d, &t) in topic.iter().enumerate() {
            let docnos = lookup.entry(t).or_default();
            if docnos.insert(docno.get(d).into(), d).is_some() {
                return Err("a relevant (topic, docno) pair is listed twice".into());
            }
        }
        Ok(RelevantIndex {
            lookup,
            mask: mask.to_vec(),
            level: level.to_vec(),
            width,
        })
    }

    /// The relevant entries of `run`, whose documents are `docno`.
    pub fn judge(&self, run: &RunRankings, docno: &Strings) -> Result<Entries, String> {
        self.judge_rows(run, docno.len(), |row| docno.get(row))
    }

    /// The relevant entries of `run`, whose `rows` documents are `docno(row)`.
    pub fn judge_rows<'d>(
        &self,
        run: &RunRankings,
        rows: usize,
        docno: impl Fn(usize) -> &'d [u8],
    ) -> Result<Entries, String> {
        let n = run.start.len();
        if run.length.len() != n || run.topic.len() != n {
            return Err("one start, length and topic per ranking".into());
        }
        if !run.order.is_empty() && run.order.len() != rows {
            return Err("the row order must list every row".into());
        }
        let mut out = Entries::default();
        for r in 0..n {
            let t = run.topic[r];
            if t < 0 {
                continue;
            }
            let (start, length) = (run.start[r], run.length[r]);
            if start < 0 || length < 0 || (start + length) as usize > rows {
                return Err("a ranking's rows are out of range".into());
            }
            let Some(relevant) = self.lookup.get(&t) else {
                continue; // no relevant document: no entry
            };
            for position in 0..length {
                let at = (start + position) as usize;
                let row = if run.order.is_empty() {
                    at
                } else {
                    run.order[at] as usize
                };
                if row >= rows {
                    return Err("the row order names a row out of range".into());
                }
                let Some(&d) = relevant.get(docno(row)) else {
                    continue;
                };
                for j in 0..self.width {
                    if self.mask[d * self.width + j] {
                        out.ranking.push(r as i64);
                        out.rank.push(position + 1);
                        out.intent.push(j as i64);
                        out.level.push(self.level[d * self.width + j]);
                    }
                }
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_are_judged_per_intent() {
        // topic 0: a relevant to intent 1 (level 2), b to intents 0 and 1; topic 1: a
        let docs = Strings::new(&[0, 1, 2, 3], b"aba").unwrap();
        let index = RelevantIndex::new(
            &[0, 0, 1],
            &docs,
            &[false, true, true, true, true, false],
            &[0, 2, 1, 1, 3, 0],
            2,
        )
        .unwrap();
        // rows: (topic 1) a, x; (topic 0) x, b, a; (unjudged topic) a
        let rows = Strings::new(&[0, 1, 2, 3, 4, 5, 6], b"axxbaa").unwrap();
        let run = RunRankings {
            order: &[],
            start: &[2, 0, 5],
            length: &[3, 2, 1],
            topic: &[0, 1, -1],
        };
        let entries = index.judge(&run, &rows).unwrap();
        assert_eq!(entries.ranking, [0, 0, 0, 1]);
        assert_eq!(entries.rank, [2, 2, 3, 1]);
        assert_eq!(entries.intent, [0, 1, 1, 0]);
        assert_eq!(entries.level, [1, 1, 2, 3]);
        // the same rows listed in another order, ranked through `order`; a ranking cut
        let rows = Strings::new(&[0, 1, 2, 3, 4, 5, 6], b"abxaxa").unwrap();
        let run = RunRankings {
            order: &[3, 4, 2, 1, 0, 5],
            start: &[2, 0],
            length: &[2, 1],
            topic: &[0, 1],
        };
        let entries = index.judge(&run, &rows).unwrap();
        assert_eq!(entries.ranking, [0, 0, 1]);
        assert_eq!(entries.rank, [2, 2, 1]);
    }

    #[test]
    fn bad_inputs_are_refused() {
        assert!(Strings::new(&[0, 2], b"a").is_err());
        let docs = Strings::new(&[0, 1, 2], b"aa").unwrap();
        assert!(RelevantIndex::new(&[0, 0], &docs, &[true, true], &[1, 1], 1).is_err());
    }
}
