//! Run files judged per intent: each run read as ndeval reads it
//! ([`crate::read::diversity::read_run`]), its rows put in ndeval's order ([`ndeval_order`])
//! and judged against the qrels' relevant documents ([`RelevantIndex`]), files side by
//! side (rayon, one file per task: a file's text lives while it is read and judged only).

use super::judging::{Entries, RelevantIndex, RunRankings};
use crate::read::diversity::{Run, read_run};
use crate::read::error::{Kind, ReadError};
use crate::read::limits::Budget;
use crate::trec::{File, text};
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::cmp::Ordering;

/// The rows of a run in ndeval's order, topic by topic (topics by number: order of first
/// appearance): `order` lists them (empty: the rows as they are), topic `t`'s being
/// `order[start[t]..start[t + 1]]`.
#[derive(Debug, PartialEq)]
pub struct Order {
    pub order: Vec<i64>,
    pub start: Vec<i64>,
}

/// The rows of `run` in ndeval's order (`source`: the file's name in errors). By default
/// (ndeval.c without `-traditional`) each topic's documents are ordered by the rank column,
/// two equal ranks for a topic being an error (the second row of the first pair, by topic
/// then rank, is named by its row number: ndeval ranks by the rank column); with
/// `traditional` by score descending, then docno descending (byte order: ndeval's
/// `-traditional`, trec_eval's order). Rows already in the rank column's order (the usual
/// layout of run files) are not sorted.
pub fn ndeval_order(run: &Run, traditional: bool, source: &str) -> Result<Order, ReadError> {
    let (topic, rank) = (&run.topic, &run.rank);
    let n = topic.len();
    let mut start = vec![0i64; run.topics.len() + 1];
    for &t in topic {
        start[t as usize + 1] += 1;
    }
    for t in 0..run.topics.len() {
        start[t + 1] += start[t];
    }
    // topics are numbered by first appearance: their rows are together when each row's
    // topic is its predecessor's or the next number
    let in_order = (1..n).all(|i| {
        (topic[i] == topic[i - 1] && rank[i] > rank[i - 1]) || topic[i] == topic[i - 1] + 1
    });
    if in_order && !traditional {
        return Ok(Order {
            order: Vec::new(),
            start,
        });
    }
    let mut order: Vec<i64> = (0..n as i64).collect();
    if traditional {
        order.sort_by(|&a, &b| {
            let (a, b) = (a as usize, b as usize);
            topic[a]
                .cmp(&topic[b])
                .then(
                    run.score[b]
                        .partial_cmp(&run.score[a])
                        .unwrap_or(Ordering::Equal),
                )
                .then(run.docno[b].cmp(run.docno[a]))
        });
        return Ok(Order { order, start });
    }
    order.sort_by_key(|&row| (topic[row as usize], rank[row as usize]));
    let same = |pair: &[i64]| {
        let (a, b) = (pair[0] as usize, pair[1] as usize);
        topic[a] == topic[b] && rank[a] == rank[b]
    };
    if let Some(pair) = order.windows(2).find(|pair| same(pair)) {
        let row = pair[1] as usize;
        return Err(ReadError {
            kind: Kind::Format,
            reason: format!(
                "duplicate rank ({}) for topic {} (ndeval ranks by the rank column: give \
                 distinct ranks, or traditional=1 to rank by score)",
                rank[row],
                String::from_utf8_lossy(&run.topics[topic[row] as usize])
            ),
            source: source.to_string(),
            line: Some(row + 1),
            text: None,
            details: Vec::new(),
        });
    }
    Ok(Order { order, start })
}

/// One run file judged per intent: its name (the run id of its first line, as ndeval names
/// it), its distinct run ids, and per ranking (one per topic, topics in order of first
/// appearance) its topic id, its length (cut at `max_docs`: ndeval's `-M`) and its qrels
/// topic (−1: not judged), and the relevant entries.
pub struct JudgedRun {
    pub runids: Vec<String>,
    pub topics: Vec<String>,
    pub length: Vec<i64>,
    pub qrels_topic: Vec<i64>,
    pub entries: Entries,
}

/// How the runs are read and ranked.
pub struct Reading<'a> {
    /// The qrels topics, by index of the relevant documents' topic.
    pub qrels_topics: &'a [String],
    pub traditional: bool,
    pub max_docs: Option<i64>,
    /// Topic ids read as ndeval reads them ([`crate::read::diversity::run_topic`]).
    pub ndeval_topics: bool,
    /// The memory the files' texts read side by side may hold.
    pub budget: &'a Budget,
}

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The run of `file` judged against `index`.
fn judge_file(index: &RelevantIndex, file: &File, how: &Reading) -> Result<JudgedRun, ReadError> {
    let data = text(file, how.budget)?;
    let run = read_run(&data, file.name, how.ndeval_topics)?;
    let order = ndeval_order(&run, how.traditional, file.name)?;
    let qrels: FxHashMap<&[u8], i64> = how
        .qrels_topics
        .iter()
        .enumerate()
        .map(|(t, name)| (name.as_bytes(), t as i64))
        .collect();
    let qrels_topic: Vec<i64> = run
        .topics
        .iter()
        .map(|t| qrels.get(&t[..]).copied().unwrap_or(-1))
        .collect();
    let length: Vec<i64> = order
        .start
        .windows(2)
        .map(|w| how.max_docs.map_or(w[1] - w[0], |m| (w[1] - w[0]).min(m)))
        .collect();
    let rankings = RunRankings {
        order: &order.order,
        start: &order.start[..run.topics.len()],
        length: &length,
        topic: &qrels_topic,
    };
    let entries = index
        .judge_rows(&rankings, run.docno.len(), |row| run.docno[row])
        .map_err(|why| ReadError::whole(Kind::Format, why, file.name))?;
    Ok(JudgedRun {
        runids: run.runids.iter().map(|r| lossy(r)).collect(),
        topics: run.topics.iter().map(|t| lossy(t)).collect(),
        length,
        qrels_topic,
        entries,
    })
}

/// Every run file judged against `index`, or the first fault in the files' order.
pub fn judge_files(
    index: &RelevantIndex,
    files: &[File],
    how: &Reading,
) -> Result<Vec<JudgedRun>, ReadError> {
    files
        .par_iter()
        .map(|file| judge_file(index, file, how))
        .collect::<Vec<_>>()
        .into_iter()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diversity::judging::Strings;
    use crate::trec::Data;

    #[test]
    fn rows_in_ndeval_order() {
        let data = b"2 Q0 a 1 1 r\n2 Q0 b 2 3 r\n1 Q0 c 1 2 r\n";
        let run = read_run(data, "r", false).unwrap();
        let kept = ndeval_order(&run, false, "r").unwrap();
        assert_eq!(kept.order, Vec::<i64>::new());
        assert_eq!(kept.start, [0, 2, 3]);
        let by_score = ndeval_order(&run, true, "r").unwrap();
        assert_eq!(by_score.order, [1, 0, 2]);
        // ties on the score: docno descending
        let run = read_run(b"1 Q0 a 2 1 r\n1 Q0 b 1 1 r\n1 Q0 c 3 -0 r\n", "r", false).unwrap();
        assert_eq!(ndeval_order(&run, false, "r").unwrap().order, [1, 0, 2]);
        assert_eq!(ndeval_order(&run, true, "r").unwrap().order, [1, 0, 2]);
        let data = b"1 Q0 a 2 1 r\n2 Q0 x 1 1 r\n1 Q0 b 2 1 r\n";
        let run = read_run(data, "r", false).unwrap();
        let error = ndeval_order(&run, false, "r").unwrap_err();
        assert_eq!((error.line, error.text), (Some(3), None));
        assert!(error.reason.starts_with("duplicate rank (2) for topic 1 "));
    }

    #[test]
    fn files_judged_in_order() {
        let docs = Strings::new(&[0, 1, 2], b"ab").unwrap();
        let index = RelevantIndex::new(
            &[0, 1],
            &docs,
            &[true, false, false, true],
            &[1, 0, 0, 2],
            2,
        )
        .unwrap();
        let qrels_topics = ["1".to_string(), "2".to_string()];
        let how = Reading {
            qrels_topics: &qrels_topics,
            traditional: false,
            max_docs: Some(2),
            ndeval_topics: true,
            budget: &Budget::unlimited(),
        };
        let files = [
            File {
                data: Data::Bytes(b"wt-2 Q0 x 1 1 s\n02 Q0 b 2 1 t\n9 Q0 a 1 1 s\n1 Q0 z 1 1 s\n1 Q0 a 2 1 s\n1 Q0 a2 3 1 s\n"),
                name: "r",
            },
        ];
        let judged = judge_files(&index, &files, &how).unwrap();
        let run = &judged[0];
        assert_eq!(run.runids, ["s", "t"]);
        assert_eq!(run.topics, ["2", "9", "1"]);
        assert_eq!(run.length, [2, 1, 2]);
        assert_eq!(run.qrels_topic, [1, -1, 0]);
        assert_eq!(run.entries.ranking, [0, 2]);
        assert_eq!(run.entries.rank, [2, 2]);
        assert_eq!(run.entries.intent, [1, 0]);
        assert_eq!(run.entries.level, [2, 1]);
        let bad = File {
            data: Data::Bytes(b"1 Q0 a 1 1 s\n1 Q0 b\n"),
            name: "bad",
        };
        let also = File {
            data: Data::Bytes(b""),
            name: "empty",
        };
        let error = judge_files(&index, &[bad, also], &how).err().unwrap();
        assert_eq!((error.source.as_str(), error.line), ("bad", Some(2)));
    }
}
