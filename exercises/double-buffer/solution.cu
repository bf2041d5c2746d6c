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
    fill_input(h_in, n);

    const int nstreams = 3;
    const int nchunks = 32;
    const size_t chunk = n / nchunks; // 2 Mi floats: 8 MiB
    const size_t chunk_bytes = chunk * sizeof(float);
    cudaStream_t s[3];
    float *d_in[3];
    float *d_out[3];
    for (int k = 0; k < nstreams; k++) {
        cudaStreamCreateWithFlags(&s[k], cudaStreamNonBlocking);
        cudaMalloc(&d_in[k], chunk_bytes);
        cudaMalloc(&d_out[k], chunk_bytes);
    }

    double t0 = now_ms();
    for (int c = 0; c < nchunks; c++) {
        // Chunk c uses stream and buffer slot k. Stream k runs in order, so chunk c + 3 cannot
        // overwrite d_in[k] before chunk c's kernel has read it, nor d_out[k] before chunk c's
        // download has read it.
        int k = c % nstreams;
        size_t off = c * chunk;
        cudaMemcpyAsync(d_in[k], h_in + off, chunk_bytes, cudaMemcpyHostToDevice, s[k]);
        transform<<<(chunk + 255) / 256, 256, 0, s[k]>>>(d_in[k], d_out[k], chunk);
        cudaMemcpyAsync(h_out + off, d_out[k], chunk_bytes, cudaMemcpyDeviceToHost, s[k]);
    }
    for (int k = 0; k < nstreams; k++) {
        cudaStreamSynchronize(s[k]);
    }
    report("pipeline_ms", now_ms() - t0);

    bool ok = check_output(h_out, n);
    printf("check_output: %s\n", ok ? "pass" : "FAIL");
    for (int k = 0; k < nstreams; k++) {
        cudaStreamDestroy(s[k]);
        cudaFree(d_in[k]);
        cudaFree(d_out[k]);
    }
    cudaFreeHost(h_in);
    cudaFreeHost(h_out);
    return 0;
}
