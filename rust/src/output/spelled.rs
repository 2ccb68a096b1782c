//! Floating-point numbers spelled as text in the shortest form that reads back the same
//! number, as Python's `repr` spells a double or as Arrow's cast of floats to strings
//! spells them (the TREC writers' two spellings: `irscale.io.text_columns`).
//!
//! The digits are the shortest that read back the same number and, among those, the
//! closest to it, ties to even (David Gay's `dtoa` mode 0, behind Python's `repr`, and
//! double-conversion's `ToShortest`, behind Arrow's): Rust's shortest digits (`{:e}`
//! without a precision: Grisu with Dragon4's exact fallback) give their count; where two
//! strings of that count may read back the same number (16 digits or more for a double, 7
//! for a single: their spacing is then below the number's unit in the last place), the
//! number correctly rounded to that count (`{:.Ne}`, ties to even) is taken when it reads
//! back the same number, since Rust's shortest digits round a tie up
//! (3950396829.83203125: Gay's …8320312, Rust's shortest …8320313). Each style then
//! places the point:
//!
//! * Python (`float_repr_style` "short", `PyOS_double_to_string(x, 'r', 0,
//!   Py_DTSF_ADD_DOT_0)`): with the number `0.d₁d₂… × 10^p`, decimal when `-4 < p ≤ 16`
//!   with `.0` added to a whole number (`1.0`, `0.0001`), otherwise `d.ddde±XX` with at
//!   least two exponent digits (`1e-05`, `1.5e+16`); `inf`, `-inf`, `nan`, `-0.0`.
//! * Arrow (`arrow/util/formatting.h` on double-conversion's `ToShortest`, its
//!   `decimal_in_shortest_low` −6 and `_high` 10 as Arrow sets them): decimal when the
//!   exponent `p − 1` lies in `[−6, 10)`, with no point for a whole number (`1`,
//!   `0.000015`), otherwise `d.ddde±X` (`1e-7`, `1.5e+10`); `inf`, `-inf`, `nan`, `-0`.
//!   A single-precision column has single precision's shortest digits.

use std::fmt::Write;

/// Where a spelling places the point, and how it writes exponents and whole numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    Python,
    Arrow,
}

impl Style {
    /// The style of a name: `"python"` or `"arrow"`.
    pub fn named(name: &str) -> Option<Style> {
        match name {
            "python" => Some(Style::Python),
            "arrow" => Some(Style::Arrow),
            _ => None,
        }
    }
}

/// A number whose shortest digits `{:e}` writes (`f64`, `f32`).
pub trait Shortest: Copy + PartialEq + std::fmt::LowerExp + std::str::FromStr {
    /// The fewest digits at which two strings may read back the same number.
    const AMBIGUOUS: usize;
    fn is_nan(self) -> bool;
    fn is_infinite(self) -> bool;
    fn is_negative(self) -> bool;
}

/// [`Shortest`] for a float type, two strings of `$ambiguous` digits apart.
macro_rules! shortest {
    ($float:ty, $ambiguous:expr) => {
        impl Shortest for $float {
            const AMBIGUOUS: usize = $ambiguous;
            fn is_nan(self) -> bool {
                <$float>::is_nan(self)
            }
            fn is_infinite(self) -> bool {
                <$float>::is_infinite(self)
            }
            fn is_negative(self) -> bool {
                self.is_sign_negative()
            }
        }
    };
}

shortest!(f64, 16);
shortest!(f32, 7);

/// `value` spelled in `style`, appended to `out`; `scratch` holds its digits meanwhile.
pub fn spell<T: Shortest>(value: T, style: Style, out: &mut Vec<u8>, scratch: &mut String) {
    if value.is_nan() {
        out.extend_from_slice(b"nan");
        return;
    }
    if value.is_negative() {
        out.push(b'-');
    }
    if value.is_infinite() {
        out.extend_from_slice(b"inf");
        return;
    }
    scratch.clear();
    write!(scratch, "{value:e}").expect("a String takes any text");
    let (mut digits, mut exponent) = digits_of(scratch);
    if digits.len() >= T::AMBIGUOUS {
        scratch.clear();
        write!(scratch, "{value:.*e}", digits.len() - 1).expect("a String takes any text");
        if scratch.parse::<T>().is_ok_and(|back| back == value) {
            (digits, exponent) = digits_of(scratch);
        }
    }
    if digits == b"0" {
        out.extend_from_slice(match style {
            Style::Python => b"0.0",
            Style::Arrow => b"0",
        });
        return;
    }
    let decimal = match style {
        Style::Python => (-4..16).contains(&exponent),
        Style::Arrow => (-6..10).contains(&exponent),
    };
    if decimal {
        decimal_digits(&digits, exponent, style, out);
    } else {
        out.push(digits[0]);
        if digits.len() > 1 {
            out.push(b'.');
            out.extend_from_slice(&digits[1..]);
        }
        out.push(b'e');
        out.push(if exponent < 0 { b'-' } else { b'+' });
        let magnitude = exponent.unsigned_abs();
        if style == Style::Python && magnitude < 10 {
            out.push(b'0');
        }
        out.extend_from_slice(magnitude.to_string().as_bytes());
    }
}

/// The digits (no point, no sign) and the decimal exponent of a number `{:e}` wrote.
fn digits_of(text: &str) -> (Vec<u8>, i32) {
    let text = text.trim_start_matches('-');
    let (mantissa, exponent) = text.split_once('e').expect("{:e} writes an exponent");
    let exponent = exponent.parse().expect("{:e} writes a decimal exponent");
    (mantissa.bytes().filter(|b| *b != b'.').collect(), exponent)
}

/// The number `d₁.d₂… × 10^exponent` of `digits` written with a point.
fn decimal_digits(digits: &[u8], exponent: i32, style: Style, out: &mut Vec<u8>) {
    if exponent < 0 {
        out.extend_from_slice(b"0.");
        out.extend(std::iter::repeat_n(b'0', (-exponent - 1) as usize));
        out.extend_from_slice(digits);
        return;
    }
    let whole = exponent as usize + 1;
    if digits.len() > whole {
        out.extend_from_slice(&digits[..whole]);
        out.push(b'.');
        out.extend_from_slice(&digits[whole..]);
        return;
    }
    out.extend_from_slice(digits);
    out.extend(std::iter::repeat_n(b'0', whole - digits.len()));
    if style == Style::Python {
        out.extend_from_slice(b".0");
    }
}

/// Every value of `values` spelled in `style`: the offsets (one more than the values) and
/// the bytes of a string column.
pub fn spell_all<T: Shortest>(values: &[T], style: Style) -> (Vec<i64>, Vec<u8>) {
    let mut offsets = Vec::with_capacity(values.len() + 1);
    let mut data = Vec::with_capacity(values.len() * 12);
    let mut scratch = String::new();
    offsets.push(0);
    for &value in values {
        spell(value, style, &mut data, &mut scratch);
        offsets.push(data.len() as i64);
    }
    (offsets, data)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spelled<T: Shortest>(value: T, style: Style) -> String {
        let mut out = Vec::new();
        spell(value, style, &mut out, &mut String::new());
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn python_spells_as_repr() {
        let cases: [(f64, &str); 16] = [
            (1.0, "1.0"),
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (0.1, "0.1"),
            (1e-4, "0.0001"),
            (1e-5, "1e-05"),
            (1.5e-5, "1.5e-05"),
            (1e15, "1000000000000000.0"),
            (1e16, "1e+16"),
            (123456789.125, "123456789.125"),
            (1e300, "1e+300"),
            (-2.5e-308, "-2.5e-308"),
            (5e-324, "5e-324"),
            (f64::INFINITY, "inf"),
            (f64::NEG_INFINITY, "-inf"),
            (f64::NAN, "nan"),
        ];
        for (value, text) in cases {
            assert_eq!(spelled(value, Style::Python), text, "{value:e}");
        }
    }

    #[test]
    fn arrow_spells_as_its_cast() {
        let cases: [(f64, &str); 12] = [
            (1.0, "1"),
            (-0.0, "-0"),
            (1e-6, "0.000001"),
            (1.5e-5, "0.000015"),
            (1e-7, "1e-7"),
            (9999999999.5, "9999999999.5"),
            (1e10, "1e+10"),
            (1.5e10, "1.5e+10"),
            (1234567.5, "1234567.5"),
            (1e300, "1e+300"),
            (f64::NEG_INFINITY, "-inf"),
            (f64::NAN, "nan"),
        ];
        for (value, text) in cases {
            assert_eq!(spelled(value, Style::Arrow), text, "{value:e}");
        }
        assert_eq!(spelled(0.1f32, Style::Arrow), "0.1");
        // a tie between two shortest strings goes to the even digit, as Gay's and
        // double-conversion's
        assert_eq!(
            spelled(3950396829.8320312, Style::Arrow),
            "3950396829.8320312"
        );
        assert_eq!(
            spelled(3950396829.8320312, Style::Python),
            "3950396829.8320312"
        );
        assert_eq!(spelled(16777217.0f32, Style::Arrow), "16777216");
    }

    #[test]
    fn columns_of_spellings() {
        let (offsets, data) = spell_all(&[1.0, 2.5, f64::NAN], Style::Python);
        assert_eq!(offsets, [0, 3, 6, 9]);
        assert_eq!(data, b"1.02.5nan");
    }
}
