// Probe: what the CUDA driver does where the Runtime API says "may" or nothing.
// Each case queues ~100 ms of GPU work (`spin`) ahead of the call it measures, then prints how
// long the call took on the host and, where it matters, what data arrived. The ordering model
// (src/ordering/rules.rs) cites these case names; the H200's output is probes/ordering-h200.txt.
//
// Build and run (from the repository root):
//   nvcc -std=c++17 -O2 -I exercises -o /tmp/ordering probes/ordering.cu && /tmp/ordering
#include "academy.cuh"

#define SPIN 200000000LL // about 0.1 s of one SM's clock on an H200
#define CHECK(x)                                                                              \
    do {                                                                                      \
        cudaError_t e_ = (x);                                                                 \
        if (e_ != cudaSuccess) {                                                              \
            printf("%s failed: %s\n", #x, cudaGetErrorString(e_));                            \
            return 1;                                                                         \
        }                                                                                     \
    } while (0)

static void row(const char *name, double ms, const char *note)
{
    printf("%-40s %9.3f ms  %s\n", name, ms, note);
}

static volatile int host_func_ran = 0;
static void CUDART_CB set_flag(void *) { host_func_ran = 1; }

int main()
{
    const size_t n = 1 << 24; // 64 MiB
    const size_t bytes = n * sizeof(float);
    float *h_page = (float *)malloc(bytes);
    float *h_pin;
    float *d_a;
    float *d_b;
    CHECK(cudaMallocHost(&h_pin, bytes));
    CHECK(cudaMalloc(&d_a, bytes));
    CHECK(cudaMalloc(&d_b, bytes));
    cudaStream_t blocking, free_s;
    CHECK(cudaStreamCreate(&blocking));
    CHECK(cudaStreamCreateWithFlags(&free_s, cudaStreamNonBlocking));
    cudaEvent_t e;
    CHECK(cudaEventCreate(&e));
    // Warm up: module load, first copies.
    spin<<<1, 1, 0, blocking>>>(1000);
    CHECK(cudaMemcpy(d_a, h_pin, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaDeviceSynchronize());
    double t;

    // The spin alone, for scale.
    t = now_ms();
    spin<<<1, 1, 0, blocking>>>(SPIN);
    CHECK(cudaStreamSynchronize(blocking));
    row("spin-alone", now_ms() - t, "the queued work each case waits behind");

    spin<<<1, 1, 0, blocking>>>(SPIN);
    t = now_ms();
    CHECK(cudaMemset(d_b, 0, bytes));
    row("memset-returns-at-once", now_ms() - t, "cudaMemset behind a busy blocking stream");
    CHECK(cudaDeviceSynchronize());

    spin<<<1, 1, 0, blocking>>>(SPIN);
    t = now_ms();
    CHECK(cudaMemcpy(d_b, d_a, bytes, cudaMemcpyDeviceToDevice));
    row("d2d-memcpy-returns-at-once", now_ms() - t, "cudaMemcpy D2D behind a busy blocking stream");
    CHECK(cudaDeviceSynchronize());

    spin<<<1, 1, 0, blocking>>>(SPIN);
    t = now_ms();
    CHECK(cudaStreamSynchronize(0));
    row("sync-legacy-waits-blocking", now_ms() - t, "cudaStreamSynchronize(0), blocking stream busy");
    CHECK(cudaDeviceSynchronize());

    spin<<<1, 1, 0, free_s>>>(SPIN);
    t = now_ms();
    CHECK(cudaStreamSynchronize(0));
    row("sync-legacy-ignores-non-blocking", now_ms() - t, "cudaStreamSynchronize(0), non-blocking stream busy");
    CHECK(cudaDeviceSynchronize());

    spin<<<1, 1, 0, blocking>>>(SPIN);
    t = now_ms();
    CHECK(cudaEventRecord(e, 0));
    CHECK(cudaEventSynchronize(e));
    row("event-on-legacy-captures-blocking", now_ms() - t, "cudaEventRecord(e, 0) + cudaEventSynchronize(e)");
    CHECK(cudaDeviceSynchronize());

    {
        cudaStream_t doomed;
        CHECK(cudaStreamCreate(&doomed));
        spin<<<1, 1, 0, doomed>>>(SPIN);
        t = now_ms();
        CHECK(cudaStreamDestroy(doomed));
        row("destroy-busy-returns-at-once", now_ms() - t, "cudaStreamDestroy of a busy blocking stream");
        t = now_ms();
        CHECK(cudaEventRecord(e, 0));
        CHECK(cudaEventSynchronize(e));
        row("destroyed-busy-fences-legacy", now_ms() - t, "then an event on stream 0, synchronised");
        CHECK(cudaDeviceSynchronize());
    }

    {
        int stale = 0;
        double worst = 0;
        for (int round = 0; round < 20; ++round) {
            for (size_t i = 0; i < n; ++i) h_page[i] = 1.0f;
            spin<<<1, 1, 0, free_s>>>(SPIN / 4);
            t = now_ms();
            CHECK(cudaMemcpyAsync(d_a, h_page, bytes, cudaMemcpyHostToDevice, free_s));
            double call = now_ms() - t;
            worst = call > worst ? call : worst;
            h_page[0] = 2.0f;      // overwrite the source at once
            h_page[n - 1] = 2.0f;
            CHECK(cudaStreamSynchronize(free_s));
            float first, last;
            CHECK(cudaMemcpy(&first, d_a, 4, cudaMemcpyDeviceToHost));
            CHECK(cudaMemcpy(&last, d_a + n - 1, 4, cudaMemcpyDeviceToHost));
            stale += (first != 1.0f || last != 1.0f);
        }
        char note[128];
        snprintf(note, sizeof note, "slowest call of 20; overwrites that reached the GPU: %d of 20", stale);
        row("async-h2d-pageable-takes-source", worst, note);
    }

    spin<<<1, 1, 0, free_s>>>(SPIN);
    t = now_ms();
    CHECK(cudaMemcpyAsync(h_page, d_a, bytes, cudaMemcpyDeviceToHost, free_s));
    row("async-d2h-pageable-completes", now_ms() - t, "pageable D2H behind 0.1 s on its stream");
    CHECK(cudaDeviceSynchronize());

    spin<<<1, 1, 0, blocking>>>(SPIN);
    t = now_ms();
    CHECK(cudaMemcpy(d_a, h_page, bytes, cudaMemcpyHostToDevice));
    row("memcpy-h2d-pageable-syncs-first", now_ms() - t, "cudaMemcpy H2D pageable, blocking stream busy");
    CHECK(cudaDeviceSynchronize());

    spin<<<1, 1, 0, free_s>>>(SPIN);
    t = now_ms();
    CHECK(cudaMemcpyAsync(h_pin, d_a, bytes, cudaMemcpyDeviceToHost, free_s));
    row("async-d2h-pinned-returns-at-once", now_ms() - t, "pinned D2H behind 0.1 s on its stream");
    CHECK(cudaDeviceSynchronize());

    {
        float *d_tmp;
        CHECK(cudaMalloc(&d_tmp, bytes));
        spin<<<1, 1, 0, free_s>>>(SPIN);
        CHECK(cudaMemcpyAsync(d_tmp, h_pin, bytes, cudaMemcpyHostToDevice, free_s));
        t = now_ms();
        CHECK(cudaFree(d_tmp));
        row("free-waits-cudaFree", now_ms() - t, "cudaFree of a copy's destination in flight");
        CHECK(cudaDeviceSynchronize());

        float *h_tmp;
        CHECK(cudaMallocHost(&h_tmp, bytes));
        spin<<<1, 1, 0, free_s>>>(SPIN);
        CHECK(cudaMemcpyAsync(d_a, h_tmp, bytes, cudaMemcpyHostToDevice, free_s));
        t = now_ms();
        CHECK(cudaFreeHost(h_tmp));
        row("free-waits-cudaFreeHost", now_ms() - t, "cudaFreeHost of a copy's source in flight");
        CHECK(cudaDeviceSynchronize());

        float *h_reg = (float *)malloc(bytes);
        CHECK(cudaHostRegister(h_reg, bytes, cudaHostRegisterDefault));
        spin<<<1, 1, 0, free_s>>>(SPIN);
        CHECK(cudaMemcpyAsync(d_a, h_reg, bytes, cudaMemcpyHostToDevice, free_s));
        t = now_ms();
        CHECK(cudaHostUnregister(h_reg));
        row("free-waits-cudaHostUnregister", now_ms() - t, "cudaHostUnregister of a copy's source in flight");
        CHECK(cudaDeviceSynchronize());
        free(h_reg);
    }

    {
        spin<<<1, 1, 0, free_s>>>(SPIN);
        t = now_ms();
        cudaError_t q = cudaStreamQuery(free_s);
        row("stream-query-answers-at-once", now_ms() - t, q == cudaErrorNotReady ? "cudaErrorNotReady while busy" : "cudaSuccess while busy (unexpected)");
        CHECK(cudaDeviceSynchronize());
        q = cudaStreamQuery(free_s);
        row("stream-query-after-sync", 0.0, q == cudaSuccess ? "cudaSuccess" : "not cudaSuccess (unexpected)");
    }

    {
        host_func_ran = 0;
        spin<<<1, 1, 0, free_s>>>(SPIN);
        t = now_ms();
        CHECK(cudaLaunchHostFunc(free_s, set_flag, nullptr));
        int at_return = host_func_ran;
        CHECK(cudaStreamSynchronize(free_s));
        char note[96];
        snprintf(note, sizeof note, "ran before the call returned: %s; after the sync: %s", at_return ? "yes" : "no", host_func_ran ? "yes" : "no");
        row("host-func-runs-in-stream-order", now_ms() - t, note);
    }

    {
        float *d_async;
        spin<<<1, 1, 0, free_s>>>(SPIN);
        t = now_ms();
        CHECK(cudaMallocAsync(&d_async, bytes, free_s));
        CHECK(cudaFreeAsync(d_async, free_s));
        row("malloc-free-async-return-at-once", now_ms() - t, "cudaMallocAsync + cudaFreeAsync behind 0.1 s");
        CHECK(cudaDeviceSynchronize());
    }

    {
        // An elapsed time asked of an event still pending.
        cudaEvent_t a, b;
        CHECK(cudaEventCreate(&a));
        CHECK(cudaEventCreate(&b));
        CHECK(cudaEventRecord(a, free_s));
        spin<<<1, 1, 0, free_s>>>(SPIN);
        CHECK(cudaEventRecord(b, free_s));
        float ms = 0;
        cudaError_t r = cudaEventElapsedTime(&ms, a, b);
        row("elapsed-on-pending-event", 0.0, cudaGetErrorName(r));
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaEventDestroy(a));
        CHECK(cudaEventDestroy(b));
    }

    {
        // cudaFree of cudaMallocHost memory: the error, and whether the buffer survives.
        float *h_tmp;
        CHECK(cudaMallocHost(&h_tmp, 4096));
        cudaError_t r = cudaFree(h_tmp);
        cudaGetLastError();
        h_tmp[0] = 3.0f;
        cudaError_t r2 = cudaFreeHost(h_tmp);
        char note[128];
        snprintf(note, sizeof note, "cudaFree gave %s; buffer still usable, cudaFreeHost then gave %s", cudaGetErrorName(r), cudaGetErrorName(r2));
        row("cudaFree-of-pinned", 0.0, note);
    }

    CHECK(cudaEventDestroy(e));
    CHECK(cudaStreamDestroy(blocking));
    CHECK(cudaStreamDestroy(free_s));
    CHECK(cudaFree(d_a));
    CHECK(cudaFree(d_b));
    CHECK(cudaFreeHost(h_pin));
    free(h_page);
    return 0;
}
