/*
 * crypto/gcm/dispatch.c: which implementation a key uses.
 *
 * The lists below are ordered best first for the architecture being built.
 * dispatch_choose() takes, for each half, an explicit name if the caller gave
 * one, else the name in LIBGCM_AES / LIBGCM_GHASH if set (read once), else
 * the first entry that is usable on this CPU and constant-time. Naming a
 * backend that does not exist or cannot run here is an error reported with
 * the name and where it came from; it is never replaced by another.
 *
 * Fused kernels (crypto/fused/fused.h) are chosen afterwards, for the pair
 * already fixed: the explicit name, else LIBGCM_FUSED, else the first
 * entry of dispatch_fused_impls that fits the pair, runs here, is
 * constant-time and is not reserved for naming (named_only). "none" is
 * the two-pass path. A named kernel that does not fit the pair is refused
 * like one the CPU cannot run.
 */
#include <stdlib.h>
#include <string.h>

#if defined(_WIN32)
#include <windows.h>
#else
#include <pthread.h>
#endif

#include "../error.h"
#include "dispatch.h"

const struct aes_impl *const dispatch_aes_impls[] = {
#if defined(LIBGCM_ASM_X86_64) || defined(LIBGCM_ASM_X86)
    &aes_aesni, /* AES-NI */
    &aes_vpaes, /* SSSE3 */
#endif
#if defined(AES_CT_SSE2_BUILT)
    &aes_ct_sse2, /* SSE2 (always on x86_64) */
#endif
#if defined(LIBGCM_ASM_AARCH64)
    &aes_armv8, /* Armv8 Cryptographic Extension (AES) */
    &aes_vpaes_neon, /* NEON only: vector-permute AES with TBL */
#endif
#if defined(LIBGCM_ASM_ARM)
    &aes_armv8_32, /* Armv8 Cryptographic Extension in AArch32 (AES) */
    &aes_bsaes_neon, /* NEON only: bitsliced AES, eight blocks per pass */
#endif
    &aes_ct,
    NULL,
};

const struct ghash_impl *const dispatch_ghash_impls[] = {
#if defined(LIBGCM_ASM_X86_64)
    &ghash_vpclmul_avx2, /* VPCLMULQDQ + AVX2 (+ VAES, for the fused pair) */
#endif
#if defined(LIBGCM_ASM_X86_64) || defined(LIBGCM_ASM_X86)
    &ghash_clmul, /* PCLMULQDQ + SSSE3 */
#endif
#if defined(LIBGCM_ASM_X86_64) || defined(LIBGCM_ASM_X86)
    &ghash_ssse3, /* SSSE3, for CPUs without PCLMULQDQ */
#endif
#if defined(LIBGCM_ASM_X86)
    &ghash_sse2, /* SSE2 only (32-bit x86) */
#endif
#if defined(LIBGCM_ASM_AARCH64)
    &ghash_pmull, /* PMULL/PMULL2 (Armv8 Cryptographic Extension) */
    &ghash_neon,  /* NEON only: PMULL on 8-bit lanes */
#endif
#if defined(LIBGCM_ASM_ARM)
    &ghash_pmull32, /* VMULL.P64 (Armv8 Cryptographic Extension in AArch32) */
    &ghash_neon,    /* VMULL.P8, for NEON cores without it */
#endif
#if defined(GCM_64BIT_WORDS)
    &ghash_ct64,
    &ghash_ct32,
#else
    /* 64x64-bit products are emulated on 32-bit machines: ct32 is faster. */
    &ghash_ct32,
    &ghash_ct64,
#endif
    &ghash_4bit, /* variable time: by name only */
    NULL,
};

/* Best first. Kernels for particular pairs (VAES, AVX) go before the
 * portable loop, which fits every pair. */
const struct fused_impl *const dispatch_fused_impls[] = {
#if defined(LIBGCM_ASM_X86_64)
    &fused_vaes_avx2, /* VAES + VPCLMULQDQ on ymm: (aesni, vpclmul_avx2) */
    &fused_aesni_avx, /* AES-NI + PCLMULQDQ, AVX encoding: (aesni, clmul) */
#endif
    &fused_c, /* portable; named_only, see crypto/fused/fused_c.c */
    NULL,
};

const struct aes_impl *dispatch_find_aes(const char *name) {
  for (size_t i = 0; dispatch_aes_impls[i] != NULL; i++) {
    if (strcmp(dispatch_aes_impls[i]->name, name) == 0) {
      return dispatch_aes_impls[i];
    }
  }
  return NULL;
}

const struct ghash_impl *dispatch_find_ghash(const char *name) {
  for (size_t i = 0; dispatch_ghash_impls[i] != NULL; i++) {
    if (strcmp(dispatch_ghash_impls[i]->name, name) == 0) {
      return dispatch_ghash_impls[i];
    }
  }
  return NULL;
}

const struct fused_impl *dispatch_find_fused(const char *name) {
  for (size_t i = 0; dispatch_fused_impls[i] != NULL; i++) {
    if (strcmp(dispatch_fused_impls[i]->name, name) == 0) {
      return dispatch_fused_impls[i];
    }
  }
  return NULL;
}

int dispatch_fused_fits(const struct fused_impl *f, const struct aes_impl *aes,
                        const struct ghash_impl *ghash) {
  return (f->aes == NULL || f->aes == aes) &&
         (f->ghash == NULL || f->ghash == ghash);
}

/* One environment variable's choice, copied once so later changes to the
 * environment (or a concurrent setenv) cannot affect running code. */
struct env_choice {
  const char *var; /* "LIBGCM_AES" or "LIBGCM_GHASH" */
  char name[32];
  int set;
  int too_long;
};

static struct env_choice env_aes = {"LIBGCM_AES", {0}, 0, 0};
static struct env_choice env_ghash = {"LIBGCM_GHASH", {0}, 0, 0};
static struct env_choice env_fused = {"LIBGCM_FUSED", {0}, 0, 0};

static void copy_env(struct env_choice *c) {
  const char *v = getenv(c->var);
  if (v == NULL || v[0] == '\0') return;
  c->set = 1;
  size_t len = strlen(v);
  if (len >= sizeof(c->name)) {
    c->too_long = 1;
    len = sizeof(c->name) - 1;
  }
  memcpy(c->name, v, len);
  c->name[len] = '\0';
}

static void read_env(void) {
  copy_env(&env_aes);
  copy_env(&env_ghash);
  copy_env(&env_fused);
}

#if defined(_WIN32)
static INIT_ONCE env_once = INIT_ONCE_STATIC_INIT;
static BOOL CALLBACK read_env_win(PINIT_ONCE o, PVOID p, PVOID *c) {
  (void)o;
  (void)p;
  (void)c;
  read_env();
  return TRUE;
}
static void env_init(void) {
  InitOnceExecuteOnce(&env_once, read_env_win, NULL, NULL);
}
#else
static pthread_once_t env_once = PTHREAD_ONCE_INIT;
static void env_init(void) { pthread_once(&env_once, read_env); }
#endif

/* What the chooser needs of a list entry, whatever its kind. */
struct entry {
  const char *name;
  int constant_time;
  const char *requires;
  int (*usable)(void);
};

static int aes_entry(size_t i, struct entry *e) {
  const struct aes_impl *a = dispatch_aes_impls[i];
  if (a == NULL) return 0;
  *e = (struct entry){a->name, a->constant_time, a->requires, a->usable};
  return 1;
}

static int ghash_entry(size_t i, struct entry *e) {
  const struct ghash_impl *g = dispatch_ghash_impls[i];
  if (g == NULL) return 0;
  *e = (struct entry){g->name, g->constant_time, g->requires, g->usable};
  return 1;
}

/* Picks the index of one kind's implementation: the explicit name, else
 * the environment's, else the first usable constant-time entry. `kind` is
 * "AES" or "GHASH" for messages. */
static int choose(const char *kind, int (*at)(size_t, struct entry *),
                  const struct env_choice *env, const char *name,
                  size_t *index) {
  const char *source = "gcm_key_init_with_backends";
  struct entry e;
  if (name == NULL && env->set) {
    if (env->too_long) {
      return error_setf(GCM_ERR_BACKEND_UNKNOWN,
                        "%s names an unknown %s backend '%s...'", env->var,
                        kind, env->name);
    }
    name = env->name;
    source = env->var;
  }
  for (size_t i = 0; at(i, &e); i++) {
    if (name == NULL ? (e.constant_time && e.usable())
                     : strcmp(e.name, name) == 0) {
      if (name != NULL && !e.usable()) {
        return error_setf(GCM_ERR_BACKEND_UNUSABLE,
                          "%s names %s backend '%s', which needs %s; this CPU "
                          "(after OPENSSL_ia32cap) lacks it",
                          source, kind, name, e.requires);
      }
      *index = i;
      return 1;
    }
  }
  if (name == NULL) {
    return error_setf(GCM_ERR_BACKEND_UNUSABLE,
                      "no constant-time %s backend runs on this CPU", kind);
  }
  return error_setf(GCM_ERR_BACKEND_UNKNOWN,
                    "%s names an unknown %s backend '%s'", source, kind, name);
}

int dispatch_choose(const char *aes_name, const char *ghash_name,
                    const struct aes_impl **aes,
                    const struct ghash_impl **ghash) {
  size_t a = 0, g = 0; /* set by choose() whenever it returns 1 */
  env_init();
  if (!choose("AES", aes_entry, &env_aes, aes_name, &a) ||
      !choose("GHASH", ghash_entry, &env_ghash, ghash_name, &g)) {
    return 0;
  }
  *aes = dispatch_aes_impls[a];
  *ghash = dispatch_ghash_impls[g];
  return 1;
}

int dispatch_choose_fused(const char *fused_name, const struct aes_impl *aes,
                          const struct ghash_impl *ghash,
                          const struct fused_impl **fused) {
  const char *source = "gcm_key_init_with_fused";
  env_init();
  if (fused_name == NULL && env_fused.set) {
    if (env_fused.too_long) {
      return error_setf(GCM_ERR_BACKEND_UNKNOWN,
                        "LIBGCM_FUSED names an unknown fused backend '%s...'",
                        env_fused.name);
    }
    fused_name = env_fused.name;
    source = "LIBGCM_FUSED";
  }
  *fused = NULL;
  if (fused_name == NULL) {
    for (size_t i = 0; dispatch_fused_impls[i] != NULL; i++) {
      const struct fused_impl *f = dispatch_fused_impls[i];
      if (!f->named_only && f->constant_time &&
          dispatch_fused_fits(f, aes, ghash) && f->usable()) {
        *fused = f;
        break;
      }
    }
    return 1;
  }
  if (strcmp(fused_name, "none") == 0) return 1;
  const struct fused_impl *f = dispatch_find_fused(fused_name);
  if (f == NULL) {
    return error_setf(GCM_ERR_BACKEND_UNKNOWN,
                      "%s names an unknown fused backend '%s'", source,
                      fused_name);
  }
  if (!dispatch_fused_fits(f, aes, ghash)) {
    return error_setf(GCM_ERR_BACKEND_UNUSABLE,
                      "%s names fused backend '%s', which works only with "
                      "AES %s and GHASH %s; this key uses %s and %s",
                      source, fused_name, f->aes ? f->aes->name : "(any)",
                      f->ghash ? f->ghash->name : "(any)", aes->name,
                      ghash->name);
  }
  if (!f->usable()) {
    return error_setf(GCM_ERR_BACKEND_UNUSABLE,
                      "%s names fused backend '%s', which needs %s; this CPU "
                      "(after OPENSSL_ia32cap) lacks it",
                      source, fused_name, f->requires);
  }
  *fused = f;
  return 1;
}
