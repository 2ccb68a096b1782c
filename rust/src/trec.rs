//! From the bytes of a qrels file and of run files to one batch of judged rankings: the
//! runs decompressed, read and judged side by side (rayon, one run per task;
//! [`crate::judge`]). The output is the same whatever the thread count.

use crate::judge::{Batch, Index, Judged, Options, judge_run, stack};
use crate::read::duplicates::TABLE_ROW;
use crate::read::error::ReadError;
use crate::read::limits::{Budget, Charge};
use crate::read::open::Stop;
use crate::read::run::Scratch;
use crate::read::source::{self, Stream};
use crate::read::topics::Groups;
use crate::read::{qrels, run};
use crate::ties::Ties;
use rayon::prelude::*;
use std::borrow::Cow;
use std::path::Path;
use std::sync::Mutex;

/// A file's bytes, or its path (read when its turn comes: a run's text is read in blocks,
/// its parsed fields kept while the run is judged), and its name in messages.
pub struct File<'a> {
    pub data: Data<'a>,
    pub name: &'a str,
}

/// Where a file's bytes are: in memory, or in the file at a path, whose reading waits for a
/// FIFO's or a device's bytes until the [`Stop`] of its call is set at most.
pub enum Data<'a> {
    Bytes(&'a [u8]),
    Path(&'a Path, &'a Stop),
}

/// What one run file says beside its rankings (nothing, by default: runs not read from a
/// file, such as dicts and columns).
#[derive(Default)]
pub struct RunNotes {
    /// The distinct run ids, in order of first appearance.
    pub runids: Vec<String>,
    /// The last line's run id (trec_eval 9.0.8 names the run after it).
    pub last_runid: String,
    /// Scores no C float holds: how many, and the line number and text of the first.
    pub beyond_c_float: Option<(usize, usize, String)>,
}

/// A file's fault, and the notes of the runs read before it (their warnings come first,
/// as the Python readers give them before they refuse the file).
pub struct Failure {
    pub error: Box<ReadError>,
    pub notes: Vec<(String, RunNotes)>,
}

impl From<ReadError> for Failure {
    fn from(error: ReadError) -> Self {
        Failure {
            error: Box::new(error),
            notes: Vec::new(),
        }
    }
}

/// The batch, the judged topics (byte order), and per run its notes and its topics
/// without judgments.
pub struct Judgment {
    pub batch: Batch,
    pub topics: Vec<String>,
    pub degrees: Vec<i64>,
    pub dense: bool,
    /// The qrels' judgments at each degree of `degrees`, over every topic (the summary of
    /// `num_rel` with `-c` in trec_eval 9.0.8 counts them).
    pub judgments: Vec<i64>,
    pub notes: Vec<RunNotes>,
    pub unjudged: Vec<Vec<String>>,
}

/// The text of a file held whole, charged to its call's budget while it lives.
pub struct Text<'a, 'b> {
    data: Cow<'a, [u8]>,
    _charge: Charge<'b>,
}

impl Text<'_, '_> {
    /// The text where it was made here (decompressed, or read from a path); `None` where
    /// it is the bytes given.
    pub fn made(self) -> Option<Vec<u8>> {
        match self.data {
            Cow::Owned(data) => Some(data),
            Cow::Borrowed(_) => None,
        }
    }
}

impl std::ops::Deref for Text<'_, '_> {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.data
    }
}

/// The text of `file`, read whole within the line limit and `budget`
/// ([`source::whole`]); the error that it cannot be read, its gzip data cannot be
/// decompressed or it is beyond the limits otherwise.
pub fn text<'a, 'b>(file: &File<'a>, budget: &'b Budget) -> Result<Text<'a, 'b>, ReadError> {
    let mut charge = budget.charge();
    let data = match file.data {
        Data::Bytes(data) => source::text(data, file.name, &mut charge)?,
        Data::Path(path, stop) => Cow::Owned(source::whole(
            Stream::file(path, file.name, stop)?,
            &mut charge,
        )?),
    };
    Ok(Text {
        data,
        _charge: charge,
    })
}

impl<'a> File<'a> {
    /// The bytes of a file that can be read once only (a FIFO, a device: not a regular
    /// file), read whole (within `charge`'s budget); `None` for bytes and regular files,
    /// which [`File::stream`] reads again from their start as often as needed.
    fn held(&self, charge: &mut Charge) -> Result<Option<Vec<u8>>, ReadError> {
        match self.data {
            Data::Path(path, stop) if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) => {
                source::raw(path, self.name, charge, stop).map(Some)
            }
            _ => Ok(None),
        }
    }

    /// The file's text read in turn from its start (`held`: its bytes, read whole).
    fn stream<'h>(&self, held: &'h Option<Vec<u8>>) -> Result<Stream<'h>, ReadError>
    where
        'a: 'h,
    {
        match (held.as_deref(), &self.data) {
            (Some(data), _) | (None, &Data::Bytes(data)) => Ok(Stream::bytes(data, self.name)),
            (None, &Data::Path(path, stop)) => Stream::file(path, self.name, stop),
        }
    }
}

/// A run refused: its fault, and its notes when it was read.
type Refused = Box<(ReadError, Option<RunNotes>)>;

/// A run file's parsed fields, and its bytes where it can be read once only, charged to
/// the call's budget while they live.
struct ReadRun<'b> {
    held: Option<Vec<u8>>,
    texts: run::Texts,
    columns: run::Columns,
    _charges: [Charge<'b>; 2],
}

/// The fields of the run `file`, read in blocks (decompressed) within `budget` in the
/// buffers of `scratch`, with the memory its judging takes ([`judging_bytes`]); its fault
/// otherwise.
fn read_run<'b>(
    file: &File,
    keep_rank: bool,
    budget: &'b Budget,
    scratch: &mut Scratch,
) -> Result<ReadRun<'b>, Refused> {
    let refused = |e| Box::new((e, None));
    let mut held_charge = budget.charge();
    let held = file.held(&mut held_charge).map_err(refused)?;
    let open = || file.stream(&held);
    let (texts, columns, mut charge) =
        run::read_reusing(&open, file.name, keep_rank, budget, scratch).map_err(refused)?;
    charge
        .add(judging_bytes(columns.groups()), file.name)
        .map_err(refused)?;
    Ok(ReadRun {
        held,
        texts,
        columns,
        _charges: [held_charge, charge],
    })
}

/// Bytes a judgment of the qrels takes beyond its text: its columns (topic, docno, degree)
/// and its place in the index's table of docnos.
const QRELS_ROW: usize = 28 + TABLE_ROW;

/// Bytes judging a run of the rows `groups` takes beyond its columns: its judged rankings
/// (a degree and a row number, 12 bytes a row) and the tables of the check for duplicates
/// of the topics checked at once (the largest, one per thread).
fn judging_bytes(groups: &Groups) -> usize {
    let mut rows: Vec<usize> = groups.starts.windows(2).map(|w| w[1] - w[0]).collect();
    let at_once = rayon::current_num_threads().min(rows.len());
    if at_once < rows.len() {
        rows.select_nth_unstable_by(at_once, |a, b| b.cmp(a));
    }
    let largest: usize = rows[..at_once].iter().sum();
    12 * groups.starts.last().copied().unwrap_or(0) + TABLE_ROW * largest
}

/// The run `read` of `file` judged against `index`, with its notes; its fault otherwise
/// (a document retrieved twice for a topic).
fn judge_read(
    file: &File,
    read: ReadRun,
    index: &Index,
    options: &Options,
) -> Result<(Judged, RunNotes), Refused> {
    let refused = |e| Box::new((e, None));
    let open = || file.stream(&read.held);
    let run = read.columns.run(&read.texts);
    let beyond_c_float = match run.beyond_c_float {
        Some((count, row)) => {
            let (line, text) = run::line_of(&open, row).map_err(refused)?;
            Some((count, line, text))
        }
        None => None,
    };
    let notes = RunNotes {
        runids: run.runids.iter().map(|r| lossy(r)).collect(),
        last_runid: lossy(run.last_runid),
        beyond_c_float,
    };
    if let Err(error) = run::refuse_duplicates(&run, &open, file.name) {
        return Err(Box::new((error, Some(notes))));
    }
    Ok((judge_run(index, &run, options), notes))
}

/// The judged rankings of every run against the qrels; the first fault in reading order
/// (the qrels, then the runs in turn) otherwise. The qrels are parsed while the first run
/// is read (parsed first, alone, they would leave every thread but one idle); the other
/// runs are read and judged side by side, each run's parsed fields kept while it is judged
/// only, a thread reading its runs in turn in the same buffers ([`Scratch`]). The files'
/// texts and parsed fields held at once are within `budget`.
pub fn judge(
    qrels_file: &File,
    run_files: &[File],
    options: &Options,
    budget: &Budget,
) -> Result<Judgment, Failure> {
    let keep_rank = options.ties == Ties::RankColumn;
    let qrels_text = text(qrels_file, budget)?;
    let mut qrels_charge = budget.charge();
    let judgments = memchr::memchr_iter(b'\n', &qrels_text).count() + 1;
    qrels_charge.add(judgments.saturating_mul(QRELS_ROW), qrels_file.name)?;
    // the qrels' columns are not kept: the index holds what judging needs
    let (index, first) = rayon::join(
        || {
            let qrels = qrels::read(&qrels_text, qrels_file.name)?;
            Index::build(&qrels, &mut qrels_charge, qrels_file.name)
        },
        || {
            run_files
                .first()
                .map(|file| read_run(file, keep_rank, budget, &mut Scratch::default()))
        },
    );
    let index = index?;
    let first = Mutex::new(first);
    let judged: Vec<Result<_, Refused>> = run_files
        .par_iter()
        .enumerate()
        .map_init(Scratch::default, |scratch, (at, file)| {
            let read = match at {
                0 => first.lock().expect("taken once").take().expect("read"),
                _ => read_run(file, keep_rank, budget, scratch),
            }?;
            judge_read(file, read, &index, options)
        })
        .collect();
    let mut runs = Vec::with_capacity(judged.len());
    let mut notes: Vec<RunNotes> = Vec::with_capacity(judged.len());
    for (result, file) in judged.into_iter().zip(run_files) {
        let (one, note) = match result {
            Ok(found) => found,
            Err(refused) => {
                let (error, own) = *refused;
                let names = run_files.iter().map(|f| f.name.to_string());
                let mut warned: Vec<(String, RunNotes)> = names.zip(notes).collect();
                warned.extend(own.map(|note| (file.name.to_string(), note)));
                return Err(Failure {
                    error: Box::new(error),
                    notes: warned,
                });
            }
        };
        runs.push(one);
        notes.push(note);
    }
    Ok(gathered(
        &index,
        runs,
        notes,
        &mut qrels_charge,
        qrels_file.name,
    )?)
}

/// The [`Judgment`] of runs judged against `index` (`notes`: what each run says beside
/// its rankings), its batch charged to `charge` ([`stack`]: the memory error of the qrels
/// `source` beyond the budget or the memory to be had).
pub fn gathered(
    index: &Index,
    mut runs: Vec<Judged>,
    notes: Vec<RunNotes>,
    charge: &mut Charge,
    source: &str,
) -> Result<Judgment, ReadError> {
    let unjudged = runs
        .iter_mut()
        .map(|run| std::mem::take(&mut run.unjudged))
        .collect();
    let width = index.degrees.len();
    let mut judgments = vec![0i64; width];
    for row in index.rel_levels.chunks_exact(width.max(1)) {
        for (total, count) in judgments.iter_mut().zip(row) {
            *total += count;
        }
    }
    Ok(Judgment {
        batch: stack(index, runs, charge, source)?,
        judgments,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::error::Kind;

    #[test]
    fn judgments_count_every_qrels_topic_by_degree() {
        // degrees 0, 1, 2 over two topics (the run retrieves topic 1 only); -1 is pooled
        // but not judged: counted at no degree
        let qrels = File {
            data: Data::Bytes(b"1 0 a 1\n1 0 b 0\n1 0 c 2\n2 0 a 1\n2 0 d -1\n2 0 e 2\n"),
            name: "qrels",
        };
        let run = File {
            data: Data::Bytes(b"1 Q0 a 1 1.0 r\n"),
            name: "run",
        };
        let options = Options::new(Ties::TrecEval, 9, None, false, false);
        let Ok(judgment) = judge(&qrels, &[run], &options, &Budget::unlimited()) else {
            panic!("the files are well formed");
        };
        assert_eq!(judgment.degrees, vec![0, 1, 2]);
        assert_eq!(judgment.judgments, vec![1, 2, 2]);
    }

    #[test]
    fn the_qrels_and_the_runs_are_judged_within_the_budget() {
        let qrels = b"1 0 a 1\n1 0 b 0\n";
        let run = b"1 Q0 a 1 1.0 r\n1 Q0 b 2 0.5 r\n";
        let file = |data, name| File {
            data: Data::Bytes(data),
            name,
        };
        let options = Options::new(Ties::TrecEval, 9, None, false, false);
        let judged = |limit| {
            let runs = [file(run, "run")];
            judge(&file(qrels, "qrels"), &runs, &options, &Budget::new(limit))
                .map(|_| ())
                .map_err(|failure| (failure.error.kind, failure.error.source))
        };
        // the qrels' judging: 3 × QRELS_ROW bytes (their text is held by the caller)
        assert_eq!(judged(100), Err((Kind::Memory, "qrels".to_string())));
        let qrels_bytes = 3 * QRELS_ROW;
        assert_eq!(
            judged(qrels_bytes + 20),
            Err((Kind::Memory, "run".to_string()))
        );
        assert_eq!(judged(1 << 20), Ok(()));
    }
}
