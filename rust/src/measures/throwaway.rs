#![cfg(test)]
//! A throw-away family, compiled for the tests only: the proof that a new trec_eval family is
//! one file of `src/measures/` (its kernel and its line, `FAMILIES`), named in `mod.rs` (its
//! module and its lines in the table) and dispatched by name through the engine's table
//! ([`super::compute`]), with no edit to any other file. `first_cut` is the number of documents retrieved up to the one cut-off.

use super::families::{Call, Count, Family, Shape, part};
use super::table::int_column;
use super::{Outputs, Params, Values, testing};
use crate::judged::JudgedView;

/// This module's family.
pub const FAMILIES: &[Family] = &[part(
    "first_cut",
    first_cut,
    Shape::of(Count::exactly(1), Count::NONE, Count::NONE),
)];

/// `first_cut`: `min(n, k)` for the one cut-off `k`.
fn first_cut(call: &Call, jr: &JudgedView) -> Result<Outputs, String> {
    let k = call.params.ints[0].max(0) as usize;
    Ok(int_column(jr, call.family, |i| {
        jr.ranking(i).len().min(k) as i64
    }))
}

/// Two rankings of two and one documents.
const JR: JudgedView = JudgedView {
    rel: &[1, 0, 2],
    offsets: &[0, 2, 3],
    rel_levels: &[],
    degrees: &[],
    relevance_level: 1,
};

#[test]
fn a_new_family_is_one_file_dispatched_by_name() {
    let got = testing::outputs("first_cut", &[1], &[], &JR);
    assert_eq!(got, vec![("first_cut".into(), Values::Int(vec![1, 1]))]);
    let got = testing::outputs("first_cut", &[5], &[], &JR);
    assert_eq!(got, vec![("first_cut".into(), Values::Int(vec![2, 1]))]);
}

#[test]
fn parameters_outside_its_line_are_refused() {
    let refused = |ints: &[i64], floats: &[f64]| {
        let params = Params {
            ints: ints.to_vec(),
            floats: floats.to_vec(),
            gains: Vec::new(),
        };
        testing::run("first_cut", &params, &JR).unwrap_err()
    };
    assert_eq!(
        refused(&[], &[]),
        "first_cut takes exactly 1 cut-off parameter(s), got 0"
    );
    assert_eq!(
        refused(&[1, 2], &[]),
        "first_cut takes exactly 1 cut-off parameter(s), got 2"
    );
    assert_eq!(
        refused(&[1], &[0.5]),
        "first_cut takes no number parameter(s), got 1"
    );
}
