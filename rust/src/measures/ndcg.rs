//! nDCG, DCG, ideal DCG (trec_eval 9.0.8 m_ndcg.c; 10.0 adds dcg and ideal_dcg) and nDCG
//! at cut-offs (m_ndcg_cut.c).
//!
//! With `gain(d)` a document's gain ([`GainMap::gain`]) and ranks `i` from 1:
//!
//! ```text
//! DCG       = Σ_{i=1..n} gain(d_i) / log2(i + 1)        (every retrieved document)
//! ideal_DCG = Σ_{j=1..K} g*_j / log2(j + 1)             (trec_eval's ideal ranking)
//! ndcg      = DCG / ideal_DCG, 0 when ideal_DCG ≤ 0
//! ```
//!
//! `ndcg_cut_k` takes cut-offs only: gains are the relevance degrees, and
//! `ndcg_cut_k = DCG@k / ideal_DCG@k` (0 when `ideal_DCG@k = 0`), both over the first `k`
//! positions. Terms are added in rank order, zero gains skipped, as trec_eval's loops do.

use super::families::{Call, Family, Shape, measure};
use super::gains::{Discounts, GainMap, Ideal, PerTopic};
use super::{Outputs, Values, per_ranking};
use crate::judged::JudgedView;

/// This module's families (its lines of the engine's table, `measures::FAMILIES`).
pub const FAMILIES: &[Family] = &[
    measure("ndcg", ndcg, Shape::GAINS),
    measure("dcg", dcg, Shape::GAINS),
    measure("ideal_dcg", ideal_dcg, Shape::GAINS),
    measure("ndcg_cut", ndcg_cut, Shape::CUTOFFS),
];

/// The DCG of `ranking` (relevance values in rank order): `Σ gain / log2(rank + 1)`.
pub fn dcg_of(ranking: &[i64], gains: &GainMap, discounts: &Discounts) -> f64 {
    ranking.iter().enumerate().fold(0.0, |sum, (j, &rel)| {
        let gain = gains.gain(rel);
        if gain != 0.0 {
            sum + gain / discounts.at(j + 1)
        } else {
            sum
        }
    })
}

/// `numerator / denominator`, 0 when the denominator is 0 (trec_eval leaves the value 0).
pub fn ratio_or_zero(numerator: f64, denominator: f64) -> f64 {
    if denominator != 0.0 {
        numerator / denominator
    } else {
        0.0
    }
}

/// The ideal DCG of each topic of `jr` under `gains` (trec_eval's ideal ranking).
fn ideal_dcgs(jr: &JudgedView, gains: &GainMap) -> PerTopic<f64> {
    PerTopic::build(jr, |levels| {
        Ideal::of(levels, jr.degrees, gains).total_dcg()
    })
}

/// `ndcg` with the gain map of the call's parameters.
pub fn ndcg(call: &Call, jr: &JudgedView) -> Result<Outputs, String> {
    let gains = GainMap::new(&call.params.gains);
    let discounts = Discounts::of(jr);
    let ideal_dcg = ideal_dcgs(jr, &gains);
    let values = per_ranking(jr, |i| {
        let ideal = *ideal_dcg.of(i);
        if ideal > 0.0 {
            dcg_of(jr.ranking(i), &gains, &discounts) / ideal
        } else {
            0.0
        }
    });
    Ok(vec![("ndcg".to_string(), Values::Float(values))])
}

/// `dcg` with the gain map of the call's parameters.
pub fn dcg(call: &Call, jr: &JudgedView) -> Result<Outputs, String> {
    let gains = GainMap::new(&call.params.gains);
    let discounts = Discounts::of(jr);
    let values = per_ranking(jr, |i| dcg_of(jr.ranking(i), &gains, &discounts));
    Ok(vec![("dcg".to_string(), Values::Float(values))])
}

/// `ideal_dcg` with the gain map of the call's parameters.
pub fn ideal_dcg(call: &Call, jr: &JudgedView) -> Result<Outputs, String> {
    let ideal_dcg = ideal_dcgs(jr, &GainMap::new(&call.params.gains));
    let values = per_ranking(jr, |i| *ideal_dcg.of(i));
    Ok(vec![("ideal_dcg".to_string(), Values::Float(values))])
}

/// `ndcg_cut_k` for each cut-off `k` of the call's cut-offs (gains: the relevance degrees).
pub fn ndcg_cut(call: &Call, jr: &JudgedView) -> Result<Outputs, String> {
    let params = call.params;
    if params.ints.iter().any(|&k| k <= 0) || params.ints.is_empty() {
        return Err("ndcg_cut takes positive cut-offs".into());
    }
    let gains = GainMap::new(&[]);
    let discounts = Discounts::of(jr);
    let depth = params.ints.iter().copied().max().unwrap_or(0) as usize;
    let prefix = PerTopic::build(jr, |levels| {
        Ideal::of(levels, jr.degrees, &gains).dcg_prefix(depth)
    });
    // DCG@k of every cut-off in one pass over each ranking (cut-offs in increasing order)
    let mut order: Vec<usize> = (0..params.ints.len()).collect();
    order.sort_by_key(|&c| params.ints[c]);
    let rows = per_ranking(jr, |i| {
        let ranking = jr.ranking(i);
        let ideal = prefix.of(i);
        let mut values = vec![0.0; order.len()];
        let (mut dcg, mut read) = (0.0, 0);
        for &c in &order {
            let k = params.ints[c] as usize;
            for (j, &rel) in ranking.iter().enumerate().take(k).skip(read) {
                let gain = gains.gain(rel);
                if gain != 0.0 {
                    dcg += gain / discounts.at(j + 1);
                }
            }
            read = k.max(read);
            let ideal_k = ideal.get(k.min(ideal.len()).wrapping_sub(1));
            values[c] = ratio_or_zero(dcg, ideal_k.copied().unwrap_or(0.0));
        }
        values
    });
    let outputs = params
        .ints
        .iter()
        .enumerate()
        .map(|(c, k)| {
            let values = rows.iter().map(|row| row[c]).collect();
            (format!("ndcg_cut_{k}"), Values::Float(values))
        })
        .collect();
    Ok(outputs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judged::NONPOOL;
    use crate::measures::Params;
    use crate::measures::testing::run;

    fn floats(outputs: &Outputs, at: usize) -> &[f64] {
        match &outputs[at].1 {
            Values::Float(v) => v,
            other => panic!("not floats: {other:?}"),
        }
    }

    // ranking: x (not in qrels), 1, 2, 0; judged: one document each of degrees 0, 1, 2, 3
    const JR: JudgedView = JudgedView {
        rel: &[NONPOOL, 1, 2, 0],
        offsets: &[0, 4],
        rel_levels: &[1, 1, 1, 1],
        degrees: &[0, 1, 2, 3],
        relevance_level: 1,
    };

    #[test]
    fn ndcg_divides_dcg_by_the_ideal_dcg() {
        let dcg = 1.0 / 3f64.log2() + 2.0 / 2.0;
        let ideal = 3.0 + 2.0 / 3f64.log2() + 1.0 / 2.0;
        let params = Params::default();
        assert_eq!(floats(&run("dcg", &params, &JR).unwrap(), 0), [dcg]);
        assert_eq!(floats(&run("ideal_dcg", &params, &JR).unwrap(), 0), [ideal]);
        assert_eq!(
            floats(&run("ndcg", &params, &JR).unwrap(), 0),
            [dcg / ideal]
        );
        // a gain for documents outside the qrels
        let params = Params {
            gains: vec![(-1, 1.0)],
            ..Params::default()
        };
        assert_eq!(floats(&run("dcg", &params, &JR).unwrap(), 0), [1.0 + dcg]);
    }

    #[test]
    fn ndcg_cut_cuts_both_rankings() {
        let params = Params {
            ints: vec![2, 10],
            ..Params::default()
        };
        let outputs = run("ndcg_cut", &params, &JR).unwrap();
        assert_eq!(outputs[0].0, "ndcg_cut_2");
        let dcg2 = 1.0 / 3f64.log2();
        assert_eq!(floats(&outputs, 0), [dcg2 / (3.0 + 2.0 / 3f64.log2())]);
        let dcg = dcg2 + 2.0 / 2.0;
        let ideal = 3.0 + 2.0 / 3f64.log2() + 1.0 / 2.0;
        assert_eq!(floats(&outputs, 1), [dcg / ideal]);
        assert!(run("ndcg_cut", &Params::default(), &JR).is_err());
    }
}
