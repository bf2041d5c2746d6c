// Lesson 2: what page-locking costs, and how often to pay it.
#include "academy.cuh"

// Copies between memory from malloc and the device, page-locked so they run at pinned speed.
void upload_locked(float *d, float *h, size_t bytes)
{
    cudaHostRegister(h, bytes, cudaHostRegisterDefault);
    cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);
    cudaHostUnregister(h);
}

void download_locked(float *h, float *d, size_t bytes)
{
    cudaHostRegister(h, bytes, cudaHostRegisterDefault);
    cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost);
    cudaHostUnregister(h);
}

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

    double transfer_ms = 0; // time in the copies, not in fill_input or check_output
    for (int round = 0; round < 8; round++) {
        fill_input(h_in, n);
        double t0 = now_ms();
        upload_locked(d_in, h_in, bytes);
        transform<<<1024, 256>>>(d_in, d_out, n);
        download_locked(h_out, d_out, bytes);
        transfer_ms += now_ms() - t0;
        if (!check_output(h_out, n)) {
            all_ok = false;
        }
    }
    report("transfer_ms", transfer_ms);
    printf("check_output: %s\n", all_ok ? "pass" : "FAIL");

    cudaFree(d_in);
    cudaFree(d_out);
    free(h_in);
    free(h_out);
    return 0;
}
