//! Diversity (intent-aware) measures on rankings judged per intent: ndeval's (TREC Web
//! track, ndeval 4.5) and NTCIREVAL's D-measures (Sakai & Song, SIGIR 2011; Sakai 2014).
//!
//! A batch ([`Rankings`]) holds, for every ranking, its *relevant entries*
//! `(rank, intent)`: the document at `rank` is relevant to the topic's intent `intent`
//! (intents numbered `0 .. S−1` per topic, in the order of their ids), sorted by ranking,
//! rank and intent, as `irscale.measures.diversity.rankings.DiversityRankings` holds them.
//! Each ranking is computed from its own entries and its topic's intents ([`Intents`])
//! alone, so a batch is shared out between threads by whole rankings ([`per_ranking`]) and
//! the values are the same, bit for bit, whatever the thread count. Sums are made in the
//! order ndeval's and NTCIREVAL's C loops make them: ranks in order, intents in index order.

pub mod cascade;
pub mod dmeasures;
pub mod global_gains;
pub mod intent_counts;
pub mod judging;
pub mod nrbp;
pub mod run_files;

use rayon::prelude::*;

/// Entries of a batch below which threads cost more than they save.
const PARALLEL_ENTRIES: usize = 1 << 14;

/// A batch of rankings judged per intent, borrowed from numpy arrays.
#[derive(Debug, Clone)]
pub struct Rankings<'a> {
    /// Documents ranked by each ranking.
    pub lengths: &'a [i64],
    /// The topic of each ranking (an index of [`Intents`]; −1: a topic not judged).
    pub topic: &'a [i64],
    /// The relevant entries of ranking `i` are `offsets[i]..offsets[i + 1]`.
    offsets: Vec<usize>,
    /// The 1-based rank of each entry.
    pub rank: &'a [i64],
    /// The intent index of each entry.
    pub intent: &'a [i64],
}

/// The intents of the qrels topics: `n_intents[t]` intents with a relevant document
/// (ndeval's `actualSubtopics`), `nrel[t · width + j]` documents relevant to intent `j`.
#[derive(Debug, Clone, Copy)]
pub struct Intents<'a> {
    pub n_intents: &'a [i64],
    pub nrel: &'a [i64],
    pub width: usize,
}

impl<'a> Intents<'a> {
    /// Checks that `nrel` is `n_intents.len() × width`.
    pub fn new(n_intents: &'a [i64], nrel: &'a [i64], width: usize) -> Result<Self, String> {
        if nrel.len() != n_intents.len() * width {
            return Err("nrel_sub must have one row per topic, one column per intent".into());
        }
        Ok(Intents {
            n_intents,
            nrel,
            width,
        })
    }

    /// The number of intents of topic `t` with a relevant document (0 for `t` < 0).
    pub fn count(&self, t: i64) -> i64 {
        if t < 0 { 0 } else { self.n_intents[t as usize] }
    }
}

impl<'a> Rankings<'a> {
    /// The batch of `lengths.len()` rankings whose relevant entries are given by
    /// ranking (`entry_ranking`, non-decreasing), rank and intent; checked against
    /// `intents`.
    pub fn new(
        lengths: &'a [i64],
        topic: &'a [i64],
        entry_ranking: &[i64],
        rank: &'a [i64],
        intent: &'a [i64],
        intents: &Intents,
    ) -> Result<Self, String> {
        let n = lengths.len();
        if topic.len() != n {
            return Err("one topic per ranking".into());
        }
        if rank.len() != entry_ranking.len() || intent.len() != entry_ranking.len() {
            return Err("entries need a ranking, a rank and an intent each".into());
        }
        if topic
            .iter()
            .any(|&t| t < -1 || t >= intents.n_intents.len() as i64)
        {
            return Err("a ranking's topic is not a topic of the qrels".into());
        }
        let mut offsets = vec![0usize; n + 1];
        let mut previous = 0i64;
        for (e, &r) in entry_ranking.iter().enumerate() {
            if r < previous || r >= n as i64 {
                return Err("entries must come sorted by ranking, within the batch".into());
            }
            let (rk, j) = (rank[e], intent[e]);
            if rk < 1 || rk > lengths[r as usize] || j < 0 || j >= intents.width as i64 {
                return Err("an entry's rank or intent is out of range".into());
            }
            if topic[r as usize] < 0 {
                return Err("a ranking of a topic the qrels do not judge has entries".into());
            }
            offsets[r as usize + 1] += 1;
            previous = r;
        }
        for i in 0..n {
            offsets[i + 1] += offsets[i];
        }
        Ok(Rankings {
            lengths,
            topic,
            offsets,
            rank,
            intent,
        })
    }

    /// The number of rankings.
    pub fn n_rankings(&self) -> usize {
        self.lengths.len()
    }

    /// The entries of ranking `i`, as indexes of the batch's entry arrays.
    pub fn entries(&self, i: usize) -> std::ops::Range<usize> {
        self.offsets[i]..self.offsets[i + 1]
    }

    /// The most entries of one ranking.
    pub fn max_entries(&self) -> usize {
        self.offsets
            .windows(2)
            .map(|w| w[1] - w[0])
            .max()
            .unwrap_or(0)
    }

    /// The longest ranking.
    pub fn max_length(&self) -> usize {
        self.lengths.iter().copied().max().unwrap_or(0).max(0) as usize
    }

    /// Per entry of ranking `i` (in entry order): the number of earlier entries of the same
    /// intent (`c_j`, the documents relevant to `j` ranked above).
    pub fn intent_counts(&self, i: usize, width: usize) -> Vec<usize> {
        let mut seen = vec![0usize; width];
        self.entries(i)
            .map(|e| {
                let j = self.intent[e] as usize;
                seen[j] += 1;
                seen[j] - 1
            })
            .collect()
    }
}

/// `value(i)` for every ranking `i` of `batch`, on every core for large batches; the order
/// of the output is the order of the rankings whatever the thread count.
pub fn per_ranking<F>(batch: &Rankings, value: F) -> Vec<f64>
where
    F: Fn(usize) -> f64 + Sync + Send,
{
    let n = batch.n_rankings();
    if batch.rank.len() < PARALLEL_ENTRIES {
        (0..n).map(value).collect()
    } else {
        (0..n).into_par_iter().map(value).collect()
    }
}

/// The values of ndeval's family `family` (`alpha-DCG`, `alpha-nDCG`, `ERR-IA`, `nERR-IA`,
/// `NRBP`, `nNRBP`, `MAP-IA`, `P-IA`, `strec`) on `batch`, `ideal` holding the topics'
/// greedy ideal rankings (needed by the normalised families), or why it cannot be computed.
pub fn ndeval(
    family: &str,
    cutoff: Option<i64>,
    alpha: f64,
    beta: f64,
    batch: &Rankings,
    ideal: Option<&Rankings>,
    intents: &Intents,
) -> Result<Vec<f64>, String> {
    use cascade::Kind;
    let k = || match cutoff {
        Some(k) if k >= 1 => Ok(k),
        _ => Err(format!("{family} needs a positive cut-off")),
    };
    let ideal = || ideal.ok_or_else(|| format!("{family} needs the ideal rankings"));
    Ok(match family {
        "alpha-DCG" => cascade::cumulated(Kind::Dcg, alpha, k()? as usize, batch, intents),
        "ERR-IA" => cascade::cumulated(Kind::Err, alpha, k()? as usize, batch, intents),
        "alpha-nDCG" => {
            cascade::normalised(Kind::Dcg, alpha, k()? as usize, batch, ideal()?, intents)
        }
        "nERR-IA" => cascade::normalised(Kind::Err, alpha, k()? as usize, batch, ideal()?, intents),
        "NRBP" => nrbp::nrbp(alpha, beta, batch, intents),
        "nNRBP" => nrbp::nnrbp(alpha, beta, batch, ideal()?, intents),
        "MAP-IA" => intent_counts::map_ia(batch, intents),
        "P-IA" => intent_counts::precision_ia(k()?, batch, intents),
        "strec" => match cutoff {
            None => intent_counts::subtopic_recall(None, batch, intents),
            Some(_) => intent_counts::subtopic_recall(Some(k()?), batch, intents),
        },
        _ => {
            return Err(format!(
                "no native kernel for the diversity family {family:?}"
            ));
        }
    })
}

/// The values of NTCIREVAL's D-measure `family` (`D-nDCG`, `DIN-nDCG`, `D-Q`, `D-P+`,
/// `D-nERR`) on the batch of `g` at the cut-off `cutoff` (`None`: the whole ranking).
pub fn ntcir(
    family: &str,
    cutoff: Option<i64>,
    beta: f64,
    discounts: &[f64],
    g: &dmeasures::Global,
) -> Result<Vec<f64>, String> {
    if cutoff.is_some_and(|k| k < 1) {
        return Err(format!("{family} needs a positive cut-off"));
    }
    match family {
        "D-nDCG" => dmeasures::d_ndcg(g, cutoff, discounts, false),
        "DIN-nDCG" => dmeasures::d_ndcg(g, cutoff, discounts, true),
        "D-Q" => Ok(dmeasures::d_q(g, cutoff, beta)),
        "D-P+" => Ok(dmeasures::d_pplus(g, cutoff, beta)),
        "D-nERR" => Ok(dmeasures::d_nerr(g, cutoff)),
        _ => Err(format!(
            "no native kernel for the diversity family {family:?}"
        )),
    }
}

/// `[1, base, base², ...]` (`n` values) by repeated multiplication, as C loops make them.
pub fn powers(base: f64, n: usize) -> Vec<f64> {
    let mut out = Vec::with_capacity(n);
    let mut value = 1.0;
    for _ in 0..n {
        out.push(value);
        value *= base;
    }
    out
}

/// `numerator / denominator`, 0 when the denominator is 0.
pub fn ratio_or_zero(numerator: f64, denominator: f64) -> f64 {
    if denominator != 0.0 {
        numerator / denominator
    } else {
        0.0
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Topic 0: intents 0 and 1, two documents relevant to each; topic 1: no intent.
    pub const N_INTENTS: [i64; 2] = [2, 0];
    pub const NREL: [i64; 4] = [2, 2, 0, 0];

    pub fn intents() -> Intents<'static> {
        Intents::new(&N_INTENTS, &NREL, 2).unwrap()
    }

    #[test]
    fn entries_are_grouped_by_ranking() {
        let intents = intents();
        let batch = Rankings::new(
            &[3, 2],
            &[0, 1],
            &[0, 0, 0],
            &[1, 1, 3],
            &[0, 1, 0],
            &intents,
        )
        .unwrap();
        assert_eq!(batch.entries(0), 0..3);
        assert_eq!(batch.entries(1), 3..3);
        assert_eq!(batch.intent_counts(0, 2), [0, 0, 1]);
        assert_eq!(batch.max_entries(), 3);
    }

    #[test]
    fn bad_batches_are_refused() {
        let intents = intents();
        assert!(Rankings::new(&[3, 2], &[0, 0], &[1, 0], &[1, 1], &[0, 0], &intents).is_err());
        assert!(Rankings::new(&[3], &[0], &[0], &[4], &[0], &intents).is_err());
        assert!(Rankings::new(&[3], &[-1], &[0], &[1], &[0], &intents).is_err());
        assert!(Rankings::new(&[3], &[2], &[], &[], &[], &intents).is_err());
    }

    #[test]
    fn powers_multiply_in_turn() {
        assert_eq!(powers(0.5, 4), [1.0, 0.5, 0.25, 0.125]);
        assert!(powers(0.5, 0).is_empty());
    }
}
