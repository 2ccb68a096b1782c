//! Qrels and runs given as columns (`irscale.core.inputs.Qrels` and `Run`: Arrow string
//! arrays of topic ids and docnos, NumPy arrays of degrees, scores and ranks) laid out as
//! the TREC readers' columns, then judged as TREC files are ([`crate::trec`]). The strings
//! are read where Arrow keeps them: one row per entry of the columns, in their order (the
//! `file-order` tie policy keeps it for ties).

use crate::judge::{HELD_QRELS, Index, Options, judge_run_rows};
use crate::read::error::ReadError;
use crate::read::limits::Budget;
use crate::read::qrels::Qrels;
use crate::read::run::{Docnos, Run};
use crate::read::topics::{Groups, Interner};
use crate::ties::{Ties, rank};
use crate::trec::{Judgment, RunNotes, gathered};
use rayon::prelude::*;

/// Where the strings of an Arrow string array start and end in its data: 32-bit offsets
/// (`string`) or 64-bit (`large_string`).
#[derive(Clone, Copy)]
pub enum Offsets<'a> {
    Narrow(&'a [i32]),
    Wide(&'a [i64]),
}

/// An Arrow string array: string `i` is `data[offsets[i]..offsets[i + 1]]`.
#[derive(Clone, Copy)]
pub struct Strings<'a> {
    pub offsets: Offsets<'a>,
    pub data: &'a [u8],
}

impl<'a> Strings<'a> {
    /// The number of strings.
    pub fn len(&self) -> usize {
        let bounds = match self.offsets {
            Offsets::Narrow(o) => o.len(),
            Offsets::Wide(o) => o.len(),
        };
        bounds.saturating_sub(1)
    }

    /// Whether there is no string.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn bound(&self, i: usize) -> usize {
        match self.offsets {
            Offsets::Narrow(o) => o[i] as usize,
            Offsets::Wide(o) => o[i] as usize,
        }
    }

    /// String `i`.
    pub fn get(&self, i: usize) -> &'a [u8] {
        &self.data[self.bound(i)..self.bound(i + 1)]
    }

    /// Whether every offset lies in the data and none is below the one before.
    pub fn check(&self) -> Result<(), String> {
        let ordered = match self.offsets {
            Offsets::Narrow(o) => in_order(o, self.data.len()),
            Offsets::Wide(o) => in_order(o, self.data.len()),
        };
        if ordered {
            Ok(())
        } else {
            Err("string offsets out of order or beyond the data".into())
        }
    }
}

/// Whether `offsets` ascend (not strictly) from 0 or above and stay within `len`.
fn in_order<T: Copy + Into<i64>>(offsets: &[T], len: usize) -> bool {
    let mut before = 0i64;
    offsets.iter().all(|&o| {
        let o: i64 = o.into();
        let fits = o >= before && o as u64 <= len as u64;
        before = o;
        fits
    })
}

/// The topic ids of `topic`, numbered in order of first appearance, the number of every
/// row's and the rows grouped by topic.
fn grouped<'a>(topic: &Strings<'a>) -> (Vec<u32>, Vec<&'a [u8]>, Groups) {
    let mut interner = Interner::default();
    let ids: Vec<u32> = (0..topic.len())
        .map(|i| interner.id(topic.get(i)))
        .collect();
    let groups = Groups::of(&ids, interner.names.len());
    (ids, interner.names, groups)
}

/// The columns of qrels: one judgment per row.
pub struct QrelsColumns<'a> {
    pub topic: Strings<'a>,
    pub docno: Strings<'a>,
    pub rel: &'a [i64],
}

impl<'a> QrelsColumns<'a> {
    /// The columns as the TREC reader gives qrels.
    pub fn qrels(&self) -> Qrels<'a> {
        let (topic, topics, groups) = grouped(&self.topic);
        Qrels {
            topic,
            docno: (0..self.docno.len()).map(|i| self.docno.get(i)).collect(),
            rel: self.rel.to_vec(),
            topics,
            groups,
        }
    }

    /// Whether the columns agree with each other.
    pub fn check(&self) -> Result<(), String> {
        self.topic.check()?;
        self.docno.check()?;
        if self.topic.len() != self.rel.len() || self.docno.len() != self.rel.len() {
            return Err("qrels columns of different lengths".into());
        }
        Ok(())
    }
}

/// The columns of a run: one retrieved document per row; `rank` for the `rank-column`
/// tie policy.
pub struct RunColumns<'a> {
    pub topic: Strings<'a>,
    pub docno: Strings<'a>,
    pub score: &'a [f64],
    pub rank: Option<&'a [i64]>,
}

impl<'a> RunColumns<'a> {
    /// The columns as the TREC reader gives a run (no run ids: objects have none to say).
    pub fn run(&self) -> Run<'a> {
        let (_, topics, groups) = grouped(&self.topic);
        let starts = (0..=self.docno.len())
            .map(|i| self.docno.bound(i) as u64)
            .collect();
        Run {
            docno: Docnos::bounded(self.docno.data, starts),
            score: self.score.to_vec(),
            rank: self.rank.map(<[i64]>::to_vec).unwrap_or_default(),
            topics,
            groups,
            runids: Vec::new(),
            last_runid: b"",
            beyond_c_float: None,
        }
    }

    /// Whether the columns agree with each other (a rank column where the tie policy
    /// `ties` needs one).
    pub fn check(&self, ties: Ties) -> Result<(), String> {
        self.topic.check()?;
        self.docno.check()?;
        let n = self.score.len();
        if self.topic.len() != n || self.docno.len() != n || self.rank.is_some_and(|r| r.len() != n)
        {
            return Err("run columns of different lengths".into());
        }
        if ties == Ties::RankColumn && self.rank.is_none() {
            return Err("the rank-column tie policy needs a rank column".into());
        }
        Ok(())
    }
}

/// The judged rankings of every run against the qrels, and with `keep_rows` each run's
/// row of every judged document but the placeholders (in the order of the rankings); the
/// memory error of the qrels ([`HELD_QRELS`]) where their index or the batch cannot be
/// had ([`Index::build`], [`crate::judge::stack`]).
pub fn judge(
    qrels: &QrelsColumns,
    runs: &[RunColumns],
    options: &Options,
    keep_rows: bool,
) -> Result<(Judgment, Vec<Vec<u32>>), ReadError> {
    let read = qrels.qrels();
    let budget = Budget::unlimited();
    let mut charge = budget.charge();
    let index = Index::build(&read, &mut charge, HELD_QRELS)?;
    let mut judged: Vec<_> = runs
        .par_iter()
        .map(|columns| judge_run_rows(&index, &columns.run(), options, keep_rows))
        .collect();
    let rows = judged
        .iter_mut()
        .map(|one| std::mem::take(&mut one.rows))
        .collect();
    let notes = runs.iter().map(|_| RunNotes::default()).collect();
    let judgment = gathered(&index, judged, notes, &mut charge, HELD_QRELS)?;
    Ok((judgment, rows))
}

/// The degree of every pair (topic `codes[i]`, the code of a topic of `index` or -1 for
/// a topic without judgments; docno `docnos[doc[i]]`, or `docnos[i]` without `doc`):
/// the qrels' degree, `UNJUDGED` for a negative one, `NONPOOL` for a pair not in the
/// qrels.
pub fn pair_degrees(
    index: &Index,
    codes: &[i64],
    docnos: &Strings,
    doc: Option<&[i64]>,
) -> Vec<i64> {
    codes
        .par_iter()
        .enumerate()
        .map(|(i, &code)| {
            let row = doc.map_or(i, |d| d[i] as usize);
            match u32::try_from(code) {
                Ok(code) if (code as usize) < index.topics.len() => {
                    index.degree(code, docnos.get(row))
                }
                _ => crate::judged::NONPOOL,
            }
        })
        .collect()
}

/// The rows of `run` of the topics `topics` (a topic's code is its place there), by code,
/// each topic's in ranking order by the tie policy `ties` (`doubles`: as
/// [`crate::judge::Options::doubles`]), and the code of every row.
pub fn ranked_rows(
    run: &RunColumns,
    topics: &[&[u8]],
    ties: Ties,
    doubles: bool,
) -> (Vec<i64>, Vec<i64>) {
    let read = run.run();
    let mut code_of: rustc_hash::FxHashMap<&[u8], usize> = rustc_hash::FxHashMap::default();
    for (code, topic) in topics.iter().enumerate() {
        code_of.entry(topic).or_insert(code);
    }
    let mut chosen: Vec<(usize, usize)> = read
        .topics
        .iter()
        .enumerate()
        .filter_map(|(t, name)| code_of.get(name).map(|&code| (code, t)))
        .collect();
    chosen.sort_unstable();
    let ranked: Vec<(usize, Vec<u32>)> = chosen
        .into_par_iter()
        .map(|(code, t)| {
            let mut rows: Vec<u32> = read.groups.rows_of(t).collect();
            rank(&mut rows, &read, ties, doubles);
            (code, rows)
        })
        .collect();
    let mut rows = Vec::new();
    let mut codes = Vec::new();
    for (code, ranking) in ranked {
        codes.extend(std::iter::repeat_n(code as i64, ranking.len()));
        rows.extend(ranking.into_iter().map(i64::from));
    }
    (rows, codes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judged::{NONPOOL, UNJUDGED};

    /// Strings end to end, and their offsets.
    fn strings(values: &[&str]) -> (Vec<u8>, Vec<i32>) {
        let mut offsets = vec![0];
        let mut data = Vec::new();
        for v in values {
            data.extend_from_slice(v.as_bytes());
            offsets.push(data.len() as i32);
        }
        (data, offsets)
    }

    #[test]
    fn columns_judged_as_lines() {
        let (qt, qto) = strings(&["q1", "q0", "q1"]);
        let (qd, qdo) = strings(&["a", "c", "b"]);
        let qrels = QrelsColumns {
            topic: Strings {
                offsets: Offsets::Narrow(&qto),
                data: &qt,
            },
            docno: Strings {
                offsets: Offsets::Narrow(&qdo),
                data: &qd,
            },
            rel: &[1, 2, -1],
        };
        // interleaved topics; a tie broken by docno descending
        let (rt, rto) = strings(&["q1", "q9", "q1", "q1"]);
        let (rd, rdo) = strings(&["a", "a", "b", "z"]);
        let wide: Vec<i64> = rdo.iter().map(|&o| i64::from(o)).collect();
        let run = RunColumns {
            topic: Strings {
                offsets: Offsets::Narrow(&rto),
                data: &rt,
            },
            docno: Strings {
                offsets: Offsets::Wide(&wide),
                data: &rd,
            },
            score: &[1.0, 1.0, 1.0, 3.0],
            rank: None,
        };
        assert!(qrels.check().is_ok() && run.check(Ties::TrecEval).is_ok());
        assert!(run.check(Ties::RankColumn).is_err());
        let options = Options::new(Ties::TrecEval, 9, None, false, true);
        let (judgment, rows) = judge(&qrels, &[run], &options, true).unwrap();
        assert_eq!(judgment.topics, ["q0", "q1"]);
        assert_eq!(judgment.batch.rel, [NONPOOL, NONPOOL, UNJUDGED, 1]);
        assert_eq!(judgment.batch.placeholder, [true, false]);
        assert_eq!(rows, [vec![3, 2, 0]]);
        assert_eq!(judgment.unjudged, [["q9"]]);
        let index = Index::build(&qrels.qrels(), &mut Budget::unlimited().charge(), "q").unwrap();
        let docnos = Strings {
            offsets: Offsets::Narrow(&rdo),
            data: &rd,
        };
        let degrees = pair_degrees(&index, &[1, 1, -1, 0], &docnos, Some(&[0, 2, 0, 0]));
        assert_eq!(degrees, [1, UNJUDGED, NONPOOL, NONPOOL]);
    }

    #[test]
    fn rows_ranked_topic_by_topic_in_the_order_given() {
        let (rt, rto) = strings(&["b", "a", "b", "c"]);
        let (rd, rdo) = strings(&["x", "y", "z", "w"]);
        let run = RunColumns {
            topic: Strings {
                offsets: Offsets::Narrow(&rto),
                data: &rt,
            },
            docno: Strings {
                offsets: Offsets::Narrow(&rdo),
                data: &rd,
            },
            score: &[1.0, 5.0, 2.0, 0.0],
            rank: None,
        };
        let (rows, codes) = ranked_rows(&run, &[b"b", b"a"], Ties::FileOrder, true);
        assert_eq!((rows, codes), (vec![2, 0, 1], vec![0, 0, 1]));
    }
}
