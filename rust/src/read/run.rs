//! TREC runs `qid Q0 docno rank score runid` (`irscale.io.trec.read_run`): `Q0` is
//! ignored, and `rank` unless kept; scores are finite numbers; a document retrieved twice
//! for a topic is refused.

use super::diagnose::Check;
use super::duplicates::first_duplicate;
use super::error::{Kind, ReadError};
use super::fields::{NOT_FINITE, NOT_NUMBER, parse_float, parse_integer};
use super::scan::{Format, row_line, scan, verdict};
use super::topics::{Groups, Interner};
use rustc_hash::FxHashSet;

/// The run format.
pub const FORMAT: Format = Format {
    what: "run",
    names: &["qid", "Q0", "docno", "rank", "score", "runid"],
    texts: &[0, 2, 5],
};

fn score(field: &str) -> Option<&'static str> {
    match parse_float(field.as_bytes()) {
        Err(_) => Some(NOT_NUMBER),
        Ok(value) if !value.is_finite() => Some(NOT_FINITE),
        Ok(_) => None,
    }
}

fn integer(field: &str) -> Option<&'static str> {
    parse_integer(field.as_bytes()).err()
}

/// A run read from a text: one row per retrieved document, in file order.
pub struct Run<'a> {
    pub topic: Vec<u32>,
    pub docno: Vec<&'a [u8]>,
    pub score: Vec<f64>,
    /// The rank column, when kept (empty otherwise).
    pub rank: Vec<i64>,
    /// The topic ids, numbered in order of first appearance.
    pub topics: Vec<&'a [u8]>,
    pub groups: Groups,
    /// The distinct run ids, in order of first appearance, and the last line's.
    pub runids: Vec<&'a [u8]>,
    pub last_runid: &'a [u8],
    /// Scores that are no C float (beyond ±3.4e38, or non-zero and below about 1e-45 in
    /// magnitude): how many, and the first one's row.
    pub beyond_c_float: Option<(usize, usize)>,
}

/// The run of `data` (a file's text) named `source` in errors; `keep_rank` reads the rank
/// column (the `rank-column` tie policy).
pub fn read<'a>(data: &'a [u8], source: &str, keep_rank: bool) -> Result<Run<'a>, ReadError> {
    let mut interner = Interner::default();
    let (mut topic, mut docno, mut scores, mut rank) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut runids: Vec<&[u8]> = Vec::new();
    let mut seen_runids: FxHashSet<&[u8]> = FxHashSet::default();
    let mut last_runid: &[u8] = b"";
    let found = scan(data, &FORMAT, |fields: &[&'a [u8]; 6]| {
        let Ok(value) = parse_float(fields[4]) else {
            return false;
        };
        if keep_rank {
            let Ok(r) = parse_integer(fields[3]) else {
                return false;
            };
            rank.push(r);
        }
        topic.push(interner.id(fields[0]));
        docno.push(fields[2]);
        scores.push(value);
        if fields[5] != last_runid && seen_runids.insert(fields[5]) {
            runids.push(fields[5]);
        }
        last_runid = fields[5];
        true
    });
    // the score is checked before the rank, as the Python reader's checks are ordered
    let checks: &[(usize, Check)] = if keep_rank {
        &[(4, score), (3, integer)]
    } else {
        &[(4, score)]
    };
    verdict(data, source, &FORMAT, checks, &found)?;
    if let Some(row) = scores.iter().position(|s| !s.is_finite()) {
        let (line, text) = row_line(data, row);
        return Err(ReadError::at(
            Kind::Format,
            format!("score {NOT_FINITE}"),
            source,
            line,
            text,
        ));
    }
    let beyond_c_float = c_float_losses(&scores);
    let groups = Groups::of(&topic, interner.names.len());
    if let Some((first, second)) = first_duplicate(&groups, &docno) {
        let (line, text) = row_line(data, second as usize);
        let mut error = ReadError::at(Kind::Duplicate, String::new(), source, line, text);
        error.details = vec![
            String::from_utf8_lossy(interner.names[topic[first as usize] as usize]).into_owned(),
            String::from_utf8_lossy(docno[first as usize]).into_owned(),
        ];
        return Err(error);
    }
    Ok(Run {
        topic,
        docno,
        score: scores,
        rank,
        topics: interner.names,
        groups,
        runids,
        last_runid,
        beyond_c_float,
    })
}

/// How many scores a C float cannot hold (`warn_single_precision`), and the first's row.
fn c_float_losses(scores: &[f64]) -> Option<(usize, usize)> {
    let lost = |s: &f64| {
        let single = *s as f32;
        single.is_infinite() || (single == 0.0 && *s != 0.0)
    };
    let first = scores.iter().position(lost)?;
    Some((scores[first..].iter().filter(|s| lost(s)).count(), first))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_run_ids_and_ranks() {
        let run = read(
            b"1 Q0 d1 1 2.5 a\n1 Q0 d2 2 1e300 b\n2 0 d1 1 -0 a\n",
            "r",
            true,
        )
        .unwrap();
        assert_eq!(run.topic, [0, 0, 1]);
        assert_eq!(run.score, [2.5, 1e300, 0.0]);
        assert_eq!(run.rank, [1, 2, 1]);
        assert_eq!(run.runids, [&b"a"[..], b"b"]);
        assert_eq!(run.last_runid, b"a");
        assert_eq!(run.beyond_c_float, Some((1, 1)));
    }

    #[test]
    fn faults_named_by_line() {
        let error = read(b"1 Q0 d1 1 2.5 a\n1 Q0 d2 2 inf a\n", "r", false)
            .err()
            .unwrap();
        assert_eq!(error.reason, format!("score {NOT_FINITE}"));
        assert_eq!(error.line, Some(2));
        let error = read(b"1 Q0 d1 x 2.5 a\n", "r", true).err().unwrap();
        assert_eq!(error.reason, "rank is not an integer");
        assert!(read(b"1 Q0 d1 x 2.5 a\n", "r", false).is_ok());
        let error = read(b"1 Q0 d1 1 2 a\n1 Q0 d1 2 1 a\n", "r", false)
            .err()
            .unwrap();
        assert_eq!((error.kind, error.details.len()), (Kind::Duplicate, 2));
    }
}
