//! A table of values with one row per ranking and one column per output of a family
//! (`P_5`, `P_10`, ...): every ranking fills its row in one walk over its documents (on
//! every core for large batches, as [`super::per_ranking`]), and the table is handed out
//! column by column.

use super::{Outputs, PARALLEL_DOCUMENTS, Values, per_ranking};
use crate::judged::{Cutoffs, JudgedView};
use rayon::prelude::*;

/// The columns of the `n_rankings × names.len()` table whose row `i` is filled by
/// `fill(i, row)` (the row starts at zeros), as float outputs named `names`.
pub fn float_columns<F>(jr: &JudgedView, names: Vec<String>, fill: F) -> Outputs
where
    F: Fn(usize, &mut [f64]) + Sync + Send,
{
    let width = names.len();
    if width == 0 {
        return Vec::new();
    }
    let n = jr.n_rankings();
    let mut rows = vec![0.0; n * width];
    if jr.rel.len() < PARALLEL_DOCUMENTS {
        rows.chunks_mut(width)
            .enumerate()
            .for_each(|(i, row)| fill(i, row));
    } else {
        rows.par_chunks_mut(width)
            .enumerate()
            .for_each(|(i, row)| fill(i, row));
    }
    names
        .into_iter()
        .enumerate()
        .map(|(column, name)| {
            let values = rows.iter().skip(column).step_by(width).copied().collect();
            (name, Values::Float(values))
        })
        .collect()
}

/// One float output, `name`, with the value `value(i)` for each ranking `i`.
pub fn float_column<F>(jr: &JudgedView, name: &str, value: F) -> Outputs
where
    F: Fn(usize) -> f64 + Sync + Send,
{
    vec![(name.to_string(), Values::Float(per_ranking(jr, value)))]
}

/// One integer output, `name`, with the count `count(i)` for each ranking `i`.
pub fn int_column<F>(jr: &JudgedView, name: &str, count: F) -> Outputs
where
    F: Fn(usize) -> i64 + Sync + Send,
{
    vec![(name.to_string(), Values::Int(per_ranking(jr, count)))]
}

/// `family_k` for each cut-off `k`: trec_eval's names of a family's values at cut-offs.
pub fn cutoff_names(family: &str, cutoffs: &[i64]) -> Vec<String> {
    cutoffs.iter().map(|k| format!("{family}_{k}")).collect()
}

/// The columns `family_k`, one per cut-off `k` of `cutoffs`, whose value for ranking `i` is
/// `value(h(k), k, R)`: `h(k)` the documents passing the relevance test among its first
/// `k` (all of them when fewer were retrieved), `R` the topic's relevant documents. A
/// topic with `R = 0` keeps zeros when `needs_relevant` (the measure divides by `R`).
pub fn hit_columns<V>(
    jr: &JudgedView,
    family: &str,
    cutoffs: &[i64],
    needs_relevant: bool,
    value: V,
) -> Outputs
where
    V: Fn(i64, i64, i64) -> f64 + Sync + Send,
{
    let sorted = Cutoffs::new(cutoffs);
    float_columns(jr, cutoff_names(family, cutoffs), |i, row| {
        let num_rel = jr.num_rel(i);
        if needs_relevant && num_rel <= 0 {
            return;
        }
        sorted.counts(
            jr.ranking(i),
            |rel| jr.is_relevant(rel),
            |index, hits| row[index] = value(hits, cutoffs[index], num_rel),
        );
    })
}

/// `family_x` for each number `x` (shortest round-trip text; the catalogue prints its own
/// names for numeric parameters).
pub fn number_names(family: &str, numbers: &[f64]) -> Vec<String> {
    numbers.iter().map(|x| format!("{family}_{x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_become_named_columns() {
        let jr = JudgedView {
            rel: &[1, 0, 2],
            offsets: &[0, 2, 3],
            rel_levels: &[],
            degrees: &[],
            relevance_level: 1,
        };
        let names = cutoff_names("x", &[1, 2]);
        let columns = float_columns(&jr, names, |i, row| {
            row[0] = i as f64;
            row[1] = jr.ranking(i).len() as f64;
        });
        assert_eq!(
            columns,
            vec![
                ("x_1".to_string(), Values::Float(vec![0.0, 1.0])),
                ("x_2".to_string(), Values::Float(vec![2.0, 1.0])),
            ]
        );
        assert_eq!(number_names("y", &[0.2, 1.0]), ["y_0.2", "y_1"]);
    }
}
