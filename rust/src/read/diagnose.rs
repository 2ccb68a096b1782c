//! The line-by-line diagnosis of a file that the fast pass could not take
//! (`irscale.io._text.diagnose`): the first line that is not valid, by the rules of
//! Python's readers (UTF-8 over the whole file first, then fields split on blanks and
//! tabs as the fast pass splits them, then each typed field's check).

use super::error::{Kind, ReadError};
use super::fields::{Format, python_space};
use super::lines::{Lines, without_returns};

/// A typed field's check: `None` when the field is valid, else why not.
pub type Check = fn(&str) -> Option<&'static str>;

/// The error of the first invalid line of `data`, or `None` when every line is valid.
pub fn diagnose(
    data: &[u8],
    source: &str,
    format: &Format,
    checks: &[(usize, Check)],
) -> Option<ReadError> {
    if let Err(error) = std::str::from_utf8(data) {
        return Some(utf8_error(data, source, error.valid_up_to()));
    }
    let n = format.names.len();
    for (number, line) in Lines::new(data) {
        let text = String::from_utf8_lossy(without_returns(line));
        if text.contains('\0') {
            return Some(nul_line(data, source));
        }
        if text.trim_matches(python_space).is_empty() {
            continue;
        }
        // fields split as the fast pass splits them (blanks and tabs, trec_eval's sscanf
        // in the C locale): a line joined by another white space (U+00A0, a vertical tab)
        // is the line that did not split
        let fields: Vec<&str> = text
            .split([' ', '\t', '\r'])
            .filter(|f| !f.is_empty())
            .collect();
        let fault = |reason: String| {
            Some(ReadError::at(
                Kind::Format,
                reason,
                source,
                number,
                text.to_string(),
            ))
        };
        if fields.len() != n {
            return fault(format!(
                "expected {n} fields ({}) in {}, got {}",
                format.names.join(" "),
                format.what,
                fields.len()
            ));
        }
        for &(index, check) in checks {
            if let Some(problem) = fields.get(index).and_then(|field| check(field)) {
                return fault(format!("{} {problem}", format.names[index]));
            }
        }
    }
    None
}

/// The start of the line holding byte `at`, its 1-based number, and its end (its `\n`).
fn line_around(data: &[u8], at: usize) -> (usize, usize, usize) {
    let before = &data[..at];
    let start = memchr::memrchr(b'\n', before).map_or(0, |i| i + 1);
    let number = memchr::memchr_iter(b'\n', before).count() + 1;
    let end = memchr::memchr(b'\n', &data[at..]).map_or(data.len(), |i| at + i);
    (start, number, end)
}

/// `check_utf8`'s error for the first byte that is not UTF-8 (at `at`).
fn utf8_error(data: &[u8], source: &str, at: usize) -> ReadError {
    let (start, number, end) = line_around(data, at);
    let column = String::from_utf8_lossy(&data[start..at]).chars().count() + 1;
    let text = String::from_utf8_lossy(without_returns(&data[start..end])).into_owned();
    ReadError::at(
        Kind::Format,
        format!(
            "not valid UTF-8 text (byte 0x{:02x} at column {column})",
            data[at]
        ),
        source,
        number,
        text,
    )
}

/// `raise_nul_line`'s error for the first NUL byte of `data` (which must hold one).
pub fn nul_line(data: &[u8], source: &str) -> ReadError {
    let at = memchr::memchr(0, data).unwrap_or(0);
    let (start, number, end) = line_around(data, at);
    ReadError::at(
        Kind::Format,
        "a NUL byte in the line (trec_eval would cut the field there)".to_string(),
        source,
        number,
        String::from_utf8_lossy(&data[start..end]).into_owned(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::fields::{NOT_INTEGER, parse_integer};

    const FORMAT: Format = Format {
        what: "qrels",
        names: &["qid", "iter", "docno", "rel"],
        texts: &[0, 2],
    };

    fn integer(field: &str) -> Option<&'static str> {
        parse_integer(field.as_bytes()).err()
    }

    #[test]
    fn the_first_bad_line_is_named() {
        let checks: [(usize, Check); 1] = [(3, integer)];
        let error = diagnose(b"1 0 d1 1\n\n1 0 d2\n", "q", &FORMAT, &checks).unwrap();
        assert_eq!(
            error.reason,
            "expected 4 fields (qid iter docno rel) in qrels, got 3"
        );
        assert_eq!(
            (error.line, error.text.as_deref()),
            (Some(3), Some("1 0 d2"))
        );
        let error = diagnose(b"1 0 d1 x\r\n", "q", &FORMAT, &checks).unwrap();
        assert_eq!(error.reason, format!("rel {NOT_INTEGER}"));
        assert_eq!(error.text.as_deref(), Some("1 0 d1 x"));
        // fields split as the fast pass splits them: U+00A0 joins two fields into one,
        // and inside a field it is part of it
        let error = diagnose("1 0\u{a0}d1 1\n".as_bytes(), "q", &FORMAT, &checks).unwrap();
        assert_eq!(
            error.reason,
            "expected 4 fields (qid iter docno rel) in qrels, got 3"
        );
        assert!(diagnose("1 0 d\u{a0}1 1\n".as_bytes(), "q", &FORMAT, &checks).is_none());
        assert!(diagnose(b"1 0 d1 1\n", "q", &FORMAT, &checks).is_none());
    }

    #[test]
    fn utf8_before_lines() {
        let error = diagnose(b"1 0 d1 x\n1 0 d\xe9 1\n", "q", &FORMAT, &[]).unwrap();
        assert_eq!(error.reason, "not valid UTF-8 text (byte 0xe9 at column 6)");
        assert_eq!(
            (error.line, error.text.as_deref()),
            (Some(2), Some("1 0 d\u{fffd} 1"))
        );
    }
}
