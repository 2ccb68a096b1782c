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
use super::table::int_column;
use crate::judged::JudgedView;

/// The outputs of the counting family `family` (one of the six above).
pub fn compute(family: &str, jr: &JudgedView) -> Result<Outputs, String> {
    Ok(match family {
        "runid" => Vec::new(),
        "num_q" => int_column(jr, family, |_| 1),
        "num_ret" => int_column(jr, family, |i| jr.ranking(i).len() as i64),
        "num_rel" => int_column(jr, family, |i| jr.num_rel(i)),
        "num_rel_ret" => int_column(jr, family, |i| jr.num_rel_ret(i)),
        "num_nonrel_judged_ret" => int_column(jr, family, |i| {
            let judged = jr.ranking(i).iter().filter(|&&rel| rel >= 0).count() as i64;
            judged - jr.num_rel_ret(i)
        }),
        _ => return Err(format!("{family:?} is not a counting measure")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judged::{NONPOOL, UNJUDGED};
    use crate::measures::Values;

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
        let value = |family| compute(family, &jr).unwrap().remove(0).1;
        assert_eq!(value("num_q"), Values::Int(vec![1, 1]));
        assert_eq!(value("num_ret"), Values::Int(vec![6, 0]));
        assert_eq!(value("num_rel"), Values::Int(vec![3, 3]));
        assert_eq!(value("num_rel_ret"), Values::Int(vec![2, 0]));
        assert_eq!(value("num_nonrel_judged_ret"), Values::Int(vec![2, 0]));
        assert!(compute("runid", &jr).unwrap().is_empty());
    }
}
