// cuda-academy: the exercises' spin(cycles): one thread waits `cycles` SM clock cycles and
// touches no memory, so the kernel's duration is set by the clock alone.
extern "C" __global__ void spin_cycles(long long cycles)
{
    long long start = clock64();
    while (clock64() - start < cycles) {
    }
}
