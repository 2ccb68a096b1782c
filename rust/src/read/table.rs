//! Whitespace-separated files of any number of fields, read into typed columns
//! (`irscale.io._text.read_fields`): the fast pass of the TREC readers ([`scan_into`])
//! over a field count known at run time, each asked field converted by its kind.
//!
//! Only the fast pass is here: a line that does not fit (field count, a number that does
//! not parse, a text field that is not UTF-8) is reported as a [`Fault`], and Python
//! diagnoses the file (`irscale.io._text.diagnose`, the specification of validity and of
//! the messages).

use super::fields::{parse_float, parse_integer};
use super::scan::{Scan, pieces, scan_into};
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

impl Column {
    /// An empty column of `kind`, with room for `rows` rows and, for text, `bytes` bytes
    /// (bounds of what a piece holds: the pages not written are never touched).
    fn new(kind: FieldKind, rows: usize, bytes: usize) -> Column {
        match kind {
            FieldKind::Text => {
                let mut offsets = Vec::with_capacity(rows + 1);
                offsets.push(0);
                Column::Text {
                    offsets,
                    data: Vec::with_capacity(bytes),
                }
            }
            FieldKind::Float => Column::Float(Vec::with_capacity(rows)),
            FieldKind::Int => Column::Int(Vec::with_capacity(rows)),
        }
    }

    /// Appends `field`; false when it does not parse as the column's kind.
    #[inline]
    fn push(&mut self, field: &[u8]) -> bool {
        match self {
            Column::Text { offsets, data } => {
                data.extend_from_slice(field);
                offsets.push(data.len() as i64);
                true
            }
            Column::Float(values) => parse_float(field).map(|x| values.push(x)).is_ok(),
            Column::Int(values) => parse_integer(field).map(|x| values.push(x)).is_ok(),
        }
    }
}

/// Why a text was not read: Python finds the line and words the error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// A line that does not fit: diagnose the text.
    Misfit,
    /// Every line fits, but a text field holds a NUL byte.
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

/// The columns of one piece of a text and its fast pass.
fn read_piece(
    piece: &[u8],
    first: bool,
    count: usize,
    asked: &[(usize, FieldKind)],
    texts: &[usize],
    bound: usize,
) -> (Vec<Column>, Scan) {
    let mut columns: Vec<Column> = asked
        .iter()
        .map(|&(_, kind)| Column::new(kind, bound, piece.len()))
        .collect();
    let mut fields = vec![&b""[..]; count];
    let found = scan_into(piece, first, texts, fields.as_mut_slice(), |line| {
        columns
            .iter_mut()
            .zip(asked)
            .all(|(column, &(index, _))| column.push(line[index]))
    });
    (columns, found)
}

/// The asked fields of every data line of `data` (a file's text), whose lines hold
/// `count` fields separated by runs of blanks and tabs: `asked` gives each field's index
/// (below `count`) and kind. Pieces of whole lines are read side by side ([`parse`]), and
/// their columns joined in file order ([`Parts::join`]).
pub fn read(data: &[u8], count: usize, asked: &[(usize, FieldKind)]) -> Result<Table, Fault> {
    parse(data, count, asked).map(Parts::join)
}

/// The columns of the pieces of a text, in file order, which own their bytes: the text
/// need not be held while they are joined.
pub struct Parts {
    rows: usize,
    pieces: Vec<Vec<Column>>,
}

/// The columns of every piece of `data` ([`read`]), or the fault of the text.
pub fn parse(data: &[u8], count: usize, asked: &[(usize, FieldKind)]) -> Result<Parts, Fault> {
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
    let parts: Vec<(Vec<Column>, Scan)> = cut
        .par_iter()
        .enumerate()
        .map(|(number, &(piece, bound))| {
            read_piece(piece, number == 0, count, asked, &texts, bound)
        })
        .collect();
    let mut found = Scan::default();
    for (_, part) in &parts {
        found.merge(part);
    }
    if found.misfit {
        return Err(Fault::Misfit);
    }
    if found.rows == 0 {
        return Err(Fault::Empty);
    }
    if found.nul {
        return Err(Fault::Nul);
    }
    Ok(Parts {
        rows: found.rows,
        pieces: parts.into_iter().map(|(columns, _)| columns).collect(),
    })
}

impl Parts {
    /// The pieces' columns joined, column by column (each piece's column dropped once
    /// joined).
    pub fn join(mut self) -> Table {
        let width = self.pieces.first().map_or(0, Vec::len);
        let columns = (0..width)
            .map(|j| {
                let pieces: Vec<Column> = self
                    .pieces
                    .iter_mut()
                    .map(|columns| std::mem::replace(&mut columns[j], Column::Int(Vec::new())))
                    .collect();
                join(pieces, self.rows)
            })
            .collect();
        Table {
            rows: self.rows,
            columns,
        }
    }
}

/// The columns of consecutive pieces (all of one kind) as one, of `rows` rows, copied
/// side by side.
fn join(pieces: Vec<Column>, rows: usize) -> Column {
    match pieces.first() {
        Some(Column::Text { .. }) => {
            let mut texts: Vec<(Vec<i64>, Vec<u8>)> = pieces
                .into_iter()
                .map(|column| match column {
                    Column::Text { offsets, data } => (offsets, data),
                    _ => unreachable!("the pieces of a column are of one kind"),
                })
                .collect();
            if texts.len() == 1 {
                let (offsets, data) = texts.remove(0);
                return Column::Text { offsets, data };
            }
            let bytes: usize = texts.iter().map(|(_, data)| data.len()).sum();
            let mut offsets = vec![0i64; rows + 1];
            let mut data = vec![0u8; bytes];
            let mut jobs = Vec::with_capacity(texts.len());
            let (mut o, mut d) = (&mut offsets[1..], &mut data[..]);
            let mut base = 0i64;
            for (piece_offsets, piece_data) in &texts {
                let (o1, rest) = std::mem::take(&mut o).split_at_mut(piece_offsets.len() - 1);
                o = rest;
                let (d1, rest) = std::mem::take(&mut d).split_at_mut(piece_data.len());
                d = rest;
                jobs.push((o1, d1, base, piece_offsets, piece_data));
                base += piece_data.len() as i64;
            }
            jobs.into_par_iter()
                .for_each(|(o, d, base, from_o, from_d)| {
                    for (to, from) in o.iter_mut().zip(&from_o[1..]) {
                        *to = base + from;
                    }
                    d.copy_from_slice(from_d);
                });
            Column::Text { offsets, data }
        }
        Some(Column::Float(_)) => {
            Column::Float(join_numbers(pieces, rows, |column| match column {
                Column::Float(values) => values,
                _ => unreachable!("the pieces of a column are of one kind"),
            }))
        }
        Some(Column::Int(_)) => Column::Int(join_numbers(pieces, rows, |column| match column {
            Column::Int(values) => values,
            _ => unreachable!("the pieces of a column are of one kind"),
        })),
        None => unreachable!("a text has one piece or more"),
    }
}

/// The numbers of consecutive pieces as one vector of `rows` numbers.
fn join_numbers<T: Copy + Default + Send + Sync>(
    pieces: Vec<Column>,
    rows: usize,
    values: impl Fn(Column) -> Vec<T>,
) -> Vec<T> {
    let pieces: Vec<Vec<T>> = pieces.into_iter().map(values).collect();
    if pieces.len() == 1 {
        return pieces.into_iter().next().unwrap_or_default();
    }
    let mut out = vec![T::default(); rows];
    let mut jobs = Vec::with_capacity(pieces.len());
    let mut rest = &mut out[..];
    for piece in &pieces {
        let (to, after) = std::mem::take(&mut rest).split_at_mut(piece.len());
        rest = after;
        jobs.push((to, piece));
    }
    jobs.into_par_iter()
        .for_each(|(to, from)| to.copy_from_slice(from));
    out
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
