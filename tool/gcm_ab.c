/*
 * tool/gcm_ab.c: gcm-ab, two builds of libgcm timed side by side in one
 * process (not a test, not installed).
 *
 *   gcm-ab LIB_A LIB_B [--open] [--key-bits 128|192|256] [--chunk N]
 *          [--rounds R] [--batch B] [--copies C] [--siv] SIZE...
 *
 * LIB_A and LIB_B are paths to two builds of libgcm.so (for instance main's
 * and a branch's). Both are loaded with dlopen(RTLD_LOCAL), so each keeps
 * its own symbols, dispatch and CPU reading (OPENSSL_ia32cap and the
 * LIBGCM_* variables apply to both). For each SIZE the tool seals (or
 * opens, with --open) a message of that size with 13 bytes of AAD and a
 * 96-bit nonce, B calls at a time, alternating A and B for R rounds, and
 * prints the median ticks per call of each and their ratio A/B (above 1:
 * B is faster). With --chunk N each message goes through the streaming
 * API instead (gcm_stream_init, the AAD in one call, N-byte updates,
 * finish). With --siv the messages are AES-GCM-SIV's (gcm_siv_seal,
 * gcm_siv_open; 128- or 256-bit keys, one-shot only). Timing two builds in turn in one process gives both the
 * same machine load, which on a shared machine two separate runs do not.
 * A streamed message's gcm_stream sits at one of PLACES 16-byte steps of a
 * 64-byte line, round r at step (r / copies) % PLACES, and a streamed
 * figure is the mean of the per-place medians: where the caller's struct
 * falls in the line moved the time of a 300-byte-chunk stream by up to 15%
 * (the buffer's stores and the kernels' loads meet at other offsets), so
 * one fixed place would measure that place's luck rather than the code.
 * Each build is also loaded --copies times (default 4), from as many fresh
 * copies of its file, and round r runs copy r % copies: on an AMD Zen 5
 * guest (2026-12-04) one 16-byte open took 65 ticks from one copy of a
 * file and 102 from another copy of the same bytes, in the same process,
 * and which copy was slow changed when the page cache was dropped: where
 * the kernel puts a file's pages in memory, not the code, decided. The
 * figure of a build is its fastest copy's (a copy's: its median, or for
 * streams its mean over places), so a build is not charged for an unlucky
 * placement of its pages; an A/A run of one file against itself reads
 * 1.00 within noise.
 * Every result is checked: the two builds must produce the same
 * ciphertext and tag, and every open must succeed.
 *
 * Ticks are rdtsc on x86 and nanoseconds elsewhere.
 */
#define _POSIX_C_SOURCE 200809L /* mkstemp */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gcm/gcm.h"

#include "ticks.h"

#define MAX_SIZE (1u << 20)

/* Places of a streamed message's gcm_stream: 16-byte steps in a line. */
#define PLACES 4
static _Alignas(64) unsigned char stream_mem[sizeof(gcm_stream) + 64];

typedef int (*key_init_fn)(gcm_key *, const uint8_t *, size_t);
typedef int (*seal_fn)(const gcm_key *, uint8_t *, uint8_t *, size_t,
                       const uint8_t *, size_t, const uint8_t *, size_t,
                       const uint8_t *, size_t);
typedef int (*open_fn)(const gcm_key *, uint8_t *, const uint8_t *, size_t,
                       const uint8_t *, size_t, const uint8_t *, size_t,
                       const uint8_t *, size_t);
typedef int (*siv_key_init_fn)(gcm_siv_key *, const uint8_t *, size_t);
typedef int (*siv_seal_fn)(const gcm_siv_key *, uint8_t *, uint8_t *, size_t,
                           const uint8_t *, size_t, const uint8_t *, size_t,
                           const uint8_t *, size_t);
typedef int (*siv_open_fn)(const gcm_siv_key *, uint8_t *, const uint8_t *,
                           size_t, const uint8_t *, size_t, const uint8_t *,
                           size_t, const uint8_t *, size_t);
typedef int (*stream_init_fn)(gcm_stream *, const gcm_key *, gcm_direction,
                              const uint8_t *, size_t);
typedef int (*stream_aad_fn)(gcm_stream *, const uint8_t *, size_t);
typedef int (*stream_update_fn)(gcm_stream *, uint8_t *, const uint8_t *,
                                size_t);
typedef int (*stream_finish_seal_fn)(gcm_stream *, uint8_t *, size_t);
typedef int (*stream_finish_open_fn)(gcm_stream *, const uint8_t *, size_t);

/* One loaded copy of a build's library: its entry points and a key
 * initialised by it (a key points at its own copy's backends). */
struct loaded {
  seal_fn seal;
  open_fn open;
  stream_init_fn stream_init;
  stream_aad_fn stream_aad;
  stream_update_fn stream_update;
  stream_finish_seal_fn finish_seal;
  stream_finish_open_fn finish_open;
  gcm_key key;
  /* --siv: AES-GCM-SIV's entry points and key instead. */
  siv_seal_fn siv_seal;
  siv_open_fn siv_open;
  gcm_siv_key siv_key;
};

struct build {
  const char *path;
  struct loaded *copy; /* `copies` of them */
  uint8_t *ct;         /* its sealed message, for --open */
  uint8_t tag[16];
  uint64_t *t;         /* ticks per round */
};

static void die(const char *what, const char *detail) {
  fprintf(stderr, "gcm-ab: %s%s%s\n", what, detail ? ": " : "",
          detail ? detail : "");
  exit(1);
}

static void usage(void) {
  fprintf(stderr,
          "Usage: gcm-ab LIB_A LIB_B [--open] [--key-bits 128|192|256] "
          "[--chunk N] [--rounds R] [--batch B] [--copies C] [--siv] "
          "SIZE...\n");
  exit(2);
}

static unsigned long number(const char *s, unsigned long max) {
  char *end;
  unsigned long v = strtoul(s, &end, 10);
  if (*s == '\0' || *end != '\0' || v > max) {
    fprintf(stderr, "gcm-ab: not a number up to %lu: %s\n", max, s);
    usage();
  }
  return v;
}

/* dlsym's result stored into a function pointer through memcpy (ISO C has
 * no cast from void * to a function pointer). */
static void symbol(void *h, const char *path, const char *name, void *fn,
                   size_t size) {
  void *p = dlsym(h, name);
  if (p == NULL) die("not a libgcm (no gcm_* symbols)", path);
  memcpy(fn, &p, size);
}
#define SYMBOL(h, path, c, name, field) \
  symbol(h, path, name, &(c)->field, sizeof((c)->field))

/* Copies the file at `path` to a new temporary file and returns its name
 * (the caller unlinks it once loaded): a fresh copy gets page-cache pages
 * of its own. */
static char *fresh_copy(const char *path) {
  const char *dir = getenv("TMPDIR");
  char *name = malloc(strlen(dir ? dir : "/tmp") + 32);
  if (name == NULL) die("out of memory", NULL);
  sprintf(name, "%s/gcm-ab-XXXXXX", dir ? dir : "/tmp");
  int out = mkstemp(name);
  if (out < 0) die("cannot create a temporary copy in", dir ? dir : "/tmp");
  int in = open(path, O_RDONLY);
  if (in < 0) die("cannot load", path);
  char buf[65536];
  ssize_t n;
  while ((n = read(in, buf, sizeof(buf))) > 0) {
    if (write(out, buf, (size_t)n) != n) die("cannot write a copy of", path);
  }
  if (n < 0) die("cannot read", path);
  close(in);
  close(out);
  return name;
}

static void load(struct loaded *c, const char *path, const uint8_t *raw,
                 size_t key_len, int siv) {
  char *copy = fresh_copy(path);
  void *h = dlopen(copy, RTLD_NOW | RTLD_LOCAL);
  unlink(copy);
  free(copy);
  if (h == NULL) die("cannot load", dlerror());
  if (siv) {
    siv_key_init_fn siv_init;
    symbol(h, path, "gcm_siv_key_init", &siv_init, sizeof(siv_init));
    SYMBOL(h, path, c, "gcm_siv_seal", siv_seal);
    SYMBOL(h, path, c, "gcm_siv_open", siv_open);
    if (!siv_init(&c->siv_key, raw, key_len))
      die("gcm_siv_key_init failed in", path);
    return;
  }
  key_init_fn init;
  symbol(h, path, "gcm_key_init", &init, sizeof(init));
  SYMBOL(h, path, c, "gcm_seal", seal);
  SYMBOL(h, path, c, "gcm_open", open);
  SYMBOL(h, path, c, "gcm_stream_init", stream_init);
  SYMBOL(h, path, c, "gcm_stream_aad", stream_aad);
  SYMBOL(h, path, c, "gcm_stream_update", stream_update);
  SYMBOL(h, path, c, "gcm_stream_finish_seal", finish_seal);
  SYMBOL(h, path, c, "gcm_stream_finish_open", finish_open);
  if (!init(&c->key, raw, key_len)) die("gcm_key_init failed in", path);
}

/* One message through the streaming API in `chunk`-byte updates: seals
 * msg into out (writing tag), or opens in into out against tag. */
static int streamed(const struct loaded *b, gcm_stream *s, int open,
                    size_t chunk, uint8_t *out, const uint8_t *in, size_t n,
                    const uint8_t *nonce, const uint8_t *aad, size_t aad_len,
                    uint8_t *tag) {
  int ok = b->stream_init(s, &b->key, open ? GCM_DECRYPT : GCM_ENCRYPT,
                          nonce, 12) &&
           b->stream_aad(s, aad, aad_len);
  for (size_t off = 0; ok && off < n; off += chunk) {
    ok = b->stream_update(s, out + off, in + off,
                          n - off < chunk ? n - off : chunk);
  }
  if (!ok) return 0;
  return open ? b->finish_open(s, tag, 16) : b->finish_seal(s, tag, 16);
}

/* One-shot seal and open of whichever mode the run times. */
static int seal_one(const struct loaded *l, int siv, uint8_t *out,
                    uint8_t *tag, const uint8_t *nonce, const uint8_t *msg,
                    size_t n, const uint8_t *aad, size_t aad_len) {
  if (siv) {
    return l->siv_seal(&l->siv_key, out, tag, 16, nonce, 12, msg, n, aad,
                       aad_len);
  }
  return l->seal(&l->key, out, tag, 16, nonce, 12, msg, n, aad, aad_len);
}
static int open_one(const struct loaded *l, int siv, uint8_t *out,
                    const uint8_t *nonce, const uint8_t *ct, size_t n,
                    const uint8_t *tag, const uint8_t *aad, size_t aad_len) {
  if (siv) {
    return l->siv_open(&l->siv_key, out, nonce, 12, ct, n, tag, 16, aad,
                       aad_len);
  }
  return l->open(&l->key, out, nonce, 12, ct, n, tag, 16, aad, aad_len);
}

/* The median of the rounds r0, r0 + step, r0 + 2 step, ... below n. */
static double median_of(const uint64_t *t, size_t n, size_t r0, size_t step,
                        uint64_t *scratch) {
  size_t m = 0;
  for (size_t r = r0; r < n; r += step) scratch[m++] = t[r];
  return m == 0 ? 0 : (double)ticks_median(scratch, m);
}

/* The figure of one build's rounds (round r ran copy r % copies, at place
 * (r / copies) % places): per copy, the median of its rounds, or with
 * several places the mean of each place's median; then the fastest copy. */
static double figure(const uint64_t *t, size_t rounds, size_t copies,
                     size_t places) {
  uint64_t *scratch = malloc(rounds * sizeof(*scratch));
  if (scratch == NULL) die("out of memory", NULL);
  double best = 0;
  for (size_t c = 0; c < copies && c < rounds; c++) {
    double f;
    if (places <= 1 || rounds < copies * places) {
      f = median_of(t, rounds, c, copies, scratch);
    } else {
      double sum = 0;
      for (size_t p = 0; p < places; p++) {
        sum += median_of(t, rounds, c + copies * p, copies * places, scratch);
      }
      f = sum / (double)places;
    }
    if (c == 0 || f < best) best = f;
  }
  free(scratch);
  return best;
}

int main(int argc, char **argv) {
  if (argc < 4) usage();
  struct build bs[2] = {{.path = argv[1]}, {.path = argv[2]}};
  int open = 0, siv = 0;
  size_t key_len = 16, rounds = 400, batch = 200, chunk = 0, copies = 4;
  size_t sizes[64], nsizes = 0;
  for (int i = 3; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--open") == 0) {
      open = 1;
    } else if (strcmp(a, "--key-bits") == 0 && i + 1 < argc) {
      unsigned long bits = number(argv[++i], 256);
      if (bits != 128 && bits != 192 && bits != 256) usage();
      key_len = bits / 8;
    } else if (strcmp(a, "--chunk") == 0 && i + 1 < argc) {
      chunk = number(argv[++i], MAX_SIZE);
      if (chunk == 0) usage();
    } else if (strcmp(a, "--rounds") == 0 && i + 1 < argc) {
      rounds = number(argv[++i], 100000);
    } else if (strcmp(a, "--batch") == 0 && i + 1 < argc) {
      batch = number(argv[++i], 1000000);
    } else if (strcmp(a, "--siv") == 0) {
      siv = 1;
    } else if (strcmp(a, "--copies") == 0 && i + 1 < argc) {
      copies = number(argv[++i], 64);
    } else if (a[0] == '-') {
      usage();
    } else if (nsizes < sizeof(sizes) / sizeof(sizes[0])) {
      sizes[nsizes++] = number(a, MAX_SIZE);
    } else {
      usage();
    }
  }
  if (nsizes == 0 || rounds == 0 || batch == 0 || copies == 0) usage();
  if (siv && (chunk != 0 || key_len == 24)) usage(); /* one-shot, 128/256 */

  uint8_t raw[32], nonce[12], aad[13];
  for (size_t i = 0; i < sizeof(raw); i++) raw[i] = (uint8_t)(i * 7 + 1);
  memset(nonce, 0x5a, sizeof(nonce));
  memset(aad, 0xa5, sizeof(aad));
  uint8_t *msg = calloc(MAX_SIZE, 1), *out = malloc(MAX_SIZE);
  if (msg == NULL || out == NULL) die("out of memory", NULL);
  for (int i = 0; i < 2; i++) {
    bs[i].copy = calloc(copies, sizeof(struct loaded));
    if (bs[i].copy == NULL) die("out of memory", NULL);
    for (size_t c = 0; c < copies; c++) {
      load(&bs[i].copy[c], bs[i].path, raw, key_len, siv);
    }
    bs[i].ct = malloc(MAX_SIZE);
    bs[i].t = calloc(rounds, sizeof(uint64_t));
    if (bs[i].ct == NULL || bs[i].t == NULL) die("out of memory", NULL);
  }

  printf("%s, AES-%zu%s, 13 bytes of AAD, ", open ? "open" : "seal",
         key_len * 8, siv ? "-GCM-SIV" : "");
  if (chunk != 0) printf("streamed in %zu-byte updates, ", chunk);
  printf("median %s per message of %zu rounds of %zu messages", TICKS_NAME,
         rounds, batch);
  if (chunk != 0) printf(" (mean of %d stream places' medians)", PLACES);
  printf(", fastest of %zu copies\n", copies);
  printf("%8s %10s %10s %7s\n", "size", "A", "B", "A/B");
  for (size_t s = 0; s < nsizes; s++) {
    const size_t n = sizes[s];
    for (int i = 0; i < 2; i++) {
      for (size_t c = 0; c < copies; c++) {
        const struct loaded *l = &bs[i].copy[c];
        uint8_t tag[16];
        if (!seal_one(l, siv, out, tag, nonce, msg, n, aad, sizeof(aad)))
          die("the seal failed in", bs[i].path);
        if (c == 0) {
          memcpy(bs[i].ct, out, n);
          memcpy(bs[i].tag, tag, 16);
        } else if (memcmp(bs[i].ct, out, n) != 0 ||
                   memcmp(bs[i].tag, tag, 16) != 0) {
          die("two copies of one build disagree", bs[i].path);
        }
      }
    }
    if (memcmp(bs[0].ct, bs[1].ct, n) != 0 ||
        memcmp(bs[0].tag, bs[1].tag, 16) != 0)
      die("the two builds disagree", NULL);
    for (size_t r = 0; r < rounds; r++) {
      for (int i = 0; i < 2; i++) {
        struct build *b = &bs[i];
        const struct loaded *l = &b->copy[r % copies];
        int ok = 1;
        uint64_t t0 = ticks();
        for (size_t j = 0; j < batch; j++) {
          if (chunk != 0) {
            gcm_stream *st = (gcm_stream *)(void *)(stream_mem +
                                                    16 * (r / copies % PLACES));
            ok &= streamed(l, st, open, chunk, out, open ? b->ct : msg, n,
                           nonce, aad, sizeof(aad), b->tag);
          } else if (open) {
            ok &= open_one(l, siv, out, nonce, b->ct, n, b->tag, aad,
                           sizeof(aad));
          } else {
            ok &= seal_one(l, siv, out, b->tag, nonce, msg, n, aad,
                           sizeof(aad));
          }
        }
        b->t[r] = ticks() - t0;
        if (!ok) die(open ? "the open failed in" : "the seal failed in",
                     b->path);
      }
    }
    double med[2];
    for (int i = 0; i < 2; i++) {
      med[i] = figure(bs[i].t, rounds, copies, chunk != 0 ? PLACES : 1) /
               (double)batch;
    }
    printf("%8zu %10.1f %10.1f %7.3f\n", n, med[0], med[1], med[0] / med[1]);
  }
  for (int i = 0; i < 2; i++) {
    free(bs[i].copy);
    free(bs[i].ct);
    free(bs[i].t);
  }
  free(msg);
  free(out);
  return 0;
}
