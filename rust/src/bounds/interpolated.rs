//! The chains of interpolated precision (`iprec_at_recall`, `11pt_avg`, `AP11`).
//!
//! trec_eval (m_iprec_at_recall.c) gives recall level `x` the best precision at or below
//! the rank of the `m`-th relevant retrieved document, `m = (long)(x·R + 0.9)` (`AP11`:
//! `⌈t·R/10⌉`), 0 when fewer are retrieved, the best precision anywhere when `m ≤ 0`.
//! Precision peaks at relevant documents, so with the relevant documents of a completion
//! numbered `i = 1, 2, …` down the ranking at ranks `q_i`:
//!
//! ```text
//! iprec(x) = max_{i ≥ max(m, 1)} i / q_i            (0 when max(m, 1) > num_rel_ret)
//! ```
//!
//! Along a family of completions (`k` unjudged documents relevant) the relevant documents
//! split in two at an unjudged document: the first one not raised, `p_{k+1}`, in the
//! prefix family; the first one raised, `β = p_{u-k+1}`, in the suffix family. `J(d)`:
//! the judged relevant documents at or above `d`; `E(d)`: those and the unjudged ones.
//!
//! * Above the split the precision of a relevant document does not depend on `k`:
//!   `E(d)/d` in the prefix family (every unjudged document above it is relevant),
//!   `J(d)/d` in the suffix family (none is); those numbered `≥ m` are a range of a list:
//!   in the prefix family its two ends never fall along the chain (one queue of the
//!   candidates no later one reaches, every level's place in it), in the suffix family a
//!   sparse table of the judged relevant documents gives it ([`Sparse`]).
//! * Below it the precision is a line in `k`: `(J(d) + k)/d` of the judged relevant
//!   documents in the prefix family, `(E(d) − u + k)/d` of every candidate in the suffix
//!   family, the best over a suffix of the list (their upper envelope, [`Hull`]). In the
//!   suffix family, and in the prefix family while `m − k` exceeds the judged relevant
//!   documents above the split (none above counts), that suffix grows with `k` (`m` grows
//!   by one at most, the suffix family's split rises) and so does `k`: one envelope a level
//!   follows the family, its best line found by a pointer that only moves on. Otherwise,
//!   in the prefix family, every relevant document below the split counts whatever the
//!   level, and one envelope followed from `k = u` down gives them (a binary search).
//!
//! The levels are followed side by side, `k` by `k`. Time `O(n)` a ranking and level
//! (amortized), and `O(n log n)` a ranking once; the values are the kernels' own (one
//! division of two counts, the lines compared exactly).

use super::lines::{Hull, List, Sparse, larger};
use super::{Binary, Pair};

/// A recall level: trec_eval's `x` (`m = (long)(x·R + 0.9)`) or `AP11`'s tenth `t`
/// (`m = ⌈t·R/10⌉`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Level {
    Trec(f64),
    Tenths(i64),
}

impl Level {
    /// The relevant documents the level asks for, of `R` (as the kernels count them).
    pub fn count(self, recall_base: i64) -> i64 {
        match self {
            Level::Trec(x) => (x * recall_base as f64 + 0.9) as i64,
            Level::Tenths(t) => (recall_base * t + 9).div_euclid(10),
        }
    }
}

/// Per level, `max(m, 1)` for every `R` from `first` (`count` of them): the first relevant
/// document that counts, in every completion of `R` from `first` on.
fn counts(levels: &[Level], first: i64, count: usize) -> Vec<Vec<i64>> {
    levels
        .iter()
        .map(|level| {
            (first..first + count as i64)
                .map(|recall_base| level.count(recall_base).max(1))
                .collect()
        })
        .collect()
}

/// Per level (or their mean: `mean`), both families' values.
pub fn values(binary: &Binary, levels: &[Level], mean: bool) -> Vec<Pair> {
    let ranking = binary.ranking;
    let (rel, u) = (ranking.rel, ranking.u());
    let judged = List::of((0..rel.len()).filter(|&d| binary.relevant[d]));
    let either = List::of(
        (0..rel.len()).filter(|&d| binary.relevant[d] || rel[d] == crate::judged::NONPOOL),
    );
    // per unjudged document: the judged relevant documents above it
    let above: Vec<usize> = ranking
        .unjudged
        .iter()
        .map(|&d| binary.ocum[d] as usize)
        .collect();
    let mut pairs: Vec<Pair> = levels
        .iter()
        .map(|_| Pair {
            prefix: Vec::with_capacity(u + 1),
            suffix: Vec::with_capacity(u + 1),
        })
        .collect();
    // m of every level, for R from the prefix family's first (R at k = 0) to the suffix
    // family's last
    let first = binary.recall_base(0, false);
    let m = counts(
        levels,
        first,
        (binary.recall_base(u, true) - first) as usize + 1,
    );
    prefix(&judged, &either, &above, &m, &mut pairs);
    suffix(binary, &judged, &either, &above, &m, &mut pairs);
    if !mean {
        return pairs;
    }
    let mut total = Pair {
        prefix: vec![0.0; u + 1],
        suffix: vec![0.0; u + 1],
    };
    for pair in pairs {
        for (sum, value) in [
            (&mut total.prefix, pair.prefix),
            (&mut total.suffix, pair.suffix),
        ] {
            sum.iter_mut().zip(value).for_each(|(s, v)| *s += v);
        }
    }
    let n = levels.len() as f64;
    total
        .prefix
        .iter_mut()
        .chain(total.suffix.iter_mut())
        .for_each(|s| *s /= n);
    vec![total]
}

/// The prefix family's values of every level (`k` ascending, every level at each `k`),
/// `counts` each level's `max(m, 1)` from the prefix family's first `R`.
fn prefix(judged: &List, either: &List, above: &[usize], counts: &[Vec<i64>], pairs: &mut [Pair]) {
    let u = above.len();
    let jn = judged.len() as i64;
    // per k: the judged relevant documents above the split, and the best line of those
    // below it (k descending: the lines grow)
    let above_split = |k: usize| if k < u { above[k] } else { judged.len() };
    let mut below_split = vec![f64::NEG_INFINITY; u + 1];
    let mut hull = Hull::of(judged);
    for k in (0..u).rev() {
        hull.take(judged, above[k]);
        below_split[k] = hull.best(k as i64);
    }
    // the candidates above the split: their best from the m-th of each level (a queue of
    // the candidates no later one reaches, each level's place in it)
    let mut queue: Vec<usize> = Vec::with_capacity(either.len());
    let mut taken = 0;
    let mut places = vec![0_usize; counts.len()];
    let mut hulls: Vec<Hull> = counts.iter().map(|_| Hull::of(judged)).collect();
    for k in 0..=u {
        let split = above_split(k);
        // (a place past the queue's shortest length since the last k: that of the first
        // candidate taken since, which reaches those popped)
        let mut shortest = queue.len();
        while taken < k + split {
            let value = either.precision[taken];
            while queue.last().is_some_and(|&j| either.precision[j] <= value) {
                queue.pop();
            }
            shortest = shortest.min(queue.len());
            queue.push(taken);
            taken += 1;
        }
        let (k_, split) = (k as i64, split as i64);
        for (t, counts) in counts.iter().enumerate() {
            let place = &mut places[t];
            *place = (*place).min(shortest);
            let m = counts[k];
            let value = if m > jn + k_ {
                0.0
            } else if m - k_ > split {
                // none above the split counts
                hulls[t].take(judged, (m - k_ - 1) as usize);
                hulls[t].rising(k_)
            } else {
                while queue[*place] < m as usize - 1 {
                    *place += 1;
                }
                larger(either.precision[queue[*place]], below_split[k])
            };
            pairs[t].prefix.push(value);
        }
    }
}

/// The suffix family's values of every level (`k` ascending, every level at each `k`:
/// the lines grow), `counts` each level's `max(m, 1)` from the prefix family's first `R`.
fn suffix(
    binary: &Binary,
    judged: &List,
    either: &List,
    above: &[usize],
    counts: &[Vec<i64>],
    pairs: &mut [Pair],
) {
    let u = above.len();
    let jn = judged.len() as i64;
    let shift = (binary.recall_base(0, true) - binary.recall_base(0, false)) as usize;
    let best = Sparse::of(&judged.precision);
    let mut hulls: Vec<Hull> = counts.iter().map(|_| Hull::of(either)).collect();
    for k in 0..=u {
        // the judged relevant documents above β, and β's place among the candidates
        let (split, place) = if k > 0 {
            (above[u - k], u - k + above[u - k])
        } else {
            (judged.len(), either.len())
        };
        let k_ = k as i64;
        for (t, counts) in counts.iter().enumerate() {
            let m = counts[k + shift];
            let value = if m > jn + k_ {
                0.0
            } else {
                // above β, those numbered m or more; below it, those numbered m or more
                let kept = if m as usize <= split {
                    best.max(m as usize - 1, split - 1)
                } else {
                    f64::NEG_INFINITY
                };
                let start = place.max((m + (u - k) as i64 - 1) as usize);
                if start < either.len() {
                    hulls[t].take(either, start);
                    larger(kept, hulls[t].rising(k_ - u as i64))
                } else {
                    kept
                }
            };
            pairs[t].suffix.push(value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::Chain;
    use super::super::testing::*;
    use super::*;

    const LEVELS: [f64; 10] = [0.0, 0.05, 0.1, 0.25, 0.3, 0.5, 0.7, 0.75, 0.9, 1.0];

    #[test]
    fn chains_are_the_kernels_values_bit_for_bit() {
        let mut rng = Rng(13);
        for round in 0..150 {
            let case = Case::random(&mut rng, 3, if round % 3 == 0 { 80 } else { 25 });
            let levels = LEVELS.iter().map(|&x| Level::Trec(x)).collect();
            case.compare(
                &Chain::Interpolated(levels, false),
                "iprec_at_recall",
                &[],
                &LEVELS,
                same,
            );
            let tenths: Vec<i64> = (0..=10).collect();
            let levels = tenths.iter().map(|&t| Level::Tenths(t)).collect();
            case.compare(
                &Chain::Interpolated(levels, false),
                "iprec_at_tenths",
                &tenths,
                &[],
                same,
            );
        }
    }

    #[test]
    fn means_are_the_kernels_within_rounding() {
        let mut rng = Rng(19);
        for _ in 0..60 {
            let case = Case::random(&mut rng, 3, 30);
            let levels = LEVELS.iter().map(|&x| Level::Trec(x)).collect();
            case.compare(
                &Chain::Interpolated(levels, true),
                "11pt_avg",
                &[],
                &LEVELS,
                close,
            );
        }
    }

    #[test]
    fn runs_of_relevant_documents_deep_in_a_ranking() {
        // every other run relevant: judged relevant, unjudged and non-relevant alike
        let mut rng = Rng(31);
        for _ in 0..40 {
            let mut case = Case::random(&mut rng, 1, 2);
            let kinds = [1, crate::judged::NONPOOL, 0];
            case.rel = (0..120)
                .map(|d| kinds[(d / (1 + rng.below(6) as usize)) % 3])
                .collect();
            case.offsets = vec![0, case.rel.len() as i64];
            case.rel_levels = vec![120, 120, 0, 0][..case.degrees.len()].to_vec();
            case.level = 1;
            let levels = LEVELS.iter().map(|&x| Level::Trec(x)).collect();
            case.compare(
                &Chain::Interpolated(levels, false),
                "iprec_at_recall",
                &[],
                &LEVELS,
                same,
            );
        }
    }
}
