//! trec_eval's text format: one line `%-22s\t%s\t%6.4f\n` per value (trec_eval.c's
//! per-topic printing and meas_print_single.c / meas_print_final.c: integers `%ld`,
//! text as is), per-topic lines (`-q`) topic by topic with the columns in table order,
//! then the summary (`all`) lines.
//!
//! With several runs every line also names its run in a fourth tab-separated field
//! (`measure\ttopic\tvalue\trun`): the caller gives each run's `suffix` (`"\t" + run`, or
//! nothing for one run; a run name with a tab or a line break is refused before).
//! Labels are padded to 22 characters (code points, as Python's `f"{label:<22}"`; the
//! same as C's bytes for the ASCII names of trec_eval). Per-topic text values (trec_eval's
//! `relstring`, m_relstring.c) are printed between single quotes.

use crate::output::printf::{fixed, long};
use crate::output::summary::Summary;
use crate::output::{Aggregate, Cells, ValueType};

/// The label of a line and its tab: `%-22s\t`.
pub fn label_piece(label: &str) -> Vec<u8> {
    let mut piece = label.as_bytes().to_vec();
    let chars = label.chars().count();
    piece.extend(std::iter::repeat_n(b' ', 22usize.saturating_sub(chars)));
    piece.push(b'\t');
    piece
}

/// One per-topic column: its label and value type, and its values (one per row).
#[derive(Clone, Copy, Debug)]
pub struct LineColumn<'a> {
    pub label: &'a str,
    pub value_type: ValueType,
    pub cells: Cells<'a>,
}

/// Appends the per-topic lines of `rows` (one run's, in order): for each row, one line per
/// column, `topic(row)` the row's topic id. A value is printed by the column's type: `%6.4f`
/// (counts as doubles), `%ld` (doubles truncated toward zero, as numpy's cast), or text
/// quoted.
pub fn per_topic_lines<'t>(
    out: &mut Vec<u8>,
    columns: &[LineColumn],
    rows: impl Iterator<Item = usize>,
    topic: impl Fn(usize) -> &'t [u8],
    suffix: &[u8],
) {
    let pieces: Vec<Vec<u8>> = columns.iter().map(|c| label_piece(c.label)).collect();
    let mut rows = rows.peekable();
    if let Some(&first) = rows.peek() {
        // about the bytes of the lines (as if every topic were as long as the first and
        // every value `d.dddd`): one allocation instead of a doubling buffer's copies. An
        // estimate, asked for fallibly: a first topic id of megabytes before many short
        // ones would ask for far more than the lines take, and where it cannot be had the
        // buffer grows with the lines instead
        let line: usize = pieces.iter().map(Vec::len).sum::<usize>()
            + columns.len() * (topic(first).len() + 8 + suffix.len());
        let _ = out.try_reserve(line.saturating_mul(rows.size_hint().0));
    }
    for row in rows {
        let topic = topic(row);
        for (column, piece) in columns.iter().zip(&pieces) {
            out.extend_from_slice(piece);
            out.extend_from_slice(topic);
            out.push(b'\t');
            match (column.value_type, column.cells) {
                (ValueType::Float, Cells::Float(v)) => fixed(out, v[row], 4, 6),
                (ValueType::Float, Cells::Int(v)) => fixed(out, v[row] as f64, 4, 6),
                (ValueType::Int, Cells::Int(v)) => long(out, v[row]),
                (ValueType::Int, Cells::Float(v)) => long(out, v[row] as i64),
                (_, Cells::Text(v)) => {
                    out.push(b'\'');
                    out.extend_from_slice(v[row].as_bytes());
                    out.push(b'\'');
                }
                (ValueType::Text, Cells::Float(v)) => fixed(out, v[row], 4, 6),
                (ValueType::Text, Cells::Int(v)) => long(out, v[row]),
            }
            out.extend_from_slice(suffix);
            out.push(b'\n');
        }
    }
}

/// A summary line's column: its label, value type and aggregate.
#[derive(Clone, Copy, Debug)]
pub struct SummaryColumn<'a> {
    pub label: &'a str,
    pub value_type: ValueType,
    pub aggregate: Aggregate,
}

impl SummaryColumn<'_> {
    /// Whether the summary prints `%6.4f`: float columns and means (meas_print_final.c's
    /// `te_print_final_meas_a_cut` etc. print every float value so).
    fn prints_float(&self) -> bool {
        self.value_type == ValueType::Float
            || matches!(self.aggregate, Aggregate::Mean | Aggregate::Gmean)
    }
}

/// Appends one run's summary lines (`label\tall\tvalue`), one per `(column, summary)`.
pub fn summary_lines(out: &mut Vec<u8>, lines: &[(SummaryColumn, &Summary)], suffix: &[u8]) {
    for (column, summary) in lines {
        out.extend_from_slice(&label_piece(column.label));
        out.extend_from_slice(b"all\t");
        match summary {
            Summary::Float(v) => fixed(out, *v, 4, 6),
            Summary::Int(v) if column.prints_float() => fixed(out, *v as f64, 4, 6),
            Summary::Int(v) => long(out, *v),
            Summary::Text(text) => out.extend_from_slice(text.as_bytes()),
        }
        out.extend_from_slice(suffix);
        out.push(b'\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_topic_lines_go_topic_by_topic() {
        let map = [0.5, 0.03125, f64::NAN.copysign(-1.0)];
        let num_ret = [10, 2, 0];
        let rel = ["10".to_string(), "".to_string(), "1".to_string()];
        let topics: [&[u8]; 3] = [b"401", b"402", b"403"];
        let columns = [
            LineColumn {
                label: "map",
                value_type: ValueType::Float,
                cells: Cells::Float(&map),
            },
            LineColumn {
                label: "num_ret",
                value_type: ValueType::Int,
                cells: Cells::Int(&num_ret),
            },
            LineColumn {
                label: "relstring",
                value_type: ValueType::Text,
                cells: Cells::Text(&rel),
            },
        ];
        let mut out = Vec::new();
        per_topic_lines(&mut out, &columns, [0, 2].into_iter(), |r| topics[r], b"");
        let expected = "map                   \t401\t0.5000\n\
                        num_ret               \t401\t10\n\
                        relstring             \t401\t'10'\n\
                        map                   \t403\t  -nan\n\
                        num_ret               \t403\t0\n\
                        relstring             \t403\t'1'\n";
        assert_eq!(String::from_utf8(out).unwrap(), expected);
        let mut out = Vec::new();
        per_topic_lines(
            &mut out,
            &columns[..1],
            [1].into_iter(),
            |r| topics[r],
            b"\tbm25",
        );
        assert_eq!(out, b"map                   \t402\t0.0312\tbm25\n");
    }

    #[test]
    fn summary_lines_print_means_as_floats_and_counts_as_integers() {
        let column = |label, value_type, aggregate| SummaryColumn {
            label,
            value_type,
            aggregate,
        };
        let runid = Summary::Text("bm25".into());
        let num_q = Summary::Int(50);
        let map = Summary::Float(0.25);
        let mean_of_counts = Summary::Int(3);
        let lines = [
            (column("runid", ValueType::Text, Aggregate::Runid), &runid),
            (column("num_q", ValueType::Int, Aggregate::Count), &num_q),
            (column("map", ValueType::Float, Aggregate::Mean), &map),
            (
                column("x", ValueType::Int, Aggregate::Mean),
                &mean_of_counts,
            ),
        ];
        let mut out = Vec::new();
        summary_lines(&mut out, &lines, b"");
        let expected = "runid                 \tall\tbm25\n\
                        num_q                 \tall\t50\n\
                        map                   \tall\t0.2500\n\
                        x                     \tall\t3.0000\n";
        assert_eq!(String::from_utf8(out).unwrap(), expected);
    }

    #[test]
    fn labels_pad_to_22_characters() {
        assert_eq!(label_piece("P_5"), b"P_5                   \t");
        let long = "a_label_longer_than_22_characters";
        assert_eq!(label_piece(long), format!("{long}\t").into_bytes());
        assert_eq!(label_piece("é").len(), 2 + 21 + 1);
    }
}
