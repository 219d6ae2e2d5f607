/*
 * tool/speed_backends.c: the backends gcm-speed can measure, as libgcm
 * reports them (gcm_backend_get), the --list output, and the one place that
 * initialises a key with the backends and the fused kernel asked for.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "speed.h"

void load_backends(struct backends *b) {
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

const struct backend *find_backend(const struct backend *v, size_t n,
                                   const char *name) {
  for (size_t i = 0; i < n; i++) {
    if (strcmp(v[i].name, name) == 0) return &v[i];
  }
  return NULL;
}

/* One line: the bytes of memory a key on (aes, ghash, fused) takes
 * (gcm_key_size_for). Returns 0 when the size cannot be had. */
static int print_key_size(const char *aes, const char *ghash,
                          const char *fused) {
  size_t bytes = gcm_key_size_for(aes, ghash, fused);
  if (bytes == 0) {
    fflush(stdout);
    fprintf(stderr, "%s: %s\n", g_prog, gcm_last_error_message());
    return 0;
  }
  printf("key %s %s %s %zu\n", aes, ghash, fused, bytes);
  return 1;
}

/* One line: the bytes of memory an AES-GCM-SIV key on (aes, ghash,
 * fused) takes (gcm_siv_key_size_for). A fused kernel that an AES-GCM-SIV
 * key cannot take (it has no AES-GCM-SIV functions) gets no line; with
 * "none" a failure is an error (0). */
static int print_siv_key_size(const char *aes, const char *ghash,
                              const char *fused) {
  size_t bytes = gcm_siv_key_size_for(aes, ghash, fused);
  if (bytes == 0) {
    if (strcmp(fused, "none") != 0) return 1;
    fflush(stdout);
    fprintf(stderr, "%s: %s\n", g_prog, gcm_last_error_message());
    return 0;
  }
  printf("siv-key %s %s %s %zu\n", aes, ghash, fused, bytes);
  return 1;
}

/* A `key` line (print: print_key_size) or a `siv-key` line
 * (print_siv_key_size) for every usable (AES, GHASH) pair with "none",
 * then with each usable fused kernel that fits it. */
static int list_key_sizes(int (*print)(const char *, const char *,
                                       const char *)) {
  struct backends b;
  load_backends(&b);
  for (size_t x = 0; x < b.num_aes; x++) {
    for (size_t y = 0; y < b.num_ghash; y++) {
      const char *aes = b.aes[x].name, *ghash = b.ghash[y].name;
      if (!b.aes[x].usable || !b.ghash[y].usable) continue;
      if (!print(aes, ghash, "none")) return 0;
      for (size_t i = 0; i < gcm_backend_count(); i++) {
        gcm_backend_info f;
        const char *fa = NULL, *fg = NULL;
        if (gcm_backend_get(i, &f) && f.kind == GCM_BACKEND_FUSED &&
            f.usable && gcm_fused_backend_pair(f.name, &fa, &fg) &&
            (fa == NULL || strcmp(fa, aes) == 0) &&
            (fg == NULL || strcmp(fg, ghash) == 0) &&
            !print(aes, ghash, f.name)) {
          return 0;
        }
      }
    }
  }
  return 1;
}

int cmd_list(void) {
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
  if (!list_key_sizes(print_key_size) ||
      !list_key_sizes(print_siv_key_size)) {
    return EXIT_FAILURE;
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

void key_bytes_for(uint8_t key[32]) {
  for (int i = 0; i < 32; i++) key[i] = (uint8_t)(0x11 * (i + 1) ^ 0x5c);
}

/* Initialises the key `algo` uses in `k`. Returns 1 on success (else
 * gcm_last_error says why). */
int init_key(struct speed_key *k, size_t algo, const char *aes,
             const char *ghash) {
  uint8_t key[32];
  key_bytes_for(key);
  if (kAlgos[algo].siv) {
    return gcm_siv_key_init_with_backends(&k->siv, key, kAlgos[algo].key_len,
                                          aes, ghash);
  }
  if (aes == NULL && ghash == NULL && g_fused == NULL) {
    return gcm_key_init(&k->gcm, key, kAlgos[algo].key_len);
  }
  return gcm_key_init_with_fused(&k->gcm, key, kAlgos[algo].key_len, aes,
                                 ghash, g_fused);
}

const char *key_aes_backend(const struct speed_key *k, size_t algo) {
  return kAlgos[algo].siv ? gcm_siv_key_aes_backend(&k->siv)
                          : gcm_key_aes_backend(&k->gcm);
}

const char *key_ghash_backend(const struct speed_key *k, size_t algo) {
  return kAlgos[algo].siv ? gcm_siv_key_ghash_backend(&k->siv)
                          : gcm_key_ghash_backend(&k->gcm);
}

const char *key_fused_backend(const struct speed_key *k, size_t algo) {
  return kAlgos[algo].siv ? "none" : gcm_key_fused_backend(&k->gcm);
}

void cleanup_key(struct speed_key *k, size_t algo) {
  if (kAlgos[algo].siv) {
    gcm_siv_key_cleanup(&k->siv);
  } else {
    gcm_key_cleanup(&k->gcm);
  }
}

/* The names of every compiled-in backend of `kind`, comma separated, with
 * " (not on this CPU)" after those this CPU cannot run. */
static void print_names(FILE *f, gcm_backend_kind kind) {
  size_t n = gcm_backend_count();
  const char *sep = "";
  for (size_t i = 0; i < n; i++) {
    gcm_backend_info info;
    if (!gcm_backend_get(i, &info) || info.kind != kind) continue;
    fprintf(f, "%s%s%s", sep, info.name, info.usable ? "" : " (not on this CPU)");
    sep = ", ";
  }
}

/* One backend option the user gave: its flag, kind and value. */
static int explain_one(const char *flag, gcm_backend_kind kind, const char *kind_name,
                       const char *name) {
  size_t n = gcm_backend_count();
  int known = 0;
  if (name == NULL || strcmp(name, "none") == 0) return 0;
  for (size_t i = 0; i < n; i++) {
    gcm_backend_info info;
    if (gcm_backend_get(i, &info) && info.kind == kind && strcmp(info.name, name) == 0) {
      known = 1;
      if (info.usable) return 0;
    }
  }
  fprintf(stderr, "%s: %s %s: %s %s backend\n", g_prog, flag, name,
          known ? "this CPU cannot run that" : "no such", kind_name);
  fprintf(stderr, "  %s backends: ", kind_name);
  print_names(stderr, kind);
  fputc('\n', stderr);
  return 1;
}

void die_key_init(const char *aes, const char *ghash) {
  /* Name the option at fault and list the valid names; fall back on
   * libgcm's own message (a fused kernel that does not fit the pair, or a
   * bad LIBGCM_* environment variable). */
  int told = explain_one("--aes", GCM_BACKEND_AES, "AES", aes);
  told |= explain_one("--ghash", GCM_BACKEND_GHASH, "GHASH", ghash);
  told |= explain_one("--fused", GCM_BACKEND_FUSED, "fused", g_fused);
  if (!told) fprintf(stderr, "%s: %s\n", g_prog, gcm_last_error_message());
  exit(EXIT_FAILURE);
}

/* 1 when the --fused kernel (if any) can serve the pair aes/ghash. */
int fused_fits(const char *aes, const char *ghash) {
  const char *fa = NULL, *fg = NULL;
  if (g_fused == NULL || strcmp(g_fused, "none") == 0) return 1;
  if (!gcm_fused_backend_pair(g_fused, &fa, &fg)) return 1; /* init says why */
  return (fa == NULL || strcmp(fa, aes) == 0) &&
         (fg == NULL || strcmp(fg, ghash) == 0);
}

int backend_is_variable_time(const struct backends *b, const char *aes,
                             const char *ghash) {
  const struct backend *x = find_backend(b->aes, b->num_aes, aes);
  const struct backend *y = find_backend(b->ghash, b->num_ghash, ghash);
  return (x != NULL && !x->constant_time) || (y != NULL && !y->constant_time);
}
