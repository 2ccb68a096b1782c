//! Unjudged documents at cut-offs (trec_eval 10.0 m_unjudged.c, measure `unj`; not in
//! 9.0.8).
//!
//! `unj_k = |documents among the first k retrieved not judged| / k`, "not judged" meaning
//! outside the qrels or pooled with a negative degree; ranks beyond a shorter ranking count
//! as judged: `unj_k = (min(n, k) − judged documents at ranks ≤ k) / k`.

use super::Outputs;
use super::families::{Call, Family, Shape, measure};
use super::table::{cutoff_names, float_columns};
use crate::judged::{Cutoffs, JudgedView};

/// This module's families (its lines of the engine's table, `measures::FAMILIES`).
pub const FAMILIES: &[Family] = &[measure("unj", unjudged, Shape::CUTOFFS)];

/// `unj_k` for each cut-off `k` of the call.
pub fn unjudged(call: &Call, jr: &JudgedView) -> Result<Outputs, String> {
    let cutoffs = &call.params.ints;
    let sorted = Cutoffs::new(cutoffs);
    Ok(float_columns(jr, cutoff_names("unj", cutoffs), |i, row| {
        let ranking = jr.ranking(i);
        sorted.counts(
            ranking,
            |rel| rel < 0,
            |index, unjudged| row[index] = unjudged as f64 / cutoffs[index] as f64,
        );
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judged::{NONPOOL, UNJUDGED};
    use crate::measures::Values;
    use crate::measures::testing::outputs;

    #[test]
    fn unjudged_fraction_of_the_top_k() {
        let jr = JudgedView {
            rel: &[NONPOOL, 0, UNJUDGED, 3],
            offsets: &[0, 4],
            rel_levels: &[1, 1],
            degrees: &[0, 3],
            relevance_level: 1,
        };
        let unj = outputs("unj", &[1, 2, 10], &[], &jr);
        assert_eq!(unj[0].1, Values::Float(vec![1.0]));
        assert_eq!(unj[1].1, Values::Float(vec![0.5]));
        assert_eq!(unj[2].1, Values::Float(vec![0.2]));
    }
}
