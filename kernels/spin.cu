// cuda-academy: a kernel whose duration is set by `iterations`, not by memory.
// Each element goes through `iterations` dependent FMAs, so the work per element is a chain the
// GPU cannot shorten; grid-stride, in place.
extern "C" __global__ void spin(float* x, unsigned long long n, unsigned int iterations)
{
    unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += stride) {
        float v = x[i];
        for (unsigned int k = 0; k < iterations; ++k) {
            v = v * 0.999999f + 0.000001f;
        }
        x[i] = v;
    }
}
