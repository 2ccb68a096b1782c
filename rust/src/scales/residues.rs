//! The streaming pass of the integer pair engine ([`super::int_pairs::scan`]) class by
//! class, where the `a`s share a residue: no sort and no hash of the candidate pairs.
//!
//! When every `a` of a *part* (a group's `a`s of one residue) is `≡ c (mod K)`, a sum
//! `a + b` is `≡ c + b (mod K)`: its residue `ρ` is fixed by `b` and the part, so equal
//! sums come from the `(part, b)` entries of one residue class. With `a = c + K·a''` and
//! `b + c = ρ + K·b''`, a value is `ρ + K·(a'' + b'')`: within a class the distinct values
//! are the distinct `s = a'' + b''`. Each class marks its `s` in a bitmap of the range of
//! `s` that the call's edges allow (one bit set per candidate pair), then one sweep of the
//! bitmap's occupied words counts the set bits below every threshold (bucket edges and
//! queries) and clears it. Classes are disjoint, so their counts add up.
//!
//! `K = M·f`: `M` is the common factor of the `a`s (`a ≡ base mod M`), and the parts split
//! each group's `a`s by their residue modulo `f`, the smallest refinement that keeps a
//! class's range within [`MAX_BITS`] at the fewest entries. AP's integer keys have this
//! structure (Ferrante, Ferro and Fuhr, "Towards meaningful statements in IR evaluation:
//! mapping evaluation measures to interval scales", IEEE Access 2021, §5.2.2;
//! `irscale.scales.average_precision`): `S·L = Σ C(i)·L/i` and the prefix cut after h
//! ranks only has ranks `i ≤ h`, whose `L/i` are multiples of `M = Π q^(e_N(q) − e_h(q))`
//! over the primes q (`q^e_x` the largest power of q ≤ x); at N = 30, h = 15, `M =
//! 6,463,230 = 2·3·5·17·19·23·29` and `f = 13` (rank 13 is the prefix's only multiple of
//! 13): 1.7 million entries in 90,736 classes of at most 831,600 values of `s` (a 102 KB
//! bitmap, in the second-level cache), for 0.9·10^9 candidate pairs.
//!
//! Work: one bit set per candidate pair in range, two binary searches and a sort key per
//! entry, and a sweep of each class's occupied words (148 million words at N = 30). The
//! classes are shared out between threads and their counts summed (integers), so every
//! number is the same whatever the thread count.

use rayon::prelude::*;

use super::group::Group;

/// Widest range of `s` a class's bitmap may span (2^21 bits: 256 KB).
const MAX_BITS: i64 = 1 << 21;
/// Largest magnitude of a value, an edge or a sum's part (sums stay within 64 bits).
const MAX_MAGNITUDE: i64 = 1 << 61;
/// Refinements `f` tried above the smallest that fits [`MAX_BITS`].
const REFINEMENTS: i64 = 64;
/// Largest smallest refinement tried (more residues than [`MAX_PARTS`] per group, as a
/// rule: the classes would not pay).
const MAX_REFINEMENT: i64 = 1 << 12;
/// Most entries per `b` (parts of its group) for the classes to pay.
const MAX_PARTS: usize = 16;
/// Fewest buckets a call must span for the classes to pay: their set-up (a sort key and
/// two binary searches per entry) costs about as much as the sort of a few buckets' pairs.
pub const MIN_BUCKETS: usize = 8;

/// Whether a pass over the buckets of `edges` counts by residue classes ([`Plan`]): it
/// spans [`MIN_BUCKETS`] buckets or more, and the groups have a plan for its range.
pub fn apply(groups: &[Group], edges: &[i64]) -> bool {
    edges.len() > MIN_BUCKETS && Plan::unsorted(groups, edges[0], edges[edges.len() - 1]).is_some()
}

/// The residue structure of the groups, for the values in `[lo, hi)`.
pub struct Plan {
    /// `K = M·f`.
    modulus: i64,
    /// Per part, its `a''` ascending.
    parts: Vec<Vec<i64>>,
    /// Per entry `(part, b)`: `ρ`, the part and `b'' − low`, packed in the bits of
    /// [`Self::fields`]; ascending, so the entries come class by class.
    keys: Vec<u64>,
    /// Bits of the part and of `b'' − low` in a key.
    fields: (u32, u32),
    low: i64,
    lo: i64,
    hi: i64,
    /// Words of a class's bitmap (its range of `s`, at most `(hi − lo) / K + 1` bits).
    words: usize,
}

fn gcd(mut x: u64, mut y: u64) -> u64 {
    while y != 0 {
        (x, y) = (y, x % y);
    }
    x
}

/// Bits needed to write `0 ..= x`.
fn bits_for(x: u64) -> u32 {
    u64::BITS - x.leading_zeros()
}

/// The distinct residues of `values` modulo `f`, ascending (`seen`: a buffer).
fn residues(values: &[i64], f: i64, seen: &mut Vec<bool>) -> Vec<i64> {
    seen.clear();
    seen.resize(f as usize, false);
    for &v in values {
        seen[v.rem_euclid(f) as usize] = true;
    }
    (0..f).filter(|&r| seen[r as usize]).collect()
}

impl Plan {
    /// The plan, or `None` where the `a`s share no factor, no refinement keeps a class's
    /// range within [`MAX_BITS`] at most [`MAX_PARTS`] entries per `b`, or a value does not
    /// fit the packed keys.
    pub fn new(groups: &[Group], lo: i64, hi: i64) -> Option<Plan> {
        let mut plan = Plan::unsorted(groups, lo, hi)?;
        plan.keys.par_sort_unstable();
        Some(plan)
    }

    /// The plan of [`Plan::new`] before its keys are sorted (what decides whether there is
    /// one, at a fraction of its cost).
    fn unsorted(groups: &[Group], lo: i64, hi: i64) -> Option<Plan> {
        let fits = |x: i64| -MAX_MAGNITUDE < x && x < MAX_MAGNITUDE;
        let base = groups.iter().filter_map(|g| g.a.first()).min().copied()?;
        let mut common = 0u64;
        for g in groups {
            for &a in g.a {
                if !fits(a) {
                    return None;
                }
                common = gcd(common, (a - base) as u64);
            }
            if !g.b.iter().all(|&b| fits(b)) {
                return None;
            }
        }
        if common < 2 || !fits(lo) || !fits(hi) || lo >= hi {
            return None;
        }
        let m = common as i64;
        // a = base + M·a'; a part holds the a' ≡ α (mod f)
        let reduced: Vec<Vec<i64>> = groups
            .iter()
            .map(|g| g.a.iter().map(|&a| (a - base) / m).collect())
            .collect();
        let smallest = ((hi - lo) / m + MAX_BITS) / MAX_BITS; // ⌈((hi − lo) / M + 1) / MAX_BITS⌉
        if smallest > MAX_REFINEMENT {
            return None;
        }
        let mut seen = Vec::new();
        let (entries, f) = (smallest..smallest + REFINEMENTS)
            .map(|f| {
                let entries: usize = reduced
                    .iter()
                    .zip(groups)
                    .map(|(r, g)| residues(r, f, &mut seen).len() * g.b.len())
                    .sum();
                (entries, -f)
            })
            .min()?;
        let f = -f;
        let total: usize = groups.iter().map(|g| g.b.len()).sum();
        let k = m.checked_mul(f).filter(|&k| fits(k))?;
        if entries > MAX_PARTS * total {
            return None;
        }
        // the parts: (group, a shift c = base + M·α, a'' = (a' − α) / f)
        let mut parts = Vec::new();
        let mut owners = Vec::new();
        for (index, r) in reduced.iter().enumerate() {
            for alpha in residues(r, f, &mut seen) {
                let part = r.iter().filter(|&&x| x.rem_euclid(f) == alpha);
                parts.push(part.map(|&x| (x - alpha) / f).collect::<Vec<i64>>());
                owners.push((index, base + m * alpha));
            }
        }
        // b + c = ρ + K·b'' (0 ≤ ρ < K)
        let entries_of = || {
            owners
                .iter()
                .enumerate()
                .flat_map(|(p, &(g, c))| groups[g].b.iter().map(move |&b| (p, b + c)))
        };
        let (low, high) = entries_of().fold((i64::MAX, i64::MIN), |(l, h), (_, t)| {
            let step = t.div_euclid(k);
            (l.min(step), h.max(step))
        });
        let fields = (
            bits_for(parts.len().saturating_sub(1) as u64),
            bits_for(high.saturating_sub(low).max(0) as u64),
        );
        if bits_for((k - 1) as u64) + fields.0 + fields.1 > u64::BITS {
            return None;
        }
        let keys: Vec<u64> = entries_of()
            .map(|(p, t)| {
                let rho = t.rem_euclid(k) as u64;
                let step = (t.div_euclid(k) - low) as u64;
                (((rho << fields.0) | p as u64) << fields.1) | step
            })
            .collect();
        Some(Plan {
            modulus: k,
            parts,
            keys,
            fields,
            low,
            lo,
            hi,
            words: (((hi - lo) / k) as usize + 1).div_ceil(64) + 1,
        })
    }

    /// The residue `ρ` of a key.
    #[inline]
    fn residue(&self, key: u64) -> i64 {
        (key >> (self.fields.0 + self.fields.1)) as i64
    }

    /// `⌈(x − ρ) / M⌉` for `x = M·q + r` (`0 ≤ r < M`) and `0 ≤ ρ < M`.
    #[inline]
    fn ceil_steps(q: i64, r: i64, rho: i64) -> i64 {
        q + i64::from(r > rho)
    }

    /// Per threshold `T` (ascending, within `[lo, hi]`), the distinct sums in `[lo, T)`.
    pub fn below(&self, thresholds: &[i64]) -> Vec<i64> {
        let m = self.modulus;
        let split = |x: i64| (x.div_euclid(m), x.rem_euclid(m));
        let (lo_q, lo_r) = split(self.lo);
        let (hi_q, hi_r) = split(self.hi);
        let cuts: Vec<(i64, i64)> = thresholds.iter().map(|&t| split(t)).collect();
        let mut classes = vec![0usize];
        for k in 1..self.keys.len() {
            if self.residue(self.keys[k]) != self.residue(self.keys[k - 1]) {
                classes.push(k);
            }
        }
        classes.push(self.keys.len());
        let n = thresholds.len();
        let (part_mask, step_mask) = ((1u64 << self.fields.0) - 1, (1u64 << self.fields.1) - 1);
        // per thread: the bitmap, the counts of the thresholds inside a class's range, and
        // the distinct values of the classes wholly below a threshold (added up at the end)
        let (counts, whole) = (0..classes.len() - 1)
            .into_par_iter()
            .fold(
                || (vec![0u64; self.words], vec![0i64; n], vec![0i64; n + 1]),
                |(mut bits, mut counts, mut whole), c| {
                    let class = &self.keys[classes[c]..classes[c + 1]];
                    let rho = self.residue(class[0]);
                    let s0 = Self::ceil_steps(lo_q, lo_r, rho);
                    let s1 = Self::ceil_steps(hi_q, hi_r, rho);
                    let (mut first, mut last) = (i64::MAX, -1i64);
                    for &key in class {
                        let part = ((key >> self.fields.1) & part_mask) as usize;
                        let b2 = (key & step_mask) as i64 + self.low;
                        let reduced = &self.parts[part];
                        let from = reduced.partition_point(|&a| a < s0 - b2);
                        let to = reduced.partition_point(|&a| a < s1 - b2);
                        if from == to {
                            continue;
                        }
                        let offset = b2 - s0;
                        first = first.min(reduced[from] + offset);
                        last = last.max(reduced[to - 1] + offset);
                        for &a in &reduced[from..to] {
                            let bit = (a + offset) as usize;
                            bits[bit >> 6] |= 1u64 << (bit & 63);
                        }
                    }
                    if last < 0 {
                        return (bits, counts, whole);
                    }
                    // thresholds at or below the first bit count none, those above the
                    // last bit all of the class; the others are counted by one sweep
                    let at = |i: usize| Self::ceil_steps(cuts[i].0, cuts[i].1, rho) - s0;
                    // the first threshold past x (at(i) increases with i)
                    let past = |x: i64| {
                        let (mut l, mut r) = (0, n);
                        while l < r {
                            let mid = (l + r) / 2;
                            if at(mid) <= x { l = mid + 1 } else { r = mid }
                        }
                        l
                    };
                    let (start, stop) = (past(first), past(last));
                    let end = (last as usize >> 6) + 1;
                    let mut swept = first as usize >> 6;
                    let mut running = 0i64;
                    for (i, count) in counts.iter_mut().enumerate().take(stop).skip(start) {
                        let t = at(i) as usize;
                        while swept < t >> 6 {
                            running += i64::from(bits[swept].count_ones());
                            bits[swept] = 0;
                            swept += 1;
                        }
                        let partial = bits[swept] & ((1u64 << (t & 63)) - 1);
                        *count += running + i64::from(partial.count_ones());
                    }
                    for word in &mut bits[swept..end] {
                        running += i64::from(word.count_ones());
                        *word = 0;
                    }
                    whole[stop] += running;
                    (bits, counts, whole)
                },
            )
            .map(|(_, counts, whole)| (counts, whole))
            .reduce(
                || (vec![0i64; n], vec![0i64; n + 1]),
                |(mut x, mut xw), (y, yw)| {
                    x.iter_mut().zip(y).for_each(|(x, y)| *x += y);
                    xw.iter_mut().zip(yw).for_each(|(x, y)| *x += y);
                    (x, xw)
                },
            );
        let mut total = 0i64;
        counts
            .into_iter()
            .zip(whole)
            .map(|(count, below)| {
                total += below;
                count + total
            })
            .collect()
    }
}

/// [`super::int_pairs::scan`] by residue classes: the distinct values of each bucket
/// `[edges[k], edges[k+1])` and, per query, those of the whole range ≤ it (< it when
/// `strict`), a query outside the edges counting as at the nearer end.
pub fn scan(plan: &Plan, edges: &[i64], queries: &[i64], strict: bool) -> (Vec<i64>, Vec<i64>) {
    let (first, last) = (edges[0], edges[edges.len() - 1]);
    // "≤ q" is "< q + 1" (integers), clamped to the range of the edges
    let ends: Vec<i64> = queries
        .iter()
        .map(|&q| {
            let q = if strict { q.saturating_sub(1) } else { q };
            q.saturating_add(1).clamp(first, last)
        })
        .collect();
    let mut thresholds: Vec<i64> = edges.iter().chain(&ends).copied().collect();
    thresholds.sort_unstable();
    thresholds.dedup();
    let below = plan.below(&thresholds);
    let at = |x: i64| below[thresholds.partition_point(|&t| t < x)];
    let sizes = edges.windows(2).map(|w| at(w[1]) - at(w[0])).collect();
    let answers = ends.iter().map(|&e| at(e) - at(first)).collect();
    (sizes, answers)
}
