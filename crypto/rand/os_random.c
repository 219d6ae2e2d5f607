/*
 * crypto/rand/os_random.c: the operating system's random source.
 *
 * Windows: BCryptGenRandom with the system-preferred generator.
 *
 * Elsewhere: getrandom(2) where the C library has it (Linux 3.17+, recent
 * BSDs), which blocks only until the kernel's pool has been seeded once
 * and then never again. If the kernel is too old for the system call
 * (ENOSYS) or a sandbox forbids it (EPERM), the bytes are read from
 * /dev/urandom instead; without getrandom in the C library /dev/urandom is
 * the only source. Both paths retry reads interrupted by a signal (EINTR)
 * and short reads, so a request is either filled completely or fails.
 *
 * Nothing here keeps state, so nothing needs a lock or a fork handler, and
 * nothing allocates: open/read/close on a file descriptor, no stdio.
 */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L /* open's O_CLOEXEC under -std=c11 */
#endif

#include "os_random.h"

#include <string.h>

#include "../error.h"

#if defined(_WIN32)
#include <windows.h>
#include <bcrypt.h>
#else
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#if defined(LIBGCM_HAVE_GETRANDOM)
#include <sys/random.h>
#endif
#endif

#if defined(_WIN32)

int gcmi_os_random_bytes(uint8_t *out, size_t len) {
  for (size_t done = 0; done < len;) {
    /* BCryptGenRandom takes a ULONG length. */
    size_t left = len - done;
    ULONG chunk = left > 0x40000000u ? 0x40000000u : (ULONG)left;
    NTSTATUS st = BCryptGenRandom(NULL, out + done, chunk,
                                  BCRYPT_USE_SYSTEM_PREFERRED_RNG);
    if (!BCRYPT_SUCCESS(st)) {
      memset(out, 0, len);
      return gcmi_error_setf(GCM_ERR_RANDOM,
                        "BCryptGenRandom failed (NTSTATUS 0x%08lx)",
                        (unsigned long)st);
    }
    done += chunk;
  }
  return 1;
}

#else /* !_WIN32 */

/* Reads len bytes from /dev/urandom. Returns 0, with errno saying why,
 * when the device cannot be opened or a read fails or hits end of file. */
static int read_urandom(uint8_t *out, size_t len) {
  int fd;
  do {
    fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) return 0;
  while (len > 0) {
    ssize_t n = read(fd, out, len);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO; /* end of file: not a random device */
      close(fd);
      return 0;
    }
    out += n;
    len -= (size_t)n;
  }
  close(fd);
  return 1;
}

#if defined(LIBGCM_HAVE_GETRANDOM)
/* Fills len bytes with getrandom(2). Returns 1, or 0 with errno set. */
static int call_getrandom(uint8_t *out, size_t len) {
  while (len > 0) {
    ssize_t n = getrandom(out, len, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;
      return 0;
    }
    out += n;
    len -= (size_t)n;
  }
  return 1;
}
#endif

int gcmi_os_random_bytes(uint8_t *out, size_t len) {
  const char *source = "/dev/urandom";
  int ok;
#if defined(LIBGCM_HAVE_GETRANDOM)
  ok = call_getrandom(out, len);
  if (!ok && (errno == ENOSYS || errno == EPERM)) {
    ok = read_urandom(out, len);
  } else if (!ok) {
    source = "getrandom";
  }
#else
  ok = read_urandom(out, len);
#endif
  if (!ok) {
    int err = errno;
    memset(out, 0, len);
    /* The errno value, not strerror(): some C libraries allocate for
     * unknown codes, and this path promises not to. */
    return gcmi_error_setf(GCM_ERR_RANDOM,
                      "the OS random source (%s) failed with errno %d",
                      source, err);
  }
  return 1;
}

#endif /* _WIN32 */
