//! Columns extended by several parts side by side: room for every part is reserved at the
//! column's end, each part's values are written into its share by a task of its own, and
//! the column's length is set once they all are. The new pages are touched (and faulted
//! in) by the pool's threads together, not by one thread after the other: joining a run's
//! blocks costs as much as copying them, and done by one thread it would bound what the
//! other threads can share.

use rayon::prelude::*;
use std::mem::MaybeUninit;

/// `column` extended by one share per part, in order: part `i`'s `lengths[i]` values are
/// those of `values(i)` (which must give exactly as many: a panic otherwise, before the
/// column's length changes). `Err` with the bytes asked for when the room for them cannot
/// be allocated (the column unchanged).
pub fn append_parts<T, I, F>(column: &mut Vec<T>, lengths: &[usize], values: F) -> Result<(), usize>
where
    T: Send,
    I: Iterator<Item = T>,
    F: Fn(usize) -> I + Sync,
{
    let total: usize = lengths.iter().sum();
    column
        .try_reserve(total)
        .map_err(|_| total.saturating_mul(std::mem::size_of::<T>()))?;
    let mut shares = Vec::with_capacity(lengths.len());
    let mut rest = &mut column.spare_capacity_mut()[..total];
    for &length in lengths {
        let (share, after) = std::mem::take(&mut rest).split_at_mut(length);
        shares.push(share);
        rest = after;
    }
    shares
        .into_par_iter()
        .enumerate()
        .for_each(|(part, share)| fill(share, values(part)));
    // SAFETY: the `total` slots past the column's length are within its capacity
    // (reserved above), and `fill` initialised every one of them (or panicked, in which
    // case this line is not reached).
    unsafe { column.set_len(column.len() + total) };
    Ok(())
}

/// Every slot of `share` written from `values`; a panic when they are not as many.
fn fill<T>(share: &mut [MaybeUninit<T>], mut values: impl Iterator<Item = T>) {
    for slot in share.iter_mut() {
        match values.next() {
            Some(value) => {
                slot.write(value);
            }
            None => panic!("a part gave fewer values than its share"),
        }
    }
    assert!(
        values.next().is_none(),
        "a part gave more values than its share"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_in_order_after_the_values_already_there() {
        let mut column = vec![1u32, 2];
        let parts: [&[u32]; 4] = [&[3, 4, 5], &[], &[6], &[7, 8]];
        let lengths: Vec<usize> = parts.iter().map(|p| p.len()).collect();
        append_parts(&mut column, &lengths, |i| parts[i].iter().map(|v| v * 10)).unwrap();
        assert_eq!(column, [1, 2, 30, 40, 50, 60, 70, 80]);
        // room that cannot be had: the column as it was
        let error = append_parts(&mut column, &[usize::MAX / 8], |_| std::iter::empty());
        assert_eq!(error, Err(usize::MAX / 8 * 4));
        assert_eq!(column.len(), 8);
    }

    #[test]
    #[should_panic(expected = "fewer values")]
    fn a_part_short_of_its_share_panics() {
        let mut column: Vec<u8> = Vec::new();
        let _ = append_parts(&mut column, &[2], |_| std::iter::once(1));
    }
}
