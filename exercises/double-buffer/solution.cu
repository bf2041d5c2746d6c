// Lesson 4: overlap copies and kernels with chunks on several streams.
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

    const int nstreams = 3;
    const int nchunks = 32;
    cudaStream_t s[3];
    for (int i = 0; i < nstreams; i++) {
        cudaStreamCreateWithFlags(&s[i], cudaStreamNonBlocking);
    }
    const size_t chunk = n / nchunks;

    double t0 = now_ms();
    for (int c = 0; c < nchunks; c++) {
        cudaStream_t st = s[c % nstreams];
        size_t off = c * chunk;
        cudaMemcpyAsync(d_in + off, h_in + off, chunk * sizeof(float), cudaMemcpyHostToDevice, st);
        transform<<<(chunk + 255) / 256, 256, 0, st>>>(d_in + off, d_out + off, chunk);
        cudaMemcpyAsync(h_out + off, d_out + off, chunk * sizeof(float), cudaMemcpyDeviceToHost, st);
    }
    for (int i = 0; i < nstreams; i++) {
        cudaStreamSynchronize(s[i]);
    }
    report("pipeline_ms", now_ms() - t0);

    bool ok = check_output(h_out, n);
    printf("check_output: %s\n", ok ? "pass" : "FAIL");
    for (int i = 0; i < nstreams; i++) {
        cudaStreamDestroy(s[i]);
    }
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFreeHost(h_in);
    cudaFreeHost(h_out);
    return 0;
}
