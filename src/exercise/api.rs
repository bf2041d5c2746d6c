//! What an exercise may name besides its own functions: the calls (their one table is
//! [`super::calls`]), the kernels of `academy.cuh` and named constants. The parser refuses
//! anything else.

/// The kernels of `academy.cuh`, launched as `name<<<grid, block, shmem, stream>>>(args)`.
pub const KERNELS: &[(&str, &str)] = &[
    (
        "transform",
        "transform<<<g, b, 0, s>>>(in, out, n): out[i] = in[i] * 2 + 1",
    ),
    (
        "spin",
        "spin<<<1, 1, 0, s>>>(cycles): busy for about `cycles` clock ticks; spin<<<g, b, 0, s>>>(cycles, x, n): the same, and x[i] += 1",
    ),
];

/// Named constants and their values (as in the CUDA runtime headers).
pub const CONSTANTS: &[(&str, i64)] = &[
    ("cudaSuccess", 0),
    ("cudaMemcpyHostToHost", 0),
    ("cudaMemcpyHostToDevice", 1),
    ("cudaMemcpyDeviceToHost", 2),
    ("cudaMemcpyDeviceToDevice", 3),
    ("cudaMemcpyDefault", 4),
    ("cudaStreamDefault", 0),
    ("cudaStreamNonBlocking", 1),
    ("cudaStreamLegacy", 1),
    ("cudaStreamPerThread", 2),
    ("cudaHostAllocDefault", 0),
    ("cudaHostAllocPortable", 1),
    ("cudaHostAllocMapped", 2),
    ("cudaHostAllocWriteCombined", 4),
    ("cudaHostRegisterDefault", 0),
    ("cudaHostRegisterPortable", 1),
    ("cudaHostRegisterMapped", 2),
    ("cudaEventDefault", 0),
    ("cudaEventBlockingSync", 1),
    ("cudaEventDisableTiming", 2),
    ("cudaErrorInvalidValue", 1),
    ("cudaErrorMemoryAllocation", 2),
    ("cudaErrorInvalidDevicePointer", 17),
    ("cudaErrorInvalidMemcpyDirection", 21),
    ("cudaErrorInvalidResourceHandle", 400),
    ("cudaErrorNotReady", 600),
    // The C library's (`<stdlib.h>`, `<stdio.h>`): `exit`'s statuses and `fprintf`'s streams
    // (their file descriptors stand for the `FILE *`).
    ("EXIT_SUCCESS", 0),
    ("EXIT_FAILURE", 1),
    ("stdout", STDOUT),
    ("stderr", STDERR),
    // `academy.cuh`'s input seed (its floating constants are `FLOAT_CONSTANTS`).
    ("ACADEMY_FILL_SEED", super::FILL_SEED as i64),
];

/// `academy.cuh`'s floating constants (`#define ACADEMY_TRANSFORM_A 2.0f` …), which a learner's
/// own verifying loop uses (`h_out[i] != h_in[i] * ACADEMY_TRANSFORM_A + ACADEMY_TRANSFORM_B`);
/// the values are the backends' own, so one place states them. `ACADEMY_FILL_SEED` is an
/// integer: [`constant`] gives it.
pub const FLOAT_CONSTANTS: &[(&str, f32)] = &[
    ("ACADEMY_TRANSFORM_A", crate::gpu::TRANSFORM_A),
    ("ACADEMY_TRANSFORM_B", crate::gpu::TRANSFORM_B),
    ("ACADEMY_SPIN_ADD", crate::gpu::SPIN_ADD),
];

/// The value of a named floating constant ([`FLOAT_CONSTANTS`]).
pub fn float_constant(name: &str) -> Option<f64> {
    FLOAT_CONSTANTS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, v)| f64::from(*v))
}

/// `stdout` as `fprintf`'s first argument.
pub const STDOUT: i64 = 1;
/// `stderr` as `fprintf`'s first argument.
pub const STDERR: i64 = 2;

/// What `__FILE__` names: the learner's file, under one name whatever it is called on disk
/// (the checker is given its text, not its path).
pub const FILE_NAME: &str = "exercise.cu";

/// Whether `name` is a function the subset supports (a row of [`super::calls::TABLE`]).
pub fn is_call(name: &str) -> bool {
    super::calls::find(name).is_some()
}

/// Whether `name` is a kernel of `academy.cuh`.
pub fn is_kernel(name: &str) -> bool {
    KERNELS.iter().any(|(n, _)| *n == name)
}

/// How many arguments `name` takes (fewest, most), from its row's signature.
pub fn arity(name: &str) -> Option<(usize, usize)> {
    super::calls::find(name).map(super::calls::CallRow::arity)
}

/// The value of a named constant.
pub fn constant(name: &str) -> Option<i64> {
    CONSTANTS.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
}
