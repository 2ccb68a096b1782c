//! A (topic, docno) pair listed twice, named as the Python readers name it
//! (`irscale.core._columnar.duplicates.resolve_duplicates`): of the pairs listed more
//! than once, the one listed first, at its second occurrence.

use super::topics::Groups;
use rayon::prelude::*;
use rustc_hash::FxBuildHasher;
use std::hash::BuildHasher;

/// An empty slot of a table of rows (no row is numbered `u32::MAX`: a file of more rows
/// is refused).
const EMPTY: u32 = u32::MAX;

/// `(first row, second row)` of the duplicated pair listed first, or `None`; `docno(row)`
/// is the docno of a row. `Err` with the bytes of a topic's table of docnos that could not
/// be allocated.
///
/// Each topic's rows are put in a table of rows at least twice as large, open addressing
/// by the hash of their docnos (linear probing): a row whose docno is found there is the
/// second of a pair, the row found its first. A thread reuses its table from topic to
/// topic (a track's 1,000 rows a topic: 8 KB), and hashes each docno once.
pub fn first_duplicate<'a>(
    groups: &Groups,
    docno: impl Fn(u32) -> &'a [u8] + Sync,
) -> Result<Option<(u32, u32)>, usize> {
    let found = (0..groups.len())
        .into_par_iter()
        .map_init(Vec::new, |table: &mut Vec<u32>, t| {
            let rows = groups.rows_of(t);
            let slots = (2 * rows.len()).next_power_of_two().max(16);
            table.clear();
            table
                .try_reserve(slots)
                .map_err(|_| rows.len().saturating_mul(TABLE_ROW))?;
            table.resize(slots, EMPTY);
            let mask = slots - 1;
            let mut found: Option<(u32, u32)> = None;
            for row in rows {
                let key = docno(row);
                let mut at = FxBuildHasher.hash_one(key) as usize & mask;
                loop {
                    let first = table[at];
                    if first == EMPTY {
                        table[at] = row;
                        break;
                    }
                    if docno(first) == key {
                        if found.is_none_or(|best| (first, row) < best) {
                            found = Some((first, row));
                        }
                        break;
                    }
                    at = (at + 1) & mask;
                }
            }
            Ok(found)
        })
        .collect::<Result<Vec<_>, usize>>()?;
    Ok(found.into_iter().flatten().min())
}

/// Bytes a row takes in a table of docnos, at most (the budget's bound: a hash table's
/// key, row and control byte, twice as many slots as rows at worst; [`first_duplicate`]'s
/// table of rows takes 16 at most).
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

    #[test]
    fn the_table_finds_what_comparing_every_pair_finds() {
        // topics of many rows and few distinct docnos (probes past occupied slots), or of
        // distinct ones: the pair of the least (first, second) rows, as the definition
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        for round in 0..100 {
            let rows = 1 + round * 5;
            let spread = if round % 3 == 0 {
                1 << 20
            } else {
                3 * rows as u64
            };
            let mut next = || {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state
            };
            let topic: Vec<u32> = (0..rows).map(|_| (next() % 4) as u32).collect();
            let names: Vec<Vec<u8>> = (0..rows)
                .map(|_| format!("d{}", next() % spread).into_bytes())
                .collect();
            let groups = Groups::of(&topic, 4);
            let expected = (0..rows)
                .flat_map(|b| (0..b).map(move |a| (a, b)))
                .filter(|&(a, b)| topic[a] == topic[b] && names[a] == names[b])
                .map(|(a, b)| {
                    let first = (0..a + 1)
                        .find(|&f| topic[f] == topic[a] && names[f] == names[a])
                        .unwrap();
                    (first as u32, b as u32)
                })
                .min();
            let found = first_duplicate(&groups, |row| &names[row as usize][..]);
            assert_eq!(found, Ok(expected), "round {round}");
        }
    }
}
