//! Calls into the CUDA libraries with their panics caught and silenced. The lowest layer of the
//! GPU code needs this (`gpu::cuda::init` wraps `cuInit`), and so does backend choice above it
//! (`gpu::detect`): it lives below both, so neither imports the other to get it (issue 20: the
//! `gpu::cuda` <-> `gpu::detect` circle).

use crate::gpu::GpuError;

thread_local! {
    /// Set while [`catch_quietly`] runs on this thread: the panic hook then stays silent.
    static QUIET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

static QUIET_HOOK: std::sync::Once = std::sync::Once::new();

/// Whether a panic on this thread is being caught by [`catch_quietly`] (panic hooks that write
/// crash logs or messages check this, so a caught driver panic leaves no trace behind).
pub fn panics_silenced() -> bool {
    QUIET.with(std::cell::Cell::get)
}

/// Run `f`, which calls into the CUDA libraries; a panic inside (cudarc panics when the loaded
/// library lacks a symbol it binds, e.g. an old or partial driver) becomes
/// `Err(GpuError::Driver)`, and nothing is printed: no message, no backtrace.
pub fn catch_quietly<T>(f: impl FnOnce() -> T) -> Result<T, GpuError> {
    QUIET_HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !panics_silenced() {
                previous(info);
            }
        }));
    });
    let was = QUIET.with(|q| q.replace(true));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    QUIET.with(|q| q.set(was));
    result.map_err(|payload| {
        let what = payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "a CUDA library failed".into());
        GpuError::Driver {
            call: "loading the CUDA libraries".into(),
            message: format!(
                "{what} (the installed driver or toolkit is older than, or incomplete for, what \
                 cuda-academy needs); update the NVIDIA driver, or use --backend sim"
            ),
        }
    })
}
