//! A file's text read in blocks of whole lines, so that a large file is parsed without
//! its whole text in memory: each block ends after a `\n` (or at the text's end), so the
//! lines of the text are the lines of its blocks in turn.

use super::error::ReadError;
use super::lines::{Lines, line_text};
use super::source::Stream;
use crate::read::fields::python_space;

/// The blocks of a [`Stream`]'s text, about `size` bytes each (more where one line is
/// longer).
pub struct Blocks<'a> {
    stream: Stream<'a>,
    size: usize,
    /// The start of a line that the last block cut off: the next block's start.
    carry: Vec<u8>,
    ended: bool,
}

impl<'a> Blocks<'a> {
    pub fn new(stream: Stream<'a>, size: usize) -> Blocks<'a> {
        Blocks {
            stream,
            size: size.max(1),
            carry: Vec::new(),
            ended: false,
        }
    }

    /// The next block, in `buffer` (a spent block's, reused: its pages are not mapped
    /// afresh), or `None` after the last.
    pub fn next(&mut self, mut buffer: Vec<u8>) -> Result<Option<Vec<u8>>, ReadError> {
        buffer.clear();
        buffer.append(&mut self.carry);
        loop {
            if self.ended {
                return Ok((!buffer.is_empty()).then_some(buffer));
            }
            let start = buffer.len();
            // a block's worth, or as much again for a line longer than a block
            let count = if start < self.size {
                self.size - start
            } else {
                self.size
            };
            let read = self.stream.append(count, &mut buffer)?;
            self.ended = read < count;
            if let Some(end) = memchr::memrchr(b'\n', &buffer[start..]) {
                let cut = start + end + 1;
                if !self.ended {
                    self.carry.extend_from_slice(&buffer[cut..]);
                    buffer.truncate(cut);
                    return Ok(Some(buffer));
                }
            }
        }
    }
}

/// The line number and text of data line `row` (0-based) of the text of `blocks`, as
/// [`super::scan::row_line`] names it: the `row`-th line, counted by `\n`, that is not
/// blank in Python's white space; `(0, "")` past the last.
pub fn row_line(mut blocks: Blocks, row: usize) -> Result<(usize, String), ReadError> {
    let (mut lines, mut left) = (0, row);
    let mut spare = Vec::new();
    while let Some(block) = blocks.next(std::mem::take(&mut spare))? {
        let mut last = 0;
        for (number, line) in Lines::new(&block) {
            last = number;
            let text = line_text(line);
            if text.trim_matches(python_space).is_empty() {
                continue;
            }
            if left == 0 {
                return Ok((lines + number, text));
            }
            left -= 1;
        }
        lines += last;
        spare = block;
    }
    Ok((0, String::new()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blocks_of(data: &[u8], size: usize) -> Vec<Vec<u8>> {
        let mut blocks = Blocks::new(Stream::bytes(data, "r"), size);
        let mut out = Vec::new();
        while let Some(block) = blocks.next(Vec::new()).unwrap() {
            out.push(block);
        }
        out
    }

    #[test]
    fn blocks_of_whole_lines() {
        let data = b"a 1\r\nbb 2\n\nlong line 3\nd";
        for size in 1..data.len() + 2 {
            let blocks = blocks_of(data, size);
            assert_eq!(blocks.concat(), data, "{size}");
            let (last, whole) = blocks.split_last().unwrap();
            assert!(whole.iter().all(|b| b.ends_with(b"\n")), "{size}");
            assert!(!last.is_empty());
        }
        assert_eq!(blocks_of(b"a\nb\n", 2), [b"a\n", b"b\n"]);
        assert!(blocks_of(b"", 4).is_empty());
    }

    #[test]
    fn lines_named_across_blocks() {
        let data = b"x 1\n \t\r\ny 2\r\n\nz 3";
        for size in 1..8 {
            let line = |row| row_line(Blocks::new(Stream::bytes(data, "r"), size), row).unwrap();
            assert_eq!(line(0), (1, "x 1".to_string()));
            assert_eq!(line(1), (3, "y 2".to_string()));
            assert_eq!(line(2), (5, "z 3".to_string()));
            assert_eq!(line(3), (0, String::new()));
            for row in 0..4 {
                assert_eq!(line(row), crate::read::scan::row_line(data, row));
            }
        }
    }
}
