//! The one table of what an exercise may call (issue 26): one row a call, in the spirit of
//! helix's `static_commands!`. A row gives the call's name, its signature (the arguments and
//! their kinds, from which its arity follows), its [`CallId`] (what the verdict and the checker
//! name a call by, in exhaustive matches), its ordering rule (a link into
//! [`crate::ordering::rules`]), its one-line doc and its handler (what the interpreter runs: a
//! row without one does not parse, and there is no other dispatch to keep in step). The table
//! is an x-macro, `for_each_call!`: this file makes the rows from it, and the interpreter
//! makes its dispatch from it, where the handlers' names resolve.
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

/// Makes [`CallId`] and [`TABLE`] from the rows, in the same order, so
/// `TABLE[id as usize].id == id` (a test holds it). The handler column is left to
/// `for_each_call!`'s other reader, the interpreter's dispatch.
macro_rules! define_calls {
    ($( $id:ident = $name:literal ( $($param:expr),* ) $family:ident, $ordering:expr, $doc:literal => $handler:expr; )*) => {
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

/// The table itself, one line a call: `Id = "name" (params) Family, ordering, "doc" => handler;`,
/// handed to the macro `$then` (an "x-macro"). Two macros read it: `define_calls!` here makes
/// [`CallId`] and [`TABLE`], and `interp/calls.rs` makes the interpreter's dispatch, one arm a
/// row, from the handler column. The handler is written here, beside its row, but it is only
/// tokens until the interpreter expands them in its own scope (`i` is the interpreter, `a` the
/// call's checked `Args`), so this table depends on nothing of the interpreter
/// and a row without a handler does not parse.
macro_rules! for_each_call {
    ($then:ident) => {
        $then! {
        Malloc = "malloc" (p("bytes", Count)) Memory, OrderRule::Host, "allocate pageable host memory" => |i, a| i.malloc(a);
        Free = "free" (p("ptr", Ptr)) Memory, OrderRule::Rule(&rules::FREE_IN_FLIGHT), "release `malloc` memory" => |i, a| i.free(a, CallId::Free);
        Memcpy = "memcpy" (p("dst", Ptr), p("src", Ptr), p("bytes", Count)) Copies, OrderRule::Host, "copy between two host buffers" => |i, a| i.memcpy_host(a, false);
        Printf = "printf" (p("format", Format)) Helpers, OrderRule::Host, "print, with %d %zu %f %s" => |i, a| i.printf(a);
        Fprintf = "fprintf" (p("stream", Int), p("format", Format)) Helpers, OrderRule::Host, "print to `stderr` or `stdout`, as `printf`" => |i, a| i.fprintf(a);
        Exit = "exit" (p("status", Int)) Helpers, OrderRule::Host, "end the program there (`EXIT_FAILURE`, or any status): what ran is judged" => |i, a| i.exit(a);
        Min = "min" (p("a", Num), p("b", Num)) Helpers, OrderRule::Host, "the smaller of two numbers" => |_, a| academy::min_max(a, true);
        Max = "max" (p("a", Num), p("b", Num)) Helpers, OrderRule::Host, "the larger of two numbers" => |_, a| academy::min_max(a, false);
        Fabs = "fabs" (p("x", Num)) Helpers, OrderRule::Host, "the absolute value of a double (also `fabsf`, `std::abs`, `std::fabs`)" => |_, a| academy::math(a, f64::abs);
        Fabsf = "fabsf" (p("x", Num)) Helpers, OrderRule::Host, "the absolute value of a float" => |_, a| academy::math(a, f64::abs);
        Abs = "abs" (p("x", Num)) Helpers, OrderRule::Host, "the absolute value of an int (or of a float, as `std::abs`)" => |_, a| academy::abs(a);
        Sqrt = "sqrt" (p("x", Num)) Helpers, OrderRule::Host, "the square root (also `sqrtf`, `std::sqrt`)" => |_, a| academy::math(a, f64::sqrt);
        Sqrtf = "sqrtf" (p("x", Num)) Helpers, OrderRule::Host, "the square root of a float" => |_, a| academy::math(a, f64::sqrt);
        Fflush = "fflush" (p("stream", Int)) Helpers, OrderRule::Host, "flush `stdout` or `stderr`: 0 (the output is one text here)" => |_, _| Ok(Value::Int(0));
        CudaMalloc = "cudaMalloc" (p("ptr", Out), p("bytes", Count)) Memory, OrderRule::Host, "allocate device memory" => |i, a| i.alloc_into(a, CallId::CudaMalloc, MemKind::Device, HostMemKind::Pinned);
        CudaFree = "cudaFree" (p("ptr", Ptr)) Memory, OrderRule::Rule(&rules::FREE_IN_FLIGHT), "release device memory" => |i, a| i.free(a, CallId::CudaFree);
        CudaMallocHost = "cudaMallocHost" (p("ptr", Out), p("bytes", Count)) Memory, OrderRule::Host, "allocate pinned host memory" => |i, a| i.alloc_into(a, CallId::CudaMallocHost, MemKind::Pinned, HostMemKind::Pinned);
        CudaFreeHost = "cudaFreeHost" (p("ptr", Ptr)) Memory, OrderRule::Rule(&rules::FREE_IN_FLIGHT), "release pinned host memory" => |i, a| i.free(a, CallId::CudaFreeHost);
        CudaHostAlloc = "cudaHostAlloc" (p("ptr", Out), p("bytes", Count), p("flags", Int)) Memory, OrderRule::Host, "allocate pinned host memory with flags (write-combined with 4)" => |i, a| i.host_alloc(a);
        CudaHostRegister = "cudaHostRegister" (p("ptr", Ptr), p("bytes", Count), p("flags", Int)) Memory, OrderRule::Host, "pin a whole `malloc` buffer" => |i, a| i.register(a, true);
        CudaHostUnregister = "cudaHostUnregister" (p("ptr", Ptr)) Memory, OrderRule::Rule(&rules::FREE_IN_FLIGHT), "unpin a registered buffer" => |i, a| i.register(a, false);
        CudaMemcpy = "cudaMemcpy" (p("dst", Ptr), p("src", Ptr), p("bytes", Count), p("kind", Int)) Copies, OrderRule::Copy, "copy; the host waits as the copy's rule says" => |i, a| i.memcpy_cuda(a, true);
        CudaMemcpyAsync = "cudaMemcpyAsync" (p("dst", Ptr), p("src", Ptr), p("bytes", Count), p("kind", Int), opt("stream", Stream)) Copies, OrderRule::Copy, "queue a copy on a stream" => |i, a| i.memcpy_cuda(a, false);
        CudaMemset = "cudaMemset" (p("ptr", Ptr), p("byte", Int), p("bytes", Count)) Copies, OrderRule::Rule(&rules::MEMSET), "set device memory on the legacy stream" => |i, a| i.memset(a, true);
        CudaMemsetAsync = "cudaMemsetAsync" (p("ptr", Ptr), p("byte", Int), p("bytes", Count), opt("stream", Stream)) Copies, OrderRule::Rule(&rules::ASYNC_OP), "set device memory in stream order" => |i, a| i.memset(a, false);
        CudaStreamCreate = "cudaStreamCreate" (p("stream", Out)) Streams, OrderRule::Handle, "create a blocking stream" => |i, a| i.stream_create(a, false);
        CudaStreamCreateWithFlags = "cudaStreamCreateWithFlags" (p("stream", Out), p("flags", Int)) Streams, OrderRule::Handle, "create a stream, non-blocking with cudaStreamNonBlocking" => |i, a| i.stream_create(a, true);
        CudaStreamDestroy = "cudaStreamDestroy" (p("stream", Stream)) Streams, OrderRule::Handle, "destroy a stream (its queued work still runs)" => |i, a| i.stream_destroy(a);
        CudaStreamSynchronize = "cudaStreamSynchronize" (p("stream", Stream)) Streams, OrderRule::Waits, "wait for a stream's work" => |i, a| i.stream_synchronize(a);
        CudaStreamWaitEvent = "cudaStreamWaitEvent" (p("stream", Stream), p("event", Event), opt("flags", Int)) Streams, OrderRule::Marker, "make a stream's later work wait for an event" => |i, a| i.stream_wait_event(a);
        CudaDeviceSynchronize = "cudaDeviceSynchronize" () Streams, OrderRule::Waits, "wait for all the device's work" => |i, a| i.device_synchronize(a);
        CudaEventCreate = "cudaEventCreate" (p("event", Out)) Events, OrderRule::Handle, "create an event" => |i, a| i.event_create(a, false);
        CudaEventCreateWithFlags = "cudaEventCreateWithFlags" (p("event", Out), p("flags", Int)) Events, OrderRule::Handle, "create an event, without timing with cudaEventDisableTiming" => |i, a| i.event_create(a, true);
        CudaEventDestroy = "cudaEventDestroy" (p("event", Event)) Events, OrderRule::Handle, "destroy an event" => |i, a| i.event_destroy(a);
        CudaEventRecord = "cudaEventRecord" (p("event", Event), opt("stream", Stream)) Events, OrderRule::Marker, "record an event in stream order" => |i, a| i.event_record(a);
        CudaEventSynchronize = "cudaEventSynchronize" (p("event", Event)) Events, OrderRule::Waits, "wait for an event" => |i, a| i.event_synchronize(a);
        CudaEventElapsedTime = "cudaEventElapsedTime" (p("ms", Out), p("start", Event), p("stop", Event)) Events, OrderRule::Polls, "milliseconds between two completed events" => |i, a| i.event_elapsed_time(a);
        CudaStreamQuery = "cudaStreamQuery" (p("stream", Stream)) Ordered, OrderRule::Polls, "cudaSuccess or cudaErrorNotReady" => |i, a| i.stream_query(a);
        CudaEventQuery = "cudaEventQuery" (p("event", Event)) Ordered, OrderRule::Polls, "cudaSuccess or cudaErrorNotReady" => |i, a| i.event_query(a);
        CudaLaunchHostFunc = "cudaLaunchHostFunc" (p("stream", Stream), p("fn", Func), p("data", Ptr)) Ordered, OrderRule::Rule(&rules::HOST_FUNC), "run `void CUDART_CB fn(void *data)` in stream order" => |i, a| i.host_func(a);
        CudaMallocAsync = "cudaMallocAsync" (p("ptr", Out), p("bytes", Count), p("stream", Stream)) Ordered, OrderRule::Rule(&rules::ASYNC_OP), "allocate device memory in stream order" => |i, a| i.malloc_async(a);
        CudaFreeAsync = "cudaFreeAsync" (p("ptr", Ptr), p("stream", Stream)) Ordered, OrderRule::Rule(&rules::ASYNC_OP), "release device memory in stream order" => |i, a| i.free_async(a);
        CudaGetLastError = "cudaGetLastError" () Errors, OrderRule::Host, "the last error, cleared" => |i, _| Ok(i.last_error(true));
        CudaPeekAtLastError = "cudaPeekAtLastError" () Errors, OrderRule::Host, "the last error, kept" => |i, _| Ok(i.last_error(false));
        CudaGetErrorString = "cudaGetErrorString" (p("err", Int)) Errors, OrderRule::Host, "an error code's text" => |_, a| errors::error_text(a, false);
        CudaGetErrorName = "cudaGetErrorName" (p("err", Int)) Errors, OrderRule::Host, "an error code's name" => |_, a| errors::error_text(a, true);
        NvtxRangePushA = "nvtxRangePushA" (p("name", Str)) Nvtx, OrderRule::Host, "open a named range for Nsight Systems (no effect here)" => |_, a| nvtx::push_or_mark(a, nvtx::NO_PUSH_POP_TRACKING);
        NvtxRangePop = "nvtxRangePop" () Nvtx, OrderRule::Host, "close the innermost range" => |_, _| Ok(nvtx::NO_PUSH_POP_TRACKING);
        NvtxMarkA = "nvtxMarkA" (p("name", Str)) Nvtx, OrderRule::Host, "a named instant for Nsight Systems (no effect here)" => |_, a| nvtx::push_or_mark(a, Value::Void);
        Dim3 = "dim3" (p("x", Count), opt("y", Count), opt("z", Count)) Helpers, OrderRule::Host, "a launch configuration, also `dim3 grid(x, y, z);`" => |_, a| academy::dim3(a);
        FillInput = "fill_input" (p("h", Ptr), p("n", Count)) Helpers, OrderRule::Host, "write the input pattern" => |i, a| i.fill_input(a);
        CheckOutput = "check_output" (p("h", Ptr), p("n", Count), opt("spins", Count)) Helpers, OrderRule::Host, "true when h holds transform of the input (after `spins` spin passes)" => |i, a| i.check_output(a);
        HostWork = "host_work" (p("ms", Num)) Helpers, OrderRule::Host, "keep the CPU busy" => |i, a| i.host_work(a);
        NowMs = "now_ms" () Helpers, OrderRule::Host, "a clock in milliseconds" => |i, _| Ok(i.now_ms());
        Report = "report" (p("name", Str), p("value", Num)) Helpers, OrderRule::Host, "a metric the checks read" => |i, a| i.report(a);
        }
    };
}
pub(crate) use for_each_call;

for_each_call!(define_calls);

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
