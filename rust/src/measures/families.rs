//! The table of the engine's trec_eval families ([`FAMILIES`]): each family's name, its
//! kernel (one signature for all: [`Kernel`]), the parameters it reads ([`Shape`]) and its
//! [`Role`]. A new family is one kernel module and one line here, beside its Python
//! declaration (`irscale.measures.native.declare_native`); the engine hands this table to
//! Python (`_engine.trec_families`), where a test checks that both name the same families
//! and the same kinds of parameters.

use super::{
    Context, Outputs, Params, average_precision, bpref, counts, gain_g, interpolated, ndcg,
    ndcg_averaged, precision, rbp, recall, reciprocal_rank, relstring, set_measures, unjudged,
};
use crate::judged::JudgedView;

/// What a kernel is asked for: the family's name (one kernel may serve several names, as
/// `map` and `gm_map`), its parameters (checked against the family's [`Shape`]) and the
/// evaluation-wide settings.
#[derive(Debug, Clone, Copy)]
pub struct Call<'a> {
    pub family: &'a str,
    pub params: &'a Params,
    pub ctx: &'a Context,
}

/// The signature of every family's kernel: its outputs on the batch `jr`, each under its
/// output name, or why they cannot be computed.
pub type Kernel = fn(&Call, &JudgedView) -> Result<Outputs, String>;

/// How many values of one kind of parameter a family reads: from `min` to `max` (`None`:
/// no bound).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Count {
    pub min: usize,
    pub max: Option<usize>,
}

impl Count {
    /// No value of this kind.
    pub const NONE: Count = Count::between(0, Some(0));
    /// Any number of values (a list of cut-offs, of levels, a gain map).
    pub const ANY: Count = Count::between(0, None);

    /// From `min` to `max` values.
    pub const fn between(min: usize, max: Option<usize>) -> Count {
        Count { min, max }
    }

    /// Exactly `n` values.
    pub const fn exactly(n: usize) -> Count {
        Count::between(n, Some(n))
    }

    /// Whether `n` values are admitted.
    pub fn admits(&self, n: usize) -> bool {
        n >= self.min && self.max.is_none_or(|max| n <= max)
    }

    /// The count in words: `no`, `exactly 4`, `at least 1`, `any number of`.
    fn words(&self) -> String {
        match (self.min, self.max) {
            (_, Some(0)) => "no".into(),
            (min, Some(max)) if min == max => format!("exactly {min}"),
            (min, Some(max)) => format!("from {min} to {max}"),
            (0, None) => "any number of".into(),
            (min, None) => format!("at least {min}"),
        }
    }
}

/// The parameters a family reads, by kind: cut-offs (`ints`), numbers (`floats`) and the
/// `(level, gain)` pairs of a gain map (`gains`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    pub ints: Count,
    pub floats: Count,
    pub gains: Count,
}

impl Shape {
    /// No parameter.
    pub const NONE: Shape = Shape::of(Count::NONE, Count::NONE, Count::NONE);
    /// A list of cut-offs (`P.5,10`).
    pub const CUTOFFS: Shape = Shape::of(Count::ANY, Count::NONE, Count::NONE);
    /// A list of numbers (`Rprec_mult.0.2,0.8`, recall levels).
    pub const NUMBERS: Shape = Shape::of(Count::NONE, Count::ANY, Count::NONE);
    /// A gain map (`ndcg.0=0,1=1,2=3`).
    pub const GAINS: Shape = Shape::of(Count::NONE, Count::NONE, Count::ANY);

    /// `ints` cut-offs, `floats` numbers and `gains` pairs.
    pub const fn of(ints: Count, floats: Count, gains: Count) -> Shape {
        Shape {
            ints,
            floats,
            gains,
        }
    }

    /// `count` numbers and nothing else.
    pub const fn numbers(count: Count) -> Shape {
        Shape::of(Count::NONE, count, Count::NONE)
    }

    /// `Ok` if `params` are of this shape, or why not (for `family`).
    pub fn check(&self, family: &str, params: &Params) -> Result<(), String> {
        let kinds = [
            (self.ints, params.ints.len(), "cut-off"),
            (self.floats, params.floats.len(), "number"),
            (self.gains, params.gains.len(), "gain"),
        ];
        for (count, given, kind) in kinds {
            if !count.admits(given) {
                return Err(format!(
                    "{family} takes {} {kind} parameter(s), got {given}",
                    count.words()
                ));
            }
        }
        Ok(())
    }
}

/// What a family is to Python.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// A trec_eval measure, declared once in Python by `declare_native`.
    Measure,
    /// A part of other measures, computed for them and printed by none (`map_cut_sum`:
    /// NTCIREVAL's AP@l; `iprec_at_tenths`: ir_measures' interpolated precision).
    Part,
}

impl Role {
    /// The role's name in Python: `measure` or `part`.
    pub fn name(&self) -> &'static str {
        match self {
            Role::Measure => "measure",
            Role::Part => "part",
        }
    }
}

/// One line of a family table.
#[derive(Debug, Clone, Copy)]
pub struct Family {
    pub name: &'static str,
    pub kernel: Kernel,
    pub shape: Shape,
    pub role: Role,
}

/// The trec_eval measure `name`.
const fn measure(name: &'static str, kernel: Kernel, shape: Shape) -> Family {
    Family {
        name,
        kernel,
        shape,
        role: Role::Measure,
    }
}

/// The part of other measures `name`.
const fn part(name: &'static str, kernel: Kernel, shape: Shape) -> Family {
    Family {
        name,
        kernel,
        shape,
        role: Role::Part,
    }
}

/// The engine's families, one line each (binary relevance first, then gains).
pub static FAMILIES: &[Family] = &[
    measure("runid", counts::runid, Shape::NONE),
    measure("num_q", counts::num_q, Shape::NONE),
    measure("num_ret", counts::num_ret, Shape::NONE),
    measure("num_rel", counts::num_rel, Shape::NONE),
    measure("num_rel_ret", counts::num_rel_ret, Shape::NONE),
    measure(
        "num_nonrel_judged_ret",
        counts::num_nonrel_judged_ret,
        Shape::NONE,
    ),
    measure("map", average_precision::map, Shape::NONE),
    measure("gm_map", average_precision::map, Shape::NONE),
    measure("map_cut", average_precision::map_cut, Shape::CUTOFFS),
    part(
        "map_cut_sum",
        average_precision::map_cut_sum,
        Shape::CUTOFFS,
    ),
    measure("bpref", bpref::bpref, Shape::NONE),
    measure("gm_bpref", bpref::bpref, Shape::NONE),
    measure("infAP", bpref::infap, Shape::NONE),
    measure("P", precision::precision, Shape::CUTOFFS),
    measure("relative_P", precision::relative_precision, Shape::CUTOFFS),
    measure("Rprec", precision::r_precision, Shape::NONE),
    measure(
        "Rprec_mult",
        precision::r_precision_multiples,
        Shape::NUMBERS,
    ),
    measure("recall", recall::recall, Shape::CUTOFFS),
    measure("success", recall::success, Shape::CUTOFFS),
    measure("recip_rank", reciprocal_rank::reciprocal_rank, Shape::NONE),
    measure(
        "relstring",
        relstring::relstring,
        Shape::numbers(Count::exactly(1)),
    ),
    measure(
        "iprec_at_recall",
        interpolated::iprec_at_recall,
        Shape::NUMBERS,
    ),
    measure(
        "11pt_avg",
        interpolated::eleven_point_average,
        Shape::numbers(Count::between(1, None)),
    ),
    part(
        "iprec_at_tenths",
        interpolated::iprec_at_tenths,
        Shape::CUTOFFS,
    ),
    measure("set_P", set_measures::set_p, Shape::NONE),
    measure("set_recall", set_measures::set_recall, Shape::NONE),
    measure("set_relative_P", set_measures::set_relative_p, Shape::NONE),
    measure("set_map", set_measures::set_map, Shape::NONE),
    measure(
        "set_F",
        set_measures::set_f,
        Shape::numbers(Count::exactly(1)),
    ),
    measure(
        "utility",
        set_measures::utility,
        Shape::numbers(Count::exactly(4)),
    ),
    measure("unj", unjudged::unjudged, Shape::CUTOFFS),
    // gain-based families
    measure("ndcg", ndcg::ndcg, Shape::GAINS),
    measure("dcg", ndcg::dcg, Shape::GAINS),
    measure("ideal_dcg", ndcg::ideal_dcg, Shape::GAINS),
    measure("ndcg_cut", ndcg::ndcg_cut, Shape::CUTOFFS),
    measure("Rndcg", ndcg_averaged::rndcg, Shape::GAINS),
    measure("ndcg_rel", ndcg_averaged::ndcg_rel, Shape::GAINS),
    measure("binG", gain_g::bin_g, Shape::NONE),
    measure("G", gain_g::g, Shape::GAINS),
    measure(
        "rbp",
        rbp::rbp,
        Shape::of(Count::NONE, Count::exactly(1), Count::ANY),
    ),
    measure(
        "rbp_resid",
        rbp::rbp_resid,
        Shape::numbers(Count::exactly(1)),
    ),
];

/// The line of `table` named `family`, or why there is none.
pub fn find<'t>(table: &'t [Family], family: &str) -> Result<&'t Family, String> {
    table
        .iter()
        .find(|line| line.name == family)
        .ok_or_else(|| format!("no native kernel for the measure family {family:?}"))
}

/// The values of the family `family` of `table` on the batch `jr`: its parameters checked
/// against its shape, then its kernel called; or why it cannot be computed.
pub fn dispatch(
    table: &[Family],
    family: &str,
    params: &Params,
    jr: &JudgedView,
    ctx: &Context,
) -> Result<Outputs, String> {
    jr.check()?;
    let line = find(table, family)?;
    line.shape.check(family, params)?;
    (line.kernel)(
        &Call {
            family,
            params,
            ctx,
        },
        jr,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measures::Values;
    use crate::measures::table::int_column;

    /// A throw-away family: the number of documents retrieved up to the first cut-off.
    fn first_cut(call: &Call, jr: &JudgedView) -> Result<Outputs, String> {
        let k = call.params.ints[0].max(0) as usize;
        Ok(int_column(jr, call.family, |i| {
            jr.ranking(i).len().min(k) as i64
        }))
    }

    static TEST_TABLE: &[Family] = &[
        measure("num_q", counts::num_q, Shape::NONE),
        part(
            "first_cut",
            first_cut,
            Shape::of(Count::exactly(1), Count::NONE, Count::NONE),
        ),
    ];

    const JR: JudgedView = JudgedView {
        rel: &[1, 0, 2],
        offsets: &[0, 2, 3],
        rel_levels: &[],
        degrees: &[],
        relevance_level: 1,
    };

    fn ctx() -> Context {
        Context {
            compat: 9,
            num_docs_in_coll: 0,
        }
    }

    fn cutoffs(ints: &[i64]) -> Params {
        Params {
            ints: ints.to_vec(),
            ..Params::default()
        }
    }

    #[test]
    fn a_new_family_is_one_kernel_and_one_line() {
        let got = dispatch(TEST_TABLE, "first_cut", &cutoffs(&[1]), &JR, &ctx()).unwrap();
        assert_eq!(got, vec![("first_cut".into(), Values::Int(vec![1, 1]))]);
        let got = dispatch(TEST_TABLE, "num_q", &Params::default(), &JR, &ctx()).unwrap();
        assert_eq!(got, vec![("num_q".into(), Values::Int(vec![1, 1]))]);
        // the families of one table are not those of another
        assert!(dispatch(TEST_TABLE, "P", &cutoffs(&[1]), &JR, &ctx()).is_err());
        assert!(dispatch(FAMILIES, "first_cut", &cutoffs(&[1]), &JR, &ctx()).is_err());
    }

    #[test]
    fn parameters_outside_the_shape_are_refused() {
        let refused =
            |params: &Params| dispatch(TEST_TABLE, "first_cut", params, &JR, &ctx()).unwrap_err();
        assert_eq!(
            refused(&cutoffs(&[])),
            "first_cut takes exactly 1 cut-off parameter(s), got 0"
        );
        assert_eq!(
            refused(&cutoffs(&[1, 2])),
            "first_cut takes exactly 1 cut-off parameter(s), got 2"
        );
        let numbers = Params {
            ints: vec![1],
            floats: vec![0.5],
            gains: vec![],
        };
        assert_eq!(
            refused(&numbers),
            "first_cut takes no number parameter(s), got 1"
        );
    }

    #[test]
    fn counts_in_words() {
        assert!(Count::ANY.admits(0) && Count::ANY.admits(7));
        assert!(!Count::NONE.admits(1) && Count::NONE.admits(0));
        let words: Vec<String> = [
            Count::NONE,
            Count::ANY,
            Count::exactly(4),
            Count::between(1, None),
            Count::between(1, Some(3)),
        ]
        .iter()
        .map(Count::words)
        .collect();
        assert_eq!(
            words,
            [
                "no",
                "any number of",
                "exactly 4",
                "at least 1",
                "from 1 to 3"
            ]
        );
    }

    #[test]
    fn names_are_unique() {
        let mut names: Vec<&str> = FAMILIES.iter().map(|line| line.name).collect();
        names.sort_unstable();
        let count = names.len();
        names.dedup();
        assert_eq!(names.len(), count);
    }
}
