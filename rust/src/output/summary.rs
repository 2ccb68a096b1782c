//! The summaries of an evaluation: one value per column and run, by trec_eval 9.0.8's
//! rules (`meas_avg.c`: `te_calc_avg_meas_*`, with `-c` from trec_eval.c), ndeval's
//! `amean` row, or a plain mean.
//!
//! * `mean`: the run's values added topic by topic ([`sequential_total`], as trec_eval's
//!   `accum += value`) divided by the number of evaluated topics, or with `-c` by the
//!   number of qrels topics (`meas_avg.c`'s `num_queries`; missing topics count 0);
//! * `gmean` (gm_map, gm_bpref: `m_gm_map.c`'s `te_calc_avg_meas_s_gm`): `exp` of the mean
//!   of `log(MAX(v, MIN_GEO_MEAN))` (`MIN_GEO_MEAN` = 1e-5, trec_eval.h), each missing
//!   topic counting `log(MIN_GEO_MEAN)` with `-c`;
//! * `sum` (num_ret, num_rel ...: `te_calc_avg_meas_s_sum`): the values added, or the
//!   total given for the column (9.0.8's `num_rel` with `-c` counts every qrels topic);
//! * `count` (`num_q`): the number of topics the means divide by; `runid`: the run's name.
//!
//! With trec_eval 10's `-c` (placeholder rankings stand for the missing topics) the
//! divisor is the number of the run's rankings. No topic: 0, except ndeval's C `0.0/0`
//! (`-nan`, or an infinity of the sum's sign). A mean over values one of which is NaN is
//! that NaN, sign included (x86-64's `accum += value` keeps the NaN operand).

use crate::output::{Aggregate, Cells};

/// trec_eval.h's `MIN_GEO_MEAN`: the floor of the values a geometric mean averages.
pub const MIN_GEO_MEAN: f64 = 1e-5;

/// Which summary rule applies (module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// trec_eval 9.0.8's `meas_avg.c`.
    TrecEval,
    /// ndeval's `amean` row (a mean over no topic is C's `0.0/0`).
    Ndeval,
    /// The plain mean over the evaluated topics (sessions, texts).
    Mean,
}

impl Rule {
    /// The rule of its Python name (`"trec_eval"`, `"ndeval"`, `"mean"`).
    pub fn named(name: &str) -> Option<Self> {
        match name {
            "trec_eval" => Some(Rule::TrecEval),
            "ndeval" => Some(Rule::Ndeval),
            "mean" => Some(Rule::Mean),
            _ => None,
        }
    }
}

/// How a run's rows are summarised.
#[derive(Clone, Copy, Debug)]
pub struct Averaging<'a> {
    pub rule: Rule,
    /// trec_eval's and ndeval's `-c`: means divide by `n_qrels_topics`.
    pub complete: bool,
    pub n_qrels_topics: usize,
    /// Summary values that replace a `sum` column's total (by label).
    pub totals: &'a [(String, i64)],
}

/// A summary value: a number, a count, or text (the run id).
#[derive(Clone, Debug, PartialEq)]
pub enum Summary {
    Float(f64),
    Int(i64),
    Text(String),
}

/// One column to summarise: its label, its aggregate and its values (one per row of the
/// evaluation; `None` for columns whose summary reads no value: `count`, `runid`, `none`).
#[derive(Clone, Copy, Debug)]
pub struct Column<'a> {
    pub label: &'a str,
    pub aggregate: Aggregate,
    pub cells: Option<Cells<'a>>,
}

/// The rows of one run: their indices into the columns' values, and how many of them are
/// evaluated topics (ndeval prints rows that are not).
#[derive(Clone, Copy, Debug)]
pub struct RunRows<'a> {
    pub rows: &'a [usize],
    pub evaluated: usize,
}

/// The sum of `values` added one at a time in order, as trec_eval accumulates topic
/// values; a NaN among them makes it that NaN with the sign of the first NaN (the x86-64
/// `addsd` keeps a NaN operand, whatever the machine this runs on). Sums that turn NaN
/// without a NaN value (`inf - inf`) are a NaN with the sign bit clear.
pub fn sequential_total(values: impl Iterator<Item = f64>) -> f64 {
    let mut total = 0.0;
    let mut first_nan: Option<f64> = None;
    for value in values {
        if value.is_nan() && first_nan.is_none() {
            first_nan = Some(value);
        }
        total += value;
    }
    if total.is_nan() {
        let sign = if first_nan.is_some_and(f64::is_sign_negative) {
            -1.0
        } else {
            1.0
        };
        return f64::NAN.copysign(sign);
    }
    total
}

impl Averaging<'_> {
    /// The mean of `values` over `divisor` topics (no topic: 0, or ndeval's C `0.0/0`:
    /// `-nan`, a NaN sum itself, an infinity of the sum's sign).
    pub fn mean(&self, values: impl Iterator<Item = f64>, divisor: usize) -> f64 {
        let total = sequential_total(values);
        if divisor > 0 {
            return total / divisor as f64;
        }
        if self.rule != Rule::Ndeval {
            0.0
        } else if total.is_nan() {
            total
        } else if total == 0.0 {
            f64::NAN.copysign(-1.0)
        } else {
            f64::INFINITY.copysign(total)
        }
    }

    /// The summaries of one run, one per column whose aggregate is not `none`, in column
    /// order (`placeholders`: trec_eval 10's `-c`, whose placeholder rankings are among
    /// the rows). A column whose aggregate needs values it lacks is an error naming it.
    pub fn summarise(
        &self,
        columns: &[Column],
        run: RunRows,
        placeholders: bool,
        run_name: &str,
    ) -> Result<Vec<Summary>, String> {
        let n_eval = run.evaluated;
        let divisor = if self.complete && !placeholders {
            self.n_qrels_topics
        } else {
            n_eval
        };
        let mut out = Vec::with_capacity(columns.len());
        for column in columns {
            let cells = || {
                column
                    .cells
                    .ok_or_else(|| format!("column {:?} has no values to summarise", column.label))
            };
            let summary = match column.aggregate {
                Aggregate::None => continue,
                Aggregate::Runid => Summary::Text(run_name.to_string()),
                Aggregate::Count => Summary::Int(divisor as i64),
                Aggregate::Sum => match self.totals.iter().find(|(l, _)| l == column.label) {
                    Some(&(_, total)) => Summary::Int(total),
                    None => Summary::Int(sum(cells()?, run.rows, column.label)?),
                },
                Aggregate::Mean => {
                    Summary::Float(self.mean(numbers(cells()?, run.rows, column.label)?, divisor))
                }
                Aggregate::Gmean => {
                    let logs = sequential_total(
                        numbers(cells()?, run.rows, column.label)?
                            // C's MAX(v, MIN_GEO_MEAN): a NaN gives the floor
                            .map(|v| if v > MIN_GEO_MEAN { v } else { MIN_GEO_MEAN }.ln()),
                    );
                    let missing = divisor as f64 - n_eval as f64;
                    let logs = logs + missing * MIN_GEO_MEAN.ln();
                    Summary::Float(if divisor > 0 {
                        (logs / divisor as f64).exp()
                    } else {
                        0.0
                    })
                }
            };
            out.push(summary);
        }
        Ok(out)
    }
}

/// The values of `rows` as numbers (counts as doubles); text is an error.
fn numbers<'a>(
    cells: Cells<'a>,
    rows: &'a [usize],
    label: &str,
) -> Result<Box<dyn Iterator<Item = f64> + 'a>, String> {
    match cells {
        Cells::Float(values) => Ok(Box::new(rows.iter().map(move |&i| values[i]))),
        Cells::Int(values) => Ok(Box::new(rows.iter().map(move |&i| values[i] as f64))),
        Cells::Text(_) => Err(format!("column {label:?} holds text: no mean")),
    }
}

/// The total of the values of `rows` (doubles added, then truncated as Python's `int`).
fn sum(cells: Cells, rows: &[usize], label: &str) -> Result<i64, String> {
    match cells {
        Cells::Int(values) => Ok(rows.iter().fold(0i64, |t, &i| t.wrapping_add(values[i]))),
        Cells::Float(values) => Ok(rows.iter().map(|&i| values[i]).sum::<f64>() as i64),
        Cells::Text(_) => Err(format!("column {label:?} holds text: no sum")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NO_TOTALS: &[(String, i64)] = &[];

    fn trec(complete: bool, n_qrels_topics: usize) -> Averaging<'static> {
        Averaging {
            rule: Rule::TrecEval,
            complete,
            n_qrels_topics,
            totals: NO_TOTALS,
        }
    }

    fn column<'a>(label: &'a str, aggregate: Aggregate, cells: Cells<'a>) -> Column<'a> {
        Column {
            label,
            aggregate,
            cells: Some(cells),
        }
    }

    #[test]
    fn sequential_total_adds_in_order_and_keeps_the_first_nans_sign() {
        let values = [0.1, 0.2, 0.3];
        assert_eq!(sequential_total(values.into_iter()), (0.1 + 0.2) + 0.3);
        let negative_nan = f64::NAN.copysign(-1.0);
        let positive_nan = f64::NAN.copysign(1.0);
        let total = sequential_total([1.0, negative_nan, positive_nan].into_iter());
        assert!(total.is_nan() && total.is_sign_negative());
        let total = sequential_total([positive_nan, negative_nan].into_iter());
        assert!(total.is_nan() && total.is_sign_positive());
        let total = sequential_total([f64::INFINITY, f64::NEG_INFINITY].into_iter());
        assert!(total.is_nan() && total.is_sign_positive());
        assert_eq!(sequential_total(std::iter::empty()), 0.0);
    }

    #[test]
    fn means_divide_by_evaluated_or_qrels_topics() {
        // two topics of the run, 0.5 and 0.25; the qrels have 4 topics
        let values = [0.5, 0.25, 0.9];
        let rows = [0, 1];
        let cols = [
            column("map", Aggregate::Mean, Cells::Float(&values)),
            Column {
                label: "num_q",
                aggregate: Aggregate::Count,
                cells: None,
            },
            Column {
                label: "runid",
                aggregate: Aggregate::Runid,
                cells: None,
            },
        ];
        let run = RunRows {
            rows: &rows,
            evaluated: 2,
        };
        let plain = trec(false, 4).summarise(&cols, run, false, "r").unwrap();
        assert_eq!(
            plain,
            vec![
                Summary::Float(0.375),
                Summary::Int(2),
                Summary::Text("r".into())
            ]
        );
        let complete = trec(true, 4).summarise(&cols, run, false, "r").unwrap();
        assert_eq!(complete[..2], [Summary::Float(0.1875), Summary::Int(4)]);
        // trec_eval 10's -c: the placeholders are rows, the divisor counts the rows
        let placeholders = trec(true, 4).summarise(&cols, run, true, "r").unwrap();
        assert_eq!(placeholders[..2], [Summary::Float(0.375), Summary::Int(2)]);
    }

    #[test]
    fn geometric_means_floor_values_and_count_missing_topics() {
        // gm of 0.5 and 0 (floored to 1e-5): exp((ln 0.5 + ln 1e-5) / 2)
        let values = [0.5, 0.0, f64::NAN];
        let rows = [0, 1];
        let cols = [column("gm_map", Aggregate::Gmean, Cells::Float(&values))];
        let run = RunRows {
            rows: &rows,
            evaluated: 2,
        };
        let Summary::Float(gm) = trec(false, 0).summarise(&cols, run, false, "r").unwrap()[0]
        else {
            panic!("a float");
        };
        let expected = ((0.5f64.ln() + 1e-5f64.ln()) / 2.0).exp();
        assert_eq!(gm, expected);
        assert!((gm - (0.5f64 * 1e-5).sqrt()).abs() < 1e-12);
        // with -c over 3 qrels topics the third counts ln(1e-5)
        let Summary::Float(gm) = trec(true, 3).summarise(&cols, run, false, "r").unwrap()[0] else {
            panic!("a float");
        };
        assert!((gm - (0.5f64 * 1e-10).cbrt()).abs() < 1e-12);
        // a NaN value is floored, not propagated
        let nan_rows = [2];
        let run = RunRows {
            rows: &nan_rows,
            evaluated: 1,
        };
        let summary = trec(false, 0).summarise(&cols, run, false, "r").unwrap();
        assert_eq!(summary, vec![Summary::Float(1e-5f64.ln().exp())]);
    }

    #[test]
    fn sums_add_counts_or_take_the_given_total() {
        let values = [3, 4, 100];
        let rows = [0, 1];
        let cols = [column("num_rel", Aggregate::Sum, Cells::Int(&values))];
        let run = RunRows {
            rows: &rows,
            evaluated: 2,
        };
        assert_eq!(
            trec(false, 0).summarise(&cols, run, false, "r").unwrap(),
            vec![Summary::Int(7)]
        );
        let totals = [("num_rel".to_string(), 42)];
        let averaging = Averaging {
            totals: &totals,
            ..trec(true, 3)
        };
        assert_eq!(
            averaging.summarise(&cols, run, false, "r").unwrap(),
            vec![Summary::Int(42)]
        );
    }

    #[test]
    fn no_topic_gives_zero_or_ndevals_c_division() {
        let trec_eval = trec(false, 0);
        assert_eq!(trec_eval.mean(std::iter::empty(), 0), 0.0);
        let ndeval = Averaging {
            rule: Rule::Ndeval,
            ..trec_eval
        };
        let empty = ndeval.mean(std::iter::empty(), 0);
        assert!(empty.is_nan() && empty.is_sign_negative());
        assert_eq!(ndeval.mean([2.0].into_iter(), 0), f64::INFINITY);
        assert_eq!(ndeval.mean([-2.0].into_iter(), 0), f64::NEG_INFINITY);
        let nan = ndeval.mean([f64::NAN.copysign(1.0)].into_iter(), 0);
        assert!(nan.is_nan() && nan.is_sign_positive());
        // a NaN value makes the mean NaN, its sign kept
        let mean = trec_eval.mean([0.5, f64::NAN.copysign(-1.0)].into_iter(), 2);
        assert!(mean.is_nan() && mean.is_sign_negative());
    }

    #[test]
    fn a_mean_of_text_is_an_error() {
        let text = ["a".to_string()];
        let rows = [0];
        let cols = [column("relstring", Aggregate::Mean, Cells::Text(&text))];
        let run = RunRows {
            rows: &rows,
            evaluated: 1,
        };
        assert!(trec(false, 0).summarise(&cols, run, false, "r").is_err());
    }
}
