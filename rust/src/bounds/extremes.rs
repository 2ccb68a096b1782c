//! The completions of a chain that can hold an extreme: per ranking and output, the slots
//! where the chain reaches its largest and its smallest value (and those within [`TIES`]
//! of it, [`KEEP`] at most; the first one only where the chain's values are the kernels'
//! own), and the extremes themselves.

use super::Pair;

/// Distance to a chain's extreme (relative, for values beyond 1) within which a completion
/// is evaluated too: the chains add floats in another order than the kernels.
pub const TIES: f64 = 1e-9;
/// Most completions of one chain evaluated for one extreme (a plateau of equal values,
/// such as nDCG@10 once the first 10 ranks and the ideal ones are set, needs one).
pub const KEEP: usize = 4;

/// The largest and the smallest of `values`, NaN passed over (-inf and inf where none):
/// four of each at a time (the comparisons apart, for the compiler to pack them).
fn range(values: &[f64]) -> (f64, f64) {
    let (mut top, mut bottom) = ([f64::NEG_INFINITY; 4], [f64::INFINITY; 4]);
    for chunk in values.chunks(4) {
        for (i, &v) in chunk.iter().enumerate() {
            if v > top[i] {
                top[i] = v;
            }
            if v < bottom[i] {
                bottom[i] = v;
            }
        }
    }
    (
        top.into_iter().fold(f64::NEG_INFINITY, f64::max),
        bottom.into_iter().fold(f64::INFINITY, f64::min),
    )
}

/// Marks in `chosen` the slots of `values` (one family of one ranking) at their largest
/// and at their smallest (`top` and `bottom`), NaN passed over: those within [`TIES`] of
/// it, the first [`KEEP`] of them (`exact`: the first slot holding it).
pub fn mark(values: &[f64], (top, bottom): (f64, f64), exact: bool, chosen: &mut [bool]) {
    let near = |extreme: f64| {
        if exact {
            extreme
        } else {
            extreme - TIES * extreme.abs().max(1.0)
        }
    };
    let most = if exact { 1 } else { KEEP };
    // the smallest as the largest of the values negated; where every value is NaN, -inf,
    // which every value (NaN as -inf) reaches
    let (high, low) = (near(top), near(-bottom));
    let (mut highs, mut lows) = (0, 0);
    for (slot, &v) in chosen.iter_mut().zip(values) {
        let (up, down) = if v.is_nan() {
            (f64::NEG_INFINITY, f64::NEG_INFINITY)
        } else {
            (v, -v)
        };
        if up >= high {
            highs += 1;
            *slot |= highs <= most;
        }
        if down >= low {
            lows += 1;
            *slot |= lows <= most;
        }
    }
}

/// The slots [`Marks::of`] marks: those near each extreme, the first at each (a chain whose
/// values are the kernels'), or none (the extremes alone).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Marked {
    Near,
    First,
    Nothing,
}

impl Marked {
    /// `near`, `first` or `none`.
    pub fn of(name: &str) -> Result<Marked, String> {
        match name {
            "near" => Ok(Marked::Near),
            "first" => Ok(Marked::First),
            "none" => Ok(Marked::Nothing),
            _ => Err(format!("{name}: no such marks (near, first, none)")),
        }
    }
}

/// One ranking's marks for every output of a chain ([`mark`], both extremes, both
/// families; no slot where [`Marked::Nothing`]), and each output's lowest and highest value
/// over both families (NaN where every value is NaN).
#[derive(Debug, Clone, PartialEq)]
pub struct Marks {
    pub prefix: Vec<bool>,
    pub suffix: Vec<bool>,
    pub extremes: Vec<(f64, f64)>,
}

impl Marks {
    pub fn of(outputs: &[Pair], u: usize, marked: Marked) -> Marks {
        let slots = if marked == Marked::Nothing { 0 } else { u + 1 };
        let mut marks = Marks {
            prefix: vec![false; slots],
            suffix: vec![false; slots],
            extremes: Vec::with_capacity(outputs.len()),
        };
        for pair in outputs {
            let (prefix, suffix) = (range(&pair.prefix), range(&pair.suffix));
            if marked != Marked::Nothing {
                let exact = marked == Marked::First;
                mark(&pair.prefix, prefix, exact, &mut marks.prefix);
                mark(&pair.suffix, suffix, exact, &mut marks.suffix);
            }
            let (top, bottom) = (prefix.0.max(suffix.0), prefix.1.min(suffix.1));
            marks.extremes.push(if top == f64::NEG_INFINITY {
                (f64::NAN, f64::NAN) // every value NaN
            } else {
                (bottom, top)
            });
        }
        marks
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_slots_near_each_extreme_are_marked() {
        let values = [0.5, 1.0, f64::NAN, 1.0 - 1e-12, 1.0, 1.0, 1.0, 0.2];
        assert_eq!(range(&values), (1.0, 0.2));
        let mut chosen = vec![false; 8];
        mark(&values, range(&values), false, &mut chosen);
        assert_eq!(chosen, [false, true, false, true, true, true, false, true]);
        let mut chosen = vec![false; 8];
        mark(&values, range(&values), true, &mut chosen);
        assert_eq!(
            chosen,
            [false, true, false, false, false, false, false, true]
        );
    }

    #[test]
    fn every_value_nan_marks_the_first_slots() {
        for (exact, expected) in [
            (false, [true, true, true, true, false]),
            (true, [true, false, false, false, false]),
        ] {
            let mut chosen = vec![false; 5];
            mark(&[f64::NAN; 5], range(&[f64::NAN; 5]), exact, &mut chosen);
            assert_eq!(chosen, expected);
        }
        let pair = Pair {
            prefix: vec![f64::NAN, 0.25],
            suffix: vec![0.75, f64::NAN],
        };
        let marks = Marks::of(std::slice::from_ref(&pair), 1, Marked::First);
        assert_eq!(marks.extremes, vec![(0.25, 0.75)]);
        assert_eq!(
            (marks.prefix, marks.suffix),
            (vec![false, true], vec![true, false])
        );
        let marks = Marks::of(&[pair], 1, Marked::Nothing);
        assert!(marks.prefix.is_empty() && marks.extremes == vec![(0.25, 0.75)]);
        let pair = Pair {
            prefix: vec![f64::NAN],
            suffix: vec![f64::NAN],
        };
        assert!(Marks::of(&[pair], 0, Marked::Near).extremes[0].0.is_nan());
    }
}
