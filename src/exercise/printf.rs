//! `printf` for the subset: `%d %i %u %x %X %c %ld %lld %zu %f %.Nf %e %g %s %%`, with field
//! widths (`%5d`, `%-8s`, `%08.3f`) as C pads them. Output is kept as text with control
//! characters other than newline and tab replaced, so it is safe to show.

use super::interp::Value;

/// Most digits after the point a conversion may ask for. Far beyond what a float holds (17
/// significant digits), and it keeps a line short: Rust's formatter panics above 65535, and
/// `%.1000000f` would build a megabyte per call.
pub const MAX_PRECISION: u64 = 100;
/// Widest field a conversion may ask for (widths are otherwise not padded here): a bound, so
/// no number in a spec is taken unchecked.
pub const MAX_WIDTH: u64 = 1000;

/// The precision in `spec` (after `%`, up to the conversion letter): `None` when it gives none;
/// an error when it, or the width, is over its bound.
fn precision_of(spec: &str) -> Result<Option<usize>, String> {
    let body = spec.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let body = body.trim_start_matches(['-', '+', ' ', '#', '0']);
    let (width, precision) = match body.split_once('.') {
        Some((w, p)) => (w, Some(p)),
        None => (body, None),
    };
    // Digits only (anything else was already refused as an unknown conversion or is ignored,
    // as before); a count of digits first, so a 30-digit number cannot overflow the parse.
    let number = |digits: &str| -> u64 {
        let digits: String = digits.chars().take_while(char::is_ascii_digit).collect();
        if digits.len() > 9 {
            u64::MAX
        } else {
            digits.parse().unwrap_or(0)
        }
    };
    let w = number(width);
    if w > MAX_WIDTH {
        return Err(format!(
            "`%{spec}` asks for a field {} wide; the most `printf` takes here is {MAX_WIDTH}",
            shown_number(width)
        ));
    }
    let Some(p) = precision else {
        return Ok(None);
    };
    let n = number(p);
    if n > MAX_PRECISION {
        return Err(format!(
            "`%{spec}` asks for {} digits after the point; the most `printf` prints here is \
             {MAX_PRECISION}",
            shown_number(p)
        ));
    }
    // `%.f` is C's precision 0. `n` is at most MAX_PRECISION here.
    Ok(Some(usize::try_from(n).unwrap_or(0)))
}

/// A number from a spec, for a message: its digits, cut if absurdly long.
fn shown_number(digits: &str) -> String {
    let d: String = digits.chars().take_while(char::is_ascii_digit).collect();
    if d.len() > 24 {
        format!("{}… ({} digits)", &d[..20], d.len())
    } else {
        d
    }
}

/// `v` as C's `printf` prints it for conversion `conv` (`d`, `i` or `u`) with the length
/// modifier in `spec`: without one the argument is an `int` (32 bits), `%u` reads it as unsigned,
/// and `l`, `ll`, `z` take 64 bits (review 2026-12-01 X25: `%u` of -1 printed -1, nvcc's
/// program prints 4294967295).
fn c_integer(v: i64, conv: char, spec: &str) -> String {
    let wide = spec.contains('l') || spec.contains('z');
    match (conv, wide) {
        ('u', true) => (v as u64).to_string(),
        ('u', false) => (v as u32).to_string(),
        (_, true) => v.to_string(),
        (_, false) => (v as i32).to_string(),
    }
}

/// The conversions [`format()`] takes, for the message that refuses another.
pub const SUPPORTED: &str = "%d %i %u %x %c %ld %zu %f %e %g %s";

/// The field width in `spec` (the digits before any `.`), 0 when none; [`precision_of`] has
/// already bounded it.
fn width_of(spec: &str) -> usize {
    let body = spec.trim_start_matches(['-', '+', ' ', '#', '0']);
    let digits: String = body.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().unwrap_or(0)
}

/// `text` padded to `spec`'s width as C pads it: spaces on the left, on the right with `-`,
/// zeros after the sign with `0` (numbers only).
fn pad(text: String, spec: &str, numeric: bool) -> String {
    let width = width_of(spec);
    let len = text.chars().count();
    if len >= width {
        return text;
    }
    let fill = width - len;
    let flags: String = spec
        .chars()
        .take_while(|c| matches!(c, '-' | '+' | ' ' | '#' | '0'))
        .collect();
    if flags.contains('-') {
        return text + &" ".repeat(fill);
    }
    if numeric && flags.contains('0') {
        let (sign, digits) = match text.strip_prefix('-') {
            Some(rest) => ("-", rest.to_string()),
            None => ("", text),
        };
        return format!("{sign}{}{digits}", "0".repeat(fill));
    }
    " ".repeat(fill) + &text
}

/// `v` as C's `%e` prints it: a sign, one digit, `precision` decimals, and an exponent of at
/// least two digits with its sign (`1.500000e+00`; Rust writes `1.5e0`).
fn c_exponent(v: f64, precision: usize) -> String {
    if !v.is_finite() {
        return c_special(v);
    }
    let rust = format!("{v:.precision$e}");
    let Some((mantissa, exp)) = rust.split_once('e') else {
        return rust;
    };
    let exp: i32 = exp.parse().unwrap_or(0);
    let sign = if exp < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{:02}", exp.unsigned_abs())
}

/// C's `%g`: `precision` significant digits (6 by default, 0 means 1), as `%e` when the
/// exponent is below -4 or not below the precision, else as `%f`; trailing zeros dropped.
fn c_general(v: f64, precision: Option<usize>) -> String {
    if !v.is_finite() {
        return c_special(v);
    }
    let p = precision.unwrap_or(6).max(1);
    if v == 0.0 {
        return if v.is_sign_negative() { "-0" } else { "0" }.to_string();
    }
    // The exponent after rounding to `p` digits (9.9999995 rounds to 1.00000e+01).
    let rounded = format!("{v:.prec$e}", prec = p - 1);
    let exp: i64 = rounded
        .split_once('e')
        .and_then(|(_, e)| e.parse().ok())
        .unwrap_or(0);
    let p = p as i64;
    let trim = |s: String| -> String {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        }
    };
    if exp < -4 || exp >= p {
        let text = c_exponent(v, (p - 1) as usize);
        match text.split_once('e') {
            Some((m, e)) => format!("{}e{e}", trim(m.to_string())),
            None => text,
        }
    } else {
        trim(format!("{v:.prec$}", prec = (p - 1 - exp) as usize))
    }
}

/// Infinity and NaN as C prints them.
fn c_special(v: f64) -> String {
    match (v.is_nan(), v.is_sign_negative()) {
        (true, _) => "nan".into(),
        (false, true) => "-inf".into(),
        (false, false) => "inf".into(),
    }
}

/// Format `fmt` with `args` as C's `printf` would, or say what does not fit the subset.
pub fn format(fmt: &str, args: &[Value]) -> Result<String, String> {
    let mut out = String::new();
    let mut args = args.iter();
    let mut chars = fmt.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(if c.is_control() && c != '\n' && c != '\t' {
                '?'
            } else {
                c
            });
            continue;
        }
        let mut spec = String::new();
        while let Some(&n) = chars.peek() {
            spec.push(n);
            chars.next();
            if n.is_ascii_alphabetic() && !matches!(n, 'l' | 'z' | 'h') || n == '%' {
                break;
            }
        }
        let conv = spec.chars().last().unwrap_or(' ');
        if conv == '%' {
            out.push('%');
            continue;
        }
        // `*` takes the width or precision from the next argument; widths are not padded here,
        // so honouring it would still print other text than C, and ignoring it printed the width
        // as the value (review 2026-12-01b CK8: `%*d` of 5, 42 printed `5`). Refused, as `%n`.
        if spec.contains('*') {
            return Err(format!(
                "`%{spec}`: a width or precision taken from an argument (`*`) is not supported here; write the number into the format (`%5d`, `%.2f`)"
            ));
        }
        let precision = precision_of(&spec)?;
        let arg = args.next().ok_or_else(|| {
            format!("`printf` has more `%` conversions than arguments (at `%{spec}`)")
        })?;
        let text = convert(conv, &spec, precision, arg)?;
        out += &pad(text, &spec, conv != 's' && conv != 'c');
    }
    Ok(out)
}

/// One conversion (`conv`, the last letter of `spec`, with its `precision`) of `arg`, before
/// padding to the field width.
fn convert(
    conv: char,
    spec: &str,
    precision: Option<usize>,
    arg: &Value,
) -> Result<String, String> {
    let bad = || format!("`%{spec}` does not match {}", arg.describe());
    let int = || {
        arg.as_i64()
            .filter(|_| !matches!(arg, Value::Float(_)))
            .ok_or_else(bad)
    };
    Ok(match conv {
        'd' | 'i' | 'u' => c_integer(int()?, conv, spec),
        // As C reads the argument: an `unsigned int` unless `l`/`z` makes it 64 bits.
        'x' | 'X' => {
            let v = int()?;
            let v = if spec.contains('l') || spec.contains('z') {
                v as u64
            } else {
                u64::from(v as u32)
            };
            if conv == 'x' {
                format!("{v:x}")
            } else {
                format!("{v:X}")
            }
        }
        'c' => {
            let byte = int()? as u8;
            let c = char::from(byte);
            if c.is_control() && c != '\n' && c != '\t' {
                '?'.to_string()
            } else if byte.is_ascii() {
                c.to_string()
            } else {
                '?'.to_string()
            }
        }
        'f' | 'F' => {
            let v = arg.as_f64().ok_or_else(bad)?;
            if v.is_finite() {
                format!("{:.*}", precision.unwrap_or(6), v)
            } else {
                c_special(v)
            }
        }
        'e' => c_exponent(arg.as_f64().ok_or_else(bad)?, precision.unwrap_or(6)),
        'g' => c_general(arg.as_f64().ok_or_else(bad)?, precision),
        's' => match arg {
            Value::Str(s) => s
                .chars()
                .map(|c| if c.is_control() && c != '\n' { '?' } else { c })
                .collect(),
            _ => return Err(bad()),
        },
        _ => {
            return Err(format!("`%{spec}` is not supported here; use {SUPPORTED}"));
        }
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// Review K7 (X21, X23): `%.65536f` panicked in the formatter; a precision too long to parse
    /// was dropped in silence.
    #[test]
    fn precision_and_width_are_bounded_with_a_message() {
        let one = [Value::Float(1.0)];
        assert_eq!(format("%.2f", &one).unwrap(), "1.00");
        assert_eq!(format("%.f", &one).unwrap(), "1");
        assert_eq!(format("%.100f", &one).unwrap().len(), 102);
        for spec in ["%.65536f", "%.65536e", "%.101f", "%.99999999999999999999f"] {
            let err = format(spec, &one).unwrap_err();
            assert!(
                err.contains("digits after the point") && err.contains("100"),
                "{spec}: {err}"
            );
        }
        let err = format("%99999999999d", &[Value::Int(1)]).unwrap_err();
        assert!(err.contains("wide") && err.contains("1000"), "{err}");
        // Widths pad as C pads (2.25 is 2.2 at one decimal: it rounds to even in binary).
        assert_eq!(
            format(
                "%5d|%-5.1f|%05d|%-4s|%3s",
                &[
                    Value::Int(7),
                    Value::Float(2.25),
                    Value::Int(-42),
                    Value::Str("ab".into()),
                    Value::Str("long".into())
                ]
            )
            .unwrap(),
            "    7|2.2  |-0042|ab  |long"
        );
    }

    /// Issue 27: what a learner prints while verifying, as C prints it.
    #[test]
    fn exponents_general_hex_and_chars_print_as_c_prints_them() {
        let f = |spec: &str, v: Value| format(spec, &[v]).unwrap();
        assert_eq!(f("%e", Value::Float(1.5)), "1.500000e+00");
        assert_eq!(f("%.2e", Value::Float(-12345.0)), "-1.23e+04");
        assert_eq!(f("%e", Value::Float(1e-300)), "1.000000e-300");
        assert_eq!(f("%g", Value::Float(0.1 + 0.2)), "0.3");
        assert_eq!(f("%g", Value::Float(1.5)), "1.5");
        assert_eq!(f("%g", Value::Float(100000.0)), "100000");
        assert_eq!(f("%g", Value::Float(1000000.0)), "1e+06");
        assert_eq!(f("%g", Value::Float(0.0001)), "0.0001");
        assert_eq!(f("%g", Value::Float(0.00001234)), "1.234e-05");
        assert_eq!(f("%.3g", Value::Float(9.9996)), "10");
        assert_eq!(f("%g", Value::Float(0.0)), "0");
        assert_eq!(f("%f", Value::Float(f64::INFINITY)), "inf");
        assert_eq!(f("%x", Value::Int(255)), "ff");
        assert_eq!(f("%X", Value::Int(-1)), "FFFFFFFF");
        assert_eq!(f("%lx", Value::Int(-1)), "ffffffffffffffff");
        assert_eq!(f("%08x", Value::Int(48879)), "0000beef");
        assert_eq!(f("%c", Value::Int(65)), "A");
        assert_eq!(f("%c", Value::Int(7)), "?");
        let err = format("%p", &[Value::Int(1)]).unwrap_err();
        assert_eq!(err, format!("`%p` is not supported here; use {SUPPORTED}"));
    }

    /// Review 2026-12-01b CK8: `*` never prints the width as the value; it is refused.
    #[test]
    fn a_star_width_or_precision_is_refused_with_a_message() {
        for spec in ["%*d|", "%.*f", "%-*.*e"] {
            let err = format(spec, &[Value::Int(5), Value::Int(42)]).unwrap_err();
            assert!(err.contains("(`*`) is not supported"), "{spec}: {err}");
        }
        assert_eq!(format("%d|", &[Value::Int(42)]).unwrap(), "42|");
    }

    /// Review 2026-12-01 X25: C's conversions, not the interpreter's 64-bit integers.
    #[test]
    fn integers_print_as_cs_int_unsigned_and_long() {
        let f = |spec: &str, v: i64| format(spec, &[Value::Int(v)]).unwrap();
        assert_eq!(f("%u", -1), "4294967295");
        assert_eq!(f("%d", 65536 * 65536), "0");
        assert_eq!(f("%d", -5), "-5");
        assert_eq!(f("%i", 2_147_483_648), "-2147483648");
        assert_eq!(f("%zu", -1), "18446744073709551615");
        assert_eq!(f("%lu", 4_294_967_296), "4294967296");
        assert_eq!(f("%lld", 9_007_199_254_740_993), "9007199254740993");
        assert_eq!(f("%ld", -3), "-3");
    }
}
