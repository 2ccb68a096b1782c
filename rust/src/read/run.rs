//! TREC runs `qid Q0 docno rank score runid` (`irscale.io.trec.read_run`): `Q0` is
//! ignored, and `rank` unless kept; scores are finite numbers; a document retrieved twice
//! for a topic is refused ([`refuse_duplicates`], after the run's warnings, as the Python
//! reader warns before it refuses).

use super::append::append_parts;
use super::blocks::{Blocks, locate, row_line};
use super::diagnose::Check;
use super::duplicates::first_duplicate;
use super::error::{Kind, ReadError};
use super::fields::Format;
use super::fields::{NOT_FINITE, NOT_NUMBER, parse_float, parse_integer, same};
use super::limits::{Budget, Charge, grow, out_of_memory};
use super::scan::{Scan, scan, verdict};
use super::source::{Stream, whole};
use super::topics::{Groups, Interner};
use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};

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

/// A run: one row per retrieved document, in file order.
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

/// The docnos of a run laid end to end in a text: row `r`'s at `starts[r]..starts[r + 1]`.
pub struct Docnos<'a> {
    text: &'a [u8],
    starts: Starts,
}

/// Where docnos start in their text: 4 bytes a row while the text is below 4 GiB, 8
/// beyond.
pub enum Starts {
    Narrow(Vec<u32>),
    Wide(Vec<u64>),
}

impl Starts {
    fn new() -> Starts {
        Starts::Narrow(vec![0])
    }

    /// The starts of the next docnos, those of each part in turn: part `i`'s end at
    /// `bases[i] + ends[i][r]` of the text (ascending). Written side by side
    /// ([`append_parts`]), 8 bytes each once the text passes 4 GiB; `Err` with the bytes
    /// that could not be allocated.
    fn append(&mut self, bases: &[usize], ends: &[&[usize]]) -> Result<(), usize> {
        let last = bases
            .iter()
            .zip(ends)
            .filter_map(|(b, e)| e.last().map(|end| b + end));
        if let (Starts::Narrow(starts), Some(end)) = (&*self, last.max()) {
            if u32::try_from(end).is_err() {
                let mut wide = Vec::new();
                wide.try_reserve_exact(starts.len())
                    .map_err(|_| 8 * starts.len())?;
                wide.extend(starts.iter().map(|&s| u64::from(s)));
                *self = Starts::Wide(wide);
            }
        }
        let lengths: Vec<usize> = ends.iter().map(|e| e.len()).collect();
        match self {
            Starts::Narrow(starts) => append_parts(starts, &lengths, |i| {
                ends[i].iter().map(move |&end| (bases[i] + end) as u32)
            }),
            Starts::Wide(starts) => append_parts(starts, &lengths, |i| {
                ends[i].iter().map(move |&end| (bases[i] + end) as u64)
            }),
        }
    }

    #[inline]
    fn bounds(&self, row: u32) -> (usize, usize) {
        let row = row as usize;
        match self {
            Starts::Narrow(starts) => (starts[row] as usize, starts[row + 1] as usize),
            Starts::Wide(starts) => (starts[row] as usize, starts[row + 1] as usize),
        }
    }
}

impl<'a> Docnos<'a> {
    /// Docnos laid end to end in `text`, row `r`'s at `starts[r]..starts[r + 1]`.
    pub fn bounded(text: &'a [u8], starts: Vec<u64>) -> Docnos<'a> {
        Docnos {
            text,
            starts: Starts::Wide(starts),
        }
    }

    /// The docno of row `row`.
    #[inline]
    pub fn get(&self, row: u32) -> &'a [u8] {
        let (start, end) = self.starts.bounds(row);
        &self.text[start..end]
    }
}

/// The text fields of a run read from its file: the docnos end to end, the topic ids (in
/// order of first appearance), the distinct run ids and the last line's.
#[derive(Default)]
pub struct Texts {
    docnos: Vec<u8>,
    topics: Vec<Vec<u8>>,
    runids: Vec<Vec<u8>>,
    last_runid: Vec<u8>,
}

/// The other columns of a run read from its file ([`Columns::run`] joins them to its
/// [`Texts`]).
pub struct Columns {
    starts: Starts,
    score: Vec<f64>,
    rank: Vec<i64>,
    groups: Groups,
    beyond_c_float: Option<(usize, usize)>,
}

impl Columns {
    /// The rows of every topic.
    pub fn groups(&self) -> &Groups {
        &self.groups
    }

    /// The run of these columns and `texts`.
    pub fn run(self, texts: &Texts) -> Run<'_> {
        Run {
            docno: Docnos {
                text: &texts.docnos,
                starts: self.starts,
            },
            score: self.score,
            rank: self.rank,
            topics: texts.topics.iter().map(Vec::as_slice).collect(),
            groups: self.groups,
            runids: texts.runids.iter().map(Vec::as_slice).collect(),
            last_runid: &texts.last_runid,
            beyond_c_float: self.beyond_c_float,
        }
    }
}

/// A run's text, read from its start each time it is called: in blocks to be parsed, and
/// again to name a line (or whole, to diagnose a line that does not fit).
pub type Open<'a> = dyn Fn() -> Result<Stream<'a>, ReadError> + Sync + 'a;

/// Bytes of a topic in the table of topic ids (an id's key, value and the table's slack),
/// as the budget counts them.
const TOPIC_ENTRY: usize = 48;

/// Bytes of a block of the text, parsed as one task. (A few lines in the unit tests, so
/// that they read every text in several blocks.)
#[cfg(not(test))]
const BLOCK: usize = 1 << 21;
#[cfg(test)]
const BLOCK: usize = 16;

/// Blocks of a wave per thread: small tasks, so that the threads end each wave together
/// (the wave is a barrier); 4 × 2 MiB shares two cores better than 2 × 4 MiB for the same
/// memory (docs/benchmarks.md, *Both cores: the run's blocks joined side by side*).
const WAVE_BLOCKS_PER_THREAD: usize = 4;

/// The threads whose waves are of whole [`BLOCK`]s: more threads share the same bytes in
/// smaller blocks, so that the text and parts in flight (three waves: read, parsed,
/// joined) take the same memory on any number of cores (docs/benchmarks.md, *Sixteen
/// cores*).
const WAVE_THREADS: usize = 2;

/// The bytes of a block when `threads` parse a wave: [`BLOCK`], or less past
/// [`WAVE_THREADS`] threads (a wave of `WAVE_BLOCKS_PER_THREAD × WAVE_THREADS` blocks'
/// bytes in all).
fn block_bytes(threads: usize) -> usize {
    (BLOCK * WAVE_THREADS / threads.max(WAVE_THREADS)).max(1)
}

/// What the fast pass over one block of a run's text found: its rows' columns (each docno
/// ending at `ends[r]` of `docnos`), the topics of its rows in runs of equal topics
/// (`(topic, rows)`, numbered as `topics` numbers them), its run ids. A spent part is
/// filled again by the next block (its memory is not mapped afresh).
#[derive(Default)]
struct Part {
    docnos: Vec<u8>,
    ends: Vec<usize>,
    score: Vec<f64>,
    rank: Vec<i64>,
    segments: Vec<(u32, u32)>,
    topics: Vec<Vec<u8>>,
    runids: Vec<Vec<u8>>,
    last_runid: Vec<u8>,
    scan: Scan,
}

/// The rows of `block` in `part` (a spent one, emptied first); `first`: the block starts
/// the text.
fn read_block(block: &[u8], first: bool, keep_rank: bool, mut part: Part) -> Part {
    part.docnos.clear();
    part.ends.clear();
    part.score.clear();
    part.rank.clear();
    part.segments.clear();
    let mut topics = Interner::default();
    let mut runids: Vec<&[u8]> = Vec::new();
    let mut seen_runids: FxHashSet<&[u8]> = FxHashSet::default();
    let mut last_runid: &[u8] = b"";
    let Part {
        docnos,
        ends,
        score,
        rank,
        segments,
        ..
    } = &mut part;
    let found = scan(block, first, &FORMAT, |fields: &[&[u8]; 6]| {
        let Ok(value) = parse_float(fields[4]) else {
            return false;
        };
        if keep_rank {
            let Ok(r) = parse_integer(fields[3]) else {
                return false;
            };
            rank.push(r);
        }
        let topic = topics.id(fields[0]);
        match segments.last_mut() {
            Some((last, rows)) if *last == topic => *rows += 1,
            _ => segments.push((topic, 1)),
        }
        docnos.extend(fields[2].iter().copied());
        ends.push(docnos.len());
        score.push(value);
        if !same(fields[5], last_runid) && seen_runids.insert(fields[5]) {
            runids.push(fields[5]);
        }
        last_runid = fields[5];
        true
    });
    part.topics = topics.names.iter().map(|name| name.to_vec()).collect();
    part.runids = runids.iter().map(|runid| runid.to_vec()).collect();
    part.last_runid = last_runid.to_vec();
    part.scan = found;
    part
}

/// The blocks read so far, joined.
struct Joined<'b> {
    /// Their bytes, charged to the call's budget.
    charge: Charge<'b>,
    texts: Texts,
    starts: Starts,
    score: Vec<f64>,
    rank: Vec<i64>,
    segments: Vec<(u32, u32)>,
    topic_ids: FxHashMap<Vec<u8>, u32>,
    seen_runids: FxHashSet<Vec<u8>>,
    scan: Scan,
    /// The row of the first score that is not finite.
    infinite: Option<usize>,
    /// The scores no C float holds: how many, and the first one's row.
    beyond_c_float: Option<(usize, usize)>,
}

impl Joined<'_> {
    /// The next wave's parts appended, in order (none from a line that does not fit on:
    /// the text is then diagnosed whole). Their topics and run ids are taken in turn,
    /// their scores checked and their columns copied side by side, once their bytes are
    /// charged to the budget and the room for them is had (the memory error otherwise).
    fn add(&mut self, parts: &[Part], source: &str) -> Result<(), ReadError> {
        let mut taken = 0;
        for part in parts {
            self.scan.merge(&part.scan);
            if self.scan.misfit {
                continue;
            }
            if self.scan.rows > u32::MAX as usize {
                return Err(ReadError::whole(
                    Kind::Format,
                    format!(
                        "{} of more than {} lines: too many for one file",
                        FORMAT.what,
                        u32::MAX
                    ),
                    source,
                ));
            }
            // the room for its topics (as many as its rows, at worst)
            let (topics, charge) = (part.topics.len(), &mut self.charge);
            grow(&mut self.segments, part.segments.len(), charge, source)?;
            grow(&mut self.texts.topics, topics, charge, source)?;
            charge.add(topics * TOPIC_ENTRY, source)?;
            self.topic_ids
                .try_reserve(topics)
                .map_err(|_| out_of_memory(source, topics * TOPIC_ENTRY))?;
            self.name(part);
            taken += 1;
        }
        let parts = &parts[..taken];
        self.room(parts, source)?;
        // the scores' checks, made here while the next wave is parsed
        let checks: Vec<_> = parts
            .par_iter()
            .map(|part| {
                (
                    part.score.iter().position(|s| !s.is_finite()),
                    c_float_losses(&part.score),
                )
            })
            .collect();
        let mut rows = self.score.len();
        for (part, (infinite, losses)) in parts.iter().zip(checks) {
            if self.infinite.is_none() {
                self.infinite = infinite.map(|r| rows + r);
            }
            if let Some((count, first)) = losses {
                let (before, at) = self.beyond_c_float.unwrap_or((0, rows + first));
                self.beyond_c_float = Some((before + count, at));
            }
            rows += part.score.len();
        }
        let texts = &mut self.texts;
        let mut bases = Vec::with_capacity(parts.len());
        let mut base = texts.docnos.len();
        for part in parts {
            bases.push(base);
            base += part.docnos.len();
        }
        let ends: Vec<&[usize]> = parts.iter().map(|part| &part.ends[..]).collect();
        let no_room = |bytes| out_of_memory(source, bytes);
        self.starts.append(&bases, &ends).map_err(no_room)?;
        let bytes: Vec<usize> = parts.iter().map(|part| part.docnos.len()).collect();
        append_parts(&mut texts.docnos, &bytes, |i| {
            parts[i].docnos.iter().copied()
        })
        .map_err(no_room)?;
        let counts: Vec<usize> = parts.iter().map(|part| part.score.len()).collect();
        append_parts(&mut self.score, &counts, |i| parts[i].score.iter().copied())
            .map_err(no_room)?;
        let ranks: Vec<usize> = parts.iter().map(|part| part.rank.len()).collect();
        append_parts(&mut self.rank, &ranks, |i| parts[i].rank.iter().copied()).map_err(no_room)?;
        Ok(())
    }

    /// Room for the columns of `parts`, charged to the budget as it is reserved.
    fn room(&mut self, parts: &[Part], source: &str) -> Result<(), ReadError> {
        let sum = |count: fn(&Part) -> usize| parts.iter().map(count).sum::<usize>();
        let charge = &mut self.charge;
        let rows = sum(|part| part.ends.len());
        match &mut self.starts {
            Starts::Narrow(starts) => grow(starts, rows, charge, source)?,
            Starts::Wide(starts) => grow(starts, rows, charge, source)?,
        }
        grow(
            &mut self.texts.docnos,
            sum(|part| part.docnos.len()),
            charge,
            source,
        )?;
        grow(&mut self.score, rows, charge, source)?;
        grow(&mut self.rank, sum(|part| part.rank.len()), charge, source)
    }

    /// The topics (numbered in order of first appearance), topic segments and run ids of
    /// the next part.
    fn name(&mut self, part: &Part) {
        let texts = &mut self.texts;
        let ids: Vec<u32> = part
            .topics
            .iter()
            .map(|name| match self.topic_ids.get(name) {
                Some(&id) => id,
                None => {
                    let id = texts.topics.len() as u32;
                    texts.topics.push(name.clone());
                    self.topic_ids.insert(name.clone(), id);
                    id
                }
            })
            .collect();
        for &(topic, rows) in &part.segments {
            let topic = ids[topic as usize];
            match self.segments.last_mut() {
                Some((last, count)) if *last == topic => *count += rows,
                _ => self.segments.push((topic, rows)),
            }
        }
        for runid in &part.runids {
            if !self.seen_runids.contains(runid) {
                self.seen_runids.insert(runid.clone());
                texts.runids.push(runid.clone());
            }
        }
        if part.scan.rows > 0 {
            texts.last_runid.clone_from(&part.last_runid);
        }
    }
}

/// The buffers of a run file's reading that a thread reuses for the next file it reads:
/// the blocks of text and the parts parsed from them (a track's runs read one after
/// another in the same buffers, whose pages are not mapped afresh for every file).
#[derive(Default)]
pub struct Scratch {
    blocks: Vec<Vec<u8>>,
    parts: Vec<Part>,
}

/// The run whose text `open` reads, named `source` in errors; `keep_rank` reads the rank
/// column (the `rank-column` tie policy). The text is read in blocks of whole lines, a
/// wave of blocks ([`WAVE_BLOCKS_PER_THREAD`]) parsed side by side while the next wave is read and
/// the last wave's columns are appended: the text itself is not kept, its parsed fields
/// are (the docnos end to end), charged to `budget` (the returned [`Charge`] holds them
/// while they live). A line that does not fit, a NUL byte or no data line: the whole text
/// is read again and diagnosed, as one text is. A line beyond the line limit, or columns
/// beyond the budget or the memory to be had, are refused, named by their line.
pub fn read_from<'b>(
    open: &Open,
    source: &str,
    keep_rank: bool,
    budget: &'b Budget,
) -> Result<(Texts, Columns, Charge<'b>), ReadError> {
    read_reusing(open, source, keep_rank, budget, &mut Scratch::default())
}

/// [`read_from`] in the buffers of `scratch`, which hold them again afterwards.
pub fn read_reusing<'b>(
    open: &Open,
    source: &str,
    keep_rank: bool,
    budget: &'b Budget,
    scratch: &mut Scratch,
) -> Result<(Texts, Columns, Charge<'b>), ReadError> {
    let threads = rayon::current_num_threads();
    let mut blocks = Blocks::new(open()?, block_bytes(threads));
    let count = WAVE_BLOCKS_PER_THREAD * threads;
    let Scratch {
        blocks: spare,
        parts: spent,
    } = scratch;
    let mut joined = Joined {
        charge: budget.charge(),
        texts: Texts::default(),
        starts: Starts::new(),
        score: Vec::new(),
        rank: Vec::new(),
        segments: Vec::new(),
        topic_ids: FxHashMap::default(),
        seen_runids: FxHashSet::default(),
        scan: Scan::default(),
        infinite: None,
        beyond_c_float: None,
    };
    // a wave of blocks parsed while the next one is read and the last one's parts joined
    let mut wave = blocks
        .wave(count, spare)
        .map_err(|error| locate(error, open))?;
    let mut parts: Vec<Part> = Vec::new();
    let mut first = true;
    while !(wave.is_empty() && parts.is_empty()) {
        let reused: Vec<Part> = (0..wave.len())
            .map(|_| spent.pop().unwrap_or_default())
            .collect();
        let ((next, parsed), joining) = rayon::join(
            || {
                rayon::join(
                    || blocks.wave(count, spare),
                    || {
                        wave.par_iter()
                            .zip(reused)
                            .enumerate()
                            .map(|(i, (block, part))| {
                                read_block(block, first && i == 0, keep_rank, part)
                            })
                            .collect::<Vec<Part>>()
                    },
                )
            },
            || {
                let added = joined.add(&parts, source);
                spent.append(&mut parts);
                added
            },
        );
        if let Err(mut error) = joining {
            // the memory error: named by the line of the first row it could not take
            if error.kind == Kind::Memory {
                error.line = Some(line_of(open, joined.score.len())?.0).filter(|&n| n > 0);
            }
            return Err(error);
        }
        let next = next.map_err(|error| locate(error, open))?;
        if joined.scan.misfit {
            break;
        }
        first = false;
        spare.append(&mut wave);
        wave = next;
        parts = parsed;
    }
    let Joined {
        charge,
        texts,
        starts,
        score: scores,
        rank,
        segments,
        scan: found,
        infinite,
        beyond_c_float,
        ..
    } = joined;
    if found.misfit || found.rows == 0 || found.nul {
        // the score is checked before the rank, as the Python reader's checks are ordered
        let checks: &[(usize, Check)] = if keep_rank {
            &[(4, score), (3, integer)]
        } else {
            &[(4, score)]
        };
        let mut charge = budget.charge();
        verdict(
            &whole(open()?, &mut charge)?,
            source,
            &FORMAT,
            checks,
            &found,
        )?;
    }
    if let Some(row) = infinite {
        let (line, text) = line_of(open, row)?;
        return Err(ReadError::at(
            Kind::Format,
            format!("score {NOT_FINITE}"),
            source,
            line,
            text,
        ));
    }
    let groups = Groups::of_segments(&segments, texts.topics.len());
    let columns = Columns {
        starts,
        score: scores,
        rank,
        groups,
        beyond_c_float,
    };
    Ok((texts, columns, charge))
}

/// The run of `data` (a file's bytes, plain or gzip) named `source` in errors
/// ([`read_from`], within the machine's memory).
pub fn read(data: &[u8], source: &str, keep_rank: bool) -> Result<(Texts, Columns), ReadError> {
    let open = || Ok(Stream::bytes(data, source));
    read_from(&open, source, keep_rank, &Budget::unlimited()).map(|(t, c, _)| (t, c))
}

/// The line number and text of data line `row` of the text `open` reads, as the Python
/// readers name it.
pub fn line_of(open: &Open, row: usize) -> Result<(usize, String), ReadError> {
    row_line(Blocks::new(open()?, BLOCK), row)
}

/// The error of a document that `run` (read from the text `open` reads) retrieves twice
/// for a topic, named as the Python reader names it; `Ok` when there is none.
pub fn refuse_duplicates(run: &Run, open: &Open, source: &str) -> Result<(), ReadError> {
    let found = first_duplicate(&run.groups, |row| run.docno.get(row))
        .map_err(|bytes| out_of_memory(source, bytes))?;
    let Some((first, second)) = found else {
        return Ok(());
    };
    let topic = (0..run.topics.len())
        .find(|&t| run.groups.rows_of(t).any(|row| row == first))
        .map_or(&b""[..], |t| run.topics[t]);
    let (line, text) = line_of(open, second as usize)?;
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
    use crate::read::open::NEVER;
    use crate::read::scan;

    /// Reads `data` and hands its run to `check`.
    fn with_run(data: &[u8], keep_rank: bool, check: impl FnOnce(&Run)) {
        let (texts, columns) = read(data, "r", keep_rank).unwrap();
        check(&columns.run(&texts));
    }

    #[test]
    fn rows_run_ids_and_ranks() {
        let data = b"1 Q0 d1 1 2.5 a\n1 Q0 d2 2 1e300 b\n2 0 d1 1 -0 a\n";
        with_run(data, true, |run| {
            assert_eq!(run.groups.rows_of(0).collect::<Vec<_>>(), [0, 1]);
            assert_eq!(run.score, [2.5, 1e300, 0.0]);
            assert_eq!(run.rank, [1, 2, 1]);
            assert_eq!(run.runids, [&b"a"[..], b"b"]);
            assert_eq!(run.last_runid, b"a");
            assert_eq!(run.beyond_c_float, Some((1, 1)));
        });
    }

    #[test]
    fn blocks_read_as_one_text() {
        // lines longer than a block, blank lines, CRLF and lone CR line ends, no final
        // line end, topics interleaved: the rows as one pass over the text reads them
        let mut text = Vec::new();
        for i in 0..500 {
            let end = ["\n\n", "\r\n", "\r\n \t\n", "\n"][i % 4];
            let line = format!(
                "t{} Q0 d{i} {i} {}.5 r{}{end}",
                (i * 7) % 13,
                i % 17,
                i / 200
            );
            text.extend(line.as_bytes());
        }
        text.extend(b"t0 Q0 last 500 0.5 r2");
        let mut rows = 0;
        let whole = scan::scan(&text, true, &FORMAT, |_: &[&[u8]; 6]| {
            rows += 1;
            true
        });
        assert_eq!((whole.rows, whole.misfit), (501, false));
        // blocks of whole `BLOCK`s on one and two threads, smaller ones on more
        for threads in [1, 2, 3, 16] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| with_run(&text, true, check_rows));
            // the same text from a plain file: its waves read side by side
            let path = std::env::temp_dir().join(format!(
                "irscale-run-blocks-{}-{threads}",
                std::process::id()
            ));
            std::fs::write(&path, &text).unwrap();
            let open = || Stream::file(&path, "r", &NEVER);
            let budget = Budget::unlimited();
            let (texts, columns, _) = pool
                .install(|| read_from(&open, "r", true, &budget))
                .unwrap();
            std::fs::remove_file(&path).unwrap();
            check_rows(&columns.run(&texts));
        }
        let open = || Ok(Stream::bytes(&text, "r"));
        for row in [0, 1, 2, 3, 250, 499, 500, 501] {
            assert_eq!(line_of(&open, row).unwrap(), scan::row_line(&text, row));
        }
    }

    #[test]
    fn runs_read_in_turn_in_the_same_buffers() {
        // plain files of several waves, then fewer bytes, lines and blocks than the last
        // file left in the buffers: each read as it is read afresh
        let scratch = &mut Scratch::default();
        for (n, long) in [(300, 9), (40, 1), (500, 30), (3, 2), (120, 0)] {
            let text: Vec<u8> = (0..n)
                .flat_map(|i| {
                    format!("t{} Q0 d{i}{} {i} {i}.5 r\n", i % 7, "x".repeat(long)).into_bytes()
                })
                .collect();
            let path = std::env::temp_dir()
                .join(format!("irscale-run-scratch-{}-{n}", std::process::id()));
            std::fs::write(&path, &text).unwrap();
            let open = || Stream::file(&path, "r", &NEVER);
            let budget = Budget::unlimited();
            let (texts, columns, _) = read_reusing(&open, "r", true, &budget, scratch).unwrap();
            let (fresh_texts, fresh_columns) = read(&text, "r", true).unwrap();
            std::fs::remove_file(&path).unwrap();
            let (run, fresh) = (columns.run(&texts), fresh_columns.run(&fresh_texts));
            assert_eq!((&run.score, &run.rank), (&fresh.score, &fresh.rank));
            assert_eq!(run.topics, fresh.topics);
            for row in 0..n as u32 {
                assert_eq!(run.docno.get(row), fresh.docno.get(row));
            }
        }
    }

    /// The rows of [`blocks_read_as_one_text`]'s text, from the formula that wrote them.
    fn check_rows(run: &Run) {
        {
            assert_eq!(run.score.len(), 501);
            let mut topic = vec![0; 501];
            for t in 0..run.topics.len() {
                run.groups
                    .rows_of(t)
                    .for_each(|row| topic[row as usize] = t);
            }
            for (i, &t) in topic.iter().enumerate().take(500) {
                assert_eq!(run.topics[t], format!("t{}", (i * 7) % 13).as_bytes());
                assert_eq!(run.docno.get(i as u32), format!("d{i}").as_bytes());
                assert_eq!(
                    (run.rank[i], run.score[i]),
                    (i as i64, (i % 17) as f64 + 0.5)
                );
            }
            assert_eq!(run.docno.get(500), b"last");
            assert_eq!(run.topics[..3], [&b"t0"[..], b"t7", b"t1"]);
            assert_eq!(run.runids, [&b"r0"[..], b"r1", b"r2"]);
            assert_eq!(run.last_runid, b"r2");
        }
    }

    #[test]
    fn a_wave_holds_as_many_bytes_on_any_number_of_threads() {
        let wave = |threads: usize| WAVE_BLOCKS_PER_THREAD * threads * block_bytes(threads);
        assert_eq!(block_bytes(1), BLOCK);
        assert_eq!(block_bytes(2), BLOCK);
        for threads in 2..=WAVE_THREADS * BLOCK {
            assert!(wave(threads) <= wave(2), "{threads}");
            assert!(block_bytes(threads) >= 1);
        }
    }

    #[test]
    fn a_lone_return_ends_a_row_and_rows_are_named_by_lines() {
        with_run(b"1 Q0 a 1 1 r\r1 Q0 b 2 1 r", false, |run| {
            assert_eq!((run.docno.get(0), run.docno.get(1)), (&b"a"[..], &b"b"[..]));
        });
        let data = b"1 Q0 a 1 1 r\r1 Q0 b 2 1e39 r\n1 Q0 c 3 1 r\n";
        let (_, columns) = read(data, "r", false).unwrap();
        // row 1 is named as the Python readers name it: the second line, by `\n`
        assert_eq!(columns.beyond_c_float, Some((1, 1)));
        let open = || Ok(Stream::bytes(data, "r"));
        assert_eq!(line_of(&open, 1).unwrap(), (2, "1 Q0 c 3 1 r".to_string()));
    }

    #[test]
    fn gzip_text_read_in_blocks() {
        use flate2::{Compression, write::GzEncoder};
        use std::io::Write;
        let plain = b"1 Q0 d1 1 2.5 a\n2 Q0 d2 1 1.5 a\n".repeat(20);
        let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
        encoder.write_all(&plain).unwrap();
        let data = encoder.finish().unwrap();
        with_run(&data, false, |run| {
            assert_eq!(run.score.len(), 40);
            assert_eq!(run.topics, [&b"1"[..], b"2"]);
            assert_eq!(run.groups.rows_of(1).nth(19), Some(39));
        });
        let error = read(&data[..data.len() - 9], "r", false).err().unwrap();
        assert_eq!(error.kind, Kind::Gzip);
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
        let (texts, columns) = read(data, "r", false).unwrap();
        let open = || Ok(Stream::bytes(data, "r"));
        let error = refuse_duplicates(&columns.run(&texts), &open, "r")
            .err()
            .unwrap();
        assert_eq!((error.kind, error.line), (Kind::Duplicate, Some(3)));
        assert_eq!(error.details, ["2", "d1"]);
    }

    #[test]
    fn the_first_fault_in_file_order_is_named() {
        // faults in several blocks (of 16 bytes here): the first line's is named, whatever
        // the blocks parsed first
        let mut data = b"1 Q0 d1 1 2.5 a\n".repeat(40);
        data.extend(b"1 Q0 d2 1 x a\n");
        data.extend(b"1 Q0 d1 1 2.5 a\n".repeat(40));
        data.extend(b"1 Q0 d3 1\n");
        data.extend(b"1 Q0 d1 1 2.5 a\n".repeat(40));
        data.extend(b"1 Q0 d4 1 inf a\n");
        let error = read(&data, "r", false).err().unwrap();
        assert_eq!(
            (error.reason.as_str(), error.line, error.text.as_deref()),
            ("score is not a number", Some(41), Some("1 Q0 d2 1 x a"))
        );
        let good = b"1 Q0 d1 1 2 a\n".repeat(30);
        let nul = [&good[..], b"1 Q0 d\x001 1 2 a\n"].concat();
        let error = read(&nul, "r", false).err().unwrap();
        assert_eq!(error.line, Some(31));
        let later = [&nul[..], b"1 Q0 d1 1\n"].concat();
        let error = read(&later, "r", false).err().unwrap();
        assert_eq!(error.line, Some(31));
        let before = [&b"1 Q0 d1 1 2 a\n1 Q0 d1 1\n"[..], &nul[..]].concat();
        let error = read(&before, "r", false).err().unwrap();
        assert_eq!(error.line, Some(2));
        let error = read(b" \n\r\n\t", "r", false).err().unwrap();
        assert_eq!(error.kind, Kind::Empty);
        let inf = [&b"1 Q0 d1 1 2 a\r\n".repeat(30)[..], b"1 Q0 d2 1 -inf a"].concat();
        let error = read(&inf, "r", false).err().unwrap();
        assert_eq!(
            (error.line, error.text.as_deref()),
            (Some(31), Some("1 Q0 d2 1 -inf a"))
        );
    }

    #[test]
    fn columns_beyond_the_budget_are_refused_by_the_line_they_reached() {
        let data = b"1 Q0 d1 1 2.5 a\n".repeat(400);
        let open = || Ok(Stream::bytes(&data, "r"));
        let error = read_from(&open, "r", false, &Budget::new(1000))
            .err()
            .unwrap();
        assert_eq!(error.kind, Kind::Memory);
        assert!(
            error.line.is_some_and(|line| line > 1 && line < 400),
            "{error:?}"
        );
        let budget = Budget::new(1 << 20);
        assert!(read_from(&open, "r", false, &budget).is_ok());
    }

    #[test]
    fn docno_starts_widen_beyond_four_gigabytes() {
        let mut starts = Starts::new();
        starts.append(&[0], &[&[3]]).unwrap();
        assert!(matches!(starts, Starts::Narrow(_)));
        starts
            .append(&[3, u32::MAX as usize], &[&[], &[5, 9]])
            .unwrap();
        assert_eq!(starts.bounds(0), (0, 3));
        assert_eq!(starts.bounds(1), (3, u32::MAX as usize + 5));
        assert_eq!(
            starts.bounds(2),
            (u32::MAX as usize + 5, u32::MAX as usize + 9)
        );
        assert!(matches!(starts, Starts::Wide(_)));
    }
}
