//! Global gains (Sakai & Song, SIGIR 2011; Sakai 2014, eq. 27): a document's gain summed
//! over the topic's intents, weighted by the intent probabilities,
//!
//! ```text
//! GG(d) = Σ_i Pr(i|q)·gv(x_i(d))        (intents added in index order)
//! ```
//!
//! for the run's documents ([`run_gains`]; with NTCIREVAL's DIN variant, eq. 32, a
//! navigational intent gains at its first relevant document only) and for the topic's
//! globally ideal list ([`IdealLists`]: its documents of positive global gain, by
//! decreasing GG). `gv` is the gain map's value of the per-intent level, given per entry
//! (and per relevant document and intent for the ideal lists) by the caller.

use super::Rankings;

/// The intent weights and types of the qrels topics, `topics × width`, row-major.
#[derive(Debug, Clone, Copy)]
pub struct Weights<'a> {
    /// Pr(j|q) of intent `j` of topic `t` at `t · width + j`.
    pub probability: &'a [f64],
    /// True for a navigational intent.
    pub navigational: &'a [bool],
    pub width: usize,
}

impl Weights<'_> {
    fn at(&self, t: i64, j: i64) -> usize {
        t as usize * self.width + j as usize
    }
}

/// `(rank, GG)` of every rank of ranking `i` with a positive global gain (`entry_gain`:
/// gv of each entry's level; `din`: NTCIREVAL's DIN global gain).
pub fn run_gains(
    batch: &Rankings,
    i: usize,
    entry_gain: &[f64],
    weights: &Weights,
    din: bool,
) -> Vec<(i64, f64)> {
    let t = batch.topic[i];
    let counts = if din {
        batch.intent_counts(i, weights.width)
    } else {
        Vec::new()
    };
    let mut out: Vec<(i64, f64)> = Vec::new();
    for (n, e) in batch.entries(i).enumerate() {
        let at = weights.at(t, batch.intent[e]);
        let term = if din && weights.navigational[at] && counts[n] > 0 {
            0.0
        } else {
            weights.probability[at] * entry_gain[e]
        };
        match out.last_mut() {
            Some((rank, gg)) if *rank == batch.rank[e] => *gg += term,
            _ => out.push((batch.rank[e], 0.0 + term)),
        }
    }
    out.retain(|&(_, gg)| gg > 0.0);
    out
}

/// The globally ideal list of every qrels topic: its documents' positive global gains in
/// decreasing order.
#[derive(Debug, Clone)]
pub struct IdealLists {
    offsets: Vec<usize>,
    gains: Vec<f64>,
}

impl IdealLists {
    /// The lists of `n_topics` topics from their relevant documents: the topic of each
    /// (`rel_topic`) and gv of its level for each intent (`rel_gain`, `width` per document).
    pub fn new(
        n_topics: usize,
        rel_topic: &[i64],
        rel_gain: &[f64],
        weights: &Weights,
    ) -> Result<Self, String> {
        let width = weights.width;
        if rel_gain.len() != rel_topic.len() * width {
            return Err("rel_gain must have one row per relevant document".into());
        }
        if weights.probability.len() != n_topics * width
            || weights.navigational.len() != n_topics * width
        {
            return Err("weights and types must have one row per topic".into());
        }
        let mut lists: Vec<Vec<f64>> = vec![Vec::new(); n_topics];
        for (d, &t) in rel_topic.iter().enumerate() {
            if t < 0 || t as usize >= n_topics {
                return Err("a relevant document's topic is not a topic of the qrels".into());
            }
            let gg = (0..width).fold(0.0, |gg, j| {
                gg + weights.probability[weights.at(t, j as i64)] * rel_gain[d * width + j]
            });
            if gg > 0.0 {
                lists[t as usize].push(gg);
            }
        }
        let mut offsets = vec![0usize];
        let mut gains = Vec::with_capacity(rel_topic.len());
        for mut list in lists {
            list.sort_by(|a, b| b.total_cmp(a));
            gains.extend(list);
            offsets.push(gains.len());
        }
        Ok(IdealLists { offsets, gains })
    }

    /// Topic `t`'s list (empty for `t` < 0).
    pub fn of(&self, t: i64) -> &[f64] {
        if t < 0 {
            &[]
        } else {
            &self.gains[self.offsets[t as usize]..self.offsets[t as usize + 1]]
        }
    }

    /// The longest list.
    pub fn max_length(&self) -> usize {
        self.offsets
            .windows(2)
            .map(|w| w[1] - w[0])
            .max()
            .unwrap_or(0)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::super::tests::intents;
    use super::*;

    pub const PROBABILITY: [f64; 4] = [0.75, 0.25, 0.0, 0.0];
    pub const NAVIGATIONAL: [bool; 4] = [false, true, false, false];

    pub fn weights() -> Weights<'static> {
        Weights {
            probability: &PROBABILITY,
            navigational: &NAVIGATIONAL,
            width: 2,
        }
    }

    #[test]
    fn global_gains_weigh_the_intents() {
        // rank 1: intents 0 (level 2) and 1 (level 1); rank 2: intent 1 (level 1)
        let batch =
            Rankings::new(&[3], &[0], &[0, 0, 0], &[1, 1, 2], &[0, 1, 1], &intents()).unwrap();
        let gains = [2.0, 1.0, 1.0];
        assert_eq!(
            run_gains(&batch, 0, &gains, &weights(), false),
            [(1, 1.75), (2, 0.25)]
        );
        // the navigational intent 1 gains at its first relevant document only
        assert_eq!(run_gains(&batch, 0, &gains, &weights(), true), [(1, 1.75)]);
    }

    #[test]
    fn ideal_lists_sort_by_decreasing_gain() {
        let lists =
            IdealLists::new(2, &[0, 0, 0], &[0.0, 1.0, 2.0, 1.0, 0.0, 0.0], &weights()).unwrap();
        assert_eq!(lists.of(0), [1.75, 0.25]);
        assert!(lists.of(1).is_empty() && lists.of(-1).is_empty());
        assert_eq!(lists.max_length(), 2);
    }
}
