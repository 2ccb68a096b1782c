//! C's `printf("%W.Df", value)` as glibc prints it: trec_eval prints every float value
//! with `%6.4f` (trec_eval.c and meas_print_*.c, e.g. `printf ("%-22s\t%s\t%6.4f\n", ...)`).
//!
//! glibc prints the exact decimal expansion of the binary value, rounded to `D` decimals
//! half to even on exact ties (0.03125 → `0.0312`, 0.09375 → `0.0938`), a `-` before every
//! value whose sign bit is set (-0.0 → `-0.0000`), `nan` / `-nan` (by the NaN's sign bit)
//! and `inf` / `-inf`, right-aligned in `W` characters.

use std::io::Write;

/// Beyond this magnitude of the scaled value the fast path does not round: one unit in
/// the last place of a double below 2^32 is at most 2^-20, so a computed fraction farther
/// than [`NEAR_HALF`] from one half rounds as the exact product does.
const FAST_LIMIT: f64 = 4_294_967_296.0;
/// Scaled values whose fraction lies this close to one half are rounded exactly.
const NEAR_HALF: f64 = 1e-6;

/// Appends `printf("%{width}.{decimals}f", value)` (glibc) to `out`.
pub fn fixed(out: &mut Vec<u8>, value: f64, decimals: usize, width: usize) {
    let start = out.len();
    let negative = value.is_sign_negative();
    if value.is_nan() {
        out.extend_from_slice(if negative { b"-nan" } else { b"nan" });
    } else if value.is_infinite() {
        out.extend_from_slice(if negative { b"-inf" } else { b"inf" });
    } else if !fast(out, value.abs(), negative, decimals) {
        // Rust's fixed-precision formatting is exact (the decimal expansion of the binary
        // value, ties to even), as glibc's; it writes the sign of -0.0 too
        let _ = write!(out, "{value:.decimals$}");
    }
    pad(out, start, width);
}

/// The text of `fixed(value, 4, 6)`: trec_eval's `%6.4f`.
pub fn trec_float(value: f64) -> String {
    let mut out = Vec::with_capacity(8);
    fixed(&mut out, value, 4, 6);
    String::from_utf8(out).unwrap_or_default()
}

/// Writes `magnitude` (finite, ≥ 0) with `decimals` digits from its rounded scaled value
/// when that rounding is certain (module documentation); `false` when it is not.
fn fast(out: &mut Vec<u8>, magnitude: f64, negative: bool, decimals: usize) -> bool {
    if decimals > 9 {
        return false;
    }
    let scale = 10u64.pow(decimals as u32);
    let scaled = magnitude * scale as f64;
    if scaled >= FAST_LIMIT {
        return false;
    }
    let fraction = scaled - scaled.floor();
    if (fraction - 0.5).abs() < NEAR_HALF {
        return false;
    }
    let units = scaled.round() as u64;
    if negative {
        out.push(b'-');
    }
    integer(out, units / scale);
    if decimals > 0 {
        out.push(b'.');
        let digits = units % scale;
        let mut text = [b'0'; 9];
        let mut rest = digits;
        for slot in text[..decimals].iter_mut().rev() {
            *slot = b'0' + (rest % 10) as u8;
            rest /= 10;
        }
        out.extend_from_slice(&text[..decimals]);
    }
    true
}

/// Appends `value` in decimal (C's `%ld` of a non-negative value).
fn integer(out: &mut Vec<u8>, value: u64) {
    let mut text = [0u8; 20];
    let mut at = text.len();
    let mut rest = value;
    loop {
        at -= 1;
        text[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    out.extend_from_slice(&text[at..]);
}

/// Appends C's `%ld` of `value`.
pub fn long(out: &mut Vec<u8>, value: i64) {
    if value < 0 {
        out.push(b'-');
    }
    integer(out, value.unsigned_abs());
}

/// Right-aligns the text written since `start` in `width` bytes (printf's field width).
fn pad(out: &mut Vec<u8>, start: usize, width: usize) {
    let written = out.len() - start;
    if written < width {
        let missing = width - written;
        out.splice(start..start, std::iter::repeat_n(b' ', missing));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn printed(value: f64) -> String {
        trec_float(value)
    }

    #[test]
    fn exact_ties_round_half_to_even() {
        // 0.03125 = 1/32 and 0.09375 = 3/32 are exact in binary: 312.5 and 937.5 units
        assert_eq!(printed(0.03125), "0.0312");
        assert_eq!(printed(0.09375), "0.0938");
        assert_eq!(printed(0.15625), "0.1562");
        assert_eq!(printed(-0.03125), "-0.0312");
        // 2.5 to no decimal: 2; 3.5: 4
        let mut out = Vec::new();
        fixed(&mut out, 2.5, 0, 0);
        out.push(b' ');
        fixed(&mut out, 3.5, 0, 0);
        assert_eq!(out, b"2 4");
    }

    #[test]
    fn values_next_to_a_tie_round_by_their_exact_expansion() {
        // 0.00005 is 5.00000000000000023960868011929e-05 in binary: above the tie
        assert_eq!(printed(0.00005), "0.0001");
        // 0.00015 is 1.49999999999999993...e-04: below the tie
        assert_eq!(printed(0.00015), "0.0001");
        assert_eq!(printed(0.00025), "0.0003"); // 2.50000000000000005...e-04
        assert_eq!(printed(0.99995), "1.0000"); // 0.99995000000000000550...
        assert_eq!(printed(1.00005), "1.0001"); // 1.00005000000000010551...
        assert_eq!(printed(4.9999e-5), "0.0000");
    }

    #[test]
    fn signs_widths_and_large_values() {
        assert_eq!(printed(-0.0), "-0.0000");
        assert_eq!(printed(-1e-9), "-0.0000");
        assert_eq!(printed(0.0), "0.0000");
        assert_eq!(printed(12.5), "12.5000");
        assert_eq!(printed(1e20), "100000000000000000000.0000");
        assert_eq!(printed(-123456789.98765), "-123456789.9877"); // ...98765000700...
        assert_eq!(printed(f64::MAX).len(), 309 + 5);
        let mut out = Vec::new();
        fixed(&mut out, 0.5, 1, 6);
        assert_eq!(out, b"   0.5");
    }

    #[test]
    fn non_finite_values_print_as_glibc() {
        assert_eq!(printed(f64::NAN.copysign(1.0)), "   nan");
        assert_eq!(printed(f64::NAN.copysign(-1.0)), "  -nan");
        // x86-64's 0.0 / 0.0 sets the sign bit: trec_eval prints -nan
        assert_eq!(printed(f64::INFINITY), "   inf");
        assert_eq!(printed(f64::NEG_INFINITY), "  -inf");
    }

    #[test]
    fn integers_print_as_percent_ld() {
        let mut out = Vec::new();
        for value in [0, 7, -12, i64::MIN, i64::MAX] {
            long(&mut out, value);
            out.push(b' ');
        }
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "0 7 -12 -9223372036854775808 9223372036854775807 "
        );
    }
}
