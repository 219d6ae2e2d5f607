/*
 * crypto/error.c: per-thread error reporting.
 *
 * Each thread keeps the code and a short message for its last failure in
 * thread-local storage, so concurrent callers never see each other's errors
 * and reporting needs no lock and no allocation.
 */
/* MinGW: vsnprintf is MinGW's C99 one, not msvcrt.dll's (which lacks
 * %zu), so messages read as on every other platform (see error.h). */
#if defined(__MINGW32__) && !defined(__USE_MINGW_ANSI_STDIO)
#define __USE_MINGW_ANSI_STDIO 1
#endif
#include <stdarg.h>
#include <stdio.h>

#include "error.h"

#if defined(_MSC_VER)
#define THREAD_LOCAL __declspec(thread)
#else
#define THREAD_LOCAL _Thread_local
#endif

static THREAD_LOCAL gcm_error last_error = GCM_OK;
static THREAD_LOCAL char last_message[256];

const char *gcm_error_string(gcm_error err) {
  switch (err) {
    case GCM_OK:
      return "no error";
    case GCM_ERR_NULL_POINTER:
      return "a required pointer argument is NULL";
    case GCM_ERR_KEY_LENGTH:
      return "AES key must be 16, 24 or 32 bytes";
    case GCM_ERR_NONCE_LENGTH:
      return "nonce must be 1 to 2^61-1 bytes long";
    case GCM_ERR_TAG_LENGTH:
      return "tag length must be 1 to 16 bytes";
    case GCM_ERR_TOO_LONG:
      return "input longer than GCM allows (plaintext 2^36-32 bytes, AAD 2^61-1 bytes)";
    case GCM_ERR_OUTPUT_TOO_SMALL:
      return "output buffer too small";
    case GCM_ERR_OVERLAP:
      return "output buffer partially overlaps an input (only out == in is allowed)";
    case GCM_ERR_AUTH:
      return "authentication failed: tag mismatch";
    case GCM_ERR_STATE:
      return "streaming call out of order (AAD after data, use after finish or after an error)";
    case GCM_ERR_BACKEND_UNKNOWN:
      return "unknown backend name";
    case GCM_ERR_BACKEND_UNUSABLE:
      return "backend cannot run on this CPU";
    case GCM_ERR_NOT_INITIALIZED:
      return "key or stream is not initialised";
    case GCM_ERR_NONCE_ORDER:
      return "TLS nonce reused or not increasing";
    case GCM_ERR_INVALID_ARGUMENT:
      return "invalid argument";
    case GCM_ERR_RANDOM:
      return "the operating system's random source failed";
  }
  return "unknown error";
}

gcm_error gcm_last_error(void) { return last_error; }

const char *gcm_last_error_message(void) {
  if (last_message[0] == '\0') return gcm_error_string(last_error);
  return last_message;
}

int gcmi_error_set(gcm_error err) {
  last_error = err;
  last_message[0] = '\0';
  return 0;
}

int gcmi_error_setf(gcm_error err, const char *fmt, ...) {
  va_list ap;
  last_error = err;
  va_start(ap, fmt);
  vsnprintf(last_message, sizeof(last_message), fmt, ap);
  va_end(ap);
  return 0;
}
