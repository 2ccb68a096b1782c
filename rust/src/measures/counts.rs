//! Counting measures: runid, num_q, num_ret, num_rel, num_rel_ret, num_nonrel_judged_ret
//! (trec_eval 9.0.8 m_runid.c, m_num_q.c, m_num_ret.c, m_num_rel.c, m_num_rel_ret.c,
//! m_num_nonrel_judged_ret.c).
//!
//! Per ranking, as int64: `num_q` = 1 (the summary adds them up), `num_ret` = n,
//! `num_rel` = R (judged documents with degree ≥ the level), `num_rel_ret` = the retrieved
//! ones among them, and `num_nonrel_judged_ret` = retrieved − not in the qrels − pooled
//! unjudged − relevant = the retrieved documents with 0 ≤ degree < the level. `runid` has
//! no per-ranking value (the run's id is printed by the summary).

use super::Outputs;
use super::families::{Call, Family, Shape, measure};
use super::table::int_column;
use crate::judged::JudgedView;

/// This module's families (its lines of the engine's table, `measures::FAMILIES`).
pub const FAMILIES: &[Family] = &[
    measure("runid", runid, Shape::NONE),
    measure("num_q", num_q, Shape::NONE),
    measure("num_ret", num_ret, Shape::NONE),
    measure("num_rel", num_rel, Shape::NONE),
    measure("num_rel_ret", num_rel_ret, Shape::NONE),
    measure("num_nonrel_judged_ret", num_nonrel_judged_ret, Shape::NONE),
];

/// `runid`: no value per ranking.
pub fn runid(_: &Call, _: &JudgedView) -> Result<Outputs, String> {
    Ok(Vec::new())
}

/// `num_q`: 1 per ranking.
pub fn num_q(_: &Call, jr: &JudgedView) -> Result<Outputs, String> {
    Ok(int_column(jr, "num_q", |_| 1))
}

/// `num_ret`: the documents retrieved.
pub fn num_ret(_: &Call, jr: &JudgedView) -> Result<Outputs, String> {
    Ok(int_column(jr, "num_ret", |i| jr.ranking(i).len() as i64))
}

/// `num_rel`: the topic's relevant documents.
pub fn num_rel(_: &Call, jr: &JudgedView) -> Result<Outputs, String> {
    Ok(int_column(jr, "num_rel", |i| jr.num_rel(i)))
}

/// `num_rel_ret`: the relevant judged documents retrieved.
pub fn num_rel_ret(_: &Call, jr: &JudgedView) -> Result<Outputs, String> {
    Ok(int_column(jr, "num_rel_ret", |i| jr.num_rel_ret(i)))
}

/// `num_nonrel_judged_ret`: the judged documents retrieved that are not relevant.
pub fn num_nonrel_judged_ret(_: &Call, jr: &JudgedView) -> Result<Outputs, String> {
    Ok(int_column(jr, "num_nonrel_judged_ret", |i| {
        let judged = jr.ranking(i).iter().filter(|&&rel| rel >= 0).count() as i64;
        judged - jr.num_rel_ret(i)
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judged::{NONPOOL, UNJUDGED};
    use crate::measures::Values;
    use crate::measures::testing::outputs;

    #[test]
    fn counts_of_a_worked_example() {
        // degrees 0, 1, 2 judged 3, 2, 1 times; the ranking: 2, -, 0, ., 1, 0
        let jr = JudgedView {
            rel: &[2, NONPOOL, 0, UNJUDGED, 1, 0],
            offsets: &[0, 6, 6],
            rel_levels: &[3, 2, 1, 3, 2, 1],
            degrees: &[0, 1, 2],
            relevance_level: 1,
        };
        let value = |family| outputs(family, &[], &[], &jr).remove(0).1;
        assert_eq!(value("num_q"), Values::Int(vec![1, 1]));
        assert_eq!(value("num_ret"), Values::Int(vec![6, 0]));
        assert_eq!(value("num_rel"), Values::Int(vec![3, 3]));
        assert_eq!(value("num_rel_ret"), Values::Int(vec![2, 0]));
        assert_eq!(value("num_nonrel_judged_ret"), Values::Int(vec![2, 0]));
        assert!(outputs("runid", &[], &[], &jr).is_empty());
    }
}
