//! Lines of a text, as Python's `data.split(b"\n")` gives them.

/// `(1-based number, line)` of every line of `data`: the bytes up to each `\n` (not
/// included), the last line without one included when not empty.
pub struct Lines<'a> {
    data: &'a [u8],
    at: usize,
    number: usize,
}

impl<'a> Lines<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Lines {
            data,
            at: 0,
            number: 0,
        }
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = (usize, &'a [u8]);

    fn next(&mut self) -> Option<Self::Item> {
        let rest = self.data.get(self.at..)?;
        if rest.is_empty() {
            return None;
        }
        let end = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
        self.at += end + 1;
        self.number += 1;
        Some((self.number, &rest[..end]))
    }
}

/// `line` without its trailing `\r`s (`rstrip(b"\r")`).
pub fn without_returns(line: &[u8]) -> &[u8] {
    let mut end = line.len();
    while end > 0 && line[end - 1] == b'\r' {
        end -= 1;
    }
    &line[..end]
}

/// A line's text as the Python readers quote it: `\r`s stripped, undecodable bytes
/// replaced by U+FFFD.
pub fn line_text(line: &[u8]) -> String {
    String::from_utf8_lossy(without_returns(line)).into_owned()
}
