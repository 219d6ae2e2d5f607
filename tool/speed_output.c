/*
 * tool/speed_output.c: everything gcm-speed prints about its results: the
 * progress line on stderr, the bssl-style "Did ..." lines, --compare's
 * table and the --json object. The formats are documented in --help and
 * checked by tool/speed_smoke_test.cmake.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "speed.h"

static struct {
  int enabled, tty;
  unsigned done, total;
} g_progress;

void progress_init(int forced) {
  g_progress.tty = isatty(STDERR_FILENO);
  g_progress.enabled = g_progress.tty || forced;
}

void progress_set_total(unsigned total) { g_progress.total = total; }

void progress_show(const char *what) {
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

void progress_clear(void) {
  if (g_progress.enabled && g_progress.tty) {
    fputs("\r\033[K", stderr);
    fflush(stderr);
  }
}

void describe(char *buf, size_t n, size_t algo, size_t size, int dir,
              unsigned threads) {
  char th[32] = "", ch[48] = "";
  if (threads > 1) snprintf(th, sizeof(th), " (%u threads)", threads);
  if (g_chunk != 0) {
    snprintf(ch, sizeof(ch), ", streamed in %zu-byte chunks", g_chunk);
  }
  snprintf(buf, n, "%s (%zu byte%s%s) %s%s", kAlgos[algo].name, size,
           size == 1 ? "" : "s", ch, dir == DIR_SEAL ? "seal" : "open", th);
}

void print_line(const char *prefix, const char *desc,
                const struct sample *s, size_t size) {
  printf("Did %llu %s%s operations in %lluus (%.1f ops/sec): %.1f MB/s",
         (unsigned long long)s->ops, prefix, desc, (unsigned long long)s->us,
         sample_opsps(s), sample_mbps(s, size));
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

/* A sample's fields: ops, microseconds, ops_per_s and mb_per_s. */
static void json_sample(const struct sample *s, size_t size) {
  printf("\"ops\": %llu, \"microseconds\": %llu, \"ops_per_s\": %.1f, "
         "\"mb_per_s\": %.1f",
         (unsigned long long)s->ops, (unsigned long long)s->us,
         sample_opsps(s), sample_mbps(s, size));
}

void json_results(const struct result *r, size_t n,
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
    json_string(ossl_version());
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
    json_sample(&x->median, x->size);
    if (x->runs > 1) {
      printf(", \"runs_mb_per_s\": ");
      json_runs(x->runs_mbps, x->runs);
    }
    if (x->has_openssl) {
      double mine = sample_mbps(&x->median, x->size);
      double theirs = sample_mbps(&x->openssl, x->size);
      printf(", \"openssl\": {");
      json_sample(&x->openssl, x->size);
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

/* A --compare table cell: MB/s of pair p at size s, with the change
 * against the baseline pair unless p is the baseline (or it measured 0). */
static void table_cell(char *cell, size_t n, const double *mbps, size_t ns,
                       size_t p, size_t s, size_t baseline) {
  double v = mbps[p * ns + s], base = mbps[baseline * ns + s];
  if (p == baseline || base <= 0) {
    snprintf(cell, n, "%.1f", v);
  } else {
    snprintf(cell, n, "%.1f (%+.1f%%)", v, (v - base) / base * 100.0);
  }
}

void print_table(const struct options *o, size_t algo, int dir,
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
      table_cell(cell, sizeof(cell), mbps, ns, p, s, baseline);
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
      table_cell(cell, sizeof(cell), mbps, ns, p, s, baseline);
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
