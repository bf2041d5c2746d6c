// Lesson 2: pinned allocation is slow; do it once.
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
    float *d_in;
    float *d_out;
    cudaMalloc(&d_in, bytes);
    cudaMalloc(&d_out, bytes);
    bool all_ok = true;

    double t0 = now_ms();
    float *h_in;
    float *h_out;
    CHECK(cudaMallocHost(&h_in, bytes));
    CHECK(cudaMallocHost(&h_out, bytes));
    for (int round = 0; round < 8; round++) {
        fill_input(h_in, n);
        cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice);
        transform<<<1024, 256>>>(d_in, d_out, n);
        CHECK(cudaGetLastError());
        cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost);
        if (!check_output(h_out, n)) {
            all_ok = false;
        }
    }
    cudaFreeHost(h_in);
    cudaFreeHost(h_out);
    report("total_ms", now_ms() - t0);
    printf("check_output: %s\n", all_ok ? "pass" : "FAIL");

    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
