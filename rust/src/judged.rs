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
        check_offsets(self.offsets, self.rel.len())?;
        if self.rel_levels.len() != n * self.degrees.len() {
            return Err("rel_levels must have one row per ranking, one column per degree".into());
        }
        Ok(())
    }
}

/// Whether `offsets` cut `documents` documents into rankings: from 0, not decreasing, to
/// `documents`.
pub fn check_offsets(offsets: &[i64], documents: usize) -> Result<(), String> {
    if offsets.is_empty() || offsets[0] != 0 {
        return Err("offsets must start at 0".into());
    }
    if offsets.windows(2).any(|w| w[1] < w[0]) {
        return Err("offsets must not decrease".into());
    }
    if offsets[offsets.len() - 1] as usize != documents {
        return Err("the last offset must be the number of documents".into());
    }
    Ok(())
}

/// Counts over one ranking's documents, shared by the binary-relevance families.
impl JudgedView<'_> {
    /// Whether a document of degree `rel` passes trec_eval's relevance test (`rel ≥ -l`,
    /// sentinels included: with a level ≤ -1 documents outside the qrels pass).
    pub fn is_relevant(&self, rel: i64) -> bool {
        rel >= self.relevance_level
    }

    /// Relevant *judged* documents retrieved by ranking `i` (form_res_rels' `num_rel_ret`:
    /// degree ≥ the level and ≥ 0, so never a sentinel).
    pub fn num_rel_ret(&self, i: usize) -> i64 {
        let floor = self.relevance_level.max(0);
        self.ranking(i).iter().filter(|&&rel| rel >= floor).count() as i64
    }

    /// Judged non-relevant documents of ranking `i`'s topic (0 ≤ degree < the level).
    pub fn num_nonrel(&self, i: usize) -> i64 {
        self.degrees
            .iter()
            .zip(self.levels(i))
            .filter(|(degree, _)| **degree < self.relevance_level)
            .map(|(_, count)| count)
            .sum()
    }
}

/// Rank cut-offs `k` of a request, visited in ascending order while a ranking is walked
/// once (trec_eval's cut-off loops, e.g. m_P.c: a cut-off beyond the ranking sees every
/// document, as if non-relevant documents filled the ranks up to it).
#[derive(Debug, Clone)]
pub struct Cutoffs {
    /// `(k, index of k in the request)`, ascending in `k`.
    sorted: Vec<(i64, usize)>,
}

impl Cutoffs {
    pub fn new(cutoffs: &[i64]) -> Self {
        let mut sorted: Vec<(i64, usize)> = cutoffs.iter().copied().zip(0..).collect();
        sorted.sort_unstable();
        Cutoffs { sorted }
    }

    /// The number of cut-offs.
    pub fn len(&self) -> usize {
        self.sorted.len()
    }

    /// Whether there is no cut-off.
    pub fn is_empty(&self) -> bool {
        self.sorted.is_empty()
    }

    /// Walks `ranking` once, folding `step(state, rank, rel)` over its documents in rank
    /// order (ranks from 1), and calls `emit(index, state)` for each cut-off `k` with the
    /// state after the first `min(k, n)` documents. The walk stops after the last cut-off.
    pub fn scan<S: Copy>(
        &self,
        ranking: &[i64],
        mut state: S,
        mut step: impl FnMut(S, usize, i64) -> S,
        mut emit: impl FnMut(usize, S),
    ) {
        let mut next = 0;
        for (seen, &rel) in ranking.iter().enumerate() {
            while next < self.sorted.len() && self.sorted[next].0 <= seen as i64 {
                emit(self.sorted[next].1, state);
                next += 1;
            }
            if next == self.sorted.len() {
                return;
            }
            state = step(state, seen + 1, rel);
        }
        for &(_, index) in &self.sorted[next..] {
            emit(index, state);
        }
    }

    /// Per cut-off `k` (by its index in the request): the documents at ranks ≤ k of
    /// `ranking` for which `flag` holds.
    pub fn counts(
        &self,
        ranking: &[i64],
        flag: impl Fn(i64) -> bool,
        mut emit: impl FnMut(usize, i64),
    ) {
        self.scan(
            ranking,
            0_i64,
            |count, _, rel| count + i64::from(flag(rel)),
            &mut emit,
        );
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
        assert_eq!(jr.num_rel_ret(0), 1);
        assert_eq!(jr.num_nonrel(0), 5);
        assert!(jr.is_relevant(1) && !jr.is_relevant(NONPOOL));
    }

    #[test]
    fn cutoffs_count_in_request_order_and_beyond_the_ranking() {
        let cutoffs = Cutoffs::new(&[5, 1, 2]);
        let mut hits = [0; 3];
        cutoffs.counts(
            &[1, 0, 1],
            |rel| rel >= 1,
            |index, count| hits[index] = count,
        );
        assert_eq!(hits, [2, 1, 1]);
        let mut empty = [9; 3];
        cutoffs.counts(&[], |_| true, |index, count| empty[index] = count);
        assert_eq!(empty, [0; 3]);
    }
}
