// Where recording the pipeline's timeline costs time (issue 10 §4), outside cuda-academy: the
// pipeline at 256 MiB timed on the host clock (first issue to the end of the final sync, as
// cuda-academy times it) with one CUPTI setting at a time, all variants interleaved, medians of
// R repetitions. Build and run on the GPU machine (benches/cupti_cost/run.sh):
//   nvcc -O2 -arch=sm_90 -o cupti_cost cupti_cost.cu -lcupti -lcuda && ./cupti_cost 21
// Each recorded repetition attaches CUPTI (cuptiActivityRegisterCallbacks), enables its kinds,
// warms them up with three small ops, times the run, then disables and detaches (cuptiFinalize),
// which is what cuda-academy does for every recording.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti.h>

#define CK(x) do { cudaError_t ck_ = (x); if (ck_) { printf("CUDA error %s at line %d\n", cudaGetErrorString(ck_), __LINE__); exit(1); } } while (0)
#define CP(x) do { CUptiResult cp_ = (x); if (cp_ != CUPTI_SUCCESS) { const char* m; cuptiGetResultString(cp_, &m); printf("CUPTI error %s at line %d\n", m, __LINE__); exit(1); } } while (0)

__global__ void transform(float* p, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x, step = (size_t)gridDim.x * blockDim.x;
  for (; i < n; i += step) p[i] = p[i] * 2.0f + 1.0f;
}

static const size_t BYTES = 256ull << 20;
static float *h_in, *h_out, *d_buf;
static long records = 0, event_records = 0;

static void CUPTIAPI requested(uint8_t** b, size_t* size, size_t* max) {
  *b = (uint8_t*)aligned_alloc(8, 1 << 20); *size = 1 << 20; *max = 0;
}
static void CUPTIAPI completed(CUcontext, uint32_t, uint8_t* b, size_t, size_t valid) {
  CUpti_Activity* r = NULL;
  while (cuptiActivityGetNextRecord(b, valid, &r) == CUPTI_SUCCESS) {
    records++;
    if (r->kind == CUPTI_ACTIVITY_KIND_CUDA_EVENT && ((CUpti_ActivityCudaEvent2*)r)->deviceTimestamp) event_records++;
  }
  free(b);
}

// What a variant turns on.
enum {
  MEMCPY = 1,        // CUPTI_ACTIVITY_KIND_MEMCPY
  KERNEL = 2,        // CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL
  TAGS = 4,          // external correlation, an id pushed and popped around every op
  EVENTS = 8,        // no CUPTI: a timing event before and after every op (the fallback recorder)
  ATTACH_ONLY = 16,  // CUPTI attached (callbacks registered), nothing enabled
  HOST_PINNED = 32,  // CUPTI_ACTIVITY_ATTR_MEM_ALLOCATION_TYPE_HOST_PINNED = 1
  DEVICE_MEM = 64,   // CUPTI_ACTIVITY_ATTR_MEM_ALLOCATION_TYPE_HOST_PINNED = 0
  BIG_BUFFER = 128,  // CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_SIZE 32 MiB, two preallocated
  HW_TRACE = 256,    // cuptiActivityEnableHWTrace(1)
  MARKS = 512,       // a non-timing event recorded after every op
  STAMPS = 1024,     // CUPTI_ACTIVITY_KIND_CUDA_EVENT (+ SYNCHRONIZATION, which it needs) with
                     // device timestamps: when each recorded event fired on the device
};
static const int CUPTI_KINDS = MEMCPY | KERNEL | TAGS | STAMPS;

template <typename T> static void set_attr(CUpti_ActivityAttribute a, T v) {
  size_t size = sizeof(T);
  cuptiActivitySetAttribute(a, &size, &v);
}

static void cupti_on(int k) {
  CP(cuptiActivityRegisterCallbacks(requested, completed));
  if (k & HOST_PINNED) set_attr<uint8_t>(CUPTI_ACTIVITY_ATTR_MEM_ALLOCATION_TYPE_HOST_PINNED, 1);
  if (k & DEVICE_MEM) set_attr<uint8_t>(CUPTI_ACTIVITY_ATTR_MEM_ALLOCATION_TYPE_HOST_PINNED, 0);
  if (k & BIG_BUFFER) {
    set_attr<size_t>(CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_SIZE, 32 << 20);
    set_attr<size_t>(CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_PRE_ALLOCATE_VALUE, 2);
  }
  if (k & HW_TRACE) cuptiActivityEnableHWTrace(1);
  if (k & STAMPS) {
    CP(cuptiActivityEnableCudaEventDeviceTimestamps(1));
    CP(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CUDA_EVENT));
    CP(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_SYNCHRONIZATION));
  }
  if (k & MEMCPY) CP(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY));
  if (k & KERNEL) CP(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
  if (k & TAGS) CP(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION));
}

static void cupti_off(int k) {
  cuptiActivityFlushAll(1);
  if (k & MEMCPY) cuptiActivityDisable(CUPTI_ACTIVITY_KIND_MEMCPY);
  if (k & KERNEL) cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  if (k & TAGS) cuptiActivityDisable(CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION);
  if (k & HW_TRACE) cuptiActivityEnableHWTrace(0);
  if (k & STAMPS) {
    cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CUDA_EVENT);
    cuptiActivityDisable(CUPTI_ACTIVITY_KIND_SYNCHRONIZATION);
    cuptiActivityEnableCudaEventDeviceTimestamps(0);
  }
  cuptiFinalize();
}

static int active = 0;
static uint64_t next_tag = 0;
static std::vector<cudaEvent_t> timing_events;
static size_t next_event = 0;
static void before(cudaStream_t s) {
  if (active & EVENTS) cudaEventRecord(timing_events[next_event++], s);
  if (active & TAGS) cuptiActivityPushExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, ++next_tag);
}
static cudaEvent_t mark;
static void after(cudaStream_t s) {
  uint64_t last;
  if (active & TAGS) cuptiActivityPopExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, &last);
  if (active & EVENTS) cudaEventRecord(timing_events[next_event++], s);
  if (active & MARKS) cudaEventRecord(mark, s);
}

static cudaStream_t streams[3];
static cudaEvent_t uploaded, computed;
static double now_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

static void upload(char* d, size_t off, size_t n, cudaStream_t s) {
  before(s); cudaMemcpyAsync(d, (char*)h_in + off, n, cudaMemcpyHostToDevice, s); after(s);
}
static void compute(char* d, size_t n, cudaStream_t s) {
  before(s); transform<<<1024, 256, 0, s>>>((float*)d, n / 4); after(s);
}
static void download(char* d, size_t off, size_t n, cudaStream_t s) {
  before(s); cudaMemcpyAsync((char*)h_out + off, d, n, cudaMemcpyDeviceToHost, s); after(s);
}

// by_stage: every upload on stream 0, kernels on stream 1 after an event on the upload, every
// download on stream 2 after an event on the kernel (cuda-academy's --order by-stage).
// Otherwise chunk i's upload, kernel and download on stream i % 3 (--order per-chunk).
static double run(bool by_stage, int chunks) {
  size_t c = BYTES / chunks;
  next_event = 0;
  CK(cudaDeviceSynchronize());
  double t0 = now_ms();
  for (int i = 0; i < chunks; i++) {
    char* d = (char*)d_buf + i * c;
    if (by_stage) {
      upload(d, i * c, c, streams[0]);
      cudaEventRecord(uploaded, streams[0]); cudaStreamWaitEvent(streams[1], uploaded, 0);
      compute(d, c, streams[1]);
      cudaEventRecord(computed, streams[1]); cudaStreamWaitEvent(streams[2], computed, 0);
      download(d, i * c, c, streams[2]);
    } else {
      cudaStream_t s = streams[i % 3];
      upload(d, i * c, c, s); compute(d, c, s); download(d, i * c, c, s);
    }
  }
  CK(cudaDeviceSynchronize());
  return now_ms() - t0;
}

static double recorded(bool by_stage, int chunks, int k) {
  if (k & (CUPTI_KINDS | ATTACH_ONLY)) cupti_on(k);
  if (k & CUPTI_KINDS) {  // CUPTI sets itself up on the first ops after enabling
    cudaMemcpyAsync(d_buf, h_in, 4096, cudaMemcpyHostToDevice, streams[0]);
    transform<<<1, 256, 0, streams[0]>>>(d_buf, 1024);
    cudaMemcpyAsync(h_out, d_buf, 4096, cudaMemcpyDeviceToHost, streams[0]);
    CK(cudaDeviceSynchronize());
    cuptiActivityFlushAll(1);
  }
  active = k;
  double ms = run(by_stage, chunks);
  active = 0;
  if (k & (CUPTI_KINDS | ATTACH_ONLY)) cupti_off(k);
  return ms;
}

struct Variant { const char* name; int k; };
struct Layout { const char* name; bool by_stage; int chunks; };

int main(int argc, char** argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 21;
  CK(cudaMallocHost(&h_in, BYTES)); CK(cudaMallocHost(&h_out, BYTES)); CK(cudaMalloc(&d_buf, BYTES));
  memset(h_in, 1, BYTES);
  for (auto& s : streams) CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CK(cudaEventCreateWithFlags(&uploaded, cudaEventDisableTiming));
  CK(cudaEventCreateWithFlags(&computed, cudaEventDisableTiming));
  CK(cudaEventCreateWithFlags(&mark, cudaEventDisableTiming));
  timing_events.resize(64 * 6);
  for (auto& e : timing_events) CK(cudaEventCreate(&e));
  const Variant variants[] = {
      {"none", 0},
      {"memcpy", MEMCPY},
      {"kernel", KERNEL},
      {"memcpy+kernel", MEMCPY | KERNEL},
      {"as cuda-academy", MEMCPY | KERNEL | TAGS},
      {"tags only", TAGS},
      {"attached, idle", ATTACH_ONLY},
      {"memcpy, host-pinned buf", MEMCPY | HOST_PINNED},
      {"memcpy, device buf", MEMCPY | DEVICE_MEM},
      {"memcpy, 32 MiB buf", MEMCPY | BIG_BUFFER},
      {"memcpy, hw trace", MEMCPY | HW_TRACE},
      {"events", EVENTS},
      {"marks", MARKS},
      {"marks, stamped", MARKS | STAMPS},
      {"marks, stamped, kernel", MARKS | STAMPS | KERNEL},
  };
  const Layout layouts[] = {
      {"by-stage 32", true, 32}, {"by-stage 16", true, 16}, {"by-stage 64", true, 64}, {"per-chunk 3 x 32", false, 32}};
  const int NV = sizeof(variants) / sizeof(variants[0]), NL = sizeof(layouts) / sizeof(layouts[0]);
  std::vector<double> ms[NL][NV];
  for (int r = -2; r < reps; r++)  // two warm-up rounds, not kept
    for (int l = 0; l < NL; l++)
      for (int v = 0; v < NV; v++) {
        double t = recorded(layouts[l].by_stage, layouts[l].chunks, variants[v].k);
        if (r >= 0) ms[l][v].push_back(t);
      }
  printf("host wall ms, median of %d interleaved repetitions (p10-p90); overhead against 'none'\n", reps);
  for (int l = 0; l < NL; l++) {
    printf("%s\n", layouts[l].name);
    std::sort(ms[l][0].begin(), ms[l][0].end());
    double base = ms[l][0][reps / 2];
    for (int v = 0; v < NV; v++) {
      auto y = ms[l][v];
      std::sort(y.begin(), y.end());
      double m = y[reps / 2];
      printf("  %-24s %.3f  %+6.2f%%  (%.3f-%.3f)\n", variants[v].name, m, (m / base - 1) * 100, y[reps / 10], y[reps * 9 / 10]);
    }
  }
  printf("activity records delivered: %ld (CUDA event records with a device timestamp: %ld)\n", records, event_records);
  return 0;
}
