// cuda-academy: the exercises' spin(cycles): one thread waits `cycles` SM clock cycles and
// touches no memory, so the kernel's duration is set by the clock alone.
extern "C" __global__ void spin_cycles(long long cycles)
{
    long long start = clock64();
    while (clock64() - start < cycles) {
    }
}

// cuda-academy: the exercises' spin(cycles, x, n): the same wait on thread 0 of block 0, and
// x[i] += add over n floats, grid-stride, by every thread (block 0's after the wait), so the
// chunk a spin works on carries its mark: work ordered after the spin must see it, work
// ordered before must not. The kernel lasts about `cycles`; the update is a light kernel's time.
extern "C" __global__ void spin_add(long long cycles, float* x, unsigned long long n, float add)
{
    if (blockIdx.x == 0) {
        if (threadIdx.x == 0) {
            long long start = clock64();
            while (clock64() - start < cycles) {
            }
        }
        __syncthreads();
    }
    unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += stride) {
        x[i] = x[i] + add;
    }
}
