//! TREC runs `qid Q0 docno rank score runid` (`irscale.io.trec.read_run`): `Q0` is
//! ignored, and `rank` unless kept; scores are finite numbers; a document retrieved twice
//! for a topic is refused ([`refuse_duplicates`], after the run's warnings, as the Python
//! reader warns before it refuses).

use super::diagnose::Check;
use super::duplicates::first_duplicate;
use super::error::{Kind, ReadError};
use super::fields::{NOT_FINITE, NOT_NUMBER, parse_float, parse_integer};
use super::scan::{Format, Scan, pieces, record_bound, row_line, scan, verdict};
use super::topics::{Groups, Interner};
use rayon::prelude::*;
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
    pub docno: Docnos<'a>,
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

/// The docnos of a run, each named by where it starts in the text (8 bytes a row rather
/// than a slice's 16): a docno ends at the first blank, tab or line end after its start,
/// or, for docnos laid end to end ([`Docnos::bounded`]), where the next one starts.
pub struct Docnos<'a> {
    text: &'a [u8],
    starts: Vec<u64>,
    bounded: bool,
}

impl<'a> Docnos<'a> {
    /// Docnos laid end to end in `text`, row `r`'s at `starts[r]..starts[r + 1]`.
    pub fn bounded(text: &'a [u8], starts: Vec<u64>) -> Docnos<'a> {
        Docnos {
            text,
            starts,
            bounded: true,
        }
    }

    /// The docno of row `row`.
    pub fn get(&self, row: u32) -> &'a [u8] {
        let start = self.starts[row as usize] as usize;
        if self.bounded {
            return &self.text[start..self.starts[row as usize + 1] as usize];
        }
        let rest = &self.text[start..];
        let end = rest
            .iter()
            .position(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
            .unwrap_or(rest.len());
        &rest[..end]
    }
}

/// What the fast pass over one piece of a run's text found.
struct Part<'a> {
    topics: Interner<'a>,
    runids: Vec<&'a [u8]>,
    last_runid: &'a [u8],
    scan: Scan,
}

/// The rows of `piece` written to the columns from their start (`rank`: empty unless the
/// rank column is kept); `first`: the piece starts the text.
fn read_piece<'a>(
    text: &'a [u8],
    piece: &'a [u8],
    first: bool,
    topic: &mut [u32],
    docno: &mut [u64],
    score: &mut [f64],
    rank: &mut [i64],
) -> Part<'a> {
    let keep_rank = !rank.is_empty();
    let mut topics = Interner::default();
    let mut runids: Vec<&[u8]> = Vec::new();
    let mut seen_runids: FxHashSet<&[u8]> = FxHashSet::default();
    let mut last_runid: &[u8] = b"";
    let mut row = 0;
    let found = scan(piece, first, &FORMAT, |fields: &[&'a [u8]; 6]| {
        let Ok(value) = parse_float(fields[4]) else {
            return false;
        };
        if keep_rank {
            let Ok(r) = parse_integer(fields[3]) else {
                return false;
            };
            rank[row] = r;
        }
        topic[row] = topics.id(fields[0]);
        docno[row] = (fields[2].as_ptr() as usize - text.as_ptr() as usize) as u64;
        score[row] = value;
        if fields[5] != last_runid && seen_runids.insert(fields[5]) {
            runids.push(fields[5]);
        }
        last_runid = fields[5];
        row += 1;
        true
    });
    Part {
        topics,
        runids,
        last_runid,
        scan: found,
    }
}

/// The run of `data` (a file's text) named `source` in errors; `keep_rank` reads the rank
/// column (the `rank-column` tie policy). The text is parsed in pieces side by side, each
/// written into its share of the columns, then moved up behind the piece before it.
pub fn read<'a>(data: &'a [u8], source: &str, keep_rank: bool) -> Result<Run<'a>, ReadError> {
    let cut = pieces(data);
    let lines = record_bound(&cut, source, &FORMAT)?;
    let mut topic = vec![0u32; lines];
    let mut docno = vec![0u64; lines];
    let mut scores = vec![0f64; lines];
    let mut rank = vec![0i64; if keep_rank { lines } else { 0 }];
    let parts: Vec<Part> = {
        let (mut t, mut d, mut s, mut r) = (
            &mut topic[..],
            &mut docno[..],
            &mut scores[..],
            &mut rank[..],
        );
        let mut jobs = Vec::with_capacity(cut.len());
        for (number, &(piece, n)) in cut.iter().enumerate() {
            let (t1, rest) = std::mem::take(&mut t).split_at_mut(n);
            t = rest;
            let (d1, rest) = std::mem::take(&mut d).split_at_mut(n);
            d = rest;
            let (s1, rest) = std::mem::take(&mut s).split_at_mut(n);
            s = rest;
            let (r1, rest) = std::mem::take(&mut r).split_at_mut(if keep_rank { n } else { 0 });
            r = rest;
            jobs.push((number == 0, piece, t1, d1, s1, r1));
        }
        jobs.into_par_iter()
            .map(|(first, piece, t, d, s, r)| read_piece(data, piece, first, t, d, s, r))
            .collect()
    };
    let mut interner = Interner::default();
    let mut found = Scan::default();
    let mut runids: Vec<&[u8]> = Vec::new();
    let mut seen_runids: FxHashSet<&[u8]> = FxHashSet::default();
    let mut last_runid: &[u8] = b"";
    let (mut at, mut start) = (0, 0);
    for (&(_, n), part) in cut.iter().zip(&parts) {
        found.merge(&part.scan);
        if found.misfit {
            break;
        }
        let ids: Vec<u32> = part
            .topics
            .names
            .iter()
            .map(|name| interner.id(name))
            .collect();
        let rows = part.scan.rows;
        for i in 0..rows {
            topic[at + i] = ids[topic[start + i] as usize];
        }
        docno.copy_within(start..start + rows, at);
        scores.copy_within(start..start + rows, at);
        if keep_rank {
            rank.copy_within(start..start + rows, at);
        }
        for runid in &part.runids {
            if seen_runids.insert(runid) {
                runids.push(runid);
            }
        }
        if rows > 0 {
            last_runid = part.last_runid;
        }
        at += rows;
        start += n;
    }
    topic.truncate(at);
    docno.truncate(at);
    scores.truncate(at);
    rank.truncate(if keep_rank { at } else { 0 });
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
    let docno = Docnos {
        text: data,
        starts: docno,
        bounded: false,
    };
    drop(topic); // the groups say it now
    Ok(Run {
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

/// The error of a document that `run` (read from `data`) retrieves twice for a topic,
/// named as the Python reader names it; `Ok` when there is none.
pub fn refuse_duplicates(run: &Run, data: &[u8], source: &str) -> Result<(), ReadError> {
    let Some((first, second)) = first_duplicate(&run.groups, |row| run.docno.get(row)) else {
        return Ok(());
    };
    let topic = (0..run.topics.len())
        .find(|&t| run.groups.rows_of(t).any(|row| row == first))
        .map_or(&b""[..], |t| run.topics[t]);
    let (line, text) = row_line(data, second as usize);
    let mut error = ReadError::at(Kind::Duplicate, String::new(), source, line, text);
    error.details = vec![
        String::from_utf8_lossy(topic).into_owned(),
        String::from_utf8_lossy(run.docno.get(first)).into_owned(),
    ];
    Err(error)
}

/// How many scores a C float cannot hold (`warn_single_precision`), and the first's row.
pub fn c_float_losses(scores: &[f64]) -> Option<(usize, usize)> {
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
        assert_eq!(run.groups.rows_of(0).collect::<Vec<_>>(), [0, 1]);
        assert_eq!(run.score, [2.5, 1e300, 0.0]);
        assert_eq!(run.rank, [1, 2, 1]);
        assert_eq!(run.runids, [&b"a"[..], b"b"]);
        assert_eq!(run.last_runid, b"a");
        assert_eq!(run.beyond_c_float, Some((1, 1)));
    }

    #[test]
    fn pieces_read_as_one_text() {
        let mut text = Vec::new();
        for i in 0..500 {
            let line = format!(
                "t{} Q0 d{i} {i} {}.5 r{}\n\n",
                (i * 7) % 13,
                i % 17,
                i / 200
            );
            text.extend(line.as_bytes());
        }
        let run = read(&text, "r", true).unwrap();
        assert_eq!(run.score.len(), 500);
        let mut topic = vec![0; 500];
        for t in 0..run.topics.len() {
            run.groups
                .rows_of(t)
                .for_each(|row| topic[row as usize] = t);
        }
        for (i, &t) in topic.iter().enumerate() {
            assert_eq!(run.topics[t], format!("t{}", (i * 7) % 13).as_bytes());
            assert_eq!(run.docno.get(i as u32), format!("d{i}").as_bytes());
            assert_eq!(
                (run.rank[i], run.score[i]),
                (i as i64, (i % 17) as f64 + 0.5)
            );
        }
        assert_eq!(run.topics[..3], [&b"t0"[..], b"t7", b"t1"]);
        assert_eq!(run.runids, [&b"r0"[..], b"r1", b"r2"]);
        assert_eq!(run.last_runid, b"r2");
        let (line, text) = row_line(&text, 499);
        assert_eq!((line, text.as_str()), (999, "t9 Q0 d499 499 6.5 r2"));
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
        let data = b"1 Q0 d0 1 2 a\n2 Q0 d1 1 2 a\n2 Q0 d1 2 1 a\n";
        let run = read(data, "r", false).unwrap();
        let error = refuse_duplicates(&run, data, "r").err().unwrap();
        assert_eq!((error.kind, error.line), (Kind::Duplicate, Some(3)));
        assert_eq!(error.details, ["2", "d1"]);
    }
}
