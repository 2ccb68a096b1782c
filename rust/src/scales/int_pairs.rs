//! The image of integer sums `a + b`, bucket by bucket: the streaming pass of the pair
//! engine's `int` mode (`irscale.scales.pairs`, exact 64-bit keys such as AP·RB·lcm(1..N)).
//!
//! The image is `∪_g (A_g ⊕ B_g)` over groups of sorted partial values (meet in the
//! middle; for AP the groups are the prefix's relevant count j, `S·L = A + j·U + V`,
//! Ferrante, Ferro and Fuhr, "Towards meaningful statements in IR evaluation: mapping
//! evaluation measures to interval scales", IEEE Access 2021, §5.2.2). A bucket `[lo, hi)`
//! holds, for every `a`, the slice of `B` between `lo − a` and `hi − a` (two binary
//! searches). Its distinct values are found without a comparison sort of 64-bit values:
//! the offsets `a + b − lo` are scattered by their high bits into sub-buckets whose
//! ranges span at most `2^32` (a few thousand pairs each, in the cache), each sub-bucket
//! is radix-sorted on its 32 low bits ([`super::radix`]) and de-duplicated. Values, run
//! counts (`Σ mult_a · mult_b` of the pairs of a value) and ranks of queries are exact.
//!
//! Buckets are independent: a pass over many buckets shares them out between threads and
//! joins their results in bucket order, so every number is the same whatever the thread
//! count. A bucket in flight holds 4 bytes per candidate pair (12 with run counts).
//!
//! A pass over many buckets ([`scan`]) where the `a`s share a residue (AP's prefix values,
//! all multiples of one factor) counts the distinct values by residue classes instead
//! ([`super::residues`]: a bitmap per class, no sort or hash of the pairs).

use rayon::prelude::*;

use super::group::Group;
use super::radix::{self, Keyed};
use super::residues::{self, Plan};

/// Pairs aimed at per sub-bucket (its keys and scratch fit the second-level cache).
const SUB_PAIRS: usize = 8192;
/// Most sub-buckets of a bucket (their counters: 8 MB); sparser ranges are sorted whole.
const MAX_SUB_BITS: u32 = 20;

/// First index of `sorted` whose value is ≥ `x` (numpy's `searchsorted(.., "left")`).
fn lower_bound(sorted: &[i64], x: i64) -> usize {
    sorted.partition_point(|&v| v < x)
}

/// `(group, a index, first b, end b)` of every non-empty slice of the bucket `[lo, hi)`.
fn slices(groups: &[Group], lo: i64, hi: i64) -> (Vec<(u32, u32, usize, usize)>, usize) {
    let mut out = Vec::new();
    let mut pairs = 0usize;
    for (k, g) in groups.iter().enumerate() {
        for (i, &a) in g.a.iter().enumerate() {
            let start = lower_bound(g.b, lo.saturating_sub(a));
            let stop = lower_bound(g.b, hi.saturating_sub(a));
            if stop > start {
                out.push((k as u32, i as u32, start, stop));
                pairs += stop - start;
            }
        }
    }
    (out, pairs)
}

/// Bits of the offsets `0 .. span − 1`.
fn bits_of(span: u64) -> u32 {
    if span <= 1 {
        0
    } else {
        64 - (span - 1).leading_zeros()
    }
}

/// Buffers of a bucket, reused from bucket to bucket by a thread (no fresh pages).
pub struct Buffers<T> {
    entries: Vec<T>,
    scratch: Vec<T>,
    starts: Vec<usize>,
    table: Vec<u32>,
}

impl<T> Default for Buffers<T> {
    fn default() -> Self {
        Buffers {
            entries: Vec::new(),
            scratch: Vec::new(),
            starts: Vec::new(),
            table: Vec::new(),
        }
    }
}

/// The sub-buckets of the bucket `[lo, hi)`, in increasing order of their ranges:
/// `visit(base, entries, bits, buffers)` with the values `base + key` (keys below
/// `2^bits`, in no particular order), each entry made by `make(low key, group, a index, b
/// index)`. Returns the number of candidate pairs.
fn scattered_subs<T: Keyed>(
    groups: &[Group],
    lo: i64,
    hi: i64,
    buffers: &mut Buffers<T>,
    make: impl Fn(u32, &Group, usize, usize) -> T,
    mut visit: impl FnMut(i64, &mut [T], u32, &mut Buffers<T>),
) -> usize {
    let (parts, pairs) = slices(groups, lo, hi);
    if pairs == 0 {
        return 0;
    }
    let span = (hi as i128 - lo as i128) as u64;
    let bits = bits_of(span);
    let wanted = (pairs / SUB_PAIRS).max(1);
    let sub_bits = usize::BITS - (wanted - 1).leading_zeros();
    let low_bits = bits.saturating_sub(sub_bits).min(32);
    let high_bits = bits - low_bits;
    if high_bits > MAX_SUB_BITS {
        // a sparse range (large keys, few pairs): one sort of the 64-bit offsets
        let mut offsets: Vec<(u64, T)> = Vec::with_capacity(pairs);
        for &(k, i, start, stop) in &parts {
            let g = &groups[k as usize];
            let a = g.a[i as usize];
            for j in start..stop {
                let d = a.wrapping_add(g.b[j]).wrapping_sub(lo) as u64;
                offsets.push((d >> 32, make(d as u32, g, i as usize, j)));
            }
        }
        offsets.sort_unstable_by_key(|e| (e.0, e.1.key()));
        let mut entries: Vec<T> = Vec::new();
        let mut first = 0;
        while first < offsets.len() {
            let high = offsets[first].0;
            let mut last = first;
            entries.clear();
            while last < offsets.len() && offsets[last].0 == high {
                entries.push(offsets[last].1);
                last += 1;
            }
            visit(
                lo.wrapping_add((high << 32) as i64),
                &mut entries,
                32,
                buffers,
            );
            first = last;
        }
        return pairs;
    }
    let n_subs = 1usize << high_bits;
    let mut starts = std::mem::take(&mut buffers.starts);
    starts.clear();
    starts.resize(n_subs + 1, 0);
    for &(k, i, start, stop) in &parts {
        let g = &groups[k as usize];
        let base = g.a[i as usize].wrapping_sub(lo);
        for &b in &g.b[start..stop] {
            starts[(base.wrapping_add(b) as u64 >> low_bits) as usize + 1] += 1;
        }
    }
    for s in 0..n_subs {
        starts[s + 1] += starts[s];
    }
    let mut at = starts.clone();
    let mut entries = std::mem::take(&mut buffers.entries);
    entries.clear();
    entries.resize(pairs, T::default());
    let low_mask = if low_bits == 32 {
        u32::MAX as u64
    } else {
        (1u64 << low_bits) - 1
    };
    for &(k, i, start, stop) in &parts {
        let g = &groups[k as usize];
        let base = g.a[i as usize].wrapping_sub(lo);
        for j in start..stop {
            let d = base.wrapping_add(g.b[j]) as u64;
            let s = (d >> low_bits) as usize;
            entries[at[s]] = make((d & low_mask) as u32, g, i as usize, j);
            at[s] += 1;
        }
    }
    for s in 0..n_subs {
        let sub = &mut entries[starts[s]..starts[s + 1]];
        if !sub.is_empty() {
            visit(
                lo.wrapping_add(((s as u64) << low_bits) as i64),
                sub,
                low_bits,
                buffers,
            );
        }
    }
    buffers.entries = entries;
    buffers.starts = starts;
    pairs
}

/// The distinct values of the bucket `[lo, hi)`, ascending, and the number of candidate
/// pairs.
pub fn bucket_values(groups: &[Group], lo: i64, hi: i64) -> (Vec<i64>, usize) {
    let mut values = Vec::new();
    let pairs = scattered_subs(
        groups,
        lo,
        hi,
        &mut Buffers::default(),
        |key, _, _, _| key,
        |base, keys: &mut [u32], bits, buffers| {
            radix::sort(keys, &mut buffers.scratch, bits);
            let mut last = None;
            for &k in keys.iter() {
                if last != Some(k) {
                    values.push(base + k as i64);
                    last = Some(k);
                }
            }
        },
    );
    (values, pairs)
}

/// The distinct values of the bucket `[lo, hi)`, ascending, with their runs (the sum of
/// `mult_a · mult_b` over the pairs of each value), and the number of candidate pairs.
pub fn bucket_counts(groups: &[Group], lo: i64, hi: i64) -> (Vec<i64>, Vec<i64>, usize) {
    let mut values = Vec::new();
    let mut counts: Vec<i64> = Vec::new();
    let pairs = scattered_subs(
        groups,
        lo,
        hi,
        &mut Buffers::default(),
        |key, g, i, j| (key, g.a_mult[i].wrapping_mul(g.b_mult[j])),
        |base, entries: &mut [(u32, i64)], bits, buffers| {
            radix::sort(entries, &mut buffers.scratch, bits);
            let mut last = None;
            for &(k, m) in entries.iter() {
                if last == Some(k) {
                    let end = counts.len() - 1;
                    counts[end] = counts[end].wrapping_add(m);
                } else {
                    values.push(base + k as i64);
                    counts.push(m);
                    last = Some(k);
                }
            }
        },
    );
    (values, counts, pairs)
}

/// Queries of a sub-bucket up to which each is ranked by a pass over the hash table; more
/// are ranked by binary search in the distinct keys, sorted once (a pass per query made
/// the φ of every run of AP's image at N = 16 cost 2.6 s: 65,536 passes over 44,633 keys).
const RANKS_BY_PASS: usize = 8;

/// The distinct keys of `keys` and how many of them are ≤ each of `offsets`: an
/// open-addressing set in the cache (a multiplicative hash, linear probing; the key
/// `u32::MAX` marks empty slots and is counted apart).
fn distinct_keys(keys: &[u32], table: &mut Vec<u32>, offsets: &[i128]) -> (usize, Vec<usize>) {
    const EMPTY: u32 = u32::MAX;
    let size = (2 * keys.len()).next_power_of_two().max(16);
    let shift = 32 - size.trailing_zeros();
    table.clear();
    table.resize(size, EMPTY);
    let mask = size - 1;
    let mut distinct = 0usize;
    let mut has_empty = false;
    for &k in keys {
        if k == EMPTY {
            has_empty = true;
            continue;
        }
        let mut slot = (k.wrapping_mul(0x9E37_79B1) >> shift) as usize;
        loop {
            let here = table[slot];
            if here == k {
                break;
            }
            if here == EMPTY {
                table[slot] = k;
                distinct += 1;
                break;
            }
            slot = (slot + 1) & mask;
        }
    }
    let empty_below = |o: i128| usize::from(has_empty && o >= EMPTY as i128);
    let ranks = if offsets.len() <= RANKS_BY_PASS {
        // a few queries: one pass over the table each, no sort
        offsets
            .iter()
            .map(|&o| {
                table
                    .iter()
                    .filter(|&&k| k != EMPTY && (k as i128) <= o)
                    .count()
                    + empty_below(o)
            })
            .collect()
    } else {
        // many: the distinct keys sorted once, each query a binary search
        let mut sorted: Vec<u32> = table.iter().copied().filter(|&k| k != EMPTY).collect();
        sorted.sort_unstable();
        offsets
            .iter()
            .map(|&o| sorted.partition_point(|&k| (k as i128) <= o) + empty_below(o))
            .collect()
    };
    (distinct + usize::from(has_empty), ranks)
}

/// The number of distinct values of the bucket `[lo, hi)` and, for each of `queries`
/// (ascending), how many of them are ≤ it — without sorting or listing the values.
fn bucket_ranks(
    groups: &[Group],
    lo: i64,
    hi: i64,
    queries: &[i64],
    buffers: &mut Buffers<u32>,
) -> (i64, Vec<i64>) {
    let mut ranks = Vec::with_capacity(queries.len());
    let mut seen = 0i64;
    let mut table = std::mem::take(&mut buffers.table);
    scattered_subs(
        groups,
        lo,
        hi,
        buffers,
        |key, _, _, _| key,
        |base, keys: &mut [u32], bits, _| {
            // queries before this sub-bucket's range count the values seen so far
            let mut first = ranks.len();
            while first < queries.len() && queries[first] < base {
                ranks.push(seen);
                first += 1;
            }
            let end = base as i128 + (1i128 << bits);
            let mut last = first;
            while last < queries.len() && (queries[last] as i128) < end {
                last += 1;
            }
            let offsets: Vec<i128> = queries[first..last]
                .iter()
                .map(|&q| q as i128 - base as i128)
                .collect();
            let (distinct, within) = distinct_keys(keys, &mut table, &offsets);
            ranks.extend(within.into_iter().map(|w| seen + w as i64));
            seen += distinct as i64;
        },
    );
    buffers.table = table;
    ranks.resize(queries.len(), seen);
    (seen, ranks)
}

/// One streaming pass over the buckets `[edges[k], edges[k+1])`: the number of distinct
/// values of each bucket, and for each query the distinct values of the image ≤ it
/// (`strict`: < it). A query belongs to the bucket whose edges enclose it (the first or
/// the last bucket when it lies outside).
pub fn scan(
    groups: &[Group],
    edges: &[i64],
    queries: &[i64],
    strict: bool,
) -> (Vec<i64>, Vec<i64>) {
    let n_buckets = edges.len().saturating_sub(1);
    if n_buckets == 0 {
        return (Vec::new(), vec![0; queries.len()]);
    }
    // many buckets of a residue structure: counted class by class (no sort, no hash)
    let plan = (n_buckets >= residues::MIN_BUCKETS)
        .then(|| Plan::new(groups, edges[0], edges[n_buckets]))
        .flatten();
    if let Some(plan) = plan {
        return residues::scan(&plan, edges, queries, strict);
    }
    // queries as "≤ q" (integers: < q is ≤ q − 1), sorted, grouped by bucket
    let mut order: Vec<(usize, i64, usize)> = queries
        .iter()
        .enumerate()
        .map(|(index, &q)| {
            let q = if strict { q.saturating_sub(1) } else { q };
            let bucket = edges.partition_point(|&e| e <= q).clamp(1, n_buckets) - 1;
            (bucket, q, index)
        })
        .collect();
    order.sort_unstable();
    let mut bounds = vec![0usize; n_buckets + 1];
    for &(bucket, _, _) in &order {
        bounds[bucket + 1] += 1;
    }
    for k in 0..n_buckets {
        bounds[k + 1] += bounds[k];
    }
    let needles: Vec<i64> = order.iter().map(|e| e.1).collect();
    let results: Vec<(i64, Vec<i64>)> = (0..n_buckets)
        .into_par_iter()
        .map_init(Buffers::default, |buffers, k| {
            let mine = &needles[bounds[k]..bounds[k + 1]];
            bucket_ranks(groups, edges[k], edges[k + 1], mine, buffers)
        })
        .collect();
    let mut sizes = Vec::with_capacity(n_buckets);
    let mut answers = vec![0i64; queries.len()];
    let mut before = 0i64;
    for (k, (size, ranks)) in results.into_iter().enumerate() {
        for (offset, rank) in ranks.into_iter().enumerate() {
            answers[order[bounds[k] + offset].2] = before + rank;
        }
        sizes.push(size);
        before += size;
    }
    (sizes, answers)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every sum of the groups, sorted, with its runs (the brute force).
    fn brute(groups: &[Group], lo: i64, hi: i64) -> Vec<(i64, i64)> {
        let mut all: Vec<(i64, i64)> = Vec::new();
        for g in groups {
            for (i, &a) in g.a.iter().enumerate() {
                for (j, &b) in g.b.iter().enumerate() {
                    if lo <= a + b && a + b < hi {
                        all.push((a + b, g.a_mult[i] * g.b_mult[j]));
                    }
                }
            }
        }
        all.sort();
        let mut out: Vec<(i64, i64)> = Vec::new();
        for (v, m) in all {
            match out.last_mut() {
                Some(last) if last.0 == v => last.1 += m,
                _ => out.push((v, m)),
            }
        }
        out
    }

    fn table(seed: u64, n: usize, scale: i64) -> (Vec<i64>, Vec<i64>) {
        let mut s = seed;
        let mut values: Vec<i64> = (0..n)
            .map(|_| {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((s >> 20) as i64) % scale
            })
            .collect();
        values.sort();
        values.dedup();
        let mult = values.iter().map(|v| 1 + v % 3).collect();
        (values, mult)
    }

    /// Two groups of `[a, a_mult, b, b_mult]` tables.
    fn pair_of<'a>(one: [&'a [i64]; 4], two: [&'a [i64]; 4]) -> [Group<'a>; 2] {
        let group = |[a, a_mult, b, b_mult]: [&'a [i64]; 4]| Group {
            a,
            a_mult,
            b,
            b_mult,
        };
        [group(one), group(two)]
    }

    #[test]
    fn buckets_and_ranks_match_the_brute_force() {
        for scale in [50i64, 1 << 20, 1 << 40, 1 << 61] {
            let (a1, m1) = table(1, 300, scale);
            let (b1, n1) = table(2, 900, scale);
            let (a2, m2) = table(3, 40, scale);
            let (b2, n2) = table(4, 2000, scale);
            let groups = pair_of([&a1, &m1, &b1, &n1], [&a2, &m2, &b2, &n2]);
            let whole = brute(&groups, i64::MIN, i64::MAX);
            let (lo, hi) = (whole[0].0, whole.last().unwrap().0 + 1);
            let mid = lo + (hi - lo) / 3;
            let edges = [lo, mid, mid + 1, hi];
            let mut all = Vec::new();
            for w in edges.windows(2) {
                let (values, counts, _) = bucket_counts(&groups, w[0], w[1]);
                let (plain, _) = bucket_values(&groups, w[0], w[1]);
                assert_eq!(plain, values);
                all.extend(values.into_iter().zip(counts));
            }
            assert_eq!(all, whole, "scale {scale}");
            let queries: Vec<i64> = whole
                .iter()
                .step_by(7)
                .flat_map(|&(v, _)| [v, v - 1, v + 1])
                .chain([lo - 5, hi + 5, i64::MIN, i64::MAX])
                .collect();
            for strict in [false, true] {
                let expected =
                    |q: i64| whole.partition_point(|e| if strict { e.0 < q } else { e.0 <= q });
                let (sizes, answers) = scan(&groups, &edges, &queries, strict);
                assert_eq!(sizes.iter().sum::<i64>() as usize, whole.len());
                for (&q, got) in queries.iter().zip(answers) {
                    assert_eq!(got as usize, expected(q), "q={q} strict={strict}");
                }
                // a few queries a call: ranked by passes over the table, not a sort
                for few in queries.chunks(RANKS_BY_PASS - 3).take(40) {
                    let (_, answers) = scan(&groups, &edges, few, strict);
                    for (&q, got) in few.iter().zip(answers) {
                        assert_eq!(got as usize, expected(q), "q={q} strict={strict} (few)");
                    }
                }
            }
        }
    }

    /// Sorted, distinct `base + factor·(step·x + r)` for `n` pseudo-random `x < span` and
    /// residues `r` from `shifts`: the `a`s of a residue structure (AP's prefix values
    /// share the factor `M`, and rank 13 leaves few residues modulo 13).
    fn structured(
        seed: u64,
        n: usize,
        base: i64,
        factor: i64,
        step: i64,
        shifts: &[i64],
        span: i64,
    ) -> (Vec<i64>, Vec<i64>) {
        let (x, _) = table(seed, n, span);
        let mut values: Vec<i64> = x
            .iter()
            .enumerate()
            .map(|(k, &x)| base + factor * (step * x + shifts[k % shifts.len()]))
            .collect();
        values.sort();
        values.dedup();
        let mult = values.iter().map(|v| 1 + v.rem_euclid(3)).collect();
        (values, mult)
    }

    #[test]
    fn residue_classes_match_the_brute_force() {
        // (factor M, refinement step, residues, span of x, span of b): one part per group;
        // a range that needs a refinement f (a few parts per group); AP-like residues
        for (factor, step, shifts, span, b_span) in [
            (6i64, 1i64, &[0i64][..], 3000i64, 1i64 << 20),
            (5, 1, &[0][..], 1 << 23, 1 << 24),
            (30, 13, &[0, 3, 7][..], 1 << 19, 1 << 30),
        ] {
            let (a1, m1) = structured(5, 60, 7, factor, step, shifts, span);
            let (a2, m2) = structured(6, 25, 7 + factor * 2, factor, step, shifts, span);
            let (b1, n1) = table(7, 700, b_span);
            let (b2, n2) = table(8, 1500, b_span);
            let groups = pair_of([&a1, &m1, &b1, &n1], [&a2, &m2, &b2, &n2]);
            let whole = brute(&groups, i64::MIN, i64::MAX);
            let (lo, hi) = (whole[0].0, whole.last().unwrap().0 + 1);
            assert!(
                residues::Plan::new(&groups, lo, hi).is_some(),
                "M = {factor}"
            );
            // ten buckets over the whole image, and ten over a middle slice of it
            let cut = |k: usize, of: usize| whole[k * (whole.len() - 1) / of].0;
            let all: Vec<i64> = (0..10).map(|k| cut(k, 10)).chain([hi]).collect();
            let part: Vec<i64> = (3..14).map(|k| cut(k, 20) + 1).collect();
            let queries: Vec<i64> = whole
                .iter()
                .step_by(11)
                .flat_map(|&(v, _)| [v, v - 1, v + 1])
                .chain([lo - 5, hi + 5, i64::MIN, i64::MAX])
                .collect();
            for edges in [&all, &part] {
                assert!(edges.len() > residues::MIN_BUCKETS);
                assert!(residues::apply(&groups, edges));
                assert!(!residues::apply(&groups, &edges[..residues::MIN_BUCKETS]));
                let (first, last) = (edges[0], edges[edges.len() - 1]);
                let inside: Vec<i64> = whole
                    .iter()
                    .map(|e| e.0)
                    .filter(|&v| first <= v && v < last)
                    .collect();
                for strict in [false, true] {
                    let (sizes, answers) = scan(&groups, edges, &queries, strict);
                    // the distinct values in range below x, in the sorted brute force
                    let below = |x: i64| inside.partition_point(|&v| v < x);
                    for (k, w) in edges.windows(2).enumerate() {
                        let expected = below(w[1]) - below(w[0]);
                        assert_eq!(sizes[k] as usize, expected, "M = {factor} bucket {k}");
                    }
                    for (&q, got) in queries.iter().zip(answers) {
                        let expected =
                            inside.partition_point(|&v| if strict { v < q } else { v <= q });
                        assert_eq!(
                            got as usize, expected,
                            "M = {factor} q = {q} strict = {strict}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn no_residue_plan_without_a_common_factor() {
        let (a, m) = (vec![3i64, 4, 10], vec![1i64; 3]);
        let (b, n) = table(9, 50, 1000);
        let groups = [Group {
            a: &a,
            a_mult: &m,
            b: &b,
            b_mult: &n,
        }];
        assert!(residues::Plan::new(&groups, 0, 2000).is_none());
        let edges: Vec<i64> = (0..=20).map(|k| k * 100).collect();
        assert!(!residues::apply(&groups, &edges));
    }
}
