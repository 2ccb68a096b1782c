//! TREC qrels `qid iter docno rel` (`irscale.io.trec.read_qrels`): `iter` is ignored,
//! `rel` an integer (negative: pooled, not judged); a pair judged twice is refused.

use super::diagnose::Check;
use super::duplicates::first_duplicate;
use super::error::{Kind, ReadError};
use super::fields::Format;
use super::fields::{parse_integer, python_space};
use super::limits::{Budget, filled, out_of_memory};
use super::scan::{Scan, pieces, record_bound, row_line, scan, verdict};
use super::topics::{Groups, Interner};
use rayon::prelude::*;

/// The qrels format.
pub const FORMAT: Format = Format {
    what: "qrels",
    names: &["qid", "iter", "docno", "rel"],
    texts: &[0, 2],
};

fn integer(field: &str) -> Option<&'static str> {
    parse_integer(field.as_bytes()).err()
}

/// The diagnosis' checks of a qrels line.
const CHECKS: [(usize, Check); 1] = [(3, integer)];

/// Qrels read from a text: one row per judgment, in file order, the text borrowed.
pub struct Qrels<'a> {
    /// The topic number of every row (see `topics`).
    pub topic: Vec<u32>,
    pub docno: Vec<&'a [u8]>,
    pub rel: Vec<i64>,
    /// The topic ids, numbered in order of first appearance.
    pub topics: Vec<&'a [u8]>,
    pub groups: Groups,
}

/// The rows of `piece` written to the columns from their start, and its topics and
/// fast pass; `first`: the piece starts the text.
fn read_piece<'a>(
    piece: &'a [u8],
    first: bool,
    topic: &mut [u32],
    docno: &mut [&'a [u8]],
    rel: &mut [i64],
) -> (Interner<'a>, Scan) {
    let mut topics = Interner::default();
    let mut row = 0;
    let found = scan(piece, first, &FORMAT, |fields: &[&'a [u8]; 4]| {
        let Ok(value) = parse_integer(fields[3]) else {
            return false;
        };
        topic[row] = topics.id(fields[0]);
        docno[row] = fields[2];
        rel[row] = value;
        row += 1;
        true
    });
    (topics, found)
}

/// The qrels of `data` (a file's text) named `source` in errors, parsed in pieces side by
/// side as runs are ([`super::run::read`]).
pub fn read<'a>(data: &'a [u8], source: &str) -> Result<Qrels<'a>, ReadError> {
    let cut = pieces(data);
    let lines = record_bound(&cut, source, &FORMAT)?;
    // reserved fallibly; charged by the caller, who knows what it keeps of them
    let unlimited = Budget::unlimited();
    let mut topic = filled(lines, 0u32, &mut unlimited.charge(), source)?;
    let mut docno = filled(lines, &b""[..], &mut unlimited.charge(), source)?;
    let mut rel = filled(lines, 0i64, &mut unlimited.charge(), source)?;
    let parts: Vec<(Interner, Scan)> = {
        let (mut t, mut d, mut r) = (&mut topic[..], &mut docno[..], &mut rel[..]);
        let mut jobs = Vec::with_capacity(cut.len());
        for (number, &(piece, n)) in cut.iter().enumerate() {
            let (t1, rest) = std::mem::take(&mut t).split_at_mut(n);
            t = rest;
            let (d1, rest) = std::mem::take(&mut d).split_at_mut(n);
            d = rest;
            let (r1, rest) = std::mem::take(&mut r).split_at_mut(n);
            r = rest;
            jobs.push((number == 0, piece, t1, d1, r1));
        }
        jobs.into_par_iter()
            .map(|(first, piece, t, d, r)| read_piece(piece, first, t, d, r))
            .collect()
    };
    let mut interner = Interner::default();
    let mut found = Scan::default();
    let (mut at, mut start) = (0, 0);
    for (&(_, n), (topics, part)) in cut.iter().zip(&parts) {
        found.merge(part);
        if found.misfit {
            break;
        }
        let ids: Vec<u32> = topics.names.iter().map(|name| interner.id(name)).collect();
        for i in 0..part.rows {
            topic[at + i] = ids[topic[start + i] as usize];
        }
        docno.copy_within(start..start + part.rows, at);
        rel.copy_within(start..start + part.rows, at);
        at += part.rows;
        start += n;
    }
    topic.truncate(at);
    docno.truncate(at);
    rel.truncate(at);
    verdict(data, source, &FORMAT, &CHECKS, &found)?;
    let groups = Groups::of(&topic, interner.names.len());
    let found = first_duplicate(&groups, |row| docno[row as usize])
        .map_err(|bytes| out_of_memory(source, bytes))?;
    if let Some((first, second)) = found {
        let (line, text) = row_line(data, second as usize);
        let (_, first_text) = row_line(data, first as usize);
        let second_field = |text: &str| {
            text.split(python_space)
                .filter(|f| !f.is_empty())
                .nth(1)
                .unwrap_or_default()
                .to_string()
        };
        let mut error = ReadError::at(Kind::Duplicate, String::new(), source, line, text);
        error.details = vec![
            String::from_utf8_lossy(interner.names[topic[first as usize] as usize]).into_owned(),
            String::from_utf8_lossy(docno[first as usize]).into_owned(),
            second_field(&first_text),
            second_field(error.text.as_deref().unwrap_or_default()),
        ];
        return Err(error);
    }
    Ok(Qrels {
        topic,
        docno,
        rel,
        topics: interner.names,
        groups,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn judgments_in_file_order() {
        let qrels = read(b"2 0 d1 1\n1 Q0 d7 +2.0\n\n2 0 d2 -1\r\n", "q").unwrap();
        assert_eq!(qrels.topic, [0, 1, 0]);
        assert_eq!(qrels.topics, [&b"2"[..], b"1"]);
        assert_eq!(qrels.docno, [&b"d1"[..], b"d7", b"d2"]);
        assert_eq!(qrels.rel, [1, 2, -1]);
    }

    #[test]
    fn faults_named_by_line() {
        let error = read(b"1 0 d1 1\n1 0 d2 1.5\n", "q").err().unwrap();
        assert_eq!(
            (error.reason.as_str(), error.line),
            ("rel is not an integer", Some(2))
        );
        let error = read(b"1 0 d1 1\n1 1 d1 0\n", "q").err().unwrap();
        assert_eq!((error.kind, error.line), (Kind::Duplicate, Some(2)));
        assert_eq!(error.details, ["1", "d1", "0", "1"]);
        let error = read(b"\n\n", "q").err().unwrap();
        assert_eq!(error.kind, Kind::Empty);
    }
}
