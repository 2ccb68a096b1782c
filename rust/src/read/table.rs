//! Whitespace-separated files of any number of fields, read into typed columns
//! (`irscale.io._text.read_fields`): the fast pass of the TREC readers ([`scan_into`])
//! over a field count known at run time, each asked field converted by its kind.
//!
//! Only the fast pass is here: a line that does not fit (field count, a number that does
//! not parse, a text field that is not UTF-8) is reported as a [`Fault`], and Python
//! diagnoses the file (`irscale.io._text.diagnose`, the specification of validity and of
//! the messages).
//!
//! Pieces of whole lines are read side by side, each into its own share of the columns
//! (as many rows as the piece has line ends, as many text bytes as the piece has bytes:
//! bounds that the rows read never pass), and the shares are then moved up behind each
//! other in file order: the columns are the only memory written besides the text, and the
//! pages of a bound that no row reaches are never touched.

use super::fields::{parse_float, parse_integer};
use super::scan::{pieces, scan_into};
use rayon::prelude::*;

/// What a field is read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldKind {
    /// UTF-8 text, held as a column of strings.
    Text,
    /// A float64 of the readers' grammar ([`parse_float`]).
    Float,
    /// An int64 of the readers' grammar ([`parse_integer`]: `+2` and `2.0` are 2).
    Int,
}

/// A column read.
#[derive(Debug, Clone, PartialEq)]
pub enum Column {
    /// Strings: string `i` is `data[offsets[i]..offsets[i + 1]]` (one more offset than
    /// strings, the first 0).
    Text {
        offsets: Vec<i64>,
        data: Vec<u8>,
    },
    Float(Vec<f64>),
    Int(Vec<i64>),
}

/// `values` cut into consecutive slices of `lengths` each.
fn split<'a: 'b, 'b, T>(
    mut values: &'a mut [T],
    lengths: impl Iterator<Item = usize> + 'b,
) -> impl Iterator<Item = &'a mut [T]> + 'b {
    lengths.map(move |length| {
        let (share, rest) = std::mem::take(&mut values).split_at_mut(length);
        values = rest;
        share
    })
}

impl Column {
    /// A column of `kind` with room for `rows` rows and, for text, `bytes` bytes (zeroed
    /// lazily: pages not written are not touched).
    fn room(kind: FieldKind, rows: usize, bytes: usize) -> Column {
        match kind {
            FieldKind::Text => Column::Text {
                offsets: vec![0; rows + 1],
                data: vec![0; bytes],
            },
            FieldKind::Float => Column::Float(vec![0.0; rows]),
            FieldKind::Int => Column::Int(vec![0; rows]),
        }
    }

    /// The column cut into consecutive shares of `(rows, bytes)` each (text offsets: the
    /// offsets after each row, from the share's first byte).
    fn shares<'a>(&'a mut self, sizes: &[(usize, usize)]) -> Vec<Share<'a>> {
        let rows = sizes.iter().map(|&(rows, _)| rows);
        match self {
            Column::Text { offsets, data } => {
                let bytes = sizes.iter().map(|&(_, bytes)| bytes);
                split(&mut offsets[1..], rows)
                    .zip(split(data, bytes))
                    .map(|(offsets, data)| Share::Text {
                        offsets,
                        data,
                        at: 0,
                    })
                    .collect()
            }
            Column::Float(values) => split(values, rows).map(Share::Float).collect(),
            Column::Int(values) => split(values, rows).map(Share::Int).collect(),
        }
    }

    /// The shares of `sizes` ([`Column::shares`]), of which `filled` hold `(rows, bytes)`
    /// each, moved up behind each other: the column of the rows read, and its bounds'
    /// pages beyond them handed back.
    fn compact(&mut self, sizes: &[(usize, usize)], filled: &[(usize, usize)]) {
        let (mut row, mut byte, mut from_row, mut from_byte) = (0, 0, 0, 0);
        for (&(rows, bytes), &(bound_rows, bound_bytes)) in filled.iter().zip(sizes) {
            // the first share is in its place already
            match self {
                Column::Text { offsets, data } if from_byte > 0 => {
                    data.copy_within(from_byte..from_byte + bytes, byte);
                    let base = byte as i64;
                    for k in 0..rows {
                        offsets[row + 1 + k] = offsets[from_row + 1 + k] + base;
                    }
                }
                Column::Float(values) if from_row > 0 => {
                    values.copy_within(from_row..from_row + rows, row);
                }
                Column::Int(values) if from_row > 0 => {
                    values.copy_within(from_row..from_row + rows, row);
                }
                _ => {}
            }
            (row, byte) = (row + rows, byte + bytes);
            (from_row, from_byte) = (from_row + bound_rows, from_byte + bound_bytes);
        }
        match self {
            Column::Text { offsets, data } => {
                offsets.truncate(row + 1);
                offsets.shrink_to_fit();
                data.truncate(byte);
                data.shrink_to_fit();
            }
            Column::Float(values) => {
                values.truncate(row);
                values.shrink_to_fit();
            }
            Column::Int(values) => {
                values.truncate(row);
                values.shrink_to_fit();
            }
        }
    }
}

/// A piece's share of a column, written row by row.
enum Share<'a> {
    /// `offsets[i]`: the end of row `i`'s string from the share's first byte; `at`: the
    /// bytes written.
    Text {
        offsets: &'a mut [i64],
        data: &'a mut [u8],
        at: usize,
    },
    Float(&'a mut [f64]),
    Int(&'a mut [i64]),
}

impl Share<'_> {
    /// Writes `field` as row `row`; false when it does not parse as the column's kind.
    #[inline]
    fn put(&mut self, row: usize, field: &[u8]) -> bool {
        match self {
            Share::Text { offsets, data, at } => {
                let end = *at + field.len();
                data[*at..end].copy_from_slice(field);
                *at = end;
                offsets[row] = end as i64;
                true
            }
            Share::Float(values) => parse_float(field).map(|x| values[row] = x).is_ok(),
            Share::Int(values) => parse_integer(field).map(|x| values[row] = x).is_ok(),
        }
    }

    /// The bytes written (text), 0 for numbers.
    fn bytes(&self) -> usize {
        match self {
            Share::Text { at, .. } => *at,
            _ => 0,
        }
    }
}

/// Why a text was not read: Python finds the line and words the error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// A line that does not fit: diagnose the text.
    Misfit,
    /// Every line fits, but a line holds a NUL byte (in whatever field).
    Nul,
    /// No data line.
    Empty,
}

/// A text's columns: the fields asked for, in the order asked, of its `rows` data lines.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    pub rows: usize,
    pub columns: Vec<Column>,
}

/// What reading a piece found: its rows, the text bytes of each asked field, whether a
/// line did not fit and whether a line holds a NUL byte.
struct Piece {
    rows: usize,
    bytes: Vec<usize>,
    misfit: bool,
    nul: bool,
}

/// The rows of one piece of a text written to its shares of the columns.
fn read_piece(
    piece: &[u8],
    first: bool,
    count: usize,
    asked: &[(usize, FieldKind)],
    texts: &[usize],
    mut shares: Vec<Share<'_>>,
) -> Piece {
    let mut fields = vec![&b""[..]; count];
    let mut row = 0;
    let found = scan_into(piece, first, texts, fields.as_mut_slice(), |line| {
        let fits = shares
            .iter_mut()
            .zip(asked)
            .all(|(share, &(index, _))| share.put(row, line[index]));
        row += usize::from(fits);
        fits
    });
    Piece {
        rows: found.rows,
        bytes: shares.iter().map(Share::bytes).collect(),
        misfit: found.misfit,
        nul: found.nul,
    }
}

/// The asked fields of every data line of `data` (a file's text), whose lines hold
/// `count` fields separated by runs of blanks and tabs: `asked` gives each field's index
/// (below `count`) and kind. Pieces of whole lines are read side by side, each into its
/// share of the columns, then moved up in file order.
pub fn read(data: &[u8], count: usize, asked: &[(usize, FieldKind)]) -> Result<Table, Fault> {
    assert!(
        count > 0 && asked.iter().all(|&(index, _)| index < count),
        "fields asked beyond the {count} of a line"
    );
    let texts: Vec<usize> = asked
        .iter()
        .filter(|(_, kind)| *kind == FieldKind::Text)
        .map(|&(index, _)| index)
        .collect();
    let cut = pieces(data);
    let sizes: Vec<(usize, usize)> = cut.iter().map(|&(piece, n)| (n, piece.len())).collect();
    let rows: usize = sizes.iter().map(|&(n, _)| n).sum();
    let mut columns: Vec<Column> = asked
        .iter()
        .map(|&(_, kind)| Column::room(kind, rows, data.len()))
        .collect();
    // per piece, its share of every column
    let mut shares: Vec<Vec<Share>> = (0..cut.len()).map(|_| Vec::new()).collect();
    for column in &mut columns {
        for (piece, share) in shares.iter_mut().zip(column.shares(&sizes)) {
            piece.push(share);
        }
    }
    let found: Vec<Piece> = cut
        .par_iter()
        .zip(shares)
        .enumerate()
        .map(|(number, (&(piece, _), shares))| {
            read_piece(piece, number == 0, count, asked, &texts, shares)
        })
        .collect();
    if found.iter().any(|piece| piece.misfit) {
        return Err(Fault::Misfit);
    }
    let rows: usize = found.iter().map(|piece| piece.rows).sum();
    if rows == 0 {
        return Err(Fault::Empty);
    }
    if found.iter().any(|piece| piece.nul) {
        return Err(Fault::Nul);
    }
    for (j, column) in columns.iter_mut().enumerate() {
        let filled: Vec<(usize, usize)> = found
            .iter()
            .map(|piece| (piece.rows, piece.bytes[j]))
            .collect();
        column.compact(&sizes, &filled);
    }
    Ok(Table { rows, columns })
}

#[cfg(test)]
mod tests {
    use super::*;
    use FieldKind::{Float, Int, Text};

    fn texts(column: &Column) -> Vec<String> {
        match column {
            Column::Text { offsets, data } => offsets
                .windows(2)
                .map(|w| String::from_utf8(data[w[0] as usize..w[1] as usize].to_vec()).unwrap())
                .collect(),
            _ => panic!("not text"),
        }
    }

    #[test]
    fn fields_of_every_line_in_file_order() {
        // several pieces (a few bytes each in the tests), blank lines, CRLF, a BOM, tabs
        let data =
            "\u{feff}q1 0 d1 +2.0 1.5\r\n\n \t\nq2\t0  dé -3 nan\rq3 x d3 7 -1e2\n".repeat(5);
        let table = read(
            data.as_bytes(),
            5,
            &[(2, Text), (4, Float), (3, Int), (0, Text)],
        )
        .unwrap();
        assert_eq!(table.rows, 15);
        let docnos = texts(&table.columns[0]);
        assert_eq!(docnos[..3], ["d1", "dé", "d3"]);
        // a byte order mark starts the text only
        assert_eq!(
            texts(&table.columns[3])[..4],
            ["q1", "q2", "q3", "\u{feff}q1"]
        );
        match &table.columns[1] {
            Column::Float(v) => {
                assert_eq!((v[0], v[2]), (1.5, -100.0));
                assert!(v[1].is_nan());
            }
            _ => panic!("not floats"),
        }
        assert_eq!(table.columns[2], Column::Int([2, -3, 7].repeat(5)));
    }

    #[test]
    fn faults_for_python_to_diagnose() {
        let asked = [(0, Text), (1, Int)];
        assert_eq!(read(b"a 1\nb 2 3\n", 2, &asked), Err(Fault::Misfit));
        assert_eq!(read(b"a 1\nb 1.5\n", 2, &asked), Err(Fault::Misfit));
        assert_eq!(
            read(b"a 1\nb 9223372036854775808\n", 2, &asked),
            Err(Fault::Misfit)
        );
        assert_eq!(read(b"a 1\n\xff 2\n", 2, &asked), Err(Fault::Misfit));
        assert_eq!(read(b"a 1\nb x\n", 2, &[(1, Float)]), Err(Fault::Misfit));
        // only the fields asked for are read: not UTF-8 elsewhere is let through
        assert!(read(b"a 1\nb 2\n", 2, &[(1, Int)]).is_ok());
        assert!(read(b"\xff 1\n", 2, &[(1, Int)]).is_ok());
        assert_eq!(read(b"a 1\nb\x00c 2\n", 2, &asked), Err(Fault::Nul));
        assert_eq!(read(b" \n\t\r\n", 2, &asked), Err(Fault::Empty));
        assert_eq!(read(b"", 2, &asked), Err(Fault::Empty));
    }

    #[test]
    fn no_field_asked() {
        let table = read(b"a 1\nb 2\n", 2, &[]).unwrap();
        assert_eq!((table.rows, table.columns.len()), (2, 0));
    }
}
