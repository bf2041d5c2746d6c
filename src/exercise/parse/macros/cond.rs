//! Conditional inclusion: `#if`, `#ifdef`, `#ifndef`, `#elif`, `#else` and `#endif`, as the
//! preprocessor reads them (NVIDIA's samples guard their host code with them). A condition is
//! an integer expression of numbers, macros (expanded first), `defined(NAME)` / `defined NAME`,
//! the arithmetic, comparison and logical operators and parentheses; a name that is not a
//! macro is 0, as in C. Lines in a group not taken become empty lines, so lines never move.

use std::collections::HashMap;

use super::Macro;
use super::scan::ident_len;

/// Deepest nesting of conditional groups (and of parentheses in a condition).
pub(super) const MAX_NESTING: usize = 64;

/// A conditional directive on a line.
#[derive(Debug, PartialEq)]
pub(super) enum Directive<'l> {
    If(&'l str),
    Ifdef(&'l str),
    Ifndef(&'l str),
    Elif(&'l str),
    Else,
    Endif,
}

/// The conditional directive `line` holds, if it holds one.
pub(super) fn directive(line: &str) -> Option<Directive<'_>> {
    let rest = line.trim_start().strip_prefix('#')?.trim_start();
    let len = ident_len(rest.as_bytes(), 0);
    let (word, arg) = rest.split_at(len);
    let arg = arg.trim();
    // A comment after the directive is not part of it.
    let arg = arg.find("//").map_or(arg, |i| arg[..i].trim_end());
    let arg = arg.find("/*").map_or(arg, |i| arg[..i].trim_end());
    Some(match word {
        "if" => Directive::If(arg),
        "ifdef" => Directive::Ifdef(name(arg)),
        "ifndef" => Directive::Ifndef(name(arg)),
        "elif" => Directive::Elif(arg),
        "else" => Directive::Else,
        "endif" => Directive::Endif,
        _ => return None,
    })
}

/// The macro name at the start of `a` (empty when none).
fn name(a: &str) -> &str {
    let n = ident_len(a.as_bytes(), 0);
    a.get(..n).unwrap_or("")
}

/// One open conditional group: whether its lines are read now, whether one of its branches
/// was taken already, whether `#else` was seen, and the line of its `#if`.
#[derive(Debug)]
struct Group {
    active: bool,
    taken: bool,
    seen_else: bool,
    line: usize,
}

/// The open conditional groups.
#[derive(Debug, Default)]
pub(super) struct Conditions {
    groups: Vec<Group>,
}

impl Conditions {
    /// Whether the lines here are read (every enclosing group is in a taken branch).
    pub fn active(&self) -> bool {
        self.groups.last().is_none_or(|g| g.active)
    }

    /// Apply directive `d` on line `line`; an error says what is wrong with it.
    pub fn apply(
        &mut self,
        d: Directive,
        line: usize,
        macros: &HashMap<String, Macro>,
    ) -> Result<(), String> {
        let outer = self.active();
        match d {
            Directive::If(e) | Directive::Ifdef(e) | Directive::Ifndef(e) => {
                if self.groups.len() >= MAX_NESTING {
                    return Err(format!(
                        "conditional groups (`#if`) nested more than {MAX_NESTING} deep"
                    ));
                }
                let yes = outer
                    && match d {
                        Directive::If(_) => eval(e, macros)?,
                        Directive::Ifdef(_) => defined(e, macros)?,
                        _ => !defined(e, macros)?,
                    };
                self.groups.push(Group {
                    active: yes,
                    taken: yes,
                    seen_else: false,
                    line,
                });
            }
            Directive::Elif(e) => {
                let enclosing = self.enclosing_active();
                let g = self.open("#elif")?;
                if g.seen_else {
                    return Err("`#elif` after `#else`".into());
                }
                let yes = enclosing && !g.taken && eval(e, macros)?;
                let g = self.open("#elif")?;
                g.active = yes;
                g.taken |= yes;
            }
            Directive::Else => {
                let enclosing = self.enclosing_active();
                let g = self.open("#else")?;
                if g.seen_else {
                    return Err("a second `#else` for one `#if`".into());
                }
                g.seen_else = true;
                g.active = enclosing && !g.taken;
                g.taken = true;
            }
            Directive::Endif => {
                self.open("#endif")?;
                self.groups.pop();
            }
        }
        Ok(())
    }

    /// The line of the first `#if` still open at the end of the file.
    pub fn unclosed(&self) -> Option<usize> {
        self.groups.first().map(|g| g.line)
    }

    /// Whether the groups around the innermost are all in taken branches.
    fn enclosing_active(&self) -> bool {
        let n = self.groups.len();
        self.groups[..n.saturating_sub(1)].iter().all(|g| g.active)
    }

    fn open(&mut self, what: &str) -> Result<&mut Group, String> {
        self.groups
            .last_mut()
            .ok_or_else(|| format!("`{what}` without an `#if` before it"))
    }
}

/// `#ifdef NAME`'s answer.
fn defined(name: &str, macros: &HashMap<String, Macro>) -> Result<bool, String> {
    if name.is_empty() {
        return Err("`#ifdef` and `#ifndef` need a macro name".into());
    }
    Ok(macros.contains_key(name))
}

/// An `#if` condition's truth.
fn eval(text: &str, macros: &HashMap<String, Macro>) -> Result<bool, String> {
    let mut p = Cond {
        b: text.as_bytes(),
        i: 0,
        macros,
        depth: 0,
    };
    let v = p.or()?;
    p.space();
    if p.i < p.b.len() {
        return Err(format!(
            "cannot read the `#if` condition `{}` (numbers, macros, `defined(NAME)`, operators and parentheses)",
            text.chars()
                .filter(|c| !c.is_control())
                .take(40)
                .collect::<String>()
        ));
    }
    Ok(v != 0)
}

/// A condition being read: its bytes, where, the macros (an object-like macro's value is read
/// as a condition in its turn) and how deep.
struct Cond<'a> {
    b: &'a [u8],
    i: usize,
    macros: &'a HashMap<String, Macro>,
    depth: usize,
}

type R = Result<i64, String>;

impl Cond<'_> {
    fn space(&mut self) {
        while self.b.get(self.i).is_some_and(|c| c.is_ascii_whitespace()) {
            self.i += 1;
        }
    }

    /// Whether `op` comes next (and not as the start of a longer operator it prefixes).
    fn eat(&mut self, op: &str) -> bool {
        self.space();
        let o = op.as_bytes();
        if !self.b[self.i..].starts_with(o) {
            return false;
        }
        let next = self.b.get(self.i + o.len()).copied();
        let longer = match op {
            "<" | ">" => matches!(next, Some(b'=' | b'<' | b'>')),
            "!" | "=" => next == Some(b'='),
            "&" => next == Some(b'&'),
            "|" => next == Some(b'|'),
            _ => false,
        };
        if longer {
            return false;
        }
        self.i += o.len();
        true
    }

    fn or(&mut self) -> R {
        let mut v = self.and()?;
        while self.eat("||") {
            let r = self.and()?;
            v = i64::from(v != 0 || r != 0);
        }
        Ok(v)
    }

    fn and(&mut self) -> R {
        let mut v = self.cmp()?;
        while self.eat("&&") {
            let r = self.cmp()?;
            v = i64::from(v != 0 && r != 0);
        }
        Ok(v)
    }

    fn cmp(&mut self) -> R {
        let mut v = self.sum()?;
        loop {
            let op = ["==", "!=", "<=", ">=", "<", ">"]
                .into_iter()
                .find(|op| self.eat(op));
            let Some(op) = op else { return Ok(v) };
            let r = self.sum()?;
            v = i64::from(match op {
                "==" => v == r,
                "!=" => v != r,
                "<=" => v <= r,
                ">=" => v >= r,
                "<" => v < r,
                _ => v > r,
            });
        }
    }

    fn sum(&mut self) -> R {
        let mut v = self.product()?;
        loop {
            if self.eat("+") {
                v = v.wrapping_add(self.product()?);
            } else if self.eat("-") {
                v = v.wrapping_sub(self.product()?);
            } else {
                return Ok(v);
            }
        }
    }

    fn product(&mut self) -> R {
        let mut v = self.unary()?;
        loop {
            let op = ["*", "/", "%", "<<", ">>"]
                .into_iter()
                .find(|op| self.eat(op));
            let Some(op) = op else { return Ok(v) };
            let r = self.unary()?;
            v = match op {
                "*" => v.wrapping_mul(r),
                "/" | "%" if r == 0 => return Err("division by zero in an `#if`".into()),
                "/" => v.wrapping_div(r),
                "%" => v.wrapping_rem(r),
                "<<" => v.wrapping_shl(r.clamp(0, 63) as u32),
                _ => v.wrapping_shr(r.clamp(0, 63) as u32),
            };
        }
    }

    fn unary(&mut self) -> R {
        if self.eat("!") {
            return Ok(i64::from(self.unary()? == 0));
        }
        if self.eat("-") {
            return Ok(self.unary()?.wrapping_neg());
        }
        if self.eat("+") {
            return self.unary();
        }
        self.atom()
    }

    fn atom(&mut self) -> R {
        self.space();
        if self.eat("(") {
            self.deeper()?;
            let v = self.or()?;
            self.depth -= 1;
            if !self.eat(")") {
                return Err("a `(` in an `#if` condition is not closed".into());
            }
            return Ok(v);
        }
        let start = self.i;
        let len = ident_len(self.b, start);
        if len > 0 {
            self.i += len;
            let name = std::str::from_utf8(&self.b[start..start + len]).unwrap_or("");
            if name == "defined" {
                let paren = self.eat("(");
                self.space();
                let n = ident_len(self.b, self.i);
                let target = std::str::from_utf8(&self.b[self.i..self.i + n]).unwrap_or("");
                self.i += n;
                if n == 0 || (paren && !self.eat(")")) {
                    return Err("write `defined(NAME)` or `defined NAME` in an `#if`".into());
                }
                return Ok(i64::from(self.macros.contains_key(target)));
            }
            return match self.macros.get(name) {
                // An object-like macro: its value is read as a condition (bounded by depth).
                Some(m) if m.params.is_none() => {
                    self.deeper()?;
                    let mut inner = Cond {
                        b: m.body.as_bytes(),
                        i: 0,
                        macros: self.macros,
                        depth: self.depth,
                    };
                    let v = if m.body.trim().is_empty() {
                        0
                    } else {
                        inner.or()?
                    };
                    self.depth -= 1;
                    Ok(v)
                }
                // Not a macro (or a function-like one): 0, as the preprocessor says.
                _ => Ok(0),
            };
        }
        let digits = self.b[self.i..]
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric())
            .count();
        if digits == 0 {
            return Err(
                "an `#if` condition needs a number, a macro or `defined(NAME)` here".into(),
            );
        }
        let text = std::str::from_utf8(&self.b[self.i..self.i + digits])
            .unwrap_or("")
            .to_ascii_lowercase();
        self.i += digits;
        let text = text.trim_end_matches(['u', 'l']);
        let v = match text.strip_prefix("0x") {
            Some(hex) => i64::from_str_radix(hex, 16),
            None => text.parse(),
        };
        v.map_err(|_| format!("cannot read the number `{text}` in an `#if`"))
    }

    fn deeper(&mut self) -> Result<(), String> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(format!(
                "an `#if` condition nested more than {MAX_NESTING} deep"
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn macros(defs: &[(&str, &str)]) -> HashMap<String, Macro> {
        defs.iter()
            .map(|(n, b)| {
                (
                    n.to_string(),
                    Macro {
                        params: None,
                        body: b.to_string(),
                    },
                )
            })
            .collect()
    }

    #[test]
    fn conditions_read_numbers_macros_and_defined() {
        let m = macros(&[("N", "(1 << 20)"), ("DEBUG", ""), ("ONE", "1")]);
        let yes = |t: &str| eval(t, &m).unwrap_or_else(|e| panic!("{t}: {e}"));
        assert!(yes("1"));
        assert!(!yes("0"));
        assert!(yes("defined(DEBUG)"));
        assert!(yes("defined DEBUG && !defined(RELEASE)"));
        assert!(yes("N == 1048576"));
        assert!(yes("N > 1000 || 0"));
        assert!(!yes("UNDEFINED_NAME"));
        assert!(yes("ONE + 1 == 2 && (3 % 2) == 1"));
        assert!(yes("0x10 >= 16"));
        assert!(eval("1 +", &m).is_err());
        assert!(eval("(1", &m).is_err());
    }

    #[test]
    fn groups_take_one_branch_and_nest() {
        let m = macros(&[("A", "1")]);
        let mut c = Conditions::default();
        c.apply(Directive::Ifdef("A"), 1, &m).unwrap();
        assert!(c.active());
        c.apply(Directive::If("0"), 2, &m).unwrap();
        assert!(!c.active());
        c.apply(Directive::Elif("1"), 3, &m).unwrap();
        assert!(c.active());
        c.apply(Directive::Else, 4, &m).unwrap();
        assert!(!c.active());
        c.apply(Directive::Endif, 5, &m).unwrap();
        assert!(c.active());
        c.apply(Directive::Else, 6, &m).unwrap();
        assert!(!c.active(), "#else of a taken #ifdef");
        // Inside a group not taken, nothing is taken, whatever its own condition.
        c.apply(Directive::If("1"), 7, &m).unwrap();
        assert!(!c.active());
        assert_eq!(c.unclosed(), Some(1));
        c.apply(Directive::Endif, 8, &m).unwrap();
        c.apply(Directive::Endif, 9, &m).unwrap();
        assert_eq!(c.unclosed(), None);
        let e = c.apply(Directive::Endif, 10, &m).unwrap_err();
        assert!(e.contains("without an `#if`"), "{e}");
        assert_eq!(
            directive("  #  ifndef  X // why"),
            Some(Directive::Ifndef("X"))
        );
        assert_eq!(directive("#include <x>"), None);
    }
}
