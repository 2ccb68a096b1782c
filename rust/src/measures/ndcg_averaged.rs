//! nDCG averaged over R-levels and over relevant documents (trec_eval 9.0.8 m_Rndcg.c,
//! m_ndcg_rel.c; "experimental" measures, unchanged in 10.0).
//!
//! `DCG@k` is the DCG of the first `min(k, n)` retrieved documents, `IDCG@k` that of the
//! first `min(k, K)` documents of trec_eval's ideal ranking ([`Ideal`]).
//!
//! **Rndcg**: the mean of `DCG@c / IDCG@c` over the R-levels `c` (1 ≤ c ≤ K: the cut-offs
//! after which the ideal gain changes, `c = K` included), plus `DCG@n / IDCG@K` when
//! `K + 1 < n` (trec_eval's loop has consumed document `K + 1` when it tests for more); 0
//! when the topic has no relevant document (`R = 0`), `0 / 0` (NaN) when no point is made.
//!
//! **ndcg_rel**: with `P` the retrieved documents of positive gain,
//! `S = Σ_{i ∈ P} DCG@i / IDCG@min(i, K) + (K − |P|) · DCG@n / IDCG@K`,
//! `ndcg_rel = S / K` when `S > 0`, else 0 (IEEE arithmetic as in C: `+inf` when `K = 0`).

use super::families::{Call, Family, Shape, measure};
use super::gains::{Discounts, GainMap, Ideal, PerTopic, discount};
use super::{Outputs, Values, per_ranking};
use crate::judged::JudgedView;

/// This module's families (its lines of the engine's table, `measures::FAMILIES`).
pub const FAMILIES: &[Family] = &[
    measure("Rndcg", rndcg, Shape::GAINS),
    measure("ndcg_rel", ndcg_rel, Shape::GAINS),
];

/// A topic's R-levels: `(c, IDCG@c)` in increasing `c`, and its whole ideal DCG.
struct RLevels {
    points: Vec<(usize, f64)>,
    length: usize,
    total: f64,
}

impl RLevels {
    fn of(ideal: &Ideal) -> RLevels {
        let length = ideal.length as usize;
        let mut points = Vec::new();
        let (mut sum, mut previous) = (0.0, f64::NAN);
        for (j, gain) in ideal.gains().take(length).enumerate() {
            if j >= 1 && gain != previous {
                points.push((j, sum));
            }
            sum += gain / discount(j + 1);
            previous = gain;
        }
        if length >= 1 {
            points.push((length, sum));
        }
        RLevels {
            points,
            length,
            total: sum,
        }
    }
}

/// `Rndcg` with the gain map of the call's parameters.
pub fn rndcg(call: &Call, jr: &JudgedView) -> Result<Outputs, String> {
    let gains = GainMap::new(&call.params.gains);
    let discounts = Discounts::of(jr);
    let levels = PerTopic::build(jr, |levels| {
        RLevels::of(&Ideal::of(levels, jr.degrees, &gains))
    });
    let values = per_ranking(jr, |i| {
        if jr.num_rel(i) == 0 {
            return 0.0;
        }
        let ranking = jr.ranking(i);
        let topic = levels.of(i);
        let (mut dcg, mut read) = (0.0, 0);
        let mut advance = |to: usize, dcg: &mut f64| {
            while read < to {
                let gain = gains.gain(ranking[read]);
                if gain != 0.0 {
                    *dcg += gain / discounts.at(read + 1);
                }
                read += 1;
            }
        };
        let (mut sum, mut count) = (0.0, 0_usize);
        for &(cut, ideal_dcg) in &topic.points {
            advance(cut.min(ranking.len()), &mut dcg);
            sum += dcg / ideal_dcg;
            count += 1;
        }
        if topic.length >= 1 && topic.length + 1 < ranking.len() {
            advance(ranking.len(), &mut dcg);
            sum += dcg / topic.total;
            count += 1;
        }
        sum / count as f64
    });
    Ok(vec![("Rndcg".to_string(), Values::Float(values))])
}

/// `ndcg_rel` with the gain map of the call's parameters.
pub fn ndcg_rel(call: &Call, jr: &JudgedView) -> Result<Outputs, String> {
    let gains = GainMap::new(&call.params.gains);
    let discounts = Discounts::of(jr);
    let longest = (0..jr.n_rankings())
        .map(|i| jr.ranking(i).len())
        .max()
        .unwrap_or(0);
    let ideals = PerTopic::build(jr, |levels| {
        let ideal = Ideal::of(levels, jr.degrees, &gains);
        (ideal.dcg_prefix(longest), ideal.length, ideal.total_dcg())
    });
    let values = per_ranking(jr, |i| {
        let (prefix, length, ideal_dcg) = ideals.of(i);
        let (mut dcg, mut sum, mut positive) = (0.0, 0.0, 0_i64);
        for (j, &rel) in jr.ranking(i).iter().enumerate() {
            let gain = gains.gain(rel);
            if gain != 0.0 {
                dcg += gain / discounts.at(j + 1);
            }
            if gain > 0.0 {
                let depth = (j + 1).min(*length as usize);
                sum += dcg / if depth >= 1 { prefix[depth - 1] } else { 0.0 };
                positive += 1;
            }
        }
        sum += (length - positive) as f64 * dcg / ideal_dcg;
        if sum > 0.0 { sum / *length as f64 } else { 0.0 }
    });
    Ok(vec![("ndcg_rel".to_string(), Values::Float(values))])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judged::NONPOOL;
    use crate::measures::Params;
    use crate::measures::ndcg::dcg_of;
    use crate::measures::testing::run;

    /// The DCG of a ranking under the default gains.
    fn dcg(ranking: &[i64]) -> f64 {
        dcg_of(
            ranking,
            &GainMap::new(&[]),
            &Discounts::up_to(ranking.len()),
        )
    }

    fn values(outputs: Outputs) -> Vec<f64> {
        match outputs.into_iter().next() {
            Some((_, Values::Float(v))) => v,
            other => panic!("not floats: {other:?}"),
        }
    }

    #[test]
    fn rndcg_averages_at_the_r_levels_and_after_the_ideal_ranking() {
        // judged: a = 2, b = 1, c = 0; ideal gains 2, 1: R-levels 1 and 2 (K = 2)
        let jr = JudgedView {
            rel: &[2, 0, 1, 2, 0, NONPOOL, 1],
            offsets: &[0, 3, 7],
            rel_levels: &[1, 1, 1, 1, 1, 1],
            degrees: &[0, 1, 2],
            relevance_level: 1,
        };
        let idcg1 = 2.0;
        let idcg2 = 2.0 + 1.0 / 3f64.log2();
        // n = K + 1: no final point
        let first = (dcg(&[2]) / idcg1 + dcg(&[2, 0]) / idcg2) / 2.0;
        // n = K + 2: a final point DCG@n / IDCG
        let second =
            (dcg(&[2]) / idcg1 + dcg(&[2, 0]) / idcg2 + dcg(&[2, 0, NONPOOL, 1]) / idcg2) / 3.0;
        assert_eq!(
            values(run("Rndcg", &Params::default(), &jr).unwrap()),
            [first, second]
        );
    }

    #[test]
    fn rndcg_is_nan_without_ideal_gain_and_zero_without_relevant_documents() {
        let jr = JudgedView {
            rel: &[1, 0, NONPOOL],
            offsets: &[0, 3],
            rel_levels: &[1, 1],
            degrees: &[0, 1],
            relevance_level: 1,
        };
        let params = Params {
            gains: vec![(1, 0.0)],
            ..Params::default()
        };
        assert!(values(run("Rndcg", &params, &jr).unwrap())[0].is_nan());
        let unjudged = JudgedView {
            relevance_level: 2,
            ..jr
        };
        assert_eq!(values(run("Rndcg", &params, &unjudged).unwrap()), [0.0]);
    }

    #[test]
    fn ndcg_rel_averages_over_documents_of_positive_gain() {
        // judged 2, 1, 1; retrieved 1, x, 2: two of the K = 3 ideal documents retrieved
        let jr = JudgedView {
            rel: &[1, NONPOOL, 2],
            offsets: &[0, 3],
            rel_levels: &[0, 2, 1],
            degrees: &[0, 1, 2],
            relevance_level: 1,
        };
        let ideal = [2.0, 2.0 + 1.0 / 3f64.log2(), 2.0 + 1.0 / 3f64.log2() + 0.5];
        let final_dcg = dcg(&[1, NONPOOL, 2]);
        let sum = dcg(&[1]) / ideal[0] + final_dcg / ideal[2] + final_dcg / ideal[2];
        assert_eq!(
            values(run("ndcg_rel", &Params::default(), &jr).unwrap()),
            [sum / 3.0]
        );
        // a positive gain retrieved, an empty ideal ranking, a negative final DCG: +inf
        let jr = JudgedView {
            rel: &[NONPOOL, 1, 2],
            ..jr
        };
        let params = Params {
            gains: vec![(-1, 1.0), (1, -5.0), (2, 0.0)],
            ..Params::default()
        };
        assert_eq!(
            values(run("ndcg_rel", &params, &jr).unwrap()),
            [f64::INFINITY]
        );
    }
}
