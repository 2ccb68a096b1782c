//! trec_eval's measures, one module per family (as trec_eval's `m_*.c`), computed on a
//! batch of judged rankings ([`JudgedView`]) and dispatched by family name ([`compute`]).
//!
//! Each family's kernel computes every ranking from that ranking's documents and its
//! topic's recall base alone, so a batch is shared out between threads by whole rankings
//! ([`per_ranking`]) and the values are the same, bit for bit, whatever the thread count.

// binary-relevance families (trec_eval's m_*.c without gains), one module per Python file
pub mod average_precision;
pub mod bpref;
pub mod counts;
pub mod interpolated;
pub mod precision;
pub mod recall;
pub mod reciprocal_rank;
pub mod relstring;
pub mod set_measures;
pub mod table;
pub mod unjudged;

use crate::judged::JudgedView;
use rayon::prelude::*;

// gain-based families: trec_eval's gain tables and ideal rankings, then one module per family
pub mod gain_g;
pub mod gains;
pub mod ndcg;
pub mod ndcg_averaged;
pub mod rbp;

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
    let n = jr.n_rankings();
    if jr.rel.len() < PARALLEL_DOCUMENTS {
        (0..n).map(value).collect()
    } else {
        (0..n).into_par_iter().map(value).collect()
    }
}

/// The values of the family `family` on the batch `jr`, or why it cannot be computed.
pub fn compute(
    family: &str,
    params: &Params,
    jr: &JudgedView,
    ctx: &Context,
) -> Result<Outputs, String> {
    jr.check()?;
    let ints = params.ints.as_slice();
    let floats = params.floats.as_slice();
    match family {
        // binary-relevance families
        "runid" | "num_q" | "num_ret" | "num_rel" | "num_rel_ret" | "num_nonrel_judged_ret" => {
            counts::compute(family, jr)
        }
        "map" | "gm_map" => Ok(average_precision::map(family, jr)),
        "map_cut" => Ok(average_precision::map_cut(family, ints, jr, true)),
        "map_cut_sum" => Ok(average_precision::map_cut(family, ints, jr, false)),
        "bpref" | "gm_bpref" => Ok(bpref::bpref(family, jr)),
        "infAP" => Ok(bpref::infap(jr)),
        "P" => Ok(precision::precision(ints, jr)),
        "relative_P" => Ok(precision::relative_precision(ints, jr)),
        "Rprec" => Ok(precision::r_precision(jr)),
        "Rprec_mult" => Ok(precision::r_precision_multiples(floats, jr)),
        "recall" => Ok(recall::recall(ints, jr)),
        "success" => Ok(recall::success(ints, jr)),
        "recip_rank" => Ok(reciprocal_rank::reciprocal_rank(jr)),
        "relstring" => Ok(relstring::relstring(number(family, floats, 0)?, jr)),
        "iprec_at_recall" => Ok(interpolated::iprec_at_recall(floats, ctx.compat, jr)),
        "11pt_avg" if floats.is_empty() => Err("11pt_avg needs at least one recall level".into()),
        "11pt_avg" => Ok(interpolated::eleven_point_average(floats, ctx.compat, jr)),
        "iprec_at_tenths" => Ok(interpolated::iprec_at_tenths(ints, jr)),
        "set_P" | "set_recall" | "set_relative_P" | "set_map" => set_measures::compute(family, jr),
        "set_F" => Ok(set_measures::set_f(number(family, floats, 0)?, jr)),
        "utility" => match floats {
            &[a, b, c, d] => Ok(set_measures::utility(
                [a, b, c, d],
                ctx.num_docs_in_coll,
                jr,
            )),
            _ => Err(format!(
                "utility takes 4 coefficients, got {}",
                floats.len()
            )),
        },
        "unj" => Ok(unjudged::unjudged(ints, jr)),
        // gain-based families
        "ndcg" | "dcg" | "ideal_dcg" => Ok(ndcg::ndcg(family, params, jr)),
        "ndcg_cut" => ndcg::ndcg_cut(params, jr),
        "Rndcg" => Ok(ndcg_averaged::rndcg(params, jr)),
        "ndcg_rel" => Ok(ndcg_averaged::ndcg_rel(params, jr)),
        "binG" => Ok(gain_g::bin_g(jr)),
        "G" => Ok(gain_g::g(params, jr)),
        "rbp" => rbp::rbp(params, jr),
        "rbp_resid" => rbp::rbp_resid(params, jr),
        _ => Err(format!(
            "no native kernel for the measure family {family:?}"
        )),
    }
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

/// The `index`-th number parameter of `family`, or why there is none.
fn number(family: &str, floats: &[f64], index: usize) -> Result<f64, String> {
    floats
        .get(index)
        .copied()
        .ok_or_else(|| format!("{family} needs {} number parameter(s)", index + 1))
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
}
