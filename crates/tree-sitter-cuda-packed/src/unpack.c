/* Unpacks tree-sitter-cuda's parse tables (the format is in build/lz.rs), once per process,
 * the first time the language is asked for. Compiled apart from the generated parser.c, whose
 * `#pragma GCC optimize ("O0")` would make this loop slow. */
#include <stddef.h>
#include <stdint.h>

/* A stream of u16: a header below 0x8000 is a run of that many literal values; a header with
 * the top bit set copies (header & 0x7fff) values from `distance` values back: the next u16
 * holds the distance's low 15 bits and, when its top bit is set, one more u16 holds the rest.
 * Writes never go past dst_len. */
void tree_sitter_cuda_packed_unpack(uint16_t *dst, size_t dst_len, const uint16_t *src,
                                    size_t src_len) {
  size_t out = 0, in = 0;
  while (in < src_len) {
    uint16_t head = src[in++];
    if (head & 0x8000u) {
      if (in >= src_len) return;
      size_t count = head & 0x7fffu;
      size_t distance = src[in] & 0x7fffu;
      if (src[in++] & 0x8000u) {
        if (in >= src_len) return;
        distance |= (size_t)src[in++] << 15;
      }
      if (distance == 0 || distance > out) return;
      for (size_t k = 0; k < count && out < dst_len; k++, out++) dst[out] = dst[out - distance];
    } else {
      for (size_t k = 0; k < head && out < dst_len && in < src_len; k++) dst[out++] = src[in++];
    }
  }
}

#if defined(_WIN32)
#include <windows.h>
static INIT_ONCE once = INIT_ONCE_STATIC_INIT;
static BOOL CALLBACK run_init(PINIT_ONCE o, PVOID init, PVOID *context) {
  (void)o;
  (void)context;
  ((void (*)(void))init)();
  return TRUE;
}
void tree_sitter_cuda_packed_once(void (*init)(void)) {
  InitOnceExecuteOnce(&once, run_init, (PVOID)init, NULL);
}
#else
#include <pthread.h>
static pthread_once_t once = PTHREAD_ONCE_INIT;
/* Threads that ask for the language together wait until the table is whole. */
void tree_sitter_cuda_packed_once(void (*init)(void)) { pthread_once(&once, init); }
#endif
