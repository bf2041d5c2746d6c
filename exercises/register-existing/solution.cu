// Lesson 2: pin a buffer that someone else allocated.
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
    // A library gave us this buffer; we cannot change how it was allocated.
    float *h_data = (float *)malloc(bytes);
    fill_input(h_data, n);
    CHECK(cudaHostRegister(h_data, bytes, cudaHostRegisterDefault));

    float *d_in;
    float *d_out;
    cudaMalloc(&d_in, bytes);
    cudaMalloc(&d_out, bytes);
    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaMemcpyAsync(d_in, h_data, bytes, cudaMemcpyHostToDevice, s);
    transform<<<1024, 256, 0, s>>>(d_in, d_out, n);
    CHECK(cudaGetLastError());
    cudaMemcpyAsync(h_data, d_out, bytes, cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);
    bool ok = check_output(h_data, n);
    printf("check_output: %s\n", ok ? "pass" : "FAIL");

    cudaHostUnregister(h_data);
    cudaStreamDestroy(s);
    cudaFree(d_in);
    cudaFree(d_out);
    free(h_data); // the library's own release
    return 0;
}
