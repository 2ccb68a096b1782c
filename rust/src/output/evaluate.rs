//! trec_eval's output of a judged batch in one piece: every measure family computed once
//! ([`crate::measures::compute`]), the planned columns picked from their outputs (with
//! trec_eval 10's `-c` placeholder values), the runs summarised ([`crate::output::summary`])
//! and the text written ([`crate::output::trec_text`]) as trec_eval.c prints it: per run,
//! the per-topic lines (`-q`), then the summary lines.

use crate::judge::Batch;
use crate::judged::JudgedView;
use crate::measures::{self, Context, Params, Values};
use crate::output::summary::{self, Averaging, Rule, RunRows};
use crate::output::trec_text::{self, LineColumn, SummaryColumn};
use crate::output::{Aggregate, Cells, ValueType};
use crate::trec::Judgment;

/// A value that replaces a column's values on trec_eval 10's `-c` placeholder rankings
/// (trec_eval.c gives a topic the run misses the measures' initial values).
#[derive(Clone, Debug, PartialEq)]
pub enum Missing {
    Number(f64),
    Text(String),
}

/// One printed column: which output of which call holds its values (`output` < 0: none,
/// a `runid` column), its label, how it is printed and summarised, whether it has
/// per-topic lines, and its placeholder value.
#[derive(Clone, Debug)]
pub struct Planned {
    pub call: usize,
    pub output: i64,
    pub label: String,
    pub value_type: ValueType,
    pub aggregate: Aggregate,
    pub per_query: bool,
    pub missing: Option<Missing>,
}

/// What to compute and print.
#[derive(Clone, Debug)]
pub struct Request {
    /// `(family, parameters)` of each call of [`measures::compute`].
    pub calls: Vec<(String, Params)>,
    /// The printed columns, in output order.
    pub columns: Vec<Planned>,
    /// The runs' names (several: each line ends with a tab and its run).
    pub run_names: Vec<String>,
    /// trec_eval's `-c`.
    pub complete: bool,
    /// `(label, total)`: summaries that replace a column's sum (9.0.8's `num_rel`, `-c`).
    pub totals: Vec<(String, i64)>,
    pub per_query: bool,
    pub summary: bool,
    pub context: Context,
    /// trec_eval's `-l`.
    pub relevance_level: i64,
}

/// The whole trec_eval text of `request` on the judged `batch` of `judgment`
/// (`placeholders`: trec_eval 10's `-c` rankings are in the batch), or why a measure
/// cannot be computed.
pub fn trec_text(
    judgment: &Judgment,
    batch: &Batch,
    placeholders: bool,
    request: &Request,
) -> Result<Vec<u8>, String> {
    let view = JudgedView {
        rel: &batch.rel,
        offsets: &batch.offsets,
        rel_levels: &batch.rel_levels,
        degrees: &judgment.degrees,
        relevance_level: request.relevance_level,
    };
    let outputs = request
        .calls
        .iter()
        .map(|(family, params)| measures::compute(family, params, &view, &request.context))
        .collect::<Result<Vec<_>, _>>()?;
    let mut values: Vec<Option<Values>> = Vec::with_capacity(request.columns.len());
    for column in &request.columns {
        if column.output < 0 {
            values.push(None);
            continue;
        }
        let found = outputs
            .get(column.call)
            .and_then(|o| o.get(column.output as usize))
            .ok_or_else(|| {
                format!(
                    "column {:?}: call {} has no output {}",
                    column.label, column.call, column.output
                )
            })?;
        let mut own = found.1.clone();
        if let (true, Some(missing)) = (placeholders, &column.missing) {
            substitute(&mut own, missing, &batch.placeholder, &column.label)?;
        }
        values.push(Some(own));
    }
    let cells: Vec<Option<Cells>> = values.iter().map(|v| v.as_ref().map(cells_of)).collect();
    let mut rows = vec![Vec::new(); request.run_names.len()];
    for (row, &run) in batch.ranking_run.iter().enumerate() {
        rows.get_mut(run as usize)
            .ok_or_else(|| format!("row {row} names no run ({run})"))?
            .push(row);
    }
    let lines: Vec<LineColumn> = request
        .columns
        .iter()
        .zip(&cells)
        .filter(|(column, _)| column.per_query)
        .map(|(column, cells)| {
            cells
                .map(|cells| LineColumn {
                    label: &column.label,
                    value_type: column.value_type,
                    cells,
                })
                .ok_or_else(|| format!("column {:?} has no per-topic values", column.label))
        })
        .collect::<Result<_, _>>()?;
    let summarised: Vec<summary::Column> = request
        .columns
        .iter()
        .zip(&cells)
        .map(|(column, cells)| summary::Column {
            label: &column.label,
            aggregate: column.aggregate,
            cells: *cells,
        })
        .collect();
    let printed: Vec<SummaryColumn> = request
        .columns
        .iter()
        .filter(|column| column.aggregate != Aggregate::None)
        .map(|column| SummaryColumn {
            label: &column.label,
            value_type: column.value_type,
            aggregate: column.aggregate,
        })
        .collect();
    let averaging = Averaging {
        rule: Rule::TrecEval,
        complete: request.complete,
        n_qrels_topics: judgment.topics.len(),
        totals: &request.totals,
    };
    let topic = |row: usize| judgment.topics[batch.ranking_topic[row] as usize].as_bytes();
    let several = request.run_names.len() > 1;
    let mut out = Vec::new();
    for (run_rows, name) in rows.iter().zip(&request.run_names) {
        let suffix = if several {
            [b"\t", name.as_bytes()].concat()
        } else {
            Vec::new()
        };
        if request.per_query && !lines.is_empty() {
            trec_text::per_topic_lines(&mut out, &lines, run_rows.iter().copied(), topic, &suffix);
        }
        if request.summary {
            let run = RunRows {
                rows: run_rows,
                evaluated: run_rows.len(),
            };
            let values = averaging.summarise(&summarised, run, placeholders, name)?;
            let pairs: Vec<_> = printed.iter().copied().zip(&values).collect();
            trec_text::summary_lines(&mut out, &pairs, &suffix);
        }
    }
    Ok(out)
}

/// The values of a family's output, borrowed.
fn cells_of(values: &Values) -> Cells<'_> {
    match values {
        Values::Float(v) => Cells::Float(v),
        Values::Int(v) => Cells::Int(v),
        Values::Text(v) => Cells::Text(v),
    }
}

/// `values` with `missing` on the rows flagged in `placeholder`.
fn substitute(
    values: &mut Values,
    missing: &Missing,
    placeholder: &[bool],
    label: &str,
) -> Result<(), String> {
    let flagged = placeholder
        .iter()
        .enumerate()
        .filter(|(_, flag)| **flag)
        .map(|(row, _)| row);
    match (values, missing) {
        (Values::Float(v), Missing::Number(x)) => flagged.for_each(|row| v[row] = *x),
        (Values::Int(v), Missing::Number(x)) if x.fract() == 0.0 => {
            flagged.for_each(|row| v[row] = *x as i64)
        }
        (Values::Text(v), Missing::Text(x)) => flagged.for_each(|row| v[row].clone_from(x)),
        (_, missing) => {
            return Err(format!(
                "column {label:?}: the placeholder value {missing:?} does not fit its values"
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::Options;
    use crate::read::limits::Budget;
    use crate::ties::Ties;
    use crate::trec::{Data, File, judge};

    fn judged(placeholders: bool) -> Judgment {
        let qrels = File {
            data: Data::Bytes(b"1 0 a 1\n1 0 b 0\n2 0 c 1\n3 0 d 1\n"),
            name: "qrels",
        };
        let run = File {
            data: Data::Bytes(b"1 Q0 b 1 2.0 r\n1 Q0 a 2 1.0 r\n2 Q0 c 1 1.0 r\n"),
            name: "run",
        };
        let options = Options::new(Ties::TrecEval, 10, None, false, placeholders);
        match judge(&qrels, &[run], &options, &Budget::unlimited()) {
            Ok(judgment) => judgment,
            Err(_) => panic!("the files are well formed"),
        }
    }

    fn column(
        call: usize,
        output: i64,
        label: &str,
        value_type: ValueType,
        aggregate: Aggregate,
        missing: Option<Missing>,
    ) -> Planned {
        Planned {
            call,
            output,
            label: label.into(),
            value_type,
            aggregate,
            per_query: aggregate != Aggregate::Runid && aggregate != Aggregate::Count,
            missing,
        }
    }

    fn request(complete: bool) -> Request {
        Request {
            calls: vec![
                ("runid".into(), Params::default()),
                ("num_q".into(), Params::default()),
                (
                    "P".into(),
                    Params {
                        ints: vec![1, 2],
                        ..Params::default()
                    },
                ),
            ],
            columns: vec![
                column(0, -1, "runid", ValueType::Text, Aggregate::Runid, None),
                column(1, -1, "num_q", ValueType::Int, Aggregate::Count, None),
                column(
                    2,
                    0,
                    "P_1",
                    ValueType::Float,
                    Aggregate::Mean,
                    Some(Missing::Number(0.0)),
                ),
            ],
            run_names: vec!["r".into()],
            complete,
            totals: Vec::new(),
            per_query: true,
            summary: true,
            context: Context {
                compat: 10,
                num_docs_in_coll: 0,
            },
            relevance_level: 1,
        }
    }

    #[test]
    fn per_topic_then_summary_lines() {
        // topic 1: b (non-relevant) first, P_1 = 0; topic 2: c, P_1 = 1
        let judgment = judged(false);
        let text = trec_text(&judgment, &judgment.batch, false, &request(false)).unwrap();
        let expected = "P_1                   \t1\t0.0000\n\
                        P_1                   \t2\t1.0000\n\
                        runid                 \tall\tr\n\
                        num_q                 \tall\t2\n\
                        P_1                   \tall\t0.5000\n";
        assert_eq!(String::from_utf8(text).unwrap(), expected);
        // -c of 9.0.8: means over the 3 qrels topics
        let text = trec_text(&judgment, &judgment.batch, false, &request(true)).unwrap();
        assert!(String::from_utf8(text).unwrap().ends_with(
            "num_q                 \tall\t3\n\
                                                           P_1                   \tall\t0.3333\n"
        ));
    }

    #[test]
    fn placeholders_take_the_missing_value() {
        // trec_eval 10's -c: topic 3 is a placeholder ranking, printed with its value 0
        let judgment = judged(true);
        let text = trec_text(&judgment, &judgment.batch, true, &request(true)).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(text.contains("P_1                   \t3\t0.0000\n"));
        assert!(text.ends_with(
            "num_q                 \tall\t3\n\
                                P_1                   \tall\t0.3333\n"
        ));
    }

    #[test]
    fn a_family_without_kernel_is_an_error() {
        let judgment = judged(false);
        let mut wrong = request(false);
        wrong.calls[2].0 = "no_such_family".into();
        assert!(trec_text(&judgment, &judgment.batch, false, &wrong).is_err());
        let mut wrong = request(false);
        wrong.columns[2].output = 5;
        assert!(trec_text(&judgment, &judgment.batch, false, &wrong).is_err());
    }
}
