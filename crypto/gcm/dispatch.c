/*
 * crypto/gcm/dispatch.c: which implementation a key uses.
 *
 * The lists below are ordered best first for the architecture being built.
 * dispatch_choose() takes, for each half, an explicit name if the caller gave
 * one, else the name in LIBGCM_AES / LIBGCM_GHASH if set (read once), else
 * the first entry that is usable on this CPU and constant-time. Naming a
 * backend that does not exist or cannot run here is an error reported with
 * the name and where it came from; it is never replaced by another.
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
#if defined(LIBGCM_ASM_X86_64)
    &aes_aesni, /* AES-NI */
    &aes_vpaes, /* SSSE3 */
#endif
    &aes_ct,
    NULL,
};

const struct ghash_impl *const dispatch_ghash_impls[] = {
#if defined(LIBGCM_ASM_X86_64)
    &ghash_clmul, /* PCLMULQDQ + SSSE3 */
#endif
#if defined(LIBGCM_ASM_X86_64)
    &ghash_ssse3, /* SSSE3, for CPUs without PCLMULQDQ */
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

/* The environment's choices, copied once so later changes to the
 * environment (or concurrent setenv) cannot affect running code. */
static char env_aes[32], env_ghash[32];
static int env_aes_set, env_ghash_set;
static int env_aes_too_long, env_ghash_too_long;

static void copy_env(const char *var, char *dst, size_t cap, int *set,
                     int *too_long) {
  const char *v = getenv(var);
  if (v == NULL || v[0] == '\0') return;
  *set = 1;
  if (strlen(v) >= cap) {
    *too_long = 1;
    memcpy(dst, v, cap - 1);
    dst[cap - 1] = '\0';
    return;
  }
  strcpy(dst, v);
}

static void read_env(void) {
  copy_env("LIBGCM_AES", env_aes, sizeof(env_aes), &env_aes_set,
           &env_aes_too_long);
  copy_env("LIBGCM_GHASH", env_ghash, sizeof(env_ghash), &env_ghash_set,
           &env_ghash_too_long);
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

/* One half of the choice. `kind` is "AES" or "GHASH" for messages. */
static int choose_aes(const char *name, const struct aes_impl **out) {
  const char *source = "gcm_key_init_with_backends";
  if (name == NULL && env_aes_set) {
    if (env_aes_too_long) {
      return error_setf(GCM_ERR_BACKEND_UNKNOWN,
                        "LIBGCM_AES names an unknown AES backend '%s...'",
                        env_aes);
    }
    name = env_aes;
    source = "LIBGCM_AES";
  }
  if (name == NULL) {
    for (size_t i = 0; dispatch_aes_impls[i] != NULL; i++) {
      const struct aes_impl *impl = dispatch_aes_impls[i];
      if (impl->constant_time && impl->usable()) {
        *out = impl;
        return 1;
      }
    }
    return error_setf(GCM_ERR_BACKEND_UNUSABLE,
                      "no constant-time AES backend runs on this CPU");
  }
  const struct aes_impl *impl = dispatch_find_aes(name);
  if (impl == NULL) {
    return error_setf(GCM_ERR_BACKEND_UNKNOWN,
                      "%s names an unknown AES backend '%s'", source, name);
  }
  if (!impl->usable()) {
    return error_setf(GCM_ERR_BACKEND_UNUSABLE,
                      "%s names AES backend '%s', which needs %s; this CPU "
                      "(after OPENSSL_ia32cap) lacks it",
                      source, name, impl->requires);
  }
  *out = impl;
  return 1;
}

static int choose_ghash(const char *name, const struct ghash_impl **out) {
  const char *source = "gcm_key_init_with_backends";
  if (name == NULL && env_ghash_set) {
    if (env_ghash_too_long) {
      return error_setf(GCM_ERR_BACKEND_UNKNOWN,
                        "LIBGCM_GHASH names an unknown GHASH backend '%s...'",
                        env_ghash);
    }
    name = env_ghash;
    source = "LIBGCM_GHASH";
  }
  if (name == NULL) {
    for (size_t i = 0; dispatch_ghash_impls[i] != NULL; i++) {
      const struct ghash_impl *impl = dispatch_ghash_impls[i];
      if (impl->constant_time && impl->usable()) {
        *out = impl;
        return 1;
      }
    }
    return error_setf(GCM_ERR_BACKEND_UNUSABLE,
                      "no constant-time GHASH backend runs on this CPU");
  }
  const struct ghash_impl *impl = dispatch_find_ghash(name);
  if (impl == NULL) {
    return error_setf(GCM_ERR_BACKEND_UNKNOWN,
                      "%s names an unknown GHASH backend '%s'", source, name);
  }
  if (!impl->usable()) {
    return error_setf(GCM_ERR_BACKEND_UNUSABLE,
                      "%s names GHASH backend '%s', which needs %s; this CPU "
                      "(after OPENSSL_ia32cap) lacks it",
                      source, name, impl->requires);
  }
  *out = impl;
  return 1;
}

int dispatch_choose(const char *aes_name, const char *ghash_name,
                    const struct aes_impl **aes,
                    const struct ghash_impl **ghash) {
  env_init();
  return choose_aes(aes_name, aes) && choose_ghash(ghash_name, ghash);
}
