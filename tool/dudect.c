/*
 * gcm-dudect: a statistical timing-leak test for gcm_seal, after the method
 * of "dude, is my code constant time?" (Reparaz, Balasch, Verbauwhede,
 * DATE 2017). A measurement aid, not a CI gate: its verdict depends on the
 * machine, its load and the number of samples.
 *
 * Method
 * ------
 * Each sample times one gcm_seal with the chosen AES/GHASH backend pair.
 * Before each sample a coin picks its class:
 *   --class pt   class 0 seals a fixed plaintext, class 1 a random one
 *                (fixed key and nonce);
 *   --class key  class 0 uses a fixed key, class 1 a random one (fixed
 *                plaintext and nonce). Both classes set the key up right
 *                before the timed seal, so the key schedule and tables are
 *                equally fresh in the cache for both.
 * With --flush the whole gcm_key (round keys, H, GHASH tables) is evicted
 * from the cache (clflush, x86 only) before each timed seal, as a cache
 * attacker would, so that table lookups which depend on secrets cost
 * different cache misses.
 *
 * Inputs are prepared a batch at a time, before any sample of the batch
 * is timed, so that both classes run the same code between measurements
 * (preparing them inline, a copy for one class and a PRNG for the other,
 * showed up as a false "leak" in the ct/ct64 pair).
 *
 * Timing: rdtsc fenced with lfence on x86, clock_gettime(CLOCK_MONOTONIC)
 * elsewhere. The samples are collected per class with Welch's t-test,
 *   t = (m0 - m1) / sqrt(v0/n0 + v1/n1),
 * on the raw samples and, as dudect does, again on samples cropped at
 * several percentiles of a first batch (timer interrupts and other
 * machine noise are long and one-sided; cropping removes them). The
 * largest |t| is reported. |t| > 4.5 (dudect's threshold) means the two
 * classes have different timing distributions with overwhelming
 * probability; below that no leak was detected at this sample size.
 *
 * Usage: gcm-dudect [--aes NAME] [--ghash NAME] [--class pt|key]
 *                   [--len BYTES] [--samples N] [--flush] [--seed S]
 */
#define _POSIX_C_SOURCE 200809L
#include <gcm/gcm.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define HAVE_RDTSC 1
#endif

/* ---- timer and cache ---------------------------------------------------- */

static inline uint64_t now(void) {
#if defined(HAVE_RDTSC)
  _mm_lfence();
  uint64_t t = __rdtsc();
  _mm_lfence();
  return t;
#else
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

static void flush(const void *p, size_t n) {
#if defined(HAVE_RDTSC)
  for (size_t i = 0; i < n; i += 64) _mm_clflush((const char *)p + i);
  _mm_mfence();
#else
  (void)p;
  (void)n;
#endif
}

/* ---- a small PRNG (xorshift64*), for classes and random inputs ----------- */

static uint64_t rng_state;

static uint64_t rng(void) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 0x2545F4914F6CDD1Dull;
}

static void random_bytes(uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++) p[i] = (uint8_t)(rng() >> 56);
}

/* ---- Welch's t-test, one accumulator per crop level ---------------------- */

struct welch {
  double n[2], mean[2], m2[2];
};

static void welch_add(struct welch *w, int cls, double x) {
  w->n[cls] += 1;
  double d = x - w->mean[cls];
  w->mean[cls] += d / w->n[cls];
  w->m2[cls] += d * (x - w->mean[cls]);
}

static double welch_t(const struct welch *w) {
  if (w->n[0] < 2 || w->n[1] < 2) return 0;
  double v0 = w->m2[0] / (w->n[0] - 1), v1 = w->m2[1] / (w->n[1] - 1);
  double den = sqrt(v0 / w->n[0] + v1 / w->n[1]);
  return den > 0 ? (w->mean[0] - w->mean[1]) / den : 0;
}

#define CROPS 6
static const double kCropPercent[CROPS] = {100, 99, 95, 90, 75, 50};

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* ---- the measurement ----------------------------------------------------- */

struct options {
  const char *aes, *ghash;
  int key_class; /* 0: plaintext classes, 1: key classes */
  size_t len;
  long samples;
  int flush;
  uint64_t seed;
};

static void usage(void) {
  fprintf(stderr,
          "usage: gcm-dudect [--aes NAME] [--ghash NAME] [--class pt|key] "
          "[--len BYTES] [--samples N] [--flush] [--seed S]\n");
  exit(2);
}

#define BATCH 10000 /* samples prepared at a time */

static int run(const struct options *o) {
  static const uint8_t nonce[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  /* One input per sample of a batch: the plaintext (pt classes) or the key
   * (key classes), prepared before any of the batch is timed so that both
   * classes run exactly the same code between measurements. */
  const size_t in_len = o->key_class ? 16 : o->len;
  uint8_t *inputs = malloc(in_len * BATCH + 1);
  uint8_t *fixed = malloc(in_len + 1);
  uint8_t *pt = malloc(o->len + 1), *ct = malloc(o->len + 1);
  uint8_t classes[BATCH], key_bytes[16], tag[16];
  uint64_t *times = malloc(sizeof(uint64_t) * BATCH);
  gcm_key *key = aligned_alloc(64, sizeof(gcm_key));
  uint64_t thresholds[CROPS] = {0}; /* set by batch -1, before any use */
  struct welch w[CROPS];
  long kept = 0;

  if (!inputs || !fixed || !pt || !ct || !times || !key) return 1;
  memset(w, 0, sizeof(w));
  random_bytes(fixed, in_len);
  random_bytes(key_bytes, 16);
  random_bytes(pt, o->len);

  if (!gcm_key_init_with_backends(key, o->key_class ? fixed : key_bytes, 16,
                                  o->aes, o->ghash)) {
    fprintf(stderr, "gcm-dudect: %s\n", gcm_last_error_message());
    return 1;
  }
  const char *aes = gcm_key_aes_backend(key), *ghash = gcm_key_ghash_backend(key);

  /* Batch -2 warms up, batch -1 sets the crop thresholds. */
  for (long b = -2; b * BATCH < o->samples; b++) {
    for (int i = 0; i < BATCH; i++) {
      classes[i] = (uint8_t)(rng() & 1);
      if (classes[i] == 0) {
        memcpy(inputs + (size_t)i * in_len, fixed, in_len);
      } else {
        random_bytes(inputs + (size_t)i * in_len, in_len);
      }
    }
    for (int i = 0; i < BATCH; i++) {
      const uint8_t *in = inputs + (size_t)i * in_len;
      if (o->key_class) {
        gcm_key_init_with_backends(key, in, 16, aes, ghash);
      } else {
        memcpy(pt, in, o->len);
      }
      if (o->flush) flush(key, sizeof(*key));
      uint64_t t0 = now();
      gcm_seal(key, ct, tag, 16, nonce, 12, pt, o->len, NULL, 0);
      uint64_t t1 = now();
      times[i] = t1 - t0;
    }
    if (b == -2) continue;
    if (b == -1) {
      uint64_t sorted[BATCH];
      memcpy(sorted, times, sizeof(sorted));
      qsort(sorted, BATCH, sizeof(uint64_t), cmp_u64);
      for (int c = 0; c < CROPS; c++) {
        size_t idx = (size_t)(kCropPercent[c] / 100.0 * (BATCH - 1));
        thresholds[c] = c == 0 ? UINT64_MAX : sorted[idx];
      }
      continue;
    }
    for (int i = 0; i < BATCH; i++) {
      kept++;
      for (int c = 0; c < CROPS; c++) {
        if (times[i] <= thresholds[c]) welch_add(&w[c], classes[i], (double)times[i]);
      }
    }
  }

  double best = 0;
  int best_c = 0;
  for (int c = 0; c < CROPS; c++) {
    double t = fabs(welch_t(&w[c]));
    if (t > best) {
      best = t;
      best_c = c;
    }
  }
  printf("gcm-dudect: %s/%s fused=%s class=%s len=%zu flush=%s samples=%ld\n",
         aes, ghash, gcm_key_fused_backend(key), o->key_class ? "key" : "pt",
         o->len, o->flush ? "yes" : "no", kept);
  for (int c = 0; c < CROPS; c++) {
    printf("  crop %5.1f%%: n=%8.0f/%8.0f mean %9.1f / %9.1f  t=%+7.2f\n",
           kCropPercent[c], w[c].n[0], w[c].n[1], w[c].mean[0], w[c].mean[1],
           welch_t(&w[c]));
  }
  printf("  max |t| = %.2f (crop %.0f%%): %s\n", best, kCropPercent[best_c],
         best > 10    ? "LEAK (definitely)"
         : best > 4.5 ? "leak likely"
                      : "no leak detected");
  gcm_key_cleanup(key);
  free(key);
  free(inputs);
  free(fixed);
  free(pt);
  free(ct);
  free(times);
  return 0;
}

int main(int argc, char **argv) {
  struct options o = {NULL, NULL, 0, 64, 1000000, 0, 0};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "--aes") == 0 && v) {
      o.aes = v;
      i++;
    } else if (strcmp(a, "--ghash") == 0 && v) {
      o.ghash = v;
      i++;
    } else if (strcmp(a, "--class") == 0 && v) {
      if (strcmp(v, "pt") == 0) {
        o.key_class = 0;
      } else if (strcmp(v, "key") == 0) {
        o.key_class = 1;
      } else {
        usage();
      }
      i++;
    } else if (strcmp(a, "--len") == 0 && v) {
      o.len = (size_t)strtoul(v, NULL, 10);
      i++;
    } else if (strcmp(a, "--samples") == 0 && v) {
      o.samples = strtol(v, NULL, 10);
      i++;
    } else if (strcmp(a, "--seed") == 0 && v) {
      o.seed = strtoull(v, NULL, 10);
      i++;
    } else if (strcmp(a, "--flush") == 0) {
      o.flush = 1;
    } else {
      usage();
    }
  }
  if (o.samples < 100) usage();
  rng_state = o.seed ? o.seed : (uint64_t)time(NULL) * 0x9E3779B97F4A7C15ull | 1;
  return run(&o);
}
