/*
 * crypto/rand/os_random.h: random bytes straight from the operating system.
 *
 * libgcm keeps no generator state of its own: every request goes to the
 * kernel, so there is nothing to seed, nothing to reseed after fork(), and
 * nothing to lock. Its users: the randnonce AEADs of the compat layer and
 * the OpenSSL provider's TLS nonces (provider/gcm_cipher.c).
 */
#ifndef LIBGCM_CRYPTO_RAND_OS_RANDOM_H
#define LIBGCM_CRYPTO_RAND_OS_RANDOM_H

#include <stddef.h>
#include <stdint.h>

#include "../internal.h"

/* Fills the len bytes at `out` with bytes from the operating system's
 * cryptographic random source. Returns 1 on success. On failure returns 0,
 * records GCM_ERR_RANDOM with a message naming the source that failed, and
 * leaves the len bytes at `out` zeroed. Never allocates; safe to call from
 * any number of threads at once. */
GCM_HIDDEN int gcmi_os_random_bytes(uint8_t *out, size_t len);

#endif /* LIBGCM_CRYPTO_RAND_OS_RANDOM_H */
