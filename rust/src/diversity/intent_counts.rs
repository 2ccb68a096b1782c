//! ndeval's counting measures over the relevant entries (ndeval 4.5; Agrawal et al., WSDM
//! 2009; Zhai, Cohen & Lafferty, SIGIR 2003), with `S` the topic's intents with a relevant
//! document and `R_j` the documents relevant to intent `j`:
//!
//! ```text
//! MAP-IA   = (1/S) Σ_j AP_j,  AP_j = (1/R_j) Σ_{d relevant to j} (c_j(d) + 1) / rank(d)
//! P-IA@k   = Σ_j |relevant to j in the top k| / (k·S)
//! strec@k  = |intents with a relevant document in the top k| / S    (NTCIREVAL's I-rec)
//! ```
//!
//! `c_j(d)` the documents relevant to `j` ranked above `d`; every value is 0 for a topic
//! without intents. Precisions of an intent are added in rank order, intents in index
//! order, as ndeval adds them.

use super::{Intents, Rankings, per_ranking};

/// MAP-IA of every ranking of `batch`.
pub fn map_ia(batch: &Rankings, intents: &Intents) -> Vec<f64> {
    let width = intents.width;
    per_ranking(batch, |i| {
        let t = batch.topic[i];
        let s = intents.count(t);
        if s <= 0 {
            return 0.0;
        }
        let mut totals = vec![0.0; width];
        for (e, c) in batch.entries(i).zip(batch.intent_counts(i, width)) {
            totals[batch.intent[e] as usize] += (c as f64 + 1.0) / batch.rank[e] as f64;
        }
        let nrel = &intents.nrel[t as usize * width..(t as usize + 1) * width];
        let acc = totals
            .iter()
            .zip(nrel)
            .filter(|(_, n)| **n > 0)
            .fold(0.0, |acc, (total, &n)| acc + total / n as f64);
        acc / s as f64
    })
}

/// P-IA@k of every ranking of `batch`.
pub fn precision_ia(k: i64, batch: &Rankings, intents: &Intents) -> Vec<f64> {
    per_ranking(batch, |i| {
        let s = intents.count(batch.topic[i]);
        if s <= 0 {
            return 0.0;
        }
        let count = batch.entries(i).filter(|&e| batch.rank[e] <= k).count();
        count as f64 / (k * s) as f64
    })
}

/// strec@k (I-rec@k) of every ranking of `batch`; `None`: the whole ranking.
pub fn subtopic_recall(k: Option<i64>, batch: &Rankings, intents: &Intents) -> Vec<f64> {
    let depth = k.unwrap_or(i64::MAX);
    per_ranking(batch, |i| {
        let s = intents.count(batch.topic[i]);
        if s <= 0 {
            return 0.0;
        }
        let counts = batch.intent_counts(i, intents.width);
        let covered = batch
            .entries(i)
            .zip(counts)
            .filter(|&(e, c)| c == 0 && batch.rank[e] <= depth)
            .count();
        covered as f64 / s as f64
    })
}

#[cfg(test)]
mod tests {
    use super::super::tests::intents;
    use super::*;

    // rank 1 relevant to intents 0 and 1, rank 3 to intent 0 (2 relevant documents each)
    fn batch() -> Rankings<'static> {
        Rankings::new(
            &[3, 2],
            &[0, 1],
            &[0, 0, 0],
            &[1, 1, 3],
            &[0, 1, 0],
            &intents(),
        )
        .unwrap()
    }

    #[test]
    fn map_ia_averages_the_intents_average_precision() {
        let ap0 = (1.0 + 2.0 / 3.0) / 2.0;
        let ap1 = 1.0 / 2.0;
        assert_eq!(map_ia(&batch(), &intents()), [(ap0 + ap1) / 2.0, 0.0]);
    }

    #[test]
    fn precision_and_recall_count_the_top_k() {
        let s = intents();
        assert_eq!(precision_ia(2, &batch(), &s), [2.0 / 4.0, 0.0]);
        assert_eq!(precision_ia(3, &batch(), &s), [3.0 / 6.0, 0.0]);
        assert_eq!(subtopic_recall(Some(1), &batch(), &s), [1.0, 0.0]);
        assert_eq!(subtopic_recall(None, &batch(), &s), [1.0, 0.0]);
    }
}
