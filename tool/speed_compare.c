/*
 * tool/speed_compare.c: --compare, which seals (or opens) with every usable
 * (AES, GHASH) backend pair, and OpenSSL with --openssl, and prints one
 * table per algorithm and direction with the change against a baseline
 * pair: by default the portable C pair ct/ct64, which shows what each CPU
 * tier gains.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "speed.h"

int cmd_compare(const struct options *o, const struct backends *b) {
  static struct speed_key key;
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
    /* The library words any error, and spells the names as the list
     * does (a deprecated spelling resolves to the current name). */
    if (!init_key(&key, 0, base_aes, base_ghash)) {
      die("--baseline %s: %s", o->baseline, gcm_last_error_message());
    }
    snprintf(base_aes, sizeof(base_aes), "%s", key_aes_backend(&key, 0));
    snprintf(base_ghash, sizeof(base_ghash), "%s", key_ghash_backend(&key, 0));
    cleanup_key(&key, 0);
    x = find_backend(b->aes, b->num_aes, base_aes);
    y = find_backend(b->ghash, b->num_ghash, base_ghash);
    if (x == NULL || !x->usable || y == NULL || !y->usable) {
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

  /* --aes / --ghash restrict the pairs; each must name a real, usable one,
   * and is compared below as the key spells it (the current name, also for
   * a deprecated spelling). */
  char only_aes_name[32], only_ghash_name[32];
  const char *only_aes = NULL, *only_ghash = NULL;
  if (o->aes != NULL || o->ghash != NULL) {
    if (!init_key(&key, 0, o->aes, o->ghash)) {
      die("%s", gcm_last_error_message());
    }
    snprintf(only_aes_name, sizeof(only_aes_name), "%s", key_aes_backend(&key, 0));
    snprintf(only_ghash_name, sizeof(only_ghash_name), "%s",
             key_ghash_backend(&key, 0));
    if (o->aes != NULL) only_aes = only_aes_name;
    if (o->ghash != NULL) only_ghash = only_ghash_name;
    cleanup_key(&key, 0);
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
      if (!is_base && ((only_aes && strcmp(only_aes, x->name) != 0) ||
                       (only_ghash && strcmp(only_ghash, y->name) != 0))) {
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

  progress_set_total((unsigned)(count_selected(o) * num_dirs(o) * num_pairs *
                                o->num_sizes * o->repeat));

  if (!o->json) {
    printf("libgcm %s: comparing %zu backend pair%s%s\n", gcm_version(),
           num_pairs - (o->openssl ? 1 : 0),
           num_pairs - (o->openssl ? 1 : 0) == 1 ? "" : "s",
           o->openssl ? " and OpenSSL" : "");
    if (o->openssl) printf("OpenSSL: %s\n", ossl_version());
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
        cleanup_key(&key, a);
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
