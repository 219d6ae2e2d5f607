/*
 * crypto/dispatch/backend_env.h: the backend names the environment asks for
 * (LIBGCM_AES, LIBGCM_GHASH, LIBGCM_FUSED), read once.
 *
 * The dispatcher asks here for the default of a key that names no
 * backend; reading the environment is all this part does.
 */
#ifndef LIBGCM_CRYPTO_DISPATCH_BACKEND_ENV_H
#define LIBGCM_CRYPTO_DISPATCH_BACKEND_ENV_H

#include "../internal.h"

/* One variable's value, copied at first use so later changes to the
 * environment (or a concurrent setenv) cannot affect running code. */
struct backend_env_choice {
  const char *var; /* "LIBGCM_AES", "LIBGCM_GHASH" or "LIBGCM_FUSED" */
  char name[32];   /* the value, cut to 31 bytes */
  int set;         /* 1 when the variable is set and not empty */
  int too_long;    /* 1 when the value did not fit in name */
};

struct gcmi_backend_env {
  struct backend_env_choice aes, ghash, fused;
};

/* The three variables, read exactly once per process (thread-safe). The
 * pointer stays valid for the life of the process. */
GCM_HIDDEN const struct gcmi_backend_env *gcmi_backend_env(void);

#endif /* LIBGCM_CRYPTO_DISPATCH_BACKEND_ENV_H */
