//! Tie-aware values (`--ties expected`): the expected value of a measure over every order
//! of the documents with equal scores, each order of each tie group equally likely, as
//! McSherry & Najork define it ("Computing information retrieval performance measures
//! efficiently in the presence of tied scores", ECIR 2008), computed in closed form from
//! each group's place and content, without enumerating orders.
//!
//! A ranking comes with its tie groups ([`Tied::groups`]: one id per document, equal for
//! consecutive documents of one group). A group of `n` documents after `s` others, `r` of
//! them passing the relevance test (degree ≥ level), fills ranks `s+1 .. s+n`; under a
//! uniform order each of its ranks holds a relevant document with probability `r/n`, two
//! given ranks both with probability `r(r−1)/(n(n−1))`. With `c` the relevant documents of
//! the groups before it, `R` the topic's relevant documents:
//!
//! ```text
//! E[h(k)]      = Σ_{groups before k} r + r·(k−s)/n for the group holding rank k
//!                (hypergeometric mean; P_k = E[h(k)]/k, recall_k = E[h(k)]/R,
//!                 relative_P_k = E[h(k)]/min(k, R), Rprec = E[h(min(n, R))]/R)
//! success_k    = 1 − Π_{t<m} (n−r−t)/(n−t)      (m = k−s ranks of the straddling group,
//!                                                 1 when a group wholly above k has r > 0)
//! E[S(k)]      = Σ_{groups} Σ_{j=1..n, s+j ≤ k} [ (r/n)(c+1) + (j−1)·r(r−1)/(n(n−1)) ] / (s+j)
//!                (McSherry & Najork's AP: map = E[S(n)]/R, map_cut_k = E[S(k)]/R)
//! recip_rank   = Σ_{j=1..n−r+1} C(n−j, r−1)/C(n, r) / (s+j)   (first group with r > 0)
//! E[DCG@k]     = Σ_{groups} ḡ Σ_{j: s+j ≤ k} 1/log2(max(s+j, 2))  (ḡ the group's mean gain;
//!                ndcg = E[DCG]/ideal_DCG, ndcg_cut_k = E[DCG@k]/ideal_DCG@k)
//! bpref        = (1/R) Σ_{groups} r · (1/(u+1)) Σ_{x=0..u} term(b + x)
//!                (u the group's judged non-relevant documents, b those above the group:
//!                 a relevant document's judged non-relevant documents above it within the
//!                 group are uniform on 0..u; term as in `measures::bpref`)
//! E[rbp]       = (1 − p) Σ_{groups} ḡ Σ_{j=1..n} p^(s+j−1)   (linear in the gains: each
//!                rank holds its group's mean gain ḡ, as for DCG)
//! E[rbp_resid] = p^N + (1 − p) Σ_{groups} ū Σ_{j=1..n} p^(s+j−1)   (ū the group's share
//!                of unjudged documents; 0 when none is unjudged, which no order changes)
//! ```
//!
//! Families whose value does not depend on the order ([`ORDER_FREE`]: counts and set
//! measures) are their plain values; any other family has no tie-aware value and is
//! refused. irscale's own ERR has its tie-aware value in [`err`].

pub mod err;

use crate::judged::JudgedView;
use crate::measures::families::{self, Call};
use crate::measures::gains::{Discounts, GainMap, Ideal, PerTopic, num_rel_levels};
use crate::measures::rbp;
use crate::measures::table::{cutoff_names, float_column, float_columns};
use crate::measures::{self, Context, FAMILIES, Outputs, Params};

/// The families with a tie-aware value computed here.
pub const TIE_AWARE: &[&str] = &[
    "P",
    "relative_P",
    "recall",
    "success",
    "Rprec",
    "map",
    "gm_map",
    "map_cut",
    "recip_rank",
    "ndcg",
    "dcg",
    "ndcg_cut",
    "bpref",
    "gm_bpref",
    "rbp",
    "rbp_resid",
];

/// The families whose value does not depend on the order of the documents: their
/// tie-aware value is the plain one.
pub const ORDER_FREE: &[&str] = &[
    "runid",
    "num_q",
    "num_ret",
    "num_rel",
    "num_rel_ret",
    "num_nonrel_judged_ret",
    "set_P",
    "set_recall",
    "set_relative_P",
    "set_map",
    "set_F",
    "utility",
    "ideal_dcg",
];

/// A batch of judged rankings with the tie group of each document.
#[derive(Clone, Copy)]
pub struct Tied<'a> {
    pub jr: JudgedView<'a>,
    /// One id per document of `jr.rel`: consecutive documents of a ranking with the same id
    /// tie.
    pub groups: &'a [i64],
}

/// One tie group of a ranking: `start` documents above it and its documents' degrees.
struct Group<'a> {
    start: usize,
    rels: &'a [i64],
}

impl Group<'_> {
    fn len(&self) -> usize {
        self.rels.len()
    }
}

impl<'a> Tied<'a> {
    /// The tie groups of ranking `i`, in rank order.
    fn groups_of(&self, i: usize) -> impl Iterator<Item = Group<'a>> + 'a {
        let (begin, end) = (self.jr.offsets[i] as usize, self.jr.offsets[i + 1] as usize);
        let rel = &self.jr.rel[begin..end];
        let ids = &self.groups[begin..end];
        let mut start = 0;
        ids.chunk_by(|a, b| a == b).map(move |chunk| {
            let group = Group {
                start,
                rels: &rel[start..start + chunk.len()],
            };
            start += chunk.len();
            group
        })
    }

    /// The documents of `group` passing the relevance test.
    fn relevant(&self, group: &Group) -> usize {
        group
            .rels
            .iter()
            .filter(|&&rel| self.jr.is_relevant(rel))
            .count()
    }

    /// `E[h(k)]`: the expected number of documents passing the relevance test among the
    /// first `k` of ranking `i` (hypergeometric: `r·(k−s)/n` of the straddling group).
    fn expected_hits(&self, i: usize, k: i64) -> f64 {
        let mut hits = 0.0;
        for group in self.groups_of(i) {
            if group.start as i64 >= k {
                break;
            }
            let n = group.len();
            let inside = ((k - group.start as i64) as usize).min(n);
            hits += (self.relevant(&group) * inside) as f64 / n as f64;
        }
        hits
    }

    /// The probability that one of the first `k` documents of ranking `i` passes the
    /// relevance test.
    fn success(&self, i: usize, k: i64) -> f64 {
        for group in self.groups_of(i) {
            if group.start as i64 >= k {
                break;
            }
            let (n, r) = (group.len(), self.relevant(&group));
            if r == 0 {
                continue;
            }
            let inside = ((k - group.start as i64) as usize).min(n);
            if inside > n - r {
                return 1.0;
            }
            let none = (0..inside).fold(1.0, |p, t| p * (n - r - t) as f64 / (n - t) as f64);
            return 1.0 - none;
        }
        0.0
    }

    /// `E[S(depth)]` (McSherry & Najork's expected sum of precisions at the relevant
    /// documents within the first `depth` ranks) and whether any document passes the test.
    fn expected_precision_sum(&self, i: usize, depth: usize) -> (f64, bool) {
        let (mut sum, mut above, mut found) = (0.0, 0_usize, false);
        for group in self.groups_of(i) {
            let (n, r) = (group.len(), self.relevant(&group));
            found |= r > 0;
            if group.start >= depth || r == 0 {
                above += r;
                continue;
            }
            let first = r as f64 / n as f64 * (above + 1) as f64;
            let pair = if n > 1 {
                (r * (r - 1)) as f64 / (n * (n - 1)) as f64
            } else {
                0.0
            };
            for j in 1..=n.min(depth - group.start) {
                sum += (first + (j - 1) as f64 * pair) / (group.start + j) as f64;
            }
            above += r;
        }
        (sum, found)
    }

    /// The expected reciprocal rank of the first document of ranking `i` passing the test.
    fn reciprocal_rank(&self, i: usize) -> f64 {
        for group in self.groups_of(i) {
            let (n, r) = (group.len(), self.relevant(&group));
            if r == 0 {
                continue;
            }
            // P(first relevant at j) = C(n−j, r−1)/C(n, r), by the ratio of consecutive terms
            let mut p = r as f64 / n as f64;
            let mut value = 0.0;
            for j in 1..=n - r + 1 {
                value += p / (group.start + j) as f64;
                if j < n - r + 1 {
                    p *= (n - j - r + 1) as f64 / (n - j) as f64;
                }
            }
            return value;
        }
        0.0
    }

    /// `E[DCG@depth]` of ranking `i` under `gains`: each rank of a group holds its mean gain.
    fn expected_dcg(&self, i: usize, gains: &GainMap, discounts: &Discounts, depth: usize) -> f64 {
        let mut dcg = 0.0;
        for group in self.groups_of(i) {
            if group.start >= depth {
                break;
            }
            let total: f64 = group.rels.iter().map(|&rel| gains.gain(rel)).sum();
            if total == 0.0 {
                continue;
            }
            let mean = total / group.len() as f64;
            let end = (group.start + group.len()).min(depth);
            let weight: f64 = (group.start + 1..=end)
                .map(|rank| 1.0 / discounts.at(rank))
                .sum();
            dcg += mean * weight;
        }
        dcg
    }

    /// `Σ_{groups} mean(value) Σ_{ranks r of the group} p^(r−1)` of ranking `i`: the
    /// expectation of `Σ_r value(d_r)·p^(r−1)` (powers by repeated multiplication).
    fn expected_discounted(&self, i: usize, p: f64, value: impl Fn(i64) -> f64) -> f64 {
        let (mut sum, mut weight) = (0.0, 1.0);
        for group in self.groups_of(i) {
            let total: f64 = group.rels.iter().map(|&rel| value(rel)).sum();
            let mut weights = 0.0;
            for _ in 0..group.len() {
                weights += weight;
                weight *= p;
            }
            if total != 0.0 {
                sum += total / group.len() as f64 * weights;
            }
        }
        sum
    }

    /// trec_eval's bpref of ranking `i`, in expectation.
    fn bpref(&self, i: usize) -> f64 {
        let jr = &self.jr;
        let num_rel = jr.num_rel(i);
        let bound = jr.num_nonrel(i).min(num_rel) as f64;
        let term = |above: usize| -> f64 {
            if above > 0 {
                1.0 - (above as i64).min(num_rel) as f64 / bound
            } else {
                1.0
            }
        };
        let (mut total, mut above) = (0.0, 0_usize);
        for group in self.groups_of(i) {
            let judged = group.rels.iter().filter(|&&rel| rel >= 0);
            let r = judged.clone().filter(|&&rel| jr.is_relevant(rel)).count();
            let u = judged.count() - r;
            if r > 0 {
                let mean = (0..=u).map(|x| term(above + x)).sum::<f64>() / (u + 1) as f64;
                total += r as f64 * mean;
            }
            above += u;
        }
        if num_rel != 0 {
            total / num_rel as f64
        } else {
            total
        }
    }
}

/// `value(E[h(k)], k, R)` for each cut-off `k`, named `family_k`; zeros where `R = 0` and
/// `needs_relevant`.
fn hit_columns(
    tied: &Tied,
    family: &str,
    cutoffs: &[i64],
    needs_relevant: bool,
    value: impl Fn(f64, i64, i64) -> f64 + Sync + Send,
) -> Outputs {
    float_columns(&tied.jr, cutoff_names(family, cutoffs), |i, row| {
        let num_rel = tied.jr.num_rel(i);
        if needs_relevant && num_rel <= 0 {
            return;
        }
        for (cell, &k) in row.iter_mut().zip(cutoffs) {
            *cell = value(tied.expected_hits(i, k), k, num_rel);
        }
    })
}

/// The tie-aware outputs of `family` (a line of [`TIE_AWARE`]).
fn tie_aware(call: &Call, tied: &Tied) -> Result<Outputs, String> {
    let (jr, ints) = (&tied.jr, &call.params.ints);
    Ok(match call.family {
        "P" => hit_columns(tied, "P", ints, false, |h, k, _| h / k as f64),
        "relative_P" => hit_columns(tied, "relative_P", ints, true, |h, k, r| {
            h / k.min(r) as f64
        }),
        "recall" => hit_columns(tied, "recall", ints, true, |h, _, r| h / r as f64),
        "success" => float_columns(jr, cutoff_names("success", ints), |i, row| {
            for (cell, &k) in row.iter_mut().zip(ints) {
                *cell = tied.success(i, k);
            }
        }),
        "Rprec" => float_column(jr, "Rprec", |i| {
            let num_rel = jr.num_rel(i);
            if num_rel == 0 {
                return 0.0;
            }
            tied.expected_hits(i, num_rel) / num_rel as f64
        }),
        "map" | "gm_map" => float_column(jr, call.family, |i| {
            match tied.expected_precision_sum(i, usize::MAX) {
                (sum, true) => sum / jr.num_rel(i) as f64,
                _ => 0.0,
            }
        }),
        "map_cut" => float_columns(jr, cutoff_names("map_cut", ints), |i, row| {
            let num_rel = jr.num_rel(i);
            if num_rel == 0 {
                return;
            }
            for (cell, &k) in row.iter_mut().zip(ints) {
                let depth = k.max(0) as usize;
                *cell = tied.expected_precision_sum(i, depth).0 / num_rel as f64;
            }
        }),
        "recip_rank" => float_column(jr, "recip_rank", |i| tied.reciprocal_rank(i)),
        "ndcg" | "dcg" => {
            let gains = GainMap::new(&call.params.gains);
            let discounts = Discounts::of(jr);
            let ideal = PerTopic::build(jr, |levels| {
                Ideal::of(levels, jr.degrees, &gains).total_dcg()
            });
            float_column(jr, call.family, |i| {
                let dcg = tied.expected_dcg(i, &gains, &discounts, usize::MAX);
                match (call.family, *ideal.of(i)) {
                    ("dcg", _) => dcg,
                    (_, ideal) if ideal > 0.0 => dcg / ideal,
                    _ => 0.0,
                }
            })
        }
        "ndcg_cut" => {
            if ints.iter().any(|&k| k <= 0) || ints.is_empty() {
                return Err("ndcg_cut takes positive cut-offs".into());
            }
            let gains = GainMap::new(&[]);
            let discounts = Discounts::of(jr);
            let depth = ints.iter().copied().max().unwrap_or(0) as usize;
            let prefix = PerTopic::build(jr, |levels| {
                Ideal::of(levels, jr.degrees, &gains).dcg_prefix(depth)
            });
            float_columns(jr, cutoff_names("ndcg_cut", ints), |i, row| {
                let ideal = prefix.of(i);
                for (cell, &k) in row.iter_mut().zip(ints) {
                    let k = k as usize;
                    let ideal_k = ideal.get(k.min(ideal.len()).wrapping_sub(1));
                    let dcg = tied.expected_dcg(i, &gains, &discounts, k);
                    *cell = measures::ndcg::ratio_or_zero(dcg, ideal_k.copied().unwrap_or(0.0));
                }
            })
        }
        "bpref" | "gm_bpref" => float_column(jr, call.family, |i| tied.bpref(i)),
        "rbp" => {
            let (p, gains) = (call.params.floats[0], GainMap::new(&call.params.gains));
            let tables = PerTopic::build(jr, |levels| {
                rbp::Table::of(num_rel_levels(levels, jr.degrees), &gains)
            });
            float_column(jr, "rbp", |i| {
                let table = tables.of(i);
                (1.0 - p) * tied.expected_discounted(i, p, |rel| table.gain(rel, &gains))
            })
        }
        "rbp_resid" => {
            let p = call.params.floats[0];
            float_column(jr, "rbp_resid", |i| {
                let ranking = jr.ranking(i);
                if !ranking.iter().any(|&rel| rel < 0) {
                    return 0.0;
                }
                let unjudged = tied.expected_discounted(i, p, |rel| f64::from(rel < 0));
                p.powi(ranking.len() as i32) + (1.0 - p) * unjudged
            })
        }
        family => return Err(no_tie_aware_value(family)),
    })
}

/// Why `family` cannot be computed with `--ties expected`.
pub fn no_tie_aware_value(family: &str) -> String {
    format!("measure {family} has no tie-aware value")
}

/// The values of `family` on `jr`: with `groups` (one tie group id per document), their
/// expectations over the orders of the tied documents; without, the plain values
/// ([`measures::compute`]).
pub fn compute(
    family: &str,
    params: &Params,
    jr: &JudgedView,
    groups: Option<&[i64]>,
    ctx: &Context,
) -> Result<Outputs, String> {
    let Some(groups) = groups else {
        return measures::compute(family, params, jr, ctx);
    };
    if ORDER_FREE.contains(&family) {
        return measures::compute(family, params, jr, ctx);
    }
    if !TIE_AWARE.contains(&family) {
        return Err(no_tie_aware_value(family));
    }
    jr.check()?;
    if groups.len() != jr.rel.len() {
        return Err("one tie group per document is needed".into());
    }
    families::find(FAMILIES, family)?
        .shape
        .check(family, params)?;
    let call = Call {
        family,
        params,
        ctx,
    };
    tie_aware(&call, &Tied { jr: *jr, groups })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measures::Values;

    fn floats(outputs: &Outputs, at: usize) -> Vec<f64> {
        match &outputs[at].1 {
            Values::Float(v) => v.clone(),
            other => panic!("not floats: {other:?}"),
        }
    }

    /// Every order of the documents of the tie groups of `rel` (one ranking), by
    /// enumeration of the permutations of each group.
    pub(super) fn orders(rel: &[i64], groups: &[i64]) -> Vec<Vec<i64>> {
        let mut all = vec![Vec::new()];
        for chunk in groups
            .iter()
            .zip(rel)
            .collect::<Vec<_>>()
            .chunk_by(|a, b| a.0 == b.0)
        {
            let items: Vec<i64> = chunk.iter().map(|(_, r)| **r).collect();
            let perms = permutations(&items);
            all = all
                .into_iter()
                .flat_map(|prefix| {
                    perms.iter().map(move |p| {
                        let mut v = prefix.clone();
                        v.extend(p);
                        v
                    })
                })
                .collect();
        }
        all
    }

    fn permutations(items: &[i64]) -> Vec<Vec<i64>> {
        if items.len() <= 1 {
            return vec![items.to_vec()];
        }
        let mut out = Vec::new();
        for k in 0..items.len() {
            let mut rest = items.to_vec();
            let first = rest.remove(k);
            for mut p in permutations(&rest) {
                p.insert(0, first);
                out.push(p);
            }
        }
        out
    }

    /// The tie-aware value equals the mean of the plain values over every order, for each
    /// supported family (a check of the closed forms against the engine's plain kernels).
    #[test]
    fn expectations_are_the_means_over_every_order() {
        let rel = [0, 2, 1, -1, 1, 0, 1, -2, 0, 2];
        let groups = [0, 1, 1, 1, 4, 4, 6, 6, 6, 6];
        let levels = [3, 3, 2];
        let ctx = Context {
            compat: 9,
            num_docs_in_coll: 0,
        };
        let exponential = vec![(0, 0.0), (1, 1.0), (2, 3.0)];
        for (family, ints, gains) in [
            ("ndcg", vec![], exponential.clone()),
            ("dcg", vec![], exponential),
        ]
        .into_iter()
        .chain(
            [
                ("P", vec![1, 2, 3, 5, 7, 20]),
                ("relative_P", vec![2, 5]),
                ("recall", vec![3, 8]),
                ("success", vec![1, 2, 3, 6]),
                ("Rprec", vec![]),
                ("map", vec![]),
                ("map_cut", vec![2, 5, 9]),
                ("recip_rank", vec![]),
                ("ndcg", vec![]),
                ("ndcg_cut", vec![1, 3, 6]),
                ("bpref", vec![]),
                ("rbp", vec![]),
                ("rbp_resid", vec![]),
            ]
            .map(|(family, ints)| (family, ints, Vec::new())),
        )
        .chain([("rbp", vec![], vec![(1, 0.5), (2, 3.0)])])
        {
            let persistence = if family.starts_with("rbp") {
                vec![0.7]
            } else {
                vec![]
            };
            let params = Params {
                ints,
                floats: persistence,
                gains,
            };
            let view = |rel: &[i64]| -> Outputs {
                let jr = JudgedView {
                    rel,
                    offsets: &[0, rel.len() as i64],
                    rel_levels: &levels,
                    degrees: &[0, 1, 2],
                    relevance_level: 1,
                };
                measures::compute(family, &params, &jr, &ctx).unwrap()
            };
            let all = orders(&rel, &groups);
            let jr = JudgedView {
                rel: &rel,
                offsets: &[0, rel.len() as i64],
                rel_levels: &levels,
                degrees: &[0, 1, 2],
                relevance_level: 1,
            };
            let expected = compute(family, &params, &jr, Some(&groups), &ctx).unwrap();
            for column in 0..expected.len() {
                let mean =
                    all.iter().map(|o| floats(&view(o), column)[0]).sum::<f64>() / all.len() as f64;
                let got = floats(&expected, column)[0];
                assert!(
                    (got - mean).abs() < 1e-12,
                    "{family} {column}: {got} {mean}"
                );
            }
        }
    }

    #[test]
    fn order_free_families_are_plain_and_others_refused() {
        let jr = JudgedView {
            rel: &[1, 0],
            offsets: &[0, 2],
            rel_levels: &[1, 1],
            degrees: &[0, 1],
            relevance_level: 1,
        };
        let ctx = Context::default();
        let plain = measures::compute("num_rel_ret", &Params::default(), &jr, &ctx).unwrap();
        let tied = compute("num_rel_ret", &Params::default(), &jr, Some(&[0, 0]), &ctx);
        assert_eq!(tied.unwrap(), plain);
        let refused = compute("infAP", &Params::default(), &jr, Some(&[0, 0]), &ctx);
        assert_eq!(refused.unwrap_err(), "measure infAP has no tie-aware value");
    }

    #[test]
    fn average_precision_of_mcsherry_and_najork() {
        // one group of n = 4 documents, r = 2 relevant, at the top, R = 2:
        // E[AP] = (1/R) Σ_j [ (r/n)·1 + (j−1)·r(r−1)/(n(n−1)) ] / j
        let jr = JudgedView {
            rel: &[1, 0, 1, 0],
            offsets: &[0, 4],
            rel_levels: &[2, 2],
            degrees: &[0, 1],
            relevance_level: 1,
        };
        let outputs = compute(
            "map",
            &Params::default(),
            &jr,
            Some(&[0, 0, 0, 0]),
            &Context::default(),
        )
        .unwrap();
        let by_hand =
            (0.5 + (0.5 + 1.0 / 6.0) / 2.0 + (0.5 + 2.0 / 6.0) / 3.0 + (0.5 + 3.0 / 6.0) / 4.0)
                / 2.0;
        assert!((floats(&outputs, 0)[0] - by_hand).abs() < 1e-15);
    }
}
