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
//!   ([`List::range_max`], [`Sparse`]).
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
//! What does not depend on the level is found once a ranking, then each level follows both
//! families. Time `O(n)` a ranking and level (amortized), and `O(n log n)` a ranking once;
//! the values are the kernels' own (one division of two counts, the lines compared
//! exactly).

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
    /// `max(m, 1)`, `m` the relevant documents the level asks for of `R` (as the kernels
    /// count them), for every `R` from `first` to `last`.
    pub fn counts(self, first: i64, last: i64) -> Vec<i64> {
        let recall_bases = first..=last;
        match self {
            Level::Trec(x) => recall_bases
                .map(|recall_base| ((x * recall_base as f64 + 0.9) as i64).max(1))
                .collect(),
            Level::Tenths(t) => recall_bases
                .map(|recall_base| (recall_base * t + 9).div_euclid(10).max(1))
                .collect(),
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
    let families = Families::of(binary, &judged, &either);
    let first = binary.recall_base(0, false);
    let pairs = levels.iter().map(|&level| {
        // max(m, 1) for R from the prefix family's first (k = 0) to the suffix family's
        // last
        let counts = level.counts(first, binary.recall_base(u, true));
        Pair {
            prefix: families.prefix(&counts),
            suffix: families.suffix(&counts[families.shift..]),
        }
    });
    if !mean {
        return pairs.collect();
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

/// What both families of one ranking share whatever the level: the candidates' lists, per
/// `k` the split's places, and the best line of the judged relevant documents below the
/// prefix family's split.
struct Families<'a> {
    judged: &'a List,
    either: &'a List,
    /// Per k of the prefix family: the judged relevant documents above the split.
    prefix_split: Vec<usize>,
    /// Per k of the prefix family: the best line of the judged relevant documents below
    /// the split (all of them count, whatever the level).
    below_split: Vec<f64>,
    /// Per k of the suffix family: the judged relevant documents above β and β's place
    /// among the candidates (past them at k = 0: none raised).
    suffix_split: Vec<(usize, usize)>,
    /// The judged relevant documents' precision, over any range.
    best_judged: Sparse,
    /// `R` of the suffix family less the prefix family's at the same `k`.
    shift: usize,
}

impl<'a> Families<'a> {
    fn of(binary: &Binary, judged: &'a List, either: &'a List) -> Families<'a> {
        let u = binary.ranking.u();
        // per unjudged document: the judged relevant documents above it
        let above: Vec<usize> = binary
            .ranking
            .unjudged
            .iter()
            .map(|&d| binary.ocum[d] as usize)
            .collect();
        let prefix_split: Vec<usize> = (0..=u)
            .map(|k| if k < u { above[k] } else { judged.len() })
            .collect();
        // (k descending: the lines grow)
        let mut below_split = vec![f64::NEG_INFINITY; u + 1];
        let mut hull = Hull::of(judged);
        for k in (0..u).rev() {
            hull.take(judged, above[k]);
            below_split[k] = hull.best(k as i64);
        }
        let suffix_split = (0..=u)
            .map(|k| {
                if k > 0 {
                    (above[u - k], u - k + above[u - k])
                } else {
                    (judged.len(), either.len())
                }
            })
            .collect();
        Families {
            judged,
            either,
            prefix_split,
            below_split,
            suffix_split,
            best_judged: Sparse::of(&judged.precision),
            shift: (binary.recall_base(0, true) - binary.recall_base(0, false)) as usize,
        }
    }

    /// The prefix family's values at a level, `counts` its `max(m, 1)` at each `k`.
    fn prefix(&self, counts: &[i64]) -> Vec<f64> {
        let (judged, either) = (self.judged, self.either);
        let jn = judged.len() as i64;
        let mut hull = Hull::of(judged);
        let splits = self.prefix_split.iter().zip(&self.below_split);
        (counts.iter().zip(splits).zip(0_i64..))
            .map(|((&m, (&split, &below)), k)| {
                let split = split as i64;
                if m > jn + k {
                    0.0
                } else if m - k > split {
                    // none above the split counts
                    hull.take(judged, (m - k - 1) as usize);
                    hull.rising(k)
                } else {
                    larger(
                        either.range_max(m as usize - 1, (k + split) as usize - 1),
                        below,
                    )
                }
            })
            .collect()
    }

    /// The suffix family's values at a level, `counts` its `max(m, 1)` at each `k`.
    fn suffix(&self, counts: &[i64]) -> Vec<f64> {
        let (judged, either) = (self.judged, self.either);
        let (jn, u) = (judged.len() as i64, self.suffix_split.len() as i64 - 1);
        let mut hull = Hull::of(either);
        (counts.iter().zip(&self.suffix_split).zip(0_i64..))
            .map(|((&m, &(split, place)), k)| {
                if m > jn + k {
                    return 0.0;
                }
                // above β, and below it, those numbered m or more
                let above = if m as usize <= split {
                    self.best_judged.max(m as usize - 1, split - 1)
                } else {
                    f64::NEG_INFINITY
                };
                let start = place.max((m + u - k - 1) as usize);
                if start < either.len() {
                    hull.take(either, start);
                    larger(above, hull.rising(k - u))
                } else {
                    above
                }
            })
            .collect()
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
