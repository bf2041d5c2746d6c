// Lesson 1: time a pageable and a pinned copy with CUDA events, honestly: warm up first,
// repeat, and report the median.
#include "academy.cuh"

// Copies to measure per kind of memory, after one untimed warm-up copy.
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

    // TODO: create two events, `start` and `stop`.

    // TODO: copy once untimed (the warm-up), then time REPS copies, each between `start` and
    // `stop` (record, copy, record, wait for `stop`, read the elapsed time), and report the
    // median bandwidth as "pageable_gbps".
    cudaMemcpy(d_in, h_page, bytes, cudaMemcpyHostToDevice);

    // TODO: the same for the pinned copy, reported as "pinned_gbps".
    cudaMemcpy(d_in, h_pin, bytes, cudaMemcpyHostToDevice);

    transform<<<1024, 256>>>(d_in, d_out, n);
    cudaMemcpy(h_pin, d_out, bytes, cudaMemcpyDeviceToHost);
    bool ok = check_output(h_pin, n);
    printf("check_output: %s\n", ok ? "pass" : "FAIL");

    // TODO: destroy the events.
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFreeHost(h_pin);
    free(h_page);
    return 0;
}
