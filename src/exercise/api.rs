//! The one list of what an exercise may call: CUDA runtime calls, C library calls, the helpers of
//! `academy.cuh`, its kernels and named constants. The parser refuses anything else; the `?`
//! list and the README read the same table.

/// Every callable function, with the form the learner writes.
pub const CALLS: &[(&str, &str)] = &[
    ("malloc", "malloc(bytes)"),
    ("free", "free(ptr)"),
    ("memcpy", "memcpy(dst, src, bytes)"),
    ("printf", "printf(format, ...) with %d %zu %f %s"),
    ("min", "min(a, b)"),
    ("max", "max(a, b)"),
    ("cudaMalloc", "cudaMalloc(&ptr, bytes)"),
    ("cudaFree", "cudaFree(ptr)"),
    ("cudaMallocHost", "cudaMallocHost(&ptr, bytes)"),
    ("cudaFreeHost", "cudaFreeHost(ptr)"),
    ("cudaHostAlloc", "cudaHostAlloc(&ptr, bytes, flags)"),
    ("cudaHostRegister", "cudaHostRegister(ptr, bytes, flags)"),
    ("cudaHostUnregister", "cudaHostUnregister(ptr)"),
    ("cudaMemcpy", "cudaMemcpy(dst, src, bytes, kind)"),
    (
        "cudaMemcpyAsync",
        "cudaMemcpyAsync(dst, src, bytes, kind, stream)",
    ),
    ("cudaMemset", "cudaMemset(ptr, byte, bytes)"),
    (
        "cudaMemsetAsync",
        "cudaMemsetAsync(ptr, byte, bytes, stream)",
    ),
    ("cudaStreamCreate", "cudaStreamCreate(&stream)"),
    (
        "cudaStreamCreateWithFlags",
        "cudaStreamCreateWithFlags(&stream, flags)",
    ),
    ("cudaStreamDestroy", "cudaStreamDestroy(stream)"),
    ("cudaStreamSynchronize", "cudaStreamSynchronize(stream)"),
    (
        "cudaStreamWaitEvent",
        "cudaStreamWaitEvent(stream, event, 0)",
    ),
    ("cudaDeviceSynchronize", "cudaDeviceSynchronize()"),
    ("cudaEventCreate", "cudaEventCreate(&event)"),
    (
        "cudaEventCreateWithFlags",
        "cudaEventCreateWithFlags(&event, flags)",
    ),
    ("cudaEventDestroy", "cudaEventDestroy(event)"),
    ("cudaEventRecord", "cudaEventRecord(event, stream)"),
    ("cudaEventSynchronize", "cudaEventSynchronize(event)"),
    (
        "cudaEventElapsedTime",
        "cudaEventElapsedTime(&ms, start, stop)",
    ),
    (
        "cudaStreamQuery",
        "cudaStreamQuery(stream): cudaSuccess or cudaErrorNotReady",
    ),
    (
        "cudaEventQuery",
        "cudaEventQuery(event): cudaSuccess or cudaErrorNotReady",
    ),
    (
        "cudaLaunchHostFunc",
        "cudaLaunchHostFunc(stream, fn, data) with void CUDART_CB fn(void *data)",
    ),
    ("cudaMallocAsync", "cudaMallocAsync(&ptr, bytes, stream)"),
    ("cudaFreeAsync", "cudaFreeAsync(ptr, stream)"),
    ("cudaGetLastError", "cudaGetLastError()"),
    ("cudaPeekAtLastError", "cudaPeekAtLastError()"),
    ("cudaGetErrorString", "cudaGetErrorString(err)"),
    ("cudaGetErrorName", "cudaGetErrorName(err)"),
    (
        "nvtxRangePushA",
        "nvtxRangePushA(\"name\"): open a named range for Nsight Systems (no effect here)",
    ),
    ("nvtxRangePop", "nvtxRangePop(): close the innermost range"),
    (
        "nvtxMarkA",
        "nvtxMarkA(\"name\"): a named instant for Nsight Systems (no effect here)",
    ),
    (
        "dim3",
        "dim3(x, y, z): a launch configuration, also `dim3 grid(x, y, z);`",
    ),
    ("fill_input", "fill_input(h, n): the input pattern"),
    (
        "check_output",
        "check_output(h, n): true when h holds transform of the input",
    ),
    ("host_work", "host_work(ms): keep the CPU busy"),
    ("now_ms", "now_ms(): a clock in milliseconds"),
    (
        "report",
        "report(\"name\", value): a metric the checks read",
    ),
];

/// The kernels of `academy.cuh`, launched as `name<<<grid, block, shmem, stream>>>(args)`.
pub const KERNELS: &[(&str, &str)] = &[
    (
        "transform",
        "transform<<<g, b, 0, s>>>(in, out, n): out[i] = in[i] * 2 + 1",
    ),
    (
        "spin",
        "spin<<<1, 1, 0, s>>>(cycles): busy for about `cycles` clock ticks",
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
];

/// Whether `name` is a function the subset supports.
pub fn is_call(name: &str) -> bool {
    CALLS.iter().any(|(n, _)| *n == name)
}

/// Whether `name` is a kernel of `academy.cuh`.
pub fn is_kernel(name: &str) -> bool {
    KERNELS.iter().any(|(n, _)| *n == name)
}

/// How many arguments `name` takes (fewest, most), read from its form in [`CALLS`]; a form
/// ending in `...` takes any number from its fixed ones on. Calls whose last argument may be
/// left out say so here.
pub fn arity(name: &str) -> Option<(usize, usize)> {
    let (_, form) = CALLS.iter().find(|(n, _)| *n == name)?;
    let inner = form.split_once('(')?.1.split_once(')')?.0;
    let params: Vec<&str> = inner
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    let n = params.len();
    Some(match name {
        "printf" => (1, usize::MAX),
        "cudaMemcpyAsync" | "cudaMemsetAsync" | "cudaEventRecord" | "cudaStreamWaitEvent" => {
            (n.saturating_sub(1), n)
        }
        "dim3" => (1, 3),
        _ => (n, n),
    })
}

/// The value of a named constant.
pub fn constant(name: &str) -> Option<i64> {
    CONSTANTS.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
}
