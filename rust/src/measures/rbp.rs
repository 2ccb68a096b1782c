//! Rank-biased precision and its residual (trec_eval 10.0 m_rbp.c, m_rbp_resid.c; Moffat &
//! Zobel, "Rank-biased precision for measurement of retrieval effectiveness", ACM TOIS
//! 27(1), 2008). With persistence `p`, ranks `i` from 1 and `n` retrieved documents:
//!
//! ```text
//! rbp       = (1 − p) Σ_{i=1..n} gain(d_i) · p^(i−1)
//! rbp_resid = p^n + (1 − p) Σ_{i: d_i not judged} p^(i−1)   if some d_i is not judged, else 0
//! ```
//!
//! *Gains of rbp*: the topic's gain table (the `level=gain` parameters, then gain `v` for
//! every other level `0 ≤ v < L`); when some entry lies outside [0, 1], every entry is
//! min-max normalised, `(g − min) / (max − min)`, per topic. Levels outside the table gain
//! 0. trec_eval 10.0 leaves `min` and `max` uninitialised; they are taken over the table's
//! entries here. Powers of `p` are formed by repeated multiplication, as trec_eval does.

use super::families::{Call, Count, Family, Shape, measure};
use super::gains::{GainMap, PerTopic, num_rel_levels};
use super::{Outputs, Values, per_ranking};
use crate::judged::JudgedView;

/// This module's families (its lines of the engine's table, `measures::FAMILIES`).
pub const FAMILIES: &[Family] = &[
    measure(
        "rbp",
        rbp,
        Shape::of(Count::NONE, Count::exactly(1), Count::ANY),
    ),
    measure("rbp_resid", rbp_resid, Shape::numbers(Count::exactly(1))),
];

/// A topic's rbp gain table, as far as document gains need it.
pub(crate) struct Table {
    num_levels: u64,
    /// `(min, max)` of the entries when they are normalised (some entry outside [0, 1]).
    normalised: Option<(f64, f64)>,
}

impl Table {
    pub(crate) fn of(num_levels: u64, gains: &GainMap) -> Table {
        let entries = gains.bounding_gains(num_levels);
        let least = entries.iter().copied().fold(f64::INFINITY, f64::min);
        let greatest = entries.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let outside = !entries.is_empty() && (least < 0.0 || greatest > 1.0);
        Table {
            num_levels,
            normalised: outside.then_some((least, greatest)),
        }
    }

    /// The gain of a document of relevance value `rel`.
    pub(crate) fn gain(&self, rel: i64, gains: &GainMap) -> f64 {
        let raw = match gains.given(rel) {
            Some(gain) => gain,
            None if rel >= 0 && (rel as u64) < self.num_levels => rel as f64,
            None => return 0.0,
        };
        match self.normalised {
            Some((least, greatest)) => (raw - least) / (greatest - least),
            None => raw,
        }
    }
}

/// `rbp` with persistence `p`, the call's one number, and the gain map of its parameters.
pub fn rbp(call: &Call, jr: &JudgedView) -> Result<Outputs, String> {
    let p = call.params.floats[0];
    let gains = GainMap::new(&call.params.gains);
    let tables = PerTopic::build(jr, |levels| {
        Table::of(num_rel_levels(levels, jr.degrees), &gains)
    });
    let values = per_ranking(jr, |i| {
        let table = tables.of(i);
        let (mut sum, mut weight) = (0.0, 1.0);
        for &rel in jr.ranking(i) {
            let gain = table.gain(rel, &gains);
            if gain != 0.0 {
                sum += gain * weight;
            }
            weight *= p;
        }
        (1.0 - p) * sum
    });
    Ok(vec![("rbp".to_string(), Values::Float(values))])
}

/// `rbp_resid` with persistence `p`, the call's one number.
pub fn rbp_resid(call: &Call, jr: &JudgedView) -> Result<Outputs, String> {
    let p = call.params.floats[0];
    let values = per_ranking(jr, |i| {
        let (mut sum, mut weight, mut unjudged) = (0.0, 1.0, false);
        for &rel in jr.ranking(i) {
            if rel < 0 {
                unjudged = true;
                sum += weight;
            }
            weight *= p;
        }
        if unjudged {
            weight + (1.0 - p) * sum
        } else {
            0.0
        }
    });
    Ok(vec![("rbp_resid".to_string(), Values::Float(values))])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judged::{NONPOOL, UNJUDGED};
    use crate::measures::Params;
    use crate::measures::testing::run;

    fn values(outputs: Result<Outputs, String>) -> Vec<f64> {
        match outputs.unwrap().into_iter().next() {
            Some((_, Values::Float(v))) => v,
            other => panic!("not floats: {other:?}"),
        }
    }

    fn with(p: f64, gains: &[(i64, f64)]) -> Params {
        Params {
            floats: vec![p],
            gains: gains.to_vec(),
            ..Params::default()
        }
    }

    #[test]
    fn rbp_normalises_tables_outside_the_unit_interval() {
        // judged 0/1/2: gains 0, .5, 1; judged 0/1: gains 0, 1
        let jr = JudgedView {
            rel: &[2, 0, NONPOOL, 1, 1, 1],
            offsets: &[0, 4, 6],
            rel_levels: &[3, 2, 2, 1, 4, 0],
            degrees: &[0, 1, 2],
            relevance_level: 1,
        };
        let expected = [
            (1.0 - 0.9) * (1.0 + 0.5 * (0.9 * 0.9 * 0.9)),
            (1.0 - 0.9) * (1.0 + 0.9),
        ];
        assert_eq!(values(run("rbp", &with(0.9, &[]), &jr)), expected);
        // a negative gain lifts level 0: 1 → -1, 0 → 0 becomes 1 → 0, 0 → 1
        let jr = JudgedView {
            rel: &[0, 1, NONPOOL],
            offsets: &[0, 3],
            rel_levels: &[1, 1],
            degrees: &[0, 1],
            relevance_level: 1,
        };
        assert_eq!(
            values(run("rbp", &with(0.9, &[(1, -1.0)]), &jr)),
            [1.0 - 0.9]
        );
        assert!(run("rbp", &Params::default(), &jr).is_err());
    }

    #[test]
    fn rbp_resid_is_zero_when_every_document_is_judged() {
        let jr = JudgedView {
            rel: &[1, NONPOOL, 0, UNJUDGED, 1, 0],
            offsets: &[0, 4, 6, 6],
            rel_levels: &[1, 1, 1, 1, 1, 1],
            degrees: &[0, 1],
            relevance_level: 1,
        };
        let p4 = 0.5 * 0.5 * 0.5 * 0.5;
        let expected = p4 + (1.0 - 0.5) * (0.5 + 0.5 * 0.5 * 0.5);
        assert_eq!(
            values(run("rbp_resid", &with(0.5, &[]), &jr)),
            [expected, 0.0, 0.0]
        );
    }
}
