//! pytrec_eval-style dicts `{topic: {docno: value}}` (`irscale.io.memory.qrels_from_dict`,
//! `run_from_dict`) laid out as the TREC readers' columns, then judged as TREC files are
//! ([`crate::trec`]): one row per `(topic, docno)` entry, in the dicts' order.

use crate::judge::{Index, Options, judge_run};
use crate::read::qrels::Qrels;
use crate::read::run::{Docnos, Run};
use crate::read::topics::Groups;
use crate::trec::{Judgment, RunNotes, gathered};
use rayon::prelude::*;

/// One dict's entries: every topic id and docno (UTF-8) end to end in `text`, the
/// topics that have entries (in order), and per entry its topic's number, its docno's
/// place in `text` and its value.
#[derive(Default)]
pub struct Table {
    pub text: Vec<u8>,
    pub topics: Vec<(usize, usize)>,
    pub topic: Vec<u32>,
    pub starts: Vec<u64>,
    pub ends: Vec<u64>,
    pub values: Vec<f64>,
}

impl Table {
    /// Starts a topic: its id, its entries pushed next ([`Table::push`]).
    pub fn topic(&mut self, id: &str) {
        let start = self.text.len();
        self.text.extend_from_slice(id.as_bytes());
        self.topics.push((start, self.text.len()));
    }

    /// An entry of the last topic started.
    pub fn push(&mut self, docno: &str, value: f64) {
        self.starts.push(self.text.len() as u64);
        self.text.extend_from_slice(docno.as_bytes());
        self.ends.push(self.text.len() as u64);
        self.topic.push(self.topics.len() as u32 - 1);
        self.values.push(value);
    }

    fn topic_ids(&self) -> Vec<&[u8]> {
        self.topics
            .iter()
            .map(|&(start, end)| &self.text[start..end])
            .collect()
    }

    /// Room for `entries` more entries.
    pub fn reserve(&mut self, entries: usize) {
        self.starts.reserve(entries);
        self.ends.reserve(entries);
        self.topic.reserve(entries);
        self.values.reserve(entries);
    }

    /// The table as qrels (values integral: the degrees).
    pub fn qrels(&self) -> Qrels<'_> {
        let docno = self
            .starts
            .iter()
            .zip(&self.ends)
            .map(|(&start, &end)| &self.text[start as usize..end as usize])
            .collect();
        Qrels {
            topic: self.topic.clone(),
            docno,
            rel: self.values.iter().map(|&v| v as i64).collect(),
            topics: self.topic_ids(),
            groups: Groups::of(&self.topic, self.topics.len()),
        }
    }
}

/// A run's table as a run (values: the scores), without a rank column or run ids: its
/// columns moved into the run, which borrows `text`.
pub fn run<'a>(text: &'a [u8], table: Table) -> Run<'a> {
    let groups = Groups::of(&table.topic, table.topics.len());
    Run {
        docno: Docnos::bounded(text, table.starts, table.ends),
        score: table.values,
        rank: Vec::new(),
        topics: table
            .topics
            .iter()
            .map(|&(start, end)| &text[start..end])
            .collect(),
        groups,
        runids: Vec::new(),
        last_runid: b"",
        beyond_c_float: None,
    }
}

/// The judged rankings of every run against the qrels (the `rank-column` tie policy
/// needs a rank column: dicts have none).
pub fn judge(qrels: &Table, runs: Vec<Table>, options: &Options) -> Judgment {
    let read = qrels.qrels();
    let index = Index::build(&read);
    let notes = runs
        .iter()
        .map(|_| RunNotes {
            runids: Vec::new(),
            last_runid: String::new(),
            beyond_c_float: None,
        })
        .collect();
    let judged = runs
        .into_par_iter()
        .map(|mut table| {
            let text = std::mem::take(&mut table.text);
            judge_run(&index, &run(&text, table), options)
        })
        .collect();
    gathered(&index, judged, notes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judged::{NONPOOL, UNJUDGED};
    use crate::ties::Ties;

    #[test]
    fn dict_entries_judged_as_lines() {
        let mut qrels = Table::default();
        qrels.topic("q1");
        qrels.push("a", 1.0);
        qrels.push("b", -1.0);
        qrels.topic("q0");
        qrels.push("c", 2.0);
        let mut given = Table::default();
        given.topic("q1");
        // a tie: docno descending
        given.push("a", 1.0);
        given.push("b", 1.0);
        given.push("z", 3.0);
        given.topic("q9");
        given.push("a", 1.0);
        let options = Options {
            ties: Ties::TrecEval,
            doubles: false,
            max_docs: None,
            judged_only: false,
            placeholders: false,
        };
        let judgment = judge(&qrels, vec![given], &options);
        assert_eq!(judgment.topics, ["q0", "q1"]);
        assert_eq!(judgment.batch.rel, [NONPOOL, UNJUDGED, 1]);
        assert_eq!(judgment.batch.ranking_topic, [1]);
        assert_eq!(judgment.unjudged, [["q9"]]);
        assert_eq!(judgment.degrees, [0, 1, 2]);
    }
}
