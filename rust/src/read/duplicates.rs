//! A (topic, docno) pair listed twice, named as the Python readers name it
//! (`irscale.core._columnar.duplicates.resolve_duplicates`): of the pairs listed more
//! than once, the one listed first, at its second occurrence.

use super::topics::Groups;
use rayon::prelude::*;
use rustc_hash::FxHashMap;

/// `(first row, second row)` of the duplicated pair listed first, or `None`; `docno(row)`
/// is the docno of a row. `Err` with the bytes of a topic's table of docnos that could not
/// be allocated.
pub fn first_duplicate<'a>(
    groups: &Groups,
    docno: impl Fn(u32) -> &'a [u8] + Sync,
) -> Result<Option<(u32, u32)>, usize> {
    let found = (0..groups.len())
        .into_par_iter()
        .map(|t| {
            let rows = groups.rows_of(t);
            let mut seen: FxHashMap<&[u8], u32> = FxHashMap::default();
            seen.try_reserve(rows.len())
                .map_err(|_| rows.len().saturating_mul(TABLE_ROW))?;
            let mut found: Option<(u32, u32)> = None;
            for row in rows {
                let first = *seen.entry(docno(row)).or_insert(row);
                if first != row && found.is_none_or(|best| (first, row) < best) {
                    found = Some((first, row));
                }
            }
            Ok(found)
        })
        .collect::<Result<Vec<_>, usize>>()?;
    Ok(found.into_iter().flatten().min())
}

/// Bytes a row takes in a table of docnos, at most (a key, a row, a control byte; twice
/// as many slots as rows, at worst).
pub const TABLE_ROW: usize = 64;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pair_listed_first_at_its_second_occurrence() {
        // rows: (t0, b) (t0, a) (t1, a) (t0, a) (t0, b) (t1, a)
        let topic = [0, 0, 1, 0, 0, 1];
        let docno: [&[u8]; 6] = [b"b", b"a", b"a", b"a", b"b", b"a"];
        let groups = Groups::of(&topic, 2);
        assert_eq!(
            first_duplicate(&groups, |row| docno[row as usize]),
            Ok(Some((0, 4)))
        );
        assert_eq!(
            first_duplicate(&Groups::of(&topic[..3], 2), |row| docno[row as usize]),
            Ok(None)
        );
    }
}
