//! From the bytes of a qrels file and of run files to one batch of judged rankings: the
//! runs decompressed, read and judged side by side (rayon, one run per task;
//! [`crate::judge`]). The output is the same whatever the thread count.

use crate::judge::{Batch, Index, Options, judge_run, stack};
use crate::read::error::{Kind, ReadError};
use crate::read::{qrels, run, source};
use crate::ties::Ties;
use rayon::prelude::*;
use std::borrow::Cow;

/// A file's bytes and its name in messages.
pub struct File<'a> {
    pub data: &'a [u8],
    pub name: &'a str,
}

/// What one run file says beside its rankings.
pub struct RunNotes {
    /// The distinct run ids, in order of first appearance.
    pub runids: Vec<String>,
    /// The last line's run id (trec_eval 9.0.8 names the run after it).
    pub last_runid: String,
    /// Scores no C float holds: how many, and the line number and text of the first.
    pub beyond_c_float: Option<(usize, usize, String)>,
}

/// The batch, the judged topics (byte order), and per run its notes and its topics
/// without judgments.
pub struct Judgment {
    pub batch: Batch,
    pub topics: Vec<String>,
    pub degrees: Vec<i64>,
    pub dense: bool,
    pub notes: Vec<RunNotes>,
    pub unjudged: Vec<Vec<String>>,
}

/// The text of `file`, or the error that its gzip data cannot be decompressed.
fn text<'a>(file: &File<'a>) -> Result<Cow<'a, [u8]>, ReadError> {
    source::text(file.data).map_err(|why| ReadError::whole(Kind::Gzip, why, file.name))
}

/// The judged rankings of every run against the qrels; the first error in reading order
/// (the qrels, then the runs in turn) otherwise.
pub fn judge(
    qrels_file: &File,
    run_files: &[File],
    options: &Options,
) -> Result<Judgment, ReadError> {
    let qrels_text = text(qrels_file)?;
    // the qrels' columns are not kept: the index holds what judging needs
    let index = Index::build(&qrels::read(&qrels_text, qrels_file.name)?);
    let keep_rank = options.ties == Ties::RankColumn;
    // each run's text (decompressed) lives while its run is read and judged only
    let judged: Vec<Result<_, ReadError>> = run_files
        .par_iter()
        .map(|file| {
            let data = text(file)?;
            let run = run::read(&data, file.name, keep_rank)?;
            let notes = RunNotes {
                runids: run.runids.iter().map(|r| lossy(r)).collect(),
                last_runid: lossy(run.last_runid),
                beyond_c_float: run.beyond_c_float.map(|(count, row)| {
                    let (line, text) = crate::read::scan::row_line(&data, row);
                    (count, line, text)
                }),
            };
            Ok((judge_run(&index, &run, options), notes))
        })
        .collect();
    let mut runs = Vec::with_capacity(judged.len());
    let mut notes = Vec::with_capacity(judged.len());
    let mut unjudged = Vec::with_capacity(judged.len());
    for result in judged {
        let (mut one, note) = result?;
        unjudged.push(std::mem::take(&mut one.unjudged));
        runs.push(one);
        notes.push(note);
    }
    Ok(Judgment {
        batch: stack(&index, runs),
        topics: index.topics.iter().map(|t| lossy(t)).collect(),
        degrees: index.degrees.clone(),
        dense: index.dense,
        notes,
        unjudged,
    })
}

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}
