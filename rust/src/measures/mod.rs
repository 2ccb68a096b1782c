//! trec_eval's measures, one module per family (as trec_eval's `m_*.c`), computed on a
//! batch of judged rankings ([`JudgedView`]) and dispatched by family name ([`compute`])
//! through one table ([`FAMILIES`]: name, kernel, parameters).
//!
//! Each family's module declares its lines beside its kernels (`pub const FAMILIES:
//! &[Family] = &[...]`, [`families`]); this file names the modules and puts their lines in
//! the table, one line each, kept in step with the directory by
//! `tests::every_file_is_a_module_and_every_family_in_the_table`. The other modules
//! (trec_eval's gain tables, `gains`; the output columns, `table`) serve the kernels.
//!
//! Each family's kernel computes every ranking from that ranking's documents and its
//! topic's recall base alone, so a batch is shared out between threads by whole rankings
//! ([`per_ranking`]) and the values are the same, bit for bit, whatever the thread count.

pub mod average_precision;
pub mod bpref;
pub mod counts;
pub mod families;
pub mod gain_g;
pub mod gains;
pub mod interpolated;
pub mod ndcg;
pub mod ndcg_averaged;
pub mod precision;
pub mod rbp;
pub mod recall;
pub mod reciprocal_rank;
pub mod relstring;
pub mod set_measures;
pub mod table;
#[cfg(test)]
pub mod throwaway;
pub mod unjudged;

/// The engine's trec_eval families: the `FAMILIES` of each module that declares its own,
/// by module name.
pub static FAMILIES: families::Table<'static> = &[
    average_precision::FAMILIES,
    bpref::FAMILIES,
    counts::FAMILIES,
    gain_g::FAMILIES,
    interpolated::FAMILIES,
    ndcg::FAMILIES,
    ndcg_averaged::FAMILIES,
    precision::FAMILIES,
    rbp::FAMILIES,
    recall::FAMILIES,
    reciprocal_rank::FAMILIES,
    relstring::FAMILIES,
    set_measures::FAMILIES,
    #[cfg(test)]
    throwaway::FAMILIES,
    unjudged::FAMILIES,
];

use crate::judged::JudgedView;
use rayon::prelude::*;

/// A family's values, one per ranking: numbers, counts, or text (trec_eval's `relstring`).
#[derive(Debug, Clone, PartialEq)]
pub enum Values {
    Float(Vec<f64>),
    Int(Vec<i64>),
    Text(Vec<String>),
}

/// The parameters of a request, as the catalogue parsed them (`P.5,10` gives `ints`
/// `[5, 10]`; `Rprec_mult.0.2` gives `floats` `[0.2]`; a gain map gives `gains`).
#[derive(Debug, Clone, Default)]
pub struct Params {
    pub ints: Vec<i64>,
    pub floats: Vec<f64>,
    pub gains: Vec<(i64, f64)>,
}

/// Evaluation-wide settings (`irscale.measures.base.EvalContext`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Context {
    /// trec_eval's version profile: 9 (9.0.8) or 10 (10.0).
    pub compat: u8,
    /// trec_eval's `-N`: documents in the collection.
    pub num_docs_in_coll: i64,
}

/// The values a family yields, each under its output name (`P_5`, `P_10`, ...).
pub type Outputs = Vec<(String, Values)>;

/// Rankings of a batch computed in one piece: below this many documents, threads cost
/// more than they save.
const PARALLEL_DOCUMENTS: usize = 1 << 16;

/// `value(i)` for every ranking `i` of the batch, on every core for large batches; the
/// order of the output is the order of the rankings whatever the thread count.
pub fn per_ranking<T, F>(jr: &JudgedView, value: F) -> Vec<T>
where
    T: Send,
    F: Fn(usize) -> T + Sync + Send,
{
    over_rankings(jr.n_rankings(), jr.rel.len(), value)
}

/// `value(i)` for `i` in `0..n`, the rankings of a batch of `documents` documents, as
/// [`per_ranking`].
pub fn over_rankings<T, F>(n: usize, documents: usize, value: F) -> Vec<T>
where
    T: Send,
    F: Fn(usize) -> T + Sync + Send,
{
    if documents < PARALLEL_DOCUMENTS {
        (0..n).map(value).collect()
    } else {
        (0..n).into_par_iter().map(value).collect()
    }
}

/// The values of the family `family` on the batch `jr`, or why it cannot be computed (the
/// family's line of [`FAMILIES`]).
pub fn compute(
    family: &str,
    params: &Params,
    jr: &JudgedView,
    ctx: &Context,
) -> Result<Outputs, String> {
    families::dispatch(FAMILIES, family, params, jr, ctx)
}

/// The output names of `family` with these parameters, in the order of its values: those
/// [`compute`] gives, known before any judging (computed on a batch of no rankings).
pub fn output_names(family: &str, params: &Params, ctx: &Context) -> Result<Vec<String>, String> {
    let empty = JudgedView {
        rel: &[],
        offsets: &[0],
        rel_levels: &[],
        degrees: &[],
        relevance_level: 1,
    };
    Ok(compute(family, params, &empty, ctx)?
        .into_iter()
        .map(|(name, _)| name)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_names_are_known_without_rankings() {
        let ctx = Context {
            compat: 9,
            num_docs_in_coll: 0,
        };
        let cutoffs = Params {
            ints: vec![5, 10],
            ..Params::default()
        };
        assert_eq!(output_names("P", &cutoffs, &ctx).unwrap(), ["P_5", "P_10"]);
        assert!(
            output_names("runid", &Params::default(), &ctx)
                .unwrap()
                .is_empty()
        );
        assert!(output_names("nope", &Params::default(), &ctx).is_err());
    }

    /// The words of `text` that follow `before` up to `after` on lines of that shape
    /// (`pub mod NAME;`, `    NAME::FAMILIES,`).
    fn named(text: &str, before: &str, after: &str) -> Vec<String> {
        text.lines()
            .filter_map(|line| line.strip_prefix(before)?.strip_suffix(after))
            .map(str::to_string)
            .collect()
    }

    /// This file names every file of the directory as a module, and puts in [`FAMILIES`]
    /// the lines of every module that declares its own: a new family's file that is not
    /// named here fails this test, with what to write.
    #[test]
    fn every_file_is_a_module_and_every_family_in_the_table() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/measures");
        let mut files = Vec::new();
        let mut declaring = Vec::new();
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_stem().unwrap().to_str().unwrap().to_string();
            if path.extension().is_some_and(|ext| ext == "rs") && name != "mod" {
                let text = std::fs::read_to_string(&path).unwrap();
                if text
                    .lines()
                    .any(|line| line.starts_with("pub const FAMILIES: &[Family]"))
                {
                    declaring.push(name.clone());
                }
                files.push(name);
            }
        }
        files.sort();
        declaring.sort();
        let this = std::fs::read_to_string(dir.join("mod.rs")).unwrap();
        assert_eq!(
            named(&this, "pub mod ", ";"),
            files,
            "name each file of src/measures/ here: `pub mod NAME;`, in order"
        );
        assert_eq!(
            named(&this, "    ", "::FAMILIES,"),
            declaring,
            "put the lines of each module that declares FAMILIES in the table: \
             `NAME::FAMILIES,`, in order"
        );
    }
}

/// Families computed through [`FAMILIES`] in the kernels' tests.
#[cfg(test)]
pub(crate) mod testing {
    use super::{Context, Outputs, Params, compute};
    use crate::judged::JudgedView;

    /// The outputs of `family` with `params` on `jr` (trec_eval 9's profile, `-N` 0).
    pub fn run(family: &str, params: &Params, jr: &JudgedView) -> Result<Outputs, String> {
        let ctx = Context {
            compat: 9,
            num_docs_in_coll: 0,
        };
        compute(family, params, jr, &ctx)
    }

    /// The outputs of `family` with the cut-offs `ints` and numbers `floats` on `jr`, which
    /// must compute.
    pub fn outputs(family: &str, ints: &[i64], floats: &[f64], jr: &JudgedView) -> Outputs {
        let params = Params {
            ints: ints.to_vec(),
            floats: floats.to_vec(),
            gains: Vec::new(),
        };
        run(family, &params, jr).unwrap()
    }
}
