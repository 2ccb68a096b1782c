//! The input of the meet-in-the-middle passes: groups of sorted partial values, whose sums
//! `a + b` make a measure's image ([`super::int_pairs`] by buckets, [`super::residues`] by
//! residue classes).

/// One group: `A` and `B` sorted ascending, with the runs of each entry.
#[derive(Clone, Copy)]
pub struct Group<'a> {
    pub a: &'a [i64],
    pub a_mult: &'a [i64],
    pub b: &'a [i64],
    pub b_mult: &'a [i64],
}
