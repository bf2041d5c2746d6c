// Lesson 2: pin a buffer that someone else allocated.
#include "academy.cuh"

int main()
{
    const size_t n = 1 << 24; // 16 Mi floats: 64 MiB
    const size_t bytes = n * sizeof(float);
    // A library gave us this buffer; we cannot change how it was allocated.
    float *h_data = (float *)malloc(bytes);
    fill_input(h_data, n);
    // TODO: page-lock h_data here, so the async copies below can really be async.

    float *d_in;
    float *d_out;
    cudaMalloc(&d_in, bytes);
    cudaMalloc(&d_out, bytes);
    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaMemcpyAsync(d_in, h_data, bytes, cudaMemcpyHostToDevice, s);
    transform<<<1024, 256, 0, s>>>(d_in, d_out, n);
    cudaMemcpyAsync(h_data, d_out, bytes, cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);
    bool ok = check_output(h_data, n);
    printf("check_output: %s\n", ok ? "pass" : "FAIL");

    // TODO: release the page lock before the library frees the buffer.
    cudaStreamDestroy(s);
    cudaFree(d_in);
    cudaFree(d_out);
    free(h_data); // the library's own release
    return 0;
}
