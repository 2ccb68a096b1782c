//! Recall and success at document cut-offs (trec_eval 9.0.8 m_recall.c, m_success.c).
//!
//! With `h(k)` the documents passing the relevance test (degree ≥ level) among the first
//! `k` retrieved (all of them when fewer were retrieved) and `R` the topic's relevant
//! documents:
//!
//! ```text
//! recall_k  = h(k) / R      (0 when R = 0)
//! success_k = 1 if h(k) > 0 else 0
//! ```

use super::Outputs;
use super::families::{Call, Family, Shape, measure};
use super::table::hit_columns;
use crate::judged::JudgedView;

/// This module's families (its lines of the engine's table, `measures::FAMILIES`).
pub const FAMILIES: &[Family] = &[
    measure("recall", recall, Shape::CUTOFFS),
    measure("success", success, Shape::CUTOFFS),
];

/// `recall_k` for each cut-off `k` of the call.
pub fn recall(call: &Call, jr: &JudgedView) -> Result<Outputs, String> {
    Ok(hit_columns(
        jr,
        "recall",
        &call.params.ints,
        true,
        |hits, _, num_rel| hits as f64 / num_rel as f64,
    ))
}

/// `success_k` for each cut-off `k` of the call.
pub fn success(call: &Call, jr: &JudgedView) -> Result<Outputs, String> {
    Ok(hit_columns(
        jr,
        "success",
        &call.params.ints,
        false,
        |hits, _, _| {
            if hits > 0 { 1.0 } else { 0.0 }
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judged::NONPOOL;
    use crate::measures::Values;
    use crate::measures::testing::outputs;

    #[test]
    fn recall_and_success_of_a_worked_example() {
        // R = 4; relevant at rank 2 of 3; the second topic has R = 0
        let jr = JudgedView {
            rel: &[0, 3, NONPOOL, 1],
            offsets: &[0, 3, 4],
            rel_levels: &[1, 4, 0, 0],
            degrees: &[0, 3],
            relevance_level: 1,
        };
        let r = outputs("recall", &[1, 5], &[], &jr);
        assert_eq!(r[0].1, Values::Float(vec![0.0, 0.0]));
        assert_eq!(r[1].1, Values::Float(vec![0.25, 0.0]));
        let s = outputs("success", &[1, 5], &[], &jr);
        assert_eq!(s[0].1, Values::Float(vec![0.0, 1.0]));
        assert_eq!(s[1].1, Values::Float(vec![1.0, 1.0]));
    }
}
