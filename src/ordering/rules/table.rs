//! The rows of the rules table, one `const` a call (and the arguments it is about), each with
//! what the API promises, what the H200 did and where that is written; [`TABLE`] lists them in
//! the README's order.

use super::{HostWait, Observed, Rule, Source};

const SYNC_PAGE: &str = "CUDA Runtime API, 2. API synchronization behavior";
const STREAM_PAGE: &str = "CUDA Runtime API, 3. Stream synchronization behavior";

pub const MEMCPY_H2D_PAGEABLE: Rule = Rule {
    call: "cudaMemcpy",
    when: "host to device, pageable source",
    synchronous: true,
    promised: HostWait::Staged,
    observed: Observed::StagedIfItFits,
    h200: "waited for the busy blocking stream, then for the whole copy (110 ms behind 101 ms of work)",
    checker_says: "the source may be reused at once; the copy may still be in flight on the device",
    source: Source::Doc {
        page: SYNC_PAGE,
        says: "a stream sync is performed before the copy is initiated. The function will return once the pageable buffer has been copied to the staging memory for DMA transfer to device memory, but the DMA to final destination may not have completed",
    },
};
pub const MEMCPY_H2D_PINNED: Rule = Rule {
    call: "cudaMemcpy",
    when: "host to device, pinned source",
    synchronous: true,
    promised: HostWait::Completion,
    observed: Observed::Completion,
    h200: "returned after the copy",
    checker_says: "the copy has completed when it returns",
    source: Source::Doc {
        page: SYNC_PAGE,
        says: "For transfers from pinned host memory to device memory, the function is synchronous with respect to the host",
    },
};
pub const MEMCPY_D2H: Rule = Rule {
    call: "cudaMemcpy",
    when: "device to host",
    synchronous: true,
    promised: HostWait::Completion,
    observed: Observed::Completion,
    h200: "returned after the copy",
    checker_says: "the copy has completed when it returns",
    source: Source::Doc {
        page: SYNC_PAGE,
        says: "For transfers from device to either pageable or pinned host memory, the function returns only once the copy has completed",
    },
};
pub const MEMCPY_D2D: Rule = Rule {
    call: "cudaMemcpy",
    when: "device to device",
    synchronous: true,
    promised: HostWait::None,
    observed: Observed::Returns,
    h200: "returned in 0.028 ms with 101 ms of work queued ahead",
    checker_says: "the host does not wait: a read that depends on it still needs a synchronisation",
    source: Source::Doc {
        page: SYNC_PAGE,
        says: "For transfers from device memory to device memory, no host-side synchronization is performed",
    },
};
pub const MEMCPY_ASYNC_PINNED: Rule = Rule {
    call: "cudaMemcpyAsync",
    when: "pinned host memory or device to device",
    synchronous: false,
    promised: HostWait::None,
    observed: Observed::Returns,
    h200: "returned in microseconds",
    checker_says: "the host does not wait",
    source: Source::Doc {
        page: SYNC_PAGE,
        says: "Asynchronous: ... For all other transfers, the function should be fully asynchronous",
    },
};
pub const MEMCPY_ASYNC_H2D_PAGEABLE: Rule = Rule {
    call: "cudaMemcpyAsync",
    when: "host to device, pageable source",
    synchronous: false,
    promised: HostWait::SourceTaken,
    observed: Observed::StagedIfItFits,
    h200: "waited for its stream's earlier work, then returned after the copy (64 MiB behind 25 ms of work: 35 ms); overwriting the source at once reached the GPU 0 times in 20",
    checker_says: "one `pageable-async` warning (the call blocked here; it may not where the GPU reads pageable memory directly); no race on the source",
    source: Source::Probe {
        case: "async-h2d-pageable-takes-source",
    },
};
pub const MEMCPY_ASYNC_D2H_PAGEABLE: Rule = Rule {
    call: "cudaMemcpyAsync",
    when: "device to host, pageable destination",
    synchronous: false,
    promised: HostWait::Completion,
    observed: Observed::Completion,
    h200: "returned after the copy (106 ms behind 101 ms of work)",
    checker_says: "one `pageable-async` warning; no race on the destination",
    source: Source::Probe {
        case: "async-d2h-pageable-completes",
    },
};
pub const MEMSET: Rule = Rule {
    call: "cudaMemset",
    when: "device memory",
    synchronous: true,
    promised: HostWait::None,
    observed: Observed::Returns,
    h200: "returned in 0.023 ms with 101 ms of work queued ahead",
    checker_says: "the host does not wait",
    source: Source::Doc {
        page: SYNC_PAGE,
        says: "The synchronous memset functions are asynchronous with respect to the host except when the target is pinned host memory or a Unified Memory region",
    },
};
pub const ASYNC_OP: Rule = Rule {
    call: "cudaMemsetAsync, kernel launches, cudaMallocAsync, cudaFreeAsync",
    when: "any stream",
    synchronous: false,
    promised: HostWait::None,
    observed: Observed::Returns,
    h200: "a copy's and a kernel's call returned in microseconds; cudaMallocAsync + cudaFreeAsync the first time took 7.5 ms (the pool's set-up), not the 101 ms of work queued ahead",
    checker_says: "the host does not wait",
    source: Source::Doc {
        page: SYNC_PAGE,
        says: "The Async versions are always asynchronous with respect to the host",
    },
};
pub const HOST_FUNC: Rule = Rule {
    call: "cudaLaunchHostFunc",
    when: "any stream",
    synchronous: false,
    promised: HostWait::None,
    observed: Observed::Returns,
    h200: "the call took 15.1 us (`probes/waiting.cu`); behind 0.1 s of work the function had not run when it returned, and had after the stream's sync (`probes/ordering.cu`, case `host-func-runs-in-stream-order`)",
    checker_says: "the host does not wait; the function's body runs on the host when its stream reaches it, and its accesses are judged as the host's, at the body's lines",
    source: Source::Doc {
        page: "CUDA Runtime API, cudaLaunchHostFunc",
        says: "Enqueues a host function to run in a stream. The function will be called after currently enqueued work and will block work added after it",
    },
};
pub const LEGACY_BARRIER: Rule = Rule {
    call: "any op on the legacy default stream",
    when: "blocking streams exist",
    synchronous: false,
    promised: HostWait::None,
    observed: Observed::Returns,
    h200: "waited for blocking streams (cudaStreamSynchronize(0): 101 ms; an event recorded on stream 0: 101 ms), also for one destroyed while busy (101 ms), not for non-blocking ones (0.004 ms)",
    checker_says: "ordered after every blocking stream's earlier work, destroyed-but-busy ones included",
    source: Source::Doc {
        page: STREAM_PAGE,
        says: "The legacy default stream is an implicit stream which synchronizes with all other streams in the same CUcontext except for non-blocking streams",
    },
};
pub const FREE_IN_FLIGHT: Rule = Rule {
    call: "free, cudaFree, cudaFreeHost, cudaHostUnregister",
    when: "memory that queued work still uses",
    synchronous: false,
    promised: HostWait::None,
    observed: Observed::Device,
    h200: "cudaFree, cudaFreeHost and cudaHostUnregister each waited for the work (102-108 ms behind 101 ms): a hidden stall",
    checker_says: "a `free-while-in-flight` hazard; the free is not counted as a synchronisation",
    source: Source::Doc {
        page: SYNC_PAGE,
        says: "Any CUDA API call may block or synchronize for various reasons such as contention for or unavailability of internal resources. Such behavior is subject to change and undocumented behavior should not be relied upon",
    },
};

/// Every row, in the README's order.
pub const TABLE: &[&Rule] = &[
    &MEMCPY_H2D_PAGEABLE,
    &MEMCPY_H2D_PINNED,
    &MEMCPY_D2H,
    &MEMCPY_D2D,
    &MEMCPY_ASYNC_PINNED,
    &MEMCPY_ASYNC_H2D_PAGEABLE,
    &MEMCPY_ASYNC_D2H_PAGEABLE,
    &MEMSET,
    &ASYNC_OP,
    &HOST_FUNC,
    &LEGACY_BARRIER,
    &FREE_IN_FLIGHT,
];
