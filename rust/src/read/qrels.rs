//! TREC qrels `qid iter docno rel` (`irscale.io.trec.read_qrels`): `iter` is ignored,
//! `rel` an integer (negative: pooled, not judged); a pair judged twice is refused.

use super::diagnose::Check;
use super::duplicates::first_duplicate;
use super::error::{Kind, ReadError};
use super::fields::{parse_integer, python_space};
use super::scan::{Format, row_line, scan, verdict};
use super::topics::{Groups, Interner};

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

/// The qrels of `data` (a file's text) named `source` in errors.
pub fn read<'a>(data: &'a [u8], source: &str) -> Result<Qrels<'a>, ReadError> {
    let mut interner = Interner::default();
    let (mut topic, mut docno, mut rel) = (Vec::new(), Vec::new(), Vec::new());
    let found = scan(data, &FORMAT, |fields: &[&'a [u8]; 4]| {
        let Ok(value) = parse_integer(fields[3]) else {
            return false;
        };
        topic.push(interner.id(fields[0]));
        docno.push(fields[2]);
        rel.push(value);
        true
    });
    verdict(data, source, &FORMAT, &CHECKS, &found)?;
    let groups = Groups::of(&topic, interner.names.len());
    if let Some((first, second)) = first_duplicate(&groups, &docno) {
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
