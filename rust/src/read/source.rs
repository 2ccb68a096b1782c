//! The text of a file's bytes: gzip data (they start with gzip's magic number) are
//! decompressed, every member of a multi-member file in turn, as Python's `gzip` does; read
//! in turn ([`Stream`]), or whole within the reader's limits ([`whole`]). A file is opened
//! by [`super::open`]: a FIFO or a device keeps its reader waiting only until the call's
//! [`Stop`] is set.

use super::error::{Kind, ReadError};
use super::limits::{Charge, LineCheck, grow, line_number, long_line};
use super::open::{self, Opened, Stop};
use std::borrow::Cow;
use std::io::{self, Read};
use std::path::Path;

/// gzip's magic number.
const GZIP_MAGIC: &[u8] = b"\x1f\x8b";

/// Bytes of text read at once by [`whole`].
#[cfg(not(test))]
const WHOLE_BLOCK: usize = 1 << 22;
#[cfg(test)]
const WHOLE_BLOCK: usize = 1 << 10;

/// The rest of the text of `stream`, whole: read a block at a time, each block's lines
/// checked against [`super::limits::LINE_LIMIT`], into a buffer grown by fallible
/// reservations charged to `charge` (which the caller keeps while it holds the text); a
/// plain file's is sized to it at once. A text beyond the
/// limits is refused having read one block beyond them at most, whatever it would
/// decompress to.
pub fn whole(stream: Stream, charge: &mut Charge) -> Result<Vec<u8>, ReadError> {
    let mut check = line_check(stream.name);
    gather(stream, charge, |text, start| check(text, start))
}

/// The bytes of the file at `path` (not decompressed: a FIFO's, to be read again from
/// memory), named `name` in errors, read as [`whole`] reads a text: a block at a time,
/// within `charge`'s budget, and, unless they are gzip data (told by their first bytes),
/// refused at the first line longer than [`super::limits::LINE_LIMIT`] (an endless device
/// such as `/dev/zero` after a block beyond it, not at the memory limit). gzip data's lines
/// are those they decompress to, checked when their reader decompresses them (a block at
/// a time: [`super::blocks::Blocks`]). Its waits end once `stop` is set.
pub fn raw(
    path: &Path,
    name: &str,
    charge: &mut Charge,
    stop: &Stop,
) -> Result<Vec<u8>, ReadError> {
    let file = open::open(path, stop).map_err(|error| access_error(&error, name))?;
    let stream = Stream {
        inner: Inner::Reader(Box::new(file)),
        gzip: false,
        name,
    };
    let mut check = line_check(name);
    gather(stream, charge, |text, start| {
        if text.starts_with(GZIP_MAGIC) {
            return Ok(());
        }
        check(text, start)
    })
}

/// The check [`gather`] makes of a text's blocks as they come: their lines against
/// [`super::limits::LINE_LIMIT`], the first longer one refused by its number and start
/// (in `name`).
fn line_check(name: &str) -> impl FnMut(&[u8], usize) -> Result<(), ReadError> + '_ {
    let mut lines = LineCheck::default();
    move |text, start| {
        lines
            .feed(&text[start..])
            .map_err(|open| long_line(name, Some(line_number(text, open)), &text[open..]))
    }
}

/// The rest of `stream`'s text, a block at a time (module documentation of [`whole`]):
/// `check(text, start)` looks at each block, `text[start..]`, as it comes.
fn gather(
    mut stream: Stream,
    charge: &mut Charge,
    mut check: impl FnMut(&[u8], usize) -> Result<(), ReadError>,
) -> Result<Vec<u8>, ReadError> {
    let name = stream.name;
    let mut text = Vec::new();
    if let Some(left) = stream.plain_left().filter(|&left| left > 0) {
        // a byte more: the end of the file is read into the buffer, not past it
        grow(
            &mut text,
            usize::try_from(left).unwrap_or(usize::MAX - 1) + 1,
            charge,
            name,
        )?;
    }
    loop {
        let start = text.len();
        if text.capacity() == start {
            grow(&mut text, WHOLE_BLOCK, charge, name).map_err(|mut error| {
                error.line = Some(line_number(&text, start));
                error
            })?;
        }
        let count = (text.capacity() - start).min(WHOLE_BLOCK);
        let read = stream.append(count, &mut text)?;
        check(&text, start)?;
        if read < count {
            return Ok(text);
        }
    }
}

/// The text of `data`, a file's bytes held in memory, named `name` in errors: the bytes
/// themselves (their lines checked, [`check_lines`]), or what they decompress to
/// ([`whole`]).
pub fn text<'a>(
    data: &'a [u8],
    name: &str,
    charge: &mut Charge,
) -> Result<Cow<'a, [u8]>, ReadError> {
    if data.starts_with(GZIP_MAGIC) {
        return whole(Stream::bytes(data, name), charge).map(Cow::Owned);
    }
    check_lines(data, name)?;
    Ok(Cow::Borrowed(data))
}

/// The line of `data` (a text held whole) longer than [`super::limits::LINE_LIMIT`], if
/// any, as its error.
pub fn check_lines(data: &[u8], name: &str) -> Result<(), ReadError> {
    line_check(name)(data, 0)
}

/// A file's text read in turn from its start: its bytes, or what they decompress to.
pub struct Stream<'a> {
    inner: Inner<'a>,
    gzip: bool,
    name: &'a str,
}

/// Where a [`Stream`]'s text comes from: a reader, or a plain file read at an offset (so
/// that several pieces of it can be read side by side: [`Stream::plain_file`]).
enum Inner<'a> {
    Reader(Box<dyn Read + Send + 'a>),
    Plain { file: std::fs::File, at: u64 },
}

/// A plain file's bytes from `at`, up to `out`'s length, into `out`: the number read,
/// fewer than `out.len()` at the file's end only.
pub fn read_at(file: &std::fs::File, mut at: u64, out: &mut [u8]) -> io::Result<usize> {
    use std::os::unix::fs::FileExt;
    let mut done = 0;
    while done < out.len() {
        match file.read_at(&mut out[done..], at) {
            Ok(0) => break,
            Ok(n) => {
                done += n;
                at += n as u64;
            }
            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
            Err(error) => return Err(error),
        }
    }
    Ok(done)
}

impl<'a> Stream<'a> {
    /// The text of `data` (a file's bytes) named `name` in errors.
    pub fn bytes(data: &'a [u8], name: &'a str) -> Stream<'a> {
        let gzip = data.starts_with(GZIP_MAGIC);
        let inner: Box<dyn Read + Send + 'a> = if gzip {
            Box::new(flate2::read::MultiGzDecoder::new(data))
        } else {
            Box::new(data)
        };
        Stream {
            inner: Inner::Reader(inner),
            gzip,
            name,
        }
    }

    /// The text of the file at `path` named `name` in errors: the file opened, and its
    /// first bytes read to tell gzip data; `Err` when it cannot be read. A FIFO or a device
    /// (read in turn, not at offsets) keeps it waiting until `stop` is set at most.
    pub fn file(path: &Path, name: &'a str, stop: &'a Stop) -> Result<Stream<'a>, ReadError> {
        let access = |error: io::Error| access_error(&error, name);
        let mut file = open::open(path, stop).map_err(access)?;
        let mut head = Vec::with_capacity(GZIP_MAGIC.len());
        (&mut file)
            .take(GZIP_MAGIC.len() as u64)
            .read_to_end(&mut head)
            .map_err(access)?;
        let gzip = head == GZIP_MAGIC;
        let inner = match file {
            // a FIFO or a device is read in turn, not at offsets
            Opened::Regular(file) if !gzip => Inner::Plain { file, at: 0 },
            file if gzip => {
                let whole = io::Cursor::new(head).chain(file);
                Inner::Reader(Box::new(flate2::read::MultiGzDecoder::new(whole)))
            }
            file => Inner::Reader(Box::new(io::Cursor::new(head).chain(file))),
        };
        Ok(Stream { inner, gzip, name })
    }

    /// The plain file this text is read from, and the offset of the text not read yet;
    /// `None` for bytes in memory and gzip data (read in turn only).
    pub fn plain_file(&self) -> Option<(&std::fs::File, u64)> {
        match &self.inner {
            Inner::Plain { file, at } => Some((file, *at)),
            Inner::Reader(_) => None,
        }
    }

    /// The text of a plain file read on to `at` (by [`read_at`], from [`Stream::plain_file`]).
    pub fn skip_to(&mut self, to: u64) {
        if let Inner::Plain { at, .. } = &mut self.inner {
            *at = to;
        }
    }

    /// Up to `count` more bytes of the text appended to `out`, fewer at its end only; the
    /// number appended. `Err` when the file cannot be read or its gzip data cannot be
    /// decompressed.
    pub fn append(&mut self, count: usize, out: &mut Vec<u8>) -> Result<usize, ReadError> {
        let read = match &mut self.inner {
            Inner::Reader(inner) => inner.take(count as u64).read_to_end(out),
            Inner::Plain { file, at } => {
                let start = out.len();
                out.resize(start + count, 0);
                let read = read_at(file, *at, &mut out[start..]);
                let n = *read.as_ref().unwrap_or(&0);
                out.truncate(start + n);
                *at += n as u64;
                read
            }
        };
        read.map_err(|error| self.error(&error))
    }

    /// The bytes of a plain file not read yet, as it stands (`None` for other texts, or
    /// where the file's size cannot be read).
    pub fn plain_left(&self) -> Option<u64> {
        match &self.inner {
            Inner::Plain { file, at } => file
                .metadata()
                .ok()
                .map(|meta| meta.len().saturating_sub(*at)),
            Inner::Reader(_) => None,
        }
    }

    /// The file's name in errors.
    pub fn name(&self) -> &str {
        self.name
    }

    fn error(&self, error: &io::Error) -> ReadError {
        if self.gzip && !open::is_stopped(error) {
            let reason = if error.kind() == io::ErrorKind::UnexpectedEof {
                "truncated gzip file: the compressed data end before the end-of-stream marker"
                    .to_string()
            } else {
                format!("corrupt gzip data ({error})")
            };
            ReadError::whole(Kind::Gzip, reason, self.name)
        } else {
            access_error(error, self.name)
        }
    }
}

/// The error of a file that cannot be read: the OS's words, and its error number if any;
/// or that its call was stopped while it waited for the file ([`Kind::Stopped`]).
pub fn access_error(error: &io::Error, name: &str) -> ReadError {
    if open::is_stopped(error) {
        return ReadError::whole(Kind::Stopped, error.to_string(), name);
    }
    let mut refused = ReadError::whole(Kind::Access, error.to_string(), name);
    refused
        .details
        .extend(error.raw_os_error().map(|n| n.to_string()));
    refused
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::limits::{Budget, LINE_LIMIT};
    use crate::read::open::NEVER;
    use flate2::Compression;
    use flate2::write::GzEncoder;
    use std::io::Write;

    fn gz(data: &[u8]) -> Vec<u8> {
        let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
        encoder.write_all(data).unwrap();
        encoder.finish().unwrap()
    }

    /// The text of `data` (a file's bytes) held in memory.
    fn text_of(data: &[u8]) -> Result<Vec<u8>, ReadError> {
        let budget = Budget::unlimited();
        let mut charge = budget.charge();
        text(data, "q", &mut charge).map(Cow::into_owned)
    }

    fn temporary(name: &str, data: &[u8]) -> std::path::PathBuf {
        let path = std::env::temp_dir().join(format!("irscale-{name}-{}", std::process::id()));
        std::fs::write(&path, data).unwrap();
        path
    }

    #[test]
    fn plain_bytes_are_their_own_text() {
        let budget = Budget::unlimited();
        let data = b"1 0 d1 1\n";
        assert!(matches!(
            text(data, "q", &mut budget.charge()),
            Ok(Cow::Borrowed(_))
        ));
        assert_eq!(text_of(&gz(b"1 0 d1 1\n")).unwrap(), b"1 0 d1 1\n");
    }

    #[test]
    fn gzip_members_are_decompressed_in_turn() {
        let mut data = gz(b"1 0 d1 1\n");
        data.extend(gz(b"1 0 d2 0\n"));
        assert_eq!(text_of(&data).unwrap(), b"1 0 d1 1\n1 0 d2 0\n");
        // a member that ends within a line: the line goes on in the next one
        let mut data = gz(b"1 0 d1 1\r\n1 0 d");
        data.extend(gz(b"2 0\r\n"));
        assert_eq!(text_of(&data).unwrap(), b"1 0 d1 1\r\n1 0 d2 0\r\n");
    }

    #[test]
    fn streams_read_the_text_in_turn() {
        let mut data = gz(b"1 0 d1 1\n");
        data.extend(gz(b"1 0 d2 0\n"));
        let mut stream = Stream::bytes(&data, "q");
        let mut out = Vec::new();
        assert_eq!(stream.append(4, &mut out).unwrap(), 4);
        assert_eq!(out, b"1 0 ");
        let budget = Budget::unlimited();
        assert_eq!(
            whole(stream, &mut budget.charge()).unwrap(),
            b"d1 1\n1 0 d2 0\n"
        );
        let path = temporary("stream", &data);
        let read = |path| whole(Stream::file(path, "q", &NEVER)?, &mut budget.charge());
        let all = read(&path);
        std::fs::write(&path, b"x").unwrap();
        let short = read(&path);
        std::fs::remove_file(&path).unwrap();
        assert_eq!(all.unwrap(), b"1 0 d1 1\n1 0 d2 0\n");
        assert_eq!(short.unwrap(), b"x");
        let error = Stream::file(&path, "q", &NEVER).err().unwrap();
        assert_eq!(
            (error.kind, error.details),
            (Kind::Access, vec!["2".to_string()])
        );
        let error = text_of(&data[..data.len() - 3]).unwrap_err();
        assert_eq!((error.kind, error.source.as_str()), (Kind::Gzip, "q"));
        assert!(
            error.reason.starts_with("truncated gzip file"),
            "{}",
            error.reason
        );
    }

    #[test]
    fn truncated_or_corrupt_gzip_data_are_refused() {
        let data = gz(b"1 0 d1 1\n1 0 d2 0\n");
        assert!(text_of(&data[..data.len() / 2]).is_err());
        assert!(text_of(b"\x1f\x8b").is_err());
        let mut garbage = data.clone();
        garbage.extend(b"garbage");
        assert!(text_of(&garbage).is_err());
        let mut checksum = data.clone();
        let at = checksum.len() - 8; // the trailer's CRC-32
        checksum[at] ^= 0xff;
        let error = text_of(&checksum).unwrap_err();
        assert!(
            error.reason.starts_with("corrupt gzip data ("),
            "{}",
            error.reason
        );
    }

    #[test]
    fn a_long_line_is_refused_before_the_rest_is_decompressed() {
        // a few kilobytes of gzip that would decompress to 64 times the limit of one line
        // after two short lines: refused by number, a block beyond the limit read at most
        let member = gz(&vec![b'x'; LINE_LIMIT]);
        let mut bomb = gz(b"a 1\r\nb 2\n");
        for _ in 0..64 {
            bomb.extend(&member);
        }
        let error = text_of(&bomb).unwrap_err();
        assert_eq!((error.kind, error.line), (Kind::LongLine, Some(3)));
        assert!(error.text.unwrap().starts_with("xxxx"));
        // lines of the limit exactly, and one beyond it
        let long = [&b"a\n"[..], &vec![b'y'; LINE_LIMIT + 1], b"\nb\n"].concat();
        let fit = [
            &vec![b'z'; LINE_LIMIT][..],
            b"\n",
            &vec![b'z'; LINE_LIMIT - 1],
        ]
        .concat();
        assert_eq!(check_lines(&long, "q").unwrap_err().line, Some(2));
        assert!(check_lines(&fit, "q").is_ok());
        let path = temporary("long", &long[..4096]);
        let budget = Budget::unlimited();
        let read = whole(
            Stream::file(&path, "q", &NEVER).unwrap(),
            &mut budget.charge(),
        );
        std::fs::remove_file(&path).unwrap();
        assert_eq!(read.unwrap(), &long[..4096]);
    }

    #[test]
    fn raw_bytes_stop_at_the_first_line_beyond_the_limit() {
        // /dev/zero, one line that never ends: refused by its number and start a block
        // beyond the limit, within a budget of a few times the limit (not at the memory
        // limit, which is the machine's)
        let budget = Budget::new(4 * LINE_LIMIT);
        let zero = Path::new("/dev/zero");
        let error = raw(zero, "z", &mut budget.charge(), &NEVER).unwrap_err();
        assert_eq!((error.kind, error.line), (Kind::LongLine, Some(1)));
        assert!(error.text.unwrap().starts_with('\0'));
        // a line of the limit is read; one beyond it, after two lines, is refused
        let fit = [&b"a\n"[..], &vec![b'x'; LINE_LIMIT], b"\nb\n"].concat();
        let long = [&b"a\nb\n"[..], &vec![b'y'; LINE_LIMIT + 1], b"\nc\n"].concat();
        // gzip data are held as they are: their lines are those they decompress to
        let bomb = gz(&vec![b'z'; 4 * LINE_LIMIT]);
        let read = |data: &[u8]| {
            let path = temporary("raw", data);
            let read = raw(&path, "r", &mut Budget::unlimited().charge(), &NEVER);
            std::fs::remove_file(&path).unwrap();
            read
        };
        assert_eq!(read(&fit).unwrap(), fit);
        let error = read(&long).unwrap_err();
        assert_eq!((error.kind, error.line), (Kind::LongLine, Some(3)));
        assert!(error.text.unwrap().starts_with("yyy"));
        assert_eq!(read(&bomb).unwrap(), bomb);
    }

    #[test]
    fn a_text_beyond_the_budget_is_refused_by_the_line_it_reached() {
        // 400 lines of 9 bytes read in blocks of 1 KiB: the third passes 2,500 bytes
        let lines = b"1 0 d1 1\n".repeat(400);
        let budget = Budget::new(2500);
        let error = text(&gz(&lines), "q", &mut budget.charge()).unwrap_err();
        // the line of the third block's start, byte 2,048
        assert_eq!((error.kind, error.line), (Kind::Memory, Some(228)));
        assert_eq!(error.details, ["3072", "2500"]);
        let path = temporary("budget", &lines);
        let refused = whole(
            Stream::file(&path, "q", &NEVER).unwrap(),
            &mut budget.charge(),
        );
        // the text, and a byte to read its end into
        let fits = whole(
            Stream::file(&path, "q", &NEVER).unwrap(),
            &mut Budget::new(3601).charge(),
        );
        std::fs::remove_file(&path).unwrap();
        assert_eq!(refused.unwrap_err().kind, Kind::Memory);
        assert_eq!(fits.unwrap(), lines);
    }
}
