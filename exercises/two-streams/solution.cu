// Lesson 3: two streams overlap only when nothing ties them together.
#include "academy.cuh"

int main()
{
    const size_t n = 1 << 25; // 32 Mi floats: 128 MiB
    const size_t bytes = n * sizeof(float);
    const int nchunks = 8;
    const size_t chunk = n / nchunks;
    const long long work = 1000000; // about 0.5 ms of compute per chunk
    float *h_in;
    float *h_out;
    cudaMallocHost(&h_in, bytes);
    cudaMallocHost(&h_out, bytes);
    float *d_in;
    float *d_out;
    cudaMalloc(&d_in, bytes);
    cudaMalloc(&d_out, bytes);
    fill_input(h_in, n);
    cudaStream_t s[2];
    cudaStreamCreate(&s[0]);
    cudaStreamCreate(&s[1]);

    double t0 = now_ms();
    for (int c = 0; c < nchunks; c++) {
        cudaStream_t st = s[c % 2];
        size_t off = c * chunk;
        cudaMemcpyAsync(d_in + off, h_in + off, chunk * sizeof(float), cudaMemcpyHostToDevice, st);
        spin<<<(chunk + 255) / 256, 256, 0, st>>>(work, d_in + off, chunk); // most of the chunk's compute: +1 in place
        transform<<<(chunk + 255) / 256, 256, 0, st>>>(d_in + off, d_out + off, chunk); // the rest: reads the spun chunk, writes its result
        cudaMemcpyAsync(h_out + off, d_out + off, chunk * sizeof(float), cudaMemcpyDeviceToHost, st);
    }
    cudaStreamSynchronize(s[0]);
    cudaStreamSynchronize(s[1]);
    report("total_ms", now_ms() - t0);

    bool ok = check_output(h_out, n, 1); // one spin pass, then the transform
    printf("check_output: %s\n", ok ? "pass" : "FAIL");
    cudaStreamDestroy(s[0]);
    cudaStreamDestroy(s[1]);
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFreeHost(h_in);
    cudaFreeHost(h_out);
    return 0;
}
