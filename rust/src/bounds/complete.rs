//! The completed rankings a bounds search evaluates with the measures' kernels: ranking `i`
//! with its unjudged documents given the highest grade (the first `k`, prefix family, or
//! the last `k`, suffix family) or the lowest, end to end.

use crate::judged::{JudgedView, NONPOOL, UNJUDGED};

/// The degree a completed ranking holds for a document given `grade`: the grade, or the
/// sentinel of a document the qrels give a negative grade.
pub fn code(grade: i64) -> i64 {
    if grade >= 0 { grade } else { UNJUDGED }
}

/// The completions `(ranking, suffix, k)` of `which` of the rankings of `view`, each
/// unjudged document given the grade `lowest` or `highest`, end to end: their degrees and
/// their offsets (or which one has fewer than `k` unjudged documents).
pub fn completed(
    view: &JudgedView,
    lowest: i64,
    highest: i64,
    which: &[(usize, bool, usize)],
) -> Result<(Vec<i64>, Vec<i64>), String> {
    let (low, high) = (code(lowest), code(highest));
    let mut offsets = Vec::with_capacity(which.len() + 1);
    offsets.push(0_i64);
    for &(i, _, _) in which {
        offsets.push(offsets[offsets.len() - 1] + view.ranking(i).len() as i64);
    }
    let mut rel = Vec::with_capacity(offsets[which.len()] as usize);
    for &(i, suffix, k) in which {
        let ranking = view.ranking(i);
        // the place from which the unjudged documents are raised, and up to which
        let u = ranking.iter().filter(|&&r| r == NONPOOL).count();
        if k > u {
            return Err(format!(
                "no completion {k} of ranking {i}: {u} unjudged documents"
            ));
        }
        let (first, stop) = if suffix { (u - k, u) } else { (0, k) };
        let mut t = 0;
        rel.extend(ranking.iter().map(|&r| {
            if r != NONPOOL {
                return r;
            }
            t += 1;
            if (first..stop).contains(&(t - 1)) {
                high
            } else {
                low
            }
        }));
    }
    Ok((rel, offsets))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_family_raises_its_unjudged_documents() {
        let view = JudgedView {
            rel: &[NONPOOL, 1, NONPOOL, NONPOOL, 0, NONPOOL],
            offsets: &[0, 4, 6],
            rel_levels: &[1, 1, 1, 1],
            degrees: &[0, 1],
            relevance_level: 1,
        };
        let which = [(0, false, 2), (0, true, 1), (1, true, 0)];
        let (rel, offsets) = completed(&view, -1, 2, &which).unwrap();
        assert_eq!(offsets, [0, 4, 8, 10]);
        assert_eq!(
            rel,
            [2, 1, 2, UNJUDGED, UNJUDGED, 1, UNJUDGED, 2, 0, UNJUDGED]
        );
        assert!(completed(&view, -1, 2, &[(1, false, 2)]).is_err());
    }
}
