/*
 * tool/kernel_cycles.c: gcm-kernel-cycles, what a fused kernel costs when a
 * stream calls it once per chunk, without the API around it (not a test,
 * not installed).
 *
 *   gcm-kernel-cycles [--aes A] [--ghash G] [--fused F] [--key-bits 128|256]
 *                     [--size S] [--chunk N] [--rounds R]
 *   gcm-kernel-cycles --oneshot SIZE,... [--aes A] [--ghash G] [--fused F]
 *                     [--key-bits 128|256] [--rounds R]
 *
 * A stream of N-byte updates can be no faster than its kernel in N-byte
 * calls. This tool seals S bytes with the key's fused kernel (the one
 * gcm_key_init_with_fused attaches for the arguments, as in gcm-cycles)
 * called directly, three ways, interleaved round by round:
 *   - one call over all S / 16 blocks (what a one-shot message costs);
 *   - S / N calls of N / 16 blocks to `seal`;
 *   - the same to `seal_lagged`, the hash of each call's last group left
 *     for the next call, as a stream does (when the kernel has it and N is
 *     a whole number of its groups).
 * It prints the median ticks of each and their speed as a share of the one
 * call. With gcm-cycles' share for the same chunk through the streaming
 * API, the difference is what the API and the mode engine add per update.
 * N must be a positive multiple of 16 that divides S.
 *
 * With --oneshot it times instead the one-shot hooks (fused.h's
 * seal_oneshot and open_oneshot: a whole message of SIZE bytes with one
 * block of AAD in one call) for each SIZE of the list (16..65536), the two
 * interleaved round by round, and prints the median ticks of a call. That is the kernel alone:
 * on some cores the time of a short message through the API moves with
 * where the linker puts the C code around it (docs/performance.md), which
 * this takes out of a comparison of two kernels' builds. A kernel without
 * the hooks is refused.
 *
 * The kernels are internal: this tool reads the key through the mode
 * engine's header (crypto/gcm/mode.h), as the tests do.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../crypto/gcm/mode.h"
#include "../crypto/gcm/placement.h"
#include "gcm/gcm.h"
#include "ticks.h"

/* --oneshot: the median ticks of seal_oneshot and open_oneshot on each
 * size of the list, 16 calls a sample. */
static int time_oneshot(const struct fused_impl *f,
                        const struct fused_keys *fk, const char *list,
                        size_t rounds) {
  if (f->seal_oneshot == NULL || f->open_oneshot == NULL) {
    fprintf(stderr, "gcm-kernel-cycles: fused %s has no one-shot hooks\n",
            f->name);
    return 1;
  }
  enum { PER_SAMPLE = 16, MAX = 65536, MAX_SIZES = 64 };
  size_t sizes[MAX_SIZES], n = 0;
  for (const char *p = list; *p != '\0' || n == 0;) {
    char *end;
    const size_t len = strtoul(p, &end, 10);
    if (end == p || len < 16 || len > MAX || n == MAX_SIZES ||
        (*end != ',' && *end != '\0')) {
      fprintf(stderr, "gcm-kernel-cycles: bad --oneshot size list (up to "
                      "%d sizes of 16..65536, comma separated)\n", MAX_SIZES);
      return 2;
    }
    sizes[n++] = len;
    p = *end == ',' ? end + 1 : end;
  }
  uint8_t *buf = calloc(MAX, 1);
  uint64_t *t = calloc(2 * rounds, sizeof(uint64_t));
  if (buf == NULL || t == NULL) return 1;
  printf("  %8s %12s %12s\n", "size", "seal_oneshot", "open_oneshot");
  for (size_t j = 0; j < n; j++) {
    const size_t len = sizes[j];
    /* The fields as oneshot.c fills them for a message of len bytes; the
     * values do not change the kernel's time. */
    struct fused_oneshot seal, open;
    memset(&seal, 0, sizeof(seal));
    seal.end = len % 16 != 0 ? 2 : 1;
    memset(seal.hmask, 0xff, len % 16);
    memset(seal.aad, 0x5a, sizeof(seal.aad));
    open = seal;
    memset(open.hmask, 0, sizeof(open.hmask));
    const uint8_t ctr[16] = {0};
    for (size_t r = 0; r < rounds + 1; r++) { /* round 0 warms up */
      uint64_t t0 = ticks();
      for (int i = 0; i < PER_SAMPLE; i++)
        f->seal_oneshot(fk, buf, buf, len / 16, ctr, &seal);
      uint64_t t1 = ticks();
      for (int i = 0; i < PER_SAMPLE; i++)
        f->open_oneshot(fk, buf, buf, len / 16, ctr, &open);
      uint64_t t2 = ticks();
      if (r == 0) continue;
      t[r - 1] = t1 - t0;
      t[rounds + r - 1] = t2 - t1;
    }
    printf("  %8zu %12.1f %12.1f\n", len,
           (double)ticks_median(t, rounds) / PER_SAMPLE,
           (double)ticks_median(t + rounds, rounds) / PER_SAMPLE);
  }
  free(buf);
  free(t);
  return 0;
}

int main(int argc, char **argv) {
  const char *aes = NULL, *ghash = NULL, *fused = NULL, *oneshot = NULL;
  size_t key_bits = 128, size = 16384, chunk = 256, rounds = 1001;
  for (int i = 1; i < argc; i += 2) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (v == NULL) {
      fprintf(stderr, "gcm-kernel-cycles: %s needs a value\n", a);
      return 2;
    }
    if (strcmp(a, "--aes") == 0) aes = v;
    else if (strcmp(a, "--ghash") == 0) ghash = v;
    else if (strcmp(a, "--fused") == 0) fused = v;
    else if (strcmp(a, "--key-bits") == 0) key_bits = strtoul(v, NULL, 10);
    else if (strcmp(a, "--size") == 0) size = strtoul(v, NULL, 10);
    else if (strcmp(a, "--chunk") == 0) chunk = strtoul(v, NULL, 10);
    else if (strcmp(a, "--rounds") == 0) rounds = strtoul(v, NULL, 10);
    else if (strcmp(a, "--oneshot") == 0) oneshot = v;
    else {
      fprintf(stderr, "gcm-kernel-cycles: unknown option %s\n", a);
      return 2;
    }
  }
  if ((key_bits != 128 && key_bits != 256) || size == 0 || rounds == 0 ||
      chunk == 0 || chunk % 16 != 0 || size % chunk != 0 ||
      size > (1u << 24)) {
    fprintf(stderr, "gcm-kernel-cycles: bad --key-bits, --size, --chunk or "
                    "--rounds (the chunk a positive multiple of 16 that "
                    "divides the size, the size at most 16 MiB)\n");
    return 2;
  }

  static const uint8_t key_bytes[32] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  gcm_key key;
  if (!gcm_key_init_with_fused(&key, key_bytes, key_bits / 8, aes, ghash,
                               fused)) {
    fprintf(stderr, "gcm-kernel-cycles: %s\n", gcm_last_error_message());
    return 1;
  }
  const struct gcm_key_st *k = gcm_key_placed(&key);
  const struct fused_impl *f = k->fused;
  if (f == NULL) {
    fprintf(stderr, "gcm-kernel-cycles: the key has no fused kernel\n");
    return 1;
  }
  const struct fused_keys fk = gcm_key_fused_keys(k);
  ticks_spin_up();
  if (oneshot != NULL) {
    printf("fused %s (%s/%s), AES-%zu, one-shot messages, %s per call\n",
           f->name, k->aes->name, k->ghash->name, key_bits, TICKS_NAME);
    const int status = time_oneshot(f, &fk, oneshot, rounds);
    gcm_key_cleanup(&key);
    return status;
  }
  const size_t blocks = size / 16, per_call = chunk / 16;
  const int lagged = f->seal_lagged != NULL && per_call % f->lag_blocks == 0;
  printf("fused %s (%s/%s), AES-%zu, %zu bytes in %zu-byte calls, %s\n",
         f->name, k->aes->name, k->ghash->name, key_bits, size, chunk,
         TICKS_NAME);

  uint8_t *buf = calloc(size, 1);
  uint8_t pending[16 * FUSED_LAG_MAX_BLOCKS];
  uint64_t *t = calloc(3 * rounds, sizeof(uint64_t));
  if (buf == NULL || t == NULL) return 1;
  uint8_t ctr[16] = {0}, Xi[16] = {0};
  for (size_t r = 0; r < rounds + 1; r++) { /* round 0 warms up */
    uint64_t t0 = ticks();
    f->seal(&fk, buf, buf, blocks, ctr, Xi);
    uint64_t t1 = ticks();
    for (size_t off = 0; off < size; off += chunk)
      f->seal(&fk, buf + off, buf + off, per_call, ctr, Xi);
    uint64_t t2 = ticks();
    if (lagged) {
      for (size_t off = 0; off < size; off += chunk) {
        const struct fused_lag lag = {Xi, pending, off != 0};
        f->seal_lagged(&fk, buf + off, buf + off, per_call, ctr, &lag);
      }
    }
    uint64_t t3 = ticks();
    if (r == 0) continue;
    t[r - 1] = t1 - t0;
    t[rounds + r - 1] = t2 - t1;
    t[2 * rounds + r - 1] = t3 - t2;
  }
  const uint64_t one = ticks_median(t, rounds);
  const uint64_t split = ticks_median(t + rounds, rounds);
  printf("  %-22s %12s %8s\n", "calls", "ticks", "vs one");
  printf("  %-22s %12llu %7.1f%%\n", "one call", (unsigned long long)one,
         100.0);
  printf("  %-22s %12llu %7.1f%%\n", "seal per chunk",
         (unsigned long long)split, 100.0 * (double)one / (double)split);
  if (lagged) {
    const uint64_t lag = ticks_median(t + 2 * rounds, rounds);
    printf("  %-22s %12llu %7.1f%%\n", "seal_lagged per chunk",
           (unsigned long long)lag, 100.0 * (double)one / (double)lag);
  } else {
    printf("  seal_lagged per chunk: none (no lagged seal, or the chunk is "
           "not whole groups of %u blocks)\n", f->lag_blocks);
  }
  free(buf);
  free(t);
  gcm_key_cleanup(&key);
  return 0;
}
