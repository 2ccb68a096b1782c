//! Average precision: map, gm_map, map_cut (trec_eval 9.0.8 m_map.c, m_gm_map.c,
//! m_map_cut.c).
//!
//! With `rel(i)` the relevance test `degree ≥ level` of the document at rank `i` and `c(i)`
//! the number of such documents at ranks `1..i`:
//!
//! ```text
//! S(k)      = Σ_{i ≤ k, rel(i)} c(i) / i      (added one document at a time, rank order)
//! map       = S(n) / R   if some retrieved document passes the test, else 0
//! map_cut_k = S(min(k, n)) / R                 (0 when R = 0)
//! ```
//!
//! `gm_map` is `map` per ranking (the summary takes the geometric mean). `map_cut_sum_k`
//! is `S(min(k, n))` itself, for averages with another divisor (NTCIREVAL's AP@l).

use super::Outputs;
use super::families::{Call, Family, Shape, measure, part};
use super::table::{cutoff_names, float_column, float_columns};
use crate::judged::{Cutoffs, JudgedView};

/// This module's families (its lines of the engine's table, `measures::FAMILIES`).
pub const FAMILIES: &[Family] = &[
    measure("map", map, Shape::NONE),
    measure("gm_map", map, Shape::NONE),
    measure("map_cut", map_cut, Shape::CUTOFFS),
    part("map_cut_sum", map_cut_sum, Shape::CUTOFFS),
];

/// trec_eval's AP of ranking `i` (`R = 0` with a passing document, possible with a level
/// ≤ -1 only, gives `S(n) / 0 = inf`, as in C).
pub fn average_precision(jr: &JudgedView, i: usize) -> f64 {
    let mut found = 0_i64;
    let mut sum = 0.0;
    for (index, &rel) in jr.ranking(i).iter().enumerate() {
        if jr.is_relevant(rel) {
            found += 1;
            sum += found as f64 / (index + 1) as f64;
        }
    }
    if found > 0 {
        sum / jr.num_rel(i) as f64
    } else {
        0.0
    }
}

/// `map` (or `gm_map`, the same values under its own name).
pub fn map(call: &Call, jr: &JudgedView) -> Result<Outputs, String> {
    Ok(float_column(jr, call.family, |i| average_precision(jr, i)))
}

/// `map_cut_k` for each cut-off `k`.
pub fn map_cut(call: &Call, jr: &JudgedView) -> Result<Outputs, String> {
    Ok(cut_sums("map_cut", &call.params.ints, jr, true))
}

/// `map_cut_sum_k`: the sums `S(min(k, n))` themselves, for each cut-off `k`.
pub fn map_cut_sum(call: &Call, jr: &JudgedView) -> Result<Outputs, String> {
    Ok(cut_sums("map_cut_sum", &call.params.ints, jr, false))
}

/// `S(min(k, n))` for each cut-off, divided by `R` (`divide`) or not, named `family_k`.
fn cut_sums(family: &str, cutoffs: &[i64], jr: &JudgedView, divide: bool) -> Outputs {
    let sorted = Cutoffs::new(cutoffs);
    float_columns(jr, cutoff_names(family, cutoffs), |i, row| {
        let num_rel = jr.num_rel(i);
        if divide && num_rel == 0 {
            return;
        }
        sorted.scan(
            jr.ranking(i),
            (0_i64, 0.0),
            |(found, sum), rank, rel| {
                if jr.is_relevant(rel) {
                    (found + 1, sum + (found + 1) as f64 / rank as f64)
                } else {
                    (found, sum)
                }
            },
            |index, (_, sum)| row[index] = if divide { sum / num_rel as f64 } else { sum },
        );
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judged::NONPOOL;
    use crate::measures::Values;
    use crate::measures::testing::outputs;

    fn example() -> JudgedView<'static> {
        // R = 3; relevant at ranks 1 and 3: S = 1/1 + 2/3
        JudgedView {
            rel: &[1, 0, 2, NONPOOL, NONPOOL],
            offsets: &[0, 5, 5],
            rel_levels: &[4, 2, 1, 4, 2, 1],
            degrees: &[0, 1, 2],
            relevance_level: 1,
        }
    }

    #[test]
    fn average_precision_of_a_worked_example() {
        let jr = example();
        let expected = (1.0 + 2.0 / 3.0) / 3.0;
        assert_eq!(
            outputs("map", &[], &[], &jr),
            vec![("map".into(), Values::Float(vec![expected, 0.0]))]
        );
        let cut = outputs("map_cut", &[2, 1, 10], &[], &jr);
        assert_eq!(cut[0].1, Values::Float(vec![1.0 / 3.0, 0.0]));
        assert_eq!(cut[1].1, Values::Float(vec![1.0 / 3.0, 0.0]));
        assert_eq!(cut[2].1, Values::Float(vec![expected, 0.0]));
        let sums = outputs("map_cut_sum", &[3], &[], &jr);
        assert_eq!(sums[0].1, Values::Float(vec![1.0 + 2.0 / 3.0, 0.0]));
    }

    #[test]
    fn a_negative_level_counts_documents_outside_the_qrels() {
        let jr = JudgedView {
            relevance_level: -1,
            ..example()
        };
        // every document passes; R = 7 judged documents
        let sum: f64 = (1..=5).map(|_| 1.0).sum();
        assert_eq!(average_precision(&jr, 0), sum / 7.0);
    }
}
