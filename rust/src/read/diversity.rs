//! ndeval's files (ndeval 4.5, ndeval.c): diversity qrels `topic subtopic docno judgment`
//! and TREC runs read as ndeval reads them (the rank column kept, the run named after the
//! run id of its first line), exactly as `irscale.io.diversity` reads them: the same lines
//! accepted and refused, the same values, the same errors (file, line and text).
//!
//! Lines are split and checked by the TREC readers' passes ([`scan`], [`verdict`]); the
//! ids can be read as ndeval reads them ([`natural_number`], [`run_topic`]).

use super::diagnose::Check;
use super::error::{Kind, ReadError};
use super::fields::Format;
use super::fields::{parse_float, parse_integer};
use super::run::FORMAT as RUN_FORMAT;
use super::scan::{row_line, scan, verdict};
use super::topics::{Groups, Interner};
use rustc_hash::{FxHashMap, FxHashSet};

/// The diversity qrels format.
pub const QRELS_FORMAT: Format = Format {
    what: "diversity qrels",
    names: &["topic", "subtopic", "docno", "judgment"],
    texts: &[0, 1, 2],
};

/// ndeval.c's `LARGE_ENOUGH`: `naturalNumber` refuses the next digit of a larger value.
pub const LARGE_ENOUGH: u64 = 100_000;

/// ndeval.c's `naturalNumber`: the value of a string of ASCII digits, or `None` (ndeval's
/// −1) for an empty string, any other byte, or a value above [`LARGE_ENOUGH`] before its
/// next digit (so at most 1,000,009).
pub fn natural_number(text: &[u8]) -> Option<u64> {
    if text.is_empty() {
        return None;
    }
    let mut value: u64 = 0;
    for &byte in text {
        if !byte.is_ascii_digit() || value > LARGE_ENOUGH {
            return None;
        }
        value = 10 * value + u64::from(byte - b'0');
    }
    Some(value)
}

/// ndeval.c's `parseTopic` for a run's topic field: a number as is (`07` is 7), or a
/// prefix naming the task up to the first `-` followed by the number (`wt09-1` is 1);
/// `None` where ndeval stops with a syntax error (a field without `-` that does not start
/// with a digit is refused here: ndeval reads past the end of the field).
pub fn run_topic(text: &[u8]) -> Option<u64> {
    match text.first() {
        Some(byte) if byte.is_ascii_digit() => natural_number(text),
        _ => natural_number(&text[memchr::memchr(b'-', text)? + 1..]),
    }
}

/// Strings stored end to end (arrow's layout): string `i` is
/// `data[offsets[i]..offsets[i + 1]]`.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Column {
    pub offsets: Vec<i64>,
    pub data: Vec<u8>,
}

impl Column {
    fn with_capacity(rows: usize) -> Column {
        let mut offsets = Vec::with_capacity(rows + 1);
        offsets.push(0);
        Column {
            offsets,
            data: Vec::new(),
        }
    }

    fn push(&mut self, text: &[u8]) {
        self.data.extend_from_slice(text);
        self.offsets.push(self.data.len() as i64);
    }

    /// String `i`.
    pub fn get(&self, i: usize) -> &[u8] {
        &self.data[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }
}

/// Diversity qrels: one row per judgment, in file order.
#[derive(Debug)]
pub struct Qrels {
    pub topic: Column,
    pub subtopic: Column,
    pub docno: Column,
    pub judgment: Vec<i64>,
}

fn integer(field: &str) -> Option<&'static str> {
    parse_integer(field.as_bytes()).err()
}

/// Why an id is refused where ids are read as ndeval reads them.
const NOT_NATURAL: &str =
    "is not a natural number as ndeval reads it (digits only, at most 1000009)";
const NOT_TOPIC: &str = "topic is not a topic number as ndeval reads it (digits, or a task \
                         prefix ending in '-' and digits: wt09-1)";

/// The value of every row's `field` read by `parse` (each distinct id parsed once),
/// written in decimal; the first row (file order) whose id `parse` refuses otherwise.
fn ndeval_ids<'a>(
    rows: impl Iterator<Item = &'a [u8]>,
    parse: fn(&[u8]) -> Option<u64>,
) -> Result<Vec<Vec<u8>>, usize> {
    let mut seen: FxHashMap<&[u8], Option<Vec<u8>>> = FxHashMap::default();
    let mut out = Vec::new();
    for (row, id) in rows.enumerate() {
        let value = seen
            .entry(id)
            .or_insert_with(|| parse(id).map(|v| v.to_string().into_bytes()));
        out.push(value.clone().ok_or(row)?);
    }
    Ok(out)
}

/// The diversity qrels of `data` (a file's text) named `source` in errors. With `ndeval`
/// the topic and subtopic ids are read as ndeval reads them ([`natural_number`]; ndeval
/// stops at an id it refuses) and written back in decimal (`07` is 7). A (topic,
/// subtopic, docno) judged twice is refused at its second line (ndeval would count it
/// twice in the subtopic's number of relevant documents).
pub fn read_qrels(data: &[u8], source: &str, ndeval: bool) -> Result<Qrels, ReadError> {
    let mut fields: Vec<[&[u8]; 3]> = Vec::new();
    let mut judgment = Vec::new();
    let found = scan(data, true, &QRELS_FORMAT, |f: &[&[u8]; 4]| {
        let Ok(value) = parse_integer(f[3]) else {
            return false;
        };
        fields.push([f[0], f[1], f[2]]);
        judgment.push(value);
        true
    });
    verdict(data, source, &QRELS_FORMAT, &[(3, integer)], &found)?;
    let n = fields.len();
    let mut columns = [
        Column::with_capacity(n),
        Column::with_capacity(n),
        Column::with_capacity(n),
    ];
    for (k, column) in columns.iter_mut().enumerate() {
        if ndeval && k < 2 {
            let ids = ndeval_ids(fields.iter().map(|f| f[k]), natural_number).map_err(|row| {
                let (line, text) = row_line(data, row);
                let reason = format!("{} {NOT_NATURAL}", QRELS_FORMAT.names[k]);
                ReadError::at(Kind::Format, reason, source, line, text)
            })?;
            ids.iter().for_each(|id| column.push(id));
        } else {
            fields.iter().for_each(|f| column.push(f[k]));
        }
    }
    let [topic, subtopic, docno] = columns;
    let mut seen: FxHashSet<(&[u8], &[u8], &[u8])> = FxHashSet::default();
    for row in 0..n {
        let key = (topic.get(row), subtopic.get(row), docno.get(row));
        if !seen.insert(key) {
            let (line, text) = row_line(data, row);
            let lossy = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
            let reason = format!(
                "{} {} {} judged twice",
                lossy(key.0),
                lossy(key.1),
                lossy(key.2)
            );
            return Err(ReadError::at(Kind::Duplicate, reason, source, line, text));
        }
    }
    Ok(Qrels {
        topic,
        subtopic,
        docno,
        judgment,
    })
}

/// A run read as ndeval reads it: one row per retrieved document, in file order.
pub struct Run<'a> {
    /// The distinct topic ids (as ndeval reads them, when asked), numbered in order of
    /// first appearance.
    pub topics: Vec<Vec<u8>>,
    /// The topic number of every row.
    pub topic: Vec<u32>,
    pub docno: Vec<&'a [u8]>,
    pub score: Vec<f64>,
    pub rank: Vec<i64>,
    /// The distinct run ids, in order of first appearance (ndeval names the run after the
    /// first).
    pub runids: Vec<&'a [u8]>,
}

const NOT_RANK: &str = "is not a natural number (ndeval ranks by the rank column)";

/// The characters of Python's `str.isdigit` (Unicode's numeric types Digit and Decimal),
/// as ranges of code points: the table of Python 3.11's `unicodedata` (Unicode 14.0).
const PYTHON_DIGITS: [(u32, u32); 81] = [
    (0x30, 0x39),
    (0xb2, 0xb3),
    (0xb9, 0xb9),
    (0x660, 0x669),
    (0x6f0, 0x6f9),
    (0x7c0, 0x7c9),
    (0x966, 0x96f),
    (0x9e6, 0x9ef),
    (0xa66, 0xa6f),
    (0xae6, 0xaef),
    (0xb66, 0xb6f),
    (0xbe6, 0xbef),
    (0xc66, 0xc6f),
    (0xce6, 0xcef),
    (0xd66, 0xd6f),
    (0xde6, 0xdef),
    (0xe50, 0xe59),
    (0xed0, 0xed9),
    (0xf20, 0xf29),
    (0x1040, 0x1049),
    (0x1090, 0x1099),
    (0x1369, 0x1371),
    (0x17e0, 0x17e9),
    (0x1810, 0x1819),
    (0x1946, 0x194f),
    (0x19d0, 0x19da),
    (0x1a80, 0x1a89),
    (0x1a90, 0x1a99),
    (0x1b50, 0x1b59),
    (0x1bb0, 0x1bb9),
    (0x1c40, 0x1c49),
    (0x1c50, 0x1c59),
    (0x2070, 0x2070),
    (0x2074, 0x2079),
    (0x2080, 0x2089),
    (0x2460, 0x2468),
    (0x2474, 0x247c),
    (0x2488, 0x2490),
    (0x24ea, 0x24ea),
    (0x24f5, 0x24fd),
    (0x24ff, 0x24ff),
    (0x2776, 0x277e),
    (0x2780, 0x2788),
    (0x278a, 0x2792),
    (0xa620, 0xa629),
    (0xa8d0, 0xa8d9),
    (0xa900, 0xa909),
    (0xa9d0, 0xa9d9),
    (0xa9f0, 0xa9f9),
    (0xaa50, 0xaa59),
    (0xabf0, 0xabf9),
    (0xff10, 0xff19),
    (0x104a0, 0x104a9),
    (0x10a40, 0x10a43),
    (0x10d30, 0x10d39),
    (0x10e60, 0x10e68),
    (0x11052, 0x1105a),
    (0x11066, 0x1106f),
    (0x110f0, 0x110f9),
    (0x11136, 0x1113f),
    (0x111d0, 0x111d9),
    (0x112f0, 0x112f9),
    (0x11450, 0x11459),
    (0x114d0, 0x114d9),
    (0x11650, 0x11659),
    (0x116c0, 0x116c9),
    (0x11730, 0x11739),
    (0x118e0, 0x118e9),
    (0x11950, 0x11959),
    (0x11c50, 0x11c59),
    (0x11d50, 0x11d59),
    (0x11da0, 0x11da9),
    (0x16a60, 0x16a69),
    (0x16ac0, 0x16ac9),
    (0x16b50, 0x16b59),
    (0x1d7ce, 0x1d7ff),
    (0x1e140, 0x1e149),
    (0x1e2f0, 0x1e2f9),
    (0x1e950, 0x1e959),
    (0x1f100, 0x1f10a),
    (0x1fbf0, 0x1fbf9),
];

/// Python's `str.isdigit` of one character.
fn python_digit(c: char) -> bool {
    let c = u32::from(c);
    let at = PYTHON_DIGITS.partition_point(|&(_, last)| last < c);
    PYTHON_DIGITS.get(at).is_some_and(|&(first, _)| first <= c)
}

/// The diagnosis' check of the rank field, `str.isdigit` as `read_ndeval_run` checks it
/// (ndeval ranks by the rank column).
fn rank_field(field: &str) -> Option<&'static str> {
    (field.is_empty() || !field.chars().all(python_digit)).then_some(NOT_RANK)
}

/// The diagnosis' check of the score field: a finite number.
fn score_field(field: &str) -> Option<&'static str> {
    match parse_float(field.as_bytes()) {
        Ok(value) if value.is_finite() => None,
        _ => Some("is not a finite number"),
    }
}

/// The rank as an integer, as numpy's cast of a double to int64 gives it on x86: a value
/// of 2^63 or more (only infinity passes the checks) becomes the smallest integer.
fn rank_value(rank: f64) -> i64 {
    const TWO_TO_63: f64 = 9_223_372_036_854_775_808.0;
    if rank < TWO_TO_63 {
        rank as i64
    } else {
        i64::MIN
    }
}

/// The run of `data` (a file's text) named `source` in errors, as ndeval reads it: the
/// rank column kept (a natural number: ndeval ranks by it unless `-traditional`; read as
/// a number, then checked integral), scores finite; with `ndeval_topics` the topic ids
/// read as ndeval reads them ([`run_topic`]) and written in decimal. A document retrieved
/// twice for a topic is refused (ndeval.c: "duplicate docno").
pub fn read_run<'a>(
    data: &'a [u8],
    source: &str,
    ndeval_topics: bool,
) -> Result<Run<'a>, ReadError> {
    let mut interner = Interner::default();
    let lines = memchr::memchr_iter(b'\n', data).count() + 1; // a bound of the rows, mostly
    let mut topic = Vec::with_capacity(lines);
    let mut docno = Vec::with_capacity(lines);
    let mut score = Vec::with_capacity(lines);
    let mut rank = Vec::with_capacity(lines);
    let mut runids: Vec<&[u8]> = Vec::new();
    let mut seen_runids: FxHashSet<&[u8]> = FxHashSet::default();
    let mut last_runid: &[u8] = b"";
    let natural = |r: f64| r >= 0.0 && r == r.floor();
    // the first row whose rank is not a natural number or whose score is not finite, and
    // which of the two (checked once every line fits)
    let mut bad: Option<(usize, bool)> = None;
    let found = scan(data, true, &RUN_FORMAT, |f: &[&'a [u8]; 6]| {
        let (Ok(r), Ok(s)) = (parse_float(f[3]), parse_float(f[4])) else {
            return false;
        };
        if bad.is_none() && !(natural(r) && s.is_finite()) {
            bad = Some((score.len(), natural(r)));
        }
        topic.push(interner.id(f[0]));
        docno.push(f[2]);
        rank.push(rank_value(r));
        score.push(s);
        if f[5] != last_runid && seen_runids.insert(f[5]) {
            runids.push(f[5]);
        }
        last_runid = f[5];
        true
    });
    let checks: [(usize, Check); 2] = [(3, rank_field), (4, score_field)];
    verdict(data, source, &RUN_FORMAT, &checks, &found)?;
    if let Some((row, rank_natural)) = bad {
        let (line, text) = row_line(data, row);
        let reason = if rank_natural {
            "score is not finite".to_string()
        } else {
            format!("rank {NOT_RANK}")
        };
        return Err(ReadError::at(Kind::Format, reason, source, line, text));
    }
    let (topics, topic) = if ndeval_topics {
        let names = ndeval_ids(interner.names.iter().copied(), run_topic).map_err(|t| {
            let row = topic.iter().position(|&x| x as usize == t).unwrap_or(0);
            let (line, text) = row_line(data, row);
            ReadError::at(Kind::Format, NOT_TOPIC.to_string(), source, line, text)
        })?;
        // ids read alike are one topic (`wt09-1` and `1`), numbered by first appearance
        let mut number: FxHashMap<&[u8], u32> = FxHashMap::default();
        let mut distinct = Vec::new();
        let renumber: Vec<u32> = names
            .iter()
            .map(|name| {
                *number.entry(name).or_insert_with(|| {
                    distinct.push(name.clone());
                    distinct.len() as u32 - 1
                })
            })
            .collect();
        let topic = topic.iter().map(|&t| renumber[t as usize]).collect();
        (distinct, topic)
    } else {
        (interner.names.iter().map(|t| t.to_vec()).collect(), topic)
    };
    let run = Run {
        topics,
        topic,
        docno,
        score,
        rank,
        runids,
    };
    refuse_duplicates(&run, data, source)?;
    Ok(run)
}

/// The error of a document retrieved twice for a topic, named as `read_ndeval_run` names
/// it: of the rows whose (topic, docno) pair occurs more than once, the second in file
/// order.
fn refuse_duplicates(run: &Run, data: &[u8], source: &str) -> Result<(), ReadError> {
    let groups = Groups::of(&run.topic, run.topics.len());
    let mut twice: Vec<u32> = Vec::new();
    let mut first: FxHashMap<&[u8], u32> = FxHashMap::default();
    for t in 0..groups.len() {
        first.clear(); // its capacity kept from topic to topic
        for row in groups.rows_of(t) {
            let at = *first.entry(run.docno[row as usize]).or_insert(row);
            if at != row {
                twice.extend([at, row]);
            }
        }
    }
    twice.sort_unstable();
    twice.dedup();
    let Some(&row) = twice.get(1) else {
        return Ok(());
    };
    let row = row as usize;
    let (line, text) = row_line(data, row);
    let lossy = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    let reason = format!(
        "duplicate docno ({}) for topic {}",
        lossy(run.docno[row]),
        lossy(&run.topics[run.topic[row] as usize])
    );
    Err(ReadError::at(Kind::Duplicate, reason, source, line, text))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error<T>(result: Result<T, ReadError>) -> (Kind, String, Option<usize>) {
        let Err(e) = result else {
            panic!("an error was expected");
        };
        (e.kind, e.reason, e.line)
    }

    #[test]
    fn digits_of_python() {
        for (c, digit) in [
            ('0', true),
            ('9', true),
            ('\u{661}', true),
            ('\u{b2}', true),
        ] {
            assert_eq!(python_digit(c), digit, "{c:?}");
        }
        for c in ['a', '/', ':', '\u{bd}', '\u{2167}', '\u{10ffff}'] {
            assert!(!python_digit(c), "{c:?}");
        }
    }

    #[test]
    fn ndeval_numbers() {
        assert_eq!(natural_number(b"07"), Some(7));
        assert_eq!(natural_number(b"1000009"), Some(1_000_009));
        assert_eq!(natural_number(b"1000010"), None); // 100001 > 100000 before a digit
        assert_eq!(natural_number(b""), None);
        assert_eq!(natural_number(b"1a"), None);
        assert_eq!(run_topic(b"wt09-12"), Some(12));
        assert_eq!(run_topic(b"a-b-3"), None);
        assert_eq!(run_topic(b"-3"), Some(3));
        assert_eq!(run_topic(b"x"), None);
        assert_eq!(run_topic(b"1-2"), None);
    }

    #[test]
    fn qrels_rows_and_faults() {
        let qrels = read_qrels(b"07 1 d1 1\n\n7 02 d2 -2\n", "q", true).unwrap();
        assert_eq!(qrels.topic.data, b"77");
        assert_eq!(qrels.subtopic.get(1), b"2");
        assert_eq!(qrels.judgment, [1, -2]);
        let kept = read_qrels(b"07 1 d1 1\n", "q", false).unwrap();
        assert_eq!(kept.topic.get(0), b"07");
        // every topic before any subtopic
        let (kind, reason, line) = error(read_qrels(b"1 a d1 1\nt 1 d1 1\n", "q", true));
        assert_eq!((kind, line), (Kind::Format, Some(2)));
        assert!(reason.starts_with("topic is not a natural number"));
        let (_, reason, line) = error(read_qrels(b"1 1 d 1\n01 1 d 0\n", "q", true));
        assert_eq!((reason.as_str(), line), ("1 1 d judged twice", Some(2)));
        assert!(read_qrels(b"1 1 d 1\n01 1 d 0\n", "q", false).is_ok());
        let (_, reason, line) = error(read_qrels(b"1 1 d1 1\n1 1 d2 x\n", "q", false));
        assert_eq!(
            (reason.as_str(), line),
            ("judgment is not an integer", Some(2))
        );
        assert_eq!(error(read_qrels(b"\n \n", "q", false)).0, Kind::Empty);
    }

    #[test]
    fn runs_as_ndeval_reads_them() {
        let data = b"wt09-1 Q0 d1 1 2.5 a\n01 Q0 d2 2.0 1 b\n2 Q0 d1 1 1 a\n";
        let run = read_run(data, "r", true).unwrap();
        assert_eq!(run.topics, [b"1".to_vec(), b"2".to_vec()]);
        assert_eq!(run.topic, [0, 0, 1]);
        assert_eq!(run.rank, [1, 2, 1]);
        assert_eq!(run.runids, [&b"a"[..], b"b"]);
        let (_, reason, line) = error(read_run(b"1 Q0 d1 1 1 a\nx Q0 d2 1 1 a\n", "r", true));
        assert_eq!(line, Some(2));
        assert_eq!(reason, NOT_TOPIC);
        let (_, reason, line) = error(read_run(b"1 Q0 d1 1 1 a\n1 Q0 d2 1.5 inf a\n", "r", false));
        assert_eq!((reason, line), (format!("rank {NOT_RANK}"), Some(2)));
        let (_, reason, _) = error(read_run(b"1 Q0 d1 1 nan a\n", "r", false));
        assert_eq!(reason, "score is not finite");
        // a line the fast pass cannot take: the diagnosis' words
        let (_, reason, line) = error(read_run(b"1 Q0 d1 1 inf a\n1 Q0 d2 x 1 a\n", "r", false));
        assert_eq!(
            (reason.as_str(), line),
            ("score is not a finite number", Some(1))
        );
        // the second row, in file order, of the pairs listed twice
        let data = b"1 Q0 a 1 1 r\n1 Q0 b 2 1 r\n1 Q0 a 3 1 r\n1 Q0 b 4 1 r\n";
        let (kind, reason, line) = error(read_run(data, "r", false));
        assert_eq!(
            (kind, reason.as_str()),
            (Kind::Duplicate, "duplicate docno (b) for topic 1")
        );
        assert_eq!(line, Some(2));
        let data = b"1 Q0 a 1 1 r\nwt-1 Q0 a 2 1 r\n";
        assert!(read_run(data, "r", false).is_ok());
        assert_eq!(error(read_run(data, "r", true)).0, Kind::Duplicate);
        let run = read_run(b"1 Q0 a 1e30 1 r\n", "r", false).unwrap();
        assert_eq!(run.rank, [i64::MIN]);
    }
}
