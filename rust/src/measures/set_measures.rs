//! Measures of the retrieved set, regardless of order: set_P, set_recall, set_relative_P,
//! set_map, set_F, utility (trec_eval 9.0.8 m_set_P.c, m_set_recall.c, m_set_rel_P.c,
//! m_set_map.c, m_set_F.c, m_utility.c).
//!
//! With `n` documents retrieved, `r` of them relevant and judged (`num_rel_ret`), `R` the
//! topic's relevant documents and `N` the collection size (`-N`), in doubles:
//!
//! ```text
//! set_P          = r / n                        (0 when n = 0)
//! set_recall     = r / R                        (0 when R = 0)
//! set_relative_P = r / min(n, R)                (0 when n = 0 or R = 0)
//! set_map        = (r · r) / (n · R)            (0 when n = 0 or R = 0)
//! set_F          = (β+1)·P·Rc / (β·P + Rc)      P = r/n, Rc = r/R (0 when r = 0)
//! utility        = a·r + b·(n − r) + c·(R − r) + d·(N + r − n − R)
//! ```
//!
//! utility's integer differences are C `long` arithmetic (wrapping), then converted and
//! the four products added left to right.

use super::Outputs;
use super::families::{Call, Count, Family, Shape, measure};
use super::table::float_column;
use crate::judged::JudgedView;

/// This module's families (its lines of the engine's table, `measures::FAMILIES`).
pub const FAMILIES: &[Family] = &[
    measure("set_P", set_p, Shape::NONE),
    measure("set_recall", set_recall, Shape::NONE),
    measure("set_relative_P", set_relative_p, Shape::NONE),
    measure("set_map", set_map, Shape::NONE),
    measure("set_F", set_f, Shape::numbers(Count::exactly(1))),
    measure("utility", utility, Shape::numbers(Count::exactly(4))),
];

/// `(n, r, R)` of ranking `i`.
fn counts(jr: &JudgedView, i: usize) -> (i64, i64, i64) {
    (jr.ranking(i).len() as i64, jr.num_rel_ret(i), jr.num_rel(i))
}

/// `numerator / denominator`, 0 when the denominator is 0.
fn or_zero(numerator: f64, denominator: f64) -> f64 {
    if denominator != 0.0 {
        numerator / denominator
    } else {
        0.0
    }
}

/// The values `value(n, r, R)` of each ranking, named `family`.
fn of_counts(
    jr: &JudgedView,
    family: &str,
    value: impl Fn(i64, i64, i64) -> f64 + Sync + Send,
) -> Outputs {
    float_column(jr, family, |i| {
        let (n, r, big_r) = counts(jr, i);
        value(n, r, big_r)
    })
}

/// `set_P`.
pub fn set_p(_: &Call, jr: &JudgedView) -> Result<Outputs, String> {
    Ok(of_counts(jr, "set_P", |n, r, _| {
        or_zero(r as f64, n as f64)
    }))
}

/// `set_recall`.
pub fn set_recall(_: &Call, jr: &JudgedView) -> Result<Outputs, String> {
    Ok(of_counts(jr, "set_recall", |_, r, big_r| {
        or_zero(r as f64, big_r as f64)
    }))
}

/// `set_relative_P`.
pub fn set_relative_p(_: &Call, jr: &JudgedView) -> Result<Outputs, String> {
    Ok(of_counts(jr, "set_relative_P", |n, r, big_r| {
        or_zero(r as f64, n.min(big_r) as f64)
    }))
}

/// `set_map`.
pub fn set_map(_: &Call, jr: &JudgedView) -> Result<Outputs, String> {
    Ok(of_counts(jr, "set_map", |n, r, big_r| {
        let (r, n, big_r) = (r as f64, n as f64, big_r as f64);
        or_zero(r * r, n * big_r)
    }))
}

/// `set_F` with the weight `β` of recall, the call's one number.
pub fn set_f(call: &Call, jr: &JudgedView) -> Result<Outputs, String> {
    let beta = call.params.floats[0];
    Ok(of_counts(jr, "set_F", |n, r, big_r| {
        if r == 0 {
            return 0.0;
        }
        let precision = r as f64 / n as f64;
        let recall = r as f64 / big_r as f64;
        (beta + 1.0) * precision * recall / (beta * precision + recall)
    }))
}

/// `utility` with the call's four numbers, the coefficients `[a, b, c, d]`, and `-N`
/// documents in the collection.
pub fn utility(call: &Call, jr: &JudgedView) -> Result<Outputs, String> {
    let &[a, b, c, d] = call.params.floats.as_slice() else {
        return Err("utility takes 4 coefficients".into());
    };
    let num_docs_in_coll = call.ctx.num_docs_in_coll;
    Ok(of_counts(jr, "utility", |n, r, big_r| {
        let rest = num_docs_in_coll
            .wrapping_add(r)
            .wrapping_sub(n)
            .wrapping_sub(big_r);
        a * r as f64 + b * (n - r) as f64 + c * (big_r - r) as f64 + d * rest as f64
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judged::NONPOOL;
    use crate::measures::testing::outputs;
    use crate::measures::{Context, Params, Values, compute};

    fn example() -> JudgedView<'static> {
        // n = 4, r = 2, R = 3; the second ranking is empty
        JudgedView {
            rel: &[1, 0, 2, NONPOOL],
            offsets: &[0, 4, 4],
            rel_levels: &[5, 2, 1, 5, 2, 1],
            degrees: &[0, 1, 2],
            relevance_level: 1,
        }
    }

    fn first(outputs: Outputs) -> f64 {
        match &outputs[0].1 {
            Values::Float(v) => v[0],
            _ => unreachable!(),
        }
    }

    #[test]
    fn set_measures_of_a_worked_example() {
        let jr = example();
        let value = |family| first(outputs(family, &[], &[], &jr));
        assert_eq!(value("set_P"), 0.5);
        assert_eq!(value("set_recall"), 2.0 / 3.0);
        assert_eq!(value("set_relative_P"), 2.0 / 3.0);
        assert_eq!(value("set_map"), 4.0 / 12.0);
        let f1 = first(outputs("set_F", &[], &[1.0], &jr));
        assert_eq!(f1, 2.0 * 0.5 * (2.0 / 3.0) / (0.5 + 2.0 / 3.0));
        // 1·2 − 1·2 + 0·1 + 0.5·(100 + 2 − 4 − 3)
        let coefficients = Params {
            floats: vec![1.0, -1.0, 0.0, 0.5],
            ..Params::default()
        };
        let ctx = Context {
            compat: 9,
            num_docs_in_coll: 100,
        };
        let utility = compute("utility", &coefficients, &jr, &ctx).unwrap();
        assert_eq!(first(utility), 47.5);
        let empty = outputs("set_P", &[], &[], &jr);
        assert_eq!(empty[0].1, Values::Float(vec![0.5, 0.0]));
    }
}
