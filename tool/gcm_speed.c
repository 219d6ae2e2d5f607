/*
 * gcm-speed: libgcm's bundled speed tool.
 *
 * Its result lines read like BoringSSL's `bssl speed`, so figures can be
 * pasted side by side:
 *
 *   Did 123000 AES-128-GCM (16384 bytes) seal operations in 1000123us
 *   (122984.9 ops/sec): 2015.0 MB/s
 *
 * (one line in the real output). MB/s is 10^6 bytes per second of plaintext,
 * the same unit bssl uses. Like bssl, every operation authenticates 13 bytes
 * of additional data (a TLS record header) and writes a 16-byte tag.
 *
 * How a measurement is taken
 * --------------------------
 * One operation is timed first to estimate its cost; then operations run in
 * batches, reading CLOCK_MONOTONIC between batches (about 20 checks per
 * budget, at most 100 ms and 1000 operations apart), until the budget given
 * by --seconds is spent. The figure reported is operations / elapsed time,
 * both printed, exactly as bssl does. With --repeat K each measurement is
 * taken K times and the run with the median throughput is reported (for
 * even K the lower of the two middle runs), which damps the odd interrupted
 * run on a shared machine; --json also lists every run's MB/s. Before the
 * first run of each measurement the operation runs untimed for a tenth of
 * the budget (at most 100 ms) to fault in the buffers and let the clock
 * settle, so the first row of a --compare table is not penalised.
 *
 * Every seal uses a fresh 12-byte nonce (a per-thread prefix and a 64-bit
 * counter). Open cycles through a small ring of ciphertexts sealed
 * beforehand, each under its own nonce, so the nonce changes every
 * operation too; the ring holds about 32 KiB (2 to 16 messages), keeping
 * the working set close to seal's. Every open must succeed, or the tool
 * stops: a failed open is a bug, not a data point.
 *
 * With --chunk N, seal and open go through the streaming API instead:
 * gcm_stream_init, the AAD in one gcm_stream_aad call, the message in
 * N-byte gcm_stream_update calls (the last one shorter), and the finish
 * call, so the figures show what a caller feeding pieces of that size
 * gets; the tag is the same as the one-shot call's.
 *
 * Modes: the default run, --list, --compare (every usable backend pair side
 * by side) and --openssl (the system libcrypto, loaded with dlopen at run
 * time; libgcm never links against it). See usage() for the flags.
 */
#define _POSIX_C_SOURCE 200809L

#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <gcm/gcm.h>

/* ------------------------------------------------------------------------
 * Constants and small helpers
 * ---------------------------------------------------------------------- */

#define EXIT_USAGE 2
#define AAD_LEN 13 /* bssl speed's kTLSADLen for AES-GCM */
#define MAX_SIZES 64
#define MAX_SIZE ((size_t)64 << 20)
#define MAX_THREADS 1024
#define MAX_REPEAT 1000
#define MAX_SECONDS 3600.0
#define RING_BYTES 32768
#define RING_MAX 16

static const char *g_prog = "gcm-speed";
/* --chunk: 0 for one-shot calls, else the streaming update size. */
static size_t g_chunk;

struct algo {
  const char *name;
  size_t key_len;
};

static const struct algo kAlgos[] = {
    {"AES-128-GCM", GCM_KEY_LEN_128},
    {"AES-192-GCM", GCM_KEY_LEN_192},
    {"AES-256-GCM", GCM_KEY_LEN_256},
};
#define NUM_ALGOS (sizeof(kAlgos) / sizeof(kAlgos[0]))

static const size_t kDefaultSizes[] = {16, 256, 1350, 8192, 16384};

enum direction { DIR_SEAL = 1, DIR_OPEN = 2 };
enum impl { IMPL_LIBGCM = 0, IMPL_OPENSSL = 1 };

static void die(const char *fmt, ...) {
  va_list ap;
  fflush(stdout);
  fprintf(stderr, "%s: ", g_prog);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  exit(EXIT_FAILURE);
}

static void *xmalloc(size_t n) {
  void *p = NULL;
  if (n == 0) {
    n = 1;
  }
  /* 64-byte alignment: buffers start on a cache line, as bssl aligns its. */
  if (posix_memalign(&p, 64, n) != 0) {
    die("out of memory (%zu bytes)", n);
  }
  return p;
}

static void *xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (q == NULL) {
    die("out of memory (%zu bytes)", n);
  }
  return q;
}

static uint64_t now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static int str_ieq(const char *a, const char *b) {
  for (; *a && *b; a++, b++) {
    char ca = *a, cb = *b;
    if (ca >= 'a' && ca <= 'z') ca = (char)(ca - 'a' + 'A');
    if (cb >= 'a' && cb <= 'z') cb = (char)(cb - 'a' + 'A');
    if (ca != cb) return 0;
  }
  return *a == *b;
}

static void put_be64(uint8_t *p, uint64_t v) {
  for (int i = 7; i >= 0; i--) {
    p[i] = (uint8_t)v;
    v >>= 8;
  }
}

/* ------------------------------------------------------------------------
 * Options
 * ---------------------------------------------------------------------- */

struct options {
  int list, compare, openssl, json, progress, help;
  int algo_selected[NUM_ALGOS];
  size_t sizes[MAX_SIZES];
  size_t num_sizes;
  double seconds;
  const char *aes, *ghash, *fused;
  size_t chunk; /* 0: one-shot calls; else streaming in chunk-byte pieces */
  int directions; /* bit mask of DIR_SEAL | DIR_OPEN */
  int direction_given;
  const char *baseline; /* "AES/GHASH" or NULL */
  unsigned threads;
  unsigned repeat;
};

static void usage(FILE *f) {
  fprintf(f,
"Usage: %s [options]\n"
"\n"
"Measures libgcm's AES-GCM seal and open and prints lines in the format of\n"
"BoringSSL's `bssl speed` (MB/s = 10^6 bytes/s; 13 bytes of AAD and a\n"
"16-byte tag per operation, a fresh 12-byte nonce every operation).\n"
"\n"
"Modes:\n"
"  (none)                AES-128/192/256-GCM, sizes 16 256 1350 8192 16384,\n"
"                        seal and open, with the default backends\n"
"  --list                list the backends: <aes|ghash|fused> <name>\n"
"                        <usable|unusable> <constant-time|variable-time>, for\n"
"                        fused kernels followed by `for <aes>/<ghash>` (`any`\n"
"                        where a kernel fits every backend of that kind), then\n"
"                        the line `default <aes> <ghash> <fused|none>` (what\n"
"                        gcm_key_init picks now, after LIBGCM_AES, LIBGCM_GHASH,\n"
"                        LIBGCM_FUSED and OPENSSL_ia32cap)\n"
"  --compare             seal with every usable (AES, GHASH) backend pair and\n"
"                        print a table of MB/s per size with the change against\n"
"                        a baseline pair; `*` marks variable-time backends\n"
"  --openssl             also measure the system OpenSSL (libcrypto.so.3, else\n"
"                        libcrypto.so, loaded at run time) and print the ratio\n"
"                        libgcm/OpenSSL; OpenSSL honours OPENSSL_ia32cap as\n"
"                        libgcm does, so both can be held to one CPU tier\n"
"\n"
"Options:\n"
"  --filter LIST         algorithms, comma separated: AES-128-GCM, AES-192-GCM,\n"
"                        AES-256-GCM (case-insensitive)\n"
"  --sizes LIST          message sizes in bytes, comma separated (1..%zu)\n"
"  --seconds S           time budget per measurement (default 1.0)\n"
"  --repeat K            take each measurement K times and report the run with\n"
"                        the median throughput (lower median for even K);\n"
"                        steadier figures on a busy machine (default 1)\n"
"  --direction D         seal, open or both (default both; --compare: seal)\n"
"  --aes NAME            force the AES backend (see --list)\n"
"  --ghash NAME          force the GHASH backend (see --list); with --compare,\n"
"                        --aes/--ghash restrict the pairs compared\n"
"  --fused NAME          force the fused AES-CTR+GHASH kernel (see --list), or\n"
"                        `none` for the two-pass path; default: what\n"
"                        gcm_key_init attaches. With --compare, every pair\n"
"                        the kernel fits is measured with it\n"
"  --chunk N             seal and open through the streaming API: AAD in one\n"
"                        call, the message in N-byte updates (1..%zu)\n"
"  --baseline AES/GHASH  --compare's reference pair. Default: the portable C\n"
"                        pair ct/ct64, which shows what each CPU tier gains;\n"
"                        if either is missing or unusable, the first usable\n"
"                        constant-time AES and GHASH backends in --list order\n"
"  --threads N           N threads share ONE gcm_key, each with its own buffers\n"
"                        and nonces; the line gives their aggregate throughput\n"
"  --json                print one JSON object with every result instead of\n"
"                        text lines\n"
"  --progress            show progress on stderr even when it is not a terminal\n"
"                        (progress is shown by default when stderr is a tty)\n"
"  --help                this text\n"
"\n"
"Exit status: 0 on success, 1 when a measurement or a backend fails, 2 for a\n"
"bad command line.\n",
          g_prog, MAX_SIZE, MAX_SIZE);
}

static void usage_error(const char *fmt, ...) {
  va_list ap;
  fflush(stdout);
  fprintf(stderr, "%s: ", g_prog);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputs("\n\n", stderr);
  usage(stderr);
  exit(EXIT_USAGE);
}

static unsigned long parse_ulong(const char *flag, const char *s,
                                 unsigned long min, unsigned long max) {
  char *end;
  unsigned long v;
  if (*s < '0' || *s > '9') {
    usage_error("%s: '%s' is not a number", flag, s);
  }
  errno = 0;
  v = strtoul(s, &end, 10);
  if (errno != 0 || *end != '\0') {
    usage_error("%s: '%s' is not a number", flag, s);
  }
  if (v < min || v > max) {
    usage_error("%s: %s is out of range (%lu..%lu)", flag, s, min, max);
  }
  return v;
}

static double parse_seconds(const char *s) {
  char *end;
  double v;
  errno = 0;
  v = strtod(s, &end);
  if (errno != 0 || end == s || *end != '\0' || !isfinite(v)) {
    usage_error("--seconds: '%s' is not a number", s);
  }
  if (v <= 0.0 || v > MAX_SECONDS) {
    usage_error("--seconds: %s is out of range (0..%.0f]", s, MAX_SECONDS);
  }
  return v;
}

/* Splits a comma-separated list in place and calls fn on each item. */
static void for_each_item(const char *flag, const char *list,
                          void (*fn)(struct options *, const char *, const char *),
                          struct options *o) {
  size_t n = strlen(list);
  char *copy = xmalloc(n + 1);
  char *p = copy, *comma;
  memcpy(copy, list, n + 1);
  if (n == 0) {
    usage_error("%s: empty list", flag);
  }
  for (;;) {
    comma = strchr(p, ',');
    if (comma != NULL) *comma = '\0';
    if (*p == '\0') {
      usage_error("%s: empty item in '%s'", flag, list);
    }
    fn(o, flag, p);
    if (comma == NULL) break;
    p = comma + 1;
  }
  free(copy);
}

static void add_algo(struct options *o, const char *flag, const char *name) {
  for (size_t i = 0; i < NUM_ALGOS; i++) {
    if (str_ieq(name, kAlgos[i].name)) {
      o->algo_selected[i] = 1;
      return;
    }
  }
  usage_error("%s: unknown algorithm '%s' (known: AES-128-GCM, AES-192-GCM, "
              "AES-256-GCM)",
              flag, name);
}

static void add_size(struct options *o, const char *flag, const char *s) {
  if (o->num_sizes == MAX_SIZES) {
    usage_error("%s: at most %d sizes", flag, MAX_SIZES);
  }
  o->sizes[o->num_sizes++] = (size_t)parse_ulong(flag, s, 1, MAX_SIZE);
}

static void parse_args(struct options *o, int argc, char **argv) {
  int any_algo = 0;
  memset(o, 0, sizeof(*o));
  o->seconds = 1.0;
  o->threads = 1;
  o->repeat = 1;

  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    const char *val = NULL;
    char name[32];
    const char *eq;
    size_t name_len;

    if (strncmp(arg, "--", 2) != 0) {
      usage_error("unexpected argument '%s'", arg);
    }
    eq = strchr(arg, '=');
    name_len = eq ? (size_t)(eq - arg) : strlen(arg);
    if (name_len >= sizeof(name)) {
      usage_error("unknown option '%s'", arg);
    }
    memcpy(name, arg, name_len);
    name[name_len] = '\0';

#define FLAG(s) (strcmp(name, s) == 0)
    /* Flags without a value. */
    if (FLAG("--help") || FLAG("--list") || FLAG("--compare") ||
        FLAG("--openssl") || FLAG("--json") || FLAG("--progress")) {
      if (eq != NULL) {
        usage_error("%s takes no value", name);
      }
      if (FLAG("--help")) o->help = 1;
      else if (FLAG("--list")) o->list = 1;
      else if (FLAG("--compare")) o->compare = 1;
      else if (FLAG("--openssl")) o->openssl = 1;
      else if (FLAG("--json")) o->json = 1;
      else o->progress = 1;
      continue;
    }
    if (!(FLAG("--filter") || FLAG("--sizes") || FLAG("--seconds") ||
          FLAG("--aes") || FLAG("--ghash") || FLAG("--fused") ||
          FLAG("--chunk") || FLAG("--direction") ||
          FLAG("--baseline") || FLAG("--threads") || FLAG("--repeat"))) {
      usage_error("unknown option '%s'", arg);
    }
    if (eq != NULL) {
      val = eq + 1;
    } else if (i + 1 < argc) {
      val = argv[++i];
    } else {
      usage_error("%s needs a value", name);
    }

    if (FLAG("--filter")) {
      for_each_item(name, val, add_algo, o);
      any_algo = 1;
    } else if (FLAG("--sizes")) {
      o->num_sizes = 0;
      for_each_item(name, val, add_size, o);
    } else if (FLAG("--seconds")) {
      o->seconds = parse_seconds(val);
    } else if (FLAG("--aes")) {
      if (*val == '\0') usage_error("--aes: empty backend name");
      o->aes = val;
    } else if (FLAG("--ghash")) {
      if (*val == '\0') usage_error("--ghash: empty backend name");
      o->ghash = val;
    } else if (FLAG("--fused")) {
      if (*val == '\0') usage_error("--fused: empty backend name");
      o->fused = val;
    } else if (FLAG("--chunk")) {
      o->chunk = (size_t)parse_ulong(name, val, 1, MAX_SIZE);
    } else if (FLAG("--direction")) {
      if (strcmp(val, "seal") == 0) o->directions = DIR_SEAL;
      else if (strcmp(val, "open") == 0) o->directions = DIR_OPEN;
      else if (strcmp(val, "both") == 0) o->directions = DIR_SEAL | DIR_OPEN;
      else usage_error("--direction: '%s' is not seal, open or both", val);
      o->direction_given = 1;
    } else if (FLAG("--baseline")) {
      const char *slash = strchr(val, '/');
      if (slash == NULL || slash == val || slash[1] == '\0' ||
          strchr(slash + 1, '/') != NULL) {
        usage_error("--baseline: '%s' is not AES/GHASH (e.g. ct/ct64)", val);
      }
      o->baseline = val;
    } else if (FLAG("--threads")) {
      o->threads = (unsigned)parse_ulong(name, val, 1, MAX_THREADS);
    } else if (FLAG("--repeat")) {
      o->repeat = (unsigned)parse_ulong(name, val, 1, MAX_REPEAT);
    }
#undef FLAG
  }

  if (!any_algo) {
    for (size_t i = 0; i < NUM_ALGOS; i++) o->algo_selected[i] = 1;
  }
  if (o->num_sizes == 0) {
    o->num_sizes = sizeof(kDefaultSizes) / sizeof(kDefaultSizes[0]);
    memcpy(o->sizes, kDefaultSizes, sizeof(kDefaultSizes));
  }
  if (!o->direction_given) {
    o->directions = o->compare ? DIR_SEAL : (DIR_SEAL | DIR_OPEN);
  }
  if (o->baseline != NULL && !o->compare) {
    usage_error("--baseline only makes sense with --compare");
  }
  if (o->chunk != 0 && o->openssl) {
    usage_error("--chunk measures libgcm's streaming API only; it cannot be "
                "combined with --openssl");
  }
  if (o->list && (o->compare || o->openssl || o->json)) {
    usage_error("--list cannot be combined with --compare, --openssl or "
                "--json");
  }
}

/* ------------------------------------------------------------------------
 * OpenSSL, loaded at run time
 * ---------------------------------------------------------------------- */

/* Values of EVP_CTRL_GCM_SET_IVLEN, _GET_TAG and _SET_TAG in OpenSSL's ABI. */
#define OSSL_CTRL_GCM_SET_IVLEN 0x9
#define OSSL_CTRL_GCM_GET_TAG 0x10
#define OSSL_CTRL_GCM_SET_TAG 0x11

struct ossl {
  void *handle;
  const char *soname;
  const char *version;
  void *(*ctx_new)(void);
  void (*ctx_free)(void *);
  int (*ctrl)(void *, int, int, void *);
  const void *(*cipher[NUM_ALGOS])(void);
  int (*enc_init)(void *, const void *, void *, const uint8_t *,
                  const uint8_t *);
  int (*enc_update)(void *, uint8_t *, int *, const uint8_t *, int);
  int (*enc_final)(void *, uint8_t *, int *);
  int (*dec_init)(void *, const void *, void *, const uint8_t *,
                  const uint8_t *);
  int (*dec_update)(void *, uint8_t *, int *, const uint8_t *, int);
  int (*dec_final)(void *, uint8_t *, int *);
};

static struct ossl g_ossl;

static void *ossl_sym(const char *name, int required) {
  void *p = dlsym(g_ossl.handle, name);
  if (p == NULL && required) {
    die("%s has no symbol %s; --openssl needs OpenSSL 1.1 or later",
        g_ossl.soname, name);
  }
  return p;
}

static void ossl_load(void) {
  static const char *const kNames[] = {"libcrypto.so.3", "libcrypto.so"};
  static const char *const kCiphers[NUM_ALGOS] = {
      "EVP_aes_128_gcm", "EVP_aes_192_gcm", "EVP_aes_256_gcm"};
  const char *(*version)(int);

  for (size_t i = 0; i < sizeof(kNames) / sizeof(kNames[0]); i++) {
    g_ossl.handle = dlopen(kNames[i], RTLD_NOW | RTLD_LOCAL);
    if (g_ossl.handle != NULL) {
      g_ossl.soname = kNames[i];
      break;
    }
  }
  if (g_ossl.handle == NULL) {
    die("--openssl: cannot load OpenSSL's libcrypto (tried libcrypto.so.3 "
        "and libcrypto.so); install OpenSSL's shared library or run without "
        "--openssl");
  }
  g_ossl.ctx_new = (void *(*)(void))ossl_sym("EVP_CIPHER_CTX_new", 1);
  g_ossl.ctx_free = (void (*)(void *))ossl_sym("EVP_CIPHER_CTX_free", 1);
  g_ossl.ctrl = (int (*)(void *, int, int, void *))ossl_sym(
      "EVP_CIPHER_CTX_ctrl", 1);
  for (size_t i = 0; i < NUM_ALGOS; i++) {
    g_ossl.cipher[i] = (const void *(*)(void))ossl_sym(kCiphers[i], 1);
  }
  g_ossl.enc_init = (int (*)(void *, const void *, void *, const uint8_t *,
                             const uint8_t *))ossl_sym("EVP_EncryptInit_ex", 1);
  g_ossl.enc_update = (int (*)(void *, uint8_t *, int *, const uint8_t *,
                               int))ossl_sym("EVP_EncryptUpdate", 1);
  g_ossl.enc_final =
      (int (*)(void *, uint8_t *, int *))ossl_sym("EVP_EncryptFinal_ex", 1);
  g_ossl.dec_init = (int (*)(void *, const void *, void *, const uint8_t *,
                             const uint8_t *))ossl_sym("EVP_DecryptInit_ex", 1);
  g_ossl.dec_update = (int (*)(void *, uint8_t *, int *, const uint8_t *,
                               int))ossl_sym("EVP_DecryptUpdate", 1);
  g_ossl.dec_final =
      (int (*)(void *, uint8_t *, int *))ossl_sym("EVP_DecryptFinal_ex", 1);
  version = (const char *(*)(int))ossl_sym("OpenSSL_version", 0);
  g_ossl.version = version ? version(0 /* OPENSSL_VERSION */) : NULL;
  if (g_ossl.version == NULL) g_ossl.version = g_ossl.soname;
}

/* A context keyed once; each operation then sets only the IV, as
 * `openssl speed -aead` does. */
static void *ossl_ctx(size_t algo, const uint8_t *key, int dir) {
  void *ctx = g_ossl.ctx_new();
  int ok;
  if (ctx == NULL) die("OpenSSL: EVP_CIPHER_CTX_new failed");
  if (dir == DIR_SEAL) {
    ok = g_ossl.enc_init(ctx, g_ossl.cipher[algo](), NULL, NULL, NULL) &&
         g_ossl.ctrl(ctx, OSSL_CTRL_GCM_SET_IVLEN, GCM_NONCE_LEN, NULL) &&
         g_ossl.enc_init(ctx, NULL, NULL, key, NULL);
  } else {
    ok = g_ossl.dec_init(ctx, g_ossl.cipher[algo](), NULL, NULL, NULL) &&
         g_ossl.ctrl(ctx, OSSL_CTRL_GCM_SET_IVLEN, GCM_NONCE_LEN, NULL) &&
         g_ossl.dec_init(ctx, NULL, NULL, key, NULL);
  }
  if (!ok) die("OpenSSL: cannot set up %s", kAlgos[algo].name);
  return ctx;
}

static int ossl_seal(void *ctx, uint8_t *out, uint8_t *tag,
                     const uint8_t *nonce, const uint8_t *in, size_t len,
                     const uint8_t *aad) {
  int l1 = 0, l2 = 0;
  return g_ossl.enc_init(ctx, NULL, NULL, NULL, nonce) &&
         g_ossl.enc_update(ctx, NULL, &l1, aad, AAD_LEN) &&
         g_ossl.enc_update(ctx, out, &l1, in, (int)len) &&
         g_ossl.enc_final(ctx, out + l1, &l2) &&
         g_ossl.ctrl(ctx, OSSL_CTRL_GCM_GET_TAG, GCM_TAG_LEN, tag);
}

static int ossl_open(void *ctx, uint8_t *out, const uint8_t *nonce,
                     const uint8_t *in, size_t len, const uint8_t *tag,
                     const uint8_t *aad) {
  int l1 = 0, l2 = 0;
  return g_ossl.dec_init(ctx, NULL, NULL, NULL, nonce) &&
         g_ossl.dec_update(ctx, NULL, &l1, aad, AAD_LEN) &&
         g_ossl.dec_update(ctx, out, &l1, in, (int)len) &&
         g_ossl.ctrl(ctx, OSSL_CTRL_GCM_SET_TAG, GCM_TAG_LEN, (void *)tag) &&
         g_ossl.dec_final(ctx, out + l1, &l2) > 0;
}

/* ------------------------------------------------------------------------
 * Measurement
 * ---------------------------------------------------------------------- */

/* What one measurement runs: fixed for all its threads. */
struct job {
  size_t algo;
  size_t size;
  int dir;
  int impl;
  const gcm_key *key; /* shared by every thread (libgcm promises this) */
  const uint8_t *key_bytes;
  uint64_t budget_us;
  uint64_t warmup_us; /* untimed operations first, to fault in the buffers
                         and let the clock speed settle */
  pthread_barrier_t *barrier;
};

/* One thread's private state. */
struct worker {
  const struct job *job;
  unsigned index;
  uint8_t aad[AAD_LEN];
  uint8_t nonce[GCM_NONCE_LEN];
  uint8_t tag[GCM_TAG_LEN];
  uint8_t *in, *out;
  uint8_t *ring;        /* open: ring_len ciphertexts of job->size bytes */
  uint8_t *ring_tags;   /* open: their tags */
  uint8_t *ring_nonces; /* open: their nonces */
  size_t ring_len, ring_next;
  uint64_t counter;
  void *ossl_ctx;
  /* Results. */
  uint64_t ops, start, end;
  int failed;
  char error[256];
};

static void make_nonce(uint8_t nonce[GCM_NONCE_LEN], unsigned thread,
                       uint64_t counter) {
  nonce[0] = (uint8_t)(thread >> 24);
  nonce[1] = (uint8_t)(thread >> 16);
  nonce[2] = (uint8_t)(thread >> 8);
  nonce[3] = (uint8_t)thread;
  put_be64(nonce + 4, counter);
}

static void worker_prepare(struct worker *w, const struct job *j,
                           unsigned index) {
  memset(w, 0, sizeof(*w));
  w->job = j;
  w->index = index;
  for (size_t i = 0; i < AAD_LEN; i++) w->aad[i] = (uint8_t)(0xa0 + i);
  w->in = xmalloc(j->size);
  w->out = xmalloc(j->size);
  for (size_t i = 0; i < j->size; i++) w->in[i] = (uint8_t)(i * 131 + index);

  if (j->dir == DIR_OPEN) {
    size_t n = RING_BYTES / j->size;
    if (n < 2) n = 2;
    if (n > RING_MAX) n = RING_MAX;
    w->ring_len = n;
    w->ring = xmalloc(n * j->size);
    w->ring_tags = xmalloc(n * GCM_TAG_LEN);
    w->ring_nonces = xmalloc(n * GCM_NONCE_LEN);
    for (size_t r = 0; r < n; r++) {
      uint8_t *nonce = w->ring_nonces + r * GCM_NONCE_LEN;
      make_nonce(nonce, index, r);
      /* Sealed by libgcm; the OpenSSL open run then doubles as an
       * interoperability check. */
      if (!gcm_seal(j->key, w->ring + r * j->size,
                    w->ring_tags + r * GCM_TAG_LEN, GCM_TAG_LEN, nonce,
                    GCM_NONCE_LEN, w->in, j->size, w->aad, AAD_LEN)) {
        die("gcm_seal failed while preparing ciphertexts: %s",
            gcm_last_error_message());
      }
    }
  }
  if (j->impl == IMPL_OPENSSL) {
    w->ossl_ctx = ossl_ctx(j->algo, j->key_bytes, j->dir);
  }
}

static void worker_release(struct worker *w) {
  free(w->in);
  free(w->out);
  free(w->ring);
  free(w->ring_tags);
  free(w->ring_nonces);
  if (w->ossl_ctx != NULL) g_ossl.ctx_free(w->ossl_ctx);
}

/* One message through the streaming API in g_chunk-byte updates. */
static int stream_op(const struct job *j, const uint8_t *nonce, uint8_t *out,
                     const uint8_t *in, uint8_t *tag, const uint8_t *aad) {
  gcm_stream s;
  const int seal = j->dir == DIR_SEAL;
  int ok = gcm_stream_init(&s, j->key, seal ? GCM_ENCRYPT : GCM_DECRYPT,
                           nonce, GCM_NONCE_LEN) &&
           gcm_stream_aad(&s, aad, AAD_LEN);
  for (size_t off = 0; ok && off < j->size; off += g_chunk) {
    size_t n = j->size - off < g_chunk ? j->size - off : g_chunk;
    ok = gcm_stream_update(&s, out + off, in + off, n);
  }
  if (ok) {
    ok = seal ? gcm_stream_finish_seal(&s, tag, GCM_TAG_LEN)
              : gcm_stream_finish_open(&s, tag, GCM_TAG_LEN);
  }
  gcm_stream_cleanup(&s);
  return ok;
}

static int worker_op(struct worker *w) {
  const struct job *j = w->job;
  if (j->dir == DIR_SEAL) {
    make_nonce(w->nonce, w->index, w->counter++);
    if (j->impl == IMPL_LIBGCM && g_chunk != 0) {
      return stream_op(j, w->nonce, w->out, w->in, w->tag, w->aad);
    }
    if (j->impl == IMPL_LIBGCM) {
      return gcm_seal(j->key, w->out, w->tag, GCM_TAG_LEN, w->nonce,
                      GCM_NONCE_LEN, w->in, j->size, w->aad, AAD_LEN);
    }
    return ossl_seal(w->ossl_ctx, w->out, w->tag, w->nonce, w->in, j->size,
                     w->aad);
  } else {
    size_t r = w->ring_next;
    const uint8_t *nonce = w->ring_nonces + r * GCM_NONCE_LEN;
    const uint8_t *ct = w->ring + r * j->size;
    const uint8_t *tag = w->ring_tags + r * GCM_TAG_LEN;
    w->ring_next = (r + 1 == w->ring_len) ? 0 : r + 1;
    if (j->impl == IMPL_LIBGCM && g_chunk != 0) {
      return stream_op(j, nonce, w->out, ct, (uint8_t *)tag, w->aad);
    }
    if (j->impl == IMPL_LIBGCM) {
      return gcm_open(j->key, w->out, nonce, GCM_NONCE_LEN, ct, j->size, tag,
                      GCM_TAG_LEN, w->aad, AAD_LEN);
    }
    return ossl_open(w->ossl_ctx, w->out, nonce, ct, j->size, tag, w->aad);
  }
}

static void worker_fail(struct worker *w) {
  const struct job *j = w->job;
  w->failed = 1;
  if (j->impl == IMPL_LIBGCM) {
    snprintf(w->error, sizeof(w->error), "gcm_%s failed: %s",
             j->dir == DIR_SEAL ? "seal" : "open", gcm_last_error_message());
  } else if (j->dir == DIR_OPEN) {
    snprintf(w->error, sizeof(w->error),
             "OpenSSL rejected a ciphertext sealed by libgcm: libgcm and "
             "OpenSSL disagree on %s",
             kAlgos[j->algo].name);
  } else {
    snprintf(w->error, sizeof(w->error), "OpenSSL seal failed");
  }
}

/* The bssl-style timing loop: run until the budget is spent, checking the
 * clock between batches sized from the cost of a first operation. */
static void *worker_run(void *arg) {
  struct worker *w = arg;
  const uint64_t budget = w->job->budget_us;
  uint64_t start, t, delta, aim, batch;

  if (w->job->barrier != NULL) {
    pthread_barrier_wait(w->job->barrier);
  }
  if (w->job->warmup_us != 0) {
    const uint64_t until = now_us() + w->job->warmup_us;
    do {
      if (!worker_op(w)) {
        worker_fail(w);
        return NULL;
      }
    } while (now_us() < until);
  }
  start = now_us();
  w->start = start;
  if (!worker_op(w)) {
    worker_fail(w);
    w->end = now_us();
    return NULL;
  }
  w->ops = 1;
  t = now_us();
  delta = t - start;
  aim = budget / 20;
  if (aim > 100000) aim = 100000;
  if (aim == 0) aim = 1;
  if (delta == 0) {
    batch = 250;
  } else {
    batch = aim / delta;
    if (batch > 1000) batch = 1000;
    if (batch < 1) batch = 1;
  }
  while (t - start < budget) {
    for (uint64_t i = 0; i < batch; i++) {
      if (!worker_op(w)) {
        worker_fail(w);
        w->end = now_us();
        return NULL;
      }
    }
    w->ops += batch;
    t = now_us();
  }
  w->end = t;
  return NULL;
}

struct sample {
  uint64_t ops;
  uint64_t us;
};

static double sample_mbps(const struct sample *s, size_t size) {
  return s->us ? (double)s->ops * (double)size / (double)s->us : 0.0;
}

static double sample_opsps(const struct sample *s) {
  return s->us ? (double)s->ops * 1e6 / (double)s->us : 0.0;
}

/* One timed run of `job` on `threads` threads. Exits on failure. */
static struct sample run_job(struct job *job, unsigned threads) {
  struct worker *w = xmalloc(sizeof(*w) * threads);
  struct sample s = {0, 0};
  pthread_barrier_t barrier;
  uint64_t first = UINT64_MAX, last = 0;

  for (unsigned i = 0; i < threads; i++) worker_prepare(&w[i], job, i);

  if (threads == 1) {
    job->barrier = NULL;
    worker_run(&w[0]);
  } else {
    pthread_t *tid = xmalloc(sizeof(*tid) * threads);
    if (pthread_barrier_init(&barrier, NULL, threads) != 0) {
      die("pthread_barrier_init failed");
    }
    job->barrier = &barrier;
    for (unsigned i = 0; i < threads; i++) {
      int err = pthread_create(&tid[i], NULL, worker_run, &w[i]);
      if (err != 0) die("cannot start thread %u: %s", i, strerror(err));
    }
    for (unsigned i = 0; i < threads; i++) pthread_join(tid[i], NULL);
    pthread_barrier_destroy(&barrier);
    job->barrier = NULL;
    free(tid);
  }

  for (unsigned i = 0; i < threads; i++) {
    if (w[i].failed) die("%s", w[i].error);
    s.ops += w[i].ops;
    if (w[i].start < first) first = w[i].start;
    if (w[i].end > last) last = w[i].end;
    worker_release(&w[i]);
  }
  /* Aggregate: every operation of every thread over the wall time from the
   * first thread's start to the last thread's end. */
  s.us = last > first ? last - first : 1;
  free(w);
  return s;
}

static int cmp_rate(const void *a, const void *b) {
  const struct sample *x = a, *y = b;
  /* Compare ops/us without division: x.ops * y.us vs y.ops * x.us. */
  long double l = (long double)x->ops * (long double)y->us;
  long double r = (long double)y->ops * (long double)x->us;
  return (l > r) - (l < r);
}

/* ------------------------------------------------------------------------
 * Results, progress and output
 * ---------------------------------------------------------------------- */

struct result {
  size_t algo;
  size_t size;
  int dir;
  int impl;
  char aes[32], ghash[32], fused[32];
  int variable_time;
  struct sample median;
  double *runs_mbps; /* repeat entries */
  unsigned runs;
  int has_openssl;
  struct sample openssl;
  double *openssl_runs_mbps;
};

static struct {
  int enabled, tty;
  unsigned done, total;
} g_progress;

static void progress_show(const char *what) {
  if (!g_progress.enabled) return;
  g_progress.done++;
  if (g_progress.tty) {
    fprintf(stderr, "\r\033[K[%u/%u] %s ...", g_progress.done,
            g_progress.total, what);
  } else {
    fprintf(stderr, "[%u/%u] %s\n", g_progress.done, g_progress.total, what);
  }
  fflush(stderr);
}

static void progress_clear(void) {
  if (g_progress.enabled && g_progress.tty) {
    fputs("\r\033[K", stderr);
    fflush(stderr);
  }
}

static void describe(char *buf, size_t n, size_t algo, size_t size, int dir,
                     unsigned threads) {
  char th[32] = "", ch[48] = "";
  if (threads > 1) snprintf(th, sizeof(th), " (%u threads)", threads);
  if (g_chunk != 0) {
    snprintf(ch, sizeof(ch), ", streamed in %zu-byte chunks", g_chunk);
  }
  snprintf(buf, n, "%s (%zu byte%s%s) %s%s", kAlgos[algo].name, size,
           size == 1 ? "" : "s", ch, dir == DIR_SEAL ? "seal" : "open", th);
}

static void print_line(const char *prefix, const char *desc,
                       const struct sample *s, size_t size) {
  printf("Did %llu %s%s operations in %lluus (%.1f ops/sec): %.1f MB/s",
         (unsigned long long)s->ops, prefix, desc, (unsigned long long)s->us,
         sample_opsps(s), sample_mbps(s, size));
}

/* Runs one measurement `repeat` times and returns the median run. */
static struct sample measure(struct job *job, const struct options *o,
                             double **runs_out) {
  struct sample *runs = xmalloc(sizeof(*runs) * o->repeat);
  struct sample median;
  double *mbps = xmalloc(sizeof(double) * o->repeat);
  char desc[128], what[192];

  describe(desc, sizeof(desc), job->algo, job->size, job->dir, o->threads);
  for (unsigned k = 0; k < o->repeat; k++) {
    if (o->repeat > 1) {
      snprintf(what, sizeof(what), "%s%s, run %u/%u",
               job->impl == IMPL_OPENSSL ? "OpenSSL " : "", desc, k + 1,
               o->repeat);
    } else {
      snprintf(what, sizeof(what), "%s%s",
               job->impl == IMPL_OPENSSL ? "OpenSSL " : "", desc);
    }
    progress_show(what);
    /* Warm up before the first run only: a tenth of the budget, at most
     * 100 ms. */
    job->warmup_us = k == 0 ? job->budget_us / 10 : 0;
    if (job->warmup_us > 100000) job->warmup_us = 100000;
    runs[k] = run_job(job, o->threads);
    mbps[k] = sample_mbps(&runs[k], job->size);
  }
  progress_clear();
  qsort(runs, o->repeat, sizeof(*runs), cmp_rate);
  median = runs[(o->repeat - 1) / 2];
  free(runs);
  *runs_out = mbps;
  return median;
}

static void json_string(const char *s) {
  putchar('"');
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') printf("\\%c", c);
    else if (c < 0x20) printf("\\u%04x", c);
    else putchar(c);
  }
  putchar('"');
}

static void json_runs(const double *v, unsigned n) {
  printf("[");
  for (unsigned i = 0; i < n; i++) printf("%s%.1f", i ? ", " : "", v[i]);
  printf("]");
}

static void json_results(const struct result *r, size_t n,
                         const struct options *o, const char *baseline_aes,
                         const char *baseline_ghash) {
  printf("{\n  \"tool\": \"gcm-speed\",\n  \"libgcm_version\": ");
  json_string(gcm_version());
  printf(",\n  \"mode\": \"%s\",\n", o->compare ? "compare" : "speed");
  printf("  \"seconds\": %g,\n  \"repeat\": %u,\n  \"threads\": %u,\n",
         o->seconds, o->repeat, o->threads);
  printf("  \"aad_bytes\": %d,\n  \"tag_bytes\": %d,\n", AAD_LEN,
         GCM_TAG_LEN);
  printf("  \"chunk_bytes\": %zu,\n", g_chunk);
  if (o->openssl) {
    printf("  \"openssl_version\": ");
    json_string(g_ossl.version);
    printf(",\n");
  }
  if (o->compare) {
    printf("  \"baseline\": {\"aes\": ");
    json_string(baseline_aes);
    printf(", \"ghash\": ");
    json_string(baseline_ghash);
    printf("},\n");
  }
  printf("  \"results\": [");
  for (size_t i = 0; i < n; i++) {
    const struct result *x = &r[i];
    printf("%s\n    {\"algorithm\": \"%s\", \"size\": %zu, \"direction\": "
           "\"%s\", ",
           i ? "," : "", kAlgos[x->algo].name, x->size,
           x->dir == DIR_SEAL ? "seal" : "open");
    if (x->impl == IMPL_OPENSSL) {
      /* Same fields as every other row, so consumers need no special case. */
      printf("\"implementation\": \"openssl\", \"aes\": \"openssl\", "
             "\"ghash\": \"openssl\", \"fused\": \"openssl\", "
             "\"variable_time\": false, ");
    } else {
      printf("\"implementation\": \"libgcm\", \"aes\": ");
      json_string(x->aes);
      printf(", \"ghash\": ");
      json_string(x->ghash);
      printf(", \"fused\": ");
      json_string(x->fused);
      printf(", \"variable_time\": %s, ", x->variable_time ? "true" : "false");
    }
    printf("\"ops\": %llu, \"microseconds\": %llu, \"ops_per_s\": %.1f, "
           "\"mb_per_s\": %.1f",
           (unsigned long long)x->median.ops,
           (unsigned long long)x->median.us, sample_opsps(&x->median),
           sample_mbps(&x->median, x->size));
    if (x->runs > 1) {
      printf(", \"runs_mb_per_s\": ");
      json_runs(x->runs_mbps, x->runs);
    }
    if (x->has_openssl) {
      double mine = sample_mbps(&x->median, x->size);
      double theirs = sample_mbps(&x->openssl, x->size);
      printf(", \"openssl\": {\"ops\": %llu, \"microseconds\": %llu, "
             "\"ops_per_s\": %.1f, \"mb_per_s\": %.1f",
             (unsigned long long)x->openssl.ops,
             (unsigned long long)x->openssl.us, sample_opsps(&x->openssl),
             theirs);
      if (x->runs > 1) {
        printf(", \"runs_mb_per_s\": ");
        json_runs(x->openssl_runs_mbps, x->runs);
      }
      printf("}, \"ratio_libgcm_openssl\": %.3f",
             theirs > 0 ? mine / theirs : 0.0);
    }
    printf("}");
  }
  printf("\n  ]\n}\n");
}

/* ------------------------------------------------------------------------
 * Backends
 * ---------------------------------------------------------------------- */

struct backend {
  char name[32];
  int usable, constant_time;
};

struct backends {
  struct backend aes[64], ghash[64];
  size_t num_aes, num_ghash;
};

static void load_backends(struct backends *b) {
  size_t n = gcm_backend_count();
  memset(b, 0, sizeof(*b));
  for (size_t i = 0; i < n; i++) {
    gcm_backend_info info;
    struct backend *e;
    if (!gcm_backend_get(i, &info)) continue;
    if (info.kind == GCM_BACKEND_AES && b->num_aes < 64) {
      e = &b->aes[b->num_aes++];
    } else if (info.kind == GCM_BACKEND_GHASH && b->num_ghash < 64) {
      e = &b->ghash[b->num_ghash++];
    } else {
      continue;
    }
    snprintf(e->name, sizeof(e->name), "%s", info.name ? info.name : "?");
    e->usable = info.usable;
    e->constant_time = info.constant_time;
  }
}

static const struct backend *find_backend(const struct backend *v, size_t n,
                                          const char *name) {
  for (size_t i = 0; i < n; i++) {
    if (strcmp(v[i].name, name) == 0) return &v[i];
  }
  return NULL;
}

static int cmd_list(void) {
  size_t n = gcm_backend_count();
  const char *aes = NULL, *ghash = NULL, *fused = NULL;
  for (size_t i = 0; i < n; i++) {
    gcm_backend_info info;
    const char *kind;
    if (!gcm_backend_get(i, &info)) continue;
    if (info.kind == GCM_BACKEND_AES) kind = "aes";
    else if (info.kind == GCM_BACKEND_GHASH) kind = "ghash";
    else if (info.kind == GCM_BACKEND_FUSED) kind = "fused";
    else continue;
    printf("%s %s %s %s", kind, info.name,
           info.usable ? "usable" : "unusable",
           info.constant_time ? "constant-time" : "variable-time");
    if (info.kind == GCM_BACKEND_FUSED) {
      const char *fa = NULL, *fg = NULL;
      gcm_fused_backend_pair(info.name, &fa, &fg);
      printf(" for %s/%s", fa ? fa : "any", fg ? fg : "any");
    }
    putchar('\n');
  }
  if (!gcm_default_backends(&aes, &ghash) ||
      !gcm_default_fused_backend(&fused)) {
    fflush(stdout);
    fprintf(stderr, "%s: %s\n", g_prog, gcm_last_error_message());
    return EXIT_FAILURE;
  }
  printf("default %s %s %s\n", aes, ghash, fused);
  return EXIT_SUCCESS;
}

static void key_bytes_for(uint8_t key[32]) {
  for (int i = 0; i < 32; i++) key[i] = (uint8_t)(0x11 * (i + 1) ^ 0x5c);
}

/* The --fused choice, NULL for the default. */
static const char *g_fused;

/* Initialises `k` or explains why not. Returns 1 on success. */
static int init_key(gcm_key *k, size_t algo, const char *aes,
                    const char *ghash) {
  uint8_t key[32];
  key_bytes_for(key);
  if (aes == NULL && ghash == NULL && g_fused == NULL) {
    return gcm_key_init(k, key, kAlgos[algo].key_len);
  }
  return gcm_key_init_with_fused(k, key, kAlgos[algo].key_len, aes, ghash,
                                 g_fused);
}

/* 1 when the --fused kernel (if any) can serve the pair aes/ghash. */
static int fused_fits(const char *aes, const char *ghash) {
  const char *fa = NULL, *fg = NULL;
  if (g_fused == NULL || strcmp(g_fused, "none") == 0) return 1;
  if (!gcm_fused_backend_pair(g_fused, &fa, &fg)) return 1; /* init says why */
  return (fa == NULL || strcmp(fa, aes) == 0) &&
         (fg == NULL || strcmp(fg, ghash) == 0);
}

static int backend_is_variable_time(const struct backends *b, const char *aes,
                                    const char *ghash) {
  const struct backend *x = find_backend(b->aes, b->num_aes, aes);
  const struct backend *y = find_backend(b->ghash, b->num_ghash, ghash);
  return (x != NULL && !x->constant_time) || (y != NULL && !y->constant_time);
}

/* When --openssl: libgcm and OpenSSL must produce the same bytes. */
static void cross_check(size_t algo, size_t size, const gcm_key *k,
                        const uint8_t *key) {
  uint8_t *in = xmalloc(size), *a = xmalloc(size), *b = xmalloc(size);
  uint8_t nonce[GCM_NONCE_LEN], aad[AAD_LEN], ta[GCM_TAG_LEN], tb[GCM_TAG_LEN];
  void *ctx = ossl_ctx(algo, key, DIR_SEAL);
  for (size_t i = 0; i < size; i++) in[i] = (uint8_t)(i * 7 + 3);
  for (size_t i = 0; i < AAD_LEN; i++) aad[i] = (uint8_t)(0xa0 + i);
  make_nonce(nonce, 0xffffffffu, 42);
  if (!gcm_seal(k, a, ta, GCM_TAG_LEN, nonce, GCM_NONCE_LEN, in, size, aad,
                AAD_LEN)) {
    die("gcm_seal failed: %s", gcm_last_error_message());
  }
  if (!ossl_seal(ctx, b, tb, nonce, in, size, aad)) die("OpenSSL seal failed");
  if (memcmp(a, b, size) != 0 || memcmp(ta, tb, GCM_TAG_LEN) != 0) {
    die("libgcm and OpenSSL disagree on %s (%zu bytes): libgcm's output is "
        "wrong; not measuring",
        kAlgos[algo].name, size);
  }
  g_ossl.ctx_free(ctx);
  free(in);
  free(a);
  free(b);
}

/* ------------------------------------------------------------------------
 * Default mode
 * ---------------------------------------------------------------------- */

static size_t count_selected(const struct options *o) {
  size_t n = 0;
  for (size_t i = 0; i < NUM_ALGOS; i++) n += o->algo_selected[i] ? 1 : 0;
  return n;
}

static unsigned num_dirs(const struct options *o) {
  return (unsigned)(((o->directions & DIR_SEAL) != 0) +
                    ((o->directions & DIR_OPEN) != 0));
}

/* One measurement of libgcm (or OpenSSL, impl) for algorithm a, `size`
 * bytes, direction dir: builds the job, cross-checks against OpenSSL when
 * asked, appends a result record named after the backend pair to
 * *results and measures it. Returns the record and, through *job_out, the
 * job (so the caller can measure OpenSSL with the same settings). */
static struct result *measure_into(struct result **results,
                                   size_t *num_results,
                                   const struct options *o, size_t a,
                                   size_t size, int dir, int impl,
                                   const gcm_key *key,
                                   const uint8_t *key_bytes, const char *aes,
                                   const char *ghash, int variable_time,
                                   int cross, struct job *job_out) {
  struct job job;
  struct result *r;

  memset(&job, 0, sizeof(job));
  job.algo = a;
  job.size = size;
  job.dir = dir;
  job.impl = impl;
  job.key = key;
  job.key_bytes = key_bytes;
  job.budget_us = (uint64_t)(o->seconds * 1e6);
  if (job.budget_us == 0) job.budget_us = 1;

  if (cross) cross_check(a, size, key, key_bytes);

  *results = xrealloc(*results, sizeof(**results) * (*num_results + 1));
  r = &(*results)[(*num_results)++];
  memset(r, 0, sizeof(*r));
  r->algo = a;
  r->size = size;
  r->dir = dir;
  r->impl = impl;
  snprintf(r->aes, sizeof(r->aes), "%s", aes);
  snprintf(r->ghash, sizeof(r->ghash), "%s", ghash);
  snprintf(r->fused, sizeof(r->fused), "%s",
           impl == IMPL_OPENSSL ? "openssl" : gcm_key_fused_backend(key));
  r->variable_time = variable_time;
  r->runs = o->repeat;
  r->median = measure(&job, o, &r->runs_mbps);
  if (job_out != NULL) *job_out = job;
  return r;
}

static int cmd_speed(const struct options *o, const struct backends *b) {
  static gcm_key key;
  uint8_t key_bytes[32];
  struct result *results = NULL;
  size_t num_results = 0;
  int header_done = 0;

  key_bytes_for(key_bytes);
  g_progress.total = (unsigned)(count_selected(o) * o->num_sizes *
                                num_dirs(o) * o->repeat *
                                (o->openssl ? 2u : 1u));

  for (size_t a = 0; a < NUM_ALGOS; a++) {
    const char *aes_name, *ghash_name;
    int vt;
    if (!o->algo_selected[a]) continue;
    if (!init_key(&key, a, o->aes, o->ghash)) {
      die("%s", gcm_last_error_message());
    }
    aes_name = gcm_key_aes_backend(&key);
    ghash_name = gcm_key_ghash_backend(&key);
    if (aes_name == NULL) aes_name = "?";
    if (ghash_name == NULL) ghash_name = "?";
    vt = backend_is_variable_time(b, aes_name, ghash_name);
    if (!header_done && !o->json) {
      printf("libgcm %s: AES backend %s, GHASH backend %s, fused %s%s\n",
             gcm_version(), aes_name, ghash_name, gcm_key_fused_backend(&key),
             vt ? " (variable-time)" : "");
      if (g_chunk != 0) {
        printf("streaming API: AAD in one call, data in %zu-byte updates\n",
               g_chunk);
      }
      if (o->openssl) printf("OpenSSL: %s\n", g_ossl.version);
      fflush(stdout);
      header_done = 1;
    }

    for (int dir = DIR_SEAL; dir <= DIR_OPEN; dir++) {
      if (!(o->directions & dir)) continue;
      for (size_t s = 0; s < o->num_sizes; s++) {
        struct job job;
        struct result *r;
        char desc[128];

        r = measure_into(&results, &num_results, o, a, o->sizes[s], dir,
                         IMPL_LIBGCM, &key, key_bytes, aes_name, ghash_name,
                         vt, o->openssl, &job);
        if (o->openssl) {
          job.impl = IMPL_OPENSSL;
          r->has_openssl = 1;
          r->openssl = measure(&job, o, &r->openssl_runs_mbps);
        }

        if (!o->json) {
          describe(desc, sizeof(desc), a, job.size, dir, o->threads);
          print_line("", desc, &r->median, job.size);
          putchar('\n');
          if (o->openssl) {
            double mine = sample_mbps(&r->median, job.size);
            double theirs = sample_mbps(&r->openssl, job.size);
            print_line("OpenSSL ", desc, &r->openssl, job.size);
            printf("  [libgcm/OpenSSL %.2fx]\n",
                   theirs > 0 ? mine / theirs : 0.0);
          }
          fflush(stdout);
        }
      }
    }
    gcm_key_cleanup(&key);
  }

  if (o->json) json_results(results, num_results, o, NULL, NULL);
  for (size_t i = 0; i < num_results; i++) {
    free(results[i].runs_mbps);
    free(results[i].openssl_runs_mbps);
  }
  free(results);
  return EXIT_SUCCESS;
}

/* ------------------------------------------------------------------------
 * --compare
 * ---------------------------------------------------------------------- */

struct pair {
  const char *aes, *ghash;
  int variable_time;
  int is_openssl;
  char label[72];
};

static void print_table(const struct options *o, size_t algo, int dir,
                        const struct pair *pairs, size_t num_pairs,
                        size_t baseline, const double *mbps /* [pair][size] */,
                        int any_vt) {
  char cell[64];
  int label_w = (int)strlen("AES/GHASH");
  int col_w[MAX_SIZES];
  const size_t ns = o->num_sizes;

  for (size_t p = 0; p < num_pairs; p++) {
    int l = (int)strlen(pairs[p].label);
    if (l > label_w) label_w = l;
  }
  for (size_t s = 0; s < ns; s++) {
    snprintf(cell, sizeof(cell), "%zu bytes", o->sizes[s]);
    col_w[s] = (int)strlen(cell);
    for (size_t p = 0; p < num_pairs; p++) {
      double v = mbps[p * ns + s], base = mbps[baseline * ns + s];
      if (p == baseline || base <= 0) {
        snprintf(cell, sizeof(cell), "%.1f", v);
      } else {
        snprintf(cell, sizeof(cell), "%.1f (%+.1f%%)", v,
                 (v - base) / base * 100.0);
      }
      if ((int)strlen(cell) > col_w[s]) col_w[s] = (int)strlen(cell);
    }
  }

  printf("\n%s %s, MB/s (10^6 bytes/s), change against %s:\n",
         kAlgos[algo].name, dir == DIR_SEAL ? "seal" : "open",
         pairs[baseline].label);
  if (o->threads > 1) printf("(%u threads sharing one key)\n", o->threads);
  printf("%-*s", label_w, "AES/GHASH");
  for (size_t s = 0; s < ns; s++) {
    snprintf(cell, sizeof(cell), "%zu bytes", o->sizes[s]);
    printf("  %*s", col_w[s], cell);
  }
  putchar('\n');
  for (size_t p = 0; p < num_pairs; p++) {
    printf("%-*s", label_w, pairs[p].label);
    for (size_t s = 0; s < ns; s++) {
      double v = mbps[p * ns + s], base = mbps[baseline * ns + s];
      if (p == baseline || base <= 0) {
        snprintf(cell, sizeof(cell), "%.1f", v);
      } else {
        snprintf(cell, sizeof(cell), "%.1f (%+.1f%%)", v,
                 (v - base) / base * 100.0);
      }
      printf("  %*s", col_w[s], cell);
    }
    putchar('\n');
  }
  if (any_vt) {
    printf("* variable-time backend: its timing depends on secret data; "
           "never chosen unless named\n");
  }
  fflush(stdout);
}

static int cmd_compare(const struct options *o, const struct backends *b) {
  static gcm_key key;
  uint8_t key_bytes[32];
  struct pair *pairs;
  size_t num_pairs = 0, baseline = SIZE_MAX;
  char base_aes[32] = "", base_ghash[32] = "";
  struct result *results = NULL;
  size_t num_results = 0;
  int any_vt = 0;

  key_bytes_for(key_bytes);

  /* The baseline pair. */
  if (o->baseline != NULL) {
    const char *slash = strchr(o->baseline, '/');
    const struct backend *x, *y;
    snprintf(base_aes, sizeof(base_aes), "%.*s",
             (int)(slash - o->baseline), o->baseline);
    snprintf(base_ghash, sizeof(base_ghash), "%s", slash + 1);
    x = find_backend(b->aes, b->num_aes, base_aes);
    y = find_backend(b->ghash, b->num_ghash, base_ghash);
    if (x == NULL || !x->usable || y == NULL || !y->usable) {
      /* Let the library word the error. */
      if (!init_key(&key, 0, base_aes, base_ghash)) {
        die("--baseline %s: %s", o->baseline, gcm_last_error_message());
      }
      gcm_key_cleanup(&key);
      die("--baseline %s: not a usable backend pair (see --list)",
          o->baseline);
    }
  } else {
    const struct backend *x = find_backend(b->aes, b->num_aes, "ct");
    const struct backend *y = find_backend(b->ghash, b->num_ghash, "ct64");
    if (x != NULL && x->usable && y != NULL && y->usable) {
      snprintf(base_aes, sizeof(base_aes), "ct");
      snprintf(base_ghash, sizeof(base_ghash), "ct64");
    } else {
      for (size_t i = 0; i < b->num_aes && !base_aes[0]; i++) {
        if (b->aes[i].usable && b->aes[i].constant_time) {
          snprintf(base_aes, sizeof(base_aes), "%s", b->aes[i].name);
        }
      }
      for (size_t i = 0; i < b->num_ghash && !base_ghash[0]; i++) {
        if (b->ghash[i].usable && b->ghash[i].constant_time) {
          snprintf(base_ghash, sizeof(base_ghash), "%s", b->ghash[i].name);
        }
      }
      if (!base_aes[0] || !base_ghash[0]) {
        die("--compare: no usable constant-time backend pair to use as the "
            "baseline; name one with --baseline");
      }
    }
  }

  /* --aes / --ghash restrict the pairs; each must name a real, usable one. */
  if (o->aes != NULL || o->ghash != NULL) {
    if (!init_key(&key, 0, o->aes, o->ghash)) {
      die("%s", gcm_last_error_message());
    }
    gcm_key_cleanup(&key);
  }

  pairs = xmalloc(sizeof(*pairs) * (b->num_aes * b->num_ghash + 2));
  for (size_t i = 0; i < b->num_aes; i++) {
    for (size_t j = 0; j < b->num_ghash; j++) {
      const struct backend *x = &b->aes[i], *y = &b->ghash[j];
      int is_base = strcmp(x->name, base_aes) == 0 &&
                    strcmp(y->name, base_ghash) == 0;
      struct pair *p;
      if (!x->usable || !y->usable) continue;
      if (!is_base && !fused_fits(x->name, y->name)) continue;
      if (!is_base && ((o->aes && strcmp(o->aes, x->name) != 0) ||
                       (o->ghash && strcmp(o->ghash, y->name) != 0))) {
        continue;
      }
      p = &pairs[num_pairs];
      memset(p, 0, sizeof(*p));
      p->aes = x->name;
      p->ghash = y->name;
      p->variable_time = !x->constant_time || !y->constant_time;
      any_vt |= p->variable_time;
      snprintf(p->label, sizeof(p->label), "%s/%s%s", x->name, y->name,
               p->variable_time ? " *" : "");
      if (is_base) baseline = num_pairs;
      num_pairs++;
    }
  }
  if (baseline == SIZE_MAX) {
    die("--compare: baseline %s/%s is not among the usable pairs", base_aes,
        base_ghash);
  }
  if (o->openssl) {
    struct pair *p = &pairs[num_pairs++];
    memset(p, 0, sizeof(*p));
    p->is_openssl = 1;
    snprintf(p->label, sizeof(p->label), "OpenSSL");
  }

  g_progress.total = (unsigned)(count_selected(o) * num_dirs(o) * num_pairs *
                                o->num_sizes * o->repeat);

  if (!o->json) {
    printf("libgcm %s: comparing %zu backend pair%s%s\n", gcm_version(),
           num_pairs - (o->openssl ? 1 : 0),
           num_pairs - (o->openssl ? 1 : 0) == 1 ? "" : "s",
           o->openssl ? " and OpenSSL" : "");
    if (o->openssl) printf("OpenSSL: %s\n", g_ossl.version);
    fflush(stdout);
  }

  for (size_t a = 0; a < NUM_ALGOS; a++) {
    if (!o->algo_selected[a]) continue;
    for (int dir = DIR_SEAL; dir <= DIR_OPEN; dir++) {
      double *mbps;
      if (!(o->directions & dir)) continue;
      mbps = xmalloc(sizeof(double) * num_pairs * o->num_sizes);
      for (size_t p = 0; p < num_pairs; p++) {
        const struct pair *pp = &pairs[p];
        /* OpenSSL's open ring is sealed with the baseline pair's key. */
        const char *aes = pp->is_openssl ? base_aes : pp->aes;
        const char *ghash = pp->is_openssl ? base_ghash : pp->ghash;
        if (!init_key(&key, a, aes, ghash)) {
          die("%s/%s: %s", aes, ghash, gcm_last_error_message());
        }
        for (size_t s = 0; s < o->num_sizes; s++) {
          const struct result *r = measure_into(
              &results, &num_results, o, a, o->sizes[s], dir,
              pp->is_openssl ? IMPL_OPENSSL : IMPL_LIBGCM, &key, key_bytes,
              aes, ghash, pp->variable_time, pp->is_openssl, NULL);
          mbps[p * o->num_sizes + s] = sample_mbps(&r->median, r->size);
        }
        gcm_key_cleanup(&key);
      }
      if (!o->json) {
        print_table(o, a, dir, pairs, num_pairs, baseline, mbps, any_vt);
      }
      free(mbps);
    }
  }

  if (o->json) json_results(results, num_results, o, base_aes, base_ghash);
  for (size_t i = 0; i < num_results; i++) free(results[i].runs_mbps);
  free(results);
  free(pairs);
  return EXIT_SUCCESS;
}

/* ------------------------------------------------------------------------ */

int main(int argc, char **argv) {
  struct options o;
  struct backends b;

  if (argc > 0 && argv[0] != NULL && argv[0][0] != '\0') {
    const char *slash = strrchr(argv[0], '/');
    g_prog = slash ? slash + 1 : argv[0];
  }
  parse_args(&o, argc, argv);
  g_chunk = o.chunk;
  g_fused = o.fused;
  if (o.help) {
    usage(stdout);
    return EXIT_SUCCESS;
  }
  if (o.list) return cmd_list();

  g_progress.tty = isatty(STDERR_FILENO);
  g_progress.enabled = g_progress.tty || o.progress;

  load_backends(&b);
  if (o.openssl) ossl_load();

  return o.compare ? cmd_compare(&o, &b) : cmd_speed(&o, &b);
}
