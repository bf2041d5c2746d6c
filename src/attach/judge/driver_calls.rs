//! The driver calls a trace is imported from, one row each: the name prefix a recorded call
//! starts with (`cuMemcpyHtoDAsync_v2`, `cuStreamCreateWithPriority`, `_ptsz` variants) and
//! what the importer makes of it. Rows are tried in order, so a prefix comes before any shorter
//! prefix it starts with (`cuMemAllocHost` before `cuMemAlloc`); a test holds that, since a
//! shadowed row is silently imported as another call. A call no row names is left out of the
//! log (it orders nothing the checker models).

/// What a driver call is imported as: the row of `exercise::calls` it stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Driver {
    /// Any copy (`cudaMemcpy`, `cudaMemcpyAsync`; the kind and memory from the record).
    Copy,
    /// Any memset.
    Memset,
    /// `cudaLaunchHostFunc`.
    HostFunc,
    /// A kernel launch.
    Launch,
    /// `cudaMallocAsync`.
    AllocAsync,
    /// `cudaFreeAsync`.
    FreeAsync,
    /// `cudaMallocHost`, `cudaHostAlloc`.
    AllocPinned,
    /// `cudaMalloc`, `cudaMallocManaged`.
    AllocDevice,
    /// `cudaHostRegister`.
    Register,
    /// `cudaHostUnregister`.
    Unregister,
    /// `cudaFreeHost`.
    FreeHost,
    /// `cudaFree`.
    Free,
    StreamCreate,
    StreamDestroy,
    StreamSynchronize,
    StreamWaitEvent,
    EventCreate,
    EventRecord,
    EventSynchronize,
    EventDestroy,
    /// `cudaDeviceSynchronize`.
    CtxSynchronize,
}

/// The rows, tried in order (see the module docs).
pub(super) const DRIVER_CALLS: &[(&str, Driver)] = &[
    ("cuMemcpy", Driver::Copy),
    ("cuMemset", Driver::Memset),
    ("cuLaunchHostFunc", Driver::HostFunc),
    ("cuLaunch", Driver::Launch),
    ("cuMemAllocAsync", Driver::AllocAsync),
    ("cuMemAllocFromPoolAsync", Driver::AllocAsync),
    ("cuMemFreeAsync", Driver::FreeAsync),
    ("cuMemAllocHost", Driver::AllocPinned),
    ("cuMemHostAlloc", Driver::AllocPinned),
    ("cuMemAllocManaged", Driver::AllocDevice),
    ("cuMemAlloc", Driver::AllocDevice),
    ("cuMemHostRegister", Driver::Register),
    ("cuMemHostUnregister", Driver::Unregister),
    ("cuMemFreeHost", Driver::FreeHost),
    ("cuMemFree", Driver::Free),
    ("cuStreamCreate", Driver::StreamCreate),
    ("cuStreamDestroy", Driver::StreamDestroy),
    ("cuStreamSynchronize", Driver::StreamSynchronize),
    ("cuStreamWaitEvent", Driver::StreamWaitEvent),
    ("cuEventCreate", Driver::EventCreate),
    ("cuEventRecord", Driver::EventRecord),
    ("cuEventSynchronize", Driver::EventSynchronize),
    ("cuEventDestroy", Driver::EventDestroy),
    ("cuCtxSynchronize", Driver::CtxSynchronize),
];

/// The row a recorded driver call's name falls under, if any.
pub(super) fn of(name: &str) -> Option<Driver> {
    DRIVER_CALLS
        .iter()
        .find(|(prefix, _)| name.starts_with(prefix))
        .map(|&(_, d)| d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_row_is_shadowed_by_an_earlier_shorter_prefix() {
        for (i, (later, _)) in DRIVER_CALLS.iter().enumerate() {
            for (earlier, _) in &DRIVER_CALLS[..i] {
                assert!(
                    !later.starts_with(earlier),
                    "`{later}` can never match: `{earlier}` comes first"
                );
            }
        }
    }

    #[test]
    fn pinned_host_allocations_are_not_device_memory() {
        assert_eq!(of("cuMemAllocHost_v2"), Some(Driver::AllocPinned));
        assert_eq!(of("cuMemAlloc_v2"), Some(Driver::AllocDevice));
        assert_eq!(of("cuMemcpyHtoDAsync_v2_ptsz"), Some(Driver::Copy));
        assert_eq!(of("cuLaunchHostFunc_ptsz"), Some(Driver::HostFunc));
        assert_eq!(of("cuCtxGetDevice"), None);
    }
}
