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
 * How a measurement is taken, the nonces, the open ring and --chunk are
 * described in speed_timing.c.
 *
 * Modes: the default run, --list, --compare (every usable backend pair side
 * by side) and --openssl (the system libcrypto, loaded with dlopen at run
 * time; libgcm never links against it). See usage() in speed_options.c for
 * the flags.
 *
 * The program's files, one role each (speed.h declares what they share):
 *   gcm_speed.c         main and the default mode
 *   speed_compare.c     --compare
 *   speed_options.c     the command line and --help
 *   speed_timing.c      the operations, the timing loop and the threads
 *   speed_output.c      progress, result lines, the --compare table, --json
 *   speed_backends.c    the backend list, --list, key set-up
 *   speed_openssl.c     the system OpenSSL, loaded at run time
 *   speed_common.c      the algorithm table, error exits, allocation
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "speed.h"

/* ------------------------------------------------------------------------
 * Default mode
 * ---------------------------------------------------------------------- */

/* One measurement of libgcm (or OpenSSL, impl) for algorithm a, `size`
 * bytes, direction dir: builds the job, cross-checks against OpenSSL when
 * asked, appends a result record named after the backend pair to
 * *results and measures it. Returns the record and, through *job_out, the
 * job (so the caller can measure OpenSSL with the same settings). */
struct result *measure_into(struct result **results,
                            size_t *num_results,
                            const struct options *o, size_t a,
                            size_t size, int dir, int impl,
                            const struct speed_key *key,
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

  if (cross) cross_check(a, size, &key->gcm, key_bytes);

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
           impl == IMPL_OPENSSL ? "openssl" : key_fused_backend(key, a));
  r->variable_time = variable_time;
  r->runs = o->repeat;
  r->median = measure(&job, o, &r->runs_mbps);
  if (job_out != NULL) *job_out = job;
  return r;
}

static int cmd_speed(const struct options *o, const struct backends *b) {
  static struct speed_key key;
  uint8_t key_bytes[32];
  struct result *results = NULL;
  size_t num_results = 0;
  int header_done = 0;

  key_bytes_for(key_bytes);
  progress_set_total((unsigned)(count_selected(o) * o->num_sizes *
                                num_dirs(o) * o->repeat *
                                (o->openssl ? 2u : 1u)));

  for (size_t a = 0; a < NUM_ALGOS; a++) {
    const char *aes_name, *ghash_name;
    int vt;
    if (!o->algo_selected[a]) continue;
    if (!init_key(&key, a, o->aes, o->ghash)) {
      die_key_init(o->aes, o->ghash);
    }
    aes_name = key_aes_backend(&key, a);
    ghash_name = key_ghash_backend(&key, a);
    if (aes_name == NULL) aes_name = "?";
    if (ghash_name == NULL) ghash_name = "?";
    vt = backend_is_variable_time(b, aes_name, ghash_name);
    if (!header_done && !o->json) {
      printf("libgcm %s: AES backend %s, GHASH backend %s, fused %s%s\n",
             gcm_version(), aes_name, ghash_name, key_fused_backend(&key, a),
             vt ? " (variable-time)" : "");
      if (g_chunk != 0) {
        printf("streaming API: AAD in one call, data in %zu-byte updates\n",
               g_chunk);
      }
      if (o->openssl) printf("OpenSSL: %s\n", ossl_version());
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
    cleanup_key(&key, a);
  }

  if (o->json) json_results(results, num_results, o, NULL, NULL);
  for (size_t i = 0; i < num_results; i++) {
    free(results[i].runs_mbps);
    free(results[i].openssl_runs_mbps);
  }
  free(results);
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
  if (o.version) {
    printf("gcm-speed (libgcm) %s\n", gcm_version());
    return EXIT_SUCCESS;
  }
  if (o.list) return cmd_list();

  progress_init(o.progress);

  load_backends(&b);
  if (o.openssl) ossl_load();

  return o.compare ? cmd_compare(&o, &b) : cmd_speed(&o, &b);
}
