//! The text of a file's bytes: gzip data (they start with gzip's magic number) are
//! decompressed, every member of a multi-member file in turn, as Python's `gzip` does;
//! whole ([`text`]) or read in turn ([`Stream`]).

use super::error::{Kind, ReadError};
use std::borrow::Cow;
use std::io::{self, Read};
use std::path::Path;

/// gzip's magic number.
const GZIP_MAGIC: &[u8] = b"\x1f\x8b";

/// The text of `data`: the data themselves, or what they decompress to; `Err` with the
/// decompressor's reason for truncated or corrupt gzip data.
pub fn text(data: &[u8]) -> Result<Cow<'_, [u8]>, String> {
    if !data.starts_with(GZIP_MAGIC) {
        return Ok(Cow::Borrowed(data));
    }
    let mut out = Vec::with_capacity(data.len().saturating_mul(4));
    flate2::read::MultiGzDecoder::new(data)
        .read_to_end(&mut out)
        .map_err(|error| error.to_string())?;
    Ok(Cow::Owned(out))
}

/// The text of a file's bytes read into `data`: `data` itself, or what it decompresses to
/// (as [`text`]), without a copy of plain text.
pub fn owned_text(data: Vec<u8>) -> Result<Vec<u8>, String> {
    if data.starts_with(GZIP_MAGIC) {
        return text(&data).map(Cow::into_owned);
    }
    Ok(data)
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
    /// first bytes read to tell gzip data; `Err` when it cannot be read.
    pub fn file(path: &Path, name: &'a str) -> Result<Stream<'a>, ReadError> {
        let access = |error: io::Error| access_error(&error, name);
        let mut file = std::fs::File::open(path).map_err(access)?;
        let mut head = Vec::with_capacity(GZIP_MAGIC.len());
        (&mut file)
            .take(GZIP_MAGIC.len() as u64)
            .read_to_end(&mut head)
            .map_err(access)?;
        let gzip = head == GZIP_MAGIC;
        let inner = if gzip {
            let whole = io::Cursor::new(head).chain(file);
            Inner::Reader(Box::new(flate2::read::MultiGzDecoder::new(whole)))
        } else {
            Inner::Plain { file, at: 0 }
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

    /// The rest of the text.
    pub fn rest(mut self) -> Result<Vec<u8>, ReadError> {
        let mut out = Vec::new();
        let read = match &mut self.inner {
            Inner::Reader(inner) => inner.read_to_end(&mut out).map(|_| ()),
            Inner::Plain { file, at } => {
                use std::io::{Seek, SeekFrom};
                file.seek(SeekFrom::Start(*at))
                    .and_then(|_| file.read_to_end(&mut out))
                    .map(|_| ())
            }
        };
        read.map_err(|error| self.error(&error))?;
        Ok(out)
    }

    /// The file's name in errors.
    pub fn name(&self) -> &str {
        self.name
    }

    fn error(&self, error: &io::Error) -> ReadError {
        if self.gzip {
            ReadError::whole(Kind::Gzip, error.to_string(), self.name)
        } else {
            access_error(error, self.name)
        }
    }
}

/// The error of a file that cannot be read: the OS's words, and its error number if any.
pub fn access_error(error: &io::Error, name: &str) -> ReadError {
    let mut refused = ReadError::whole(Kind::Access, error.to_string(), name);
    refused
        .details
        .extend(error.raw_os_error().map(|n| n.to_string()));
    refused
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::Compression;
    use flate2::write::GzEncoder;
    use std::io::Write;

    fn gz(data: &[u8]) -> Vec<u8> {
        let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
        encoder.write_all(data).unwrap();
        encoder.finish().unwrap()
    }

    #[test]
    fn plain_bytes_are_their_own_text() {
        assert!(matches!(text(b"1 0 d1 1\n"), Ok(Cow::Borrowed(_))));
        let data = b"1 0 d1 1\n".to_vec();
        let at = data.as_ptr();
        let kept = owned_text(data).unwrap();
        assert_eq!(kept.as_ptr(), at);
        assert_eq!(owned_text(gz(b"1 0 d1 1\n")).unwrap(), b"1 0 d1 1\n");
    }

    #[test]
    fn gzip_members_are_decompressed_in_turn() {
        let mut data = gz(b"1 0 d1 1\n");
        data.extend(gz(b"1 0 d2 0\n"));
        assert_eq!(text(&data).unwrap().as_ref(), b"1 0 d1 1\n1 0 d2 0\n");
    }

    #[test]
    fn streams_read_the_text_in_turn() {
        let mut data = gz(b"1 0 d1 1\n");
        data.extend(gz(b"1 0 d2 0\n"));
        let mut stream = Stream::bytes(&data, "q");
        let mut out = Vec::new();
        assert_eq!(stream.append(4, &mut out).unwrap(), 4);
        assert_eq!(out, b"1 0 ");
        assert_eq!(stream.rest().unwrap(), b"d1 1\n1 0 d2 0\n");
        let path = std::env::temp_dir().join(format!("irscale-stream-{}", std::process::id()));
        std::fs::write(&path, &data).unwrap();
        let whole = Stream::file(&path, "q").unwrap().rest();
        std::fs::write(&path, b"x").unwrap();
        let short = Stream::file(&path, "q").unwrap().rest();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(whole.unwrap(), b"1 0 d1 1\n1 0 d2 0\n");
        assert_eq!(short.unwrap(), b"x");
        let error = Stream::file(&path, "q").err().unwrap();
        assert_eq!(
            (error.kind, error.details),
            (Kind::Access, vec!["2".to_string()])
        );
        let error = Stream::bytes(&data[..data.len() - 3], "q")
            .rest()
            .unwrap_err();
        assert_eq!((error.kind, error.source.as_str()), (Kind::Gzip, "q"));
    }

    #[test]
    fn truncated_or_corrupt_gzip_data_are_refused() {
        let data = gz(b"1 0 d1 1\n1 0 d2 0\n");
        assert!(text(&data[..data.len() / 2]).is_err());
        assert!(text(b"\x1f\x8b").is_err());
        let mut garbage = data.clone();
        garbage.extend(b"garbage");
        assert!(text(&garbage).is_err());
        let mut checksum = data.clone();
        let at = checksum.len() - 8; // the trailer's CRC-32
        checksum[at] ^= 0xff;
        assert!(text(&checksum).is_err());
    }
}
