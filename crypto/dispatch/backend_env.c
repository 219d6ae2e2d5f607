/*
 * crypto/dispatch/backend_env.c: reads LIBGCM_AES, LIBGCM_GHASH and
 * LIBGCM_FUSED once per process (see backend_env.h), through gcmi_getenv
 * (crypto/env.c): a privileged process gets the defaults.
 */
#include <stdlib.h>
#include <string.h>

#include "../env.h"
#include "../once.h"
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

GCM_ONCE_DEFINE(read_env_once, read_env)

const struct gcmi_backend_env *gcmi_backend_env(void) {
  read_env_once();
  return &env;
}
