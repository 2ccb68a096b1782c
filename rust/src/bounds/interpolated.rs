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
//!   `J(d)/d` in the suffix family (none is); those numbered `≥ m` are a range of a list
//!   whose ends never fall along the prefix family (a monotone queue) and never rise along
//!   the suffix family (a running maximum from `k = u` down: [`Window`]).
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
//! Time `O(n)` a ranking and level (amortized), and `O(n log n)` a ranking once; the values
//! are the kernels' own (one division of two counts, the lines compared exactly).

use super::lines::{Hull, List, Window};
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

/// Per level (or their mean: `mean`), both families' values.
pub fn values(binary: &Binary, levels: &[Level], mean: bool) -> Vec<Pair> {
    let ranking = binary.ranking;
    let (rel, u) = (ranking.rel, ranking.u());
    let judged = List::of((0..rel.len()).filter(|&d| binary.relevant[d]));
    let either = List::of(
        (0..rel.len()).filter(|&d| binary.relevant[d] || rel[d] == crate::judged::NONPOOL),
    );
    let jn = judged.len() as i64;
    // per unjudged document: the judged relevant documents above it
    let above: Vec<usize> = ranking.unjudged.iter().map(|&d| binary.ocum[d] as usize).collect();
    // per k of the prefix family: those above the split, and the best line of those below
    // it (k descending: the lines grow)
    let above_split = |k: usize| if k < u { above[k] } else { judged.len() };
    let mut below_split = vec![f64::NEG_INFINITY; u + 1];
    let mut hull = Hull::of(&judged);
    for k in (0..u).rev() {
        hull.take(&judged, above[k]);
        below_split[k] = hull.best(k as i64);
    }
    let mut window = Window::default();
    let mut kept = vec![f64::NEG_INFINITY; u + 1];
    let prefix = |level: Level, window: &mut Window| -> Vec<f64> {
        window.clear();
        let mut hull = Hull::of(&judged);
        (0..=u)
            .map(|k| {
                let m = level.count(binary.recall_base(k, false)).max(1);
                let (k_, split) = (k as i64, above_split(k) as i64);
                if m > jn + k_ {
                    0.0
                } else if m - k_ > split {
                    // none above the split counts
                    hull.take(&judged, (m - k_ - 1) as usize);
                    hull.rising(k_)
                } else {
                    let kept = window.sliding(&either, m as usize - 1, (k_ + split) as usize - 1);
                    kept.max(below_split[k])
                }
            })
            .collect()
    };
    let mut suffix = |level: Level, window: &mut Window| -> Vec<f64> {
        // above β: the judged relevant documents numbered m or more (k descending: the
        // range grows)
        window.clear();
        for k in (0..=u).rev() {
            let m = level.count(binary.recall_base(k, true)).max(1) as usize;
            let split = if k > 0 { above[u - k] } else { judged.len() };
            kept[k] = if m <= split {
                window.growing(&judged, m - 1, split - 1)
            } else {
                f64::NEG_INFINITY
            };
        }
        let mut hull = Hull::of(&either);
        (0..=u)
            .map(|k| {
                let m = level.count(binary.recall_base(k, true)).max(1);
                let k_ = k as i64;
                if m > jn + k_ {
                    return 0.0;
                }
                // β's place among the candidates, and the first numbered m or more
                let place = if k > 0 { u - k + above[u - k] } else { either.len() };
                let start = place.max((m + (u - k) as i64 - 1) as usize);
                if start < either.len() {
                    hull.take(&either, start);
                    kept[k].max(hull.rising(k_ - u as i64))
                } else {
                    kept[k]
                }
            })
            .collect()
    };
    let each = levels.iter().map(|&level| Pair {
        prefix: prefix(level, &mut window),
        suffix: suffix(level, &mut window),
    });
    if !mean {
        return each.collect();
    }
    let mut total = Pair {
        prefix: vec![0.0; u + 1],
        suffix: vec![0.0; u + 1],
    };
    for pair in each {
        for (sum, value) in [
            (&mut total.prefix, pair.prefix),
            (&mut total.suffix, pair.suffix),
        ] {
            sum.iter_mut().zip(value).for_each(|(s, v)| *s += v);
        }
    }
    let n = levels.len() as f64;
    total.prefix.iter_mut().chain(total.suffix.iter_mut()).for_each(|s| *s /= n);
    vec![total]
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
            case.compare(&Chain::Interpolated(levels, false), "iprec_at_recall", &[], &LEVELS, same);
            let tenths: Vec<i64> = (0..=10).collect();
            let levels = tenths.iter().map(|&t| Level::Tenths(t)).collect();
            case.compare(&Chain::Interpolated(levels, false), "iprec_at_tenths", &tenths, &[], same);
        }
    }

    #[test]
    fn means_are_the_kernels_within_rounding() {
        let mut rng = Rng(19);
        for _ in 0..60 {
            let case = Case::random(&mut rng, 3, 30);
            let levels = LEVELS.iter().map(|&x| Level::Trec(x)).collect();
            case.compare(&Chain::Interpolated(levels, true), "11pt_avg", &[], &LEVELS, close);
        }
    }

    #[test]
    fn runs_of_relevant_documents_deep_in_a_ranking() {
        // every other run relevant: judged relevant, unjudged and non-relevant alike
        let mut rng = Rng(31);
        for _ in 0..40 {
            let mut case = Case::random(&mut rng, 1, 2);
            let kinds = [1, crate::judged::NONPOOL, 0];
            case.rel = (0..120).map(|d| kinds[(d / (1 + rng.below(6) as usize)) % 3]).collect();
            case.offsets = vec![0, case.rel.len() as i64];
            case.rel_levels = vec![120, 120, 0, 0][..case.degrees.len()].to_vec();
            case.level = 1;
            let levels = LEVELS.iter().map(|&x| Level::Trec(x)).collect();
            case.compare(&Chain::Interpolated(levels, false), "iprec_at_recall", &[], &LEVELS, same);
        }
    }
}
