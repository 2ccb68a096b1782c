//! pytrec_eval-style dicts `{topic: {docno: value}}` (`irscale.io.memory.qrels_from_dict`,
//! `run_from_dict`) laid out as the TREC readers' columns, then judged as TREC files are
//! ([`crate::trec`]): one row per `(topic, docno)` entry, in the dicts' order.

use crate::judge::{HELD_QRELS, Index, Options, judge_run};
use crate::read::error::ReadError;
use crate::read::limits::Budget;
use crate::read::qrels::Qrels;
use crate::read::run::{Docnos, Run};
use crate::read::topics::Groups;
use crate::trec::{Judgment, RunNotes, gathered};
use rayon::prelude::*;

/// One dict's entries: the topic ids that have entries (in order) end to end in `ids`,
/// the docnos end to end in `text` (entry `r`'s at `starts[r]..starts[r + 1]`), the
/// values, and where each topic's entries start (`groups`, one more than the topics).
pub struct Table {
    pub ids: Vec<u8>,
    pub bounds: Vec<usize>,
    pub text: Vec<u8>,
    pub starts: Vec<u64>,
    pub values: Vec<f64>,
    pub groups: Vec<usize>,
}

impl Default for Table {
    fn default() -> Self {
        Table {
            ids: Vec::new(),
            bounds: vec![0],
            text: Vec::new(),
            starts: vec![0],
            values: Vec::new(),
            groups: vec![0],
        }
    }
}

impl Table {
    /// Room for `entries` entries in all (their docnos: 16 bytes each, as a start).
    pub fn reserve(&mut self, entries: usize) {
        self.starts.reserve(entries);
        self.values.reserve(entries);
        self.text.reserve(16 * entries);
    }

    /// Starts a topic: its id, its entries pushed next ([`Table::push`]).
    pub fn topic(&mut self, id: &str) {
        self.ids.extend_from_slice(id.as_bytes());
        self.bounds.push(self.ids.len());
        self.groups.push(self.values.len());
    }

    /// An entry of the last topic started.
    pub fn push(&mut self, docno: &str, value: f64) {
        self.text.extend_from_slice(docno.as_bytes());
        self.starts.push(self.text.len() as u64);
        self.values.push(value);
        *self.groups.last_mut().expect("a topic started") += 1;
    }

    fn topic_ids(&self) -> Vec<&[u8]> {
        self.bounds
            .windows(2)
            .map(|w| &self.ids[w[0]..w[1]])
            .collect()
    }

    /// The table as qrels (values integral: the degrees).
    pub fn qrels(&self) -> Qrels<'_> {
        let docno = self
            .starts
            .windows(2)
            .map(|w| &self.text[w[0] as usize..w[1] as usize])
            .collect();
        let topic = self
            .groups
            .windows(2)
            .enumerate()
            .flat_map(|(t, w)| std::iter::repeat_n(t as u32, w[1] - w[0]))
            .collect();
        Qrels {
            topic,
            docno,
            rel: self.values.iter().map(|&v| v as i64).collect(),
            topics: self.topic_ids(),
            groups: Groups::contiguous(self.groups.clone()),
        }
    }
}

/// A run's table as a run (values: the scores), without a rank column or run ids: its
/// columns moved into the run, which borrows `ids` and `text`.
pub fn run<'a>(ids: &'a [u8], text: &'a [u8], table: Table) -> Run<'a> {
    Run {
        docno: Docnos::bounded(text, table.starts),
        score: table.values,
        rank: Vec::new(),
        topics: table.bounds.windows(2).map(|w| &ids[w[0]..w[1]]).collect(),
        groups: Groups::contiguous(table.groups),
        runids: Vec::new(),
        last_runid: b"",
        beyond_c_float: None,
    }
}

/// The judged rankings of every run against the qrels (the `rank-column` tie policy
/// needs a rank column: dicts have none); the memory error of the qrels
/// ([`HELD_QRELS`]) where their index or the batch cannot be had.
pub fn judge(qrels: &Table, runs: Vec<Table>, options: &Options) -> Result<Judgment, ReadError> {
    let read = qrels.qrels();
    let budget = Budget::unlimited();
    let mut charge = budget.charge();
    let index = Index::build(&read, &mut charge, HELD_QRELS)?;
    let notes = runs.iter().map(|_| RunNotes::default()).collect();
    let judged = runs
        .into_par_iter()
        .map(|mut table| {
            let ids = std::mem::take(&mut table.ids);
            let text = std::mem::take(&mut table.text);
            judge_run(&index, &run(&ids, &text, table), options)
        })
        .collect();
    gathered(&index, judged, notes, &mut charge, HELD_QRELS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judged::{NONPOOL, UNJUDGED};
    use crate::ties::Ties;

    #[test]
    fn dict_entries_judged_as_lines() {
        // q0 has no entries: it is no topic
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
        let options = Options::new(Ties::TrecEval, 9, None, false, false);
        let judgment = judge(&qrels, vec![given], &options).unwrap();
        assert_eq!(judgment.topics, ["q0", "q1"]);
        assert_eq!(judgment.batch.rel, [NONPOOL, UNJUDGED, 1]);
        assert_eq!(judgment.batch.ranking_topic, [1]);
        assert_eq!(judgment.unjudged, [["q9"]]);
        assert_eq!(judgment.degrees, [0, 1, 2]);
    }
}
