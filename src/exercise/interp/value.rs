//! Values of the subset and the variables that hold them.

/// `cudaStreamLegacy`'s handle value in the CUDA headers (`(cudaStream_t)0x1`).
pub const LEGACY_HANDLE: i64 = 1;
/// `cudaStreamPerThread`'s handle value in the CUDA headers (`(cudaStream_t)0x2`).
pub const PER_THREAD_HANDLE: i64 = 2;
/// The per-thread default stream as a stream value, before the run has made it (see
/// `Interp::stream_arg`).
pub const PER_THREAD: StreamId = StreamId(u32::MAX);

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::exercise::ast::{Elem, Ty};
use crate::exercise::log::RegionId;
use crate::gpu::{EventId, StreamId};

/// A value while the program runs.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Int(i64),
    Float(f64),
    Bool(bool),
    /// A pointer into an allocation, `off` bytes from its start, to elements of `elem`.
    Ptr {
        region: RegionId,
        off: i64,
        elem: Elem,
    },
    Null,
    Stream(StreamId),
    Event(EventId),
    Str(String),
    /// `&x`: where an out-parameter goes.
    Ref(Place),
    /// A function of the file, by name (the host function of `cudaLaunchHostFunc`).
    Func(String),
    /// A `dim3`: x, y, z, each at least 1.
    Dim3([i64; 3]),
    Void,
    /// Declared without a value.
    Uninit,
}

/// A variable (or one element of an array variable), found by scope depth and name.
#[derive(Debug, Clone, PartialEq)]
pub struct Place {
    pub scope: usize,
    pub name: String,
    pub index: usize,
}

/// One scope's variables by name, hashed with [`NameHasher`]: every variable read looks names
/// up, and SipHash (std's default, built against hostile keys) was a tenth of a loop's time.
pub(super) type Scope = HashMap<String, Var, BuildHasherDefault<NameHasher>>;

/// FxHash (rustc's hasher): a multiply and a rotate per word. The keys are the program's own
/// variable names, a few per scope, so flooding is not a concern (a scope's names are bounded
/// by the program's size, which the parse bounds).
#[derive(Default, Clone, Copy)]
pub(super) struct NameHasher(u64);

impl Hasher for NameHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Byte by byte: names are a few bytes long, and this stays cheap unoptimised too.
        const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(K);
        }
    }
}

/// A declared variable: one slot, or `n` for an array.
#[derive(Debug, Clone)]
pub(super) struct Var {
    pub ty: Ty,
    pub slots: Vec<Value>,
    pub array: bool,
}

impl Value {
    /// What the value is, for messages: "a pointer", "a stream", ...
    pub fn describe(&self) -> &'static str {
        match self {
            Value::Int(_) => "an integer",
            // A NaN or an infinity is the answer to "why not": say which (review 2026-12-01b
            // CK10: "must be a number, not a number").
            Value::Float(f) if f.is_nan() => "NaN (not a number)",
            Value::Float(f) if f.is_infinite() => "an infinity",
            Value::Float(_) => "a number",
            Value::Bool(_) => "a bool",
            Value::Ptr { .. } => "a pointer",
            Value::Null => "NULL",
            Value::Stream(_) => "a stream",
            Value::Event(_) => "an event",
            Value::Str(_) => "a string",
            Value::Ref(_) => "an address (&x)",
            Value::Func(_) => "a function",
            Value::Dim3(_) => "a dim3",
            Value::Void => "nothing (a call with no result)",
            Value::Uninit => "a variable with no value yet",
        }
    }

    /// The number, if it is one (bools count as 0/1).
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Int(i) => Some(*i as f64),
            Value::Float(f) => Some(*f),
            Value::Bool(b) => Some(f64::from(u8::from(*b))),
            _ => None,
        }
    }

    /// The integer, if it is one; floats truncate toward zero as a C cast does.
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            Value::Float(f) if f.is_finite() => Some(*f as i64),
            Value::Bool(b) => Some(i64::from(*b)),
            _ => None,
        }
    }

    /// C truthiness.
    pub fn truth(&self) -> Option<bool> {
        match self {
            Value::Ptr { .. } => Some(true),
            Value::Null => Some(false),
            v => v.as_f64().map(|x| x != 0.0),
        }
    }
}

/// Convert `v` to what a variable of type `ty` holds, as C's implicit conversions do, or say
/// why it cannot be stored.
pub(super) fn convert(ty: Ty, v: Value) -> Result<Value, String> {
    let bad = |v: &Value| {
        Err(match (ty, v) {
            // `Ty::Int` is every integer type (`long long`, `size_t`, …): name them all, and
            // say that C leaves this conversion undefined.
            (Ty::Int, Value::Float(_)) => format!(
                "cannot convert {} to an integer type (`int`, `long long`, `size_t`, …): it is not a finite number, and C leaves the result undefined; check the division or value that made it",
                v.describe()
            ),
            _ => format!(
                "cannot store {} in a `{}` variable",
                v.describe(),
                ty_name(ty)
            ),
        })
    };
    match ty {
        Ty::Int => v.as_i64().map(Value::Int).map_or_else(|| bad(&v), Ok),
        Ty::Float => v
            .as_f64()
            .map(|x| Value::Float(f64::from(x as f32)))
            .map_or_else(|| bad(&v), Ok),
        Ty::Double => v.as_f64().map(Value::Float).map_or_else(|| bad(&v), Ok),
        Ty::Bool => v.truth().map(Value::Bool).map_or_else(|| bad(&v), Ok),
        Ty::Ptr(elem) => match v {
            // Stored in (or cast to) a pointer of a type, it points to that type's elements.
            Value::Ptr { region, off, .. } => Ok(Value::Ptr { region, off, elem }),
            // `&x`, `&a[i]` or an array decayed to its first element (`median(times, n)`):
            // where it may be stored is checked by `Interp::write_place`, so it never outlives
            // what it points to.
            Value::Null | Value::Ref(_) => Ok(v),
            Value::Int(0) => Ok(Value::Null),
            _ => bad(&v),
        },
        Ty::Stream => match v {
            Value::Stream(_) => Ok(v),
            Value::Int(0 | LEGACY_HANDLE) | Value::Null => {
                Ok(Value::Stream(StreamId::LEGACY_DEFAULT))
            }
            Value::Int(PER_THREAD_HANDLE) => Ok(Value::Stream(PER_THREAD)),
            _ => bad(&v),
        },
        Ty::Event => match v {
            Value::Event(_) => Ok(v),
            _ => bad(&v),
        },
        Ty::Str => match v {
            Value::Str(_) | Value::Null => Ok(v),
            _ => bad(&v),
        },
        // `dim3 g = 256;` is `dim3 g(256)`.
        Ty::Dim3 => match v {
            Value::Dim3(_) => Ok(v),
            Value::Int(x) if x >= 1 => Ok(Value::Dim3([x, 1, 1])),
            _ => bad(&v),
        },
    }
}

pub(super) fn ty_name(ty: Ty) -> &'static str {
    match ty {
        Ty::Int => "int",
        Ty::Float => "float",
        Ty::Double => "double",
        Ty::Bool => "bool",
        Ty::Stream => "cudaStream_t",
        Ty::Event => "cudaEvent_t",
        Ty::Ptr(Elem::Float) => "float *",
        Ty::Ptr(Elem::Int) => "int *",
        Ty::Ptr(Elem::Other(_)) => "pointer",
        Ty::Str => "const char *",
        Ty::Dim3 => "dim3",
    }
}
