//! Fields of a line and the typed fields' grammars (`irscale.io._text`).

/// A field separator of the fast pass: a blank or a tab (runs of them are one separator).
/// Bytes above the blank, most bytes of a field, are told by one comparison.
fn separates(byte: u8) -> bool {
    byte <= b' ' && (byte == b' ' || byte == b'\t')
}

/// Whether a byte ends a field of the fast pass: a separator or a line end (`\n`, `\r`).
fn ends_field(byte: u8) -> bool {
    byte <= b' ' && (byte == b' ' || byte == b'\t' || byte == b'\n' || byte == b'\r')
}

/// Where the first byte at or after `at` of `data` that is at most a blank lies (a
/// separator, a line end or another control byte), or `data.len()`: eight bytes at a time,
/// by the test of a word for a byte below 0x21 (Anderson's "Bit Twiddling Hacks",
/// *Determine if a word has a byte less than n*), whose lowest flagged byte is exact.
fn next_low(data: &[u8], mut at: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    while let Some(bytes) = data.get(at..at + 8) {
        let word = u64::from_le_bytes(bytes.try_into().expect("8 bytes"));
        let low = word.wrapping_sub(ONES * 0x21) & !word & (ONES * 0x80);
        if low != 0 {
            return at + (low.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    while at < data.len() && data[at] > b' ' {
        at += 1;
    }
    at
}

/// The fields of the record that starts at `at` of `data` (a line ended by `\n`, `\r`
/// or the text's end) split on runs of blanks and tabs: as many as `out` holds in `out`;
/// the number of fields (which may be larger) and where the next record starts.
#[inline]
pub fn record_fields<'a>(data: &'a [u8], at: usize, out: &mut [&'a [u8]]) -> (usize, usize) {
    #[cfg(target_arch = "x86_64")]
    if let Some(found) = record_in_window(data, at, out) {
        return found;
    }
    bytewise(data, at, out)
}

/// [`record_fields`] read byte by byte (a field eight bytes at a time, [`next_low`]).
fn bytewise<'a>(data: &'a [u8], mut at: usize, out: &mut [&'a [u8]]) -> (usize, usize) {
    let mut count = 0;
    loop {
        while at < data.len() && separates(data[at]) {
            at += 1;
        }
        match data.get(at) {
            None => return (count, at),
            Some(b'\n' | b'\r') => return (count, at + 1),
            Some(_) => {}
        }
        let start = at;
        at = next_low(data, at + 1);
        while at < data.len() && !ends_field(data[at]) {
            at = next_low(data, at + 1); // a control byte within the field
        }
        if let Some(slot) = out.get_mut(count) {
            *slot = &data[start..at];
        }
        count += 1;
    }
}

/// [`record_fields`] of a record whose line end lies within the 64 bytes from `at`
/// (most lines of TREC files), read from two masks of those bytes, its blanks and tabs
/// and its line ends, made 16 bytes at a time (SSE2, which every x86-64 processor has):
/// its fields are the runs of bytes before the first line end that are no separator.
/// `None` where fewer than 64 bytes are left or no line end is among them: the record is
/// then read byte by byte.
#[cfg(target_arch = "x86_64")]
#[inline]
fn record_in_window<'a>(data: &'a [u8], at: usize, out: &mut [&'a [u8]]) -> Option<(usize, usize)> {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
    };
    let window = data.get(at..at + 64)?;
    let (mut blanks, mut ends) = (0u64, 0u64);
    for k in 0..4 {
        // SAFETY: the 16 bytes loaded lie within `window` (64 bytes); SSE2 is part of
        // every x86-64 target, and the load takes any alignment.
        let (blank, end) = unsafe {
            let bytes = _mm_loadu_si128(window.as_ptr().add(16 * k).cast::<__m128i>());
            let is = |byte: u8| _mm_cmpeq_epi8(bytes, _mm_set1_epi8(byte as i8));
            (
                _mm_movemask_epi8(_mm_or_si128(is(b' '), is(b'\t'))),
                _mm_movemask_epi8(_mm_or_si128(is(b'\n'), is(b'\r'))),
            )
        };
        blanks |= u64::from(blank as u16) << (16 * k);
        ends |= u64::from(end as u16) << (16 * k);
    }
    if ends == 0 {
        return None;
    }
    let end = ends.trailing_zeros();
    let mut fields = !blanks & ((1u64 << end) - 1);
    let mut count = 0;
    while fields != 0 {
        let start = fields.trailing_zeros();
        let length = (!(fields >> start)).trailing_zeros();
        if let Some(slot) = out.get_mut(count) {
            *slot = &window[start as usize..(start + length) as usize];
        }
        count += 1;
        // the lowest run of ones cleared (the carry stops below bit `end`, at most 63)
        fields &= fields + (1u64 << start);
    }
    Some((count, at + end as usize + 1))
}

/// Whether two fields are equal, compared in line for short ones (the topic and the run
/// id of consecutive lines, mostly equal).
pub fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    if a.len() <= 16 {
        a.iter().zip(b).all(|(x, y)| x == y)
    } else {
        a == b
    }
}

/// Whether Python's `str.split()` splits at `c`: Unicode white space (`str.isspace`),
/// which is Rust's plus the separators U+001C to U+001F.
pub fn python_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Why an integer field is refused (`check_int64`).
pub const NOT_INTEGER: &str = "is not an integer";
/// Why an integer beyond 64 bits is refused.
pub const TOO_LARGE: &str = "is too large (integers must lie within ±9,223,372,036,854,775,807)";
/// Why a score is refused (`_check_score`).
pub const NOT_NUMBER: &str = "is not a number";
/// Why a NaN or infinite score is refused.
pub const NOT_FINITE: &str = "is not finite (NaN or infinite scores cannot be ranked)";

/// An integer field as trec_eval's `atol` reads it and as it is meant: a sign, ASCII
/// digits, and maybe a decimal point followed by zeros only (`+2`, `2.0`, `2.`), within
/// 64 bits (`_INTEGER_FIELD` and `check_int64` of `irscale.io._text`).
pub fn parse_integer(field: &[u8]) -> Result<i64, &'static str> {
    let (negative, rest) = match field.first() {
        Some(b'-') => (true, &field[1..]),
        Some(b'+') => (false, &field[1..]),
        _ => (false, field),
    };
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    let (number, tail) = rest.split_at(digits);
    let zeros_only = match tail.split_first() {
        None => true,
        Some((b'.', after)) => after.iter().all(|b| *b == b'0'),
        Some(_) => false,
    };
    if digits == 0 || !zeros_only {
        return Err(NOT_INTEGER);
    }
    let mut value: i128 = 0;
    for digit in number {
        value = value * 10 + i128::from(digit - b'0');
        if value > 1i128 << 64 {
            return Err(TOO_LARGE);
        }
    }
    let value = if negative { -value } else { value };
    i64::try_from(value).map_err(|_| TOO_LARGE)
}

/// A decimal floating-point literal as the readers accept it (`_FLOAT`: a sign, digits
/// with a decimal point and an exponent, or `nan`, `inf`, `infinity` in any case), and its
/// value, correctly rounded (NaN and infinities included). The short decimals of most
/// scores are read in line ([`short_decimal`]), the rest by a call.
#[inline]
pub fn parse_float(field: &[u8]) -> Result<f64, &'static str> {
    match short_decimal(field) {
        Some(value) => Ok(value),
        None => parse_other_float(field),
    }
}

/// [`parse_float`] of a field that is no short decimal.
#[inline(never)]
fn parse_other_float(field: &[u8]) -> Result<f64, &'static str> {
    let body = match field.first() {
        Some(b'-' | b'+') => &field[1..],
        _ => field,
    };
    if body.eq_ignore_ascii_case(b"nan") {
        return Ok(f64::NAN);
    }
    let infinite = body.eq_ignore_ascii_case(b"inf") || body.eq_ignore_ascii_case(b"infinity");
    if !(infinite || decimal(body)) {
        return Err(NOT_NUMBER);
    }
    std::str::from_utf8(field)
        .ok()
        .and_then(|text| text.parse::<f64>().ok())
        .ok_or(NOT_NUMBER)
}

/// The exact powers of ten a double holds, up to 10^15.
const POWERS_OF_TEN: [f64; 16] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
];

/// The value of a decimal `[+-]?\d+(\.\d+)?` of at most 15 digits, the way most scores
/// are written, or `None` for any other field: its digits make an integer below 2^53 and
/// its scale a power of ten at most 10^15, both exact in a double, so their quotient,
/// rounded once, is the decimal correctly rounded (Clinger's fast path, "How to read
/// floating point numbers accurately", PLDI 1990).
#[inline]
fn short_decimal(field: &[u8]) -> Option<f64> {
    let (negative, body) = match field.first()? {
        b'-' => (true, &field[1..]),
        b'+' => (false, &field[1..]),
        _ => (false, field),
    };
    // at most 15 digits and a point
    if body.is_empty() || body.len() > 16 {
        return None;
    }
    let mut mantissa: u64 = 0;
    let mut point = None;
    for (at, &byte) in body.iter().enumerate() {
        let digit = byte.wrapping_sub(b'0');
        if digit < 10 {
            mantissa = mantissa * 10 + u64::from(digit);
        } else if byte == b'.' && point.is_none() && at > 0 && at + 1 < body.len() {
            point = Some(at);
        } else {
            return None;
        }
    }
    if body.len() - usize::from(point.is_some()) > 15 {
        return None;
    }
    let scale = point.map_or(0, |at| body.len() - at - 1);
    let value = mantissa as f64 / POWERS_OF_TEN[scale];
    Some(if negative { -value } else { value })
}

/// `(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?` over all of `body`.
fn decimal(body: &[u8]) -> bool {
    let digits = |s: &[u8]| s.iter().take_while(|b| b.is_ascii_digit()).count();
    let whole = digits(body);
    let mut at = whole;
    let mut fraction = 0;
    if body.get(at) == Some(&b'.') {
        at += 1;
        fraction = digits(&body[at..]);
        at += fraction;
    }
    if whole == 0 && fraction == 0 {
        return false;
    }
    if matches!(body.get(at), Some(b'e' | b'E')) {
        at += 1;
        if matches!(body.get(at), Some(b'+' | b'-')) {
            at += 1;
        }
        let exponent = digits(&body[at..]);
        if exponent == 0 {
            return false;
        }
        at += exponent;
    }
    at == body.len()
}

/// A file format: what the file is called in messages, its fields, and the fields read
/// as text (which must be UTF-8; the others are not looked at unless typed). No line of
/// any format may hold a NUL byte, in whatever field (trec_eval would cut the line there).
pub struct Format {
    pub what: &'static str,
    pub names: &'static [&'static str],
    pub texts: &'static [usize],
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_read_in_a_window_as_byte_by_byte() {
        // texts of separators, line ends, control bytes and others, at every offset:
        // the window's reading (where it applies) gives the fields and the next record's
        // start that the bytewise reading gives
        let alphabet = b"  \t\n\r\x0b\x00ab\xff1.";
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        for round in 0..3000 {
            let length = 64 + round % 90;
            let text: Vec<u8> = (0..length)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    // long fields and lines now and then: records past the window
                    let spread = if round % 5 == 0 {
                        40
                    } else {
                        alphabet.len() as u64
                    };
                    alphabet
                        .get((state % spread) as usize)
                        .copied()
                        .unwrap_or(b'z')
                })
                .collect();
            for at in 0..text.len() {
                let (mut fast, mut slow) = ([&b""[..]; 6], [&b""[..]; 6]);
                let found = record_fields(&text, at, &mut fast);
                assert_eq!(found, bytewise(&text, at, &mut slow), "{text:?} at {at}");
                assert_eq!(fast[..found.0.min(6)], slow[..found.0.min(6)]);
            }
        }
    }

    #[test]
    fn integers_as_atol_reads_them_when_meant() {
        assert_eq!(parse_integer(b"+2"), Ok(2));
        assert_eq!(parse_integer(b"2.00"), Ok(2));
        assert_eq!(parse_integer(b"-3."), Ok(-3));
        assert_eq!(parse_integer(b"-9223372036854775808"), Ok(i64::MIN));
        assert_eq!(parse_integer(b"9223372036854775808"), Err(TOO_LARGE));
        assert_eq!(parse_integer(&[b'9'; 400]), Err(TOO_LARGE));
        for bad in [&b"1.5"[..], b"1e1", b"0x10", b"", b"+", b".0", b"\xd9\xa1"] {
            assert_eq!(parse_integer(bad), Err(NOT_INTEGER), "{bad:?}");
        }
    }

    #[test]
    fn floats_of_the_readers_grammar() {
        assert_eq!(parse_float(b"+.5"), Ok(0.5));
        assert_eq!(parse_float(b"5.e3"), Ok(5000.0));
        assert_eq!(parse_float(b"1e400"), Ok(f64::INFINITY));
        assert_eq!(parse_float(b"-Infinity"), Ok(f64::NEG_INFINITY));
        assert!(parse_float(b"NaN").unwrap().is_nan());
        assert_eq!(parse_float(b"0.1"), Ok(0.1));
        for bad in [
            &b"."[..],
            b"e5",
            b"1e",
            b"0x10",
            b"1_0",
            b"abc",
            b"",
            b"\xd9\xa1",
        ] {
            assert_eq!(parse_float(bad), Err(NOT_NUMBER), "{bad:?}");
        }
    }

    #[test]
    fn short_decimals_read_as_the_general_parse_reads_them() {
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..200_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let digits = (state % 16) as usize + 1;
            let point = (state >> 8) as usize % (digits + 1);
            let mut text = if state >> 20 & 1 == 1 {
                "-".to_string()
            } else {
                String::new()
            };
            for k in 0..digits {
                if k == point && k > 0 {
                    text.push('.');
                }
                text.push(char::from(b'0' + ((state >> (24 + 2 * k)) % 10) as u8));
            }
            let general: f64 = text.parse().unwrap();
            let fast = parse_float(text.as_bytes()).unwrap();
            assert_eq!(fast.to_bits(), general.to_bits(), "{text}");
        }
        assert_eq!(short_decimal(b"5."), None);
        assert_eq!(short_decimal(b".5"), None);
        assert_eq!(short_decimal(b"1234567890123456"), None);
        assert_eq!(
            short_decimal(b"-0").map(f64::to_bits),
            Some((-0.0f64).to_bits())
        );
    }

    #[test]
    fn fields_split_on_runs_of_blanks_and_tabs() {
        let mut out = [&b""[..]; 4];
        let data = b"  1\t \t0 d1  1 \t\ra b c d e\n\x0b";
        assert_eq!(record_fields(data, 0, &mut out), (4, 16));
        assert_eq!(out, [&b"1"[..], b"0", b"d1", b"1"]);
        assert_eq!(record_fields(data, 16, &mut out), (5, 26));
        assert_eq!(record_fields(data, 26, &mut out), (1, 27));
        assert_eq!(record_fields(b"x\r\n", 2, &mut out), (0, 3));
        assert_eq!(record_fields(b" \t", 0, &mut out), (0, 2));
        assert!(same(b"ab", b"ab") && !same(b"ab", b"ac") && !same(b"a", b"ab"));
        // control bytes other than tabs and line ends, and bytes above 0x7f, within fields
        let data = "é\x0bx\x00yzzzzzzzzz\x01 \u{a0}\u{ff}ab\tc".as_bytes();
        assert_eq!(record_fields(data, 0, &mut out), (3, data.len()));
        assert_eq!(
            out[..3],
            [
                "é\x0bx\x00yzzzzzzzzz\x01".as_bytes(),
                "\u{a0}\u{ff}ab".as_bytes(),
                b"c"
            ]
        );
        for at in 0..data.len() {
            let slow = (at..data.len())
                .find(|&i| data[i] <= b' ')
                .unwrap_or(data.len());
            assert_eq!(next_low(data, at), slow);
        }
        assert!(same(&[7; 20], &[7; 20]) && !same(&[7; 20], &[8; 20]));
    }
}
