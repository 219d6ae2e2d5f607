/*
 * crypto/dispatch/backend_env.c: reads LIBGCM_AES, LIBGCM_GHASH and
 * LIBGCM_FUSED once per process (see backend_env.h), through gcmi_getenv
 * (crypto/env.c): a privileged process gets the defaults.
 */
#include <stdlib.h>
#include <string.h>

#if defined(_WIN32)
#include <windows.h>
#else
#include <pthread.h>
#endif

#include "../env.h"
#include "backend_env.h"

static struct gcmi_backend_env env = {
    {"LIBGCM_AES", {0}, 0, 0},
    {"LIBGCM_GHASH", {0}, 0, 0},
    {"LIBGCM_FUSED", {0}, 0, 0},
};

static void copy_env(struct backend_env_choice *c) {
  const char *v = gcmi_getenv(c->var);
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
  copy_env(&env.aes);
  copy_env(&env.ghash);
  copy_env(&env.fused);
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
const struct gcmi_backend_env *gcmi_backend_env(void) {
  InitOnceExecuteOnce(&env_once, read_env_win, NULL, NULL);
  return &env;
}
#else
static pthread_once_t env_once = PTHREAD_ONCE_INIT;
const struct gcmi_backend_env *gcmi_backend_env(void) {
  pthread_once(&env_once, read_env);
  return &env;
}
#endif
