// academy.cuh: the helpers every cuda-academy exercise includes.
//
// An exercise is an ordinary CUDA program: `nvcc -std=c++17 -I exercises file.cu` builds it with
// a CUDA 12.x or 13.x toolkit. CUDA 13 no longer compiles for Maxwell, Pascal or Volta
// (compute capability below 7.5), so on those GPUs use a 12.x toolkit. cuda-academy also
// interprets the same file (a documented subset of the host API, see README "Hands-on
// exercises") on your GPU or on its simulator. The helpers below behave the same in both places:
//   transform<<<g, b, 0, s>>>(in, out, n)  out[i] = in[i] * ACADEMY_TRANSFORM_A + ACADEMY_TRANSFORM_B
//   spin<<<1, 1, 0, s>>>(cycles)           keeps its stream busy for about `cycles` clock ticks
//                                          (one thread: on a GPU other streams' kernels can run
//                                          beside it; the simulator runs one kernel at a time)
//   spin<<<g, b, 0, s>>>(cycles, x, n)     the same wait, and x[i] += ACADEMY_SPIN_ADD over n
//                                          floats of device memory: compute with a result, so
//                                          work ordered after it sees the mark and work it is
//                                          not ordered with may not (launch it as `transform`)
//   fill_input(h, n)                      the deterministic input pattern (seed ACADEMY_FILL_SEED)
//   check_output(h, n)                    true when h holds transform of fill_input, exactly
//   check_output(h, n, spins)             the same after `spins` passes of spin(cycles, x, n):
//                                          transform of (fill_input + spins * ACADEMY_SPIN_ADD)
//   host_work(ms)                         the CPU busy for `ms` milliseconds
//   now_ms()                              a monotonic clock in milliseconds
//   report(name, value)                   a named metric the exercise checks read
//
// What the interpreter does differently from a compiled program (the calls themselves follow
// the Runtime API's ordering rules, on both backends):
//   - it runs a subset: the header's kernels only (each reads and writes whole ranges, no
//     kernels of your own), `float *` host pointers, `cudaHostRegister` of whole allocations;
//     anything else is a diagnostic at its line, not a compile error;
//   - a CUDA call that fails returns its error and the run goes on, but a host access out of
//     bounds or after `free` stops the run instead of corrupting memory;
//   - on the simulator, times come from a model of the H200 test machine (or another profile),
//     not from your hardware, and the same program gives the same times every run;
//   - it runs each program once: the hazard checker judges the order of the calls that run made
//     (a race is reported even where that run's timing hid it), not branches it did not take;
//   - a step budget, a cap on GPU operations and a host memory budget (8 GiB) stop runaway
//     programs.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

// The same constants as cuda-academy's `gpu::TRANSFORM_A`, `gpu::TRANSFORM_B` and
// `exercise::FILL_SEED`.
#define ACADEMY_TRANSFORM_A 2.0f
#define ACADEMY_TRANSFORM_B 1.0f
#define ACADEMY_FILL_SEED 7u
// What spin(cycles, x, n) adds to each float (cuda-academy's `gpu::SPIN_ADD`).
#define ACADEMY_SPIN_ADD 1.0f

// The light kernel: one read and one write per element, grid-stride so any grid covers any n.
__global__ void transform(const float *in, float *out, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        out[i] = in[i] * ACADEMY_TRANSFORM_A + ACADEMY_TRANSFORM_B;
    }
}

// Busy for `cycles` SM clock ticks: a kernel whose length is set by time, not by memory.
__global__ void spin(long long cycles)
{
    long long start = clock64();
    while (clock64() - start < cycles) {
    }
}

// The same wait (thread 0 of block 0), and x[i] += ACADEMY_SPIN_ADD over n floats by the whole
// grid, grid-stride (block 0's threads after the wait): a slow stage of compute whose result
// the next stage reads. The kernel lasts about `cycles`; the update is a light kernel's time.
__global__ void spin(long long cycles, float *x, size_t n)
{
    if (blockIdx.x == 0) {
        if (threadIdx.x == 0) {
            long long start = clock64();
            while (clock64() - start < cycles) {
            }
        }
        __syncthreads();
    }
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        x[i] = x[i] + ACADEMY_SPIN_ADD;
    }
}

// Float number `index` of the input pattern: a port, bit for bit, of cuda-academy's
// `gpu::fill_pattern_f32` (SplitMix64 finaliser; multiples of 1/16 in [-64, 65), so
// `x * 2 + 1` is exact with or without a fused multiply-add).
static inline float academy_pattern(uint32_t seed, uint64_t index)
{
    const uint64_t block = index % (65521ull * 17ull) / 65521ull;
    const uint64_t i = index % 65521ull;
    uint64_t z = (((uint64_t)seed << 32) ^ i) + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return ((float)(z % 2048ull) - 1024.0f + (float)block) / 16.0f;
}

// Write the input pattern into h[0 .. n).
static inline void academy_fill_input(float *h, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        h[i] = academy_pattern(ACADEMY_FILL_SEED, i);
    }
}

// True when h[0 .. n) holds transform() of the input pattern after `spins` passes of
// spin(cycles, x, n) (none by default), every value exactly.
static inline bool academy_check_output(const float *h, size_t n, int spins)
{
    for (size_t i = 0; i < n; ++i) {
        float want = academy_pattern(ACADEMY_FILL_SEED, i);
        for (int k = 0; k < spins; ++k) {
            want = want + ACADEMY_SPIN_ADD;
        }
        want = want * ACADEMY_TRANSFORM_A + ACADEMY_TRANSFORM_B;
        if (h[i] != want) {
            printf("check_output: h[%zu] is %f, expected %f\n", i, h[i], want);
            return false;
        }
    }
    return true;
}

// A monotonic clock, in milliseconds from an arbitrary origin.
static inline double now_ms()
{
    using namespace std::chrono;
    return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

// Keep the CPU busy for `ms` milliseconds (the "other work" a program does while the GPU runs).
static inline void academy_host_work(double ms)
{
    double end = now_ms() + ms;
    while (now_ms() < end) {
    }
}

// A named metric: the exercise's checks read these lines.
static inline void academy_report(const char *name, double value)
{
    printf("report %s = %f\n", name, value);
}

#if defined(ACADEMY_NATIVE) && defined(__CUDACC__)
// `cuda-academy exercise check --native` compiles with -DACADEMY_NATIVE and traces the run:
// each helper then also leaves an NVTX mark, "academy:<helper> line=<its line> ...", which the
// trace records with its time, so that check_output's answers, the reported figures, the input
// written and the host work reach the verdict (cuda-academy's `exercise::native::marks` reads
// them). NVTX does nothing when no tool is attached. Without ACADEMY_NATIVE nothing changes.
#include <cstdarg>
#include <nvtx3/nvToolsExt.h>

static inline void academy_mark(const char *format, ...)
{
    char text[512];
    va_list args;
    va_start(args, format);
    vsnprintf(text, sizeof text, format, args);
    va_end(args);
    nvtxMarkA(text);
}

static inline void academy_fill_input_at(int line, float *h, size_t n)
{
    academy_fill_input(h, n);
    academy_mark("academy:fill_input line=%d ptr=%llx bytes=%llu", line,
                 (unsigned long long)(uintptr_t)h, (unsigned long long)(n * sizeof(float)));
}

static inline bool academy_check_output_at(int line, const float *h, size_t n, int spins = 0)
{
    bool ok = academy_check_output(h, n, spins);
    academy_mark("academy:check_output line=%d ptr=%llx bytes=%llu spins=%d pass=%d", line,
                 (unsigned long long)(uintptr_t)h, (unsigned long long)(n * sizeof(float)), spins,
                 ok ? 1 : 0);
    return ok;
}

static inline void academy_host_work_at(int line, double ms)
{
    academy_mark("academy:host_work_begin line=%d", line);
    academy_host_work(ms);
    academy_mark("academy:host_work_end line=%d", line);
}

static inline void academy_report_at(int line, const char *name, double value)
{
    academy_report(name, value);
    academy_mark("academy:report line=%d value=%.17g name=%s", line, value, name);
}

#define fill_input(...) academy_fill_input_at(__LINE__, __VA_ARGS__)
#define check_output(...) academy_check_output_at(__LINE__, __VA_ARGS__)
#define host_work(...) academy_host_work_at(__LINE__, __VA_ARGS__)
#define report(...) academy_report_at(__LINE__, __VA_ARGS__)
#else
static inline void fill_input(float *h, size_t n)
{
    academy_fill_input(h, n);
}

static inline bool check_output(const float *h, size_t n, int spins = 0)
{
    return academy_check_output(h, n, spins);
}

static inline void host_work(double ms)
{
    academy_host_work(ms);
}

static inline void report(const char *name, double value)
{
    academy_report(name, value);
}
#endif
