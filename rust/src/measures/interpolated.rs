//! Interpolated precision at recall levels: iprec_at_recall, 11pt_avg (trec_eval 9.0.8
//! m_iprec_at_recall.c, m_11pt_avg.c; trec_eval 10.0 for compat 10).
//!
//! Interpolated precision at a rank is the best precision at that rank or below,
//! `IP(i) = max_{j ≥ i} c(j)/j`. A recall level `x` becomes a number of relevant documents
//!
//! ```text
//! 9.0.8:  m = (long)(x·R + 0.9)        10.0:  m = lround(x·R)
//! ```
//!
//! and the level's value is `IP` at the rank of the `m`-th relevant retrieved document.
//! The values come from trec_eval's reverse loop, reproduced as it is ([`interpolate`]):
//! from the last document up, while documents passing the test remain (`rel_so_far > 0`),
//! with `rel_so_far` starting at `num_rel_ret`; levels are assigned from the last one
//! given down, each when `rel_so_far` meets its count at a passing document; the levels
//! above `num_rel_ret` at the end of the list get 0, and those left when the loop ends the
//! best precision met (`num_rel_ret / n` when none was met: -nan, C's 0/0, for an empty
//! ranking). `11pt_avg` adds the values from the last level down and divides by their
//! number.

use super::Outputs;
use super::families::{Call, Count, Family, Shape, measure, part};
use super::table::{float_column, float_columns, number_names};
use crate::judged::JudgedView;

/// This module's families (its lines of the engine's table, `measures::FAMILIES`).
pub const FAMILIES: &[Family] = &[
    measure("iprec_at_recall", iprec_at_recall, Shape::NUMBERS),
    measure(
        "11pt_avg",
        eleven_point_average,
        Shape::numbers(Count::between(1, None)),
    ),
    part("iprec_at_tenths", iprec_at_tenths, Shape::CUTOFFS),
];

/// The NaN of C's `0.0 / 0.0` on x86-64 (sign bit set; printed `-nan`).
const C_NAN: f64 = f64::from_bits(0xfff8_0000_0000_0000);

/// `numerator / denominator` as trec_eval divides on x86-64 (`0 / 0` is [`C_NAN`]).
fn c_divide(numerator: f64, denominator: f64) -> f64 {
    if numerator == 0.0 && denominator == 0.0 {
        C_NAN
    } else {
        numerator / denominator
    }
}

/// The count of relevant documents for recall level `x` of a topic with `R` relevant
/// documents under the `compat` profile.
fn level_count(x: f64, num_rel: i64, compat: u8) -> i64 {
    let product = x * num_rel as f64;
    if compat >= 10 {
        product.round() as i64 // C's lround: halves away from zero
    } else {
        (product + 0.9).trunc() as i64 // C's (long)
    }
}

/// trec_eval's reverse loop over ranking `i` for `n_levels` levels, level `t` met by
/// `count(t)` relevant documents: calls `assign(t, value)` for each level it gives a value
/// to, from the last level down (the levels above `num_rel_ret` at the end of the list
/// get none: their value is 0).
pub fn interpolate(
    jr: &JudgedView,
    i: usize,
    n_levels: usize,
    count: impl Fn(usize) -> i64,
    mut assign: impl FnMut(usize, f64),
) {
    let ranking = jr.ranking(i);
    let num_rel_ret = jr.num_rel_ret(i);
    let mut current = n_levels;
    while current > 0 && count(current - 1) > num_rel_ret {
        current -= 1;
    }
    let mut best = c_divide(num_rel_ret as f64, ranking.len() as f64);
    let mut rel_so_far = num_rel_ret;
    let mut rank = ranking.len();
    while rank > 0 && rel_so_far > 0 {
        let precision = rel_so_far as f64 / rank as f64;
        if best < precision {
            best = precision;
        }
        if jr.is_relevant(ranking[rank - 1]) {
            while current > 0 && rel_so_far == count(current - 1) {
                assign(current - 1, best);
                current -= 1;
            }
            rel_so_far -= 1;
        }
        rank -= 1;
    }
    while current > 0 {
        assign(current - 1, best);
        current -= 1;
    }
}

/// `iprec_at_recall_x` for each recall level `x` of the call's numbers.
pub fn iprec_at_recall(call: &Call, jr: &JudgedView) -> Result<Outputs, String> {
    let (levels, compat) = (&call.params.floats, call.ctx.compat);
    Ok(float_columns(
        jr,
        number_names("iprec_at_recall", levels),
        |i, row| {
            let num_rel = jr.num_rel(i);
            let count = |t: usize| level_count(levels[t], num_rel, compat);
            interpolate(jr, i, levels.len(), count, |t, value| row[t] = value);
        },
    ))
}

/// `11pt_avg` over the recall levels of the call's numbers, in the order given: the values
/// added as the loop assigns them (from the last level down), divided by the number of
/// levels.
pub fn eleven_point_average(call: &Call, jr: &JudgedView) -> Result<Outputs, String> {
    let (levels, compat) = (&call.params.floats, call.ctx.compat);
    Ok(float_column(jr, "11pt_avg", |i| {
        let num_rel = jr.num_rel(i);
        let count = |t: usize| level_count(levels[t], num_rel, compat);
        let mut total = 0.0;
        interpolate(jr, i, levels.len(), count, |_, value| total += value);
        total / levels.len() as f64
    }))
}

/// Interpolated precision at recall `t/10` for each `t` of the call's cut-offs, a level met by the
/// first rank where `c(r) ≥ ⌈t·R/10⌉` (exact integers; Sakai 2014, eq. 7–8 and Ferro &
/// Maistro 2024, eq. 3, as irscale's `AP11`).
pub fn iprec_at_tenths(call: &Call, jr: &JudgedView) -> Result<Outputs, String> {
    let tenths = &call.params.ints;
    let names = tenths
        .iter()
        .map(|t| format!("iprec_at_tenths_{t}"))
        .collect();
    Ok(float_columns(jr, names, |i, row| {
        let num_rel = jr.num_rel(i);
        let count = |t: usize| (num_rel * tenths[t] + 9).div_euclid(10);
        interpolate(jr, i, tenths.len(), count, |t, value| row[t] = value);
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judged::NONPOOL;
    use crate::measures::Values;
    use crate::measures::testing::outputs;

    fn example() -> JudgedView<'static> {
        // R = 4; relevant at ranks 1, 3, 4 of 5: precision 1, 2/3, 3/4
        JudgedView {
            rel: &[1, 0, 1, 2, NONPOOL],
            offsets: &[0, 5, 5],
            rel_levels: &[6, 2, 2, 6, 2, 2],
            degrees: &[0, 1, 2],
            relevance_level: 1,
        }
    }

    #[test]
    fn interpolated_precision_of_a_worked_example() {
        let jr = example();
        // counts (long)(x·4 + 0.9): 0, 1, 2, 3, 4
        let out = outputs("iprec_at_recall", &[], &[0.0, 0.1, 0.5, 0.6, 1.0], &jr);
        let column = |t: usize| match &out[t].1 {
            Values::Float(v) => v.clone(),
            _ => unreachable!(),
        };
        assert_eq!(column(0)[0], 1.0);
        assert_eq!(column(1)[0], 1.0);
        assert_eq!(column(2)[0], 0.75);
        assert_eq!(column(3)[0], 0.75);
        assert_eq!(column(4)[0], 0.0);
        // the empty ranking: 0/0 at the levels it cannot miss
        assert_eq!(column(0)[1].to_bits(), C_NAN.to_bits());
        assert_eq!(column(1)[1], 0.0);
        // lround(0.5·4) = 2 under trec_eval 10
        assert_eq!(level_count(0.5, 4, 10), 2);
        assert_eq!(level_count(0.125, 4, 10), 1);
        assert_eq!(level_count(0.125, 4, 9), 1);
    }

    #[test]
    fn eleven_point_average_adds_from_the_last_level() {
        let jr = example();
        let out = outputs("11pt_avg", &[], &[0.0, 0.5, 1.0], &jr);
        let Values::Float(v) = &out[0].1 else {
            unreachable!()
        };
        assert_eq!(v[0], ((0.0 + 0.75) + 1.0) / 3.0);
        let tenths = outputs("iprec_at_tenths", &[0, 5, 10], &[], &jr);
        let Values::Float(ten) = &tenths[1].1 else {
            unreachable!()
        };
        assert_eq!(ten[0], 0.75);
    }
}
