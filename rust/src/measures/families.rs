//! The lines of the engine's table of trec_eval families ([`super::FAMILIES`]): each
//! family's name, its kernel (one signature for all: [`Kernel`]), the parameters it reads
//! ([`Shape`]) and its [`Role`]. Each module of `src/measures/` that computes families
//! declares their lines beside their kernels (`pub const FAMILIES: &[Family] = &[...]`), and
//! `mod.rs` names the modules and puts their lines in the table (a test keeps both in step
//! with the directory): a new family is one kernel module, with its line, named there, beside
//! its Python declaration (`irscale.measures.native.declare_native`), and no edit elsewhere. The engine hands the
//! table to Python (`_engine.trec_families`), where the declarations read from it the kinds
//! of parameters each family takes, and a test checks that both name the same families.

use super::{Context, Outputs, Params};
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

/// The trec_eval measure `name` (a line of a module's `FAMILIES`).
pub const fn measure(name: &'static str, kernel: Kernel, shape: Shape) -> Family {
    Family {
        name,
        kernel,
        shape,
        role: Role::Measure,
    }
}

/// The part of other measures `name` (a line of a module's `FAMILIES`).
pub const fn part(name: &'static str, kernel: Kernel, shape: Shape) -> Family {
    Family {
        name,
        kernel,
        shape,
        role: Role::Part,
    }
}

/// A table of families: the lines of each module that declares some, module by module.
pub type Table<'t> = &'t [&'t [Family]];

/// The lines of `table`, in its order.
pub fn lines<'t>(table: Table<'t>) -> impl Iterator<Item = &'t Family> {
    table.iter().flat_map(|module| module.iter())
}

/// The line of `table` named `family`, or why there is none.
pub fn find<'t>(table: Table<'t>, family: &str) -> Result<&'t Family, String> {
    lines(table)
        .find(|line| line.name == family)
        .ok_or_else(|| format!("no native kernel for the measure family {family:?}"))
}

/// The values of the family `family` of `table` on the batch `jr`: its parameters checked
/// against its shape, then its kernel called; or why it cannot be computed.
pub fn dispatch(
    table: Table,
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
    use crate::measures::FAMILIES;

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
        let mut names: Vec<&str> = lines(FAMILIES).map(|line| line.name).collect();
        names.sort_unstable();
        let count = names.len();
        names.dedup();
        assert_eq!(names.len(), count);
    }

    #[test]
    fn the_table_holds_each_module_s_lines() {
        let line = find(FAMILIES, "gm_map").unwrap();
        assert_eq!((line.shape, line.role), (Shape::NONE, Role::Measure));
        assert_eq!(find(FAMILIES, "map_cut_sum").unwrap().role, Role::Part);
        assert_eq!(
            find(FAMILIES, "map_cut_sum_5").unwrap_err(),
            "no native kernel for the measure family \"map_cut_sum_5\""
        );
    }
}
