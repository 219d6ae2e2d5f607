/*
 * tool/speed_timing.c: how gcm-speed takes a measurement: the operations,
 * the timing loop and the threads.
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
 * AES-GCM-SIV (gcm_siv_seal / gcm_siv_open) is measured the same way, one
 * whole message per call: it has no streaming form.
 *
 * With --threads N, N threads share one gcm_key, each with its own buffers
 * and nonces (the thread number is the nonce prefix); they start together
 * at a barrier and the figure is every thread's operations over the wall
 * time from the first start to the last end.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../crypto/internal.h"
#include "speed.h"

#define RING_BYTES 32768
#define RING_MAX 16

static uint64_t now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

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

void make_nonce(uint8_t nonce[GCM_NONCE_LEN], unsigned thread,
                uint64_t counter) {
  store_be32(nonce, thread);
  store_be64(nonce + 4, counter);
}

/* One whole message through the one-shot calls of the job's algorithm. */
static int seal_message(const struct job *j, uint8_t *out, uint8_t *tag,
                        const uint8_t *nonce, const uint8_t *in,
                        const uint8_t *aad) {
  if (kAlgos[j->algo].siv) {
    return gcm_siv_seal(&j->key->siv, out, tag, GCM_SIV_TAG_LEN, nonce,
                        GCM_SIV_NONCE_LEN, in, j->size, aad, AAD_LEN);
  }
  return gcm_seal(&j->key->gcm, out, tag, GCM_TAG_LEN, nonce, GCM_NONCE_LEN,
                  in, j->size, aad, AAD_LEN);
}

static int open_message(const struct job *j, uint8_t *out,
                        const uint8_t *nonce, const uint8_t *in,
                        const uint8_t *tag, const uint8_t *aad) {
  if (kAlgos[j->algo].siv) {
    return gcm_siv_open(&j->key->siv, out, nonce, GCM_SIV_NONCE_LEN, in,
                        j->size, tag, GCM_SIV_TAG_LEN, aad, AAD_LEN);
  }
  return gcm_open(&j->key->gcm, out, nonce, GCM_NONCE_LEN, in, j->size, tag,
                  GCM_TAG_LEN, aad, AAD_LEN);
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
      if (!seal_message(j, w->ring + r * j->size,
                        w->ring_tags + r * GCM_TAG_LEN, nonce, w->in,
                        w->aad)) {
        die("%s failed while preparing ciphertexts: %s",
            kAlgos[j->algo].siv ? "gcm_siv_seal" : "gcm_seal",
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
  if (w->ossl_ctx != NULL) ossl_ctx_free(w->ossl_ctx);
}

/* One message through the streaming API in g_chunk-byte updates. */
static int stream_op(const struct job *j, const uint8_t *nonce, uint8_t *out,
                     const uint8_t *in, uint8_t *tag, const uint8_t *aad) {
  gcm_stream s;
  const int seal = j->dir == DIR_SEAL;
  int ok = gcm_stream_init(&s, &j->key->gcm, seal ? GCM_ENCRYPT : GCM_DECRYPT,
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
      return seal_message(j, w->out, w->tag, w->nonce, w->in, w->aad);
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
      return open_message(j, w->out, nonce, ct, tag, w->aad);
    }
    return ossl_open(w->ossl_ctx, w->out, nonce, ct, j->size, tag, w->aad);
  }
}

static void worker_fail(struct worker *w) {
  const struct job *j = w->job;
  w->failed = 1;
  if (j->impl == IMPL_LIBGCM) {
    snprintf(w->error, sizeof(w->error), "gcm_%s%s failed: %s",
             kAlgos[j->algo].siv ? "siv_" : "",
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

double sample_mbps(const struct sample *s, size_t size) {
  return s->us ? (double)s->ops * (double)size / (double)s->us : 0.0;
}

double sample_opsps(const struct sample *s) {
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

/* Runs one measurement `repeat` times and returns the median run. */
struct sample measure(struct job *job, const struct options *o,
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
