//! Binary preference and inferred AP: bpref, gm_bpref, infAP (trec_eval 9.0.8 m_bpref.c,
//! m_gm_bpref.c, m_infap.c).
//!
//! Only judged documents count: one outside the qrels (`-1`) is skipped, one pooled but
//! unjudged (`-2`) is counted apart. A judged document is non-relevant when
//! `0 ≤ degree < level`, relevant otherwise. For the relevant retrieved documents `d`, in
//! rank order, with `N(d)` the judged non-relevant documents above `d`, `R` the topic's
//! relevant documents and `NR` its judged non-relevant ones:
//!
//! ```text
//! bpref = (1/R) Σ_d [ 1 − min(N(d), R) / min(NR, R) ]     (the term is 1 when N(d) = 0)
//! ```
//!
//! infAP (Yilmaz and Aslam, CIKM 2006) at a relevant document of 0-based index `j` in the
//! ranking, with `r`, `nr` and `u` the relevant (itself included), non-relevant and pooled
//! unjudged documents at indices ≤ j and ε = 0.00001:
//!
//! ```text
//! term = 1                                                                 if j = 0
//! term = 1/(j+1) + (j/(j+1)) · ((r−1+nr+u)/j) · ((r−1+ε)/(r−1+nr+2ε))      otherwise
//! infAP = (1/R) Σ term
//! ```
//!
//! Both sums are accumulated in rank order; `R = 0` leaves the sum undivided (0 unless a
//! level ≤ 0 makes judged documents relevant). gm_bpref is bpref under its own name.

use super::Outputs;
use super::families::{Call, Family, Shape, measure};
use super::table::float_column;
use crate::judged::{JudgedView, UNJUDGED};

/// This module's families (its lines of the engine's table, `measures::FAMILIES`).
pub const FAMILIES: &[Family] = &[
    measure("bpref", bpref, Shape::NONE),
    measure("gm_bpref", bpref, Shape::NONE),
    measure("infAP", infap, Shape::NONE),
];

/// trec_eval's INFAP_EPSILON.
const INFAP_EPSILON: f64 = 0.00001;

/// The sum of a ranking's terms divided by `R` (left as it is when `R = 0`).
fn over_num_rel(total: f64, num_rel: i64) -> f64 {
    if num_rel != 0 {
        total / num_rel as f64
    } else {
        total
    }
}

/// trec_eval's bpref of ranking `i`.
pub fn binary_preference(jr: &JudgedView, i: usize) -> f64 {
    let num_rel = jr.num_rel(i);
    let bound = jr.num_nonrel(i).min(num_rel) as f64;
    let mut nonrel_so_far = 0_i64;
    let mut total = 0.0;
    for &rel in jr.ranking(i) {
        if rel < 0 {
            continue;
        }
        if !jr.is_relevant(rel) {
            nonrel_so_far += 1;
        } else if nonrel_so_far > 0 {
            total += 1.0 - nonrel_so_far.min(num_rel) as f64 / bound;
        } else {
            total += 1.0;
        }
    }
    over_num_rel(total, num_rel)
}

/// trec_eval's infAP of ranking `i`.
pub fn inferred_ap(jr: &JudgedView, i: usize) -> f64 {
    let (mut rel_so_far, mut nonrel_so_far, mut unjudged_so_far) = (0_i64, 0_i64, 0_i64);
    let mut total = 0.0;
    for (j, &rel) in jr.ranking(i).iter().enumerate() {
        if rel < 0 {
            unjudged_so_far += i64::from(rel == UNJUDGED);
            continue;
        }
        if !jr.is_relevant(rel) {
            nonrel_so_far += 1;
            continue;
        }
        rel_so_far += 1;
        if j == 0 {
            total += 1.0;
        } else {
            let fj = j as f64;
            let r1 = rel_so_far - 1;
            total += 1.0 / (fj + 1.0)
                + (fj / (fj + 1.0))
                    * ((r1 + nonrel_so_far + unjudged_so_far) as f64 / fj)
                    * ((r1 as f64 + INFAP_EPSILON)
                        / ((r1 + nonrel_so_far) as f64 + 2.0 * INFAP_EPSILON));
        }
    }
    over_num_rel(total, jr.num_rel(i))
}

/// `bpref` or `gm_bpref` (the same values under the family's name).
pub fn bpref(call: &Call, jr: &JudgedView) -> Result<Outputs, String> {
    Ok(float_column(jr, call.family, |i| binary_preference(jr, i)))
}

/// `infAP`.
pub fn infap(_: &Call, jr: &JudgedView) -> Result<Outputs, String> {
    Ok(float_column(jr, "infAP", |i| inferred_ap(jr, i)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judged::NONPOOL;

    fn example() -> JudgedView<'static> {
        // R = 2, NR = 3; ranking: 0, 1, -, ., 1
        JudgedView {
            rel: &[0, 1, NONPOOL, UNJUDGED, 1],
            offsets: &[0, 5],
            rel_levels: &[3, 2],
            degrees: &[0, 1],
            relevance_level: 1,
        }
    }

    #[test]
    fn bpref_of_a_worked_example() {
        // each relevant document has one judged non-relevant above: 1 − 1/2 each
        assert_eq!(binary_preference(&example(), 0), (0.5 + 0.5) / 2.0);
    }

    #[test]
    fn infap_of_a_worked_example() {
        let eps = INFAP_EPSILON;
        // j = 1: r = 1, nr = 1, u = 0; j = 4: r = 2, nr = 1, u = 1
        let first = 1.0 / 2.0 + (1.0 / 2.0) * (1.0 / 1.0) * ((0.0 + eps) / (1.0 + 2.0 * eps));
        let second = 1.0 / 5.0 + (4.0 / 5.0) * (3.0 / 4.0) * ((1.0 + eps) / (2.0 + 2.0 * eps));
        assert_eq!(inferred_ap(&example(), 0), (first + second) / 2.0);
    }
}
