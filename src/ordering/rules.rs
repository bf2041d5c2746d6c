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

/// Which way a copy goes, for [`copy`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Way {
    HostToDevice,
    DeviceToHost,
    DeviceToDevice,
}

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

mod table;
pub use table::*;

#[cfg(test)]
mod tests;
