//! The maxima of interpolated precision's chains ([`super::interpolated`]), one ranking's
//! list of candidate documents at a time (the judged relevant ones, or those and the
//! unjudged ones), its `j`-th (from 1) at rank `q_j`:
//!
//! * [`List::range_max`]: the best precision `j / q_j` over any range of the list (a
//!   [`Sparse`] table of the runs' ends);
//! * [`Hull`]: the best line `(j + x) / q_j` over a suffix of the list that grows, at any
//!   `x`. Lines never fall along a run of consecutive documents of the list where `j + x ≤
//!   q` (`(j + 1 + x)/(q + 1) ≥ (j + x)/q`), so the hull takes the runs' last documents
//!   only: with few judgments, a few a ranking however deep.
//!
//! Values are one division of two integers, as the kernels divide; lines are compared
//! exactly (in integers).

/// One list of candidate documents.
#[derive(Debug)]
pub struct List {
    /// Per document of the list: its rank.
    pub rank: Vec<i64>,
    /// The documents (indices in the list) ending a run of consecutive ranks.
    pub ends: Vec<usize>,
    /// Per index of the list (and one past it): the first run end at or after it, as an
    /// index in `ends`.
    pub next_end: Vec<usize>,
    /// Per document of the list: its precision, `(j + 1) / q_j` for the `j`-th (0-based).
    pub precision: Vec<f64>,
    /// The precision at the runs' ends, over any range of them.
    at_ends: Sparse,
}

impl List {
    /// The list of the documents at these 0-based positions (ascending).
    pub fn of(positions: impl Iterator<Item = usize>) -> List {
        let rank: Vec<i64> = positions.map(|d| d as i64 + 1).collect();
        let ends: Vec<usize> = (0..rank.len())
            .filter(|&j| j + 1 == rank.len() || rank[j + 1] != rank[j] + 1)
            .collect();
        let mut next_end = Vec::with_capacity(rank.len() + 1);
        let mut at = 0;
        for j in 0..=rank.len() {
            while at < ends.len() && ends[at] < j {
                at += 1;
            }
            next_end.push(at);
        }
        let precision: Vec<f64> = rank
            .iter()
            .enumerate()
            .map(|(j, &q)| (j + 1) as f64 / q as f64)
            .collect();
        let at_ends = Sparse::of(&ends.iter().map(|&j| precision[j]).collect::<Vec<_>>());
        List {
            rank,
            ends,
            next_end,
            precision,
            at_ends,
        }
    }

    /// Its length.
    pub fn len(&self) -> usize {
        self.rank.len()
    }

    /// Whether it holds no document.
    pub fn is_empty(&self) -> bool {
        self.rank.is_empty()
    }

    /// The best precision of the documents `lo..=hi` (not empty): precision never falls
    /// along a run, so the value at `hi` and those at the runs' ends before it.
    #[inline]
    pub fn range_max(&self, lo: usize, hi: usize) -> f64 {
        let (first, stop) = (self.next_end[lo], self.next_end[hi]);
        let at_hi = self.precision[hi];
        if stop > first {
            larger(at_hi, self.at_ends.max(first, stop - 1))
        } else {
            at_hi
        }
    }
}

/// The larger of two values, neither NaN (a comparison, where `f64::max` minds NaN).
#[inline]
pub fn larger(a: f64, b: f64) -> f64 {
    if b > a { b } else { a }
}

/// The best of a list's values over any range (a sparse table: row `r` the best of `2^r`
/// values from each).
#[derive(Debug)]
pub struct Sparse {
    rows: Vec<Vec<f64>>,
}

impl Sparse {
    pub fn of(values: &[f64]) -> Sparse {
        let mut rows = vec![values.to_vec()];
        let mut width = 1;
        while 2 * width <= values.len() {
            let row = &rows[rows.len() - 1];
            let next = (0..row.len() - width)
                .map(|i| larger(row[i], row[i + width]))
                .collect();
            rows.push(next);
            width *= 2;
        }
        Sparse { rows }
    }

    /// The best value of `lo..=hi` (not empty).
    #[inline]
    pub fn max(&self, lo: usize, hi: usize) -> f64 {
        let row = (hi + 1 - lo).ilog2() as usize;
        let values = &self.rows[row];
        larger(values[lo], values[hi + 1 - (1 << row)])
    }
}

/// The upper envelope of lines `(c + x) / q`, each added steeper (smaller `q`) than those
/// before: the best of them at any integer `x`, exactly.
#[derive(Debug, Default)]
pub struct Hull {
    /// The envelope's lines from the shallowest: `(c, q, from)`, `from` the least `x` where
    /// the line is at least the one before it.
    lines: Vec<(i64, i64, i64)>,
    /// The line found best by [`Hull::rising`] at its last `x`.
    at: usize,
    /// The list's runs' ends taken, from this one on (in `List::ends`).
    front: usize,
}

/// Where line `b` (steeper) overtakes line `a`: `x* = num / den`, `den > 0`.
fn crossing(a: (i64, i64), b: (i64, i64)) -> (i128, i128) {
    let (ca, qa, cb, qb) = (a.0 as i128, a.1 as i128, b.0 as i128, b.1 as i128);
    (ca * qb - cb * qa, qa - qb)
}

impl Hull {
    /// An empty envelope, to take the runs' ends of `list` from its last up.
    pub fn of(list: &List) -> Hull {
        Hull {
            front: list.ends.len(),
            ..Hull::default()
        }
    }

    /// Adds the line `(c + x) / q`, `q` below those of the lines before.
    pub fn push(&mut self, c: i64, q: i64) {
        let line = (c, q);
        let mut from = i64::MIN;
        while let Some(&(cb, qb, _)) = self.lines.last() {
            let (n1, d1) = crossing((cb, qb), line);
            if let Some(&(ca, qa, _)) = self.lines.len().checked_sub(2).map(|a| &self.lines[a]) {
                let (n2, d2) = crossing((ca, qa), (cb, qb));
                let (n3, d3) = crossing((ca, qa), line);
                if n3 * d2 <= n2 * d3 {
                    self.lines.pop(); // b is never strictly the best
                    // (the best line at x no lower than before: the new one or after)
                    self.at = self.at.min(self.lines.len());
                    continue;
                }
            }
            // the least integer x ≥ n1 / d1
            from = (-(-n1).div_euclid(d1)).clamp(i64::MIN as i128, i64::MAX as i128) as i64;
            break;
        }
        self.lines.push((c, q, from));
    }

    /// Takes the lines of the documents of `list` from its `start`-th (0-based) down: the
    /// runs' ends from `start`'s run on (`start` never rises between calls).
    #[inline]
    pub fn take(&mut self, list: &List, start: usize) {
        let first = list.next_end[start];
        while self.front > first {
            self.front -= 1;
            let j = list.ends[self.front];
            self.push(j as i64 + 1, list.rank[j]);
        }
    }

    #[inline]
    fn value(&self, at: usize, x: i64) -> f64 {
        let (c, q, _) = self.lines[at];
        (c + x) as f64 / q as f64
    }

    /// The best line at `x` (-inf where none), by binary search.
    pub fn best(&self, x: i64) -> f64 {
        match self.lines.partition_point(|&(_, _, from)| from <= x) {
            0 => f64::NEG_INFINITY,
            at => self.value(at - 1, x),
        }
    }

    /// The best line at `x` (-inf where none), `x` no lower than at the call before (the
    /// best line only moves to steeper ones: amortized `O(1)`).
    #[inline]
    pub fn rising(&mut self, x: i64) -> f64 {
        let lines = &self.lines;
        if lines.is_empty() {
            return f64::NEG_INFINITY;
        }
        let mut at = self.at;
        while at + 1 < lines.len() && lines[at + 1].2 <= x {
            at += 1;
        }
        self.at = at;
        self.value(at, x)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::Rng;
    use super::*;

    /// A list of up to `n` documents, in runs often.
    fn list(rng: &mut Rng, n: usize) -> List {
        List::of((0..3 * n).filter(|_| rng.below(3) > 0).take(n))
    }

    fn best(list: &List, lo: usize, hi: usize) -> f64 {
        (lo..=hi)
            .map(|j| list.precision[j])
            .fold(f64::NEG_INFINITY, f64::max)
    }

    #[test]
    fn range_maxima_are_the_best_precision_of_the_range() {
        let mut rng = Rng(19);
        for _ in 0..200 {
            let n = 1 + rng.below(40) as usize;
            let list = list(&mut rng, n);
            for lo in 0..list.len() {
                for hi in lo..list.len() {
                    assert_eq!(list.range_max(lo, hi), best(&list, lo, hi), "{lo}..{hi}");
                }
            }
        }
    }

    #[test]
    fn the_sparse_table_gives_the_best_of_every_range() {
        let mut rng = Rng(23);
        for _ in 0..200 {
            let n = 1 + rng.below(40) as usize;
            let list = list(&mut rng, n);
            let table = Sparse::of(&list.precision);
            for lo in 0..list.len() {
                for hi in lo..list.len() {
                    assert_eq!(table.max(lo, hi), best(&list, lo, hi), "{lo}..{hi}");
                }
            }
        }
    }

    #[test]
    fn the_hull_gives_the_best_line_at_every_point() {
        let mut rng = Rng(29);
        for _ in 0..200 {
            let mut hull = Hull::default();
            let mut rising = Hull::default();
            let mut lines = vec![];
            let mut q = 2000;
            let mut x = -60;
            for _ in 0..1 + rng.below(12) {
                q -= 1 + rng.below(50) as i64;
                let c = rng.below(q as u64) as i64;
                hull.push(c, q);
                rising.push(c, q);
                lines.push((c, q));
                let best = |x: i64| {
                    lines
                        .iter()
                        .map(|&(c, q)| (c + x) as f64 / q as f64)
                        .fold(f64::NEG_INFINITY, f64::max)
                };
                for x in -60..60 {
                    assert_eq!(hull.best(x), best(x));
                }
                if rng.below(3) == 0 {
                    // (some lines added between two calls)
                    x += rng.below(12) as i64;
                    assert_eq!(rising.rising(x), best(x));
                }
            }
        }
    }

    #[test]
    fn the_hull_takes_the_runs_of_a_list() {
        let mut rng = Rng(37);
        for _ in 0..100 {
            let n = 1 + rng.below(60) as usize;
            let list = list(&mut rng, n);
            let mut hull = Hull::of(&list);
            for start in (0..list.len()).rev() {
                hull.take(&list, start);
                for x in [-(list.len() as i64) / 2, 0] {
                    // (the lines where j + x ≤ q, as the chains ask)
                    let expected = (start..list.len())
                        .map(|j| (j as i64 + 1 + x) as f64 / list.rank[j] as f64)
                        .fold(f64::NEG_INFINITY, f64::max);
                    assert_eq!(hull.best(x), expected);
                }
            }
        }
    }
}
