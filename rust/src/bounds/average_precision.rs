//! The chains of `map` and `map_cut`: `S / R` with `S = Σ_{relevant i ≤ c} h(i) / i` (`h(i)`
//! the relevant documents of the first `i`, `c` the cut-off). Raising the unjudged document
//! at rank `p ≤ c` adds its own term `h(p) / p` and `1 / j` for every relevant document `j`
//! below it within the cut-off: in the prefix family `h(p)` counts the `k - 1` raised above
//! it, in the suffix family none, but every raised document below it is relevant too.

use super::{Binary, Pair, ratio};

/// Per cut-off (`i64::MAX`: none), both families' values.
pub fn values(binary: &Binary, cuts: &[i64]) -> Vec<Pair> {
    let ranking = binary.ranking;
    let (rel, unjudged) = (ranking.rel, &ranking.unjudged);
    let u = unjudged.len();
    cuts.iter()
        .map(|&cut| {
            let inside = |d: usize| (d as i64) < cut; // (rank d + 1 ≤ cut)
            let rank = |d: usize| (d + 1) as f64;
            let base: f64 = (0..rel.len())
                .filter(|&d| binary.relevant[d] && inside(d))
                .map(|d| binary.ocum[d] as f64 / rank(d))
                .sum();
            // per unjudged document: 1/j of the counted relevant documents below it, and
            // of the unjudged ones below it within the cut-off
            let mut below = vec![0.0; u];
            let mut raised_below = vec![0.0; u];
            let (mut relevant_sum, mut unjudged_sum) = (0.0, 0.0);
            let mut next = u;
            for d in (0..rel.len()).rev() {
                if next > 0 && unjudged[next - 1] == d {
                    next -= 1;
                    below[next] = relevant_sum;
                    raised_below[next] = unjudged_sum;
                    if inside(d) {
                        unjudged_sum += 1.0 / rank(d);
                    }
                } else if binary.relevant[d] && inside(d) {
                    relevant_sum += 1.0 / rank(d);
                }
            }
            let step = |t: usize, suffix: bool| {
                let d = unjudged[t];
                if !inside(d) {
                    return 0.0;
                }
                let own = binary.ocum[d] as f64;
                if suffix {
                    (own + 1.0) / rank(d) + below[t] + raised_below[t]
                } else {
                    (own + t as f64 + 1.0) / rank(d) + below[t]
                }
            };
            let chain = |suffix: bool| -> Vec<f64> {
                let mut sum = base;
                (0..=u)
                    .map(|k| {
                        if k > 0 {
                            sum += step(if suffix { u - k } else { k - 1 }, suffix);
                        }
                        ratio(sum, binary.recall_base(k, suffix) as f64)
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
        let mut rng = Rng(11);
        for _ in 0..60 {
            let case = Case::random(&mut rng, 3, 30);
            case.compare(
                &Chain::AveragePrecision(vec![i64::MAX]),
                "map",
                &[],
                &[],
                close,
            );
            let cuts = [3, 10, 1];
            case.compare(
                &Chain::AveragePrecision(cuts.to_vec()),
                "map_cut",
                &cuts,
                &[],
                close,
            );
        }
    }
}
