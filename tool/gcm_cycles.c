/*
 * tool/gcm_cycles.c: gcm-cycles, cycle counts of the mode engine for people
 * tuning it (not a test, not installed).
 *
 * gcm-speed reports MB/s from the wall clock, which on a shared machine
 * mixes in every other process. This tool counts time-stamp-counter ticks
 * (rdtsc on x86; nanoseconds elsewhere) around single operations and
 * reports medians, and it interleaves the configurations it compares (one
 * operation of each in turn, round after round), so all of them see the
 * same machine load and the ratios between them are meaningful.
 *
 *   gcm-cycles [--aes A] [--ghash G] [--fused F] [--key-bits 128|256]
 *              [--size S] [--chunks N,N,...] [--rounds R] [--open]
 *              [--short-calls C] [--batch B]
 *
 * The compat context takes the default backends, so choose them for both
 * halves with LIBGCM_AES, LIBGCM_GHASH and LIBGCM_FUSED (or OPENSSL_ia32cap)
 * rather than --aes and --ghash when the compat figure matters.
 *
 * Output:
 *   - ticks per 16-byte seal (or open) through gcm_seal and through the
 *     BoringSSL-compatible EVP_AEAD_CTX_seal, 13 bytes of AAD: C calls in
 *     batches of 1000, median batch divided by 1000;
 *   - for an S-byte message (13 bytes of AAD) sealed one-shot and through
 *     the streaming API in N-byte updates for every N listed: median ticks
 *     per message, ticks per byte, and throughput relative to one-shot.
 *     Each round times B messages of each configuration back to back
 *     (--batch, default 1) and counts their mean: with B = 1 every message
 *     follows one of another configuration, whose code and branch history
 *     it inherits; a larger B measures a steady stream of one kind, as an
 *     application that streams one chunk size sees it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gcm/gcm.h"
#include "openssl/aead.h"

#include "ticks.h"

#define MAX_CHUNKS 32

static void die(const char *what) {
  fprintf(stderr, "gcm-cycles: %s: %s\n", what, gcm_last_error_message());
  exit(1);
}

/* One whole message through the streaming API in `chunk`-byte updates
 * (chunk 0: gcm_seal / gcm_open). */
static void one_message(const gcm_key *k, int open, size_t chunk,
                        uint8_t *buf, size_t size, const uint8_t *nonce,
                        const uint8_t *aad, uint8_t tag[16]) {
  if (chunk == 0) {
    if (!open) {
      if (!gcm_seal(k, buf, tag, 16, nonce, 12, buf, size, aad, 13))
        die("gcm_seal");
    } else {
      /* The tag is wrong (the buffer keeps changing); the work is done
       * all the same, and the failure wipes out. */
      gcm_open(k, buf, nonce, 12, buf, size, tag, 16, aad, 13);
    }
    return;
  }
  gcm_stream s;
  if (!gcm_stream_init(&s, k, open ? GCM_DECRYPT : GCM_ENCRYPT, nonce, 12) ||
      !gcm_stream_aad(&s, aad, 13))
    die("gcm_stream_init");
  for (size_t off = 0; off < size; off += chunk) {
    size_t n = size - off < chunk ? size - off : chunk;
    if (!gcm_stream_update(&s, buf + off, buf + off, n))
      die("gcm_stream_update");
  }
  if (!open) {
    if (!gcm_stream_finish_seal(&s, tag, 16)) die("finish");
  } else {
    gcm_stream_finish_open(&s, tag, 16);
  }
}

static void parse_list(const char *s, size_t *v, size_t *n) {
  *n = 0;
  while (*s && *n < MAX_CHUNKS) {
    char *end;
    v[(*n)++] = strtoul(s, &end, 10);
    s = *end == ',' ? end + 1 : end;
    if (end == s && *s) break;
  }
}

int main(int argc, char **argv) {
  const char *aes = NULL, *ghash = NULL, *fused = NULL;
  size_t key_bits = 128, size = 16384, rounds = 301, short_calls = 1000000;
  size_t batch = 1;
  size_t chunks[MAX_CHUNKS] = {1, 13, 15, 16, 17, 31, 32, 63, 64, 255, 256,
                               1024};
  size_t nchunks = 12;
  int open = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "--open") == 0) {
      open = 1;
      continue;
    }
    if (v == NULL) {
      fprintf(stderr, "gcm-cycles: %s needs a value\n", a);
      return 2;
    }
    i++;
    if (strcmp(a, "--aes") == 0) aes = v;
    else if (strcmp(a, "--ghash") == 0) ghash = v;
    else if (strcmp(a, "--fused") == 0) fused = v;
    else if (strcmp(a, "--key-bits") == 0) key_bits = strtoul(v, NULL, 10);
    else if (strcmp(a, "--size") == 0) size = strtoul(v, NULL, 10);
    else if (strcmp(a, "--rounds") == 0) rounds = strtoul(v, NULL, 10);
    else if (strcmp(a, "--short-calls") == 0)
      short_calls = strtoul(v, NULL, 10);
    else if (strcmp(a, "--chunks") == 0) parse_list(v, chunks, &nchunks);
    else if (strcmp(a, "--batch") == 0) batch = strtoul(v, NULL, 10);
    else {
      fprintf(stderr, "gcm-cycles: unknown option %s\n", a);
      return 2;
    }
  }
  if ((key_bits != 128 && key_bits != 256) || size == 0 || rounds == 0 ||
      batch == 0) {
    fprintf(stderr,
            "gcm-cycles: bad --key-bits, --size, --rounds or --batch\n");
    return 2;
  }

  static const uint8_t key_bytes[32] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  const uint8_t nonce[12] = {7};
  const uint8_t aad[13] = {9};
  uint8_t tag[16] = {0};
  gcm_key k;
  if (!gcm_key_init_with_fused(&k, key_bytes, key_bits / 8, aes, ghash, fused))
    die("gcm_key_init_with_fused");
  printf("backends %s/%s fused %s, AES-%zu, %s, %s\n", gcm_key_aes_backend(&k),
         gcm_key_ghash_backend(&k), gcm_key_fused_backend(&k), key_bits,
         open ? "open" : "seal", TICKS_NAME);
  ticks_spin_up();

  /* 16-byte messages, native and compat. */
  if (short_calls >= 1000) {
    EVP_AEAD_CTX ctx;
    if (!EVP_AEAD_CTX_init(&ctx,
                           key_bits == 128 ? EVP_aead_aes_128_gcm()
                                           : EVP_aead_aes_256_gcm(),
                           key_bytes, key_bits / 8, 16, NULL))
      die("EVP_AEAD_CTX_init");
    size_t batches = short_calls / 1000;
    uint64_t *nat = calloc(batches, sizeof(uint64_t));
    uint64_t *com = calloc(batches, sizeof(uint64_t));
    uint8_t msg[16 + 16] = {0}, out[16 + 16];
    size_t out_len;
    /* Prime the copy of the compat path's sealed message for open. */
    EVP_AEAD_CTX_seal(&ctx, out, &out_len, sizeof(out), nonce, 12, msg, 16,
                      aad, 13);
    for (size_t b = 0; b < batches; b++) {
      uint64_t t0 = ticks();
      for (int i = 0; i < 1000; i++) {
        if (!open) {
          gcm_seal(&k, msg, tag, 16, nonce, 12, msg, 16, aad, 13);
        } else {
          gcm_open(&k, msg, nonce, 12, out, 16, out + 16, 16, aad, 13);
        }
      }
      uint64_t t1 = ticks();
      for (int i = 0; i < 1000; i++) {
        if (!open) {
          EVP_AEAD_CTX_seal(&ctx, out, &out_len, sizeof(out), nonce, 12, msg,
                            16, aad, 13);
        } else {
          EVP_AEAD_CTX_open(&ctx, msg, &out_len, 16, nonce, 12, out, 32, aad,
                            13);
        }
      }
      uint64_t t2 = ticks();
      nat[b] = t1 - t0;
      com[b] = t2 - t1;
    }
    printf("16-byte %s: native %.1f, compat %.1f ticks per call (median of "
           "%zu batches of 1000)\n",
           open ? "open" : "seal", ticks_median(nat, batches) / 1000.0,
           ticks_median(com, batches) / 1000.0, batches);
    free(nat);
    free(com);
    EVP_AEAD_CTX_cleanup(&ctx);
  }

  /* Streaming against one-shot, interleaved. */
  if (nchunks > 0) {
    size_t nconf = nchunks + 1; /* configuration 0: one-shot */
    uint8_t *buf = calloc(size, 1);
    uint64_t *t = calloc(nconf * rounds, sizeof(uint64_t));
    for (size_t c = 0; c < nconf; c++) /* warm-up */
      one_message(&k, open, c == 0 ? 0 : chunks[c - 1], buf, size, nonce, aad,
                  tag);
    for (size_t r = 0; r < rounds; r++) {
      for (size_t c = 0; c < nconf; c++) {
        uint64_t t0 = ticks();
        for (size_t b = 0; b < batch; b++)
          one_message(&k, open, c == 0 ? 0 : chunks[c - 1], buf, size, nonce,
                      aad, tag);
        t[c * rounds + r] = (ticks() - t0) / batch;
      }
    }
    uint64_t base = ticks_median(t, rounds);
    printf("%zu-byte message, median of %zu rounds of %zu message%s each:\n",
           size, rounds, batch, batch == 1 ? "" : "s");
    printf("  %-9s %12s %10s %8s\n", "chunk", "per message", "per byte",
           "vs one-shot");
    for (size_t c = 0; c < nconf; c++) {
      uint64_t m = c == 0 ? base : ticks_median(t + c * rounds, rounds);
      char name[32];
      if (c == 0) snprintf(name, sizeof(name), "one-shot");
      else snprintf(name, sizeof(name), "%zu", chunks[c - 1]);
      printf("  %-9s %12llu %10.2f %7.1f%%\n", name, (unsigned long long)m,
             (double)m / (double)size, 100.0 * (double)base / (double)m);
    }
    free(buf);
    free(t);
  }
  gcm_key_cleanup(&k);
  return 0;
}
