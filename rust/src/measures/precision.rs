//! Precision at document cut-offs: P, relative_P, Rprec, Rprec_mult (trec_eval 9.0.8
//! m_P.c, m_rel_P.c, m_Rprec.c, m_Rprec_mult.c).
//!
//! With `h(k)` the documents passing the relevance test (degree ≥ level) among the first
//! `k` retrieved (a shorter ranking is padded with non-relevant documents), `R` the topic's
//! relevant documents and `n` the number retrieved:
//!
//! ```text
//! P_k          = h(k) / k
//! relative_P_k = h(k) / min(k, R)                       (0 when R = 0)
//! Rprec        = h(min(n, R)) / R                       (0 when R = 0)
//! Rprec_mult_x = h'(c) / c   with c = (long)(x·R + 0.9)
//! ```
//!
//! For Rprec_mult, trec_eval's reverse loop (unchanged in 10.0) gives `num_rel_ret / c`
//! for a cut-off beyond the ranking (`c > n`); otherwise, for `c ≥ 1`, its running count
//! `h'(c) = num_rel_ret − (documents passing the test at ranks > c)`, which is `h(c)` for
//! any level ≥ 0, when `h'(c) > 0`, and 0 else.

use super::Outputs;
use super::families::{Call, Family, Shape, measure};
use super::table::{float_column, float_columns, hit_columns, number_names};
use crate::judged::JudgedView;

/// This module's families (its lines of the engine's table, `measures::FAMILIES`).
pub const FAMILIES: &[Family] = &[
    measure("P", precision, Shape::CUTOFFS),
    measure("relative_P", relative_precision, Shape::CUTOFFS),
    measure("Rprec", r_precision, Shape::NONE),
    measure("Rprec_mult", r_precision_multiples, Shape::NUMBERS),
];

/// `P_k` for each cut-off `k` of the call.
pub fn precision(call: &Call, jr: &JudgedView) -> Result<Outputs, String> {
    Ok(hit_columns(
        jr,
        "P",
        &call.params.ints,
        false,
        |hits, k, _| hits as f64 / k as f64,
    ))
}

/// `relative_P_k` for each cut-off `k` of the call.
pub fn relative_precision(call: &Call, jr: &JudgedView) -> Result<Outputs, String> {
    Ok(hit_columns(
        jr,
        "relative_P",
        &call.params.ints,
        true,
        |hits, k, num_rel| hits as f64 / k.min(num_rel) as f64,
    ))
}

/// The documents passing the relevance test among the first `k` of `ranking`.
fn hits_within(jr: &JudgedView, ranking: &[i64], k: i64) -> i64 {
    let depth = k.clamp(0, ranking.len() as i64) as usize;
    ranking[..depth]
        .iter()
        .filter(|&&rel| jr.is_relevant(rel))
        .count() as i64
}

/// `Rprec`.
pub fn r_precision(_: &Call, jr: &JudgedView) -> Result<Outputs, String> {
    Ok(float_column(jr, "Rprec", |i| {
        let num_rel = jr.num_rel(i);
        if num_rel == 0 {
            return 0.0;
        }
        let ranking = jr.ranking(i);
        hits_within(jr, ranking, num_rel) as f64 / num_rel as f64
    }))
}

/// `Rprec_mult_x` for each multiple `x` of R among the call's numbers.
pub fn r_precision_multiples(call: &Call, jr: &JudgedView) -> Result<Outputs, String> {
    let multiples = &call.params.floats;
    Ok(float_columns(
        jr,
        number_names("Rprec_mult", multiples),
        |i, row| {
            let ranking = jr.ranking(i);
            let n = ranking.len() as i64;
            let num_rel = jr.num_rel(i) as f64;
            let num_rel_ret = jr.num_rel_ret(i);
            let passing = hits_within(jr, ranking, n);
            for (value, &x) in row.iter_mut().zip(multiples) {
                let cut = (x * num_rel + 0.9).trunc() as i64; // C's (long)
                if cut > n {
                    *value = num_rel_ret as f64 / cut as f64;
                } else if cut >= 1 {
                    let at_cut = num_rel_ret - (passing - hits_within(jr, ranking, cut));
                    if at_cut > 0 {
                        *value = at_cut as f64 / cut as f64;
                    }
                }
            }
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judged::NONPOOL;
    use crate::measures::Values;
    use crate::measures::testing::outputs;

    fn example() -> JudgedView<'static> {
        // R = 3; relevant at ranks 1 and 3 of 4
        JudgedView {
            rel: &[2, 0, 1, NONPOOL],
            offsets: &[0, 4],
            rel_levels: &[1, 2, 1],
            degrees: &[0, 1, 2],
            relevance_level: 1,
        }
    }

    fn values(outputs: Outputs) -> Vec<f64> {
        outputs
            .into_iter()
            .map(|(_, v)| match v {
                Values::Float(v) => v[0],
                _ => unreachable!(),
            })
            .collect()
    }

    #[test]
    fn precision_at_cutoffs_pads_short_rankings() {
        let jr = example();
        assert_eq!(values(outputs("P", &[1, 2, 10], &[], &jr)), [1.0, 0.5, 0.2]);
        assert_eq!(
            values(outputs("relative_P", &[2, 10], &[], &jr)),
            [0.5, 2.0 / 3.0]
        );
        assert_eq!(values(outputs("Rprec", &[], &[], &jr)), [2.0 / 3.0]);
    }

    #[test]
    fn precision_at_multiples_of_r() {
        // cut-offs (long)(x·3 + 0.9): 1, 3, 6 (beyond the ranking: num_rel_ret / 6)
        let jr = example();
        assert_eq!(
            values(outputs("Rprec_mult", &[], &[0.2, 0.8, 1.8], &jr)),
            [1.0, 2.0 / 3.0, 2.0 / 6.0]
        );
    }
}
