// Probe: copy, prefetch, or read in place? For the same data and the same kernel (y = 2x + 1
// over N floats), the time from "the input is in host memory" to "the host holds the result",
// four ways (issue 30, "Alternatives to copying, measured"):
//   explicit   pinned buffers, cudaMemcpyAsync in, kernel, cudaMemcpyAsync out
//   managed    cudaMallocManaged, the kernel faults the pages over, the host reads them back
//   prefetch   cudaMallocManaged with cudaMemPrefetchAsync to the GPU before the kernel and
//              back to the host after it
//   mapped     cudaHostAlloc(cudaHostAllocMapped): the kernel reads and writes host memory
//              across the link, no copy at all
// each for a kernel that reads every element once, one that reads them PASSES times (data
// reused on the GPU), and one that reads one float in 64 KiB (sparse access). Host time
// (steady_clock) from the first call to the host's checksum of the result, median of REPS after
// a warm-up; the checksum is verified for every case. The H200's output is
// probes/alternatives-h200.txt.
//
//   nvcc -std=c++17 -O2 -o /tmp/alternatives probes/alternatives.cu && /tmp/alternatives
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(call)                                                                            \
    do {                                                                                       \
        cudaError_t err_ = (call);                                                             \
        if (err_ != cudaSuccess) {                                                             \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                 \
                         cudaGetErrorString(err_));                                            \
            std::exit(1);                                                                      \
        }                                                                                      \
    } while (0)

static const size_t N = size_t(64) << 20; // 64 Mi floats: 256 MiB each way
static const int REPS = 5;
static const int PASSES = 4;
static const size_t STRIDE = 16384; // one float in 64 KiB

// out[i] = 2 in[i] + 1 for every `stride`-th i, `passes` times over (the result is the same;
// the reads are what differ). Grid-stride, so any grid covers any n.
__global__ void transform(const float *in, float *out, size_t n, size_t stride, int passes)
{
    size_t step = size_t(gridDim.x) * blockDim.x;
    for (int p = 0; p < passes; ++p) {
        for (size_t k = size_t(blockIdx.x) * blockDim.x + threadIdx.x; k * stride < n; k += step) {
            size_t i = k * stride;
            out[i] = 2.0f * in[i] + 1.0f + 0.0f * p;
        }
    }
}

static double now_ms()
{
    using namespace std::chrono;
    return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

static double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// The host's part of every case: fill the input (untimed) and check the result (timed: for
// managed memory this read is what brings the pages back).
static void fill(float *in, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        in[i] = float(i % 1000);
    }
}

static bool result_ok(const float *out, size_t n, size_t stride)
{
    double sum = 0, want = 0;
    for (size_t i = 0; i < n; i += stride) {
        sum += out[i];
        want += 2.0 * float(i % 1000) + 1.0;
    }
    return sum == want;
}

static void launch(const float *in, float *out, size_t stride, int passes, cudaStream_t s)
{
    int blocks = 132 * 8;
    transform<<<blocks, 256, 0, s>>>(in, out, N, stride, passes);
    CHECK(cudaGetLastError());
}

static cudaError_t prefetch(const void *p, size_t bytes, bool to_gpu, int device, cudaStream_t s)
{
#if CUDART_VERSION >= 13000
    cudaMemLocation where{};
    where.type = to_gpu ? cudaMemLocationTypeDevice : cudaMemLocationTypeHost;
    where.id = to_gpu ? device : 0;
    return cudaMemPrefetchAsync(p, bytes, where, 0, s);
#else
    return cudaMemPrefetchAsync(p, bytes, to_gpu ? device : cudaCpuDeviceId, s);
#endif
}

enum Way { EXPLICIT, MANAGED, PREFETCH, MAPPED };
static const char *NAMES[] = {"explicit", "managed", "prefetch", "mapped"};

// One timed run of `way`; false when the result was wrong.
static bool run(Way way, size_t stride, int passes, cudaStream_t s, double *ms)
{
    const size_t bytes = N * sizeof(float);
    float *in = nullptr, *out = nullptr, *d_in = nullptr, *d_out = nullptr;
    int device = 0;
    CHECK(cudaGetDevice(&device));
    switch (way) {
    case EXPLICIT:
        CHECK(cudaMallocHost(&in, bytes));
        CHECK(cudaMallocHost(&out, bytes));
        CHECK(cudaMalloc(&d_in, bytes));
        CHECK(cudaMalloc(&d_out, bytes));
        break;
    case MANAGED:
    case PREFETCH:
        CHECK(cudaMallocManaged(&in, bytes));
        CHECK(cudaMallocManaged(&out, bytes));
        d_in = in;
        d_out = out;
        break;
    case MAPPED:
        CHECK(cudaHostAlloc(&in, bytes, cudaHostAllocMapped));
        CHECK(cudaHostAlloc(&out, bytes, cudaHostAllocMapped));
        CHECK(cudaHostGetDevicePointer(reinterpret_cast<void **>(&d_in), in, 0));
        CHECK(cudaHostGetDevicePointer(reinterpret_cast<void **>(&d_out), out, 0));
        break;
    }
    fill(in, N);
    std::memset(out, 0, bytes); // the output's pages start on the host too
    CHECK(cudaDeviceSynchronize());

    double t0 = now_ms();
    if (way == EXPLICIT) {
        CHECK(cudaMemcpyAsync(d_in, in, bytes, cudaMemcpyHostToDevice, s));
    }
    if (way == PREFETCH) {
        CHECK(prefetch(in, bytes, true, device, s));
        CHECK(prefetch(out, bytes, true, device, s));
    }
    launch(d_in, d_out, stride, passes, s);
    if (way == EXPLICIT) {
        CHECK(cudaMemcpyAsync(out, d_out, bytes, cudaMemcpyDeviceToHost, s));
    }
    if (way == PREFETCH) {
        CHECK(prefetch(out, bytes, false, device, s));
    }
    CHECK(cudaStreamSynchronize(s));
    bool ok = result_ok(out, N, stride);
    *ms = now_ms() - t0;

    if (way == EXPLICIT) {
        CHECK(cudaFree(d_in));
        CHECK(cudaFree(d_out));
    }
    if (way == EXPLICIT || way == MAPPED) {
        CHECK(cudaFreeHost(in));
        CHECK(cudaFreeHost(out));
    } else {
        CHECK(cudaFree(in));
        CHECK(cudaFree(out));
    }
    return ok;
}

int main()
{
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    int concurrent = 0, pageable = 0;
    CHECK(cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentManagedAccess, 0));
    CHECK(cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, 0));
    std::printf("# %s; concurrentManagedAccess %d; pageableMemoryAccess %d; CUDA runtime %d\n",
                prop.name, concurrent, pageable, CUDART_VERSION);
    std::printf("# %zu MiB each way; time from the first call to the host's checksum of the "
                "result; median of %d after a warm-up\n",
                N * sizeof(float) >> 20, REPS);
    std::printf("%-9s %-22s %10s %s\n", "way", "access", "ms", "result");
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    struct Access {
        const char *name;
        size_t stride;
        int passes;
    } accesses[] = {{"every element once", 1, 1},
                    {"every element 4 times", 1, PASSES},
                    {"one float in 64 KiB", STRIDE, 1}};
    for (const Access &a : accesses) {
        for (int w = EXPLICIT; w <= MAPPED; ++w) {
            double ms = 0;
            bool ok = run(Way(w), a.stride, a.passes, s, &ms); // warm-up
            std::vector<double> times;
            for (int r = 0; r < REPS; ++r) {
                ok = run(Way(w), a.stride, a.passes, s, &ms) && ok;
                times.push_back(ms);
            }
            std::printf("%-9s %-22s %10.2f %s\n", NAMES[w], a.name, median(times),
                        ok ? "correct" : "WRONG");
        }
    }
    CHECK(cudaStreamDestroy(s));
    return 0;
}
