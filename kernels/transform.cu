// cuda-academy: the pipeline's "light kernel".
// x[i] = x[i] * a + b over n floats, in place, with a grid-stride loop so that any grid covers
// any n. Memory-bound: one read and one write per element.
extern "C" __global__ void transform(float* x, unsigned long long n, float a, float b)
{
    unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += stride) {
        x[i] = x[i] * a + b;
    }
}
