//! The relevance string of the first retrieved documents (trec_eval 9.0.8 m_relstring.c).
//!
//! One character per document for the first `min((long) N, n)` documents (none for a
//! negative `N`): `0`–`9` the judged degree, `>` a degree above 9, `-` not in the qrels,
//! `.` pooled but unjudged, `<` any other negative value.

use super::families::{Call, Count, Family, Shape, measure};
use super::{Outputs, Values, per_ranking};
use crate::judged::{JudgedView, NONPOOL, UNJUDGED};

/// This module's families (its lines of the engine's table, `measures::FAMILIES`).
pub const FAMILIES: &[Family] = &[measure(
    "relstring",
    relstring,
    Shape::numbers(Count::exactly(1)),
)];

/// trec_eval's character for a relevance value.
fn character(rel: i64) -> char {
    match rel {
        10.. => '>',
        0..=9 => char::from(b'0' + rel as u8),
        NONPOOL => '-',
        UNJUDGED => '.',
        _ => '<',
    }
}

/// `relstring` of the first `N` documents, `N` C's `(long)` of the call's number.
pub fn relstring(call: &Call, jr: &JudgedView) -> Result<Outputs, String> {
    let shown = call.params.floats[0];
    let width = (shown.trunc() as i64).max(0) as usize;
    let strings = per_ranking(jr, |i| {
        jr.ranking(i)
            .iter()
            .take(width)
            .map(|&rel| character(rel))
            .collect::<String>()
    });
    Ok(vec![("relstring".to_string(), Values::Text(strings))])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measures::testing::outputs;

    #[test]
    fn one_character_per_document() {
        let jr = JudgedView {
            rel: &[1, NONPOOL, 0, UNJUDGED, 12, 2, -7],
            offsets: &[0, 7, 7],
            rel_levels: &[],
            degrees: &[],
            relevance_level: 1,
        };
        let text = |n| match outputs("relstring", &[], &[n], &jr).remove(0).1 {
            Values::Text(v) => v,
            _ => unreachable!(),
        };
        assert_eq!(text(10.0), ["1-0.>2<", ""]);
        assert_eq!(text(3.9), ["1-0", ""]);
        assert_eq!(text(-2.0), ["", ""]);
    }
}
