// Where does recording cost time? By-stage 32 chunks and round-robin 3x32 at 256 MiB, timed on the
// host wall clock (issue start to sync end, like cuda-academy), with CUPTI variants interleaved.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <algorithm>
#include <chrono>
#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti.h>
#define CK(x) do{cudaError_t e=(x); if(e){printf("err %s line %d\n",cudaGetErrorString(e),__LINE__); exit(1);} }while(0)
#define CP(x) do{CUptiResult e=(x); if(e!=CUPTI_SUCCESS){const char*s;cuptiGetResultString(e,&s);printf("cupti %s line %d\n",s,__LINE__); exit(1);} }while(0)
__global__ void xf(float* p, size_t n){ size_t i=blockIdx.x*(size_t)blockDim.x+threadIdx.x; size_t s=(size_t)gridDim.x*blockDim.x; for(;i<n;i+=s) p[i]=p[i]*2.0f+1.0f; }
static size_t B = 256ull<<20;
float *hin,*hout,*dbuf;
static long nrec=0; static double d2hgap_sum=0;
static void CUPTIAPI req(uint8_t** b, size_t* s, size_t* m){ *b=(uint8_t*)aligned_alloc(8,1<<20); *s=1<<20; *m=0; }
static void CUPTIAPI done(CUcontext c, uint32_t sid, uint8_t* b, size_t s, size_t v){ CUpti_Activity* r=NULL; while(cuptiActivityGetNextRecord(b,v,&r)==CUPTI_SUCCESS) nrec++; free(b); }
enum { K_MEMCPY=1, K_KERNEL=2, K_TAGS=4, K_EVENTS=8, K_PERSIST=16 };
static bool attached=false;
static void cupti_start(int k){
  if(k==K_PERSIST){ CP(cuptiActivityRegisterCallbacks(req,done)); attached=true; return; }
  if(!attached){ CP(cuptiActivityRegisterCallbacks(req,done)); attached=true; }
  if(k&K_MEMCPY) CP(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY));
  if(k&K_KERNEL) CP(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
  if(k&K_TAGS) CP(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION));
}
static void cupti_stop(int k){
  cuptiActivityFlushAll(1);
  if(k&K_MEMCPY) cuptiActivityDisable(CUPTI_ACTIVITY_KIND_MEMCPY);
  if(k&K_KERNEL) cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  if(k&K_TAGS) cuptiActivityDisable(CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION);
  if(!(k&K_PERSIST)){ cuptiFinalize(); attached=false; }
}
static int K=0; static uint64_t tagn=0;
static inline void pre(){ if(K&K_TAGS) cuptiActivityPushExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, ++tagn); }
static inline void post(){ uint64_t x; if(K&K_TAGS) cuptiActivityPopExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, &x); }
static std::vector<cudaEvent_t> tev; static size_t tevi=0;
static inline void evb(cudaStream_t s){ if(K&K_EVENTS) cudaEventRecord(tev[tevi++],s); }
void launch(float* p,size_t bytes,cudaStream_t s){ size_t n=bytes/4; xf<<<1024,256,0,s>>>(p,n); }
static cudaStream_t st[3]; static cudaEvent_t e1,e2;
double now(){ return std::chrono::duration<double,std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
// layout: 0 rr 3 x n, 1 by-stage n
double run(int layout,int n){
  size_t c=B/n; tevi=0; CK(cudaDeviceSynchronize());
  double t0=now();
  for(int i=0;i<n;i++){ char* d=(char*)dbuf+i*c;
    if(layout==0){ cudaStream_t s=st[i%3];
      evb(s); pre(); cudaMemcpyAsync(d,(char*)hin+i*c,c,cudaMemcpyHostToDevice,s); post(); evb(s);
      pre(); launch((float*)d,c,s); post(); evb(s);
      pre(); cudaMemcpyAsync((char*)hout+i*c,d,c,cudaMemcpyDeviceToHost,s); post(); evb(s);
    } else {
      evb(st[0]); pre(); cudaMemcpyAsync(d,(char*)hin+i*c,c,cudaMemcpyHostToDevice,st[0]); post(); evb(st[0]);
      cudaEventRecord(e1,st[0]); cudaStreamWaitEvent(st[1],e1,0);
      pre(); launch((float*)d,c,st[1]); post(); evb(st[1]);
      cudaEventRecord(e2,st[1]); cudaStreamWaitEvent(st[2],e2,0);
      evb(st[2]); pre(); cudaMemcpyAsync((char*)hout+i*c,d,c,cudaMemcpyDeviceToHost,st[2]); post(); evb(st[2]);
    }
  }
  CK(cudaDeviceSynchronize());
  return now()-t0;
}
double instrumented(int layout,int n,int k){
  if(k==K_PERSIST) cupti_start(k);
  if(k&(K_MEMCPY|K_KERNEL|K_TAGS)){ cupti_start(k);
    // warm-up ops after enabling (CUPTI sets up lazily), like cuda-academy's recorder
    cudaMemcpyAsync(dbuf,hin,4096,cudaMemcpyHostToDevice,st[0]); launch(dbuf,4096,st[0]); cudaMemcpyAsync(hout,dbuf,4096,cudaMemcpyDeviceToHost,st[0]);
    CK(cudaDeviceSynchronize()); cuptiActivityFlushAll(1); }
  K=k; double ms=run(layout,n); K=0;
  if(k&(K_MEMCPY|K_KERNEL|K_TAGS)) cupti_stop(k);
  if(k==K_PERSIST){ cuptiFinalize(); attached=false; }
  return ms;
}
double med(std::vector<double> v){ std::sort(v.begin(),v.end()); return v[v.size()/2]; }
struct V{const char* name; int k;};
int main(int argc,char**argv){ int R=argc>1?atoi(argv[1]):21;
  CK(cudaMallocHost(&hin,B)); CK(cudaMallocHost(&hout,B)); CK(cudaMalloc(&dbuf,B)); memset(hin,1,B);
  for(auto&s:st) CK(cudaStreamCreateWithFlags(&s,cudaStreamNonBlocking));
  cudaEventCreateWithFlags(&e1,cudaEventDisableTiming); cudaEventCreateWithFlags(&e2,cudaEventDisableTiming);
  tev.resize(64*8); for(auto&e:tev) cudaEventCreate(&e);
  V vs[]={{"none",0},{"memcpy",K_MEMCPY},{"kernel",K_KERNEL},{"memcpy+kernel",K_MEMCPY|K_KERNEL},{"m+k+tags",K_MEMCPY|K_KERNEL|K_TAGS},{"tags-only",K_TAGS},{"events",K_EVENTS},{"attached-idle",K_PERSIST}};
  const int NV=sizeof(vs)/sizeof(vs[0]);
  struct L{const char* name;int layout;int n;}; L ls[]={{"by-stage 32",1,32},{"rr 3x32",0,32},{"by-stage 16",1,16},{"by-stage 64",1,64}};
  const int NL=4;
  std::vector<double> x[NL][NV];
  for(int r=0;r<3;r++) for(int l=0;l<NL;l++) for(int v=0;v<NV;v++) instrumented(ls[l].layout,ls[l].n,vs[v].k);
  if(attached){cuptiFinalize(); attached=false;}
  for(int r=0;r<R;r++) for(int l=0;l<NL;l++) for(int v=0;v<NV;v++){
    // the persist variant leaves CUPTI attached: finalize before the next variant
    x[l][v].push_back(instrumented(ls[l].layout,ls[l].n,vs[v].k));
    if(attached){cuptiFinalize(); attached=false;}
  }
  for(int l=0;l<NL;l++){ double base=med(x[l][0]); printf("%s\n",ls[l].name);
    for(int v=0;v<NV;v++){ auto y=x[l][v]; std::sort(y.begin(),y.end()); double m=y[R/2];
      printf("  %-14s median %.3f ms  (%+.2f%%)  p10 %.3f p90 %.3f\n",vs[v].name,m,(m/base-1)*100,y[R/10],y[R*9/10]); } }
  printf("records %ld\n",nrec); return 0; }
