// Lesson 2: pinned allocation is slow; do it once.
#include "academy.cuh"

int main()
{
    const size_t n = 1 << 24; // 16 Mi floats: 64 MiB
    const size_t bytes = n * sizeof(float);
    float *d_in;
    float *d_out;
    cudaMalloc(&d_in, bytes);
    cudaMalloc(&d_out, bytes);
    bool all_ok = true;

    double t0 = now_ms();
    float *h_in;
    float *h_out;
    cudaMallocHost(&h_in, bytes);
    cudaMallocHost(&h_out, bytes);
    for (int round = 0; round < 8; round++) {
        fill_input(h_in, n);
        cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice);
        transform<<<1024, 256>>>(d_in, d_out, n);
        cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost);
        if (!check_output(h_out, n)) {
            all_ok = false;
        }
    }
    cudaFreeHost(h_in);
    cudaFreeHost(h_out);
    report("total_ms", now_ms() - t0);
    printf("check_output: %s\n", all_ok ? "pass" : "FAIL");

    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
