// Lesson 4: one stream per stage, events carrying each chunk onward.
#include "academy.cuh"

int main()
{
    const size_t n = 1 << 24; // 16 Mi floats: 64 MiB
    const size_t bytes = n * sizeof(float);
    const int nchunks = 16;
    const size_t chunk = n / nchunks;
    const long long work = 2000000; // about 1 ms of compute per chunk
    float *h_in;
    float *h_out;
    cudaMallocHost(&h_in, bytes);
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
    cudaEvent_t uploaded, computed;
    cudaEventCreateWithFlags(&uploaded, cudaEventDisableTiming);
    cudaEventCreateWithFlags(&computed, cudaEventDisableTiming);

    double t0 = now_ms();
    for (int c = 0; c < nchunks; c++) {
        size_t off = c * chunk;
        cudaMemcpyAsync(d_in + off, h_in + off, chunk * sizeof(float), cudaMemcpyHostToDevice, up);
        cudaEventRecord(uploaded, up);
        cudaStreamWaitEvent(compute, uploaded, 0);
        transform<<<(chunk + 255) / 256, 256, 0, compute>>>(d_in + off, d_out + off, chunk);
        spin<<<1, 1, 0, compute>>>(work);
        cudaEventRecord(computed, compute);
        cudaStreamWaitEvent(down, computed, 0);
        cudaMemcpyAsync(h_out + off, d_out + off, chunk * sizeof(float), cudaMemcpyDeviceToHost, down);
    }
    // The last download waits, through the events, for every upload and kernel before it: one
    // sync on `down` covers all three streams.
    cudaStreamSynchronize(down);
    report("pipeline_ms", now_ms() - t0);

    bool ok = check_output(h_out, n);
    printf("check_output: %s\n", ok ? "pass" : "FAIL");
    cudaEventDestroy(uploaded);
    cudaEventDestroy(computed);
    cudaStreamDestroy(up);
    cudaStreamDestroy(compute);
    cudaStreamDestroy(down);
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFreeHost(h_in);
    cudaFreeHost(h_out);
    return 0;
}
