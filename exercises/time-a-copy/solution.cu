// Lesson 1: time a pageable and a pinned copy with CUDA events, honestly: warm up first,
// repeat, and report the median.
#include "academy.cuh"

// Copies measured per kind of memory, after one untimed warm-up copy.
#define REPS 5

// The median of v[0 .. n): sorts v in place (insertion sort), then takes the middle.
static inline float median(float *v, int n)
{
    for (int i = 1; i < n; i++) {
        float x = v[i];
        int j = i - 1;
        while (j >= 0 && v[j] > x) {
            v[j + 1] = v[j];
            j = j - 1;
        }
        v[j + 1] = x;
    }
    if (n % 2 == 1) {
        return v[n / 2];
    }
    return (v[n / 2 - 1] + v[n / 2]) / 2;
}

// Upload `bytes` from `src` to `dst` once untimed, then REPS times, each between its own pair
// of events; the median of the REPS copies in GB/s.
static double upload_gbps(float *dst, float *src, size_t bytes, cudaEvent_t start, cudaEvent_t stop)
{
    float *ms = (float *)malloc(REPS * sizeof(float));
    cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice); // warm-up
    for (int r = 0; r < REPS; r++) {
        cudaEventRecord(start, 0);
        cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice);
        cudaEventRecord(stop, 0);
        cudaEventSynchronize(stop);
        float t = 0;
        cudaEventElapsedTime(&t, start, stop);
        ms[r] = t;
    }
    double gbps = bytes / (median(ms, REPS) * 1e6);
    free(ms);
    return gbps;
}

int main()
{
    const size_t n = 1 << 24; // 16 Mi floats: 64 MiB
    const size_t bytes = n * sizeof(float);
    float *h_page = (float *)malloc(bytes);
    float *h_pin;
    cudaMallocHost(&h_pin, bytes);
    float *d_in;
    float *d_out;
    cudaMalloc(&d_in, bytes);
    cudaMalloc(&d_out, bytes);
    fill_input(h_page, n);
    fill_input(h_pin, n);

    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);

    report("pageable_gbps", upload_gbps(d_in, h_page, bytes, start, stop));
    report("pinned_gbps", upload_gbps(d_in, h_pin, bytes, start, stop));

    transform<<<1024, 256>>>(d_in, d_out, n);
    cudaMemcpy(h_pin, d_out, bytes, cudaMemcpyDeviceToHost);
    bool ok = check_output(h_pin, n);
    printf("check_output: %s\n", ok ? "pass" : "FAIL");

    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFreeHost(h_pin);
    free(h_page);
    return 0;
}
