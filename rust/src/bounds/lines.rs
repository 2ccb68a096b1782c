//! The maxima of interpolated precision's chains ([`super::interpolated`]), one ranking's
//! list of candidate documents at a time (the judged relevant ones, or those and the
//! unjudged ones), its `j`-th (from 1) at rank `q_j`:
//!
//! * [`Window`]: the best precision `j / q_j` over a range of the list whose two ends never
//!   fall (monotone queue), or never rise (a running maximum);
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
        let precision = rank
            .iter()
            .enumerate()
            .map(|(j, &q)| (j + 1) as f64 / q as f64)
            .collect();
        List {
            rank,
            ends,
            next_end,
            precision,
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
}

/// The best precision of a list over a range `lo..=hi` that moves one way: both ends never
/// falling ([`Window::sliding`]) or never rising ([`Window::growing`]).
#[derive(Debug)]
pub struct Window {
    /// Sliding: the indices of the range whose precision no later one reaches, from the
    /// best; `head`: the first of them still in the range; `next`: the first index not
    /// taken yet.
    queue: Vec<usize>,
    head: usize,
    next: usize,
    /// Growing: the range taken so far and its best.
    taken: Option<(usize, usize)>,
    best: f64,
}

impl Default for Window {
    fn default() -> Window {
        Window {
            queue: Vec::new(),
            head: 0,
            next: 0,
            taken: None,
            best: f64::NEG_INFINITY,
        }
    }
}

impl Window {
    /// Empties it (its memory kept).
    pub fn clear(&mut self) {
        let mut queue = std::mem::take(&mut self.queue);
        queue.clear();
        *self = Window {
            queue,
            ..Window::default()
        };
    }

    /// The best precision of `list` over `lo..=hi` (not empty), each end no lower than at
    /// the call before.
    pub fn sliding(&mut self, list: &List, lo: usize, hi: usize) -> f64 {
        while self.next <= hi {
            let value = list.precision[self.next];
            while self.queue.len() > self.head
                && list.precision[self.queue[self.queue.len() - 1]] <= value
            {
                self.queue.pop();
            }
            self.queue.push(self.next);
            self.next += 1;
        }
        while self.queue[self.head] < lo {
            self.head += 1;
        }
        list.precision[self.queue[self.head]]
    }

    /// The best precision of `list` over `lo..=hi` (not empty), each end no further in than
    /// at the call before.
    pub fn growing(&mut self, list: &List, lo: usize, hi: usize) -> f64 {
        let (mut first, mut last) = self.taken.unwrap_or((hi + 1, hi));
        while first > lo {
            first -= 1;
            self.best = self.best.max(list.precision[first]);
        }
        while last < hi {
            last += 1;
            self.best = self.best.max(list.precision[last]);
        }
        self.taken = Some((first, last));
        self.best
    }
}

/// The upper envelope of lines `(c + x) / q`, each added steeper (smaller `q`) than those
/// before: the best of them at any `x`, exactly.
#[derive(Debug, Default)]
pub struct Hull {
    /// `(c, q)`, the envelope's lines from the shallowest.
    lines: Vec<(i64, i64)>,
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

/// Whether line `b` (steeper than `a`) is at least `a` at `x`.
fn overtaken(a: (i64, i64), b: (i64, i64), x: i64) -> bool {
    let (num, den) = crossing(a, b);
    num <= x as i128 * den
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
        while self.lines.len() >= 2 {
            let (a, b) = (self.lines[self.lines.len() - 2], self.lines[self.lines.len() - 1]);
            let (n1, d1) = crossing(a, line);
            let (n2, d2) = crossing(a, b);
            if n1 * d2 <= n2 * d1 {
                self.lines.pop(); // b is never strictly the best
            } else {
                break;
            }
        }
        self.lines.push(line);
    }

    /// Takes the lines of the documents of `list` from its `start`-th (0-based) down: the
    /// runs' ends from `start`'s run on (`start` never rises between calls).
    pub fn take(&mut self, list: &List, start: usize) {
        let first = list.next_end[start];
        while self.front > first {
            self.front -= 1;
            let j = list.ends[self.front];
            self.push(j as i64 + 1, list.rank[j]);
        }
    }

    fn value(&self, at: usize, x: i64) -> f64 {
        let (c, q) = self.lines[at];
        (c + x) as f64 / q as f64
    }

    /// The best line at `x` (-inf where none), by binary search.
    pub fn best(&self, x: i64) -> f64 {
        if self.lines.is_empty() {
            return f64::NEG_INFINITY;
        }
        // the last line overtaking the one before it at x
        let (mut lo, mut hi) = (0, self.lines.len() - 1);
        while lo < hi {
            let mid = (lo + hi).div_ceil(2);
            if overtaken(self.lines[mid - 1], self.lines[mid], x) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        self.value(lo, x)
    }

    /// The best line at `x` (-inf where none), `x` no lower than at the call before (the
    /// best line only moves to steeper ones: amortized `O(1)`).
    pub fn rising(&mut self, x: i64) -> f64 {
        let lines = &self.lines;
        if lines.is_empty() {
            return f64::NEG_INFINITY;
        }
        let mut at = self.at.min(lines.len() - 1);
        while at + 1 < lines.len() && overtaken(lines[at], lines[at + 1], x) {
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
    fn windows_give_the_best_precision_of_their_range() {
        let mut rng = Rng(23);
        for _ in 0..200 {
            let n = 1 + rng.below(40) as usize;
            let list = list(&mut rng, n);
            let n = list.len();
            let (mut sliding, mut growing) = (Window::default(), Window::default());
            let (mut lo, mut hi) = (0, 0);
            let (mut glo, mut ghi) = (n / 2, n / 2);
            for _ in 0..3 * n {
                hi = (hi + rng.below(3) as usize).min(n - 1);
                lo = (lo + rng.below(2) as usize).min(hi);
                assert_eq!(sliding.sliding(&list, lo, hi), best(&list, lo, hi));
                glo = glo.saturating_sub(rng.below(2) as usize);
                ghi = (ghi + rng.below(2) as usize).min(n - 1);
                assert_eq!(growing.growing(&list, glo, ghi), best(&list, glo, ghi));
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
                x += rng.below(12) as i64;
                assert_eq!(rising.rising(x), best(x));
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
