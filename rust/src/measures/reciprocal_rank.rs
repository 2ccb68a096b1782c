//! Reciprocal rank (trec_eval 9.0.8 m_recip_rank.c).
//!
//! `recip_rank = 1 / f`, `f` the rank of the first retrieved document whose degree is ≥
//! the relevance level; 0 when there is none.

use super::Outputs;
use super::families::{Call, Family, Shape, measure};
use super::table::float_column;
use crate::judged::JudgedView;

/// This module's families (its lines of the engine's table, `measures::FAMILIES`).
pub const FAMILIES: &[Family] = &[measure("recip_rank", reciprocal_rank, Shape::NONE)];

/// `recip_rank`.
pub fn reciprocal_rank(_: &Call, jr: &JudgedView) -> Result<Outputs, String> {
    Ok(float_column(jr, "recip_rank", |i| {
        match jr.ranking(i).iter().position(|&rel| jr.is_relevant(rel)) {
            Some(index) => 1.0 / (index + 1) as f64,
            None => 0.0,
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judged::{NONPOOL, UNJUDGED};
    use crate::measures::Values;
    use crate::measures::testing::outputs;

    #[test]
    fn reciprocal_rank_of_the_first_relevant_document() {
        let jr = JudgedView {
            rel: &[NONPOOL, UNJUDGED, 0, 2, 1, 0],
            offsets: &[0, 5, 6],
            rel_levels: &[1, 1, 1, 1, 1, 1],
            degrees: &[0, 1, 2],
            relevance_level: 1,
        };
        let expected = Values::Float(vec![0.25, 0.0]);
        assert_eq!(
            outputs("recip_rank", &[], &[], &jr),
            vec![("recip_rank".into(), expected)]
        );
        let lenient = JudgedView {
            relevance_level: -1,
            ..jr
        };
        assert_eq!(
            outputs("recip_rank", &[], &[], &lenient)[0].1,
            Values::Float(vec![1.0, 1.0])
        );
    }
}
