//! The chain of `bpref`: `(1/R) Σ_{relevant d} [1 − min(N(d), R) / min(NR, R)]`, `N(d)` the
//! judged non-relevant documents above `d` (the unjudged ones given a judged lowest grade
//! included). `N(d)` grows along the ranking, so each family's sum of `min(N(d), cap)` over
//! a range of documents splits at the first document whose `N(d)` reaches the cap: below it
//! `N(d)` itself (running sums), from it the cap. The caps grow along each family, and so
//! does that document ([`Split`]).

use super::{Binary, Completions, Pair, at_rank, ratio, running};

/// Running sums of the documents where `counted` holds, and of their `keys`.
struct Counted {
    count: Vec<i64>,
    sum: Vec<i64>,
}

impl Counted {
    fn of(counted: impl Fn(usize) -> bool, keys: &[i64]) -> Counted {
        let (mut count, mut sum) = (0, 0);
        let (mut counts, mut sums) = (
            Vec::with_capacity(keys.len()),
            Vec::with_capacity(keys.len()),
        );
        for (d, &key) in keys.iter().enumerate() {
            if counted(d) {
                count += 1;
                sum += key;
            }
            counts.push(count);
            sums.push(sum);
        }
        Counted {
            count: counts,
            sum: sums,
        }
    }

    /// `Σ min(key, cap)` over the counted documents at ranks `(low, high]`, the documents
    /// with a key below `cap` the first `split`.
    fn sum_min(&self, split: i64, low: i64, high: i64, cap: i64) -> i64 {
        let split = split.clamp(low, high);
        let small = at_rank(&self.sum, split) - at_rank(&self.sum, low);
        let large = at_rank(&self.count, high) - at_rank(&self.count, split);
        small + cap * large
    }
}

/// The documents whose key, non-decreasing along the ranking, is below a cap that never
/// falls from one call to the next.
struct Split<'a> {
    keys: &'a [i64],
    at: usize,
}

impl<'a> Split<'a> {
    fn of(keys: &'a [i64]) -> Split<'a> {
        Split { keys, at: 0 }
    }

    fn below(&mut self, cap: i64) -> i64 {
        while self.at < self.keys.len() && self.keys[self.at] < cap {
            self.at += 1;
        }
        self.at as i64
    }
}

/// `bpref` along both families.
pub fn values(c: &Completions, binary: &Binary) -> Vec<Pair> {
    let ranking = binary.ranking;
    let (rel, level) = (ranking.rel, binary.level);
    let (n, u) = (rel.len() as i64, ranking.u() as i64);
    let judged_low = i64::from(c.lowest >= 0); // an unjudged document given it is judged
    // J: the judged non-relevant documents at or above each document
    let above = running(rel, |r| r >= 0 && r < level);
    // N of a relevant document below every lowered one
    let reach: Vec<i64> = above
        .iter()
        .zip(&binary.ucum)
        .map(|(a, unjudged)| a + judged_low * unjudged)
        .collect();
    let either = Counted::of(
        |d| binary.relevant[d] || rel[d] == crate::judged::NONPOOL,
        &above,
    );
    let relevant = Counted::of(|d| binary.relevant[d], &reach);
    let total_relevant = at_rank(&binary.ocum, n);
    let rank_of = |t: i64| ranking.unjudged[t as usize] as i64 + 1;
    let num_nonrel = c.view.num_nonrel(ranking.index);
    let value = |k: i64, capped: i64, nonrelevant: i64, recall_base: i64| {
        let share = ratio(capped as f64, nonrelevant.min(recall_base) as f64);
        ratio((total_relevant + k) as f64 - share, recall_base as f64)
    };
    // the raised: the first k, the last of them at rank `boundary`
    let (mut raised, mut rest) = (Split::of(&above), Split::of(&reach));
    let prefix = (0..=u)
        .map(|k| {
            let recall_base = binary.recall_base(k as usize, false);
            let boundary = if k > 0 { rank_of(k - 1) } else { 0 };
            let offset = judged_low * k;
            let capped = either.sum_min(raised.below(recall_base), 0, boundary, recall_base)
                + relevant.sum_min(
                    rest.below(recall_base + offset),
                    boundary,
                    n,
                    recall_base + offset,
                )
                - offset * (total_relevant - at_rank(&binary.ocum, boundary));
            value(
                k,
                capped,
                num_nonrel + judged_low * (u - k + ranking.below),
                recall_base,
            )
        })
        .collect();
    // the lowered: the first u - k, the last of them at rank `last`
    let (mut lowered, mut rest) = (Split::of(&reach), Split::of(&above));
    let suffix = (0..=u)
        .map(|k| {
            let recall_base = binary.recall_base(k as usize, true);
            let down = u - k;
            let last = if down > 0 { rank_of(down - 1) } else { 0 };
            let offset = judged_low * down;
            let capped = relevant.sum_min(lowered.below(recall_base), 0, last, recall_base)
                + either.sum_min(
                    rest.below(recall_base - offset),
                    last,
                    n,
                    recall_base - offset,
                )
                + offset * (at_rank(&either.count, n) - at_rank(&either.count, last));
            value(k, capped, num_nonrel + judged_low * down, recall_base)
        })
        .collect();
    vec![Pair { prefix, suffix }]
}

#[cfg(test)]
mod tests {
    use super::super::Chain;
    use super::super::testing::*;

    #[test]
    fn chains_are_the_kernels_values_at_every_completion() {
        let mut rng = Rng(17);
        for _ in 0..100 {
            let case = Case::random(&mut rng, 3, 30);
            case.compare(&Chain::Bpref, "bpref", &[], &[], close);
        }
    }
}
