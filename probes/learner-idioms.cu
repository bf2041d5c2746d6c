// Learner idioms the exercise checker runs (issue 19, editor usability): a CHECK macro with
// #call and __LINE__, &p[i] on host and device memory, do-while, std::min/std::max.
// Built with nvcc against exercises/academy.cuh and run on the H200, its output must equal
// what `cuda-academy exercise check` prints for the same file (probes/learner-idioms-h200.txt).
#include "academy.cuh"
#include <algorithm>

#define CHECK(call)                                                          \
    do {                                                                     \
        cudaError_t err_ = (call);                                           \
        if (err_ != cudaSuccess) {                                           \
            printf("%s failed at line %d: %s\n", #call, __LINE__,            \
                   cudaGetErrorString(err_));                                \
        }                                                                    \
    } while (0)

int main()
{
    const size_t n = 1 << 20;
    const size_t bytes = n * sizeof(float);
    float *h_in;
    float *h_out;
    CHECK(cudaMallocHost(&h_in, bytes));
    CHECK(cudaMallocHost(&h_out, bytes));
    float *d_in;
    float *d_out;
    CHECK(cudaMalloc(&d_in, bytes));
    CHECK(cudaMalloc(&d_out, bytes));
    fill_input(h_in, n);
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    size_t half = n / 2;
    CHECK(cudaMemcpyAsync(&d_in[0], &h_in[0], half * sizeof(float),
                          cudaMemcpyHostToDevice, s));
    CHECK(cudaMemcpyAsync(&d_in[half], &h_in[half], half * sizeof(float),
                          cudaMemcpyHostToDevice, s));
    transform<<<1024, 256, 0, s>>>(d_in, d_out, n);
    CHECK(cudaMemcpyAsync(&h_out[0], d_out, bytes, cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
    int rounds = 0;
    do {
        rounds++;
    } while (rounds < std::min(3, 4) && rounds < std::max(1, 2));
    printf("check_output: %s, rounds %d\n", check_output(&h_out[0], n) ? "pass" : "FAIL", rounds);
    CHECK(cudaFree(h_in)); // wrong free: the macro reports it, with its line
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    CHECK(cudaFreeHost(h_in));
    CHECK(cudaFreeHost(h_out));
    return 0;
}
