/*
 * crypto/env.h: the one way libgcm and its provider read the environment
 * (crypto/env.c explains when the environment is ignored, and why).
 */
#ifndef LIBGCM_CRYPTO_ENV_H
#define LIBGCM_CRYPTO_ENV_H

#include "internal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The value of environment variable `name`, or NULL when it is unset or
 * when the process is privileged (setuid, setgid, file capabilities or any
 * other reason the kernel marks it AT_SECURE). The string belongs to the
 * environment: copy it before the next setenv/putenv. Thread safety is the
 * C library's getenv's. */
GCM_HIDDEN const char *gcmi_getenv(const char *name);

#ifdef __cplusplus
}
#endif

#endif /* LIBGCM_CRYPTO_ENV_H */
