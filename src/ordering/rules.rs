//! The rules table: for each supported call that queues device work, what the host may rely
//! on when the call returns, what today's driver was seen to do on the H200, and the source.
//!
//! The checker judges programs by `promised` (the API's word): a program is right only if it is
//! right on every driver the documentation allows. The simulator behaves as `h200` says (what
//! the probe measured), so its timeline looks like the learner's GPU. Where the documentation
//! says "may" or nothing, the probe decided, and `checker_says` states what the checker
//! reports. The probe's source and output are `probes/ordering.cu` and
//! `probes/ordering-h200.txt`; the README's "Ordering rules" table is this table.

/// What the host may rely on when a call that queues device work returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostWait {
    /// Nothing: the op may not have started.
    None,
    /// The op has read its host source (reusing the source is safe); it may still be in flight.
    SourceTaken,
    /// The host waited for the op's predecessors on its stream, then for its source to be
    /// read (synchronous `cudaMemcpy` from pageable memory); the op may still be in flight.
    Staged,
    /// The op has completed (and so has everything it was ordered after).
    Completion,
}

impl HostWait {
    /// What the host may rely on, in words (the README's table).
    pub fn describe(self) -> &'static str {
        match self {
            HostWait::None => "nothing: the op may not have started",
            HostWait::SourceTaken => "the source has been read; the copy may still be in flight",
            HostWait::Staged => {
                "the stream's earlier work is done and the source read; the copy may still be in flight"
            }
            HostWait::Completion => "the op has completed",
        }
    }
}

/// Where a rule comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// A page of NVIDIA's documentation and what it says.
    Doc {
        page: &'static str,
        says: &'static str,
    },
    /// A case of `probes/ordering.cu`, run on the H200 (output in `probes/ordering-h200.txt`).
    Probe { case: &'static str },
}

/// One row of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    pub call: &'static str,
    /// Which arguments this row is about.
    pub when: &'static str,
    pub promised: HostWait,
    /// What the H200 did (the simulator does the same).
    pub h200: &'static str,
    /// What the checker reports about it.
    pub checker_says: &'static str,
    pub source: Source,
}

const SYNC_PAGE: &str = "CUDA Runtime API, 2. API synchronization behavior";
const STREAM_PAGE: &str = "CUDA Runtime API, 3. Stream synchronization behavior";

/// Which way a copy goes, for [`copy`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Way {
    HostToDevice,
    DeviceToHost,
    DeviceToDevice,
}

pub const MEMCPY_H2D_PAGEABLE: Rule = Rule {
    call: "cudaMemcpy",
    when: "host to device, pageable source",
    promised: HostWait::Staged,
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
    promised: HostWait::Completion,
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
    promised: HostWait::Completion,
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
    promised: HostWait::None,
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
    promised: HostWait::None,
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
    promised: HostWait::SourceTaken,
    h200: "waited for its stream's earlier work, then returned after the copy (64 MiB behind 25 ms of work: 35 ms); overwriting the source at once reached the GPU 0 times in 20",
    checker_says: "one `pageable-async` warning (the call blocked here; it may not where the GPU reads pageable memory directly); no race on the source",
    source: Source::Probe {
        case: "async-h2d-pageable-takes-source",
    },
};
pub const MEMCPY_ASYNC_D2H_PAGEABLE: Rule = Rule {
    call: "cudaMemcpyAsync",
    when: "device to host, pageable destination",
    promised: HostWait::Completion,
    h200: "returned after the copy (106 ms behind 101 ms of work)",
    checker_says: "one `pageable-async` warning; no race on the destination",
    source: Source::Probe {
        case: "async-d2h-pageable-completes",
    },
};
pub const MEMSET: Rule = Rule {
    call: "cudaMemset",
    when: "device memory",
    promised: HostWait::None,
    h200: "returned in 0.023 ms with 101 ms of work queued ahead",
    checker_says: "the host does not wait",
    source: Source::Doc {
        page: SYNC_PAGE,
        says: "The synchronous memset functions are asynchronous with respect to the host except when the target is pinned host memory or a Unified Memory region",
    },
};
pub const ASYNC_OP: Rule = Rule {
    call: "cudaMemsetAsync, kernel launches, cudaLaunchHostFunc, cudaMallocAsync, cudaFreeAsync",
    when: "any stream",
    promised: HostWait::None,
    h200: "a copy's, a kernel's and a host function's call returned in microseconds; cudaMallocAsync + cudaFreeAsync the first time took 7.5 ms (the pool's set-up), not the 101 ms of work queued ahead",
    checker_says: "the host does not wait",
    source: Source::Doc {
        page: SYNC_PAGE,
        says: "The Async versions are always asynchronous with respect to the host",
    },
};
pub const LEGACY_BARRIER: Rule = Rule {
    call: "any op on the legacy default stream",
    when: "blocking streams exist",
    promised: HostWait::None,
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
    promised: HostWait::None,
    h200: "cudaFree, cudaFreeHost and cudaHostUnregister each waited for the work (102-108 ms behind 101 ms): a hidden stall",
    checker_says: "a `free-while-in-flight` hazard; the free is not counted as a synchronisation",
    source: Source::Doc {
        page: SYNC_PAGE,
        says: "Any CUDA API call may block or synchronize for various reasons such as contention for or unavailability of internal resources. Such behavior is subject to change and undocumented behavior should not be relied upon",
    },
};

impl Rule {
    /// The rule as a row of the README's "Ordering rules" table.
    pub fn markdown_row(&self) -> String {
        let source = match self.source {
            Source::Doc { page, says } => format!("{page}: \"{says}\""),
            Source::Probe { case } => {
                format!(
                    "H200 probe `{case}` (`probes/ordering.cu`; the API says \"might be synchronous\")"
                )
            }
        };
        format!(
            "| {} | {} | {} | {} | {} | {source} |",
            self.call,
            self.when,
            self.promised.describe(),
            self.h200,
            self.checker_says
        )
    }
}

/// The rule for a copy: `sync` for `cudaMemcpy`, false for `cudaMemcpyAsync`; `pageable` when
/// its host side is unpinned `malloc` memory.
pub fn copy(sync: bool, way: Way, pageable: bool) -> &'static Rule {
    match (sync, way, pageable) {
        (_, Way::DeviceToDevice, _) if sync => &MEMCPY_D2D,
        (_, Way::DeviceToDevice, _) => &MEMCPY_ASYNC_PINNED,
        (true, Way::HostToDevice, true) => &MEMCPY_H2D_PAGEABLE,
        (true, Way::HostToDevice, false) => &MEMCPY_H2D_PINNED,
        (true, Way::DeviceToHost, _) => &MEMCPY_D2H,
        (false, Way::HostToDevice, true) => &MEMCPY_ASYNC_H2D_PAGEABLE,
        (false, Way::DeviceToHost, true) => &MEMCPY_ASYNC_D2H_PAGEABLE,
        (false, _, false) => &MEMCPY_ASYNC_PINNED,
    }
}

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
    &LEGACY_BARRIER,
    &FREE_IN_FLIGHT,
];

#[cfg(test)]
mod tests {
    use super::{HostWait, Way, copy};

    #[test]
    fn copies_follow_the_sync_behavior_page() {
        assert_eq!(
            copy(true, Way::HostToDevice, true).promised,
            HostWait::Staged
        );
        assert_eq!(
            copy(true, Way::HostToDevice, false).promised,
            HostWait::Completion
        );
        assert_eq!(
            copy(true, Way::DeviceToHost, true).promised,
            HostWait::Completion
        );
        assert_eq!(
            copy(true, Way::DeviceToDevice, false).promised,
            HostWait::None
        );
        assert_eq!(
            copy(false, Way::HostToDevice, true).promised,
            HostWait::SourceTaken
        );
        assert_eq!(
            copy(false, Way::DeviceToHost, true).promised,
            HostWait::Completion
        );
        assert_eq!(
            copy(false, Way::DeviceToHost, false).promised,
            HostWait::None
        );
    }
}
