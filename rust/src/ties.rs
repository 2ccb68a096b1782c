//! The order of a topic's retrieved documents (`irscale.core.ranking`): the tie policies.
//!
//! * `trec_eval`: score descending, ties broken by docno descending in byte order
//!   (trec_eval's `form_res_rels.c`); trec_eval 9.0.8 keeps scores as C floats
//!   (`TEXT_RESULTS.sim` is a `float`), so scores equal in single precision tie; 10.0
//!   keeps doubles.
//! * `file-order`: score descending, ties in file order (NTCIREVAL, cwl_eval).
//! * `rank-column`: the file's rank column ascending, ties in file order.
//! * `expected`: trec_eval's order, the documents of equal scores forming tie groups
//!   ([`tie_groups`]) over whose orders the measures take their expectations
//!   (`crate::tie_aware`).

use crate::read::run::Run;
use crate::scales::radix;

/// A tie policy (`irscale.core.options.TIE_POLICIES`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ties {
    TrecEval,
    FileOrder,
    RankColumn,
    Expected,
}

impl Ties {
    /// The policy named `name` as the Python API names it.
    pub fn named(name: &str) -> Option<Ties> {
        match name {
            "trec_eval" => Some(Ties::TrecEval),
            "file-order" => Some(Ties::FileOrder),
            "rank-column" => Some(Ties::RankColumn),
            "expected" => Some(Ties::Expected),
            _ => None,
        }
    }
}

/// A key of a score (not NaN) that ascends as the score descends, equal exactly where
/// the scores are equal (`-0` and `+0` alike): the bits of a negative number as they are
/// (the most negative last), those of a positive one with all but the sign bit flipped.
fn descending_key(score: f64) -> u64 {
    let bits = (score + 0.0).to_bits();
    if bits >> 63 == 1 {
        bits
    } else {
        bits ^ (u64::MAX >> 1)
    }
}

/// [`descending_key`] of the score as a C float (trec_eval 9.0.8's comparison).
fn descending_c_float_key(score: f64) -> u64 {
    let bits = (score as f32 + 0.0).to_bits();
    u64::from(if bits >> 31 == 1 {
        bits
    } else {
        bits ^ (u32::MAX >> 1)
    })
}

/// The key `row` of `run` is ranked by (ascending): its rank column, or its score
/// descending (as a C float for `trec_eval` and `expected` unless `doubles`).
#[inline]
fn key(run: &Run, row: u32, ties: Ties, doubles: bool) -> u64 {
    let row = row as usize;
    match ties {
        Ties::RankColumn => (run.rank[row] as u64) ^ (1 << 63),
        Ties::TrecEval | Ties::Expected if !doubles => descending_c_float_key(run.score[row]),
        _ => descending_key(run.score[row]),
    }
}

/// The tie group of each row of `rows` (in ranking order, [`rank`]ed by `expected`): the
/// place in `rows` of the first row of its group, the rows of equal scores (compared as
/// [`rank`] compares them) forming one group.
pub fn tie_groups(rows: &[u32], run: &Run, doubles: bool) -> Vec<i64> {
    let mut groups = Vec::with_capacity(rows.len());
    let mut previous = None;
    for (at, &row) in rows.iter().enumerate() {
        let this = key(run, row, Ties::Expected, doubles);
        if previous.is_none_or(|(k, _)| k != this) {
            previous = Some((this, at as i64));
        }
        groups.push(previous.map_or(0, |(_, first)| first));
    }
    groups
}

/// `keyed` (pairs of a key and a row, rows ascending) sorted by key, ties in file order
/// (by row). For `trec_eval`, whose ties are then ordered by docno, keys within 2^32 of
/// one another (those of C floats, always) are radix-sorted on their offsets from the
/// least ([`radix::sort`], a few passes over the pairs instead of a comparison sort's
/// ten or so for a ranking of 1,000 documents), ties in any order; otherwise the pairs
/// are sorted whole (rows ascend in file order: ties stay in it).
fn sort_keyed(keyed: &mut [(u64, u32)], ties: Ties) {
    let (least, most) = keyed
        .iter()
        .fold((u64::MAX, 0), |(lo, hi), &(k, _)| (lo.min(k), hi.max(k)));
    let span = most.saturating_sub(least);
    if ties != Ties::TrecEval || span > u64::from(u32::MAX) {
        keyed.sort_unstable();
        return;
    }
    for pair in keyed.iter_mut() {
        pair.0 -= least;
    }
    radix::sort(keyed, &mut Vec::new(), 64 - span.leading_zeros());
}

/// `rows` (one topic's rows of `run`, in file order) put in ranking order. `doubles`:
/// the `trec_eval` policy compares scores as doubles (trec_eval 10.0) rather than as C
/// floats (9.0.8).
///
/// The rows are ordered by key ([`sort_keyed`]: no comparison reads a docno); runs are
/// mostly written in ranking order, and when the keys already ascend in file order they
/// are not sorted at all. Then, for `trec_eval`, only the rows of equal keys are ordered
/// by docno, in one pass (docnos are distinct within a topic: the order is total, the
/// same as one sort by key and docno gives).
pub fn rank(rows: &mut [u32], run: &Run, ties: Ties, doubles: bool) {
    let ties = if ties == Ties::Expected {
        Ties::TrecEval
    } else {
        ties
    };
    let mut keyed: Vec<(u64, u32)> = rows
        .iter()
        .map(|&row| (key(run, row, ties, doubles), row))
        .collect();
    if !keyed.windows(2).all(|w| w[0] <= w[1]) {
        sort_keyed(&mut keyed, ties);
    }
    if ties == Ties::TrecEval {
        let by_docno = |a: &(u64, u32), b: &(u64, u32)| run.docno.get(b.1).cmp(run.docno.get(a.1));
        for tied in keyed.chunk_by_mut(|a, b| a.0 == b.0) {
            if tied.len() > 1 {
                tied.sort_unstable_by(by_docno);
            }
        }
    }
    for (slot, (_, row)) in rows.iter_mut().zip(keyed) {
        *slot = row;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::run::read;

    fn ranked(text: &[u8], ties: Ties, doubles: bool) -> Vec<u32> {
        let (texts, columns) = read(text, "r", true).unwrap();
        let run = columns.run(&texts);
        let mut rows: Vec<u32> = (0..run.score.len() as u32).collect();
        rank(&mut rows, &run, ties, doubles);
        rows
    }

    const RUN: &[u8] = b"1 Q0 a 3 1.0 r\n1 Q0 c 1 1.00000001 r\n1 Q0 b 2 1.0 r\n1 Q0 d 4 -0 r\n1 Q0 e 5 0 r\n1 Q0 f 0 -1e300 r\n";

    #[test]
    fn trec_eval_ties_scores_equal_as_c_floats() {
        // 1.00000001 is 1.0 as a C float: c, b, a by docno descending
        assert_eq!(ranked(RUN, Ties::TrecEval, false), [1, 2, 0, 4, 3, 5]);
        assert_eq!(ranked(RUN, Ties::TrecEval, true), [1, 2, 0, 4, 3, 5]);
        let doubles = b"1 Q0 a 1 1.00000001 r\n1 Q0 b 2 1.0 r\n";
        assert_eq!(ranked(doubles, Ties::TrecEval, false), [1, 0]);
        assert_eq!(ranked(doubles, Ties::TrecEval, true), [0, 1]);
    }

    #[test]
    fn rows_in_ranking_order_or_not() {
        // keys ascending in file order (ties ordered among themselves) or not
        let sorted = b"1 Q0 a 1 3 r\n1 Q0 b 2 2 r\n1 Q0 d 3 2 r\n1 Q0 c 4 2 r\n1 Q0 e 5 1 r\n";
        assert_eq!(ranked(sorted, Ties::TrecEval, false), [0, 2, 3, 1, 4]);
        assert_eq!(ranked(sorted, Ties::FileOrder, false), [0, 1, 2, 3, 4]);
        let shuffled = b"1 Q0 c 4 2 r\n1 Q0 e 5 1 r\n1 Q0 b 2 2 r\n1 Q0 a 1 3 r\n1 Q0 d 3 2 r\n";
        assert_eq!(ranked(shuffled, Ties::TrecEval, false), [3, 4, 0, 2, 1]);
        assert_eq!(ranked(shuffled, Ties::FileOrder, false), [3, 0, 2, 4, 1]);
        assert_eq!(ranked(shuffled, Ties::RankColumn, false), [3, 2, 4, 0, 1]);
    }

    #[test]
    fn file_order_and_rank_column_keep_ties_in_file_order() {
        assert_eq!(ranked(RUN, Ties::FileOrder, false), [1, 0, 2, 3, 4, 5]);
        assert_eq!(ranked(RUN, Ties::RankColumn, false), [5, 1, 2, 0, 3, 4]);
    }
}
