//! What a reader may take: lines up to [`LINE_LIMIT`], and memory within the [`Budget`] of
//! its call (the memory limit of `irscale.core.budget`, shared by the files read side by
//! side). Both are checked as the text is read, a block at a time (gzip data decompressed
//! in blocks, never past either bound), so that any input, a gzip file of a few megabytes
//! that decompresses to gigabytes included, is read or refused with an error naming it: the
//! buffers whose sizes come from the input grow by fallible reservations ([`grow`]), an
//! allocation that fails being the reader's error too, never an abort of the process.

use super::error::{Kind, ReadError};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The longest line any reader takes, in bytes before its `\n`: 16 MiB, room for any
/// field (a docno of millions of characters), and small beside any machine's memory. (64
/// KiB in the unit tests, so that they read lines beyond it quickly.)
#[cfg(not(test))]
pub const LINE_LIMIT: usize = 16 << 20;
#[cfg(test)]
pub const LINE_LIMIT: usize = 64 << 10;

/// Bytes of a long line quoted in its error.
const QUOTED: usize = 96;

/// The memory the readers of one call may hold at once: the bytes of their texts and
/// parsed columns, charged as they grow ([`Charge`]).
pub struct Budget {
    limit: usize,
    held: AtomicUsize,
}

impl Budget {
    /// A budget of `limit` bytes.
    pub fn new(limit: usize) -> Budget {
        Budget {
            limit,
            held: AtomicUsize::new(0),
        }
    }

    /// No limit but the machine's (texts held by their caller: in-memory data).
    pub fn unlimited() -> Budget {
        Budget::new(usize::MAX)
    }

    /// A reader's account, empty.
    pub fn charge(&self) -> Charge<'_> {
        Charge {
            budget: self,
            bytes: 0,
        }
    }
}

/// The bytes one reader holds, given back to its [`Budget`] when dropped.
pub struct Charge<'a> {
    budget: &'a Budget,
    bytes: usize,
}

impl Charge<'_> {
    /// `bytes` more held by the reader of `source`; its memory error ([`beyond_limit`])
    /// when the budget's readers would hold more than its limit.
    pub fn add(&mut self, bytes: usize, source: &str) -> Result<(), ReadError> {
        let before = self.budget.held.fetch_add(bytes, Ordering::Relaxed);
        self.bytes += bytes;
        let held = before.saturating_add(bytes);
        if held > self.budget.limit {
            return Err(beyond_limit(source, held, self.budget.limit));
        }
        Ok(())
    }
}

impl Drop for Charge<'_> {
    fn drop(&mut self) {
        self.budget.held.fetch_sub(self.bytes, Ordering::Relaxed);
    }
}

/// The error of a reader of `source` whose call would hold `held` bytes, more than the
/// memory limit `limit` (`details`: both; Python words it with the limit's name).
pub fn beyond_limit(source: &str, held: usize, limit: usize) -> ReadError {
    let mut error = ReadError::whole(
        Kind::Memory,
        format!("more than the memory limit of {limit} bytes"),
        source,
    );
    error.details = vec![held.to_string(), limit.to_string()];
    error
}

/// The error of a reader of `source` that could not allocate `bytes` more (`details`: the
/// bytes alone).
pub fn out_of_memory(source: &str, bytes: usize) -> ReadError {
    let mut error = ReadError::whole(
        Kind::Memory,
        format!("out of memory ({bytes} bytes could not be allocated)"),
        source,
    );
    error.details = vec![bytes.to_string()];
    error
}

/// Room for `additional` more values in `column`, its growth charged to `charge` first:
/// by half its capacity at least (as a `Vec` grows, but by less than it doubles, and
/// charged by the capacity reserved, not the values held), or exactly to its need. The
/// memory error of `source` beyond the budget ([`beyond_limit`]) or the memory to be had
/// ([`out_of_memory`]).
pub fn grow<T>(
    column: &mut Vec<T>,
    additional: usize,
    charge: &mut Charge,
    source: &str,
) -> Result<(), ReadError> {
    let (length, capacity) = (column.len(), column.capacity());
    if capacity - length >= additional {
        return Ok(());
    }
    let target = length
        .saturating_add(additional)
        .max(capacity + capacity / 2);
    reserve_to(column, target, charge, source)
}

/// Room for exactly `additional` more values in `column` (a need known in full, as
/// [`grow`] but by no more), charged to `charge` first; the same errors.
pub fn reserve_exact<T>(
    column: &mut Vec<T>,
    additional: usize,
    charge: &mut Charge,
    source: &str,
) -> Result<(), ReadError> {
    let target = column.len().saturating_add(additional);
    if column.capacity() >= target {
        return Ok(());
    }
    reserve_to(column, target, charge, source)
}

/// Room for `target` values in `column` (more than its capacity), the bytes beyond its
/// capacity charged to `charge` first ([`grow`]'s errors).
fn reserve_to<T>(
    column: &mut Vec<T>,
    target: usize,
    charge: &mut Charge,
    source: &str,
) -> Result<(), ReadError> {
    let bytes = (target - column.capacity()).saturating_mul(std::mem::size_of::<T>());
    charge.add(bytes, source)?;
    column
        .try_reserve_exact(target - column.len())
        .map_err(|_| out_of_memory(source, bytes))
}

/// `count` copies of `value`, their bytes charged to `charge` first and reserved by a
/// fallible reservation ([`reserve_exact`]): a column, a table or a matrix whose size an input
/// decides (a product of its counts included, saturating) is refused with the memory error
/// of `source` beyond the budget or the memory to be had, never an abort of the process.
pub fn filled<T: Clone>(
    count: usize,
    value: T,
    charge: &mut Charge,
    source: &str,
) -> Result<Vec<T>, ReadError> {
    let mut column = Vec::new();
    reserve_exact(&mut column, count, charge, source)?;
    column.resize(count, value);
    Ok(column)
}

/// The error of the line of `source` numbered `line` (`None`: not known yet) that starts
/// with `start` and is longer than [`LINE_LIMIT`].
pub fn long_line(source: &str, line: Option<usize>, start: &[u8]) -> ReadError {
    let mut quoted = String::from_utf8_lossy(&start[..start.len().min(QUOTED)]).into_owned();
    quoted.push('…');
    ReadError {
        kind: Kind::LongLine,
        reason: format!(
            "a line longer than {}, the longest line irscale reads",
            size(LINE_LIMIT)
        ),
        source: source.to_string(),
        line,
        text: Some(quoted),
        details: Vec::new(),
    }
}

/// `bytes` as a size: `16 MiB`, `64 KiB`.
fn size(bytes: usize) -> String {
    match bytes.trailing_zeros() {
        20.. => format!("{} MiB", bytes >> 20),
        10.. => format!("{} KiB", bytes >> 10),
        _ => format!("{bytes} bytes"),
    }
}

/// The lines of a text read a block at a time, checked against [`LINE_LIMIT`]: where the
/// line that the blocks so far end within started.
#[derive(Default)]
pub struct LineCheck {
    /// Offset of the text's next block.
    at: usize,
    /// Offset of the start of the line the blocks so far end within.
    open: usize,
}

impl LineCheck {
    /// The text's next bytes, `block`: `Err` with the offset where a line longer than
    /// [`LINE_LIMIT`] starts. Windows of [`LINE_LIMIT`] bytes are looked at by their first
    /// and last line ends only (a line between the two is shorter than a window).
    pub fn feed(&mut self, block: &[u8]) -> Result<(), usize> {
        let mut from = 0;
        while from < block.len() {
            let stop = block.len().min(from + LINE_LIMIT);
            let window = &block[from..stop];
            if let Some(first) = memchr::memchr(b'\n', window) {
                if self.at + from + first - self.open > LINE_LIMIT {
                    return Err(self.open);
                }
                let last = memchr::memrchr(b'\n', window).unwrap_or(first);
                self.open = self.at + from + last + 1;
            }
            from = stop;
            if self.at + from - self.open > LINE_LIMIT {
                return Err(self.open);
            }
        }
        self.at += block.len();
        Ok(())
    }
}

/// The 1-based number of the line of `text` that starts at `offset`.
pub fn line_number(text: &[u8], offset: usize) -> usize {
    memchr::memchr_iter(b'\n', &text[..offset.min(text.len())]).count() + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first_long(text: &[u8], block: usize) -> Option<usize> {
        let mut check = LineCheck::default();
        text.chunks(block.max(1))
            .map(|b| check.feed(b))
            .find_map(Result::err)
    }

    #[test]
    fn a_line_up_to_the_limit_is_read_one_beyond_it_named_by_its_start() {
        let fit = [&b"a\n"[..], &vec![b'x'; LINE_LIMIT], b"\nb\n"].concat();
        let long = [&b"a\nb\n"[..], &vec![b'x'; LINE_LIMIT + 1], b"\nc"].concat();
        let open = [&b"a\n"[..], &vec![b'x'; LINE_LIMIT + 1]].concat();
        for block in [
            1 << 10,
            3 * LINE_LIMIT / 16,
            LINE_LIMIT,
            LINE_LIMIT + 7,
            4 * LINE_LIMIT,
        ] {
            assert_eq!(first_long(&fit, block), None, "{block}");
            assert_eq!(first_long(&long, block), Some(4), "{block}");
            assert_eq!(first_long(&open, block), Some(2), "{block}");
        }
        assert_eq!(line_number(&long, 4), 3);
        let error = long_line("r", Some(3), &long[4..]);
        assert_eq!(error.text.unwrap().chars().count(), QUOTED + 1);
        assert_eq!(
            error.reason,
            "a line longer than 64 KiB, the longest line irscale reads"
        );
        assert_eq!(
            (size(16 << 20), size(100)),
            ("16 MiB".into(), "100 bytes".into())
        );
    }

    #[test]
    fn charges_are_shared_and_given_back() {
        let budget = Budget::new(10);
        let mut one = budget.charge();
        one.add(6, "a").unwrap();
        {
            let mut two = budget.charge();
            let error = two.add(5, "b").unwrap_err();
            assert_eq!((error.kind, error.source.as_str()), (Kind::Memory, "b"));
            assert_eq!(error.details, ["11", "10"]);
        }
        one.add(4, "a").unwrap();
        drop(one);
        budget.charge().add(10, "c").unwrap();
        // columns charged by the capacity they take, growing by half at least
        let mut charge = budget.charge();
        let mut column: Vec<u16> = Vec::new();
        grow(&mut column, 2, &mut charge, "g").unwrap();
        column.extend([1, 2]);
        grow(&mut column, 1, &mut charge, "g").unwrap();
        assert_eq!((column.capacity(), charge.bytes), (3, 6));
        column.push(3);
        let error = grow(&mut column, 5, &mut charge, "g").unwrap_err();
        assert_eq!(error.details, ["16", "10"]); // 5 values of 2 bytes more than 6
        assert_eq!(column.capacity(), 3);
        let mut column: Vec<u64> = Vec::new();
        let error = grow(
            &mut column,
            usize::MAX / 16,
            &mut Budget::unlimited().charge(),
            "d",
        )
        .unwrap_err();
        assert_eq!((error.kind, error.details.len()), (Kind::Memory, 1));
        // a table whose size is beyond what any address space holds (more than isize::MAX
        // bytes): the reader's error, not an abort or a panic
        let error =
            filled(usize::MAX / 4, 0u64, &mut Budget::unlimited().charge(), "t").unwrap_err();
        assert_eq!((error.kind, error.source.as_str()), (Kind::Memory, "t"));
        assert_eq!(error.details, [usize::MAX.to_string()]);
        let error = filled(3, 0u64, &mut Budget::new(16).charge(), "t").unwrap_err();
        assert_eq!(error.details, ["24", "16"]);
        assert_eq!(
            filled(2, 7u64, &mut Budget::new(16).charge(), "t").unwrap(),
            [7, 7]
        );
    }
}
