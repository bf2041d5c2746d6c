// cuda-academy: the alternatives experiment's kernel (probes/alternatives.cu's `transform`).
// out[i] = in[i] * a + b for every `stride`-th of n floats, `passes` times over (the result is the
// same; the reads are what differ: reused data, or one float in 64 KiB), grid-stride.
extern "C" __global__ void strided(const float* in, float* out, unsigned long long n,
                                   unsigned long long stride, int passes, float a, float b)
{
    unsigned long long step = (unsigned long long)gridDim.x * blockDim.x;
    for (int p = 0; p < passes; ++p) {
        for (unsigned long long k = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
             k * stride < n; k += step) {
            unsigned long long i = k * stride;
            out[i] = in[i] * a + b;
        }
    }
}
