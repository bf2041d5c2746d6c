// Probe: what waiting costs the CPU, how soon a host function runs, and whether
// cudaMemcpyDefault costs anything. Figures for lesson 3's "Waiting: spin or sleep" and
// "cudaLaunchHostFunc" cards and lesson 2's cudaMemcpyDefault card; the H200's output is
// probes/waiting-h200.txt.
//
//   nvcc -std=c++17 -O2 -I exercises -o /tmp/waiting probes/waiting.cu
//   /tmp/waiting            # default scheduling (cudaDeviceScheduleAuto)
//   /tmp/waiting blocking   # cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync) first
#include "academy.cuh"

#include <algorithm>
#include <ctime>
#include <string>
#include <vector>

#define SPIN 200000000LL // about 0.1 s of one SM's clock on an H200

static double cpu_ms()
{
    timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

static volatile double host_func_at = 0;
static void CUDART_CB stamp(void *) { host_func_at = now_ms(); }

int main(int argc, char **argv)
{
    bool blocking = argc > 1 && std::string(argv[1]) == "blocking";
    if (blocking) {
        cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync);
    }
    const char *mode = blocking ? "blocking-sync" : "auto";
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    spin<<<1, 1, 0, s>>>(1000);
    cudaStreamSynchronize(s);

    // CPU time spent in a 0.1 s wait, three ways.
    {
        double w0 = now_ms(), c0 = cpu_ms();
        spin<<<1, 1, 0, s>>>(SPIN);
        cudaStreamSynchronize(s);
        printf("%-14s cudaStreamSynchronize      wall %7.1f ms  cpu %7.1f ms\n", mode, now_ms() - w0, cpu_ms() - c0);
    }
    {
        cudaEvent_t e;
        cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
        double w0 = now_ms(), c0 = cpu_ms();
        spin<<<1, 1, 0, s>>>(SPIN);
        cudaEventRecord(e, s);
        cudaEventSynchronize(e);
        printf("%-14s cudaEventSynchronize       wall %7.1f ms  cpu %7.1f ms\n", mode, now_ms() - w0, cpu_ms() - c0);
        cudaEventDestroy(e);
    }
    {
        cudaEvent_t e;
        cudaEventCreateWithFlags(&e, cudaEventBlockingSync | cudaEventDisableTiming);
        double w0 = now_ms(), c0 = cpu_ms();
        spin<<<1, 1, 0, s>>>(SPIN);
        cudaEventRecord(e, s);
        cudaEventSynchronize(e);
        printf("%-14s event with BlockingSync    wall %7.1f ms  cpu %7.1f ms\n", mode, now_ms() - w0, cpu_ms() - c0);
        cudaEventDestroy(e);
    }
    if (blocking) {
        return 0;
    }

    // How long after the work before it a host function starts: a short spin, timed alone
    // with events, then the same spin followed by a host function that stamps the time.
    {
        cudaEvent_t a, b;
        cudaEventCreate(&a);
        cudaEventCreate(&b);
        std::vector<double> lag, call;
        for (int i = 0; i < 21; ++i) {
            cudaEventRecord(a, s);
            spin<<<1, 1, 0, s>>>(SPIN / 50);
            cudaEventRecord(b, s);
            cudaEventSynchronize(b);
            float spin_ms = 0;
            cudaEventElapsedTime(&spin_ms, a, b);
            double t0 = now_ms();
            spin<<<1, 1, 0, s>>>(SPIN / 50);
            double t1 = now_ms();
            cudaLaunchHostFunc(s, stamp, nullptr);
            call.push_back((now_ms() - t1) * 1000.0);
            cudaStreamSynchronize(s);
            lag.push_back((host_func_at - t0 - spin_ms) * 1000.0);
        }
        printf("cudaLaunchHostFunc: call %.1f us; starts %.1f us after the work before it (medians of 21; upper bound: includes the launch)\n", median(call), median(lag));
        cudaEventDestroy(a);
        cudaEventDestroy(b);
    }

    // cudaMemcpyDefault against the explicit kind, 64 MiB pinned, both directions.
    {
        const size_t bytes = 64u << 20;
        float *h, *d;
        cudaMallocHost(&h, bytes);
        cudaMalloc(&d, bytes);
        cudaEvent_t a, b;
        cudaEventCreate(&a);
        cudaEventCreate(&b);
        const cudaMemcpyKind kinds[2][2] = {{cudaMemcpyHostToDevice, cudaMemcpyDefault}, {cudaMemcpyDeviceToHost, cudaMemcpyDefault}};
        for (int dir = 0; dir < 2; ++dir) {
            for (int k = 0; k < 2; ++k) {
                std::vector<double> gbps;
                for (int i = 0; i < 9; ++i) {
                    cudaEventRecord(a, s);
                    if (dir == 0) cudaMemcpyAsync(d, h, bytes, kinds[dir][k], s);
                    else cudaMemcpyAsync(h, d, bytes, kinds[dir][k], s);
                    cudaEventRecord(b, s);
                    cudaEventSynchronize(b);
                    float ms = 0;
                    cudaEventElapsedTime(&ms, a, b);
                    gbps.push_back(bytes / (ms * 1e6));
                }
                printf("64 MiB pinned %s with %-24s %.1f GB/s (median of 9)\n", dir == 0 ? "H2D" : "D2H", k == 0 ? (dir == 0 ? "cudaMemcpyHostToDevice" : "cudaMemcpyDeviceToHost") : "cudaMemcpyDefault", median(gbps));
            }
        }
        cudaFreeHost(h);
        cudaFree(d);
    }
    cudaStreamDestroy(s);
    return 0;
}
