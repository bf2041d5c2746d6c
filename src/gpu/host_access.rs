//! The host-access role of [`super::Gpu`]: what the host program writes into and reads from its
//! own buffers, and verification of what came back.
//!
//! A real backend holds the bytes and answers by reading them; the simulator holds a description
//! of each buffer's contents (which fill, then which copies and kernels) and answers exactly
//! from it, without storing data (see `gpu::sim::contents`).

use super::{GpuError, HostBuf, HostView, Kernel, UnifiedBuf};

/// What a destination should hold, float for float, given a source.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Expect {
    /// The same bytes (a copy round trip).
    Copy,
    /// The source's floats through the transform `x * a + b` once ([`Kernel::Transform`]).
    Transform { a: f32, b: f32 },
}

impl Expect {
    /// The value a float `x` of the source should have become.
    pub fn apply(self, x: f32) -> f32 {
        match self {
            Expect::Copy => x,
            Expect::Transform { a, b } => Kernel::transform_host(x, a, b),
        }
    }
}

/// Whether two floats are the same value (NaN matches NaN; verification is exact).
pub fn same_value(a: f32, b: f32) -> bool {
    a == b || (a.is_nan() && b.is_nan())
}

/// The first float where a destination differs from what was expected.
#[derive(Debug, Clone, PartialEq)]
pub struct Mismatch {
    /// Float number, from the start of the compared range.
    pub index: u64,
    pub expected: f32,
    /// `None` when the backend cannot give a value (the simulator does not model it).
    pub got: Option<f32>,
    /// What the backend knows about why (the simulator says what the range holds instead).
    pub note: Option<String>,
}

/// Host memory as the host program sees it.
pub trait HostAccess {
    /// Fill a host buffer's `f32`s with [`super::fill_pattern_f32`] of `seed` (a trailing
    /// partial float becomes zero bytes).
    fn host_fill(&mut self, buf: HostBuf, seed: u32) -> Result<(), GpuError>;
    /// Write [`super::fill_pattern_f32`] of `seed` into the `f32`s of `buf[off .. off + bytes]`,
    /// counting the pattern from `off` (float 0 of the pattern at `off`), as the exercises'
    /// `fill_input(h + i, n)` does in `academy.cuh`.
    fn host_fill_range(
        &mut self,
        buf: HostBuf,
        off: u64,
        bytes: u64,
        seed: u32,
    ) -> Result<(), GpuError>;
    /// Read `f32` number `index` of a host buffer (the exercises' `h[i]`).
    fn host_read_f32(&mut self, buf: HostBuf, index: u64) -> Result<f32, GpuError>;
    /// Write `f32` number `index` of a host buffer (the exercises' `h[i] = v`).
    fn host_write_f32(&mut self, buf: HostBuf, index: u64, value: f32) -> Result<(), GpuError>;
    /// `memcpy(dst + dst_off, src + src_off, bytes)` between host buffers.
    fn host_copy(
        &mut self,
        dst: HostBuf,
        dst_off: u64,
        src: HostBuf,
        src_off: u64,
        bytes: u64,
    ) -> Result<(), GpuError>;
    /// Whether every `f32` number `i` of `buf[off .. off + bytes]`, counted from `off` (as
    /// `academy.cuh`'s `check_output(h + i, n, spins)` counts from its pointer), equals the
    /// standard transform ([`Kernel::TRANSFORM`]) of `fill_pattern_f32(seed, i)` after `spins`
    /// additions of [`crate::gpu::SPIN_ADD`] (the passes of `spin(cycles, x, n)`).
    fn host_holds_transform_of_fill(
        &mut self,
        buf: HostBuf,
        off: u64,
        bytes: u64,
        seed_and_spins: (u32, u32),
    ) -> Result<bool, GpuError>;
    /// Compare the first `bytes / 4` floats of `dst` with `expect` applied to those of `src`,
    /// exactly, every float; `None` when all match.
    fn host_compare(
        &mut self,
        src: HostBuf,
        dst: HostBuf,
        bytes: u64,
        expect: Expect,
    ) -> Result<Option<Mismatch>, GpuError>;
    /// Fill a unified buffer's `f32`s with [`super::fill_pattern_f32`] of `seed` from the host
    /// (its managed pages are then on the host).
    fn unified_fill(&mut self, buf: UnifiedBuf, seed: u32) -> Result<(), GpuError> {
        let _ = (buf, seed);
        Err(super::driver::no_unified())
    }
    /// The host's checksum of a result: the sum, in `f64`, of every `stride`-th of the first
    /// `bytes / 4` floats of `view`. Unlike the other host accesses this one is timed work (the
    /// `alternatives` experiment times from the first call to it): the simulator spends its
    /// modelled host time, and managed pages on the device fault back to the host.
    fn host_sum_strided(
        &mut self,
        view: HostView,
        bytes: u64,
        stride: u64,
    ) -> Result<f64, GpuError> {
        let _ = (view, bytes, stride);
        Err(super::driver::no_unified())
    }
}

/// A host range the float helpers take: whole `f32`s only (`what` names the helper).
pub fn whole_floats(what: &str, off: u64, bytes: u64) -> Result<(), GpuError> {
    if off.is_multiple_of(4) && bytes.is_multiple_of(4) {
        return Ok(());
    }
    Err(GpuError::Invalid(format!(
        "{what} range {off}+{bytes} is not made of whole f32s; use multiples of 4 bytes"
    )))
}
