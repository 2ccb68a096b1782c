//! The tie-aware ERR of irscale's `ERR`, `ERR@k` and `nERR@k` (`--ties expected`,
//! `irscale.measures.cascade`): the expectation of ERR over every order of the documents
//! of each tie group, each order equally likely, in closed form.
//!
//! ERR (Chapelle et al. 2009) is `Σ_r w(r)·R_r·Π_{i<r}(1 − R_i)`, `w(r) = 1/r` (0 beyond a
//! cut-off). The product over the documents of the groups above a group does not depend on
//! their order, so `E[ERR] = Σ_groups P_before·E_group`. In a group of `m` documents after
//! `s` others, `q` of them with `R > 0` (values `x = 1 − R`), the relevant documents take
//! a uniform `q`-subset of the group's ranks and, independently, a uniform order among
//! themselves; the first `l − 1` of them form a uniform subset, so:
//!
//! ```text
//! E_group = Σ_{l=1..q} f_l · (ē_{l−1} − ē_l)
//! f_l     = Σ_{p} w(s + p) · C(p − 1, l − 1)·C(m − p, q − l) / C(m, q)   (the l-th rank)
//! ē_k     = e_k(x) / C(q, k)      (normalised elementary symmetric polynomials)
//! ```
//!
//! `ē` by the recursion `ē_k ← ((n − k)/n)·ē_k + (k/n)·x_n·ē_{k−1}` (convex combinations
//! of values in [0, 1]: no overflow), `f_l` by products of the ratios of consecutive terms
//! ([`rank_means`]): `O(q·P)` operations for a group of `q` relevant documents and `P`
//! ranks that count (`w > 0`), whatever its non-relevant documents (a group of 5,000 tied
//! documents, 40 of them relevant: 200,000). A group holding one relevant document is
//! `R·` (the mean of `w` over its ranks).

use crate::judged::check_offsets;
use crate::measures::over_rankings;

/// Per ranking (`offsets`, as [`crate::judged::JudgedView`]'s): `E[ERR]` over the orders of
/// its tie groups (`groups`, one id per document, equal for consecutive documents of one
/// group), with `stop` the stopping probability `R` of each document and `w(r) = 1/r` up
/// to rank `depth` (all ranks: `None`), 0 beyond.
pub fn expected_err(
    stop: &[f64],
    groups: &[i64],
    offsets: &[i64],
    depth: Option<usize>,
) -> Result<Vec<f64>, String> {
    check_offsets(offsets, stop.len())?;
    if groups.len() != stop.len() {
        return Err("one tie group per document is needed".into());
    }
    let n = offsets.len() - 1;
    Ok(over_rankings(n, stop.len(), |i| {
        let (begin, end) = (offsets[i] as usize, offsets[i + 1] as usize);
        ranking_err(&stop[begin..end], &groups[begin..end], depth)
    }))
}

/// `E[ERR]` of one ranking: its stopping probabilities and tie groups in rank order.
fn ranking_err(stop: &[f64], groups: &[i64], depth: Option<usize>) -> f64 {
    let limit = depth.map_or(stop.len(), |depth| depth.min(stop.len()));
    let (mut total, mut before, mut start) = (0.0, 1.0, 0);
    let (mut relevant, mut x) = (Vec::new(), Vec::new());
    for chunk in groups.chunk_by(|a, b| a == b) {
        let (s, m) = (start, chunk.len());
        start += m;
        if s >= limit {
            break;
        }
        relevant.clear();
        relevant.extend(stop[s..s + m].iter().copied().filter(|&r| r > 0.0));
        x.clear();
        x.extend(relevant.iter().map(|r| 1.0 - r));
        let ranks = m.min(limit - s);
        let term = match relevant[..] {
            [] => continue,
            [r] => {
                let weights: f64 = (s + 1..=s + ranks).map(|rank| 1.0 / rank as f64).sum();
                r * weights / m as f64
            }
            _ => {
                let f = rank_means(m, x.len(), s, ranks);
                let e = elementary_means(&x, f.len());
                f.iter()
                    .enumerate()
                    .map(|(k, fk)| fk * (e[k] - e[k + 1]))
                    .sum()
            }
        };
        total += before * term;
        for &value in &x {
            before *= value;
        }
    }
    total
}

/// `ē_0 .. ē_most` of the values `x`: `e_k(x)/C(len(x), k)`, the mean of the product of
/// `k` of them taken at random (the module's recursion, `k` descending so that each step
/// reads the previous `ē_{k−1}`).
fn elementary_means(x: &[f64], most: usize) -> Vec<f64> {
    let mut means = vec![0.0; most + 1];
    means[0] = 1.0;
    for (n, &value) in (1_usize..).zip(x) {
        for k in (1..=n.min(most)).rev() {
            means[k] = ((n - k) as f64 * means[k] + k as f64 * value * means[k - 1]) / n as f64;
        }
    }
    means
}

/// `f_1 .. f_L`: the mean of `w(s + p) = 1/(s + p)` (`p` = 1..P, `P = ranks ≤ m`) at the
/// rank `p` of the l-th of `q` documents placed at random among `m` ranks, `L = min(q, P)`:
/// `P(l-th at l) = C(m − l, q − l)/C(m, q)` (`q/m`, then `× (q − l)/(m − l)`), then
/// `P(p + 1)/P(p) = p·(m − p − q + l)/((p − l + 1)·(m − p))`.
fn rank_means(m: usize, q: usize, s: usize, ranks: usize) -> Vec<f64> {
    let (m, q) = (m as i64, q as i64);
    let mut start = q as f64 / m as f64;
    (1..=q.min(ranks as i64))
        .map(|nth| {
            let (mut prob, mut total) = (start, 0.0);
            for p in nth..=ranks as i64 {
                total += 1.0 / (s as i64 + p) as f64 * prob;
                if p < ranks as i64 {
                    prob *= (p * (m - p - q + nth)) as f64 / ((p - nth + 1) * (m - p)) as f64;
                }
            }
            start *= if nth < m {
                (q - nth) as f64 / (m - nth) as f64
            } else {
                0.0
            };
            total
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tie_aware::tests::orders;

    /// Chapelle et al.'s ERR of the stopping probabilities `stops` in rank order, its first
    /// `depth` ranks.
    fn cascade(stops: &[f64], depth: Option<usize>) -> f64 {
        let (mut value, mut going) = (0.0, 1.0);
        for (rank, &r) in (1..).zip(stops.iter().take(depth.unwrap_or(usize::MAX))) {
            value += going * r / rank as f64;
            going *= 1.0 - r;
        }
        value
    }

    /// The mean of ERR over every order of the tie groups of one ranking.
    fn mean_over_orders(stop: &[f64], groups: &[i64], depth: Option<usize>) -> f64 {
        let index: Vec<i64> = (0..stop.len() as i64).collect();
        let all = orders(&index, groups);
        let values = all.iter().map(|order| {
            let stops: Vec<f64> = order.iter().map(|&d| stop[d as usize]).collect();
            cascade(&stops, depth)
        });
        values.sum::<f64>() / all.len() as f64
    }

    /// Small rankings (a generator of their own: no dependency): groups of up to 6
    /// documents, stopping probabilities from a table with zeros; every depth from 1 to
    /// past the end, and none.
    #[test]
    fn expectations_are_the_means_over_every_order() {
        let table = [0.0, 0.0, 0.1, 0.375, 0.5, 0.9, 1.0];
        let mut seed: u64 = 12345;
        let mut next = |bound: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 33) as usize) % bound
        };
        let (mut stop, mut groups, mut offsets) = (Vec::new(), Vec::new(), vec![0_i64]);
        for _ in 0..60 {
            let mut id = 0;
            let mut left = 2 + next(9);
            while left > 0 {
                let size = (1 + next(6)).min(left);
                for _ in 0..size {
                    stop.push(table[next(table.len())]);
                    groups.push(id);
                }
                id += 1;
                left -= size;
            }
            offsets.push(stop.len() as i64);
        }
        let longest = offsets.windows(2).map(|w| w[1] - w[0]).max().unwrap() as usize;
        for depth in (1..=longest + 1).map(Some).chain([None]) {
            let got = expected_err(&stop, &groups, &offsets, depth).unwrap();
            for (i, w) in offsets.windows(2).enumerate() {
                let (begin, end) = (w[0] as usize, w[1] as usize);
                let mean = mean_over_orders(&stop[begin..end], &groups[begin..end], depth);
                assert!(
                    (got[i] - mean).abs() < 1e-12,
                    "ranking {i} depth {depth:?}: {} {mean}",
                    got[i]
                );
            }
        }
    }

    #[test]
    fn one_group_by_hand() {
        // two documents tied at the top, R = 1/2 and 1/4: the mean of the two orders
        let by_hand = ((0.5 + 0.5 * 0.25 / 2.0) + (0.25 + 0.75 * 0.5 / 2.0)) / 2.0;
        let got = expected_err(&[0.5, 0.25], &[3, 3], &[0, 2], None).unwrap();
        assert!((got[0] - by_hand).abs() < 1e-15);
    }

    #[test]
    fn arrays_that_disagree_are_refused() {
        assert_eq!(
            expected_err(&[0.5], &[0, 0], &[0, 1], None).unwrap_err(),
            "one tie group per document is needed"
        );
        assert_eq!(
            expected_err(&[0.5], &[0], &[0, 2], None).unwrap_err(),
            "the last offset must be the number of documents"
        );
    }
}
