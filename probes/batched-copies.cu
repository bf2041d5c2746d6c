// Probe: what CUDA 13's cudaMemcpyBatchAsync costs and promises on this machine, against N
// single cudaMemcpyAsync calls. Figures for lesson 1's "Per-call cost and batched copies" card,
// lesson 3's "Batched copies: when the source is taken" card, the `batched-copies` experiment
// and the simulator's batch fields in assets/profiles/h200.toml. The H200's output is
// probes/batched-copies-h200.txt.
//
//   nvcc -O2 -o /tmp/bc probes/batched-copies.cu && /tmp/bc > batched-copies-h200.txt
//
// Needs a CUDA 12.8+ toolkit and driver (13.0 dropped the failIdx argument: both are handled
// below). Three parts, each a block of comma-separated lines with its header line:
//   sweep     pinned H2D, sizes {4 KiB, 64 KiB, 1 MiB} x counts {64, 1024, 4096}, singles
//             against one batch (srcAccessOrder Stream), on a non-blocking stream; medians of
//             REPS after one warm-up. enqueue_us: host time of the calls alone; e2e_us: host time
//             from the first call to the end of cudaStreamSynchronize; device_us: events around
//             the calls (includes any wait for the host to enqueue).
//   pageable  a pageable (malloc) source under each access order, and cudaMemcpyAsync for
//             comparison: the call's host time, whether the stream is still busy right after it
//             (cudaStreamQuery), the cudaStreamSynchronize after it, and which bytes arrive when
//             the source is overwritten right after the call. "behind": a ~20 ms kernel runs
//             ahead of the copy in the stream, so a copy taken in stream order sees the overwrite.
//   legacy    the call on the legacy default stream (0 and cudaStreamLegacy) and on
//             cudaStreamPerThread: the error each returns.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <vector>

#define CK(x)                                                                                   \
    do {                                                                                        \
        cudaError_t e_ = (x);                                                                   \
        if (e_ != cudaSuccess) {                                                                \
            printf("FAILED %s: %s (%s) at line %d\n", #x, cudaGetErrorName(e_),                 \
                   cudaGetErrorString(e_), __LINE__);                                           \
            exit(1);                                                                            \
        }                                                                                       \
    } while (0)

static const int REPS = 9;

static double now_us()
{
    using namespace std::chrono;
    return duration<double, std::micro>(steady_clock::now().time_since_epoch()).count();
}

static double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// Waits about `cycles` SM clock ticks (one thread), so work queued behind it waits in stream order.
__global__ void spin(long long cycles)
{
    long long start = clock64();
    while (clock64() - start < cycles) {
    }
}

static cudaMemcpyAttributes attrs_for(cudaMemcpySrcAccessOrder order)
{
    cudaMemcpyAttributes a;
    memset(&a, 0, sizeof a);
    a.srcAccessOrder = order;
    a.srcLocHint.type = cudaMemLocationTypeHost;
    a.srcLocHint.id = 0;
    a.dstLocHint.type = cudaMemLocationTypeDevice;
    a.dstLocHint.id = 0;
    a.flags = cudaMemcpyFlagDefault;
    return a;
}

// One batch of `count` copies sharing one set of attributes. CUDA 13.0 changed the prototype
// (no failIdx); 12.8 and 12.9 still take it.
static cudaError_t batch(void **dsts, void **srcs, size_t *sizes, size_t count, cudaMemcpySrcAccessOrder order,
                         cudaStream_t s)
{
    cudaMemcpyAttributes a = attrs_for(order);
    size_t idx = 0;
#if CUDART_VERSION >= 13000
    return cudaMemcpyBatchAsync(dsts, srcs, sizes, count, &a, &idx, 1, s);
#else
    size_t fail = 0;
    return cudaMemcpyBatchAsync(dsts, srcs, sizes, count, &a, &idx, 1, &fail, s);
#endif
}

static const char *order_name(cudaMemcpySrcAccessOrder o)
{
    switch (o) {
    case cudaMemcpySrcAccessOrderStream: return "Stream";
    case cudaMemcpySrcAccessOrderDuringApiCall: return "DuringApiCall";
    case cudaMemcpySrcAccessOrderAny: return "Any";
    default: return "?";
    }
}

static void sweep(cudaStream_t s)
{
    const size_t sizes[3] = {4u << 10, 64u << 10, 1u << 20};
    const size_t counts[3] = {64, 1024, 4096};
    const size_t most = sizes[2] * counts[2];
    char *h, *d;
    CK(cudaMallocHost(&h, most));
    CK(cudaMalloc(&d, most));
    memset(h, 1, most);
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    printf("sweep,size_bytes,count,method,enqueue_us,enqueue_us_per_copy,e2e_us,e2e_gbps,device_us\n");
    for (size_t size : sizes) {
        for (size_t n : counts) {
            std::vector<void *> dsts(n), srcs(n);
            std::vector<size_t> lens(n, size);
            for (size_t i = 0; i < n; ++i) {
                dsts[i] = d + i * size;
                srcs[i] = h + i * size;
            }
            for (int method = 0; method < 2; ++method) {
                std::vector<double> enq, e2e, dev;
                for (int rep = 0; rep <= REPS; ++rep) {
                    CK(cudaStreamSynchronize(s));
                    CK(cudaEventRecord(a, s));
                    double t0 = now_us();
                    if (method == 0) {
                        for (size_t i = 0; i < n; ++i) {
                            CK(cudaMemcpyAsync(dsts[i], srcs[i], size, cudaMemcpyHostToDevice, s));
                        }
                    } else {
                        CK(batch(dsts.data(), srcs.data(), lens.data(), n, cudaMemcpySrcAccessOrderStream, s));
                    }
                    double t1 = now_us();
                    CK(cudaEventRecord(b, s));
                    CK(cudaStreamSynchronize(s));
                    double t2 = now_us();
                    float ms = 0;
                    CK(cudaEventElapsedTime(&ms, a, b));
                    if (rep == 0) {
                        continue; // warm-up
                    }
                    enq.push_back(t1 - t0);
                    e2e.push_back(t2 - t0);
                    dev.push_back(ms * 1e3);
                }
                double e = median(e2e);
                printf("sweep,%zu,%zu,%s,%.1f,%.3f,%.1f,%.2f,%.1f\n", size, n, method == 0 ? "singles" : "batch",
                       median(enq), median(enq) / n, e, (double)(size * n) / (e * 1e3), median(dev));
            }
        }
    }
    CK(cudaEventDestroy(a));
    CK(cudaEventDestroy(b));
    CK(cudaFreeHost(h));
    CK(cudaFree(d));
}

// How many of `n` bytes of `got` are `x`.
static size_t count_of(const unsigned char *got, size_t n, unsigned char x)
{
    size_t k = 0;
    for (size_t i = 0; i < n; ++i) {
        k += got[i] == x;
    }
    return k;
}

// method: 0 cudaMemcpyAsync, 1..3 a batch under the order.
static void pageable_case(cudaStream_t s, int method, cudaMemcpySrcAccessOrder order, size_t size, size_t n,
                          bool behind, long long spin_cycles)
{
    const size_t total = size * n;
    unsigned char *src = (unsigned char *)malloc(total);
    unsigned char *back = (unsigned char *)malloc(total);
    unsigned char *d;
    CK(cudaMalloc(&d, total));
    std::vector<void *> dsts(n), srcs(n);
    std::vector<size_t> lens(n, size);
    for (size_t i = 0; i < n; ++i) {
        dsts[i] = d + i * size;
        srcs[i] = src + i * size;
    }
    std::vector<double> call, sync;
    int busy_after = 0;
    size_t arrived_old = 0, arrived_new = 0;
    cudaError_t first_error = cudaSuccess;
    for (int rep = 0; rep <= REPS; ++rep) {
        memset(src, 0xAA, total); // the "old" bytes, pages touched
        CK(cudaMemset(d, 0, total));
        CK(cudaDeviceSynchronize());
        if (behind) {
            spin<<<1, 1, 0, s>>>(spin_cycles);
        }
        double t0 = now_us();
        cudaError_t e;
        if (method == 0) {
            e = cudaSuccess;
            for (size_t i = 0; i < n && e == cudaSuccess; ++i) {
                e = cudaMemcpyAsync(dsts[i], srcs[i], size, cudaMemcpyHostToDevice, s);
            }
        } else {
            e = batch(dsts.data(), srcs.data(), lens.data(), n, order, s);
        }
        double t1 = now_us();
        cudaError_t q = cudaStreamQuery(s);
        memset(src, 0x55, total); // the overwrite, right after the call
        double t2 = now_us();
        CK(cudaStreamSynchronize(s));
        double t3 = now_us();
        if (e != cudaSuccess) {
            first_error = e;
            cudaGetLastError();
            break;
        }
        CK(cudaMemcpy(back, d, total, cudaMemcpyDeviceToHost));
        if (rep == 0) {
            continue; // warm-up
        }
        call.push_back(t1 - t0);
        sync.push_back(t3 - t2);
        busy_after += q == cudaErrorNotReady;
        arrived_old += count_of(back, total, 0xAA);
        arrived_new += count_of(back, total, 0x55);
    }
    const char *name = method == 0 ? "cudaMemcpyAsync" : order_name(order);
    if (first_error != cudaSuccess) {
        printf("pageable,%zu,%zu,%s,%s,error %s,,,,\n", size, n, behind ? "behind" : "alone", name,
               cudaGetErrorName(first_error));
    } else {
        double all = (double)total * REPS;
        printf("pageable,%zu,%zu,%s,%s,%.1f,%d/%d,%.1f,%.1f%%,%.1f%%\n", size, n, behind ? "behind" : "alone", name,
               median(call), busy_after, REPS, median(sync), 100.0 * arrived_old / all, 100.0 * arrived_new / all);
    }
    free(src);
    free(back);
    CK(cudaFree(d));
}

static void pageable(cudaStream_t s)
{
    // Size the kernel ahead of the copy to about 20 ms.
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    const long long probe = 10000000;
    spin<<<1, 1, 0, s>>>(probe);
    CK(cudaEventRecord(a, s));
    spin<<<1, 1, 0, s>>>(probe);
    CK(cudaEventRecord(b, s));
    CK(cudaEventSynchronize(b));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, a, b));
    long long cycles = (long long)(probe * (20.0 / std::max(ms, 0.001f)));
    printf("# pageable: the kernel ahead of the copy (\"behind\") spins %lld cycles, about 20 ms (%.2f ms per %lld)\n",
           cycles, ms, probe);
    CK(cudaEventDestroy(a));
    CK(cudaEventDestroy(b));
    printf("pageable,size_bytes,count,queue,method,call_us,busy_after_call,sync_after_us,arrived_old_pct,arrived_new_pct\n");
    const cudaMemcpySrcAccessOrder orders[3] = {cudaMemcpySrcAccessOrderStream, cudaMemcpySrcAccessOrderDuringApiCall,
                                                cudaMemcpySrcAccessOrderAny};
    const size_t shapes[3][2] = {{64u << 20, 1}, {64u << 10, 256}, {4u << 10, 1024}};
    for (int behind = 0; behind < 2; ++behind) {
        for (auto &shape : shapes) {
            pageable_case(s, 0, cudaMemcpySrcAccessOrderStream, shape[0], shape[1], behind, cycles);
            for (auto o : orders) {
                pageable_case(s, 1, o, shape[0], shape[1], behind, cycles);
            }
        }
    }
}

static void legacy()
{
    const size_t size = 4096, n = 4;
    char *h, *d;
    CK(cudaMallocHost(&h, size * n));
    CK(cudaMalloc(&d, size * n));
    void *dsts[n], *srcs[n];
    size_t lens[n];
    for (size_t i = 0; i < n; ++i) {
        dsts[i] = d + i * size;
        srcs[i] = h + i * size;
        lens[i] = size;
    }
    printf("legacy,stream,result\n");
    struct {
        const char *name;
        cudaStream_t s;
    } cases[3] = {{"0", 0}, {"cudaStreamLegacy", cudaStreamLegacy}, {"cudaStreamPerThread", cudaStreamPerThread}};
    for (auto &c : cases) {
        cudaError_t e = batch(dsts, srcs, lens, n, cudaMemcpySrcAccessOrderStream, c.s);
        cudaGetLastError();
        CK(cudaDeviceSynchronize());
        printf("legacy,%s,%s (%d)\n", c.name, cudaGetErrorName(e), (int)e);
    }
    CK(cudaFreeHost(h));
    CK(cudaFree(d));
}

int main()
{
    int dev = 0, drv = 0, rt = 0;
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, dev));
    CK(cudaDriverGetVersion(&drv));
    CK(cudaRuntimeGetVersion(&rt));
    printf("# device: %s, driver %d, runtime %d, built with CUDART_VERSION %d; medians of %d after one warm-up\n",
           p.name, drv, rt, CUDART_VERSION, REPS);
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    spin<<<1, 1, 0, s>>>(1000);
    CK(cudaStreamSynchronize(s));
    sweep(s);
    pageable(s);
    legacy();
    CK(cudaStreamDestroy(s));
    return 0;
}
