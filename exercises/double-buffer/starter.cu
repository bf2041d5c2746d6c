// Lesson 4: double buffering. Each stream reuses its own pair of chunk-sized device buffers.
#include "academy.cuh"

int main()
{
    const size_t n = 1 << 26; // 64 Mi floats: 256 MiB
    const size_t bytes = n * sizeof(float);
    float *h_in;
    float *h_out;
    cudaMallocHost(&h_in, bytes);
    cudaMallocHost(&h_out, bytes);
    float *d_in;
    float *d_out;
    cudaMalloc(&d_in, bytes);
    cudaMalloc(&d_out, bytes);
    fill_input(h_in, n);

    double t0 = now_ms();
    // TODO: split this into 32 chunks of 8 MiB, issued per chunk (copy in, kernel, copy out)
    // round-robin on three non-blocking streams. Give each stream its own pair of chunk-sized
    // device buffers and reuse them for every chunk it gets, instead of the 256 MiB ones.
    cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice);
    transform<<<4096, 256>>>(d_in, d_out, n);
    cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost);
    report("pipeline_ms", now_ms() - t0);

    bool ok = check_output(h_out, n);
    printf("check_output: %s\n", ok ? "pass" : "FAIL");
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFreeHost(h_in);
    cudaFreeHost(h_out);
    return 0;
}
