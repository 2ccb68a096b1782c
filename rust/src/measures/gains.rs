//! Gains and ideal rankings of trec_eval's gain-based measures (ndcg, dcg, ideal_dcg,
//! ndcg_cut, Rndcg, ndcg_rel, G), after trec_eval 9.0.8's `setup_gains` / `get_gain` /
//! `comp_rel_gain` (a static copy in each of m_ndcg.c, m_Rndcg.c, m_ndcg_rel.c, m_G.c;
//! gathered in gain_init.c in 10.0, with the same semantics for valid parameters).
//!
//! **Gain table.** For a topic whose highest judged degree is `L − 1` (`L`, trec_eval's
//! `num_rel_levels`: 1 + the highest degree with a judged document, 0 when there is none),
//! the table lists the `level=gain` parameters in the order given, then every level
//! `0 ≤ v < L` not given, with gain `v`. It is sorted by glibc's `qsort` (a stable top-down
//! merge sort, [`glibc_msort`]) with the comparator `(int)(gain1 − gain2)` ([`trec_compare`]),
//! which is no order when gains lie less than 1 apart (or 2³¹ or more apart): the order
//! glibc leaves is then replayed entry by entry, up to [`EXACT_SORT_ENTRIES`] entries.
//!
//! **Document gains** ([`GainMap::gain`]): the parameter's gain for a level given as a
//! parameter (negative levels included: `ndcg.-1=1` gives documents outside the qrels gain
//! 1), else the degree itself for judged documents, else 0.
//!
//! **Ideal ranking** ([`Ideal`]): walking the sorted table from the highest entry down,
//! `count` documents of each entry's gain, stopping at the first non-empty entry whose gain
//! is ≤ 0, or at once when the last entry's gain is ≤ 0. Its `K` documents all have a
//! positive gain. Discount: `log2(i + 1)` at 1-based rank `i` (trec_eval's `log2(i + 2)`
//! with a 0-based `i`), the C library's `log2`.

use std::cmp::Ordering;
use std::collections::HashMap;

use rayon::prelude::*;

use crate::judged::{JudgedView, NONPOOL, UNJUDGED};

/// The largest gain table whose order is replayed entry by entry when trec_eval's
/// comparator is no order on it; a larger one is sorted by true gain (and Python warns).
pub const EXACT_SORT_ENTRIES: u128 = 4096;

const TWO_31: f64 = 2_147_483_648.0;

/// trec_eval's `comp_rel_gain`: `(int)(gain1 − gain2)` as x86-64 converts (truncation,
/// `INT_MIN` when out of range).
pub fn trec_compare(gain1: f64, gain2: f64) -> i32 {
    let x = gain1 - gain2;
    if x > -TWO_31 && x < TWO_31 {
        x as i32
    } else {
        i32::MIN
    }
}

/// `items` sorted as glibc's `qsort` (`msort_with_tmp`) sorts them: a stable top-down merge
/// sort whose first half holds `n / 2` items, taking from the left run while
/// `compare(left, right) ≤ 0`. Only matters for comparators that are no order.
pub fn glibc_msort<T: Copy>(items: &mut [T], compare: &impl Fn(&T, &T) -> i32) {
    let n = items.len();
    if n <= 1 {
        return;
    }
    let (left, right) = items.split_at_mut(n / 2);
    glibc_msort(left, compare);
    glibc_msort(right, compare);
    let mut merged = Vec::with_capacity(n);
    let (mut i, mut j) = (0, 0);
    while i < left.len() && j < right.len() {
        if compare(&left[i], &right[j]) <= 0 {
            merged.push(left[i]);
            i += 1;
        } else {
            merged.push(right[j]);
            j += 1;
        }
    }
    merged.extend_from_slice(&left[i..]);
    merged.extend_from_slice(&right[j..]);
    items.copy_from_slice(&merged);
}

/// trec_eval's DCG discount of 1-based rank `rank`: `log2(rank + 1)`.
pub fn discount(rank: usize) -> f64 {
    ((rank + 1) as f64).log2()
}

/// The discounts of the ranks of a batch's rankings, computed once ([`discount`]).
pub struct Discounts(Vec<f64>);

impl Discounts {
    /// The discounts of ranks 1 to the length of `jr`'s longest ranking.
    pub fn of(jr: &JudgedView) -> Discounts {
        let longest = jr.offsets.windows(2).map(|w| w[1] - w[0]).max();
        Discounts::up_to(longest.unwrap_or(0) as usize)
    }

    /// The discounts of ranks 1 to `ranks`.
    pub fn up_to(ranks: usize) -> Discounts {
        Discounts((1..=ranks).map(discount).collect())
    }

    /// The discount of 1-based rank `rank` (of a ranking of the batch).
    #[inline]
    pub fn at(&self, rank: usize) -> f64 {
        self.0[rank - 1]
    }
}

/// trec_eval's `num_rel_levels` of a topic: 1 + the highest degree with a judged document
/// (0 when there is none); a degree of 2⁶³ − 1 has 2⁶³ levels.
pub fn num_rel_levels(levels: &[i64], degrees: &[i64]) -> u64 {
    levels
        .iter()
        .rposition(|&count| count > 0)
        .map_or(0, |column| degrees[column] as u64 + 1)
}

/// A gain map: trec_eval's `level=gain` parameters, in the order given.
#[derive(Debug, Clone)]
pub struct GainMap<'a> {
    pub pairs: &'a [(i64, f64)],
    nonpool: f64,
    unjudged: f64,
    /// The gains of the degrees `0 .. SMALL_DEGREES` under a non-empty map.
    small: [f64; SMALL_DEGREES],
}

/// The degrees whose gains a [`GainMap`] tabulates.
const SMALL_DEGREES: usize = 64;
const SMALL_DEGREES_I64: i64 = SMALL_DEGREES as i64;

impl<'a> GainMap<'a> {
    pub fn new(pairs: &'a [(i64, f64)]) -> Self {
        let given = |level: i64| pairs.iter().find(|(l, _)| *l == level).map(|(_, g)| *g);
        let mut small = [0.0; SMALL_DEGREES];
        for (degree, gain) in small.iter_mut().enumerate() {
            *gain = given(degree as i64).unwrap_or(degree as f64);
        }
        GainMap {
            pairs,
            nonpool: given(NONPOOL).unwrap_or(0.0),
            unjudged: given(UNJUDGED).unwrap_or(0.0),
            small,
        }
    }

    /// The parameter's gain for `level`, if it is given.
    pub fn given(&self, level: i64) -> Option<f64> {
        self.pairs
            .iter()
            .find(|(l, _)| *l == level)
            .map(|(_, g)| *g)
    }

    /// `get_gain` of a document of relevance value `rel`.
    #[inline]
    pub fn gain(&self, rel: i64) -> f64 {
        match rel {
            NONPOOL => self.nonpool,
            UNJUDGED => self.unjudged,
            _ if self.pairs.is_empty() => rel.max(0) as f64,
            0..SMALL_DEGREES_I64 => self.small[rel as usize],
            _ => self
                .given(rel)
                .unwrap_or(if rel >= 0 { rel as f64 } else { 0.0 }),
        }
    }

    /// The gains of a topic's table that bound it: the parameters' and those of the least
    /// and greatest default levels (`v < num_levels` not given); empty for an empty table.
    pub fn bounding_gains(&self, num_levels: u64) -> Vec<f64> {
        let given = |level: i128| self.pairs.iter().any(|(l, _)| i128::from(*l) == level);
        let (mut low, mut high) = (0_i128, i128::from(num_levels) - 1);
        while low <= high && given(low) {
            low += 1;
        }
        while high >= low && given(high) {
            high -= 1;
        }
        let mut gains: Vec<f64> = self.pairs.iter().map(|(_, g)| *g).collect();
        if low <= high {
            gains.extend([low as f64, high as f64]);
        }
        gains
    }

    /// `(least, greatest)` gain of a topic's table when trec_eval's sort cannot be replayed
    /// on it: its comparator is no order on the table (a fractional gain, or gains 2³¹ or
    /// more apart) and the table has more than [`EXACT_SORT_ENTRIES`] entries.
    pub fn unreplayable(&self, num_levels: u64) -> Option<(f64, f64)> {
        let gains = self.bounding_gains(num_levels);
        let (consistent, least, greatest) = consistency(&gains)?;
        let entries = u128::from(num_levels) + self.pairs.len() as u128;
        (!consistent && entries > EXACT_SORT_ENTRIES).then_some((least, greatest))
    }
}

/// Whether trec_eval's comparator is an order on gains bounded by `gains` (all integers,
/// less than 2³¹ apart), with their least and greatest; `None` when there are none.
fn consistency(gains: &[f64]) -> Option<(bool, f64, f64)> {
    let least = gains.iter().copied().reduce(f64::min)?;
    let greatest = gains.iter().copied().reduce(f64::max)?;
    let integers = gains.iter().all(|g| g.trunc() == *g);
    Some((integers && greatest - least < TWO_31, least, greatest))
}

/// trec_eval's ideal ranking of a topic: runs of equal gains, best first, every gain > 0.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Ideal {
    /// `(gain, documents)` runs, in ideal order.
    pub runs: Vec<(f64, i64)>,
    /// `K`: the number of documents of the ideal ranking.
    pub length: i64,
}

impl Ideal {
    /// The ideal ranking of a topic with `levels[j]` judged documents at `degrees[j]`.
    pub fn of(levels: &[i64], degrees: &[i64], gains: &GainMap) -> Ideal {
        let num_levels = num_rel_levels(levels, degrees);
        let count = |level: i64| -> i64 {
            if level < 0 || (level as u64) >= num_levels {
                return 0;
            }
            degrees
                .binary_search(&level)
                .map_or(0, |column| levels[column])
        };
        let Some((consistent, _, greatest)) = consistency(&gains.bounding_gains(num_levels)) else {
            return Ideal::default();
        };
        let given = |level: i64| gains.given(level).is_some();
        let mut entries: Vec<(i64, f64)> = gains.pairs.to_vec();
        let entries_in_table = u128::from(num_levels) + gains.pairs.len() as u128;
        let last_gain = if !consistent && entries_in_table <= EXACT_SORT_ENTRIES {
            // the whole table, in the order trec_eval's qsort leaves it
            entries.extend(
                (0..num_levels as i64)
                    .filter(|v| !given(*v))
                    .map(|v| (v, v as f64)),
            );
            glibc_msort(&mut entries, &|a: &(i64, f64), b: &(i64, f64)| {
                trec_compare(a.1, b.1)
            });
            entries.last().map_or(0.0, |e| e.1)
        } else {
            // an order (or a table too large to replay): the entries that can hold
            // documents, stably by gain, keep trec_eval's relative order
            entries.extend(
                degrees
                    .iter()
                    .zip(levels)
                    .filter(|(d, c)| **c > 0 && !given(**d))
                    .map(|(d, _)| (*d, *d as f64)),
            );
            entries.sort_by(|a, b| a.1.partial_cmp(&b.1).unwrap_or(Ordering::Equal));
            greatest
        };
        let mut ideal = Ideal::default();
        if last_gain <= 0.0 {
            return ideal;
        }
        for &(level, gain) in entries.iter().rev() {
            let documents = count(level);
            if documents > 0 {
                if gain <= 0.0 {
                    break;
                }
                ideal.runs.push((gain, documents));
                ideal.length += documents;
            }
        }
        ideal
    }

    /// The gains of the ideal ranking, position by position, then 0 forever.
    pub fn gains(&self) -> impl Iterator<Item = f64> + '_ {
        self.runs
            .iter()
            .flat_map(|&(gain, documents)| std::iter::repeat_n(gain, documents as usize))
            .chain(std::iter::repeat(0.0))
    }

    /// `IDCG@k` for `k = 1 ..= min(depth, K)`, each the running sum of trec_eval's loop.
    pub fn dcg_prefix(&self, depth: usize) -> Vec<f64> {
        let stored = depth.min(self.length as usize);
        let mut sum = 0.0;
        self.gains()
            .take(stored)
            .enumerate()
            .map(|(j, gain)| {
                sum += gain / discount(j + 1);
                sum
            })
            .collect()
    }

    /// The ideal DCG of the whole ideal ranking.
    pub fn total_dcg(&self) -> f64 {
        self.gains()
            .take(self.length as usize)
            .enumerate()
            .fold(0.0, |sum, (j, gain)| sum + gain / discount(j + 1))
    }

    /// The sum of the ideal gains, best first.
    pub fn total_gain(&self) -> f64 {
        self.gains()
            .take(self.length as usize)
            .fold(0.0, |sum, gain| sum + gain)
    }
}

/// Per-topic data of a batch, computed once per distinct row of `rel_levels` (rankings of
/// one topic share it).
pub struct PerTopic<T> {
    row: Vec<usize>,
    values: Vec<T>,
}

impl<T: Send> PerTopic<T> {
    /// `make(levels)` for each distinct row of level counts of `jr`.
    pub fn build(jr: &JudgedView, make: impl Fn(&[i64]) -> T + Sync) -> Self {
        let mut seen: HashMap<&[i64], usize> = HashMap::new();
        let mut distinct: Vec<&[i64]> = Vec::new();
        let row = (0..jr.n_rankings())
            .map(|i| {
                let levels = jr.levels(i);
                *seen.entry(levels).or_insert_with(|| {
                    distinct.push(levels);
                    distinct.len() - 1
                })
            })
            .collect();
        let values = distinct.into_par_iter().map(&make).collect();
        PerTopic { row, values }
    }

    /// The data of ranking `i`'s topic.
    pub fn of(&self, i: usize) -> &T {
        &self.values[self.row[i]]
    }
}

/// The ideal rankings of the topics of `jr` under `gains`.
pub fn ideals(jr: &JudgedView, gains: &GainMap) -> PerTopic<Ideal> {
    PerTopic::build(jr, |levels| Ideal::of(levels, jr.degrees, gains))
}

/// `(num_levels, least, greatest)` for each distinct `num_levels` of the topics whose level
/// counts are the rows of `rel_levels` (one column per degree of `degrees`) where trec_eval's
/// sort cannot be replayed on the gain table ([`GainMap::unreplayable`]).
pub fn unreplayable_tables(
    rel_levels: &[i64],
    degrees: &[i64],
    gains: &GainMap,
) -> Vec<(u64, f64, f64)> {
    let mut levels: Vec<u64> = if degrees.is_empty() {
        vec![0]
    } else {
        rel_levels
            .chunks_exact(degrees.len())
            .map(|row| num_rel_levels(row, degrees))
            .collect()
    };
    levels.sort_unstable();
    levels.dedup();
    levels
        .into_iter()
        .filter_map(|l| gains.unreplayable(l).map(|(a, b)| (l, a, b)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comparator_truncates_and_overflows_as_x86() {
        assert_eq!(trec_compare(0.9, 0.3), 0);
        assert_eq!(trec_compare(1.5, 0.3), 1);
        assert_eq!(trec_compare(0.3, 1.5), -1);
        assert_eq!(trec_compare(3e9, 0.0), i32::MIN);
        assert_eq!(trec_compare(-3e9, 0.0), i32::MIN);
    }

    #[test]
    fn merge_sort_replays_glibc_for_a_non_transitive_comparator() {
        // [1.5] | [0.3, 0.9]: 1.5 > 0.3, then 1.5 "equals" 0.9 and is taken first
        let mut entries = [(2, 1.5), (1, 0.3), (0, 0.9)];
        glibc_msort(&mut entries, &|a: &(i64, f64), b: &(i64, f64)| {
            trec_compare(a.1, b.1)
        });
        assert_eq!(entries, [(1, 0.3), (2, 1.5), (0, 0.9)]);
        let mut numbers = [3, 1, 2, 1];
        glibc_msort(&mut numbers, &|a: &i32, b: &i32| a - b);
        assert_eq!(numbers, [1, 1, 2, 3]);
    }

    #[test]
    fn document_gains_follow_the_map_then_the_degree() {
        let pairs = [(-1, 1.0), (2, 9.0)];
        let map = GainMap::new(&pairs);
        assert_eq!(
            [-2, -1, 0, 1, 2, 3].map(|r| map.gain(r)),
            [0.0, 1.0, 0.0, 1.0, 9.0, 3.0]
        );
        assert_eq!(GainMap::new(&[]).gain(NONPOOL), 0.0);
        assert_eq!(map.gain(100), 100.0);
        let discounts = Discounts::up_to(3);
        assert_eq!([1, 2, 3].map(|r| discounts.at(r)), [1.0, 3f64.log2(), 2.0]);
    }

    #[test]
    fn ideal_ranking_lists_degrees_best_first() {
        // 5 documents of degree 0, 2 of degree 1, 1 of degree 3
        let ideal = Ideal::of(&[5, 2, 0, 1], &[0, 1, 2, 3], &GainMap::new(&[]));
        assert_eq!(ideal.runs, [(3.0, 1), (1.0, 2)]);
        assert_eq!(ideal.length, 3);
        let expected = 3.0 + 1.0 / 3f64.log2() + 1.0 / 2.0;
        assert_eq!(ideal.total_dcg(), expected);
        assert_eq!(ideal.dcg_prefix(2), [3.0, 3.0 + 1.0 / 3f64.log2()]);
        assert_eq!(ideal.total_gain(), 5.0);
        // non-contiguous degree columns: 0, 1, 3, 10
        let ideal = Ideal::of(&[1, 1, 0, 2], &[0, 1, 3, 10], &GainMap::new(&[]));
        assert_eq!(ideal.runs, [(10.0, 2), (1.0, 1)]);
    }

    #[test]
    fn fractional_gains_keep_trec_evals_order() {
        // ndcg.1=3.1,2=0.7 on degrees 0/1/2: the level-0 entry (gain 0) stays above 0.7
        let pairs = [(1, 3.1), (2, 0.7)];
        let ideal = Ideal::of(&[1, 1, 1], &[0, 1, 2], &GainMap::new(&pairs));
        assert_eq!(ideal.runs, [(3.1, 1)]);
        // 2=1.5,1=0.3,0=0.9 sorts to (0.3, 1.5, 0.9): the 0.9 documents come first
        let pairs = [(2, 1.5), (1, 0.3), (0, 0.9)];
        let ideal = Ideal::of(&[1, 1, 1], &[0, 1, 2], &GainMap::new(&pairs));
        assert_eq!(ideal.runs, [(0.9, 1), (1.5, 1), (0.3, 1)]);
    }

    #[test]
    fn a_non_positive_last_gain_empties_the_ideal_ranking() {
        let pairs = [(1, 0.0)];
        let ideal = Ideal::of(&[1, 1], &[0, 1], &GainMap::new(&pairs));
        assert_eq!(ideal, Ideal::default());
        assert_eq!(num_rel_levels(&[0, 0], &[0, 1]), 0);
        assert_eq!(num_rel_levels(&[0, 1], &[0, i64::MAX]), 1 << 63);
    }

    #[test]
    fn huge_labels_are_sorted_by_true_gain() {
        let map = GainMap::new(&[]);
        let big = 1_i64 << 31;
        assert_eq!(map.unreplayable(big as u64 + 1), Some((0.0, big as f64)));
        assert_eq!(map.unreplayable(5), None);
        let ideal = Ideal::of(&[1, 1], &[1, big], &map);
        assert_eq!(ideal.runs, [(big as f64, 1), (1.0, 1)]);
    }
}
