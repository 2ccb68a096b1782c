//! The chains of the bounds search (`irscale.collections.bounds_chains`): a measure's value
//! at every completion of both families of a ranking, followed from one completion to the
//! next, and the completions where it reaches its extremes.
//!
//! A ranking with `u` unjudged documents (not in the qrels, in the depth searched) and
//! `below` more below that depth has `u + 1` *prefix* completions (slot `k`: the first `k`
//! unjudged documents given the highest grade, the others and those below the depth the
//! lowest) and `u + 1` *suffix* ones (the last `k` and those below the depth the highest).
//! The measures' chains (one module each) follow the formulas of
//! `irscale.collections.bounds_chains`, one ranking at a time in `O(n)` or `O(n log n)`;
//! [`extremes`] marks the slots a search evaluates and [`complete`] builds the completed
//! rankings it evaluates.

pub mod average_precision;
pub mod bpref;
pub mod complete;
pub mod extremes;
pub mod interpolated;
pub mod lines;
pub mod ndcg;
pub mod precision;

use crate::judged::{JudgedView, NONPOOL};
use crate::measures::per_ranking;

/// One output's values along both families of one ranking: `prefix[k]` and `suffix[k]` for
/// `k` in `0..=u`.
#[derive(Debug, Clone, PartialEq)]
pub struct Pair {
    pub prefix: Vec<f64>,
    pub suffix: Vec<f64>,
}

impl Pair {
    /// Both families' values, `value(k, suffix)` for every slot of `u + 1`.
    pub fn of(u: usize, mut value: impl FnMut(usize, bool) -> f64) -> Pair {
        Pair {
            prefix: (0..=u).map(|k| value(k, false)).collect(),
            suffix: (0..=u).map(|k| value(k, true)).collect(),
        }
    }

    /// The family's values (`suffix` or prefix).
    pub fn family(&self, suffix: bool) -> &[f64] {
        if suffix { &self.suffix } else { &self.prefix }
    }
}

/// The completions of a batch of judged rankings: `below[i]` unjudged documents of ranking
/// `i` lie below the view, every unjudged document is given the grade `lowest` or `highest`.
#[derive(Clone, Copy, Debug)]
pub struct Completions<'a> {
    pub view: JudgedView<'a>,
    pub below: &'a [i64],
    pub lowest: i64,
    pub highest: i64,
}

/// One ranking of the batch and its unjudged documents.
#[derive(Debug)]
pub struct Ranking<'a> {
    /// Its index in the batch.
    pub index: usize,
    /// Its documents' degrees, in rank order.
    pub rel: &'a [i64],
    /// The 0-based positions of its unjudged documents, in rank order.
    pub unjudged: Vec<usize>,
    /// Its unjudged documents below the view.
    pub below: i64,
}

impl Ranking<'_> {
    /// Its unjudged documents in the view.
    pub fn u(&self) -> usize {
        self.unjudged.len()
    }

    /// The documents given the highest grade and the lowest at slot `k` of a family (the
    /// view's and those below it).
    pub fn given(&self, k: usize, suffix: bool) -> (i64, i64) {
        let (k, u) = (k as i64, self.u() as i64);
        if suffix {
            (k + self.below, u - k)
        } else {
            (k, u - k + self.below)
        }
    }
}

/// The running counts of `flag` over `rel`, inclusive: per document, the documents at or
/// above it where it holds.
pub fn running(rel: &[i64], flag: impl Fn(i64) -> bool) -> Vec<i64> {
    rel.iter()
        .scan(0_i64, |count, &r| {
            *count += i64::from(flag(r));
            Some(*count)
        })
        .collect()
}

/// `cumulative` (inclusive, per document) at rank `rank` (0 or less: nothing), ranks past
/// the end at the last document.
pub fn at_rank(cumulative: &[i64], rank: i64) -> i64 {
    let clipped = rank.min(cumulative.len() as i64);
    if clipped > 0 {
        cumulative[clipped as usize - 1]
    } else {
        0
    }
}

/// `top / bottom`, 0 where `bottom` is not positive.
pub fn ratio(top: f64, bottom: f64) -> f64 {
    if bottom > 0.0 { top / bottom } else { 0.0 }
}

/// Binary relevance at `level` along the chains of one ranking: the highest grade
/// relevant, the lowest not.
#[derive(Debug)]
pub struct Binary<'a> {
    pub ranking: &'a Ranking<'a>,
    pub level: i64,
    /// Per document: judged relevant (degree ≥ the level; the unjudged are not).
    pub relevant: Vec<bool>,
    /// Per document: judged relevant documents at or above it.
    pub ocum: Vec<i64>,
    /// Per document: unjudged documents at or above it.
    pub ucum: Vec<i64>,
    /// `R` of its topic before completion.
    pub r0: i64,
}

impl Binary<'_> {
    /// `R` at slot `k` of a family (the documents given the highest grade are relevant).
    pub fn recall_base(&self, k: usize, suffix: bool) -> i64 {
        self.r0 + self.ranking.given(k, suffix).0
    }

    /// The relevant documents among the first `ranks` at slot `k` of a family.
    pub fn hits(&self, ranks: i64, k: usize, suffix: bool) -> i64 {
        let judged = at_rank(&self.ocum, ranks);
        let unjudged = at_rank(&self.ucum, ranks);
        let (k, u) = (k as i64, self.ranking.u() as i64);
        let raised = if suffix {
            (unjudged - (u - k)).max(0)
        } else {
            k.min(unjudged)
        };
        judged + raised
    }
}

/// A measure's chain, by family (`irscale.collections.bounds_chains`).
#[derive(Debug, Clone, PartialEq)]
pub enum Chain {
    /// `map` (one cut-off, `i64::MAX`) and `map_cut`.
    AveragePrecision(Vec<i64>),
    /// `Rprec`.
    PrecisionOfR,
    /// `recall` (`relative`: `relative_P`) at cut-offs.
    Recall(Vec<i64>, bool),
    /// `ndcg` (one cut-off, `i64::MAX`) and `ndcg_cut`, the degrees as gains.
    Ndcg(Vec<i64>),
    /// `bpref`.
    Bpref,
    /// Interpolated precision at recall levels: each level's value, or their mean.
    Interpolated(Vec<interpolated::Level>, bool),
}

impl Chain {
    /// The chain of `family` with its cut-offs `ints` and levels `floats`, or why there is
    /// none.
    pub fn of(family: &str, ints: &[i64], floats: &[f64]) -> Result<Chain, String> {
        use interpolated::Level;
        let trec = || floats.iter().map(|&x| Level::Trec(x)).collect();
        Ok(match family {
            "map" => Chain::AveragePrecision(vec![i64::MAX]),
            "map_cut" => Chain::AveragePrecision(ints.to_vec()),
            "Rprec" => Chain::PrecisionOfR,
            "recall" => Chain::Recall(ints.to_vec(), false),
            "relative_P" => Chain::Recall(ints.to_vec(), true),
            "ndcg" => Chain::Ndcg(vec![i64::MAX]),
            "ndcg_cut" => Chain::Ndcg(ints.to_vec()),
            "bpref" => Chain::Bpref,
            "iprec_at_recall" => Chain::Interpolated(trec(), false),
            "11pt_avg" => Chain::Interpolated(trec(), true),
            // (irscale's AP11: iprec_at_tenths 0..10, averaged)
            "AP11" => Chain::Interpolated((0..=10).map(Level::Tenths).collect(), true),
            _ => return Err(format!("{family}: no chain of the bounds")),
        })
    }
}

impl<'a> Completions<'a> {
    /// Ranking `i` of the batch.
    pub fn ranking(&self, i: usize) -> Ranking<'a> {
        let rel = self.view.ranking(i);
        Ranking {
            index: i,
            rel,
            unjudged: (0..rel.len()).filter(|&d| rel[d] == NONPOOL).collect(),
            below: self.below[i],
        }
    }

    /// Whether the completions change binary relevance at `level` (the highest grade
    /// relevant, the lowest not).
    pub fn binary_changes(&self, level: i64) -> bool {
        self.highest >= level && level > self.lowest
    }

    /// The binary view of `ranking` at `level`.
    pub fn binary<'r>(&self, ranking: &'r Ranking<'r>, level: i64) -> Binary<'r> {
        let relevant: Vec<bool> = ranking.rel.iter().map(|&r| r >= level).collect();
        Binary {
            ranking,
            level,
            ocum: running(ranking.rel, |r| r >= level),
            ucum: running(ranking.rel, |r| r == NONPOOL),
            relevant,
            r0: self.view.judged_at_least(ranking.index, level),
        }
    }

    /// `each(ranking, outputs)` for every ranking, `outputs` the chain's values at `level`
    /// (each output's [`Pair`]), on every core for large batches; `None` where the
    /// completions do not change the measure (binary relevance at `level` unchanged).
    pub fn chain<T: Send>(
        &self,
        chain: &Chain,
        level: i64,
        each: impl Fn(&Ranking, Vec<Pair>) -> T + Sync + Send,
    ) -> Option<Vec<T>> {
        if !matches!(chain, Chain::Ndcg(_)) && !self.binary_changes(level) {
            return None;
        }
        let tables = match chain {
            Chain::Ndcg(_) => Some(ndcg::Tables::of(self)),
            _ => None,
        };
        Some(per_ranking(&self.view, |i| {
            let ranking = self.ranking(i);
            let outputs = match chain {
                Chain::Ndcg(cuts) => ndcg::values(self, tables.as_ref().unwrap(), &ranking, cuts),
                _ => {
                    let binary = self.binary(&ranking, level);
                    match chain {
                        Chain::AveragePrecision(cuts) => average_precision::values(&binary, cuts),
                        Chain::PrecisionOfR => precision::r_precision(&binary),
                        Chain::Recall(cuts, relative) => {
                            precision::recall(&binary, cuts, *relative)
                        }
                        Chain::Bpref => bpref::values(self, &binary),
                        Chain::Interpolated(levels, mean) => {
                            interpolated::values(&binary, levels, *mean)
                        }
                        Chain::Ndcg(_) => unreachable!(),
                    }
                }
            };
            each(&ranking, outputs)
        }))
    }
}

#[cfg(test)]
pub mod testing {
    //! Brute force for the chains' tests: every completion of a ranking, evaluated by the
    //! engine's own kernels.

    use super::*;
    use crate::judged::UNJUDGED;
    use crate::measures::{self, Context, Params, Values};

    /// A small random generator (xorshift), for reproducible cases.
    pub struct Rng(pub u64);

    impl Rng {
        pub fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }
    }

    /// A batch: rankings of degrees in `lowest..=highest` or unjudged, its recall base.
    pub struct Case {
        pub rel: Vec<i64>,
        pub offsets: Vec<i64>,
        pub rel_levels: Vec<i64>,
        pub degrees: Vec<i64>,
        pub below: Vec<i64>,
        pub lowest: i64,
        pub highest: i64,
        pub level: i64,
    }

    impl Case {
        /// `rankings` random rankings of up to `longest` documents.
        pub fn random(rng: &mut Rng, rankings: usize, longest: u64) -> Case {
            let lowest = rng.below(2) as i64 - 1;
            let highest = 1 + rng.below(3) as i64;
            let degrees: Vec<i64> = (0..=highest).collect();
            let (mut rel, mut offsets, mut rel_levels, mut below) =
                (vec![], vec![0], vec![], vec![]);
            for _ in 0..rankings {
                let n = 1 + rng.below(longest) as usize;
                let share = rng.below(5);
                let mut levels = vec![0; degrees.len()];
                for _ in 0..n {
                    let value = if rng.below(4) < share {
                        NONPOOL
                    } else {
                        let grade = lowest + rng.below((highest - lowest + 1) as u64) as i64;
                        if grade < 0 {
                            UNJUDGED
                        } else {
                            levels[grade as usize] += 1;
                            grade
                        }
                    };
                    rel.push(value);
                }
                for level in levels.iter_mut() {
                    *level += rng.below(3) as i64; // (judged documents the run misses)
                }
                offsets.push(rel.len() as i64);
                rel_levels.extend(levels);
                below.push(rng.below(3) as i64);
            }
            let level = 1 + rng.below(2) as i64;
            Case {
                rel,
                offsets,
                rel_levels,
                degrees,
                below,
                lowest,
                highest,
                level,
            }
        }

        pub fn completions(&self) -> Completions<'_> {
            Completions {
                view: JudgedView {
                    rel: &self.rel,
                    offsets: &self.offsets,
                    rel_levels: &self.rel_levels,
                    degrees: &self.degrees,
                    relevance_level: self.level,
                },
                below: &self.below,
                lowest: self.lowest,
                highest: self.highest,
            }
        }

        /// The kernel's values of `family` (with `ints` and `floats`) at slot `k` of a
        /// family of ranking `i`, at `level`: per output.
        pub fn kernel(
            &self,
            family: &str,
            ints: &[i64],
            floats: &[f64],
            i: usize,
            k: usize,
            suffix: bool,
        ) -> Vec<f64> {
            let c = self.completions();
            let ranking = c.ranking(i);
            let (rel, offsets) =
                complete::completed(&c.view, c.lowest, c.highest, &[(i, suffix, k)]).unwrap();
            let (high, low) = ranking.given(k, suffix);
            let mut levels = c.view.levels(i).to_vec();
            for (grade, count) in [(self.highest, high), (self.lowest, low)] {
                if grade >= 0 {
                    levels[grade as usize] += count;
                }
            }
            let view = JudgedView {
                rel: &rel,
                offsets: &offsets,
                rel_levels: &levels,
                degrees: &self.degrees,
                relevance_level: self.level,
            };
            let params = Params {
                ints: ints.to_vec(),
                floats: floats.to_vec(),
                gains: vec![],
            };
            let ctx = Context {
                compat: 9,
                num_docs_in_coll: 0,
            };
            measures::compute(family, &params, &view, &ctx)
                .unwrap()
                .into_iter()
                .map(|(_, values)| match values {
                    Values::Float(v) => v[0],
                    Values::Int(v) => v[0] as f64,
                    Values::Text(_) => unreachable!(),
                })
                .collect()
        }

        /// For every ranking and slot of both families: the chain's values and the
        /// kernel's, `check(chain, kernel)` on each output (chains without binary
        /// relevance at the level skipped).
        pub fn compare(
            &self,
            chain: &Chain,
            family: &str,
            ints: &[i64],
            floats: &[f64],
            check: impl Fn(f64, f64),
        ) {
            let c = self.completions();
            let Some(found) = c.chain(chain, self.level, |_, outputs| outputs) else {
                return;
            };
            for (i, outputs) in found.iter().enumerate() {
                let u = c.ranking(i).u();
                for suffix in [false, true] {
                    for k in 0..=u {
                        let kernel = self.kernel(family, ints, floats, i, k, suffix);
                        assert_eq!(kernel.len(), outputs.len());
                        for (pair, value) in outputs.iter().zip(kernel) {
                            check(pair.family(suffix)[k], value);
                        }
                    }
                }
            }
        }
    }

    /// Equal within `1e-12` (chains adding floats in another order).
    pub fn close(chain: f64, kernel: f64) {
        assert!(
            (chain - kernel).abs() <= 1e-12 * kernel.abs().max(1.0),
            "{chain} != {kernel}"
        );
    }

    /// Equal, bit for bit.
    pub fn same(chain: f64, kernel: f64) {
        assert_eq!(chain.to_bits(), kernel.to_bits(), "{chain} != {kernel}");
    }
}

#[cfg(test)]
mod tests {
    use super::testing::*;
    use super::*;

    #[test]
    fn slots_give_the_documents_of_each_grade() {
        let ranking = Ranking {
            index: 0,
            rel: &[NONPOOL, 1, NONPOOL],
            unjudged: vec![0, 2],
            below: 3,
        };
        assert_eq!(ranking.given(0, false), (0, 5));
        assert_eq!(ranking.given(2, false), (2, 3));
        assert_eq!(ranking.given(0, true), (3, 2));
        assert_eq!(ranking.given(1, true), (4, 1));
    }

    #[test]
    fn hits_count_the_raised_documents_of_each_family() {
        let mut rng = Rng(7);
        for _ in 0..50 {
            let case = Case::random(&mut rng, 3, 12);
            let c = case.completions();
            for i in 0..3 {
                let ranking = c.ranking(i);
                let binary = c.binary(&ranking, case.level);
                for suffix in [false, true] {
                    for k in 0..=ranking.u() {
                        let (rel, _) =
                            complete::completed(&c.view, c.lowest, c.highest, &[(i, suffix, k)])
                                .unwrap();
                        for ranks in 0..rel.len() as i64 + 2 {
                            let relevant = rel
                                .iter()
                                .take(ranks.max(0) as usize)
                                .filter(|&&r| r >= case.level)
                                .count() as i64;
                            if c.binary_changes(case.level) {
                                assert_eq!(binary.hits(ranks, k, suffix), relevant);
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_chain_of_a_family_without_one_is_refused() {
        assert!(Chain::of("infAP", &[], &[]).is_err());
        assert_eq!(
            Chain::of("map", &[], &[]).unwrap(),
            Chain::AveragePrecision(vec![i64::MAX])
        );
    }
}
