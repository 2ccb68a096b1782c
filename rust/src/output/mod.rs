//! The one implementation of an evaluation's output: the summaries of its runs
//! ([`summary`]: trec_eval 9.0.8's `meas_avg.c` rules, ndeval's `amean`) and trec_eval's
//! text format ([`trec_text`], with C's `%6.4f` of [`printf`]).

pub mod evaluate;
pub mod printf;
pub mod spelled;
pub mod summary;
pub mod trec_text;

/// How a column is summarised over topics (`irscale.io.table.Aggregate`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aggregate {
    Mean,
    Gmean,
    Sum,
    Count,
    Runid,
    None,
}

impl Aggregate {
    /// The aggregate of its Python name.
    pub fn named(name: &str) -> Option<Self> {
        match name {
            "mean" => Some(Aggregate::Mean),
            "gmean" => Some(Aggregate::Gmean),
            "sum" => Some(Aggregate::Sum),
            "count" => Some(Aggregate::Count),
            "runid" => Some(Aggregate::Runid),
            "none" => Some(Aggregate::None),
            _ => None,
        }
    }
}

/// How a column's values are printed (`irscale.io.table.ValueType`): `%6.4f`, `%ld`, or
/// text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueType {
    Float,
    Int,
    Text,
}

impl ValueType {
    /// The value type of its Python name (`"float"`, `"int"`, `"str"`).
    pub fn named(name: &str) -> Option<Self> {
        match name {
            "float" => Some(ValueType::Float),
            "int" => Some(ValueType::Int),
            "str" => Some(ValueType::Text),
            _ => None,
        }
    }
}

/// A column's values, one per row of an evaluation, borrowed.
#[derive(Clone, Copy, Debug)]
pub enum Cells<'a> {
    Float(&'a [f64]),
    Int(&'a [i64]),
    Text(&'a [String]),
}

impl Cells<'_> {
    /// The number of values.
    pub fn len(&self) -> usize {
        match self {
            Cells::Float(v) => v.len(),
            Cells::Int(v) => v.len(),
            Cells::Text(v) => v.len(),
        }
    }

    /// Whether there is no value.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
