// Probe: the machine facts lesson 1 ("When the GPU can read pageable memory") and lesson 4
// ("Where these rules change") quote for the H200 test machine, read with the Runtime API, to
// compare with what `cuda-academy info` reads through the driver API. The H200's output is
// probes/machine-facts-h200.txt.
//
//   nvcc -std=c++17 -O2 -o /tmp/machine-facts probes/machine-facts.cu && /tmp/machine-facts
//   nvidia-smi -q | grep -i -E "addressing mode|driver model"
#include <cstdio>
#include <cuda_runtime.h>

static int attr(cudaDeviceAttr a, int dev)
{
    int v = -1;
    cudaError_t e = cudaDeviceGetAttribute(&v, a, dev);
    if (e != cudaSuccess) {
        printf("  (query failed: %s)\n", cudaGetErrorString(e));
        return -1;
    }
    return v;
}

int main()
{
    int dev = 0;
    cudaDeviceProp p;
    if (cudaGetDeviceProperties(&p, dev) != cudaSuccess) {
        printf("no CUDA device\n");
        return 1;
    }
    int driver = 0, runtime = 0;
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    printf("device: %s (compute capability %d.%d), driver %d, runtime %d\n", p.name, p.major,
           p.minor, driver, runtime);
    printf("asyncEngineCount: %d\n", attr(cudaDevAttrAsyncEngineCount, dev));
    printf("pageableMemoryAccess: %d\n", attr(cudaDevAttrPageableMemoryAccess, dev));
    printf("pageableMemoryAccessUsesHostPageTables: %d\n",
           attr(cudaDevAttrPageableMemoryAccessUsesHostPageTables, dev));
    printf("canUseHostPointerForRegisteredMem: %d\n",
           attr(cudaDevAttrCanUseHostPointerForRegisteredMem, dev));
    printf("concurrentManagedAccess: %d\n", attr(cudaDevAttrConcurrentManagedAccess, dev));
    printf("integrated: %d\n", attr(cudaDevAttrIntegrated, dev));
    printf("tccDriver: %d\n", attr(cudaDevAttrTccDriver, dev));
    printf("hostNativeAtomicSupported: %d\n", attr(cudaDevAttrHostNativeAtomicSupported, dev));
    printf("canMapHostMemory: %d\n", attr(cudaDevAttrCanMapHostMemory, dev));
    printf("pciBusID: %04x:%02x:%02x\n", p.pciDomainID, p.pciBusID, p.pciDeviceID);
    return 0;
}
