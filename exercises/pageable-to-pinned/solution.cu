// Lesson 1: where the host buffer lives decides how fast it uploads.
#include "academy.cuh"

// A CUDA call returns its error; pinning can fail where `malloc` would not (lesson 2), and a
// launch's error shows in `cudaGetLastError`. (`return 1` leaves `main`; `exit(1)` works too
// in a compiled program.)
#define CHECK(call)                                                            \
    do {                                                                       \
        cudaError_t err_ = (call);                                             \
        if (err_ != cudaSuccess) {                                             \
            printf("line %d: %s\n", __LINE__, cudaGetErrorString(err_));       \
            return 1;                                                          \
        }                                                                      \
    } while (0)

int main()
{
    const size_t n = 1 << 24; // 16 Mi floats: 64 MiB
    const size_t bytes = n * sizeof(float);
    float *h_in;
    CHECK(cudaMallocHost(&h_in, bytes));
    float *h_out;
    CHECK(cudaMallocHost(&h_out, bytes));
    float *d_in;
    float *d_out;
    cudaMalloc(&d_in, bytes);
    cudaMalloc(&d_out, bytes);
    fill_input(h_in, n);

    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    const int uploads = 4;
    cudaEventRecord(start, 0);
    for (int i = 0; i < uploads; i++) {
        cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice);
    }
    cudaEventRecord(stop, 0);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    report("upload_gbps", uploads * bytes / (ms * 1e6));

    transform<<<1024, 256>>>(d_in, d_out, n);
    CHECK(cudaGetLastError());
    cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost);
    bool ok = check_output(h_out, n);
    printf("check_output: %s\n", ok ? "pass" : "FAIL");

    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFreeHost(h_out);
    cudaFreeHost(h_in);
    return 0;
}
