//! A file's text read in blocks of whole lines, so that a large file is parsed without
//! its whole text in memory: each block ends after a `\n` (or at the text's end), so the
//! lines of the text are the lines of its blocks in turn. No line is read beyond
//! [`super::limits::LINE_LIMIT`]: a longer one is refused as soon as it is ([`locate`]
//! numbers it).

use super::error::{Kind, ReadError};
use super::limits::{LineCheck, long_line};
use super::lines::{Lines, line_text};
use super::source::{Stream, access_error, read_at};
use crate::read::fields::python_space;
use rayon::prelude::*;

/// The blocks of a [`Stream`]'s text, about `size` bytes each (more where one line is
/// longer).
pub struct Blocks<'a> {
    stream: Stream<'a>,
    size: usize,
    /// The start of a line that the last block cut off: the next block's start.
    carry: Vec<u8>,
    /// The offset of `carry` in the text.
    given: usize,
    lines: LineCheck,
    ended: bool,
}

impl<'a> Blocks<'a> {
    pub fn new(stream: Stream<'a>, size: usize) -> Blocks<'a> {
        Blocks {
            stream,
            size: size.max(1),
            carry: Vec::new(),
            given: 0,
            lines: LineCheck::default(),
            ended: false,
        }
    }

    /// The text's bytes `read` (just read, in turn), checked against the line limit:
    /// `Err` with the long line's error, not numbered (`details`: its offset in the text,
    /// numbered by [`locate`]), `line_start(offset)` giving the bytes from its start.
    fn check<'b>(
        &mut self,
        read: &[u8],
        line_start: impl FnOnce(usize) -> &'b [u8],
    ) -> Result<(), ReadError> {
        self.lines.feed(read).map_err(|open| {
            let mut error = long_line(self.stream.name(), None, line_start(open));
            error.details = vec![open.to_string()];
            error
        })
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
            let given = self.given;
            self.check(&buffer[start..], |open| &buffer[open - given..])?;
            if let Some(end) = memchr::memrchr(b'\n', &buffer[start..]) {
                let cut = start + end + 1;
                if !self.ended {
                    self.carry.extend_from_slice(&buffer[cut..]);
                    buffer.truncate(cut);
                    self.given += cut;
                    return Ok(Some(buffer));
                }
            }
            if self.ended {
                self.given += buffer.len();
            }
        }
    }
}

/// The bytes a piece of a plain file's wave keeps room for beyond its own: a line that
/// the piece before ends within, up to this long, is completed without reallocating.
const HEAD_ROOM: usize = 1 << 12;

impl Blocks<'_> {
    /// Up to `count` more blocks, in the buffers of `spare` while it has some. A plain
    /// file's are read side by side: `count` pieces of `size` bytes at once (one thread
    /// reading them in turn leaves the others waiting on many cores), then cut after the
    /// last line end of each (the line a piece ends within goes on at the start of the
    /// next: moved to the end of its block). Other texts are read in turn ([`Blocks::next`]).
    pub fn wave(
        &mut self,
        count: usize,
        spare: &mut Vec<Vec<u8>>,
    ) -> Result<Vec<Vec<u8>>, ReadError> {
        let mut wave = Vec::with_capacity(count);
        if count > 1 && !self.ended && self.stream.plain_file().is_some() {
            self.plain_wave(count, spare, &mut wave)?;
        }
        while wave.len() < count {
            match self.next(spare.pop().unwrap_or_default())? {
                Some(block) => wave.push(block),
                None => break,
            }
        }
        Ok(wave)
    }

    /// The blocks of `count` pieces of a plain file read side by side, appended to `wave`
    /// (none when a line is longer than every piece: [`Blocks::wave`] reads on in turn).
    fn plain_wave(
        &mut self,
        count: usize,
        spare: &mut Vec<Vec<u8>>,
        wave: &mut Vec<Vec<u8>>,
    ) -> Result<(), ReadError> {
        let (file, at) = self.stream.plain_file().expect("a plain file");
        let size = self.size;
        // the pieces that start before the file's end as it stands, the last one a byte
        // longer than what is left (read short, it says the file ended): a small file is
        // not read into `count` blocks of zeros (their pages cost more than the reading)
        let left = self.stream.plain_left().unwrap_or(u64::MAX);
        let count = usize::try_from(left / size as u64).map_or(count, |whole| count.min(whole + 1));
        let mut pieces: Vec<Vec<u8>> = (0..count)
            .map(|_| spare.pop().unwrap_or_default())
            .collect();
        let read: Vec<std::io::Result<usize>> = pieces
            .par_iter_mut()
            .enumerate()
            .map(|(k, piece)| {
                let start = if k == 0 { self.carry.len() } else { 0 };
                let want =
                    usize::try_from(left.saturating_add(1).saturating_sub((k * size) as u64))
                        .map_or(size, |rest| rest.min(size));
                // room for the start of the next piece's first line too: moved here below
                // without reallocating (a copy of the whole piece, made in turn)
                let room = start + want + HEAD_ROOM;
                piece.reserve(room.saturating_sub(piece.len()));
                // a spent block's bytes are read over, not zeroed first (only bytes
                // beyond them are)
                piece.truncate(start + want);
                piece.resize(start + want, 0);
                if k == 0 {
                    piece[..start].copy_from_slice(&self.carry);
                }
                let read = read_at(file, at + (k * size) as u64, &mut piece[start..]);
                piece.truncate(start + *read.as_ref().unwrap_or(&0));
                read
            })
            .collect();
        let mut total = 0;
        for result in read {
            let n = result.map_err(|error| access_error(&error, self.stream.name()))?;
            total += n;
            self.ended |= n < size;
        }
        // the lines of the bytes read, in turn (the first piece's after the carry); the
        // text's offsets are the file's
        let (carried, given) = (self.carry.len(), self.given);
        for (k, piece) in pieces.iter().enumerate() {
            let new = &piece[if k == 0 { carried } else { 0 }..];
            self.check(new, |open| match open.checked_sub(at as usize) {
                None => &pieces[0][open - given..],
                Some(after) => {
                    let (k, within) = (after / size, after % size);
                    &pieces[k][within + if k == 0 { carried } else { 0 }..]
                }
            })?;
        }
        self.carry.clear();
        self.stream.skip_to(at + total as u64);
        // each piece's bytes up to its first line end belong to the line before: moved to
        // the end of the last block, and cut from the piece's start (side by side)
        let mut heads = vec![0; count];
        let mut open: Option<usize> = None;
        for (k, head) in heads.iter_mut().enumerate() {
            let (before, rest) = pieces.split_at_mut(k);
            let piece = &rest[0];
            if let Some(last) = open.map(|j| &mut before[j]) {
                *head = memchr::memchr(b'\n', piece).map_or(piece.len(), |p| p + 1);
                last.extend_from_slice(&piece[..*head]);
            }
            if *head < piece.len() {
                open = Some(k);
            }
        }
        pieces
            .par_iter_mut()
            .zip(&heads)
            .for_each(|(piece, &head)| {
                piece.drain(..head);
            });
        for piece in pieces {
            if piece.is_empty() {
                spare.push(piece);
            } else {
                wave.push(piece);
            }
        }
        // the line the last block ends within is carried to the next wave's first block
        if !self.ended
            && let Some(mut last) = wave.pop()
        {
            match memchr::memrchr(b'\n', &last) {
                Some(end) => {
                    self.carry.extend_from_slice(&last[end + 1..]);
                    last.truncate(end + 1);
                    wave.push(last);
                }
                None => {
                    self.carry = last;
                }
            }
        }
        self.given += wave.iter().map(Vec::len).sum::<usize>();
        Ok(())
    }
}

/// `error`, a reader's, numbered by its line where it is the error of a long line that
/// [`Blocks`] did not number (`details`: its offset in the text), by [`line_at`].
pub fn locate<'a>(
    mut error: ReadError,
    open: impl FnOnce() -> Result<Stream<'a>, ReadError>,
) -> ReadError {
    let offset = match (&error.kind, error.line, error.details.first()) {
        (Kind::LongLine, None, Some(offset)) => offset.parse::<usize>().unwrap_or(0),
        _ => return error,
    };
    if let Ok(line) = line_at(open, offset) {
        error.line = Some(line);
        error.details.clear();
    }
    error
}

/// The number of the line at `offset` of the text the stream `open` gives (counted by
/// `\n`, from its start read again).
pub fn line_at<'a>(
    open: impl FnOnce() -> Result<Stream<'a>, ReadError>,
    offset: usize,
) -> Result<usize, ReadError> {
    let mut stream = open()?;
    let (mut lines, mut seen, mut buffer) = (1, 0, Vec::new());
    while seen < offset {
        buffer.clear();
        let read = stream.append((offset - seen).min(1 << 20), &mut buffer)?;
        if read == 0 {
            break;
        }
        lines += memchr::memchr_iter(b'\n', &buffer).count();
        seen += read;
    }
    Ok(lines)
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
    use crate::read::open::NEVER;

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
    fn a_small_file_is_read_into_pieces_of_its_size() {
        // a wave of 8 pieces of 1 MiB over a file of 28 bytes: one piece, the file's size
        // and the head room (not 8 MiB of zeros)
        let data = b"1 Q0 d1 1 1 r\n1 Q0 d2 2 0 r\n";
        let path = std::env::temp_dir().join(format!("irscale-small-{}", std::process::id()));
        std::fs::write(&path, data).unwrap();
        let mut blocks = Blocks::new(Stream::file(&path, "r", &NEVER).unwrap(), 1 << 20);
        let mut spare = Vec::new();
        let wave = blocks.wave(8, &mut spare).unwrap();
        assert_eq!(wave.concat(), data);
        let room = 2 * (data.len() + 1 + HEAD_ROOM);
        assert!(wave.iter().chain(&spare).all(|b| b.capacity() <= room));
        assert!(blocks.wave(8, &mut spare).unwrap().is_empty());
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn waves_of_a_plain_file_read_side_by_side() {
        // a line longer than several pieces, blank lines, CRLF, no final line end
        let mut data = b"a 1\r\nbb 2\n\nlong line 3\n".to_vec();
        data.extend(b"x".repeat(40));
        data.extend(b"\nd 4\ne 5\nf");
        let path = std::env::temp_dir().join(format!("irscale-waves-{}", std::process::id()));
        std::fs::write(&path, &data).unwrap();
        for size in 1..data.len() + 2 {
            for count in [1, 2, 3, 7] {
                let stream = Stream::file(&path, "r", &NEVER).unwrap();
                assert!(stream.plain_file().is_some());
                let mut blocks = Blocks::new(stream, size);
                let (mut read, mut spare) = (Vec::new(), Vec::new());
                loop {
                    let wave = blocks.wave(count, &mut spare).unwrap();
                    if wave.is_empty() {
                        break;
                    }
                    assert!(wave.len() <= count);
                    read.extend(wave);
                }
                assert_eq!(read.concat(), data, "{size} {count}");
                let (last, whole) = read.split_last().unwrap();
                assert!(whole.iter().all(|b| b.ends_with(b"\n")), "{size} {count}");
                assert!(read.iter().all(|b| !b.is_empty()), "{size} {count}");
                assert_eq!(last.last(), Some(&b'f'));
            }
        }
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn a_line_beyond_the_limit_is_refused_and_numbered() {
        use crate::read::limits::LINE_LIMIT;
        let mut data = b"a 1\nb 2\r\n".to_vec();
        data.extend(vec![b'x'; LINE_LIMIT + 1]);
        data.extend(b"\nc 3\n");
        let path = std::env::temp_dir().join(format!("irscale-long-{}", std::process::id()));
        std::fs::write(&path, &data).unwrap();
        let refused = |mut blocks: Blocks| loop {
            let mut spare = Vec::new();
            match blocks.wave(3, &mut spare) {
                Ok(wave) => assert!(!wave.is_empty(), "read to the end"),
                Err(error) => return locate(error, || Ok(Stream::bytes(&data, "r"))),
            }
        };
        for size in [LINE_LIMIT / 16, LINE_LIMIT / 3, LINE_LIMIT + 5] {
            // read in turn, and a plain file's pieces side by side
            for stream in [
                Stream::bytes(&data, "r"),
                Stream::file(&path, "r", &NEVER).unwrap(),
            ] {
                let error = refused(Blocks::new(stream, size));
                assert_eq!(
                    (error.kind, error.line),
                    (Kind::LongLine, Some(3)),
                    "{size}"
                );
                assert!(error.text.unwrap().starts_with("xxxx"));
            }
        }
        // a line of the limit itself is read
        data.drain(13..14);
        std::fs::write(&path, &data).unwrap();
        let mut blocks = Blocks::new(Stream::file(&path, "r", &NEVER).unwrap(), LINE_LIMIT / 5);
        let mut read = Vec::new();
        loop {
            let wave = blocks.wave(3, &mut Vec::new()).unwrap();
            if wave.is_empty() {
                break;
            }
            read.extend(wave);
        }
        std::fs::remove_file(&path).unwrap();
        assert_eq!(read.concat(), data);
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
