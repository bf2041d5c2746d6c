// cuda-academy: the exercises' out-of-place transform.
// out[i] = in[i] * a + b over n floats (a, b: the standard TRANSFORM_A, TRANSFORM_B), grid-stride.
extern "C" __global__ void transform_into(const float* in, float* out, unsigned long long n,
                                          float a, float b)
{
    unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += stride) {
        out[i] = in[i] * a + b;
    }
}
