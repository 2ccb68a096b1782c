//! Novelty- and rank-biased precision (Clarke, Kolla & Vechtomova, ICTIR 2009), as ndeval
//! 4.5 computes it, and its normalisation by the greedy ideal ranking:
//!
//! ```text
//! NRBP  = (1 − (1 − α)β)/S · Σ_i score_i·β^{i−1}     (over the whole ranking)
//! nNRBP = NRBP / NRBP of the topic's greedy ideal ranking
//! ```
//!
//! `score_i` as in [`super::cascade`]; NRBP is 0 for a topic without intents, and nNRBP
//! is C's `0/0` (a NaN with its sign set, printed `-nan`) for a judged topic without
//! relevant documents and 0 for a topic the qrels do not judge, as ndeval prints them.

use super::cascade::position_scores;
use super::{Intents, Rankings, per_ranking, powers};

/// x86-64's default NaN, the value of C's `0.0 / 0.0`: sign bit set (`-nan`).
pub const C_NAN: f64 = f64::from_bits(0xfff8_0000_0000_0000);

/// NRBP of every ranking of `batch`.
pub fn nrbp(alpha: f64, beta: f64, batch: &Rankings, intents: &Intents) -> Vec<f64> {
    let gain = powers(1.0 - alpha, batch.max_entries() + 1);
    let decay = powers(beta, batch.max_length() + 1);
    per_ranking(batch, |i| {
        let s = intents.count(batch.topic[i]);
        if s <= 0 {
            return 0.0;
        }
        let total = position_scores(batch, i, intents.width, &gain)
            .into_iter()
            .fold(0.0, |sum, (rank, score)| {
                sum + score * decay[rank as usize - 1]
            });
        total * ((1.0 - (1.0 - alpha) * beta) / s as f64)
    })
}

/// nNRBP of every ranking of `batch` (ranking `t` of `ideal`: topic `t`'s ideal ranking).
pub fn nnrbp(
    alpha: f64,
    beta: f64,
    batch: &Rankings,
    ideal: &Rankings,
    intents: &Intents,
) -> Vec<f64> {
    let best = nrbp(alpha, beta, ideal, intents);
    let own = nrbp(alpha, beta, batch, intents);
    own.iter()
        .zip(batch.topic)
        .map(|(&value, &t)| {
            if t < 0 {
                0.0
            } else {
                c_divide(value, best[t as usize])
            }
        })
        .collect()
}

/// `numerator / denominator` as C divides doubles on x86-64: `0/0` is [`C_NAN`].
pub fn c_divide(numerator: f64, denominator: f64) -> f64 {
    let out = numerator / denominator;
    if out.is_nan() && !numerator.is_nan() && !denominator.is_nan() {
        C_NAN
    } else {
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::intents;
    use super::*;

    #[test]
    fn nrbp_decays_scores_by_rank() {
        let s = intents();
        let batch =
            Rankings::new(&[3, 2], &[0, 1], &[0, 0, 0], &[1, 1, 3], &[0, 1, 0], &s).unwrap();
        let value = (2.0 + 0.5 * 0.25) * ((1.0 - 0.5 * 0.5) / 2.0);
        assert_eq!(nrbp(0.5, 0.5, &batch, &s), [value, 0.0]);
        let values = nnrbp(0.5, 0.5, &batch, &batch, &s);
        assert_eq!(values[0], 1.0);
        // topic 1 has no relevant document: 0/0, printed -nan
        assert_eq!(values[1].to_bits(), C_NAN.to_bits());
    }
}
