//! The fast pass over a file's lines (what the Python readers' columnar parse accepts),
//! and the checks that follow it, in the Python readers' order.

use super::diagnose::{Check, diagnose, nul_line};
use super::error::{Kind, ReadError};
use super::fields::{Format, python_space, record_fields};
use super::lines::{Lines, line_text};
use rayon::prelude::*;

/// The UTF-8 byte order mark, dropped from the start of a file's text.
const BOM: &[u8] = b"\xef\xbb\xbf";

/// What the fast pass found.
#[derive(Debug, Default)]
pub struct Scan {
    /// Data lines read.
    pub rows: usize,
    /// A line that the fast pass cannot take (field count, typed field, UTF-8 of a text
    /// field): the file is then diagnosed.
    pub misfit: bool,
    /// A NUL byte anywhere in the text (the one rule of every text reader).
    pub nul: bool,
}

impl Scan {
    /// What the passes over consecutive pieces of a text found together.
    pub fn merge(&mut self, other: &Scan) {
        self.rows += other.rows;
        self.misfit |= other.misfit;
        self.nul |= other.nul;
    }
}

/// Bytes of a text parsed as one piece (whole lines): a piece per task, enough pieces
/// for every thread to get several. (A few lines in the unit tests, so that they read
/// every text in several pieces.)
#[cfg(not(test))]
const PIECE: usize = 1 << 22;
#[cfg(test)]
const PIECE: usize = 16;

/// `data` cut after newlines into pieces of about [`PIECE`] bytes or more (a piece per
/// thread at least), each with a bound on the records it holds (its line ends, `\n` or
/// `\r`, and one).
pub fn pieces(data: &[u8]) -> Vec<(&[u8], usize)> {
    let size = PIECE.max(data.len() / (4 * rayon::current_num_threads()).max(1));
    let mut cuts = Vec::new();
    let mut start = 0;
    while start < data.len() {
        let end = (start + size)
            .min(data.len())
            .max(start + 1)
            .min(data.len());
        let end = match memchr::memchr(b'\n', &data[end - 1..]) {
            Some(at) => end + at,
            None => data.len(),
        };
        cuts.push(&data[start..end]);
        start = end;
    }
    cuts.into_par_iter()
        .map(|piece| (piece, memchr::memchr2_iter(b'\n', b'\r', piece).count() + 1))
        .collect()
}

/// The bound on the records of the pieces `cut` of a text, which rows are numbered by
/// (`u32`): a text of more lines is refused rather than misread.
pub fn record_bound(
    cut: &[(&[u8], usize)],
    source: &str,
    format: &Format,
) -> Result<usize, ReadError> {
    let bound: usize = cut.iter().map(|(_, n)| n).sum();
    if bound > u32::MAX as usize {
        return Err(ReadError::whole(
            Kind::Format,
            format!(
                "{} of more than {} lines: too many for one file",
                format.what,
                u32::MAX
            ),
            source,
        ));
    }
    Ok(bound)
}

/// Splits every line of `data` into its `N` fields and hands them to `row`, which returns
/// false when a typed field does not parse; stops at the first line that does not fit.
/// `first`: `data` starts the text (its first line may start with a byte order mark).
pub fn scan<'a, const N: usize>(
    data: &'a [u8],
    first: bool,
    format: &Format,
    row: impl FnMut(&[&'a [u8]; N]) -> bool,
) -> Scan {
    scan_into(data, first, format.texts, &mut [&b""[..]; N], row)
}

/// [`scan`] with the fields of a line held by `fields` (an array of `N` fields, or a
/// vector of as many as a file's lines hold, known when it is read): a line must hold as
/// many fields as `fields` has room for; `texts` are the fields read as text (UTF-8). A
/// NUL byte anywhere in `data` is noted, whether or not its field is read.
pub fn scan_into<'a, F: AsRef<[&'a [u8]]> + AsMut<[&'a [u8]]> + ?Sized>(
    data: &'a [u8],
    first: bool,
    texts: &[usize],
    fields: &mut F,
    mut row: impl FnMut(&F) -> bool,
) -> Scan {
    let utf8 = std::str::from_utf8(data).is_ok();
    let n = fields.as_ref().len();
    let mut scan = Scan {
        nul: memchr::memchr(0, data).is_some(),
        ..Scan::default()
    };
    // the records of the columnar parse of the Python readers: lines ended by `\n`,
    // `\r\n` or a lone `\r` (pyarrow's CSV reader)
    let mut at = if first && data.starts_with(BOM) {
        BOM.len()
    } else {
        0
    };
    while at < data.len() {
        let (count, next) = record_fields(data, at, fields.as_mut());
        at = next;
        if count == 0 {
            continue;
        }
        let line = fields.as_ref();
        let texts_fit = count == n
            && texts
                .iter()
                .all(|&i| utf8 || std::str::from_utf8(line[i]).is_ok());
        if !texts_fit || !row(fields) {
            scan.misfit = true;
            return scan;
        }
        scan.rows += 1;
    }
    scan
}

/// The error of a file after its fast pass, if any: a line that did not fit is diagnosed
/// (a file of white space only, as Python's `bytes.strip` sees it, is empty); then no data line, then a NUL byte.
pub fn verdict(
    data: &[u8],
    source: &str,
    format: &Format,
    checks: &[(usize, Check)],
    scan: &Scan,
) -> Result<(), ReadError> {
    let empty = || {
        ReadError::whole(
            Kind::Empty,
            format!("empty {}: no data line", format.what),
            source,
        )
    };
    if scan.misfit {
        if data
            .iter()
            .all(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c))
        {
            return Err(empty());
        }
        return Err(diagnose(data, source, format, checks).unwrap_or_else(|| {
            ReadError::whole(
                Kind::Format,
                format!(
                    "cannot parse {}: a line does not split into its fields",
                    format.what
                ),
                source,
            )
        }));
    }
    if scan.rows == 0 {
        return Err(empty());
    }
    if scan.nul {
        return Err(nul_line(data, source));
    }
    Ok(())
}

/// The line number and text of data line `row` (0-based) of `data`, as the Python readers
/// name it (`line_of_record`): the `row`-th line, counted by `\n`, that is not blank in
/// Python's white space.
pub fn row_line(data: &[u8], row: usize) -> (usize, String) {
    Lines::new(data)
        .map(|(number, line)| (number, line_text(line)))
        .filter(|(_, text)| !text.trim_matches(python_space).is_empty())
        .nth(row)
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    const FORMAT: Format = Format {
        what: "pairs",
        names: &["a", "b"],
        texts: &[0],
    };

    #[test]
    fn rows_of_the_fast_pass() {
        let mut seen = Vec::new();
        let data = b"\xef\xbb\xbfx 1\r\n\n  \t\ny\t2";
        let found = scan(data, true, &FORMAT, |f: &[&[u8]; 2]| {
            seen.push((f[0].to_vec(), f[1].to_vec()));
            true
        });
        assert_eq!((found.rows, found.misfit, found.nul), (2, false, false));
        assert_eq!(seen[0], (b"x".to_vec(), b"1".to_vec()));
        assert_eq!(row_line(data, 1), (4, "y\t2".to_string()));
        assert!(verdict(data, "f", &FORMAT, &[], &found).is_ok());
    }

    #[test]
    fn records_fit_the_bound_of_their_piece() {
        let data = b"x 1\ry 2\rz 3";
        let cut = pieces(data);
        assert_eq!(cut, [(&data[..], 3)]);
    }

    #[test]
    fn a_lone_return_ends_a_record() {
        let data = b"x 1\ry 2\r\n\x0b\nz 3";
        let found = scan(data, true, &FORMAT, |_: &[&[u8]; 2]| true);
        assert!(found.misfit); // the line of a vertical tab: one field
        let data = b"x 1\ry 2\r\nz 3";
        let found = scan(data, true, &FORMAT, |_: &[&[u8]; 2]| true);
        assert_eq!((found.rows, found.misfit), (3, false));
        // named as the Python readers name it: by lines
        assert_eq!(row_line(data, 1), (2, "z 3".to_string()));
    }

    #[test]
    fn pieces_of_whole_lines() {
        let data = b"a 1\nb 2\n".repeat(1 << 10);
        let cut = pieces(&data);
        assert!(cut.len() > 1);
        assert_eq!(cut.iter().map(|(p, _)| p.len()).sum::<usize>(), data.len());
        assert!(cut.iter().all(|(p, _)| p.ends_with(b"\n")));
        assert_eq!(cut.iter().map(|(_, n)| n - 1).sum::<usize>(), 1 << 11);
        assert_eq!(pieces(b"x"), [(&b"x"[..], 1)]);
    }

    #[test]
    fn empty_and_nul_files() {
        let found = scan(b" \n\t\n", true, &FORMAT, |_: &[&[u8]; 2]| true);
        let error = verdict(b" \n\t\n", "f", &FORMAT, &[], &found).unwrap_err();
        assert_eq!(
            (error.kind, error.reason.as_str()),
            (Kind::Empty, "empty pairs: no data line")
        );
        let data = b"x 1\nx\x00y 2\n";
        let found = scan(data, true, &FORMAT, |_: &[&[u8]; 2]| true);
        let error = verdict(data, "f", &FORMAT, &[], &found).unwrap_err();
        assert_eq!(error.line, Some(2));
        // a NUL byte in a field that is not read as text is refused alike
        let data = b"x 1\ny 2\x00\n";
        let found = scan(data, true, &FORMAT, |_: &[&[u8]; 2]| true);
        assert!(found.nul);
        let error = verdict(data, "f", &FORMAT, &[], &found).unwrap_err();
        assert_eq!(error.line, Some(2));
    }
}
