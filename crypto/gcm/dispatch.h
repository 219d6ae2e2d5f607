/*
 * crypto/gcm/dispatch.h: the ordered backend lists and how a key picks from
 * them.
 *
 * Each list is best first. The default for a key is the first entry that is
 * usable on this CPU and constant-time. LIBGCM_AES / LIBGCM_GHASH (read once)
 * or an explicit name select an entry by name instead; an unknown or unusable
 * name is an error, never silently replaced.
 */
#ifndef LIBGCM_CRYPTO_GCM_DISPATCH_H
#define LIBGCM_CRYPTO_GCM_DISPATCH_H

#include "../aes/aes.h"
#include "../ghash/ghash.h"
#include "../internal.h"

/* NULL-terminated, best first. */
extern GCM_HIDDEN const struct aes_impl *const dispatch_aes_impls[];
extern GCM_HIDDEN const struct ghash_impl *const dispatch_ghash_impls[];

/* Looks an implementation up by name; NULL when there is none. */
GCM_HIDDEN const struct aes_impl *dispatch_find_aes(const char *name);
GCM_HIDDEN const struct ghash_impl *dispatch_find_ghash(const char *name);

/* Chooses the AES and GHASH implementations for a new key. A non-NULL name
 * selects by name; NULL means the environment's choice if LIBGCM_AES /
 * LIBGCM_GHASH is set, else the best usable constant-time entry. Returns 1,
 * or 0 after recording GCM_ERR_BACKEND_UNKNOWN / GCM_ERR_BACKEND_UNUSABLE
 * with a message naming the backend and where the name came from. */
GCM_HIDDEN int dispatch_choose(const char *aes_name, const char *ghash_name,
                               const struct aes_impl **aes,
                               const struct ghash_impl **ghash);

#endif /* LIBGCM_CRYPTO_GCM_DISPATCH_H */
