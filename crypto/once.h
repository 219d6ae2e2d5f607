/*
 * crypto/once.h: a function run exactly once per process, even when many
 * threads make their first call at the same time (pthread_once, or
 * InitOnceExecuteOnce on Windows). The CPU reader (crypto/cpu/cpu.c) and
 * the backend environment reader (crypto/dispatch/backend_env.c) use it.
 *
 *   GCM_ONCE_DEFINE(name, init)
 * defines `static void name(void)`, which calls `void init(void)` on its
 * first call and returns once init has returned, on every call.
 */
#ifndef LIBGCM_CRYPTO_ONCE_H
#define LIBGCM_CRYPTO_ONCE_H

#if defined(_WIN32)
#include <windows.h>
#define GCM_ONCE_DEFINE(name, init)                                         \
  static INIT_ONCE name##_state = INIT_ONCE_STATIC_INIT;                   \
  static BOOL CALLBACK name##_callback(PINIT_ONCE once, PVOID param,       \
                                       PVOID *context) {                   \
    (void)once;                                                            \
    (void)param;                                                           \
    (void)context;                                                         \
    init();                                                                \
    return TRUE;                                                           \
  }                                                                        \
  static void name(void) {                                                 \
    InitOnceExecuteOnce(&name##_state, name##_callback, NULL, NULL);       \
  }
#else
#include <pthread.h>
#define GCM_ONCE_DEFINE(name, init)                                         \
  static pthread_once_t name##_state = PTHREAD_ONCE_INIT;                  \
  static void name(void) { pthread_once(&name##_state, init); }
#endif

#endif /* LIBGCM_CRYPTO_ONCE_H */
