/*
 * test/ct/ct_check.c: constant-time check of one backend pair under
 * valgrind memcheck (the "ctgrind" idea, Adam Langley, 2010).
 *
 * Idea
 * ----
 * Memcheck tracks, bit by bit, which values derive from uninitialised
 * memory, and reports when such a value decides a conditional jump or move
 * ("Conditional jump or move depends on uninitialised value(s)") or forms a
 * memory address ("Use of uninitialised value of size N"). Those are exactly
 * the two things a constant-time implementation must never do with a secret.
 * So the secrets are declared uninitialised with VALGRIND_MAKE_MEM_UNDEFINED
 * before they enter libgcm, everything computed from them inherits the mark,
 * and every report is a secret reaching a branch or an address. Outside
 * valgrind the client requests are no-ops and this is an ordinary program.
 *
 * What is secret here
 * -------------------
 * - The raw AES key, marked BEFORE gcm_key_init_with_backends, so the key
 *   schedule, H = E(K, 0) and every table or power of H a GHASH backend
 *   precomputes are secret too: the whole derived gcm_key. (Its magic, key
 *   length and backend pointers are written from public values and stay
 *   defined, as they should.)
 * - The plaintext given to seal. The plaintext open returns is secret by
 *   derivation (ciphertext xor key stream).
 * - The tag given to open (and to gcm_stream_finish_open). A received tag is
 *   public in real use, but marking it makes the comparison against the
 *   secret expected tag part of the check: the tag check must not exit early
 *   on the first differing byte.
 * - The AAD. AAD is public in real use, so marking it is not required; it is
 *   marked anyway because the backends hash it with the same code as the
 *   ciphertext, and with public AAD the first GHASH block (Xi = 0 xor AAD)
 *   would be public and a backend that indexes a table by its input block
 *   would go unseen until the second block. libgcm has no reason to branch
 *   on AAD contents, so this can only find real problems.
 *
 * What is public: lengths, the nonce (a 96-bit nonce is copied into the
 * counter; any other length is hashed with the secret H into J0, which is
 * therefore secret and exercised as such), the ciphertext given to open,
 * and the backend choice.
 *
 * AES-GCM-SIV (gcm_siv_*, RFC 8452) runs on the same pair and fused
 * kernel (when that kernel has AES-GCM-SIV functions; "none" always)
 * with the same marks: the raw key before gcm_siv_key_init_with_fused (so the
 * per-message keys derived from it are secret), the plaintext, the AAD
 * and the tag given to open (which is also the initial counter).
 *
 * Declassification
 * ----------------
 * Before this program branches on or prints anything libgcm produced from
 * secrets, it marks it defined with VALGRIND_MAKE_MEM_DEFINED, and only what
 * is public in real use: the ciphertext and tag seal writes, and the 1/0
 * result of open. Comparisons of secret data made by this harness (the
 * plaintext open returns against the original) are computed without
 * branching and only the final one-bit verdict is declassified.
 *
 * Self-check: under valgrind the program also verifies, with
 * VALGRIND_GET_VBITS (which reads the marks without reporting), that the
 * marks actually propagated: the expanded key holds secret bytes, and seal's
 * outputs are secret before they are declassified. A harness whose taint
 * silently vanished would otherwise pass every backend.
 *
 * Usage
 * -----
 *   ct_check --aes NAME --ghash NAME [--fused NAME]
 *                                      run the checks for that pair, with
 *                                      the two passes (--fused none, the
 *                                      default) or the named fused kernel
 *   ct_check ... --seed HEX            start the generator of keys and data
 *                                      from HEX (up to 16 hex digits)
 *                                      instead of the fixed default; every
 *                                      length stays the same (the trace
 *                                      check, test/ct/ct_trace.sh, runs the
 *                                      same pair with different seeds and
 *                                      compares the executed code paths)
 *   ct_check ... --leak                negative control for the trace
 *                                      check: also branch on one bit of
 *                                      the raw key, a planted leak the
 *                                      trace check must report
 *   ct_check --list                    every backend and its flags
 *   ct_check --list-ct-pairs           "AES GHASH FUSED" per usable pair
 *                                      where both are constant-time, once
 *                                      with FUSED "none" and once per
 *                                      usable constant-time fused kernel
 *                                      that fits the pair (what must pass
 *                                      under valgrind)
 *   ct_check --list-vt-pairs           one pair per usable variable-time
 *                                      backend, completed with the first
 *                                      constant-time backend of the other
 *                                      kind (negative controls: these must
 *                                      be reported by memcheck)
 * Exit status: 0 all checks passed, 2 a functional check failed (wrong
 * result), 64 usage or an unknown backend name, 77 a named backend is not usable here (for instance an
 * instruction set valgrind does not emulate), so ctest reports a skip.
 * Under `valgrind --error-exitcode=1`, 1 means memcheck reported something.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(LIBGCM_CT_HAVE_MEMCHECK)
#include <valgrind/memcheck.h>
#else
/* Built without valgrind's header (cross builds for ARM, where valgrind does
 * not run): the client requests become what they are outside valgrind
 * anyway, no-ops, and the program is the trace check's workload. */
#define VALGRIND_MAKE_MEM_UNDEFINED(p, n) ((void)(p), (void)(n))
#define VALGRIND_MAKE_MEM_DEFINED(p, n) ((void)(p), (void)(n))
#define VALGRIND_GET_VBITS(p, v, n) ((void)(p), (void)(v), (void)(n), 0)
#define RUNNING_ON_VALGRIND 0
#endif

#include <gcm/gcm.h>

#define EXIT_CHECK_FAILED 2
#define EXIT_USAGE 64
#define EXIT_SKIP 77

/* Declare bytes secret / declare them public (declassify). */
#define SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))

#define MAX_LEN 2048
#define MAX_AAD 64
#define MAX_NONCE 64

static const char *g_aes, *g_ghash, *g_fused = "none";
static unsigned long g_failures, g_seals, g_opens, g_streams;
static long g_key_secret = -1; /* secret bytes in the last gcm_key */
static int g_leak;              /* --leak: plant a secret-dependent branch */

static void fail(const char *what, size_t len, size_t aad_len,
                 size_t nonce_len) {
  fprintf(stderr,
          "ct_check: FAILED %s (aes=%s ghash=%s fused=%s len=%zu aad=%zu "
          "nonce=%zu)\n",
          what, g_aes, g_ghash, g_fused, len, aad_len, nonce_len);
  g_failures++;
}

/* Test data from a xorshift generator, fixed unless --seed is given. */
static uint64_t g_rng = 0x9e3779b97f4a7c15u;
static void fill(uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++) {
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    p[i] = (uint8_t)(g_rng >> 32);
  }
}

/* Harness-side comparison of possibly secret bytes without a branch on
 * them; only the verdict is declassified. Returns 1 when equal. */
static int same(const uint8_t *a, const uint8_t *b, size_t n) {
  uint8_t d = 0;
  for (size_t i = 0; i < n; i++) d |= (uint8_t)(a[i] ^ b[i]);
  unsigned ok = ((unsigned)d - 1u) >> 8 & 1u;
  PUBLIC(&ok, sizeof(ok));
  return (int)ok;
}

static int all_zero(const uint8_t *a, size_t n) {
  uint8_t d = 0;
  for (size_t i = 0; i < n; i++) d |= a[i];
  unsigned ok = ((unsigned)d - 1u) >> 8 & 1u;
  PUBLIC(&ok, sizeof(ok));
  return (int)ok;
}

/* Under valgrind: how many of the n bytes at p carry any secret bit.
 * Returns -1 when not running under valgrind. Reads the marks only; it
 * neither reports nor changes them. */
static long secret_bytes(const void *p, size_t n) {
  static uint8_t vbits[sizeof(gcm_key)];
  const uint8_t *q = (const uint8_t *)p;
  long count = 0;
  if (!RUNNING_ON_VALGRIND) return -1;
  while (n > 0) {
    size_t chunk = n < sizeof(vbits) ? n : sizeof(vbits);
    if (VALGRIND_GET_VBITS(q, vbits, chunk) != 1) return -1;
    for (size_t i = 0; i < chunk; i++) count += vbits[i] != 0;
    q += chunk;
    n -= chunk;
  }
  return count;
}

/* Under valgrind, fails unless all n bytes at p are secret. */
static void expect_secret(const void *p, size_t n, const char *what,
                          size_t len, size_t aad_len, size_t nonce_len) {
  long s = secret_bytes(p, n);
  if (s >= 0 && (size_t)s != n) fail(what, len, aad_len, nonce_len);
}

/* The planted leak of --leak: a branch taken or not by a key bit, kept
 * out of line so the compiler cannot turn it into a select. */
static volatile unsigned g_leak_sink;
__attribute__((noinline)) static void leak_key_bit(const uint8_t *raw) {
  if (raw[0] & 1) g_leak_sink++;
}

static int init_key(gcm_key *k, size_t key_len) {
  uint8_t raw[32];
  fill(raw, key_len);
  SECRET(raw, key_len);
  if (g_leak) leak_key_bit(raw);
  int ok = gcm_key_init_with_fused(k, raw, key_len, g_aes, g_ghash, g_fused);
  memset(raw, 0, sizeof(raw));
  if (!ok) {
    fprintf(stderr, "ct_check: gcm_key_init_with_fused(%s, %s, %s): %s\n",
            g_aes, g_ghash, g_fused, gcm_last_error_message());
    return 0;
  }
  g_key_secret = secret_bytes(k, sizeof(*k));
  if (g_key_secret == 0) {
    fail("taint self-check: no secret bytes in the key", 0, 0, 0);
  }
  return 1;
}

/* The one-shot calls of a mode, on its key type: AES-GCM (gcm_seal,
 * gcm_open) or AES-GCM-SIV (gcm_siv_seal, gcm_siv_open). */
struct one_shot_ops {
  int (*seal)(const void *k, uint8_t *out, uint8_t *tag, size_t tag_len,
              const uint8_t *nonce, size_t nonce_len, const uint8_t *in,
              size_t len, const uint8_t *aad, size_t aad_len);
  int (*open)(const void *k, uint8_t *out, const uint8_t *nonce,
              size_t nonce_len, const uint8_t *in, size_t len,
              const uint8_t *tag, size_t tag_len, const uint8_t *aad,
              size_t aad_len);
};

static int gcm_seal_op(const void *k, uint8_t *out, uint8_t *tag,
                       size_t tag_len, const uint8_t *nonce, size_t nonce_len,
                       const uint8_t *in, size_t len, const uint8_t *aad,
                       size_t aad_len) {
  return gcm_seal((const gcm_key *)k, out, tag, tag_len, nonce, nonce_len, in,
                  len, aad, aad_len);
}
static int gcm_open_op(const void *k, uint8_t *out, const uint8_t *nonce,
                       size_t nonce_len, const uint8_t *in, size_t len,
                       const uint8_t *tag, size_t tag_len, const uint8_t *aad,
                       size_t aad_len) {
  return gcm_open((const gcm_key *)k, out, nonce, nonce_len, in, len, tag,
                  tag_len, aad, aad_len);
}
static int siv_seal_op(const void *k, uint8_t *out, uint8_t *tag,
                       size_t tag_len, const uint8_t *nonce, size_t nonce_len,
                       const uint8_t *in, size_t len, const uint8_t *aad,
                       size_t aad_len) {
  return gcm_siv_seal((const gcm_siv_key *)k, out, tag, tag_len, nonce,
                      nonce_len, in, len, aad, aad_len);
}
static int siv_open_op(const void *k, uint8_t *out, const uint8_t *nonce,
                       size_t nonce_len, const uint8_t *in, size_t len,
                       const uint8_t *tag, size_t tag_len, const uint8_t *aad,
                       size_t aad_len) {
  return gcm_siv_open((const gcm_siv_key *)k, out, nonce, nonce_len, in, len,
                      tag, tag_len, aad, aad_len);
}
static const struct one_shot_ops gcm_ops = {gcm_seal_op, gcm_open_op};
static const struct one_shot_ops siv_ops = {siv_seal_op, siv_open_op};

/* 1 when an AES-GCM-SIV key takes the pair and fused kernel (a kernel
 * without AES-GCM-SIV functions is refused). */
static int siv_takes_choice(void) {
  gcm_siv_key k;
  const uint8_t raw[16] = {0};
  int ok = gcm_siv_key_init_with_fused(&k, raw, sizeof(raw), g_aes, g_ghash,
                                       g_fused);
  gcm_siv_key_cleanup(&k);
  return ok;
}

/* An AES-GCM-SIV key on the pair and fused kernel, from a secret raw key,
 * like init_key. */
static int init_siv_key(gcm_siv_key *k, size_t key_len) {
  uint8_t raw[32];
  fill(raw, key_len);
  SECRET(raw, key_len);
  int ok = gcm_siv_key_init_with_fused(k, raw, key_len, g_aes, g_ghash,
                                       g_fused);
  memset(raw, 0, sizeof(raw));
  if (!ok) {
    fprintf(stderr, "ct_check: gcm_siv_key_init_with_fused(%s, %s, %s): %s\n",
            g_aes, g_ghash, g_fused, gcm_last_error_message());
    return 0;
  }
  if (secret_bytes(k, sizeof(*k)) == 0) {
    fail("taint self-check: no secret bytes in the AES-GCM-SIV key", 0, 0,
         12);
  }
  return 1;
}

/* One message through one-shot seal, open with the right tag, open with a
 * wrong tag, and an in-place open. */
static void one_shot_with(const struct one_shot_ops *ops, const void *k,
                          size_t len, size_t aad_len, size_t nonce_len,
                          size_t tag_len) {
  static uint8_t pt[MAX_LEN], ct[MAX_LEN], out[MAX_LEN], buf[MAX_LEN];
  uint8_t aad[MAX_AAD], nonce[MAX_NONCE], tag[16], rtag[16];

  fill(pt, len);
  fill(aad, aad_len);
  fill(nonce, nonce_len);
  SECRET(pt, len);
  SECRET(aad, aad_len);

  int r = ops->seal(k, ct, tag, tag_len, nonce, nonce_len, pt, len, aad,
                    aad_len);
  g_seals++;
  if (!r) {
    fail("seal returned 0", len, aad_len, nonce_len);
    return;
  }
  expect_secret(ct, len, "taint self-check: ciphertext not secret", len,
                aad_len, nonce_len);
  expect_secret(tag, tag_len, "taint self-check: tag not secret", len,
                aad_len, nonce_len);
  /* The ciphertext and tag are what goes on the wire. */
  PUBLIC(ct, len);
  PUBLIC(tag, tag_len);

  /* The right tag. */
  memcpy(rtag, tag, tag_len);
  SECRET(rtag, tag_len);
  SECRET(aad, aad_len);
  memset(out, 0xa5, len);
  r = ops->open(k, out, nonce, nonce_len, ct, len, rtag, tag_len, aad,
                aad_len);
  g_opens++;
  PUBLIC(&r, sizeof(r));
  if (r != 1) fail("open rejected the right tag", len, aad_len, nonce_len);
  if (!same(out, pt, len)) {
    fail("open plaintext differs", len, aad_len, nonce_len);
  }

  /* A wrong tag: one flipped bit, at a position that varies with len. */
  memcpy(rtag, tag, tag_len);
  rtag[len % tag_len] ^= (uint8_t)(1u << (len % 8));
  SECRET(rtag, tag_len);
  memset(out, 0xa5, len);
  r = ops->open(k, out, nonce, nonce_len, ct, len, rtag, tag_len, aad,
                aad_len);
  g_opens++;
  PUBLIC(&r, sizeof(r));
  if (r != 0) fail("open accepted a wrong tag", len, aad_len, nonce_len);
  if (!all_zero(out, len)) {
    fail("open left output after a wrong tag", len, aad_len, nonce_len);
  }

  /* In place (out == in), with the right tag. */
  memcpy(buf, ct, len);
  memcpy(rtag, tag, tag_len);
  SECRET(rtag, tag_len);
  r = ops->open(k, buf, nonce, nonce_len, buf, len, rtag, tag_len, aad,
                aad_len);
  g_opens++;
  PUBLIC(&r, sizeof(r));
  if (r != 1 || !same(buf, pt, len)) {
    fail("in-place open", len, aad_len, nonce_len);
  }
}

static void one_shot(const gcm_key *k, size_t len, size_t aad_len,
                     size_t nonce_len, size_t tag_len) {
  one_shot_with(&gcm_ops, k, len, aad_len, nonce_len, tag_len);
}

/* The same message through the streaming API in odd chunks: seal (checked
 * against one-shot), open with the right tag, open with a wrong tag. */
static void streaming(const gcm_key *k, size_t len, size_t aad_len,
                      size_t nonce_len, const size_t *chunks, size_t nchunks) {
  static uint8_t pt[MAX_LEN], ct[MAX_LEN], ct1[MAX_LEN], out[MAX_LEN];
  uint8_t aad[MAX_AAD], nonce[MAX_NONCE], tag[16], tag1[16], rtag[16];
  gcm_stream s;

  if (len > MAX_LEN || aad_len > MAX_AAD || nonce_len > MAX_NONCE) {
    fail("message too long for ct_check's buffers", len, aad_len, nonce_len);
    return;
  }

  fill(pt, len);
  fill(aad, aad_len);
  fill(nonce, nonce_len);
  SECRET(pt, len);

  /* The one-shot reference. */
  SECRET(aad, aad_len);
  if (!gcm_seal(k, ct1, tag1, 16, nonce, nonce_len, pt, len, aad, aad_len)) {
    fail("gcm_seal (stream reference)", len, aad_len, nonce_len);
    return;
  }
  PUBLIC(ct1, len);
  PUBLIC(tag1, 16);

  for (int pass = 0; pass < 3; pass++) {
    const int encrypt = pass == 0;
    int ok = gcm_stream_init(&s, k, encrypt ? GCM_ENCRYPT : GCM_DECRYPT,
                             nonce, nonce_len);
    /* AAD in two pieces, 5 bytes then the rest. */
    size_t a1 = aad_len < 5 ? aad_len : 5;
    SECRET(aad, aad_len);
    ok = ok && gcm_stream_aad(&s, aad, a1);
    ok = ok && gcm_stream_aad(&s, aad + a1, aad_len - a1);
    const uint8_t *src = encrypt ? pt : ct1;
    uint8_t *dst = encrypt ? ct : out;
    for (size_t off = 0, i = 0; ok && off < len; i++) {
      size_t n = chunks[i % nchunks];
      if (n > len - off) n = len - off;
      ok = gcm_stream_update(&s, dst + off, src + off, n);
      off += n;
    }
    if (!ok) {
      fail("streaming call failed", len, aad_len, nonce_len);
      gcm_stream_cleanup(&s);
      return;
    }
    g_streams++;
    if (encrypt) {
      if (!gcm_stream_finish_seal(&s, tag, 16)) {
        fail("gcm_stream_finish_seal", len, aad_len, nonce_len);
        return;
      }
      PUBLIC(ct, len);
      PUBLIC(tag, 16);
      if (memcmp(ct, ct1, len) != 0 || memcmp(tag, tag1, 16) != 0) {
        fail("streaming seal differs from one-shot", len, aad_len, nonce_len);
      }
    } else {
      const int right = pass == 1;
      memcpy(rtag, tag1, 16);
      if (!right) rtag[15 - len % 16] ^= 0x80;
      SECRET(rtag, 16);
      int r = gcm_stream_finish_open(&s, rtag, 16);
      PUBLIC(&r, sizeof(r));
      if (r != right) {
        fail(right ? "gcm_stream_finish_open rejected the right tag"
                   : "gcm_stream_finish_open accepted a wrong tag",
             len, aad_len, nonce_len);
      }
      if (!same(out, pt, len)) {
        fail("streaming open plaintext differs", len, aad_len, nonce_len);
      }
    }
    gcm_stream_cleanup(&s);
  }
}

/* Whether libgcm has a backend of that kind and name at all. */
static int backend_exists(gcm_backend_kind kind, const char *name) {
  gcm_backend_info b;
  for (size_t i = 0; i < gcm_backend_count(); i++) {
    if (gcm_backend_get(i, &b) && b.kind == kind && strcmp(b.name, name) == 0) {
      return 1;
    }
  }
  return 0;
}

static int run_pair(void) {
  static const size_t lens[] = {0, 1, 15, 16, 17, 64, 255, 256, 1000};
  static const size_t aad_lens[] = {0, 1, 13, 16, 20, 33, 64};
  static const size_t nonce_lens[] = {12, 1, 8, 16, 60};
  static const size_t tag_lens[] = {16, 16, 12, 16, 4};
  static const size_t chunks_a[] = {1, 7, 16, 3, 31, 64, 13};
  static const size_t chunks_b[] = {17, 5, 48, 2};
  /* Long whole-block runs, for the bulk and fused paths. */
  static const size_t chunks_c[] = {272, 3, 512};
  /* Whole-block chunks back to back, for a fused kernel's lagged seal:
   * each hashes the one before it, and the stream ends on one (1024
   * bytes) or on a partial block (1000). */
  static const size_t chunks_d[] = {256, 128, 384};
  /* Chunks that end inside a block after a long run, for kernels with
   * stream sizes (crypto/fused/fused.h; aesni_avx takes a run with a
   * partial block behind from 32 blocks): 520 = 32 blocks and 8 bytes
   * (a lagged run, the partial block's key stream behind its pending
   * group), 600 = 8 bytes finishing that block, then 37 blocks. */
  static const size_t chunks_e[] = {520, 600};
  static const size_t key_lens[] = {16, 24, 32};
  const size_t nl = sizeof(lens) / sizeof(lens[0]);
  const size_t na = sizeof(aad_lens) / sizeof(aad_lens[0]);
  const size_t nn = sizeof(nonce_lens) / sizeof(nonce_lens[0]);
  gcm_key k;

  const int fused_named = strcmp(g_fused, "none") != 0;
  if (!backend_exists(GCM_BACKEND_AES, g_aes) ||
      !backend_exists(GCM_BACKEND_GHASH, g_ghash) ||
      (fused_named && !backend_exists(GCM_BACKEND_FUSED, g_fused))) {
    fprintf(stderr, "ct_check: unknown backend in aes=%s ghash=%s fused=%s "
                    "(see --list)\n", g_aes, g_ghash, g_fused);
    return EXIT_USAGE;
  }
  if (!gcm_backend_is_available(GCM_BACKEND_AES, g_aes) ||
      !gcm_backend_is_available(GCM_BACKEND_GHASH, g_ghash) ||
      (fused_named && !gcm_backend_is_available(GCM_BACKEND_FUSED, g_fused))) {
    printf("ct_check: SKIP: aes=%s ghash=%s is not usable here%s\n", g_aes,
           g_ghash,
           RUNNING_ON_VALGRIND ? " (valgrind's virtual CPU may lack the "
                                 "instructions it needs)"
                               : "");
    return EXIT_SKIP;
  }

  /* Every key size: the key schedule differs. One short message each. */
  for (size_t i = 0; i < sizeof(key_lens) / sizeof(key_lens[0]); i++) {
    if (!init_key(&k, key_lens[i])) return EXIT_CHECK_FAILED;
    one_shot(&k, 17, 13, 12, 16);
    one_shot(&k, 33, 0, 16, 16);
    gcm_key_cleanup(&k);
  }

  /* AES-128: every length with a 96-bit nonce and with other nonce lengths
   * (J0 = GHASH_H(nonce ...)), AAD lengths and tag lengths rotating. */
  if (!init_key(&k, 16)) return EXIT_CHECK_FAILED;
  for (size_t i = 0; i < nl; i++) {
    for (size_t j = 0; j < 2; j++) {
      size_t nonce_len = j == 0 ? 12 : nonce_lens[1 + (i % (nn - 1))];
      size_t aad_len = aad_lens[(i + j * 3) % na];
      size_t tag_len = tag_lens[(i + j) % 5];
      one_shot(&k, lens[i], aad_len, nonce_len, tag_len);
    }
  }

  /* Streaming with odd chunk sizes. */
  streaming(&k, 1000, 33, 12, chunks_a, sizeof(chunks_a) / sizeof(size_t));
  streaming(&k, 255, 20, 60, chunks_b, sizeof(chunks_b) / sizeof(size_t));
  streaming(&k, 17, 1, 8, chunks_a, sizeof(chunks_a) / sizeof(size_t));
  streaming(&k, 0, 16, 12, chunks_b, sizeof(chunks_b) / sizeof(size_t));
  streaming(&k, 1000, 13, 12, chunks_c, sizeof(chunks_c) / sizeof(size_t));
  streaming(&k, 1024, 13, 12, chunks_d, sizeof(chunks_d) / sizeof(size_t));
  streaming(&k, 1000, 0, 12, chunks_d, sizeof(chunks_d) / sizeof(size_t));
  streaming(&k, 2000, 13, 12, chunks_e, sizeof(chunks_e) / sizeof(size_t));
  streaming(&k, 520, 13, 12, chunks_e, sizeof(chunks_e) / sizeof(size_t));
  gcm_key_cleanup(&k);

  /* AES-GCM-SIV (RFC 8452) on the same pair and fused kernel when the
   * kernel has AES-GCM-SIV functions: both key sizes, every length with
   * the AAD lengths rotating (up to 1000 bytes: the fused kernels' open
   * and their wide counter mode and POLYVAL run from 16 blocks), and the
   * mode's only nonce and tag sizes. The key-generating key, the
   * plaintext, the AAD and the tag given to open are secret, so the
   * per-nonce keys, POLYVAL and the key stream (whose counter starts from
   * the tag) are too. */
  if (!fused_named || siv_takes_choice()) {
    for (size_t i = 0; i < 2; i++) {
      gcm_siv_key sk;
      if (!init_siv_key(&sk, i == 0 ? 16 : 32)) return EXIT_CHECK_FAILED;
      for (size_t j = 0; j < nl; j++) {
        one_shot_with(&siv_ops, &sk, lens[j], aad_lens[(i + j) % na], 12, 16);
      }
      gcm_siv_key_cleanup(&sk);
    }
  }

  if (RUNNING_ON_VALGRIND) {
    printf("ct_check: aes=%s ghash=%s fused=%s: %lu seals, %lu opens, %lu "
           "streams under valgrind, %ld secret bytes in the AES-128 gcm_key: "
           "%s\n",
           g_aes, g_ghash, g_fused, g_seals, g_opens, g_streams, g_key_secret,
           g_failures == 0 ? "OK" : "FAILED");
  } else {
    printf("ct_check: aes=%s ghash=%s fused=%s: %lu seals, %lu opens, %lu "
           "streams (not under valgrind: functional checks only): %s\n",
           g_aes, g_ghash, g_fused, g_seals, g_opens, g_streams,
           g_failures == 0 ? "OK" : "FAILED");
  }
  return g_failures == 0 ? 0 : EXIT_CHECK_FAILED;
}

/* ---- listing ------------------------------------------------------------ */

/* The first usable backend of `kind` that is constant-time, or NULL. */
static const char *first_ct(gcm_backend_kind kind) {
  gcm_backend_info b;
  for (size_t i = 0; i < gcm_backend_count(); i++) {
    if (gcm_backend_get(i, &b) && b.kind == kind && b.usable &&
        b.constant_time) {
      return b.name;
    }
  }
  return NULL;
}

static int list(int mode) {
  const size_t n = gcm_backend_count();
  gcm_backend_info a, g;
  if (mode == 0) {
    for (size_t i = 0; i < n; i++) {
      if (!gcm_backend_get(i, &a)) continue;
      printf("%-5s %-8s requires=%-12s usable=%d constant_time=%d\n",
             a.kind == GCM_BACKEND_AES     ? "aes"
             : a.kind == GCM_BACKEND_GHASH ? "ghash"
                                           : "fused",
             a.name, a.requires,
             a.usable, a.constant_time);
    }
    return 0;
  }
  if (mode == 1) {
    /* Every combination: fused kernels may exist for particular pairs. */
    for (size_t i = 0; i < n; i++) {
      if (!gcm_backend_get(i, &a) || a.kind != GCM_BACKEND_AES ||
          !a.usable || !a.constant_time) {
        continue;
      }
      for (size_t j = 0; j < n; j++) {
        if (!gcm_backend_get(j, &g) || g.kind != GCM_BACKEND_GHASH ||
            !g.usable || !g.constant_time) {
          continue;
        }
        printf("%s %s none\n", a.name, g.name);
        for (size_t f = 0; f < n; f++) {
          gcm_backend_info fi;
          const char *fa, *fg;
          if (gcm_backend_get(f, &fi) && fi.kind == GCM_BACKEND_FUSED &&
              fi.usable && fi.constant_time &&
              gcm_fused_backend_pair(fi.name, &fa, &fg) &&
              (fa == NULL || strcmp(fa, a.name) == 0) &&
              (fg == NULL || strcmp(fg, g.name) == 0)) {
            printf("%s %s %s\n", a.name, g.name, fi.name);
          }
        }
      }
    }
    return 0;
  }
  /* mode 2: variable-time backends, each with a constant-time partner. */
  for (size_t i = 0; i < n; i++) {
    if (!gcm_backend_get(i, &a) || !a.usable || a.constant_time ||
        a.kind == GCM_BACKEND_FUSED) {
      continue;
    }
    if (a.kind == GCM_BACKEND_AES) {
      const char *partner = first_ct(GCM_BACKEND_GHASH);
      if (partner != NULL) printf("%s %s\n", a.name, partner);
    } else {
      const char *partner = first_ct(GCM_BACKEND_AES);
      if (partner != NULL) printf("%s %s\n", partner, a.name);
    }
  }
  return 0;
}

static int usage(void) {
  fprintf(stderr,
          "usage: ct_check --aes NAME --ghash NAME [--fused NAME|none]\n"
          "                [--seed HEX] [--leak]\n"
          "       ct_check --list | --list-ct-pairs | --list-vt-pairs\n"
          "Run the first form under valgrind memcheck; see the comment at "
          "the top of test/ct/ct_check.c.\n");
  return EXIT_USAGE;
}

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--list") == 0) return list(0);
    if (strcmp(argv[i], "--list-ct-pairs") == 0) return list(1);
    if (strcmp(argv[i], "--list-vt-pairs") == 0) return list(2);
    if (strcmp(argv[i], "--aes") == 0 && i + 1 < argc) {
      g_aes = argv[++i];
    } else if (strcmp(argv[i], "--ghash") == 0 && i + 1 < argc) {
      g_ghash = argv[++i];
    } else if (strcmp(argv[i], "--fused") == 0 && i + 1 < argc) {
      g_fused = argv[++i];
    } else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
      char *end;
      const char *hex = argv[++i];
      unsigned long long v = strtoull(hex, &end, 16);
      if (*hex == '\0' || *end != '\0' || strlen(hex) > 16 || v == 0) {
        fprintf(stderr, "ct_check: --seed wants 1 to 16 hex digits, not "
                        "all zero: '%s'\n", hex);
        return EXIT_USAGE;
      }
      g_rng = (uint64_t)v;
    } else if (strcmp(argv[i], "--leak") == 0) {
      g_leak = 1;
    } else {
      return usage();
    }
  }
  if (g_aes == NULL || g_ghash == NULL) return usage();
  return run_pair();
}
