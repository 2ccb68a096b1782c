//! Judged rankings in CSR form: the common currency of every measure.
//!
//! The same layout as `irscale.core.judged.JudgedRankings`: ranking `i` is
//! `rel[offsets[i]..offsets[i + 1]]`, the relevance degrees of its documents in rank order
//! with trec_eval's sentinels ([`NONPOOL`]: not in the qrels, [`UNJUDGED`]: in the qrels
//! with a negative degree); `rel_levels` holds, row by row, the number of judged documents
//! of the ranking's topic at each degree of `degrees` (ascending, all ≥ 0).

/// A retrieved document that is not in the qrels.
pub const NONPOOL: i64 = -1;
/// A retrieved document in the qrels with a negative degree (pooled, not judged).
pub const UNJUDGED: i64 = -2;

/// A batch of judged rankings, borrowed (from numpy arrays or from the engine's own).
#[derive(Clone, Copy, Debug)]
pub struct JudgedView<'a> {
    pub rel: &'a [i64],
    pub offsets: &'a [i64],
    /// `n_rankings × degrees.len()`, row-major.
    pub rel_levels: &'a [i64],
    pub degrees: &'a [i64],
    /// The least degree that counts as relevant (trec_eval's `-l`).
    pub relevance_level: i64,
}

impl<'a> JudgedView<'a> {
    /// The number of rankings in the batch.
    pub fn n_rankings(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    /// The relevance degrees of ranking `i`, in rank order.
    pub fn ranking(&self, i: usize) -> &'a [i64] {
        &self.rel[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }

    /// The judged documents of ranking `i`'s topic at each degree of `degrees`.
    pub fn levels(&self, i: usize) -> &'a [i64] {
        let width = self.degrees.len();
        &self.rel_levels[i * width..(i + 1) * width]
    }

    /// The judged documents of ranking `i`'s topic with a degree ≥ `level` (and ≥ 0).
    pub fn judged_at_least(&self, i: usize, level: i64) -> i64 {
        let floor = level.max(0);
        self.degrees
            .iter()
            .zip(self.levels(i))
            .filter(|(degree, _)| **degree >= floor)
            .map(|(_, count)| count)
            .sum()
    }

    /// The recall base R of ranking `i`'s topic: judged documents with degree ≥ the level.
    pub fn num_rel(&self, i: usize) -> i64 {
        self.judged_at_least(i, self.relevance_level)
    }

    /// Whether the CSR arrays agree with each other (checked once, at the boundary).
    pub fn check(&self) -> Result<(), String> {
        let n = self.n_rankings();
        if self.offsets.is_empty() || self.offsets[0] != 0 {
            return Err("offsets must start at 0".into());
        }
        if self.offsets.windows(2).any(|w| w[1] < w[0]) {
            return Err("offsets must not decrease".into());
        }
        if self.offsets[n] as usize != self.rel.len() {
            return Err("the last offset must be the number of documents".into());
        }
        if self.rel_levels.len() != n * self.degrees.len() {
            return Err("rel_levels must have one row per ranking, one column per degree".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recall_base_counts_degrees_from_the_level() {
        let jr = JudgedView {
            rel: &[2, NONPOOL, 0, 1],
            offsets: &[0, 3, 4],
            rel_levels: &[5, 2, 1, 4, 0, 0],
            degrees: &[0, 1, 2],
            relevance_level: 1,
        };
        assert!(jr.check().is_ok());
        assert_eq!(jr.ranking(0), &[2, NONPOOL, 0]);
        assert_eq!(jr.num_rel(0), 3);
        assert_eq!(jr.num_rel(1), 0);
        assert_eq!(jr.judged_at_least(0, -5), 8);
    }
}
