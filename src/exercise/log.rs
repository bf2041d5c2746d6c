//! The call log: everything an exercise program did, in program order, with the line that did
//! it. The interpreter writes it; the hazard checker reads nothing else.

use crate::exercise::calls::{self, CallId};
use crate::gpu::{EventId, StreamId};
pub use crate::ordering::rules::HostWait;
use crate::ordering::rules::Rule;

/// An allocation (host or device), numbered by the interpreter in allocation order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RegionId(pub u32);

/// A byte range `[start, end)` of one allocation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Range {
    pub region: RegionId,
    pub start: u64,
    pub end: u64,
}

impl Range {
    pub fn overlaps(&self, other: &Range) -> bool {
        self.region == other.region && self.start < other.end && other.start < self.end
    }
}

/// Where an allocation lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemKind {
    /// `malloc`.
    Pageable,
    /// `cudaMallocHost` / `cudaHostAlloc`.
    Pinned,
    Device,
}

/// What a device operation is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeviceOpKind {
    CopyH2D,
    CopyD2H,
    CopyD2D,
    Memset,
    Kernel,
    /// `cudaLaunchHostFunc`: host code run in stream order; its ranges are host memory.
    HostFunc,
    /// `cudaMallocAsync`: the allocation comes into being in stream order (writes it all).
    AllocAsync,
    /// `cudaFreeAsync`: the allocation goes away in stream order (writes it all).
    FreeAsync,
}

/// An operation queued on a stream.
#[derive(Debug, Clone, PartialEq)]
pub struct DeviceOp {
    pub stream: StreamId,
    pub kind: DeviceOpKind,
    /// The CUDA call, e.g. `cudaMemcpyAsync` or `transform<<<…>>>`.
    pub call: String,
    pub reads: Vec<Range>,
    pub writes: Vec<Range>,
    /// The rule of `ordering::rules` that says what the host may rely on when the call
    /// returned (`None`: nothing, as for a kernel); [`DeviceOp::host_wait`] reads it.
    pub rule: Option<&'static Rule>,
    /// An async copy whose host side is pageable memory at the time of the call.
    pub pageable_async: bool,
    /// A host function's (`cudaLaunchHostFunc`) accesses, each with the line in its body and
    /// whether it writes: races are booked there. Empty for other ops.
    pub body_accesses: Vec<(Range, u32, bool)>,
}

impl DeviceOp {
    /// An op of `kind` on `stream` that the host does not wait for (kernels, stream-ordered
    /// allocations, async memsets): the other fields at their plain values.
    pub fn queued(
        stream: StreamId,
        kind: DeviceOpKind,
        call: String,
        reads: Vec<Range>,
        writes: Vec<Range>,
    ) -> DeviceOp {
        DeviceOp {
            stream,
            kind,
            call,
            reads,
            writes,
            rule: None,
            pageable_async: false,
            body_accesses: Vec::new(),
        }
    }

    /// What the host may rely on when the call returned: its rule's promise, kept in the rule
    /// alone (one place for the fact).
    pub fn host_wait(&self) -> HostWait {
        self.rule.map_or(HostWait::None, |r| r.promised)
    }

    /// The row of the call table that queued this op (`None` for a kernel launch, which is
    /// not a row); derived from the name the interpreter logged, so the id is no second copy.
    pub fn call_id(&self) -> Option<CallId> {
        calls::find(&self.call).map(|r| r.id)
    }
}

/// One entry of the log.
#[derive(Debug, Clone, PartialEq)]
pub enum Call {
    Alloc {
        region: RegionId,
        kind: MemKind,
        bytes: u64,
        /// The call that allocated it (`malloc`, `cudaMallocAsync`, ...).
        call: CallId,
    },
    Free {
        region: RegionId,
        /// Which of `free`, `cudaFree` and `cudaFreeHost`.
        call: CallId,
    },
    Register {
        region: RegionId,
    },
    Unregister {
        region: RegionId,
    },
    StreamCreate {
        stream: StreamId,
        blocking: bool,
        /// The variable the program stored it in (`up`, `s[1]`), for messages.
        name: String,
    },
    StreamDestroy {
        stream: StreamId,
    },
    /// The program used `cudaStreamPerThread`: the run made the per-thread default stream (a
    /// blocking stream the program does not own).
    PerThreadStream {
        stream: StreamId,
    },
    EventCreate {
        event: EventId,
    },
    EventDestroy {
        event: EventId,
    },
    Device(DeviceOp),
    EventRecord {
        event: EventId,
        stream: StreamId,
    },
    /// `cudaEventElapsedTime`: the host reads both events' times.
    EventElapsed {
        start: EventId,
        end: EventId,
    },
    StreamWaitEvent {
        stream: StreamId,
        event: EventId,
    },
    StreamSync {
        stream: StreamId,
    },
    /// `cudaStreamQuery`: `done` when it answered `cudaSuccess` and the program looked at the
    /// answer (a bare `cudaStreamQuery(s);` is logged not done: it teaches the host nothing).
    StreamQuery {
        stream: StreamId,
        done: bool,
    },
    /// `cudaEventQuery`: `done` as for [`Call::StreamQuery`].
    EventQuery {
        event: EventId,
        done: bool,
    },
    EventSync {
        event: EventId,
    },
    DeviceSync,
    /// `exit(status)`: the program ended itself here. The operating system and the CUDA driver
    /// release whatever the process still holds, so nothing held then is a leak (a `main` that
    /// returns holds its allocations to the end: those are).
    Exit {
        status: i64,
    },
    /// The body of a host function (`cudaLaunchHostFunc`) ran: its stream had reached it. Its
    /// accesses are host accesses, each with the line of the body that made it and whether it
    /// wrote. Logged where the body ran, after its launch.
    HostFuncRan {
        /// The index in the log of the launch's [`Call::Device`] entry.
        launch: usize,
        reads: Vec<Range>,
        writes: Vec<Range>,
        accesses: Vec<(Range, u32, bool)>,
    },
    /// The host read these bytes (`h[i]`, `check_output`, `memcpy`'s source).
    HostRead {
        range: Range,
        what: String,
    },
    /// The host wrote these bytes (`h[i] = …`, `fill_input`, `memcpy`'s destination).
    HostWrite {
        range: Range,
        what: String,
    },
}

impl Call {
    /// A host access's bytes and whether it writes them; `None` for an entry that is no host
    /// access (every kind named, so a new one must say).
    pub fn host_range_mut(&mut self) -> Option<(&mut Range, bool)> {
        match self {
            Call::HostRead { range, .. } => Some((range, false)),
            Call::HostWrite { range, .. } => Some((range, true)),
            Call::Alloc { .. }
            | Call::Free { .. }
            | Call::Register { .. }
            | Call::Unregister { .. }
            | Call::StreamCreate { .. }
            | Call::StreamDestroy { .. }
            | Call::PerThreadStream { .. }
            | Call::EventCreate { .. }
            | Call::EventDestroy { .. }
            | Call::Device(_)
            | Call::EventRecord { .. }
            | Call::EventElapsed { .. }
            | Call::StreamWaitEvent { .. }
            | Call::StreamSync { .. }
            | Call::StreamQuery { .. }
            | Call::EventQuery { .. }
            | Call::EventSync { .. }
            | Call::HostFuncRan { .. }
            | Call::Exit { .. }
            | Call::DeviceSync => None,
        }
    }

    /// The call of the table that made this host access (`check_output`, `fill_input`,
    /// `memcpy`), or `None` for a plain access (`h[i]`) or an entry that is no host access.
    pub fn host_access_by(&self) -> Option<CallId> {
        match self {
            Call::HostRead { what, .. } | Call::HostWrite { what, .. } => {
                calls::find(what).map(|r| r.id)
            }
            Call::Alloc { .. }
            | Call::Free { .. }
            | Call::Register { .. }
            | Call::Unregister { .. }
            | Call::StreamCreate { .. }
            | Call::StreamDestroy { .. }
            | Call::PerThreadStream { .. }
            | Call::EventCreate { .. }
            | Call::EventDestroy { .. }
            | Call::Device(_)
            | Call::EventRecord { .. }
            | Call::EventElapsed { .. }
            | Call::StreamWaitEvent { .. }
            | Call::StreamSync { .. }
            | Call::StreamQuery { .. }
            | Call::EventQuery { .. }
            | Call::EventSync { .. }
            | Call::HostFuncRan { .. }
            | Call::Exit { .. }
            | Call::DeviceSync => None,
        }
    }
}

/// A call with the line (1-based) of the learner's file that made it.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub line: u32,
    pub call: Call,
}
