//! The text of a file's bytes: gzip data (they start with gzip's magic number) are
//! decompressed, every member of a multi-member file in turn, as Python's `gzip` does.

use std::borrow::Cow;
use std::io::Read;

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
