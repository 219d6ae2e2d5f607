/*
 * crypto/error.h: the per-thread "last error" behind gcm_last_error().
 *
 * Any layer may record a failure; recording never fails and never allocates.
 */
#ifndef LIBGCM_CRYPTO_ERROR_H
#define LIBGCM_CRYPTO_ERROR_H

#include <gcm/gcm.h>

#include "internal.h"

/* Records `err` with its fixed description. Returns 0, so callers can write
 * `return gcmi_error_set(GCM_ERR_...)`. */
GCM_HIDDEN int gcmi_error_set(gcm_error err);

/* Records `err` with a printf-style message (truncated to 255 bytes).
 * The format is C99's (%zu and the like) everywhere: on MinGW, GCC's
 * `printf` archetype would mean the old msvcrt.dll's, so the check names
 * gnu_printf and error.c formats with MinGW's own C99 vsnprintf. */
#if defined(__MINGW32__)
__attribute__((format(gnu_printf, 2, 3)))
#elif defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 2, 3)))
#endif
GCM_HIDDEN int gcmi_error_setf(gcm_error err, const char *fmt, ...);

#endif /* LIBGCM_CRYPTO_ERROR_H */
