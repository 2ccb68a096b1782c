//! ndeval's α-DCG and ERR-IA at a cut-off, and their normalisations by the greedy ideal
//! ranking (α-nDCG, nERR-IA) (ndeval 4.5; Clarke et al., SIGIR 2008; Chapelle et al.,
//! CIKM 2009).
//!
//! A document relevant to intent `j` gains `(1 − α)^{c_j}`, `c_j` the documents relevant
//! to `j` ranked above it; `score_i` is the sum of these gains at rank `i` (intents in
//! index order). With `disc(i) = log 2 / log(i + 1)` (1 at rank 1) and `S` the topic's
//! intents with a relevant document:
//!
//! ```text
//! α-DCG@k  = Σ_{i≤k} score_i·disc(i) / Σ_{i≤k} S(1 − α)^{i−1}·disc(i)
//! ERR-IA@k = Σ_{i≤k} score_i / i     / Σ_{i≤k} S(1 − α)^{i−1} / i
//! ```
//!
//! normalised by ndeval's "ideal ideal" sums, except at k = 1 where ndeval leaves the sum
//! as it is; 0 for a topic without intents. α-nDCG@k and nERR-IA@k divide the run's value
//! by that of the topic's greedy ideal ranking, and are 0 where the run's α-DCG@k is 0.

use super::{Intents, Rankings, per_ranking, powers};

/// Which cumulated sum: α-DCG (`disc(i)`) or ERR-IA (`1/i`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Dcg,
    Err,
}

/// ndeval's discount of rank `i + 1` for `i < depth`: `log(2)/log(i + 2)` (1 at `i = 0`).
pub fn discounts(depth: usize) -> Vec<f64> {
    (0..depth)
        .map(|i| {
            if i == 0 {
                1.0
            } else {
                2f64.ln() / (i as f64 + 2.0).ln()
            }
        })
        .collect()
}

/// `visit(rank, score)` for every rank of ranking `i` up to `depth` holding a relevant
/// document, in rank order, `gain[c]` being `(1 − α)^c`.
pub fn scores_upto(
    batch: &Rankings,
    i: usize,
    width: usize,
    gain: &[f64],
    depth: i64,
    mut visit: impl FnMut(i64, f64),
) {
    let mut seen = vec![0usize; width];
    let mut current: Option<(i64, f64)> = None;
    for e in batch.entries(i) {
        let rank = batch.rank[e];
        if rank > depth {
            break;
        }
        let j = batch.intent[e] as usize;
        let g = gain[seen[j]];
        seen[j] += 1;
        current = match current {
            Some((r, score)) if r == rank => Some((r, score + g)),
            Some((r, score)) => {
                visit(r, score);
                Some((rank, 0.0 + g))
            }
            None => Some((rank, 0.0 + g)),
        };
    }
    if let Some((r, score)) = current {
        visit(r, score);
    }
}

/// `(rank, score)` of every rank of ranking `i` holding a relevant document.
pub fn position_scores(batch: &Rankings, i: usize, width: usize, gain: &[f64]) -> Vec<(i64, f64)> {
    let mut out = Vec::new();
    scores_upto(batch, i, width, gain, i64::MAX, |rank, score| {
        out.push((rank, score))
    });
    out
}

/// The shared tables of one α over a batch.
pub struct Cascade {
    kind: Kind,
    alpha: f64,
    gain: Vec<f64>,
    disc: Vec<f64>,
}

impl Cascade {
    /// The tables of `kind` at `alpha` for cut-off `k` on `batch`.
    pub fn new(kind: Kind, alpha: f64, k: usize, batch: &Rankings) -> Self {
        Cascade {
            kind,
            alpha,
            gain: powers(1.0 - alpha, batch.max_entries() + 1),
            disc: discounts(k.max(1)),
        }
    }

    fn term(&self, value: f64, i: usize) -> f64 {
        match self.kind {
            Kind::Dcg => value * self.disc[i],
            Kind::Err => value / (i as f64 + 1.0),
        }
    }

    /// The value at cut-off `k` of ranking `i`.
    pub fn value(&self, batch: &Rankings, intents: &Intents, i: usize, k: usize) -> f64 {
        let s = intents.count(batch.topic[i]);
        if s <= 0 {
            return 0.0;
        }
        let mut sum = 0.0;
        scores_upto(
            batch,
            i,
            intents.width,
            &self.gain,
            k as i64,
            |rank, score| sum += self.term(score, rank as usize - 1),
        );
        if k <= 1 {
            return sum;
        }
        // the "ideal ideal": S, S(1 − α), S(1 − α)², ... discounted and cumulated
        let mut ideal = 0.0;
        let mut at = s as f64;
        for d in 0..k {
            if d > 0 {
                at *= 1.0 - self.alpha;
            }
            ideal += self.term(at, d);
        }
        sum / ideal
    }

    /// The value at cut-off `k` of every ranking of `batch`.
    pub fn values(&self, batch: &Rankings, intents: &Intents, k: usize) -> Vec<f64> {
        per_ranking(batch, |i| self.value(batch, intents, i, k))
    }
}

/// α-DCG@k (`Kind::Dcg`) or ERR-IA@k (`Kind::Err`) of every ranking of `batch`.
pub fn cumulated(
    kind: Kind,
    alpha: f64,
    k: usize,
    batch: &Rankings,
    intents: &Intents,
) -> Vec<f64> {
    Cascade::new(kind, alpha, k, batch).values(batch, intents, k)
}

/// α-nDCG@k or nERR-IA@k: the run's value over that of its topic's ranking in `ideal`
/// (ranking `t` of `ideal` is topic `t`'s greedy ideal ranking), 0 where the run's α-DCG@k
/// is 0.
pub fn normalised(
    kind: Kind,
    alpha: f64,
    k: usize,
    batch: &Rankings,
    ideal: &Rankings,
    intents: &Intents,
) -> Vec<f64> {
    let best = cumulated(kind, alpha, k, ideal, intents);
    let dcg = Cascade::new(Kind::Dcg, alpha, k, batch);
    let own = Cascade::new(kind, alpha, k, batch);
    per_ranking(batch, |i| {
        let gate = if kind == Kind::Dcg {
            None
        } else {
            Some(dcg.value(batch, intents, i, k))
        };
        let value = own.value(batch, intents, i, k);
        if gate.unwrap_or(value) != 0.0 {
            value / best[batch.topic[i] as usize]
        } else {
            0.0
        }
    })
}

#[cfg(test)]
mod tests {
    use super::super::tests::intents;
    use super::*;

    // ranking 0: rank 1 relevant to intents 0 and 1, rank 3 to intent 0; ranking 1: unjudged
    fn batch() -> Rankings<'static> {
        Rankings::new(
            &[3, 2],
            &[0, -1],
            &[0, 0, 0],
            &[1, 1, 3],
            &[0, 1, 0],
            &intents(),
        )
        .unwrap()
    }

    #[test]
    fn scores_decay_with_earlier_documents_of_the_intent() {
        let gain = powers(0.5, 4);
        assert_eq!(position_scores(&batch(), 0, 2, &gain), [(1, 2.0), (3, 0.5)]);
    }

    #[test]
    fn alpha_dcg_is_normalised_by_the_ideal_ideal() {
        let (b, s) = (batch(), intents());
        let d3 = 2f64.ln() / 4f64.ln();
        let d2 = 2f64.ln() / 3f64.ln();
        let value = (2.0 + 0.5 * d3) / (2.0 + 1.0 * d2 + 0.5 * d3);
        assert_eq!(cumulated(Kind::Dcg, 0.5, 3, &b, &s), [value, 0.0]);
        // at k = 1 the sum is left unnormalised
        assert_eq!(cumulated(Kind::Dcg, 0.5, 1, &b, &s), [2.0, 0.0]);
        let err = (2.0 + 0.5 / 3.0) / (2.0 + 1.0 / 2.0 + 0.5 / 3.0);
        assert_eq!(cumulated(Kind::Err, 0.5, 3, &b, &s), [err, 0.0]);
    }

    #[test]
    fn normalised_values_divide_by_the_ideal_ranking() {
        let s = intents();
        // the ideal of topic 0 ranks the document of both intents, then one of intent 1
        let ideal =
            Rankings::new(&[3, 0], &[0, 1], &[0, 0, 0], &[1, 1, 2], &[0, 1, 1], &s).unwrap();
        let run = cumulated(Kind::Dcg, 0.5, 3, &batch(), &s)[0];
        let best = cumulated(Kind::Dcg, 0.5, 3, &ideal, &s)[0];
        assert_eq!(
            normalised(Kind::Dcg, 0.5, 3, &batch(), &ideal, &s),
            [run / best, 0.0]
        );
    }
}
