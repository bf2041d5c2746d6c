// Lesson 3: the source of an async copy must stay as it was until the copy has read it.
#include "academy.cuh"

int main()
{
    const size_t n = 1 << 22; // 4 Mi floats per batch: 16 MiB
    const size_t bytes = n * sizeof(float);
    const int nbatches = 2;
    float *h_data = (float *)malloc(nbatches * bytes); // the whole input, in pageable memory
    float *h_stage;                                    // one pinned batch to upload from
    float *h_out;
    cudaMallocHost(&h_stage, bytes);
    cudaMallocHost(&h_out, nbatches * bytes);
    float *d_in;
    float *d_out;
    cudaMalloc(&d_in, nbatches * bytes);
    cudaMalloc(&d_out, nbatches * bytes);
    fill_input(h_data, nbatches * n);

    cudaStream_t s;
    cudaStreamCreate(&s);
    // The stream is still busy with earlier work (about 20 ms on a 2 GHz GPU), as a stream in
    // a real program often is, so the uploads below wait in it.
    spin<<<1, 1, 0, s>>>(40000000LL);
    for (int b = 0; b < nbatches; b++) {
        memcpy(h_stage, h_data + b * n, bytes); // stage batch b in pinned memory
        cudaMemcpyAsync(d_in + b * n, h_stage, bytes, cudaMemcpyHostToDevice, s);
        // TODO: the next round refills h_stage at once. Has this copy read it yet?
    }
    transform<<<4096, 256, 0, s>>>(d_in, d_out, nbatches * n);
    cudaMemcpyAsync(h_out, d_out, nbatches * bytes, cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);
    bool ok = check_output(h_out, nbatches * n);
    printf("check_output: %s\n", ok ? "pass" : "FAIL");

    cudaStreamDestroy(s);
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFreeHost(h_stage);
    cudaFreeHost(h_out);
    free(h_data);
    return 0;
}
