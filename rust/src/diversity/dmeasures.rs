//! NTCIREVAL's D-measures (Sakai & Song, SIGIR 2011; Sakai 2014, eqs. 28, 11–14): graded
//! measures computed with the global gain GG of every document ([`super::global_gains`]),
//! against the topic's globally ideal list (GG*, R documents), at an optional cut-off `l`
//! (`None`: the whole ranking):
//!
//! ```text
//! D-nDCG@l = Σ_{r≤l} GG(r)/d(r) / Σ_{r≤min(l,R)} GG*(r)/d(r)
//! BR(r)    = (β·cg(r) + C(r)) / (β·cg*(min(r, R)) + r)       (blended ratio)
//! D-Q@l    = Σ_{r≤l, GG(r)>0} BR(r) / min(l, R)
//! D-P+@l   = (1/C(rp)) Σ_{r≤rp, GG(r)>0} BR(r)    (rp: first rank of the highest GG ≤ l)
//! D-nERR@l = ERR@l / ideal ERR@l,  ERR = Σ_r dsat(r−1)/r · GG(r)/(h + 1)
//! ```
//!
//! `d(r)` the discount of the caller's table (the catalogue's nDCG discount), `cg` the
//! cumulative global gain, `C(r)` the documents of positive GG up to `r`, `h` the topic's
//! highest global gain and `dsat(r)` the product of `1 − GG/(h + 1)` down to rank `r`.
//! A ratio whose denominator is 0 is 0 (a topic without relevant documents).

use super::global_gains::{IdealLists, Weights, run_gains};
use super::{Rankings, per_ranking, ratio_or_zero};

/// What every D-measure reads: the batch, its entries' gains, the weights and ideal lists.
pub struct Global<'a> {
    pub batch: &'a Rankings<'a>,
    pub entry_gain: &'a [f64],
    pub weights: &'a Weights<'a>,
    pub ideal: &'a IdealLists,
}

impl Global<'_> {
    fn gains(&self, i: usize, din: bool) -> Vec<(i64, f64)> {
        run_gains(self.batch, i, self.entry_gain, self.weights, din)
    }
}

fn within(rank: i64, cutoff: Option<i64>) -> bool {
    cutoff.is_none_or(|l| rank <= l)
}

/// D-nDCG@l (with `din`, DIN-nDCG@l: eq. 33); `discounts[r − 1]` is `d(r)` for every rank
/// of the batch and of the ideal lists.
pub fn d_ndcg(
    g: &Global,
    cutoff: Option<i64>,
    discounts: &[f64],
    din: bool,
) -> Result<Vec<f64>, String> {
    let depth = g.batch.max_length().max(g.ideal.max_length());
    if discounts.len() < depth {
        return Err(format!(
            "D-nDCG needs {depth} discounts, got {}",
            discounts.len()
        ));
    }
    Ok(per_ranking(g.batch, |i| {
        let dcg = g
            .gains(i, din)
            .into_iter()
            .filter(|&(rank, _)| within(rank, cutoff))
            .fold(0.0, |sum, (rank, gg)| {
                sum + gg / discounts[rank as usize - 1]
            });
        let ideal = g
            .ideal
            .of(g.batch.topic[i])
            .iter()
            .zip(1i64..)
            .filter(|&(_, rank)| within(rank, cutoff))
            .fold(0.0, |sum, (gg, rank)| {
                sum + gg / discounts[rank as usize - 1]
            });
        ratio_or_zero(dcg, ideal)
    }))
}

/// `(rank, GG, BR)` at every rank of positive global gain of ranking `i`.
fn blended(g: &Global, i: usize, beta: f64) -> Vec<(i64, f64, f64)> {
    let ideal = g.ideal.of(g.batch.topic[i]);
    let mut ideal_cg = Vec::with_capacity(ideal.len());
    let mut sum = 0.0;
    for &gg in ideal {
        sum += gg;
        ideal_cg.push(sum);
    }
    let mut cg = 0.0;
    g.gains(i, false)
        .into_iter()
        .zip(1i64..)
        .map(|((rank, gg), count)| {
            cg += gg;
            let depth = (rank as usize).min(ideal_cg.len());
            let br = (beta * cg + count as f64) / (beta * ideal_cg[depth - 1] + rank as f64);
            (rank, gg, br)
        })
        .collect()
}

/// D-Q@l.
pub fn d_q(g: &Global, cutoff: Option<i64>, beta: f64) -> Vec<f64> {
    per_ranking(g.batch, |i| {
        let total = blended(g, i, beta)
            .into_iter()
            .filter(|&(rank, _, _)| within(rank, cutoff))
            .fold(0.0, |sum, (_, _, br)| sum + br);
        let big_r = g.ideal.of(g.batch.topic[i]).len() as f64;
        ratio_or_zero(total, cutoff.map_or(big_r, |l| big_r.min(l as f64)))
    })
}

/// D-P+@l.
pub fn d_pplus(g: &Global, cutoff: Option<i64>, beta: f64) -> Vec<f64> {
    per_ranking(g.batch, |i| {
        let kept: Vec<(i64, f64, f64)> = blended(g, i, beta)
            .into_iter()
            .filter(|&(rank, _, _)| within(rank, cutoff))
            .collect();
        let top = kept
            .iter()
            .fold(f64::NEG_INFINITY, |top, &(_, gg, _)| top.max(gg));
        let Some(rp) = kept
            .iter()
            .find(|&&(_, gg, _)| gg == top)
            .map(|&(rank, _, _)| rank)
        else {
            return 0.0;
        };
        let (total, count) = kept
            .iter()
            .filter(|&&(rank, _, _)| rank <= rp)
            .fold((0.0, 0usize), |(sum, n), &(_, _, br)| (sum + br, n + 1));
        ratio_or_zero(total, count as f64)
    })
}

/// ERR over `(rank, GG)` pairs with stopping probability GG/(h + 1).
fn err(gains: impl Iterator<Item = (i64, f64)>, highest: f64) -> f64 {
    let mut dsat = 1.0;
    let mut sum = 0.0;
    for (rank, gg) in gains {
        let stop = gg / (highest + 1.0);
        sum += (dsat / rank as f64) * stop;
        dsat *= 1.0 - stop;
    }
    sum
}

/// D-nERR@l.
pub fn d_nerr(g: &Global, cutoff: Option<i64>) -> Vec<f64> {
    per_ranking(g.batch, |i| {
        let ideal = g.ideal.of(g.batch.topic[i]);
        let highest = ideal.iter().fold(0.0, |h: f64, &gg| h.max(gg));
        let own = err(
            g.gains(i, false)
                .into_iter()
                .filter(|&(rank, _)| within(rank, cutoff)),
            highest,
        );
        let best = err(
            ideal
                .iter()
                .zip(1i64..)
                .map(|(&gg, rank)| (rank, gg))
                .filter(|&(rank, _)| within(rank, cutoff)),
            highest,
        );
        ratio_or_zero(own, best)
    })
}

#[cfg(test)]
mod tests {
    use super::super::global_gains::tests::weights;
    use super::super::tests::intents;
    use super::*;

    // rank 2: intent 1 (level 1); rank 3: intents 0 (level 2) and 1 (level 1)
    // GG: rank 2 → 0.25, rank 3 → 1.75; ideal: 1.75, 0.25
    fn check(test: impl Fn(&Global)) {
        let s = intents();
        let batch =
            Rankings::new(&[3, 1], &[0, 1], &[0, 0, 0], &[2, 3, 3], &[1, 0, 1], &s).unwrap();
        let w = weights();
        let ideal = IdealLists::new(2, &[0, 0], &[2.0, 1.0, 0.0, 1.0], &w).unwrap();
        test(&Global {
            batch: &batch,
            entry_gain: &[1.0, 2.0, 1.0],
            weights: &w,
            ideal: &ideal,
        });
    }

    #[test]
    fn d_ndcg_divides_by_the_globally_ideal_list() {
        check(|g| {
            let d = [1.0, 2.0, 3.0];
            let value = (0.25 / 2.0 + 1.75 / 3.0) / (1.75 + 0.25 / 2.0);
            assert_eq!(d_ndcg(g, None, &d, false).unwrap(), [value, 0.0]);
            let at2 = (0.25 / 2.0) / (1.75 + 0.25 / 2.0);
            assert_eq!(d_ndcg(g, Some(2), &d, false).unwrap(), [at2, 0.0]);
            assert!(d_ndcg(g, None, &d[..2], false).is_err());
        });
    }

    #[test]
    fn d_q_and_d_pplus_blend_the_ratios() {
        check(|g| {
            let br2 = (0.25 + 1.0) / (2.0 + 2.0); // cg*(2) = 1.75 + 0.25
            let br3 = (2.0 + 2.0) / (2.0 + 3.0);
            assert_eq!(d_q(g, None, 1.0), [(br2 + br3) / 2.0, 0.0]);
            assert_eq!(d_q(g, Some(2), 1.0), [br2 / 2.0, 0.0]);
            // the highest gain first appears at rank 3
            assert_eq!(d_pplus(g, None, 1.0), [(br2 + br3) / 2.0, 0.0]);
            assert_eq!(d_pplus(g, Some(2), 1.0), [br2, 0.0]);
        });
    }

    #[test]
    fn d_nerr_cascades_the_global_gains() {
        check(|g| {
            let (s2, s3) = (0.25 / 2.75, 1.75 / 2.75);
            let own = s2 / 2.0 + ((1.0 - s2) / 3.0) * s3;
            let best = s3 + ((1.0 - s3) / 2.0) * s2;
            assert_eq!(d_nerr(g, None), [own / best, 0.0]);
        });
    }
}
