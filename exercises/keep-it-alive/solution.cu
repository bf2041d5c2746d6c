// Lesson 3: the source of an async copy must outlive the copy.
#include "academy.cuh"

int main()
{
    const size_t n = 1 << 24; // 16 Mi floats: 64 MiB
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

    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaMemcpyAsync(d_in, h_in, bytes, cudaMemcpyHostToDevice, s);
    transform<<<1024, 256, 0, s>>>(d_in, d_out, n);
    cudaMemcpyAsync(h_out, d_out, bytes, cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);
    cudaFreeHost(h_in);
    bool ok = check_output(h_out, n);
    printf("check_output: %s\n", ok ? "pass" : "FAIL");

    cudaStreamDestroy(s);
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFreeHost(h_out);
    return 0;
}
