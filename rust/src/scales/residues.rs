//! The streaming pass of the integer pair engine ([`super::int_pairs::scan`]) class by
//! class, where every `a` shares one residue: no sort and no hash of the candidate pairs.
//!
//! When every `a` of every group is `≡ c (mod M)`, a sum `a + b` is `≡ c + b (mod M)`: its
//! residue `ρ` is fixed by `b` alone, so equal sums come from the `b`s of one residue class.
//! With `a = c + M·a'` and `b + c = ρ + M·b''`, a value is `ρ + M·(a' + b'')`: within a
//! class the distinct values are the distinct `s = a' + b''`. Each class marks its `s` in a
//! bitmap of the range of `s` that the call's edges allow (one bit set per candidate pair),
//! then one sweep of the bitmap counts the set bits below every threshold (bucket edges and
//! queries) and clears it. The classes are disjoint, so the counts of the classes add up.
//!
//! AP's integer keys have this structure (Ferrante, Ferro and Fuhr, "Towards meaningful
//! statements in IR evaluation: mapping evaluation measures to interval scales", IEEE
//! Access 2021, §5.2.2; `irscale.scales.average_precision`): `S·L = Σ C(i)·L/i`, and a
//! prefix cut after h ranks only has ranks `i ≤ h`, whose `L/i` are multiples of
//! `M = Π q^(e_N(q) − e_h(q))` over the primes q (`q^e_x` the largest power of q ≤ x). At
//! N = 30 and h = 12, `M = 84,021,990`: about 91,000 classes, each with 831,601 values of
//! `s` (a 102 KB bitmap, in the second-level cache).
//!
//! Work: one bit set per candidate pair in range, two binary searches per `b`, a sort of
//! the `b`s by residue, and a sweep of `(classes) × (range of s) / 64` words. The classes
//! are shared out between threads and their counts summed (integers), so every number is
//! the same whatever the thread count.

use rayon::prelude::*;

use super::int_pairs::Group;

/// Widest range of `s` a class's bitmap may span (2^21 bits: 256 KB).
const MAX_BITS: i64 = 1 << 21;
/// Largest magnitude of a value, an edge or a sum's part (sums stay within 64 bits).
const MAX_MAGNITUDE: i64 = 1 << 61;
/// Fewest buckets a call must span for the classes to pay: their set-up (a residue and a
/// sort per `b`) costs about as much as the sort of a few buckets' pairs.
pub const MIN_BUCKETS: usize = 8;

/// The residue structure of the groups, for the values in `[lo, hi)`.
pub struct Plan {
    modulus: i64,
    /// `(a − base) / modulus` per group, ascending.
    reduced: Vec<Vec<i64>>,
    /// Per `b`: `ρ`, its group and `b'' − low`, packed in the bits of [`Self::fields`];
    /// ascending, so the `b`s come class by class.
    keys: Vec<u64>,
    /// Bits of the group and of `b'' − low` in a key.
    fields: (u32, u32),
    low: i64,
    lo: i64,
    hi: i64,
    /// Words of a class's bitmap (its range of `s`, at most `(hi − lo) / M + 1` bits).
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

impl Plan {
    /// The plan, or `None` where the `a`s share no residue (`M < 2`), the range of `s`
    /// is wider than [`MAX_BITS`], or a `b` does not fit a packed key.
    pub fn new(groups: &[Group], lo: i64, hi: i64) -> Option<Plan> {
        let fits = |x: i64| -MAX_MAGNITUDE < x && x < MAX_MAGNITUDE;
        let base = groups.iter().filter_map(|g| g.a.first()).min().copied()?;
        let mut modulus = 0u64;
        for g in groups {
            for &a in g.a {
                if !fits(a) {
                    return None;
                }
                modulus = gcd(modulus, (a - base) as u64);
            }
            if !g.b.iter().all(|&b| fits(b)) {
                return None;
            }
        }
        if modulus < 2 || !fits(lo) || !fits(hi) || lo >= hi {
            return None;
        }
        let m = modulus as i64;
        if (hi - lo) / m >= MAX_BITS {
            return None;
        }
        // b + base = ρ + M·b'' (0 ≤ ρ < M)
        let steps = || groups.iter().flat_map(|g| g.b.iter().map(|&b| (b + base).div_euclid(m)));
        let (low, high) = steps().fold((i64::MAX, i64::MIN), |(l, h), x| (l.min(x), h.max(x)));
        let fields = (
            bits_for(groups.len().saturating_sub(1) as u64),
            bits_for(high.saturating_sub(low).max(0) as u64),
        );
        if bits_for(modulus - 1) + fields.0 + fields.1 > u64::BITS {
            return None;
        }
        let mut keys = Vec::with_capacity(groups.iter().map(|g| g.b.len()).sum());
        for (k, g) in groups.iter().enumerate() {
            for &b in g.b {
                let rho = (b + base).rem_euclid(m) as u64;
                let step = ((b + base).div_euclid(m) - low) as u64;
                keys.push((((rho << fields.0) | k as u64) << fields.1) | step);
            }
        }
        keys.par_sort_unstable();
        Some(Plan {
            modulus: m,
            reduced: groups
                .iter()
                .map(|g| g.a.iter().map(|&a| (a - base) / m).collect())
                .collect(),
            keys,
            fields,
            low,
            lo,
            hi,
            words: (((hi - lo) / m) as usize + 1).div_ceil(64) + 1,
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
        let (group_mask, step_mask) = ((1u64 << self.fields.0) - 1, (1u64 << self.fields.1) - 1);
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
                        let k = ((key >> self.fields.1) & group_mask) as usize;
                        let b2 = (key & step_mask) as i64 + self.low;
                        let reduced = &self.reduced[k];
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
                    for i in start..stop {
                        let t = at(i) as usize;
                        while swept < t >> 6 {
                            running += i64::from(bits[swept].count_ones());
                            bits[swept] = 0;
                            swept += 1;
                        }
                        let partial = bits[swept] & ((1u64 << (t & 63)) - 1);
                        counts[i] += running + i64::from(partial.count_ones());
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
pub fn scan(
    plan: &Plan,
    edges: &[i64],
    queries: &[i64],
    strict: bool,
) -> (Vec<i64>, Vec<i64>) {
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
