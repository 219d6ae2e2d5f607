/*
 * test/no_alloc.c: seal, open, streaming, key set-up and the whole
 * BoringSSL-compatible layer never touch the heap.
 *
 * libgcm promises that no function allocates memory, except
 * EVP_AEAD_CTX_new (and EVP_AEAD_CTX_free releasing it). This program
 * replaces the allocator for itself and the statically linked libgcm:
 * malloc, calloc, realloc, free, aligned_alloc, posix_memalign, memalign
 * and valloc are defined here, count their calls while a window is open,
 * and forward to the next definition (the C library's, or a sanitizer's)
 * found with dlsym(RTLD_NEXT). Checks, in this order:
 *
 *   1. the counter works: this program's own malloc/calloc/realloc/
 *      aligned_alloc/posix_memalign/free calls are counted (so the test can
 *      fail);
 *   2. libgcm's very first call in the process (CPU detection, reading the
 *      environment, the dispatcher's choice, the key schedule) and a seal
 *      allocate nothing;
 *   3. for every backend pair this CPU runs, with the two passes and with
 *      every fused kernel that fits it: key set-up, gcm_seal, gcm_open
 *      (right and wrong tag), the streaming calls, failures whose error
 *      message is formatted, cleanup: no allocation;
 *   4. the compat layer, for each AEAD: EVP_AEAD_CTX_init, seal, open,
 *      seal_scatter (with extra_in), open_gather, sealv, openv,
 *      openv_detached (several pieces, so the streaming paths run),
 *      tag_len, the TLS nonce rules, failing calls, cleanup: no
 *      allocation; the randnonce AEADs' seals (the OS random source) and
 *      opens in every form: no allocation;
 *   5. EVP_AEAD_CTX_new allocates and EVP_AEAD_CTX_free frees exactly
 *      once, which the counter sees (the library's own allocation is
 *      caught too); the block is no larger than the context's fields and
 *      a key on the default backends (gcm_key_size_for), far less than
 *      sizeof(EVP_AEAD_CTX); and the context's memory is all zeros when
 *      free receives it: the wipe in EVP_AEAD_CTX_cleanup was not removed
 *      as a dead store before free.
 *
 * Needs dlsym(RTLD_NEXT) and an allocator that can be replaced by defining
 * its functions (glibc, musl, the BSDs, sanitizer runtimes); elsewhere the
 * program reports a skip (exit code 77). Windows has neither: its C runtime
 * (a DLL) calls its own malloc whatever a program defines, so there the
 * program only says why it is skipped.
 */
#define _GNU_SOURCE
#include <stdio.h>

#if defined(_WIN32)

int main(void) {
  printf("no_alloc: SKIP: Windows has no dlsym(RTLD_NEXT) and its C runtime's "
         "allocator cannot be interposed\n");
  return 77;
}

#else /* !_WIN32 */

#include <gcm/gcm.h>
#include <openssl/aead.h>

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the counting allocator ------------------------------------------ */

typedef void *(*malloc_fn)(size_t);
typedef void *(*calloc_fn)(size_t, size_t);
typedef void *(*realloc_fn)(void *, size_t);
typedef void (*free_fn)(void *);
typedef void *(*aligned_alloc_fn)(size_t, size_t);
typedef int (*posix_memalign_fn)(void **, size_t, size_t);
typedef void *(*memalign_fn)(size_t, size_t);
typedef void *(*valloc_fn)(size_t);

static malloc_fn real_malloc;
static calloc_fn real_calloc;
static realloc_fn real_realloc;
static free_fn real_free;
static aligned_alloc_fn real_aligned_alloc;
static posix_memalign_fn real_posix_memalign;
static memalign_fn real_memalign;
static valloc_fn real_valloc;

/* Counting is on while `window` is set. Single-threaded program. */
static volatile int window;
static volatile long allocs, frees;
/* The size malloc was last asked for while counting. */
static volatile size_t last_size;

/* While dlsym runs it may itself allocate: serve that from a static arena,
 * whose blocks are never freed. */
static _Alignas(64) unsigned char arena[1 << 16];
static size_t arena_used;
static int resolving;

static void *arena_alloc(size_t n) {
  n = (n + 63) & ~(size_t)63;
  if (n > sizeof(arena) - arena_used) return NULL;
  void *p = arena + arena_used;
  arena_used += n;
  return p;
}

static int in_arena(const void *p) {
  return (const unsigned char *)p >= arena &&
         (const unsigned char *)p < arena + sizeof(arena);
}

static void resolve(void) {
  if (real_malloc != NULL || resolving) return;
  resolving = 1;
  real_calloc = (calloc_fn)dlsym(RTLD_NEXT, "calloc");
  real_realloc = (realloc_fn)dlsym(RTLD_NEXT, "realloc");
  real_free = (free_fn)dlsym(RTLD_NEXT, "free");
  real_aligned_alloc = (aligned_alloc_fn)dlsym(RTLD_NEXT, "aligned_alloc");
  real_posix_memalign = (posix_memalign_fn)dlsym(RTLD_NEXT, "posix_memalign");
  real_memalign = (memalign_fn)dlsym(RTLD_NEXT, "memalign");
  real_valloc = (valloc_fn)dlsym(RTLD_NEXT, "valloc");
  real_malloc = (malloc_fn)dlsym(RTLD_NEXT, "malloc");
  resolving = 0;
}

static void count_alloc(void) {
  if (window) allocs++;
}

void *malloc(size_t n) {
  resolve();
  if (real_malloc == NULL) return arena_alloc(n);
  count_alloc();
  if (window) last_size = n;
  return real_malloc(n);
}

void *calloc(size_t n, size_t size) {
  resolve();
  if (real_calloc == NULL) {
    /* The arena is zero until used, and never reused. */
    if (size != 0 && n > (size_t)-1 / size) return NULL;
    return arena_alloc(n * size);
  }
  count_alloc();
  return real_calloc(n, size);
}

void *realloc(void *p, size_t n) {
  resolve();
  if (in_arena(p) || real_realloc == NULL) {
    void *q = malloc(n);
    if (q != NULL && p != NULL) {
      size_t avail = (size_t)(arena + sizeof(arena) - (unsigned char *)p);
      memcpy(q, p, n < avail ? n : avail);
    }
    return q;
  }
  count_alloc();
  return real_realloc(p, n);
}

/* Set by check 5: free copies the block at `watched` (watched_size bytes)
 * here before releasing it. */
static void *watched;
static size_t watched_size;
static unsigned char watched_copy[sizeof(EVP_AEAD_CTX)];
static int watched_seen;

void free(void *p) {
  if (p == NULL || in_arena(p)) return;
  resolve();
  if (window) frees++;
  if (p == watched) {
    memcpy(watched_copy, p, watched_size);
    watched_seen = 1;
  }
  real_free(p);
}

void *aligned_alloc(size_t align, size_t n) {
  resolve();
  count_alloc();
  return real_aligned_alloc(align, n);
}

int posix_memalign(void **out, size_t align, size_t n) {
  resolve();
  count_alloc();
  return real_posix_memalign(out, align, n);
}

void *memalign(size_t align, size_t n) {
  resolve();
  count_alloc();
  return real_memalign(align, n);
}

void *valloc(size_t n) {
  resolve();
  count_alloc();
  return real_valloc(n);
}

/* ---- checks ------------------------------------------------------------ */

static int failures;

#define CHECK(cond)                                                      \
  do {                                                                   \
    if (!(cond)) {                                                       \
      fprintf(stderr, "no_alloc: FAIL at line %d: %s\n", __LINE__, #cond); \
      failures++;                                                        \
    }                                                                    \
  } while (0)

/* Runs the statements given with counting on and reports any allocation or free. */
#define NO_ALLOC(what, ...)                                              \
  do {                                                                    \
    allocs = frees = 0;                                                   \
    window = 1;                                                           \
    __VA_ARGS__;                                                          \
    window = 0;                                                           \
    if (allocs != 0 || frees != 0) {                                      \
      fprintf(stderr, "no_alloc: FAIL: %s: %ld allocations, %ld frees\n", \
              what, allocs, frees);                                       \
      failures++;                                                         \
    }                                                                     \
  } while (0)

#define BIG 5000 /* > 256 blocks: the bulk path, a partial block, a tail */

static uint8_t pt[BIG], ct[BIG], out[BIG + 64], aad[40];
static const uint8_t kKey[32] = {
    0x60, 0x3d, 0xeb, 0x10, 0x15, 0xca, 0x71, 0xbe, 0x2b, 0x73, 0xae,
    0xf0, 0x85, 0x7d, 0x77, 0x81, 0x1f, 0x35, 0x2c, 0x07, 0x3b, 0x61,
    0x08, 0xd7, 0x2d, 0x98, 0x10, 0xa3, 0x09, 0x14, 0xdf, 0xf4};
static const uint8_t kNonce[12] = {0xca, 0xfe, 0xba, 0xbe, 0xfa, 0xce,
                                   0xdb, 0xad, 0xde, 0xca, 0xf8, 0x88};
static const uint8_t kLongNonce[60] = {1, 2, 3}; /* hashed into J0 */

/* Check 1: the counter sees the program's own allocations. */
static void self_check(void) {
  void *volatile p;
  void *q = NULL;
  allocs = frees = 0;
  window = 1;
  p = malloc(24);
  p = realloc(p, 4000);
  free(p);
  p = calloc(3, 8);
  free(p);
  p = aligned_alloc(64, 128);
  free(p);
  if (posix_memalign(&q, 64, 256) == 0) free(q);
  window = 0;
  CHECK(allocs == 5);
  CHECK(frees == 4);
}

/* One round of native calls on key k (already set up). */
static void native_round(const gcm_key *k, int *ok) {
  static const size_t lens[] = {0, 1, 15, 16, 17, 255, BIG};
  uint8_t tag[16];
  for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
    size_t n = lens[i];
    *ok &= gcm_seal(k, ct, tag, 16, kNonce, 12, pt, n, aad, sizeof(aad));
    *ok &= gcm_open(k, out, kNonce, 12, ct, n, tag, 16, aad, sizeof(aad));
    *ok &= gcm_seal(k, ct, tag, 12, kLongNonce, sizeof(kLongNonce), pt, n,
                    NULL, 0);
    *ok &= gcm_open(k, ct, kLongNonce, sizeof(kLongNonce), ct, n, tag, 12,
                    NULL, 0); /* in place */
    tag[0] ^= 1;
    *ok &= !gcm_open(k, out, kNonce, 12, ct, n, tag, 16, aad, sizeof(aad));
  }
  /* Streaming, in odd pieces, both directions. */
  gcm_stream s;
  *ok &= gcm_stream_init(&s, k, GCM_ENCRYPT, kNonce, 12);
  *ok &= gcm_stream_aad(&s, aad, 7);
  *ok &= gcm_stream_aad(&s, aad + 7, sizeof(aad) - 7);
  *ok &= gcm_stream_update(&s, ct, pt, 3);
  *ok &= gcm_stream_update(&s, ct + 3, pt + 3, 4096);
  *ok &= gcm_stream_update(&s, ct + 4099, pt + 4099, BIG - 4099);
  *ok &= gcm_stream_finish_seal(&s, tag, 16);
  *ok &= gcm_stream_init(&s, k, GCM_DECRYPT, kNonce, 12);
  *ok &= gcm_stream_aad(&s, aad, sizeof(aad));
  *ok &= gcm_stream_update(&s, out, ct, 1000);
  *ok &= gcm_stream_update(&s, out + 1000, ct + 1000, BIG - 1000);
  *ok &= gcm_stream_finish_open(&s, tag, 16);
  gcm_stream_cleanup(&s);
  /* Failures that format a message (gcmi_error_setf). */
  *ok &= !gcm_seal(k, ct, tag, 17, kNonce, 12, pt, 16, NULL, 0);
  *ok &= !gcm_seal(k, ct + 1, tag, 16, kNonce, 12, ct, 16, NULL, 0);
  *ok &= !gcm_stream_aad(&s, aad, 1); /* after finish */
  *ok &= gcm_last_error_message() != NULL;
}

static void native_checks(void) {
  const char *first_aes = NULL;
  /* Check 2: the process's first libgcm calls. */
  NO_ALLOC("first key set-up (dispatch initialisation) and seal", {
    gcm_key k;
    uint8_t tag[16];
    int ok = gcm_key_init(&k, kKey, 16);
    ok &= gcm_seal(&k, ct, tag, 16, kNonce, 12, pt, 100, aad, 10);
    first_aes = gcm_key_aes_backend(&k);
    gcm_key_cleanup(&k);
    CHECK(ok);
  });
  CHECK(first_aes != NULL);

  /* Check 3: every backend pair this CPU runs. */
  size_t n = gcm_backend_count();
  for (size_t a = 0; a < n; a++) {
    gcm_backend_info ai;
    if (!gcm_backend_get(a, &ai) || ai.kind != GCM_BACKEND_AES || !ai.usable)
      continue;
    for (size_t g = 0; g < n; g++) {
      gcm_backend_info gi;
      if (!gcm_backend_get(g, &gi) || gi.kind != GCM_BACKEND_GHASH ||
          !gi.usable)
        continue;
      /* The two passes ("none"), then every fused kernel that fits the
       * pair and runs here. */
      const char *fused_names[16] = {"none"};
      size_t num_fused = 1;
      for (size_t f = 0; f < n && num_fused < 16; f++) {
        gcm_backend_info fi;
        const char *fa, *fg;
        if (gcm_backend_get(f, &fi) && fi.kind == GCM_BACKEND_FUSED &&
            fi.usable && gcm_fused_backend_pair(fi.name, &fa, &fg) &&
            (fa == NULL || strcmp(fa, ai.name) == 0) &&
            (fg == NULL || strcmp(fg, gi.name) == 0)) {
          fused_names[num_fused++] = fi.name;
        }
      }
      for (size_t f = 0; f < num_fused; f++) {
        const char *fused = fused_names[f];
        for (size_t key_len = 16; key_len <= 32; key_len += 8) {
          char what[128];
          snprintf(what, sizeof(what), "native API, %s/%s/fused %s, AES-%zu",
                   ai.name, gi.name, fused, key_len * 8);
          int ok = 1;
          NO_ALLOC(what, {
            gcm_key k;
            ok &= gcm_key_init_with_fused(&k, kKey, key_len, ai.name, gi.name,
                                          fused);
            ok &= strcmp(gcm_key_fused_backend(&k), fused) == 0;
            native_round(&k, &ok);
            gcm_key_cleanup(&k);
          });
          if (!ok) {
            fprintf(stderr,
                    "no_alloc: FAIL: %s: a call gave a wrong result\n", what);
            failures++;
          }
        }
      }
    }
  }
  NO_ALLOC("backend queries and errors", {
    const char *x, *y;
    gcm_backend_info info;
    gcm_key k;
    CHECK(gcm_default_backends(&x, &y));
    CHECK(gcm_backend_get(0, &info));
    CHECK(gcm_backend_is_available(GCM_BACKEND_AES, x));
    CHECK(!gcm_key_init_with_backends(&k, kKey, 16, "no-such-backend", NULL));
    CHECK(!gcm_key_init(&k, kKey, 17));
    CHECK(strstr(gcm_last_error_message(), "17") != NULL);
  });
}

static void compat_round(const EVP_AEAD *aead, int *ok) {
  EVP_AEAD_CTX ctx;
  const int tls = aead == EVP_aead_aes_128_gcm_tls12() ||
                  aead == EVP_aead_aes_256_gcm_tls12() ||
                  aead == EVP_aead_aes_128_gcm_tls13() ||
                  aead == EVP_aead_aes_256_gcm_tls13();
  /* TLS-shaped nonces: 4 fixed bytes, then a big-endian counter from 0
   * (for TLS 1.3 the first one makes the mask 0, so counter = sequence). */
  uint8_t nonce[12] = {1, 2, 3, 4};
  unsigned seq = 0;
  size_t len, tag_len;
  uint8_t tag[16 + 8];
#define NEXT_NONCE() (nonce[11] = (uint8_t)(seq++), nonce)

  EVP_AEAD_CTX_zero(&ctx);
  *ok &= EVP_AEAD_CTX_init(&ctx, aead, kKey, EVP_AEAD_key_length(aead),
                           EVP_AEAD_DEFAULT_TAG_LENGTH, NULL);
  /* seal / open */
  *ok &= EVP_AEAD_CTX_seal(&ctx, out, &len, sizeof(out), NEXT_NONCE(), 12, pt,
                           BIG, aad, sizeof(aad));
  *ok &= EVP_AEAD_CTX_open(&ctx, ct, &len, sizeof(ct), nonce, 12, out,
                           BIG + 16, aad, sizeof(aad));
  /* seal_scatter and open_gather; then seal_scatter with extra_in (two
   * pieces: the streaming path), opened with openv_detached. */
  *ok &= EVP_AEAD_CTX_seal_scatter(&ctx, out, tag, &tag_len, sizeof(tag),
                                   NEXT_NONCE(), 12, pt, 1000, NULL, 0, aad,
                                   sizeof(aad));
  *ok &= EVP_AEAD_CTX_open_gather(&ctx, ct, nonce, 12, out, 1000, tag, 16,
                                  aad, sizeof(aad));
  *ok &= EVP_AEAD_CTX_seal_scatter(&ctx, out, tag, &tag_len, sizeof(tag),
                                   NEXT_NONCE(), 12, pt, 1000, pt + 1000, 8,
                                   aad, sizeof(aad));
  CRYPTO_IOVEC two[2] = {{ct, out, 1000}, {ct + 1000, tag, 8}};
  CRYPTO_IVEC one_aad = {aad, sizeof(aad)};
  *ok &= EVP_AEAD_CTX_openv_detached(&ctx, two, 2, nonce, 12, tag + 8, 16,
                                     &one_aad, 1);
  /* sealv / openv / openv_detached with several pieces and AAD pieces */
  CRYPTO_IOVEC iov[3] = {{out, pt, 5}, {out + 5, pt + 5, 2000},
                         {out + 2005, pt + 2005, 31}};
  CRYPTO_IVEC av[2] = {{aad, 3}, {aad + 3, sizeof(aad) - 3}};
  *ok &= EVP_AEAD_CTX_sealv(&ctx, iov, 3, out + 2036, &tag_len, 16,
                            NEXT_NONCE(), 12, av, 2);
  CRYPTO_IOVEC back[2] = {{ct, out, 1500}, {ct + 1500, out + 1500, 552}};
  *ok &= EVP_AEAD_CTX_openv(&ctx, back, 2, &len, nonce, 12, av, 2);
  CRYPTO_IOVEC det[2] = {{ct, out, 36}, {ct + 36, out + 36, 2000}};
  *ok &= EVP_AEAD_CTX_openv_detached(&ctx, det, 2, nonce, 12, out + 2036, 16,
                                     av, 2);
  *ok &= EVP_AEAD_CTX_tag_len(&ctx, &tag_len, 100, 8);
  /* Failures: wrong tag, short output, overlap, nonce order (TLS). */
  out[0] ^= 1;
  *ok &= !EVP_AEAD_CTX_open(&ctx, ct, &len, sizeof(ct), nonce, 12, out, 2052,
                            av[0].in, 3);
  *ok &= !EVP_AEAD_CTX_seal(&ctx, out, &len, 10, NEXT_NONCE(), 12, pt, 100,
                            NULL, 0);
  *ok &= !EVP_AEAD_CTX_seal(&ctx, pt + 1, &len, 200, NEXT_NONCE(), 12, pt,
                            100, NULL, 0);
  if (tls) {
    nonce[11] = 1;
    *ok &= !EVP_AEAD_CTX_seal(&ctx, out, &len, sizeof(out), nonce, 12, pt, 10,
                              NULL, 0);
  }
  EVP_AEAD_CTX_cleanup(&ctx);
#undef NEXT_NONCE
}

/* The randnonce AEADs: every seal asks the OS for a nonce (a system call or
 * a read of /dev/urandom, never the heap). */
static void randnonce_round(const EVP_AEAD *aead, int *ok) {
  EVP_AEAD_CTX ctx;
  size_t len, tag_len;
  uint8_t tag[8 + 28];
  EVP_AEAD_CTX_zero(&ctx);
  *ok &= EVP_AEAD_CTX_init(&ctx, aead, kKey, EVP_AEAD_key_length(aead),
                           EVP_AEAD_DEFAULT_TAG_LENGTH, NULL);
  *ok &= EVP_AEAD_CTX_seal(&ctx, out, &len, sizeof(out), NULL, 0, pt, BIG,
                           aad, sizeof(aad));
  *ok &= EVP_AEAD_CTX_open(&ctx, ct, &len, sizeof(ct), NULL, 0, out, BIG + 28,
                           aad, sizeof(aad));
  *ok &= EVP_AEAD_CTX_seal_scatter(&ctx, out, tag, &tag_len, sizeof(tag), NULL,
                                   0, pt, 1000, pt + 1000, 8, aad, sizeof(aad));
  CRYPTO_IOVEC two[2] = {{ct, out, 1000}, {ct + 1000, tag, 8}};
  CRYPTO_IVEC one_aad = {aad, sizeof(aad)};
  *ok &= EVP_AEAD_CTX_openv_detached(&ctx, two, 2, NULL, 0, tag + 8, 28,
                                     &one_aad, 1);
  CRYPTO_IOVEC iov[2] = {{out, pt, 5}, {out + 5, pt + 5, 2000}};
  *ok &= EVP_AEAD_CTX_sealv(&ctx, iov, 2, out + 2005, &tag_len, 28, NULL, 0,
                            &one_aad, 1);
  CRYPTO_IOVEC back[2] = {{ct, out, 1500}, {ct + 1500, out + 1500, 533}};
  *ok &= EVP_AEAD_CTX_openv(&ctx, back, 2, &len, NULL, 0, &one_aad, 1);
  *ok &= !EVP_AEAD_CTX_seal(&ctx, out, &len, sizeof(out), kNonce, 12, pt, 10,
                            NULL, 0);
  EVP_AEAD_CTX_cleanup(&ctx);
}

static void compat_checks(void) {
  const EVP_AEAD *aeads[] = {
      EVP_aead_aes_128_gcm(),       EVP_aead_aes_192_gcm(),
      EVP_aead_aes_256_gcm(),       EVP_aead_aes_128_gcm_tls12(),
      EVP_aead_aes_256_gcm_tls12(), EVP_aead_aes_128_gcm_tls13(),
      EVP_aead_aes_256_gcm_tls13()};
  for (size_t i = 0; i < sizeof(aeads) / sizeof(aeads[0]); i++) {
    char what[64];
    int ok = 1;
    snprintf(what, sizeof(what), "compat API, AEAD #%zu", i);
    NO_ALLOC(what, compat_round(aeads[i], &ok));
    if (!ok) {
      fprintf(stderr, "no_alloc: FAIL: %s: a call gave a wrong result\n", what);
      failures++;
    }
  }
  const EVP_AEAD *randnonce[] = {EVP_aead_aes_128_gcm_randnonce(),
                                 EVP_aead_aes_256_gcm_randnonce()};
  for (size_t i = 0; i < 2; i++) {
    int ok = 1;
    NO_ALLOC("compat API, randnonce AEAD", randnonce_round(randnonce[i], &ok));
    if (!ok) {
      fprintf(stderr, "no_alloc: FAIL: randnonce AEAD #%zu: a call gave a "
                      "wrong result\n", i);
      failures++;
    }
  }
}

/* Check 5: the one allocating function is seen, and what it frees is
 * wiped. */
static void new_free_check(void) {
  const size_t key_size = gcm_key_size_for(NULL, NULL, NULL);
  allocs = frees = 0;
  last_size = 0;
  window = 1;
  EVP_AEAD_CTX *ctx = EVP_AEAD_CTX_new(EVP_aead_aes_128_gcm_tls13(), kKey, 16,
                                       EVP_AEAD_DEFAULT_TAG_LENGTH);
  window = 0;
  CHECK(ctx != NULL);
  CHECK(allocs == 1);
  if (ctx == NULL) return;
  /* Its fields (the AEAD pointer and the nonce state: 32 bytes) and the
   * key, nothing more. */
  CHECK(key_size != 0 && last_size <= 32 + key_size);
  CHECK(last_size < sizeof(EVP_AEAD_CTX));
  watched_size = last_size;
  /* Put a TLS 1.3 mask (derived from the secret IV) into the context. */
  size_t len;
  CHECK(EVP_AEAD_CTX_seal(ctx, out, &len, sizeof(out), kNonce, 12, pt, 16,
                          NULL, 0));
  watched = ctx;
  watched_seen = 0;
  window = 1;
  EVP_AEAD_CTX_free(ctx);
  window = 0;
  watched = NULL;
  CHECK(frees == 1);
  CHECK(watched_seen);
  int zero = 1;
  for (size_t i = 0; i < watched_size; i++) zero &= watched_copy[i] == 0;
  if (!zero) {
    fprintf(stderr,
            "no_alloc: FAIL: EVP_AEAD_CTX_free released a context that was "
            "not wiped\n");
    failures++;
  }
}

int main(void) {
  resolve();
  if (real_malloc == NULL || real_free == NULL || real_aligned_alloc == NULL ||
      real_posix_memalign == NULL) {
    printf("no_alloc: SKIP: the allocator cannot be interposed here\n");
    return 77;
  }
  for (size_t i = 0; i < BIG; i++) pt[i] = (uint8_t)(i * 31 + 7);
  for (size_t i = 0; i < sizeof(aad); i++) aad[i] = (uint8_t)i;

  self_check();
  if (failures) {
    fprintf(stderr, "no_alloc: the counting allocator is not in use\n");
    return 1;
  }
  native_checks();
  compat_checks();
  new_free_check();
  if (failures) return 1;
  printf("no_alloc: no allocation in any checked call; EVP_AEAD_CTX_new/free "
         "seen (%zu bytes) and wiped\n", watched_size);
  return 0;
}

#endif /* !_WIN32 */
