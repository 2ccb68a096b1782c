//! Judging runs against qrels (`irscale.core.judge.build_judged_rankings`): every run's
//! topics ranked by the tie policy, each document's judgment looked up, and the rankings
//! stacked into one CSR batch ([`crate::judged`]'s layout), run by run, topics in byte
//! order.

use crate::judged::{NONPOOL, UNJUDGED};
use crate::read::error::ReadError;
use crate::read::limits::{Charge, filled, reserve_exact};
use crate::read::qrels::Qrels;
use crate::read::run::Run;
use crate::ties::{Ties, rank, tie_groups};
use rayon::prelude::*;
use rustc_hash::FxHashMap;

/// What shapes the judged rankings (`irscale.core.ranking.RankingOptions`).
#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub ties: Ties,
    /// The `trec_eval` policy compares doubles (trec_eval 10.0), not C floats (9.0.8).
    pub doubles: bool,
    /// trec_eval's `-M`: the first documents of each ranking kept.
    pub max_docs: Option<u64>,
    /// trec_eval's `-J`: documents not judged left out (after `-M`).
    pub judged_only: bool,
    /// trec_eval 10's `-c`: a topic of the qrels that a run did not retrieve anything for
    /// is a ranking of one document not in the pool.
    pub placeholders: bool,
}

impl Options {
    /// The options of an evaluation: `compat` 9 (trec_eval 9.0.8) compares the scores of
    /// the `trec_eval` policy as C floats, 10 as doubles.
    pub fn new(
        ties: Ties,
        compat: u8,
        max_docs: Option<u64>,
        judged_only: bool,
        placeholders: bool,
    ) -> Options {
        Options {
            ties,
            doubles: compat != 9,
            max_docs,
            judged_only,
            placeholders,
        }
    }
}

/// Qrels prepared for lookups (`irscale.core._columnar.qrels_index.QrelsIndex`).
pub struct Index<'a> {
    /// The judged topics, in byte order: a topic's code is its place here.
    pub topics: Vec<&'a [u8]>,
    code: FxHashMap<&'a [u8], u32>,
    /// Per topic code: the degree of each judged docno (`UNJUDGED` for a negative one).
    judged: Vec<FxHashMap<&'a [u8], i64>>,
    /// `topics × degrees.len()`: the judged documents of each topic at each degree.
    pub rel_levels: Vec<i64>,
    /// The degree each column of `rel_levels` counts (ascending, all ≥ 0).
    pub degrees: Vec<i64>,
    /// Whether column `g` counts degree `g` (`degrees` is `0..k`).
    pub dense: bool,
}

/// The name in errors of qrels given in memory (columns, dicts), not read from a file.
pub const HELD_QRELS: &str = "qrels";

impl<'a> Index<'a> {
    /// The index of `qrels` (distinct pairs), named `source` in errors. Its table of
    /// judged documents by topic and degree ([`Index::rel_levels`]: topics × degrees, a
    /// product a file of a few megabytes can take to terabytes, each topic judged at a
    /// degree of its own) is charged to `charge` and reserved fallibly: beyond the budget
    /// or the memory to be had, the memory error of `source`.
    pub fn build(
        qrels: &Qrels<'a>,
        charge: &mut Charge,
        source: &str,
    ) -> Result<Index<'a>, ReadError> {
        let mut by_bytes: Vec<u32> = (0..qrels.topics.len() as u32).collect();
        by_bytes.sort_unstable_by_key(|&t| qrels.topics[t as usize]);
        let topics: Vec<&[u8]> = by_bytes.iter().map(|&t| qrels.topics[t as usize]).collect();
        let code = topics
            .iter()
            .enumerate()
            .map(|(c, t)| (*t, c as u32))
            .collect();
        let judged = by_bytes
            .par_iter()
            .map(|&t| {
                qrels
                    .groups
                    .rows_of(t as usize)
                    .map(|row| {
                        let rel = qrels.rel[row as usize];
                        (
                            qrels.docno[row as usize],
                            if rel < 0 { UNJUDGED } else { rel },
                        )
                    })
                    .collect()
            })
            .collect();
        let (degrees, dense) = columns(&qrels.rel);
        let width = degrees.len();
        let cells = topics.len().saturating_mul(width);
        let mut rel_levels = filled(cells, 0i64, charge, source)?;
        for (c, &t) in by_bytes.iter().enumerate() {
            for row in qrels.groups.rows_of(t as usize) {
                let rel = qrels.rel[row as usize];
                if rel >= 0 {
                    let column = if dense {
                        rel as usize
                    } else {
                        degrees.partition_point(|&d| d < rel)
                    };
                    rel_levels[c * width + column] += 1;
                }
            }
        }
        Ok(Index {
            topics,
            code,
            judged,
            rel_levels,
            degrees,
            dense,
        })
    }
}

impl Index<'_> {
    /// The code of topic `topic` (its place in [`Index::topics`]), if it has judgments.
    pub fn code(&self, topic: &[u8]) -> Option<u32> {
        self.code.get(topic).copied()
    }

    /// The degree of `docno` for the topic of code `code`: the qrels', `UNJUDGED` for a
    /// negative one, `NONPOOL` for a document not in the qrels.
    pub fn degree(&self, code: u32, docno: &[u8]) -> i64 {
        *self.judged[code as usize].get(docno).unwrap_or(&NONPOOL)
    }
}

/// The degrees counted by the columns of the recall bases, and whether they are dense
/// (`dense_layout`): one column per degree `0..=top` when that is at most twice the
/// distinct judged degrees, or 16; one per distinct judged degree otherwise (a label of
/// 10,000,000 costs one column).
fn columns(rel: &[i64]) -> (Vec<i64>, bool) {
    let set: rustc_hash::FxHashSet<i64> = rel.iter().copied().filter(|&r| r >= 0).collect();
    let mut distinct: Vec<i64> = set.into_iter().collect();
    distinct.sort_unstable();
    let top = distinct.last().copied().unwrap_or(0);
    if (top as u128) < (2 * distinct.len()).max(16) as u128 {
        ((0..=top).collect(), true)
    } else {
        (distinct, false)
    }
}

/// One run's judged rankings, topics in code order.
pub struct Judged {
    pub rel: Vec<i64>,
    pub lengths: Vec<i64>,
    pub topic: Vec<i64>,
    pub placeholder: Vec<bool>,
    /// The run's topics that have no judgments, in byte order.
    pub unjudged: Vec<String>,
    /// The run's row of every document of `rel` but the placeholders, when asked for
    /// ([`judge_run_rows`]); empty otherwise.
    pub rows: Vec<u32>,
    /// With the `expected` tie policy, the tie group of every document of `rel`
    /// ([`tie_groups`] within its ranking; 0 for a placeholder).
    pub groups: Option<Vec<i64>>,
}

/// A ranking's rows kept (when asked for) and its tie groups (with `expected`).
type RowsAndGroups = (Vec<u32>, Vec<i64>);

/// The judged rankings of `run` against `index`.
pub fn judge_run(index: &Index, run: &Run, options: &Options) -> Judged {
    judge_run_rows(index, run, options, false)
}

/// [`judge_run`], and with `keep_rows` the run's row of every judged document
/// ([`Judged::rows`]: for per-document lookups such as labels).
pub fn judge_run_rows(index: &Index, run: &Run, options: &Options, keep_rows: bool) -> Judged {
    let mut present: Vec<(u32, usize)> = Vec::new();
    let mut unjudged: Vec<&[u8]> = Vec::new();
    for (t, name) in run.topics.iter().enumerate() {
        match index.code.get(name) {
            Some(&code) => present.push((code, t)),
            None => unjudged.push(name),
        }
    }
    present.sort_unstable();
    unjudged.sort_unstable();
    // every ranking written in its share of one array, cut to its first `max_docs`
    let depths: Vec<usize> = present
        .iter()
        .map(|&(_, t)| {
            let n = run.groups.rows_of(t).len();
            options.max_docs.map_or(n, |m| m.min(n as u64) as usize)
        })
        .collect();
    let mut rel = vec![0i64; depths.iter().sum()];
    let mut shares = Vec::with_capacity(depths.len());
    let mut rest = &mut rel[..];
    for &depth in &depths {
        let (share, after) = std::mem::take(&mut rest).split_at_mut(depth);
        shares.push(share);
        rest = after;
    }
    let expected = options.ties == Ties::Expected;
    let (kept, chosen): (Vec<usize>, Vec<RowsAndGroups>) = present
        .par_iter()
        .zip(shares)
        .map(|(&(code, t), share)| {
            let mut rows: Vec<u32> = run.groups.rows_of(t).collect();
            rank(&mut rows, run, options.ties, options.doubles);
            let judged = &index.judged[code as usize];
            let mut kept = 0;
            for at in 0..share.len() {
                let row = rows[at];
                let degree = *judged.get(run.docno.get(row)).unwrap_or(&NONPOOL);
                if !options.judged_only || degree >= 0 {
                    share[kept] = degree;
                    rows[kept] = row;
                    kept += 1;
                }
            }
            let groups = if expected {
                tie_groups(&rows[..kept], run, options.doubles)
            } else {
                Vec::new()
            };
            rows.truncate(if keep_rows { kept } else { 0 });
            (kept, (rows, groups))
        })
        .unzip();
    let (chosen, grouped): (Vec<Vec<u32>>, Vec<Vec<i64>>) = chosen.into_iter().unzip();
    let rows = chosen.concat();
    let groups = expected.then(|| grouped.concat());
    if options.judged_only {
        // the documents kept of each ranking moved up behind the ranking before
        let (mut at, mut start) = (0, 0);
        for (&depth, &k) in depths.iter().zip(&kept) {
            rel.copy_within(start..start + k, at);
            at += k;
            start += depth;
        }
        rel.truncate(at);
    }
    let unjudged = unjudged
        .into_iter()
        .map(|t| String::from_utf8_lossy(t).into_owned())
        .collect();
    let lengths: Vec<i64> = kept.iter().map(|&k| k as i64).collect();
    let codes: Vec<i64> = present.iter().map(|&(c, _)| i64::from(c)).collect();
    if !options.placeholders || codes.len() == index.topics.len() {
        return Judged {
            rel,
            placeholder: vec![false; codes.len()],
            lengths,
            topic: codes,
            unjudged,
            rows,
            groups,
        };
    }
    // trec_eval 10's -c: a ranking of one document not in the pool for each topic missing
    let mut judged = Judged {
        rel: Vec::with_capacity(rel.len() + index.topics.len() - codes.len()),
        lengths: Vec::with_capacity(index.topics.len()),
        topic: (0..index.topics.len() as i64).collect(),
        placeholder: Vec::with_capacity(index.topics.len()),
        unjudged,
        rows,
        groups: groups
            .as_ref()
            .map(|g| Vec::with_capacity(g.len() + index.topics.len())),
    };
    let mut next = codes.iter().zip(&lengths).peekable();
    let mut start = 0;
    for code in 0..index.topics.len() as i64 {
        match next.next_if(|(c, _)| **c == code) {
            Some((_, &length)) => {
                let end = start + length as usize;
                judged.rel.extend_from_slice(&rel[start..end]);
                if let (Some(all), Some(own)) = (judged.groups.as_mut(), groups.as_ref()) {
                    all.extend_from_slice(&own[start..end]);
                }
                judged.lengths.push(length);
                judged.placeholder.push(false);
                start = end;
            }
            // its document is in no qrels: -J removes it, as every unjudged one, and the
            // ranking is empty (trec_eval 10.0 then prints -nan where an empty ranking
            // divides 0 by 0)
            None if options.judged_only => {
                judged.lengths.push(0);
                judged.placeholder.push(true);
            }
            None => {
                judged.rel.push(NONPOOL);
                if let Some(all) = judged.groups.as_mut() {
                    all.push(0);
                }
                judged.lengths.push(1);
                judged.placeholder.push(true);
            }
        }
    }
    judged
}

/// A batch of judged rankings (`irscale.core.judged.JudgedRankings`' arrays).
pub struct Batch {
    pub rel: Vec<i64>,
    pub offsets: Vec<i64>,
    pub rel_levels: Vec<i64>,
    pub ranking_topic: Vec<i64>,
    pub ranking_run: Vec<i64>,
    pub placeholder: Vec<bool>,
    /// The tie group of every document of `rel` (the `expected` tie policy).
    pub groups: Option<Vec<i64>>,
}

impl Batch {
    /// A batch of no ranking.
    pub fn empty() -> Self {
        Batch {
            rel: Vec::new(),
            offsets: vec![0],
            rel_levels: Vec::new(),
            ranking_topic: Vec::new(),
            ranking_run: Vec::new(),
            placeholder: Vec::new(),
            groups: None,
        }
    }
}

/// The rankings of every run, run after run. The batch's documents and its rows of
/// [`Index::rel_levels`] (one per ranking: rankings × degrees) are charged to `charge` and
/// reserved fallibly; beyond the budget or the memory to be had, the memory error of
/// `source` (the qrels, whose degrees make the rows wide).
pub fn stack(
    index: &Index,
    runs: Vec<Judged>,
    charge: &mut Charge,
    source: &str,
) -> Result<Batch, ReadError> {
    let width = index.degrees.len();
    let total: usize = runs.iter().map(|r| r.rel.len()).sum();
    let rankings: usize = runs.iter().map(|r| r.lengths.len()).sum();
    let mut batch = Batch::empty();
    reserve_exact(
        &mut batch.rel_levels,
        rankings.saturating_mul(width),
        charge,
        source,
    )?;
    for (number, mut run) in runs.into_iter().enumerate() {
        if number == 0 {
            // the first run's documents are kept where they are, the others appended
            batch.rel = std::mem::take(&mut run.rel);
            let more = total - batch.rel.len();
            reserve_exact(&mut batch.rel, more, charge, source)?;
        } else {
            batch.rel.extend_from_slice(&run.rel);
        }
        for (length, code) in run.lengths.iter().zip(&run.topic) {
            let end = batch.offsets.last().copied().unwrap_or(0) + length;
            batch.offsets.push(end);
            let c = *code as usize;
            batch
                .rel_levels
                .extend(&index.rel_levels[c * width..(c + 1) * width]);
            batch.ranking_run.push(number as i64);
        }
        if let Some(groups) = run.groups {
            batch.groups.get_or_insert_with(Vec::new).extend(groups);
        }
        batch.ranking_topic.extend(run.topic);
        batch.placeholder.extend(run.placeholder);
    }
    Ok(batch)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::error::Kind;
    use crate::read::limits::Budget;
    use crate::read::{qrels, run};

    #[test]
    fn a_table_of_degrees_beyond_the_budget_is_refused_by_the_qrels() {
        // 40 topics, each judged at a degree of its own: 40 × 41 cells (degrees 0..=40)
        // from 40 lines, a product that a few megabytes of qrels take to terabytes
        let text: String = (1..=40).map(|t| format!("{t} 0 d {t}\n")).collect();
        let q = qrels::read(text.as_bytes(), "q").unwrap();
        let cells = 40 * 41;
        let error = Index::build(&q, &mut Budget::new(1000).charge(), "wide")
            .err()
            .unwrap();
        assert_eq!((error.kind, error.source.as_str()), (Kind::Memory, "wide"));
        assert_eq!(error.details, [(8 * cells).to_string(), "1000".to_string()]);
        let budget = Budget::new(8 * cells);
        let mut held = budget.charge();
        let index = Index::build(&q, &mut held, "wide").unwrap();
        assert_eq!(index.rel_levels.len(), cells);
        // the batch takes a row of the table per ranking: charged too
        let (texts, columns) = run::read(b"1 Q0 d 1 1 r\n2 Q0 d 1 1 r\n", "r", false).unwrap();
        let options = Options::new(Ties::TrecEval, 9, None, false, false);
        let judged = judge_run(&index, &columns.run(&texts), &options);
        let error = stack(&index, vec![judged], &mut budget.charge(), "wide")
            .err()
            .unwrap();
        assert_eq!(error.kind, Kind::Memory);
        assert_eq!(error.details[0], (8 * (cells + 2 * 41)).to_string());
    }

    #[test]
    fn rankings_judged_and_stacked() {
        let q = qrels::read(b"2 0 a 1\n2 0 b 0\n1 0 c 2\n2 0 d -1\n3 0 x 1\n", "q").unwrap();
        let index = Index::build(&q, &mut Budget::unlimited().charge(), "q").unwrap();
        assert_eq!(index.topics, [&b"1"[..], b"2", b"3"]);
        assert_eq!((index.degrees.clone(), index.dense), (vec![0, 1, 2], true));
        assert_eq!(index.rel_levels, [0, 0, 1, 1, 1, 0, 0, 1, 0]);
        let (texts, columns) = run::read(
            b"2 Q0 d 1 3 r\n2 Q0 a 2 1 r\n2 Q0 z 3 2 r\n9 Q0 a 1 1 r\n1 Q0 c 1 1 r\n",
            "r",
            false,
        )
        .unwrap();
        let r = columns.run(&texts);
        let options = Options {
            ties: Ties::TrecEval,
            doubles: false,
            max_docs: None,
            judged_only: false,
            placeholders: true,
        };
        let judged = judge_run(&index, &r, &options);
        assert_eq!(judged.rel, [2, UNJUDGED, NONPOOL, 1, NONPOOL]);
        assert_eq!(judged.topic, [0, 1, 2]);
        assert_eq!(judged.placeholder, [false, false, true]);
        assert_eq!(judged.unjudged, ["9"]);
        let batch = stack(&index, vec![judged], &mut Budget::unlimited().charge(), "q").unwrap();
        assert_eq!(batch.offsets, [0, 1, 4, 5]);
        assert_eq!(batch.rel_levels[6..], [0, 1, 0]);
        let cut = Options {
            max_docs: Some(2),
            judged_only: true,
            placeholders: false,
            ..options
        };
        let judged = judge_run(&index, &r, &cut);
        assert_eq!((judged.rel, judged.lengths), (vec![2], vec![1, 0]));
        // trec_eval 10's -c with -J: the placeholder's document is unjudged, so removed
        let judged_only = Options {
            judged_only: true,
            ..options
        };
        let judged = judge_run(&index, &r, &judged_only);
        assert_eq!(judged.placeholder, [false, false, true]);
        assert_eq!((judged.rel, judged.lengths), (vec![2, 1], vec![1, 1, 0]));
    }

    #[test]
    fn a_large_degree_is_one_column() {
        assert_eq!(
            columns(&[0, 1, 10_000_000, -3]),
            (vec![0, 1, 10_000_000], false)
        );
        assert_eq!(columns(&[-1]), (vec![0], true));
        assert_eq!(columns(&[15, 0]).0.len(), 16);
    }
}
