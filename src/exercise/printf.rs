//! `printf` for the subset: `%d %i %u %ld %lld %zu %f %.Nf %g %e %s %%`. Output is kept as text
//! with control characters other than newline and tab replaced, so it is safe to show.

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
        let bad = || format!("`%{spec}` does not match {}", arg.describe());
        match conv {
            'd' | 'i' | 'u' => {
                let v = arg
                    .as_i64()
                    .filter(|_| !matches!(arg, Value::Float(_)))
                    .ok_or_else(bad)?;
                out += &c_integer(v, conv, &spec);
            }
            'f' | 'F' => {
                out += &format!(
                    "{:.*}",
                    precision.unwrap_or(6),
                    arg.as_f64().ok_or_else(bad)?
                )
            }
            'e' => {
                out += &format!(
                    "{:.*e}",
                    precision.unwrap_or(6),
                    arg.as_f64().ok_or_else(bad)?
                )
            }
            'g' => out += &format!("{}", arg.as_f64().ok_or_else(bad)?),
            's' => match arg {
                Value::Str(s) => out.extend(
                    s.chars()
                        .map(|c| if c.is_control() && c != '\n' { '?' } else { c }),
                ),
                _ => return Err(bad()),
            },
            _ => return Err(format!("`%{spec}` is not supported here; use %d %zu %f %s")),
        }
    }
    Ok(out)
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
        assert_eq!(
            format("%5d|%-3.1f", &[Value::Int(7), Value::Float(2.25)]).unwrap(),
            "7|2.2"
        );
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
