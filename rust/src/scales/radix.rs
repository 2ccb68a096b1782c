//! Least-significant-digit radix sort of 32-bit keys (with or without a payload), the sort
//! of the pair engine's sub-buckets ([`super::int_pairs`]): a sub-bucket holds a few
//! thousand keys, so its arrays and digit counts stay in the cache.

/// An entry sorted by a 32-bit key: the key alone, or the key with a run count.
pub trait Keyed: Copy + Default {
    fn key(&self) -> u32;
}

impl Keyed for u32 {
    #[inline]
    fn key(&self) -> u32 {
        *self
    }
}

/// A key below 2^32 held in 64 bits, with a row (`crate::ties`: a score's key offset from
/// the least of its ranking).
impl Keyed for (u64, u32) {
    #[inline]
    fn key(&self) -> u32 {
        self.0 as u32
    }
}

impl Keyed for (u32, i64) {
    #[inline]
    fn key(&self) -> u32 {
        self.0
    }
}

/// Below this many entries a comparison sort is faster than counting digits.
const SMALL: usize = 256;
/// Widest digit of a pass (2,048 counters: 8 KB, in the first-level cache).
const DIGIT_BITS: u32 = 11;

/// Sorts `data` by key (ascending; equal keys in any order), the keys being below
/// `2^bits`; `scratch` is a buffer reused from call to call.
pub fn sort<T: Keyed>(data: &mut [T], scratch: &mut Vec<T>, bits: u32) {
    let n = data.len();
    if n < SMALL || bits == 0 {
        if bits > 0 {
            data.sort_unstable_by_key(|e| e.key());
        }
        return;
    }
    let passes = bits.div_ceil(DIGIT_BITS);
    let width = bits.div_ceil(passes);
    let radix = 1usize << width;
    let mask = (radix - 1) as u32;
    // every pass's digit counts in one read of the keys
    let mut counts = vec![0usize; radix * passes as usize];
    for e in data.iter() {
        let k = e.key();
        for p in 0..passes {
            counts[p as usize * radix + ((k >> (p * width)) & mask) as usize] += 1;
        }
    }
    scratch.clear();
    scratch.resize(n, T::default());
    let mut src_is_data = true;
    for p in 0..passes {
        let count = &mut counts[p as usize * radix..(p as usize + 1) * radix];
        if count.contains(&n) {
            continue; // every key has this digit: the order stays
        }
        let mut at = 0usize;
        for c in count.iter_mut() {
            let here = *c;
            *c = at;
            at += here;
        }
        let shift = p * width;
        let (src, dst): (&[T], &mut [T]) = if src_is_data {
            (&*data, &mut scratch[..])
        } else {
            (&scratch[..], &mut *data)
        };
        for e in src {
            let d = ((e.key() >> shift) & mask) as usize;
            dst[count[d]] = *e;
            count[d] += 1;
        }
        src_is_data = !src_is_data;
    }
    if !src_is_data {
        data.copy_from_slice(&scratch[..n]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lcg(seed: &mut u64) -> u32 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (*seed >> 32) as u32
    }

    #[test]
    fn sorts_like_the_standard_sort() {
        let mut seed = 7u64;
        let mut scratch = Vec::new();
        for (n, bits) in [
            (0, 5),
            (10, 3),
            (300, 1),
            (5000, 32),
            (70000, 22),
            (4096, 11),
        ] {
            let mut data: Vec<u32> = (0..n)
                .map(|_| {
                    let v = lcg(&mut seed);
                    if bits == 32 {
                        v
                    } else {
                        v & ((1u32 << bits) - 1)
                    }
                })
                .collect();
            let mut expected = data.clone();
            expected.sort();
            sort(&mut data, &mut scratch, bits);
            assert_eq!(data, expected, "n={n} bits={bits}");
        }
    }

    #[test]
    fn payloads_follow_their_keys() {
        let mut seed = 3u64;
        let mut scratch = Vec::new();
        let mut data: Vec<(u32, i64)> = (0..3000)
            .map(|i| (lcg(&mut seed) & 0xfff, i as i64))
            .collect();
        let before: i64 = data.iter().map(|e| e.1 * e.0 as i64).sum();
        sort(&mut data, &mut scratch, 12);
        assert!(data.windows(2).all(|w| w[0].0 <= w[1].0));
        assert_eq!(before, data.iter().map(|e| e.1 * e.0 as i64).sum::<i64>());
    }
}
