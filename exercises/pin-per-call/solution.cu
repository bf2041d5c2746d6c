// Lesson 2: what page-locking costs, and how often to pay it.
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
    // These buffers come from a library that allocates them with malloc.
    float *h_in = (float *)malloc(bytes);
    float *h_out = (float *)malloc(bytes);
    float *d_in;
    float *d_out;
    cudaMalloc(&d_in, bytes);
    cudaMalloc(&d_out, bytes);
    bool all_ok = true;

    // Page-lock each buffer once, for all the rounds.
    CHECK(cudaHostRegister(h_in, bytes, cudaHostRegisterDefault));
    CHECK(cudaHostRegister(h_out, bytes, cudaHostRegisterDefault));
    double transfer_ms = 0; // time in the copies, not in fill_input or check_output
    for (int round = 0; round < 8; round++) {
        fill_input(h_in, n);
        double t0 = now_ms();
        cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice);
        transform<<<1024, 256>>>(d_in, d_out, n);
        CHECK(cudaGetLastError());
        cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost);
        transfer_ms += now_ms() - t0;
        if (!check_output(h_out, n)) {
            all_ok = false;
        }
    }
    cudaHostUnregister(h_in);
    cudaHostUnregister(h_out);
    report("transfer_ms", transfer_ms);
    printf("check_output: %s\n", all_ok ? "pass" : "FAIL");

    cudaFree(d_in);
    cudaFree(d_out);
    free(h_in);
    free(h_out);
    return 0;
}
