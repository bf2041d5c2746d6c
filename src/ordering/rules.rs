//! The rules table: for each supported call that queues device work, what the host may rely
//! on when the call returns, what today's driver was seen to do on the H200, and the source.
//!
//! Each rule holds both answers, as values, and each reader takes its one:
//! - `promised` (the API's word): the checker judges programs by it (the interpreter logs it
//!   with each op), since a program is right only if it is right on every driver the
//!   documentation allows;
//! - `observed` (what the H200 did; `h200` says it in words with the measurement): the
//!   simulator makes its host wait so (`gpu::sim::host_wait`), so its timeline looks like the
//!   learner's GPU.
//!
//! The interpreter builds a synchronous call from the backend's asynchronous one and asks the
//! rule which stream syncs to add ([`Rule::host_syncs`]). Where the documentation says "may" or
//! nothing, the probe decided, and `checker_says` states what the checker reports. The probe's
//! source and output are `probes/ordering.cu` and `probes/ordering-h200.txt`; the README's
//! "Ordering rules" table is this table, and every rule has a twin program
//! (`tests/it/exercise/twins.rs`, held to `TABLE` by a test).

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

/// What the host waited for when the call returned on the H200: what the simulator does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Observed {
    /// Nothing: the call returned at once.
    Returns,
    /// The driver copied the pageable source into its pinned staging buffer and returned, when
    /// the copy fits that buffer (the profile's `pageable_async_h2d_max_bytes`, which
    /// `calibrate` measures); a larger copy returned only after it had completed.
    StagedIfItFits,
    /// The op had completed (and so had everything it is ordered after).
    Completion,
    /// Every op queued on the device had completed (a free that synchronises).
    Device,
}

/// What the host waits for at one call, [`Observed`] resolved for its size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stall {
    /// Nothing.
    None,
    /// The host copies the source into the staging buffer before the call returns.
    Staging,
    /// The op's completion.
    Op,
    /// The whole device's.
    Device,
}

impl Observed {
    /// What the host waits for at a call moving `bytes`, on a driver that stages pageable
    /// uploads of at most `staging_max` bytes.
    pub fn stall(self, bytes: u64, staging_max: u64) -> Stall {
        match self {
            Observed::Returns => Stall::None,
            Observed::StagedIfItFits if bytes <= staging_max => Stall::Staging,
            Observed::StagedIfItFits | Observed::Completion => Stall::Op,
            Observed::Device => Stall::Device,
        }
    }
}

/// The stream syncs a synchronous call adds around the backend's asynchronous op it is built
/// from, so the host waits at least as long as the API promises ([`Rule::host_syncs`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HostSyncs {
    /// Sync the op's stream before issuing it ("a stream sync is performed before the copy is
    /// initiated").
    pub before: bool,
    /// Sync the op's stream after issuing it (the call returns only once the op has completed).
    pub after: bool,
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
    /// Whether the call is synchronous (`cudaMemcpy`, `cudaMemset`): the backends offer the
    /// asynchronous op only, and the call's waits are added around it ([`Rule::host_syncs`]).
    pub synchronous: bool,
    /// What the host may rely on when the call returns: the checker judges by it.
    pub promised: HostWait,
    /// What the host waited for on the H200: the simulator does it.
    pub observed: Observed,
    /// What the H200 did, in words, with the measurement behind `observed`.
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

impl Rule {
    /// The stream syncs to add around the backend's asynchronous op: a synchronous call that
    /// promises `Staged` syncs its stream first, one that promises `Completion` syncs after;
    /// an asynchronous call adds none (the backend's call blocks where the driver does).
    pub fn host_syncs(&self) -> HostSyncs {
        HostSyncs {
            before: self.promised == HostWait::Staged,
            after: self.synchronous && self.promised == HostWait::Completion,
        }
    }

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

/// What the host waits for when memory is released: `cuda` for `cudaFree`, `cudaFreeHost` and
/// `cudaHostUnregister` (the rule [`FREE_IN_FLIGHT`]); libc's `free` of `malloc` memory is no
/// CUDA call and waits for nothing.
pub fn release(cuda: bool) -> Observed {
    if cuda {
        FREE_IN_FLIGHT.observed
    } else {
        Observed::Returns
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
    &HOST_FUNC,
    &LEGACY_BARRIER,
    &FREE_IN_FLIGHT,
];

#[cfg(test)]
mod tests {
    use super::{HostSyncs, HostWait, Observed, Stall, TABLE, Way, copy};

    /// A call's observed wait is never less than its promise: the simulator, which does
    /// `observed`, must not show a program safe that the promise allows.
    #[test]
    fn what_the_h200_did_covers_what_the_api_promises() {
        for rule in TABLE {
            let covers = match rule.promised {
                HostWait::None => true,
                HostWait::SourceTaken | HostWait::Staged => rule.observed != Observed::Returns,
                HostWait::Completion => {
                    rule.observed == Observed::Completion || rule.host_syncs().after
                }
            };
            assert!(covers, "{} ({})", rule.call, rule.when);
        }
    }

    #[test]
    fn a_synchronous_call_syncs_around_its_op_as_promised() {
        let syncs = |sync, way, pageable| copy(sync, way, pageable).host_syncs();
        let (first, after, none) = (
            HostSyncs {
                before: true,
                after: false,
            },
            HostSyncs {
                before: false,
                after: true,
            },
            HostSyncs {
                before: false,
                after: false,
            },
        );
        assert_eq!(syncs(true, Way::HostToDevice, true), first);
        assert_eq!(syncs(true, Way::HostToDevice, false), after);
        assert_eq!(syncs(true, Way::DeviceToHost, true), after);
        assert_eq!(syncs(true, Way::DeviceToDevice, false), none);
        // The async call itself blocks on the backend where the driver does.
        assert_eq!(syncs(false, Way::DeviceToHost, true), none);
        assert_eq!(syncs(false, Way::HostToDevice, true), none);
    }

    #[test]
    fn a_pageable_upload_is_staged_only_when_it_fits() {
        let up = copy(false, Way::HostToDevice, true).observed;
        assert_eq!(up.stall(4096, 4096), Stall::Staging);
        assert_eq!(up.stall(4097, 4096), Stall::Op);
        let down = copy(false, Way::DeviceToHost, true).observed;
        assert_eq!(down.stall(1, 4096), Stall::Op);
        assert_eq!(
            copy(false, Way::HostToDevice, false)
                .observed
                .stall(1, 4096),
            Stall::None
        );
        assert_eq!(super::release(true).stall(1, 4096), Stall::Device);
        assert_eq!(super::release(false).stall(1, 4096), Stall::None);
    }

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
