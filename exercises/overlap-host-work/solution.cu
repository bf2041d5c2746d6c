// Lesson 3: the host is free while async work runs.
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
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);

    double t0 = now_ms();
    cudaEventRecord(start, s);
    cudaMemcpyAsync(d_in, h_in, bytes, cudaMemcpyHostToDevice, s);
    transform<<<1024, 256, 0, s>>>(d_in, d_out, n);
    cudaMemcpyAsync(h_out, d_out, bytes, cudaMemcpyDeviceToHost, s);
    cudaEventRecord(stop, s);
    double h0 = now_ms();
    host_work(2.0);
    double host_ms = now_ms() - h0;
    cudaStreamSynchronize(s);
    double total_ms = now_ms() - t0;
    float gpu_ms = 0;
    cudaEventElapsedTime(&gpu_ms, start, stop);
    report("total_ms", total_ms);
    report("gpu_ms", gpu_ms);
    report("host_ms", host_ms);
    bool ok = check_output(h_out, n);
    printf("check_output: %s\n", ok ? "pass" : "FAIL");

    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaStreamDestroy(s);
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFreeHost(h_in);
    cudaFreeHost(h_out);
    return 0;
}
