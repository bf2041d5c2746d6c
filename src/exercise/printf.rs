//! `printf` for the subset: `%d %i %u %ld %lld %zu %f %.Nf %g %e %s %%`. Output is kept as text
//! with control characters other than newline and tab replaced, so it is safe to show.

use super::interp::Value;

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
        let precision = spec.split_once('.').and_then(|(_, p)| {
            p.trim_end_matches(|c: char| c.is_ascii_alphabetic())
                .parse::<usize>()
                .ok()
        });
        let arg = args.next().ok_or_else(|| {
            format!("`printf` has more `%` conversions than arguments (at `%{spec}`)")
        })?;
        let bad = || format!("`%{spec}` does not match {}", arg.describe());
        match conv {
            'd' | 'i' | 'u' => {
                out += &arg
                    .as_i64()
                    .filter(|_| !matches!(arg, Value::Float(_)))
                    .ok_or_else(bad)?
                    .to_string()
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
