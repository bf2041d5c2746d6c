//! The kernels' module loaded into one context, and their launches (`cuLaunchKernel`).
#![allow(unsafe_code)]

use std::ffi::c_void;

use cudarc::driver::sys::{self, CUfunction, CUmodule, CUstream};

use super::Image;
use crate::gpu::cuda::error::check;
use crate::gpu::{Access, GpuError, Kernel};

/// The loaded module of one context.
#[derive(Debug)]
pub struct Loaded {
    module: CUmodule,
    transform: CUfunction,
    spin: CUfunction,
    transform_into: CUfunction,
    spin_cycles: CUfunction,
    spin_add: CUfunction,
    strided: CUfunction,
    /// How the image was made (for `info`).
    pub format: String,
    blocks_cap: u32,
}

impl Loaded {
    /// Load `image` into the current context.
    pub fn load(image: &Image, multiprocessors: u32) -> Result<Loaded, GpuError> {
        let mut module: CUmodule = std::ptr::null_mut();
        // SAFETY: `image.bytes` is a complete CUBIN or NUL-terminated PTX, alive for the call.
        check("cuModuleLoadData", unsafe {
            sys::cuModuleLoadData(&mut module, image.bytes.as_ptr().cast())
        })?;
        let mut loaded = Loaded {
            module,
            transform: std::ptr::null_mut(),
            spin: std::ptr::null_mut(),
            transform_into: std::ptr::null_mut(),
            spin_cycles: std::ptr::null_mut(),
            spin_add: std::ptr::null_mut(),
            strided: std::ptr::null_mut(),
            format: image.format.clone(),
            // Enough blocks to fill every SM several times; the grid-stride loop covers the rest.
            blocks_cap: multiprocessors.max(1) * 16,
        };
        loaded.transform = loaded.function(c"transform")?;
        loaded.spin = loaded.function(c"spin")?;
        loaded.transform_into = loaded.function(c"transform_into")?;
        loaded.spin_cycles = loaded.function(c"spin_cycles")?;
        loaded.spin_add = loaded.function(c"spin_add")?;
        loaded.strided = loaded.function(c"strided")?;
        Ok(loaded)
    }

    fn function(&self, name: &std::ffi::CStr) -> Result<CUfunction, GpuError> {
        let mut f: CUfunction = std::ptr::null_mut();
        // SAFETY: `self.module` is loaded; `name` is NUL-terminated.
        check("cuModuleGetFunction", unsafe {
            sys::cuModuleGetFunction(&mut f, self.module, name.as_ptr())
        })?;
        Ok(f)
    }

    /// Enough blocks of [`THREADS`] for `n` elements, capped (the loops are grid-stride).
    fn blocks(&self, n: u64) -> u32 {
        u32::try_from(n.div_ceil(u64::from(THREADS)))
            .unwrap_or(u32::MAX)
            .clamp(1, self.blocks_cap)
    }

    /// Launch `kernel` over `n` f32s at `ptr` in `stream` (asynchronous).
    pub(crate) fn launch(
        &self,
        stream: CUstream,
        kernel: Kernel,
        ptr: sys::CUdeviceptr,
        n: u64,
    ) -> Result<(), GpuError> {
        let mut x = ptr;
        let mut n_arg = n;
        let (f, mut p2, mut p3) = match kernel {
            Kernel::Transform { a, b } => (self.transform, a.to_bits(), b.to_bits()),
            Kernel::Spin { iterations } => (self.spin, iterations, 0),
        };
        // The f32 parameters are passed as their bits: the kernel reads 4 bytes either way.
        let mut params: [*mut c_void; 4] = [
            (&mut x as *mut u64).cast(),
            (&mut n_arg as *mut u64).cast(),
            (&mut p2 as *mut u32).cast(),
            (&mut p3 as *mut u32).cast(),
        ];
        // SAFETY: `params` matches the kernel's parameter list (spin ignores the 4th) and lives
        // until the call returns.
        unsafe { self.launch_raw(f, self.blocks(n), stream, &mut params) }
    }

    /// `transform_into(in, out, n, a, b)` over `n` f32s (asynchronous).
    pub(crate) fn launch_transform_into(
        &self,
        stream: CUstream,
        (src, dst): (sys::CUdeviceptr, sys::CUdeviceptr),
        n: u64,
        (a, b): (f32, f32),
    ) -> Result<(), GpuError> {
        let (mut src, mut dst, mut n_arg, mut a, mut b) = (src, dst, n, a, b);
        let mut params: [*mut c_void; 5] = [
            (&mut src as *mut u64).cast(),
            (&mut dst as *mut u64).cast(),
            (&mut n_arg as *mut u64).cast(),
            (&mut a as *mut f32).cast(),
            (&mut b as *mut f32).cast(),
        ];
        // SAFETY: `params` matches `transform_into`'s parameter list and lives until the call
        // returns.
        let f = self.transform_into;
        unsafe { self.launch_raw(f, self.blocks(n), stream, &mut params) }
    }

    /// `spin_cycles(cycles)` on one thread (asynchronous).
    pub(crate) fn launch_spin_cycles(&self, stream: CUstream, cycles: u64) -> Result<(), GpuError> {
        let mut cycles = i64::try_from(cycles).unwrap_or(i64::MAX);
        let mut params: [*mut c_void; 1] = [(&mut cycles as *mut i64).cast()];
        // SAFETY: `params` matches `spin_cycles(long long)` and lives until the call returns.
        let f = self.spin_cycles;
        unsafe { self.launch_raw_threads(f, (1, 1), stream, &mut params) }
    }

    /// `spin_add(cycles, x, n, add)` over `n` f32s at `x` (asynchronous): the grid of the
    /// element-wise kernels, thread 0 of block 0 waiting the cycles.
    pub(crate) fn launch_spin_add(
        &self,
        stream: CUstream,
        cycles: u64,
        x: sys::CUdeviceptr,
        n: u64,
        add: f32,
    ) -> Result<(), GpuError> {
        let (mut cycles, mut x, mut n_arg, mut add) =
            (i64::try_from(cycles).unwrap_or(i64::MAX), x, n, add);
        let mut params: [*mut c_void; 4] = [
            (&mut cycles as *mut i64).cast(),
            (&mut x as *mut u64).cast(),
            (&mut n_arg as *mut u64).cast(),
            (&mut add as *mut f32).cast(),
        ];
        // SAFETY: `params` matches `spin_add(long long, float*, unsigned long long, float)` and
        // lives until the call returns.
        let f = self.spin_add;
        unsafe { self.launch_raw(f, self.blocks(n), stream, &mut params) }
    }

    /// `strided(in, out, n, stride, passes, a, b)` (`kernels/strided.cu`, asynchronous): enough
    /// blocks for the floats it touches.
    pub(crate) fn launch_strided(
        &self,
        stream: CUstream,
        (src, dst): (sys::CUdeviceptr, sys::CUdeviceptr),
        (n, access): (u64, Access),
        (a, b): (f32, f32),
    ) -> Result<(), GpuError> {
        let (mut src, mut dst, mut n_arg, mut a, mut b) = (src, dst, n, a, b);
        let mut stride = access.stride.max(1);
        let mut passes = i32::try_from(access.passes).unwrap_or(i32::MAX);
        let mut params: [*mut c_void; 7] = [
            (&mut src as *mut u64).cast(),
            (&mut dst as *mut u64).cast(),
            (&mut n_arg as *mut u64).cast(),
            (&mut stride as *mut u64).cast(),
            (&mut passes as *mut i32).cast(),
            (&mut a as *mut f32).cast(),
            (&mut b as *mut f32).cast(),
        ];
        let blocks = self.blocks(n.div_ceil(stride));
        // SAFETY: `params` matches `strided(const float*, float*, unsigned long long, unsigned
        // long long, int, float, float)` and lives until the call returns.
        let f = self.strided;
        unsafe { self.launch_raw(f, blocks, stream, &mut params) }
    }

    /// # Safety
    /// `params` must match `f`'s parameter list and stay alive until this returns.
    unsafe fn launch_raw(
        &self,
        f: CUfunction,
        blocks: u32,
        stream: CUstream,
        params: &mut [*mut c_void],
    ) -> Result<(), GpuError> {
        // SAFETY: forwarded from the caller.
        unsafe { self.launch_raw_threads(f, (blocks, THREADS), stream, params) }
    }

    /// # Safety
    /// As [`Loaded::launch_raw`].
    unsafe fn launch_raw_threads(
        &self,
        f: CUfunction,
        (blocks, threads): (u32, u32),
        stream: CUstream,
        params: &mut [*mut c_void],
    ) -> Result<(), GpuError> {
        // SAFETY: `f` belongs to the loaded module; the caller guarantees `params`; the driver
        // copies the values before returning.
        check("cuLaunchKernel", unsafe {
            sys::cuLaunchKernel(
                f,
                blocks,
                1,
                1,
                threads,
                1,
                1,
                0,
                stream,
                params.as_mut_ptr(),
                std::ptr::null_mut(),
            )
        })
    }
}

/// Threads per block of the element-wise kernels.
const THREADS: u32 = 256;

impl Drop for Loaded {
    fn drop(&mut self) {
        let module = self.module;
        // SAFETY: loaded in `load`, unloaded once; errors are ignored in Drop (and the call is
        // made only when the driver exports it: a panic in Drop could abort).
        crate::gpu::cuda::symbols::cleanup(c"cuModuleUnload", || unsafe {
            sys::cuModuleUnload(module)
        });
    }
}
