//! Fields of a line and the typed fields' grammars (`irscale.io._text`).

/// A field separator of the fast pass: a blank or a tab (runs of them are one separator).
fn separates(byte: u8) -> bool {
    byte == b' ' || byte == b'\t'
}

/// The fields of `line` split on runs of blanks and tabs: the first `N` in `out`, and
/// the number of fields (which may be larger than `N`).
pub fn split_fields<'a, const N: usize>(line: &'a [u8], out: &mut [&'a [u8]; N]) -> usize {
    let mut count = 0;
    let mut rest = line;
    loop {
        let Some(start) = rest.iter().position(|b| !separates(*b)) else {
            return count;
        };
        rest = &rest[start..];
        let end = rest
            .iter()
            .position(|b| separates(*b))
            .unwrap_or(rest.len());
        if let Some(slot) = out.get_mut(count) {
            *slot = &rest[..end];
        }
        count += 1;
        rest = &rest[end..];
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
/// value, correctly rounded (NaN and infinities included).
pub fn parse_float(field: &[u8]) -> Result<f64, &'static str> {
    if let Some(value) = short_decimal(field) {
        return Ok(value);
    }
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
fn short_decimal(field: &[u8]) -> Option<f64> {
    let (negative, digits) = match field.first()? {
        b'-' => (true, &field[1..]),
        b'+' => (false, &field[1..]),
        _ => (false, field),
    };
    let mut mantissa: u64 = 0;
    let mut count = 0;
    let mut point = None;
    for (at, &byte) in digits.iter().enumerate() {
        match byte {
            b'0'..=b'9' => {
                mantissa = mantissa * 10 + u64::from(byte - b'0');
                count += 1;
                if count > 15 {
                    return None;
                }
            }
            b'.' if point.is_none() && at > 0 && at + 1 < digits.len() => point = Some(at),
            _ => return None,
        }
    }
    if count == 0 {
        return None;
    }
    let scale = point.map_or(0, |at| digits.len() - at - 1);
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

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(split_fields(b"  1\t \t0 d1  1 \t", &mut out), 4);
        assert_eq!(out, [&b"1"[..], b"0", b"d1", b"1"]);
        assert_eq!(split_fields(b"a b c d e", &mut out), 5);
        assert_eq!(split_fields(b"\x0b", &mut out), 1);
    }
}
