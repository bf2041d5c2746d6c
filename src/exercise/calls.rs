//! The one table of what an exercise may call (issue 26): one row a call, in the spirit of
//! helix's `static_commands!`. A row gives the call's name, its signature (the arguments and
//! their kinds, from which its arity follows), its [`CallId`] (the handler the interpreter
//! dispatches on, with an exhaustive match: a row without a handler does not compile), its
//! ordering rule (a link into [`crate::ordering::rules`]) and its one-line doc.
//!
//! The parser's list of known calls, the interpreter's arity checks and dispatch, and the
//! README's "supported subset" (held by a test) all read this table. The trace importer of a
//! later issue maps real driver calls onto these rows, so the row type is public.
//! Kernel launches and named constants are in [`super::api`].

use crate::ordering::rules::{self, Rule};

/// What an argument is, as the handler reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A byte or element count: a non-negative integer.
    Count,
    /// An integer: flags, a copy kind, an error code, a byte value.
    Int,
    /// A number, integer or floating.
    Num,
    /// A pointer into an allocation (`NULL` where a release accepts it).
    Ptr,
    /// The address of a variable the call writes (`&ptr`, `&stream`).
    Out,
    /// A stream: a `cudaStream_t`, `0`, `cudaStreamLegacy` or `cudaStreamPerThread`.
    Stream,
    /// A `cudaEvent_t`.
    Event,
    /// A string literal.
    Str,
    /// `printf`'s format string; more arguments of any kind may follow.
    Format,
    /// A function of the file (`cudaLaunchHostFunc`'s host function).
    Func,
}

/// One parameter of a call's signature.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Param {
    pub name: &'static str,
    pub kind: Kind,
    /// May be left out (then the call uses its default: the legacy stream, flags 0, `y = z = 1`).
    pub optional: bool,
}

const fn p(name: &'static str, kind: Kind) -> Param {
    Param {
        name,
        kind,
        optional: false,
    }
}

const fn opt(name: &'static str, kind: Kind) -> Param {
    Param {
        name,
        kind,
        optional: true,
    }
}

/// What a call makes the host wait for, as a link to the rule that says so. The rules
/// themselves (and what the host may rely on) live in [`crate::ordering::rules`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OrderRule {
    /// Host work only: no device work queued, nothing waited for.
    Host,
    /// Creates or destroys a stream or event handle; nothing queued.
    Handle,
    /// Queues device work, or releases memory queued work may use; the host may rely on what
    /// this rule promises.
    Rule(&'static Rule),
    /// A copy: its rule follows from its direction and memory ([`rules::copy`]).
    Copy,
    /// Queues a marker in stream order (an event's record, a wait on an event); the host does
    /// not wait.
    Marker,
    /// A synchronisation: the host waits for the work it names (a stream, an event, the device).
    Waits,
    /// Asks whether work is done without waiting (`cudaSuccess` or `cudaErrorNotReady`).
    Polls,
}

/// The part of the subset a call belongs to (the handler's file in `interp/`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// Allocation, release and page-locking.
    Memory,
    /// Copies and memsets.
    Copies,
    /// Streams and device-wide synchronisation.
    Streams,
    /// Events.
    Events,
    /// Stream-ordered calls beyond copies: polling, host functions, stream-ordered allocation.
    Ordered,
    /// The runtime's error calls.
    Errors,
    /// NVTX annotations (no effect here).
    Nvtx,
    /// The C library, `dim3` and the helpers of `academy.cuh`.
    Helpers,
}

/// One callable function: everything the parser, the interpreter and the docs need of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallRow {
    pub id: CallId,
    pub name: &'static str,
    pub params: &'static [Param],
    pub family: Family,
    pub ordering: OrderRule,
    /// One line for the learner: what the call does here.
    pub doc: &'static str,
}

use Kind::{Count, Event, Format, Func, Int, Num, Out, Ptr, Str, Stream};

/// One line a call: `Id = "name" (params) Family, ordering, "doc";`. It makes [`CallId`] and
/// [`TABLE`] in the same order, so `TABLE[id as usize].id == id` (a test holds it).
macro_rules! calls {
    ($( $id:ident = $name:literal ( $($param:expr),* ) $family:ident, $ordering:expr, $doc:literal; )*) => {
        /// A call of the table, as the interpreter dispatches on it.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum CallId { $( $id ),* }

        /// Every callable function, one row each.
        pub const TABLE: &[CallRow] = &[ $( CallRow {
            id: CallId::$id,
            name: $name,
            params: &[ $( $param ),* ],
            family: Family::$family,
            ordering: $ordering,
            doc: $doc,
        } ),* ];
    };
}

calls! {
    Malloc = "malloc" (p("bytes", Count)) Memory, OrderRule::Host, "allocate pageable host memory";
    Free = "free" (p("ptr", Ptr)) Memory, OrderRule::Rule(&rules::FREE_IN_FLIGHT), "release `malloc` memory";
    Memcpy = "memcpy" (p("dst", Ptr), p("src", Ptr), p("bytes", Count)) Copies, OrderRule::Host, "copy between two host buffers";
    Printf = "printf" (p("format", Format)) Helpers, OrderRule::Host, "print, with %d %zu %f %s";
    Fprintf = "fprintf" (p("stream", Int), p("format", Format)) Helpers, OrderRule::Host, "print to `stderr` or `stdout`, as `printf`";
    Exit = "exit" (p("status", Int)) Helpers, OrderRule::Host, "end the program there (`EXIT_FAILURE`, or any status): what ran is judged";
    Min = "min" (p("a", Num), p("b", Num)) Helpers, OrderRule::Host, "the smaller of two numbers";
    Max = "max" (p("a", Num), p("b", Num)) Helpers, OrderRule::Host, "the larger of two numbers";
    CudaMalloc = "cudaMalloc" (p("ptr", Out), p("bytes", Count)) Memory, OrderRule::Host, "allocate device memory";
    CudaFree = "cudaFree" (p("ptr", Ptr)) Memory, OrderRule::Rule(&rules::FREE_IN_FLIGHT), "release device memory";
    CudaMallocHost = "cudaMallocHost" (p("ptr", Out), p("bytes", Count)) Memory, OrderRule::Host, "allocate pinned host memory";
    CudaFreeHost = "cudaFreeHost" (p("ptr", Ptr)) Memory, OrderRule::Rule(&rules::FREE_IN_FLIGHT), "release pinned host memory";
    CudaHostAlloc = "cudaHostAlloc" (p("ptr", Out), p("bytes", Count), p("flags", Int)) Memory, OrderRule::Host, "allocate pinned host memory with flags (write-combined with 4)";
    CudaHostRegister = "cudaHostRegister" (p("ptr", Ptr), p("bytes", Count), p("flags", Int)) Memory, OrderRule::Host, "pin a whole `malloc` buffer";
    CudaHostUnregister = "cudaHostUnregister" (p("ptr", Ptr)) Memory, OrderRule::Rule(&rules::FREE_IN_FLIGHT), "unpin a registered buffer";
    CudaMemcpy = "cudaMemcpy" (p("dst", Ptr), p("src", Ptr), p("bytes", Count), p("kind", Int)) Copies, OrderRule::Copy, "copy; the host waits as the copy's rule says";
    CudaMemcpyAsync = "cudaMemcpyAsync" (p("dst", Ptr), p("src", Ptr), p("bytes", Count), p("kind", Int), opt("stream", Stream)) Copies, OrderRule::Copy, "queue a copy on a stream";
    CudaMemset = "cudaMemset" (p("ptr", Ptr), p("byte", Int), p("bytes", Count)) Copies, OrderRule::Rule(&rules::MEMSET), "set device memory on the legacy stream";
    CudaMemsetAsync = "cudaMemsetAsync" (p("ptr", Ptr), p("byte", Int), p("bytes", Count), opt("stream", Stream)) Copies, OrderRule::Rule(&rules::ASYNC_OP), "set device memory in stream order";
    CudaStreamCreate = "cudaStreamCreate" (p("stream", Out)) Streams, OrderRule::Handle, "create a blocking stream";
    CudaStreamCreateWithFlags = "cudaStreamCreateWithFlags" (p("stream", Out), p("flags", Int)) Streams, OrderRule::Handle, "create a stream, non-blocking with cudaStreamNonBlocking";
    CudaStreamDestroy = "cudaStreamDestroy" (p("stream", Stream)) Streams, OrderRule::Handle, "destroy a stream (its queued work still runs)";
    CudaStreamSynchronize = "cudaStreamSynchronize" (p("stream", Stream)) Streams, OrderRule::Waits, "wait for a stream's work";
    CudaStreamWaitEvent = "cudaStreamWaitEvent" (p("stream", Stream), p("event", Event), opt("flags", Int)) Streams, OrderRule::Marker, "make a stream's later work wait for an event";
    CudaDeviceSynchronize = "cudaDeviceSynchronize" () Streams, OrderRule::Waits, "wait for all the device's work";
    CudaEventCreate = "cudaEventCreate" (p("event", Out)) Events, OrderRule::Handle, "create an event";
    CudaEventCreateWithFlags = "cudaEventCreateWithFlags" (p("event", Out), p("flags", Int)) Events, OrderRule::Handle, "create an event, without timing with cudaEventDisableTiming";
    CudaEventDestroy = "cudaEventDestroy" (p("event", Event)) Events, OrderRule::Handle, "destroy an event";
    CudaEventRecord = "cudaEventRecord" (p("event", Event), opt("stream", Stream)) Events, OrderRule::Marker, "record an event in stream order";
    CudaEventSynchronize = "cudaEventSynchronize" (p("event", Event)) Events, OrderRule::Waits, "wait for an event";
    CudaEventElapsedTime = "cudaEventElapsedTime" (p("ms", Out), p("start", Event), p("stop", Event)) Events, OrderRule::Polls, "milliseconds between two completed events";
    CudaStreamQuery = "cudaStreamQuery" (p("stream", Stream)) Ordered, OrderRule::Polls, "cudaSuccess or cudaErrorNotReady";
    CudaEventQuery = "cudaEventQuery" (p("event", Event)) Ordered, OrderRule::Polls, "cudaSuccess or cudaErrorNotReady";
    CudaLaunchHostFunc = "cudaLaunchHostFunc" (p("stream", Stream), p("fn", Func), p("data", Ptr)) Ordered, OrderRule::Rule(&rules::HOST_FUNC), "run `void CUDART_CB fn(void *data)` in stream order";
    CudaMallocAsync = "cudaMallocAsync" (p("ptr", Out), p("bytes", Count), p("stream", Stream)) Ordered, OrderRule::Rule(&rules::ASYNC_OP), "allocate device memory in stream order";
    CudaFreeAsync = "cudaFreeAsync" (p("ptr", Ptr), p("stream", Stream)) Ordered, OrderRule::Rule(&rules::ASYNC_OP), "release device memory in stream order";
    CudaGetLastError = "cudaGetLastError" () Errors, OrderRule::Host, "the last error, cleared";
    CudaPeekAtLastError = "cudaPeekAtLastError" () Errors, OrderRule::Host, "the last error, kept";
    CudaGetErrorString = "cudaGetErrorString" (p("err", Int)) Errors, OrderRule::Host, "an error code's text";
    CudaGetErrorName = "cudaGetErrorName" (p("err", Int)) Errors, OrderRule::Host, "an error code's name";
    NvtxRangePushA = "nvtxRangePushA" (p("name", Str)) Nvtx, OrderRule::Host, "open a named range for Nsight Systems (no effect here)";
    NvtxRangePop = "nvtxRangePop" () Nvtx, OrderRule::Host, "close the innermost range";
    NvtxMarkA = "nvtxMarkA" (p("name", Str)) Nvtx, OrderRule::Host, "a named instant for Nsight Systems (no effect here)";
    Dim3 = "dim3" (p("x", Count), opt("y", Count), opt("z", Count)) Helpers, OrderRule::Host, "a launch configuration, also `dim3 grid(x, y, z);`";
    FillInput = "fill_input" (p("h", Ptr), p("n", Count)) Helpers, OrderRule::Host, "write the input pattern";
    CheckOutput = "check_output" (p("h", Ptr), p("n", Count), opt("spins", Count)) Helpers, OrderRule::Host, "true when h holds transform of the input (after `spins` spin passes)";
    HostWork = "host_work" (p("ms", Num)) Helpers, OrderRule::Host, "keep the CPU busy";
    NowMs = "now_ms" () Helpers, OrderRule::Host, "a clock in milliseconds";
    Report = "report" (p("name", Str), p("value", Num)) Helpers, OrderRule::Host, "a metric the checks read";
}

impl CallId {
    /// This call's row.
    pub fn row(self) -> &'static CallRow {
        &TABLE[self as usize]
    }

    /// The name the learner writes.
    pub fn name(self) -> &'static str {
        self.row().name
    }
}

impl CallRow {
    /// The rule this row links to, when it names one ([`OrderRule::Rule`]).
    pub fn rule(&self) -> Option<&'static Rule> {
        match self.ordering {
            OrderRule::Rule(rule) => Some(rule),
            OrderRule::Host
            | OrderRule::Handle
            | OrderRule::Copy
            | OrderRule::Marker
            | OrderRule::Waits
            | OrderRule::Polls => None,
        }
    }

    /// Whether more arguments than the signature's may follow (`printf`).
    pub fn variadic(&self) -> bool {
        self.params.iter().any(|p| p.kind == Format)
    }

    /// How many arguments the call takes: (fewest, most).
    pub fn arity(&self) -> (usize, usize) {
        let min = self.params.iter().filter(|p| !p.optional).count();
        let max = if self.variadic() {
            usize::MAX
        } else {
            self.params.len()
        };
        (min, max)
    }

    /// Why `n` arguments are wrong for this call, or `None` when they are right.
    pub fn arity_error(&self, n: usize) -> Option<String> {
        let (min, max) = self.arity();
        if (min..=max).contains(&n) {
            return None;
        }
        let name = self.name;
        if max == usize::MAX {
            let first = self.params.first().map_or("an argument", |p| match p.kind {
                Format => "a format string",
                _ => p.name,
            });
            return Some(format!("`{name}` needs {first}"));
        }
        let want = if min == max {
            format!("{min}")
        } else {
            format!("{min} to {max}")
        };
        Some(format!("`{name}` takes {want} arguments, not {n}"))
    }

    /// The form the learner writes, e.g. `cudaMemcpyAsync(dst, src, bytes, kind[, stream])`.
    pub fn form(&self) -> String {
        let mut out = format!("{}(", self.name);
        for (i, p) in self.params.iter().enumerate() {
            let sep = if i == 0 { "" } else { ", " };
            let (open, close) = if p.optional { ("[", "]") } else { ("", "") };
            let amp = if p.kind == Out { "&" } else { "" };
            out.push_str(&format!("{open}{sep}{amp}{}{close}", p.name));
        }
        if self.variadic() {
            out.push_str(", ...");
        }
        out.push(')');
        out
    }
}

/// The row of the call named `name`.
pub fn find(name: &str) -> Option<&'static CallRow> {
    TABLE.iter().find(|r| r.name == name)
}

#[cfg(test)]
mod tests;
