//! What a kernel's mangled name (Itanium C++ ABI, as nvcc writes it) says about its
//! parameters, enough to tell a kernel's reads from its writes: `_Z6kernelPKfPfi` takes a
//! pointer to const (`const float*`: read only), a pointer (`float*`: read and written) and a
//! value (`int`). Only what kernels usually take is parsed: builtin types, class names,
//! pointers, `const`/`volatile`/`restrict`, and the substitutions `S_`, `S0_`, ... that refer
//! back to them; anything else (templates, function pointers, `extern "C"` names) makes the
//! rest of the parameters [`Param::Unknown`], which the judge treats as read-write and says so.

/// One parameter as the judge needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Param {
    /// A pointer to const: the kernel only reads through it.
    ConstPointer,
    /// A pointer (to non-const, or to pointers): the kernel may read and write.
    Pointer,
    /// Passed by value: touches no memory the trace knows.
    Value,
    /// Not parsed.
    Unknown,
}

#[derive(Debug, Clone, PartialEq)]
enum Ty {
    /// A builtin type, by its one-letter code (`f` float, `m` unsigned long, ...; `D` for the
    /// two-letter ones).
    Builtin(u8),
    Named,
    Const(Box<Ty>),
    /// `volatile` or `restrict`: no bearing on reads and writes.
    Qualified(Box<Ty>),
    Pointer(Box<Ty>),
}

/// Per parameter, what `mangled` says; an empty list for a name that is not a mangled
/// function (the caller then knows nothing).
pub fn params(mangled: &str) -> Vec<Param> {
    shapes(mangled).into_iter().map(|s| s.param).collect()
}

/// What a parameter's type says of the memory a kernel touches through it, beyond
/// [`Param`]: for a pointer, the size of what it points to; for a value, whether it is an
/// integer (a count, perhaps).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    pub param: Param,
    /// A pointer to a builtin type: its size in bytes.
    pub elem_bytes: Option<u64>,
    /// Passed by value and an integer type.
    pub integer: bool,
}

/// Per parameter, its [`Shape`] (as [`params`], with sizes).
pub fn shapes(mangled: &str) -> Vec<Shape> {
    let mut p = Parser {
        s: mangled.as_bytes(),
        at: 0,
        subs: Vec::new(),
        name_end: 0,
    };
    if !p.eat(b"_Z") || p.name().is_none() {
        return Vec::new();
    }
    let mut out = Vec::new();
    while p.at < p.s.len() {
        let Some(t) = p.ty() else {
            out.push(Shape {
                param: Param::Unknown,
                elem_bytes: None,
                integer: false,
            });
            break;
        };
        let (elem_bytes, integer) = match strip(&t) {
            Ty::Pointer(inner) => (builtin_bytes(unqualified(inner)), false),
            Ty::Builtin(c) => (None, is_integer(*c)),
            _ => (None, false),
        };
        out.push(Shape {
            param: classify(&t),
            elem_bytes,
            integer,
        });
    }
    if &p.s[p.name_end..] == b"v" {
        out.clear();
    }
    out
}

/// `t` less every `const`/`volatile`/`restrict`.
fn unqualified(t: &Ty) -> &Ty {
    match t {
        Ty::Qualified(inner) | Ty::Const(inner) => unqualified(inner),
        other => other,
    }
}

/// The size of a builtin type (Itanium ABI codes, LP64).
fn builtin_bytes(t: &Ty) -> Option<u64> {
    let Ty::Builtin(c) = t else { return None };
    match c {
        b'b' | b'c' | b'a' | b'h' => Some(1),
        b's' | b't' => Some(2),
        b'w' | b'i' | b'j' | b'f' => Some(4),
        b'l' | b'm' | b'x' | b'y' | b'd' => Some(8),
        b'n' | b'o' | b'g' => Some(16),
        _ => None,
    }
}

fn is_integer(c: u8) -> bool {
    matches!(
        c,
        b'c' | b'a' | b'h' | b's' | b't' | b'i' | b'j' | b'l' | b'm' | b'x' | b'y'
    )
}

/// The parameter at `index` (past the parsed ones: unknown).
pub fn param(params: &[Param], index: usize) -> Param {
    params.get(index).copied().unwrap_or(Param::Unknown)
}

fn classify(t: &Ty) -> Param {
    match strip(t) {
        Ty::Pointer(inner) => match strip(inner) {
            Ty::Const(_) => Param::ConstPointer,
            _ => Param::Pointer,
        },
        _ => Param::Value,
    }
}

/// `t` less any `volatile`/`restrict`, and less `const` on the outside (a const pointer is
/// still a pointer).
fn strip(t: &Ty) -> &Ty {
    match t {
        Ty::Qualified(inner) => strip(inner),
        Ty::Const(inner) if matches!(strip(inner), Ty::Pointer(_)) => strip(inner),
        other => other,
    }
}

struct Parser<'a> {
    s: &'a [u8],
    at: usize,
    /// The substitution candidates, in order (`S_` is the first).
    subs: Vec<Ty>,
    name_end: usize,
}

impl Parser<'_> {
    fn eat(&mut self, what: &[u8]) -> bool {
        if self.s[self.at..].starts_with(what) {
            self.at += what.len();
            true
        } else {
            false
        }
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.at).copied()
    }

    /// `<len><identifier>`.
    fn source_name(&mut self) -> Option<()> {
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
        }
        let len: usize = std::str::from_utf8(&self.s[start..self.at])
            .ok()?
            .parse()
            .ok()?;
        if len == 0 || self.at + len > self.s.len() {
            return None;
        }
        self.at += len;
        Some(())
    }

    /// The function's name: a source name, or `N <source name>+ E` (each prefix but the whole
    /// name a substitution candidate). Templates are not parsed.
    fn name(&mut self) -> Option<()> {
        if self.eat(b"N") {
            let mut parts = 0;
            while !self.eat(b"E") {
                self.source_name()?;
                parts += 1;
                if self.peek() != Some(b'E') {
                    self.subs.push(Ty::Named);
                }
            }
            if parts == 0 {
                return None;
            }
        } else {
            self.source_name()?;
        }
        if self.peek() == Some(b'I') {
            return None;
        }
        self.name_end = self.at;
        Some(())
    }

    fn ty(&mut self) -> Option<Ty> {
        let c = self.peek()?;
        self.at += 1;
        let t = match c {
            b'v' | b'w' | b'b' | b'c' | b'a' | b'h' | b's' | b't' | b'i' | b'j' | b'l' | b'm'
            | b'x' | b'y' | b'n' | b'o' | b'f' | b'd' | b'e' | b'g' | b'z' => {
                return Some(Ty::Builtin(c));
            }
            // `Dh` (half), `Df`, `Dn`, ...: builtins of two letters.
            b'D' => {
                self.at += 1;
                return (self.at <= self.s.len()).then_some(Ty::Builtin(b'D'));
            }
            b'P' => Ty::Pointer(Box::new(self.ty()?)),
            b'K' => Ty::Const(Box::new(self.ty()?)),
            b'V' | b'r' => Ty::Qualified(Box::new(self.ty()?)),
            b'0'..=b'9' => {
                self.at -= 1;
                self.source_name()?;
                Ty::Named
            }
            b'S' => return self.substitution(),
            _ => return None,
        };
        self.subs.push(t.clone());
        Some(t)
    }

    /// `S_` (the first candidate), `S<base 36>_` (the one after that number).
    fn substitution(&mut self) -> Option<Ty> {
        if self.eat(b"_") {
            return self.subs.first().cloned();
        }
        let mut n = 0usize;
        loop {
            let c = self.peek()?;
            self.at += 1;
            match c {
                b'0'..=b'9' => n = n * 36 + usize::from(c - b'0'),
                b'A'..=b'Z' => n = n * 36 + usize::from(c - b'A') + 10,
                b'_' => return self.subs.get(n + 1).cloned(),
                _ => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Param::*;
    use super::*;

    #[test]
    fn pointers_to_const_pointers_and_values() {
        assert_eq!(params("_Z6kernelPKfPfi"), [ConstPointer, Pointer, Value]);
        assert_eq!(params("_Z7add_onePii"), [Pointer, Value]);
        // `const volatile double*`, `double* __restrict__`, `size_t`.
        assert_eq!(params("_Z4copyPVKdrPdm"), [ConstPointer, Pointer, Value]);
        // A const pointer to non-const is still written through.
        assert_eq!(params("_Z1kKPf"), [Pointer]);
        // A struct pointer and a struct by value; a half pointer.
        assert_eq!(
            params("_Z1kP6float46float4PKDh"),
            [Pointer, Value, ConstPointer]
        );
    }

    #[test]
    fn substitutions_refer_back_to_earlier_types() {
        // S_ = Kf, S0_ = PKf: both inputs are const float*.
        assert_eq!(
            params("_Z3addPKfS0_Pf"),
            [ConstPointer, ConstPointer, Pointer]
        );
        // S_ = float4 (a class name), S0_ = float4*.
        assert_eq!(params("_Z1kP6float4S0_"), [Pointer, Pointer]);
        // In a namespace: S_ = ns, S0_ = Kf, S1_ = PKf.
        assert_eq!(
            params("_ZN2ns6kernelEPKfS1_Pf"),
            [ConstPointer, ConstPointer, Pointer]
        );
    }

    #[test]
    fn shapes_give_pointee_sizes_and_integer_values() {
        let s = shapes("_Z4spinxPfm");
        assert_eq!(
            s.iter()
                .map(|s| (s.elem_bytes, s.integer))
                .collect::<Vec<_>>(),
            [(None, true), (Some(4), false), (None, true)]
        );
        let s = shapes("_Z4copyPVKdrPdf");
        assert_eq!(
            s.iter()
                .map(|s| (s.param, s.elem_bytes, s.integer))
                .collect::<Vec<_>>(),
            [
                (ConstPointer, Some(8), false),
                (Pointer, Some(8), false),
                (Value, None, false)
            ]
        );
        // A struct pointer has no known element size.
        assert_eq!(shapes("_Z1kP6float4")[0].elem_bytes, None);
    }

    #[test]
    fn what_is_not_parsed_is_unknown_and_void_is_no_parameter() {
        assert_eq!(params("_Z5emptyv"), Vec::<Param>::new());
        assert_eq!(params("kernel_c_linkage"), Vec::<Param>::new());
        assert_eq!(params("_Z6kernelIfEvPT_"), Vec::<Param>::new());
        assert_eq!(params("_Z1kPfFviE"), [Pointer, Unknown]);
        assert_eq!(param(&params("_Z1kPf"), 3), Unknown);
    }
}
