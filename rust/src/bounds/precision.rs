//! The chains of `Rprec` (`h(min(n, R)) / R`), `recall` (`h(c) / R`) and `relative_P`
//! (`h(c) / min(c, R)`), `h(m)` the relevant documents of the first `m` at the slot
//! ([`Binary::hits`]): each one division of two counts, as the kernels divide.

use super::{Binary, Pair, ratio};

/// `Rprec` along both families.
pub fn r_precision(binary: &Binary) -> Vec<Pair> {
    vec![Pair::of(binary.ranking.u(), |k, suffix| {
        let recall_base = binary.recall_base(k, suffix);
        ratio(
            binary.hits(recall_base, k, suffix) as f64,
            recall_base as f64,
        )
    })]
}

/// `recall` (or `relative_P`: `relative`) at each cut-off, along both families.
pub fn recall(binary: &Binary, cuts: &[i64], relative: bool) -> Vec<Pair> {
    cuts.iter()
        .map(|&cut| {
            Pair::of(binary.ranking.u(), |k, suffix| {
                let recall_base = binary.recall_base(k, suffix);
                let hits = binary.hits(cut, k, suffix) as f64;
                ratio(
                    hits,
                    if relative {
                        cut.min(recall_base)
                    } else {
                        recall_base
                    } as f64,
                )
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::Chain;
    use super::super::testing::*;

    #[test]
    fn chains_are_the_kernels_values_bit_for_bit() {
        let mut rng = Rng(5);
        for _ in 0..60 {
            let case = Case::random(&mut rng, 3, 30);
            case.compare(&Chain::PrecisionOfR, "Rprec", &[], &[], same);
            let cuts = [5, 1, 20];
            case.compare(
                &Chain::Recall(cuts.to_vec(), false),
                "recall",
                &cuts,
                &[],
                same,
            );
            case.compare(
                &Chain::Recall(cuts.to_vec(), true),
                "relative_P",
                &cuts,
                &[],
                same,
            );
        }
    }
}
