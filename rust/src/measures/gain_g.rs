//! Gain measures binG and G (trec_eval 9.0.8 m_binG.c, m_G.c; "experimental", 4/10/2008;
//! unchanged in 10.0).
//!
//! **binG** (relevant: degree ≥ the relevance level `-l`):
//! `binG = (1/R) Σ_{relevant retrieved d} 1 / log2(2 + nonrel_before(d))`, with
//! `nonrel_before(d)` the retrieved documents above `d` that are not relevant; 0 when
//! `R = 0`.
//!
//! **G** (gains as ndcg, `g*_j` the `K` gains of trec_eval's ideal ranking [`Ideal`]):
//!
//! ```text
//! cost_j = g*_j if j ≤ K and g*_j ≥ 1, else 1
//! G = Σ_{i: gain_i ≠ 0} gain_i / log2(2 + Σ_{j≤i} cost_j − Σ_{j≤i} gain_j)  /  Σ_j g*_j
//! ```
//!
//! and 0 when the ideal gains sum to 0; the running sums are trec_eval's, rank by rank.

use super::families::{Call, Family, Shape, measure};
use super::gains::{Discounts, GainMap, Ideal, PerTopic};
use super::ndcg::ratio_or_zero;
use super::{Outputs, Values, per_ranking};
use crate::judged::JudgedView;

/// This module's families (its lines of the engine's table, `measures::FAMILIES`).
pub const FAMILIES: &[Family] = &[
    measure("binG", bin_g, Shape::NONE),
    measure("G", g, Shape::GAINS),
];

/// `binG` at the batch's relevance level.
pub fn bin_g(_: &Call, jr: &JudgedView) -> Result<Outputs, String> {
    let level = jr.relevance_level;
    let discounts = Discounts::of(jr);
    let values = per_ranking(jr, |i| {
        let (mut sum, mut relevant) = (0.0, 0_usize);
        for (j, &rel) in jr.ranking(i).iter().enumerate() {
            if rel >= level {
                relevant += 1;
                // log2(2 + non-relevant above): the discount of rank 1 + non-relevant above
                sum += 1.0 / discounts.at(2 + j - relevant);
            }
        }
        ratio_or_zero(sum, jr.num_rel(i) as f64)
    });
    Ok(vec![("binG".to_string(), Values::Float(values))])
}

/// `G` with the gain map of the call's parameters.
pub fn g(call: &Call, jr: &JudgedView) -> Result<Outputs, String> {
    let gains = GainMap::new(&call.params.gains);
    let ideals = PerTopic::build(jr, |levels| {
        let ideal = Ideal::of(levels, jr.degrees, &gains);
        let total = ideal.total_gain();
        (ideal, total)
    });
    let values = per_ranking(jr, |i| {
        let (ideal, total) = ideals.of(i);
        let (mut so_far, mut cost, mut g) = (0.0, 0.0, 0.0);
        for (&rel, ideal_gain) in jr.ranking(i).iter().zip(ideal.gains()) {
            let gain = gains.gain(rel);
            so_far += gain;
            cost += if ideal_gain >= 1.0 { ideal_gain } else { 1.0 };
            if gain != 0.0 {
                g += gain / (2.0 + cost - so_far).log2();
            }
        }
        if *total > 0.0 { g / total } else { 0.0 }
    });
    Ok(vec![("G".to_string(), Values::Float(values))])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judged::{NONPOOL, UNJUDGED};
    use crate::measures::Params;
    use crate::measures::testing::{outputs, run};

    fn values(outputs: Outputs) -> Vec<f64> {
        match outputs.into_iter().next() {
            Some((_, Values::Float(v))) => v,
            other => panic!("not floats: {other:?}"),
        }
    }

    #[test]
    fn bin_g_discounts_by_the_non_relevant_documents_above() {
        // relevant at ranks 2 and 4, one then two non-relevant documents above; R = 3
        let jr = JudgedView {
            rel: &[0, 2, NONPOOL, 1, UNJUDGED],
            offsets: &[0, 5, 5],
            rel_levels: &[1, 2, 1, 0, 0, 0],
            degrees: &[0, 1, 2],
            relevance_level: 1,
        };
        let expected = (1.0 / 3f64.log2() + 1.0 / 4f64.log2()) / 3.0;
        assert_eq!(values(outputs("binG", &[], &[], &jr)), [expected, 0.0]);
    }

    #[test]
    fn g_compares_the_gain_so_far_with_the_ideal_cost() {
        // judged 2, 1; retrieved 1, x, 2: ideal gains 2, 1, costs 2, 1, 1
        let jr = JudgedView {
            rel: &[1, NONPOOL, 2],
            offsets: &[0, 3],
            rel_levels: &[0, 1, 1],
            degrees: &[0, 1, 2],
            relevance_level: 1,
        };
        let first = 1.0 / (2.0f64 + 2.0 - 1.0).log2();
        let third = 2.0 / (2.0f64 + 4.0 - 3.0).log2();
        assert_eq!(
            values(run("G", &Params::default(), &jr).unwrap()),
            [(first + third) / 3.0]
        );
        // fractional ideal gains cost 1 below 1
        let params = Params {
            gains: vec![(1, 0.5), (2, 3.5)],
            ..Params::default()
        };
        let first = 0.5 / (2.0f64 + 3.5 - 0.5).log2();
        let third = 3.5 / (2.0f64 + 5.5 - 4.0).log2();
        assert_eq!(
            values(run("G", &params, &jr).unwrap()),
            [(first + third) / 4.0]
        );
    }
}
