//! The chains of `ndcg` (the degrees as gains) and `ndcg_cut`: the DCG plus the raised
//! documents' gain differences over their discounts; the ideal DCG from the grade counts
//! of the slot, each grade's block of the ideal ranking read off the cumulative discounts.

use super::{Completions, Pair, Ranking, ratio};

/// The grades of the batch's ideal rankings and their cumulative discounts.
#[derive(Debug)]
pub struct Tables {
    /// The positive grades, the judged ones and the two given, descending.
    grades: Vec<i64>,
    /// `discounts[j]`: `Σ_{i ≤ j} 1 / log2(i + 1)`, as deep as the deepest ideal ranking.
    discounts: Vec<f64>,
}

impl Tables {
    pub fn of(c: &Completions) -> Tables {
        let given = [c.lowest, c.highest];
        let mut grades: Vec<i64> = c.view.degrees.iter().chain(&given).copied().collect();
        grades.retain(|&g| g > 0);
        grades.sort_unstable_by(|a, b| b.cmp(a));
        grades.dedup();
        let deepest = (0..c.view.n_rankings())
            .map(|i| {
                let judged: i64 = c
                    .view
                    .degrees
                    .iter()
                    .zip(c.view.levels(i))
                    .filter(|(degree, _)| **degree > 0)
                    .map(|(_, count)| count)
                    .sum();
                judged + c.ranking(i).u() as i64 + c.below[i]
            })
            .max()
            .unwrap_or(0) as usize
            + 1;
        let mut discounts = Vec::with_capacity(deepest + 1);
        discounts.push(0.0);
        let mut sum = 0.0;
        for i in 1..=deepest {
            sum += 1.0 / ((i + 1) as f64).log2();
            discounts.push(sum);
        }
        Tables { grades, discounts }
    }

    /// The ideal DCG of the first `last` ranks for `counts` documents of each grade.
    fn ideal(&self, counts: &[i64], last: usize) -> f64 {
        let mut end = 0;
        let mut ideal = 0.0;
        for (&grade, &count) in self.grades.iter().zip(counts) {
            let first = end;
            end += count as usize;
            ideal +=
                grade as f64 * (self.discounts[end.min(last)] - self.discounts[first.min(last)]);
        }
        ideal
    }
}

/// The gain of a document given `grade` (its degree; a negative grade is unjudged).
fn gain(grade: i64) -> f64 {
    grade.max(0) as f64
}

/// Per cut-off (`i64::MAX`: none), both families' values.
pub fn values(c: &Completions, tables: &Tables, ranking: &Ranking, cuts: &[i64]) -> Vec<Pair> {
    let (rel, unjudged, u) = (ranking.rel, &ranking.unjudged, ranking.u());
    let grade_of = |grade: i64| tables.grades.iter().position(|&g| g == grade);
    let mut counts = vec![0_i64; tables.grades.len()];
    for (&degree, &count) in c.view.degrees.iter().zip(c.view.levels(ranking.index)) {
        if let Some(at) = grade_of(degree).filter(|_| degree > 0) {
            counts[at] += count;
        }
    }
    let discount = |d: usize| ((d + 2) as f64).log2(); // (rank d + 1)
    let (high, low) = (gain(c.highest), gain(c.lowest));
    cuts.iter()
        .map(|&cut| {
            let inside = |d: usize| (d as i64) < cut;
            let base: f64 = (0..rel.len())
                .filter(|&d| inside(d))
                .map(|d| {
                    let value = if rel[d] == crate::judged::NONPOOL {
                        low
                    } else {
                        gain(rel[d])
                    };
                    value / discount(d)
                })
                .sum();
            let step = |t: usize| {
                let d = unjudged[t];
                if inside(d) {
                    (high - low) / discount(d)
                } else {
                    0.0
                }
            };
            let last = cut.min(tables.discounts.len() as i64 - 1) as usize;
            let chain = |suffix: bool| -> Vec<f64> {
                let mut dcg = base;
                let mut slot = counts.clone();
                (0..=u)
                    .map(|k| {
                        if k > 0 {
                            dcg += step(if suffix { u - k } else { k - 1 });
                        }
                        let (n_high, n_low) = ranking.given(k, suffix);
                        slot.copy_from_slice(&counts);
                        for (grade, added) in [(c.highest, n_high), (c.lowest, n_low)] {
                            if let Some(at) = grade_of(grade).filter(|_| grade > 0) {
                                slot[at] += added;
                            }
                        }
                        ratio(dcg, tables.ideal(&slot, last))
                    })
                    .collect()
            };
            Pair {
                prefix: chain(false),
                suffix: chain(true),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::Chain;
    use super::super::testing::*;

    #[test]
    fn chains_are_the_kernels_values_at_every_completion() {
        let mut rng = Rng(3);
        for _ in 0..60 {
            let case = Case::random(&mut rng, 3, 30);
            case.compare(&Chain::Ndcg(vec![i64::MAX]), "ndcg", &[], &[], close);
            let cuts = [3, 10, 1];
            case.compare(&Chain::Ndcg(cuts.to_vec()), "ndcg_cut", &cuts, &[], close);
        }
    }
}
