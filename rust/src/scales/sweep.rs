//! Counting pairs `a + b ≤ x` without listing them: the sweep of the pair engine
//! (`irscale.scales.pairs`), for φ of Ferrante, Ferro and Fuhr, "Towards meaningful
//! statements in IR evaluation: mapping evaluation measures to interval scales" (IEEE
//! Access 2021, eq. 2), `φ(x) = #{(a, b): a + b ≤ x}` when every pair is a distinct value.
//!
//! For a query `x` and a group (sorted halves `A`, `B`), the smaller half `s` is scanned
//! from its largest value down and each needle `x − s_i` is placed in the larger half
//! (`searchsorted`, left: first entry ≥ the needle; right: first entry > it): the needles
//! increase, so each position is found by galloping from the previous one — a few probes
//! near it, in the cache, instead of a binary search over the whole half. Needles are
//! computed as numpy computes them (`x − s`, one rounding), so the positions are numpy's.
//! Queries are independent: they are shared out between threads and their results kept
//! in query order, the same whatever the thread count.

use rayon::prelude::*;

/// A group's sorted halves, their runs and the running sums of the runs
/// (`cum[k] = Σ_{i<k} mult[i]`, length `len + 1`).
#[derive(Clone, Copy)]
pub struct Halves<'a, V> {
    pub a: &'a [V],
    pub a_mult: &'a [i64],
    pub a_cum: &'a [i64],
    pub b: &'a [V],
    pub b_mult: &'a [i64],
    pub b_cum: &'a [i64],
}

/// The scanned (smaller) and searched sides of a group: `(scanned, its runs, searched,
/// running runs of the searched, scanned is A)`.
type Sides<'a, V> = (&'a [V], &'a [i64], &'a [V], &'a [i64], bool);

impl<'a, V> Halves<'a, V> {
    fn sides(&self) -> Sides<'a, V> {
        if self.a.len() <= self.b.len() {
            (self.a, self.a_mult, self.b, self.b_cum, true)
        } else {
            (self.b, self.b_mult, self.a, self.a_cum, false)
        }
    }
}

/// Entries compared at once by [`gallop`]'s first steps (without branches: the count of
/// entries before the needle in a block of a sorted array is the step to take).
const BLOCK: usize = 16;
/// Blocks tried before galloping.
const BLOCKS: usize = 4;

/// First index `≥ from` of `sorted` whose entry is not `before` the needle, knowing that
/// every entry ahead of `from` is: blocks of [`BLOCK`] entries counted without branches
/// (the next position is usually a few entries on), then galloping (1, 2, 4, ... steps)
/// and a binary search.
#[inline]
fn gallop<V: Copy>(sorted: &[V], from: usize, before: impl Fn(V) -> bool) -> usize {
    let n = sorted.len();
    let mut from = from;
    for _ in 0..BLOCKS {
        let block = &sorted[from.min(n)..(from + BLOCK).min(n)];
        let ahead: usize = block.iter().map(|&v| usize::from(before(v))).sum();
        from += ahead;
        if ahead < BLOCK {
            return from;
        }
    }
    if from >= n || !before(sorted[from]) {
        return from;
    }
    let mut lo = from + 1; // sorted[lo - 1] is before
    let mut step = 1;
    let mut hi = from + step;
    while hi < n && before(sorted[hi]) {
        lo = hi + 1;
        step *= 2;
        hi = from + step;
    }
    let hi = hi.min(n);
    lo + sorted[lo..hi].partition_point(|&v| before(v))
}

/// Values the sweep adds and compares: int64 keys or float64 sums.
pub trait Value: Copy + PartialOrd + Send + Sync {
    fn minus(self, other: Self) -> Self;
}

impl Value for i64 {
    #[inline]
    fn minus(self, other: Self) -> Self {
        self.wrapping_sub(other)
    }
}

impl Value for f64 {
    #[inline]
    fn minus(self, other: Self) -> Self {
        self - other
    }
}

/// Per query: the pairs (runs when `weighted`: `Σ mult_s · cum_other[pos]`) with
/// `a + b ≤ x` (`< x` when `strict`).
pub fn count<V: Value>(groups: &[Halves<V>], x: &[V], strict: bool, weighted: bool) -> Vec<i64> {
    x.par_iter()
        .map(|&q| {
            let mut total = 0i64;
            for g in groups {
                let (scan, mult, other, cum, _) = g.sides();
                let mut pos = 0usize;
                for i in (0..scan.len()).rev() {
                    let needle = q.minus(scan[i]);
                    pos = if strict {
                        gallop(other, pos, |v| v < needle)
                    } else {
                        gallop(other, pos, |v| v <= needle)
                    };
                    total = if weighted {
                        total.wrapping_add(cum[pos].wrapping_mul(mult[i]))
                    } else {
                        total.wrapping_add(pos as i64)
                    };
                }
            }
            total
        })
        .collect()
}

/// The pairs with `lo_q ≤ a + b ≤ hi_q` of each query, as the needles place them (the
/// left position of `lo_q − s`, the right one of `hi_q − s`), and per query the pairs (runs
/// when `weighted`) below the window. Returns `(below, query, group, a index, b index)`,
/// the pairs in query order.
#[allow(clippy::type_complexity)]
pub fn window_pairs<V: Value>(
    groups: &[Halves<V>],
    lo: &[V],
    hi: &[V],
    weighted: bool,
) -> (Vec<i64>, Vec<i64>, Vec<i64>, Vec<i64>, Vec<i64>) {
    let per_query: Vec<(i64, Vec<(i64, i64, i64)>)> = lo
        .par_iter()
        .zip(hi.par_iter())
        .map(|(&low, &high)| {
            let mut below = 0i64;
            let mut pairs = Vec::new();
            for (k, g) in groups.iter().enumerate() {
                let (scan, mult, other, cum, a_side) = g.sides();
                let (mut start, mut stop) = (0usize, 0usize);
                for i in (0..scan.len()).rev() {
                    let s = scan[i];
                    let needle = low.minus(s);
                    start = gallop(other, start, |v| v < needle);
                    let needle = high.minus(s);
                    stop = gallop(other, stop.max(start), |v| v <= needle);
                    below = if weighted {
                        below.wrapping_add(cum[start].wrapping_mul(mult[i]))
                    } else {
                        below.wrapping_add(start as i64)
                    };
                    for j in start..stop {
                        let (ai, bj) = if a_side { (i, j) } else { (j, i) };
                        pairs.push((k as i64, ai as i64, bj as i64));
                    }
                }
            }
            (below, pairs)
        })
        .collect();
    let total: usize = per_query.iter().map(|(_, p)| p.len()).sum();
    let mut below = Vec::with_capacity(lo.len());
    let (mut q, mut g, mut a, mut b) = (
        Vec::with_capacity(total),
        Vec::with_capacity(total),
        Vec::with_capacity(total),
        Vec::with_capacity(total),
    );
    for (index, (under, pairs)) in per_query.into_iter().enumerate() {
        below.push(under);
        for (k, ai, bj) in pairs {
            q.push(index as i64);
            g.push(k);
            a.push(ai);
            b.push(bj);
        }
    }
    (below, q, g, a, b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cum(mult: &[i64]) -> Vec<i64> {
        let mut out = vec![0];
        for m in mult {
            out.push(out.last().unwrap() + m);
        }
        out
    }

    #[test]
    fn counts_and_windows_match_the_pairs_themselves() {
        let a = [0.0, 0.25, 0.5, 0.5000000001, 1.0];
        let b = [0.0, 0.1, 0.2, 0.25, 0.3, 0.75, 0.75, 2.0];
        let (am, bm) = ([1i64, 2, 3, 1, 1], [2i64, 1, 1, 1, 4, 1, 1, 3]);
        let (ac, bc) = (cum(&am), cum(&bm));
        for swap in [false, true] {
            let g = if swap {
                Halves {
                    a: &b[..],
                    a_mult: &bm[..],
                    a_cum: &bc,
                    b: &a[..],
                    b_mult: &am[..],
                    b_cum: &ac,
                }
            } else {
                Halves {
                    a: &a[..],
                    a_mult: &am[..],
                    a_cum: &ac,
                    b: &b[..],
                    b_mult: &bm[..],
                    b_cum: &bc,
                }
            };
            let queries = [
                -1.0,
                0.0,
                0.25,
                0.5,
                0.75,
                0.7500000001,
                1.0,
                1.25,
                3.0,
                9.0,
            ];
            for strict in [false, true] {
                for weighted in [false, true] {
                    let got = count(&[g], &queries, strict, weighted);
                    for (&x, got) in queries.iter().zip(got) {
                        let mut expected = 0;
                        for (i, &u) in g.a.iter().enumerate() {
                            for (j, &v) in g.b.iter().enumerate() {
                                // numpy's test: the needle x − s against the other side
                                let (s, o) = if g.a.len() <= g.b.len() {
                                    (u, v)
                                } else {
                                    (v, u)
                                };
                                let inside = if strict { o < x - s } else { o <= x - s };
                                if inside {
                                    expected += if weighted {
                                        g.a_mult[i] * g.b_mult[j]
                                    } else {
                                        1
                                    };
                                }
                            }
                        }
                        assert_eq!(got, expected, "x={x} strict={strict} weighted={weighted}");
                    }
                }
            }
            let lo = [0.2, 0.5, 10.0];
            let hi = [0.3, 0.5, 11.0];
            let (below, q, _, ai, bj) = window_pairs(&[g], &lo, &hi, false);
            assert_eq!(below, count(&[g], &lo, true, false));
            for (k, (&low, &high)) in lo.iter().zip(&hi).enumerate() {
                let mut expected = Vec::new();
                for (i, &u) in g.a.iter().enumerate() {
                    for (j, &v) in g.b.iter().enumerate() {
                        let (s, o) = if g.a.len() <= g.b.len() {
                            (u, v)
                        } else {
                            (v, u)
                        };
                        if low - s <= o && o <= high - s {
                            expected.push((i as i64, j as i64));
                        }
                    }
                }
                let mut got: Vec<(i64, i64)> = (0..q.len())
                    .filter(|&p| q[p] == k as i64)
                    .map(|p| (ai[p], bj[p]))
                    .collect();
                got.sort();
                assert_eq!(got, expected, "window {k}");
            }
        }
    }
}
