// Lesson 4: pageable input through a ring of pinned staging slots.
#include "academy.cuh"

int main()
{
    const size_t n = 1 << 24; // 16 Mi floats: 64 MiB
    const size_t bytes = n * sizeof(float);
    const int nchunks = 16;
    const size_t chunk = n / nchunks;
    const size_t chunk_bytes = chunk * sizeof(float);
    const long long work = 2000000; // about 1 ms of compute per chunk
    // The input comes from a library that allocates it with malloc: it stays pageable.
    float *h_in = (float *)malloc(bytes);
    float *h_out;
    cudaMallocHost(&h_out, bytes);
    float *d_in;
    float *d_out;
    cudaMalloc(&d_in, bytes);
    cudaMalloc(&d_out, bytes);
    fill_input(h_in, n);

    cudaStream_t up, compute, down;
    cudaStreamCreateWithFlags(&up, cudaStreamNonBlocking);
    cudaStreamCreateWithFlags(&compute, cudaStreamNonBlocking);
    cudaStreamCreateWithFlags(&down, cudaStreamNonBlocking);
    cudaEvent_t computed;
    cudaEventCreateWithFlags(&computed, cudaEventDisableTiming);
    // The ring: four pinned slots of one chunk, each with an event recorded after its upload.
    const int slots = 4;
    float *stage[4];
    cudaEvent_t uploaded[4];
    for (int k = 0; k < slots; k++) {
        cudaMallocHost(&stage[k], chunk_bytes);
        cudaEventCreateWithFlags(&uploaded[k], cudaEventDisableTiming);
    }

    double t0 = now_ms();
    for (int c = 0; c < nchunks; c++) {
        int k = c % slots;
        size_t off = c * chunk;
        cudaEventSynchronize(uploaded[k]); // slot k's last upload has finished
        memcpy(stage[k], h_in + off, chunk_bytes);
        cudaMemcpyAsync(d_in + off, stage[k], chunk_bytes, cudaMemcpyHostToDevice, up);
        cudaEventRecord(uploaded[k], up);
        cudaStreamWaitEvent(compute, uploaded[k], 0);
        transform<<<(chunk + 255) / 256, 256, 0, compute>>>(d_in + off, d_out + off, chunk);
        spin<<<1, 1, 0, compute>>>(work);
        cudaEventRecord(computed, compute);
        cudaStreamWaitEvent(down, computed, 0);
        cudaMemcpyAsync(h_out + off, d_out + off, chunk_bytes, cudaMemcpyDeviceToHost, down);
    }
    // The last download waits, through the events, for every upload and kernel before it: one
    // sync on `down` covers all three streams.
    cudaStreamSynchronize(down);
    report("pipeline_ms", now_ms() - t0);

    bool ok = check_output(h_out, n);
    printf("check_output: %s\n", ok ? "pass" : "FAIL");
    for (int k = 0; k < slots; k++) {
        cudaEventDestroy(uploaded[k]);
        cudaFreeHost(stage[k]);
    }
    cudaEventDestroy(computed);
    cudaStreamDestroy(up);
    cudaStreamDestroy(compute);
    cudaStreamDestroy(down);
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFreeHost(h_out);
    free(h_in);
    return 0;
}
