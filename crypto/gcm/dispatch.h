/*
 * crypto/gcm/dispatch.h: the ordered backend lists and how a key picks from
 * them.
 *
 * Each list is best first. The default for a key is the first entry that is
 * usable on this CPU and constant-time. LIBGCM_AES / LIBGCM_GHASH (read once)
 * or an explicit name select an entry by name instead; an unknown or unusable
 * name is an error, never silently replaced.
 *
 * The fused AES-CTR + GHASH kernels form a third list. It is consulted
 * after the pair is fixed: a key gets the first usable, constant-time
 * entry that fits its pair and is not marked named_only, or the one named
 * by the caller or LIBGCM_FUSED ("none" asks for the two passes).
 */
#ifndef LIBGCM_CRYPTO_GCM_DISPATCH_H
#define LIBGCM_CRYPTO_GCM_DISPATCH_H

#include "../aes/aes.h"
#include "../fused/fused.h"
#include "../ghash/ghash.h"
#include "../internal.h"

/* NULL-terminated, best first. */
extern GCM_HIDDEN const struct aes_impl *const dispatch_aes_impls[];
extern GCM_HIDDEN const struct ghash_impl *const dispatch_ghash_impls[];
extern GCM_HIDDEN const struct fused_impl *const dispatch_fused_impls[];

/* Looks an implementation up by name; NULL when there is none. */
GCM_HIDDEN const struct aes_impl *dispatch_find_aes(const char *name);
GCM_HIDDEN const struct ghash_impl *dispatch_find_ghash(const char *name);
GCM_HIDDEN const struct fused_impl *dispatch_find_fused(const char *name);

/* 1 when fused kernel f can serve a key on the pair (aes, ghash): its own
 * aes and ghash are NULL (any pair) or those very descriptors. */
GCM_HIDDEN int dispatch_fused_fits(const struct fused_impl *f,
                                   const struct aes_impl *aes,
                                   const struct ghash_impl *ghash);

/* Chooses the AES and GHASH implementations for a new key. A non-NULL name
 * selects by name; NULL means the environment's choice if LIBGCM_AES /
 * LIBGCM_GHASH is set, else the best usable constant-time entry. Returns 1,
 * or 0 after recording GCM_ERR_BACKEND_UNKNOWN / GCM_ERR_BACKEND_UNUSABLE
 * with a message naming the backend and where the name came from. */
GCM_HIDDEN int dispatch_choose(const char *aes_name, const char *ghash_name,
                               const struct aes_impl **aes,
                               const struct ghash_impl **ghash);

/* Chooses the fused kernel for a key on the pair (aes, ghash). fused_name
 * NULL means LIBGCM_FUSED if set, else automatic: the first entry of
 * dispatch_fused_impls that is usable, constant-time, not named_only and
 * fits the pair, or none. "none" means the two passes. Any other name must
 * be a kernel that exists (else GCM_ERR_BACKEND_UNKNOWN), fits the pair
 * and runs on this CPU (else GCM_ERR_BACKEND_UNUSABLE); the message names
 * it and where the name came from. *fused is NULL for the two passes.
 * Returns 1, or 0 with the error recorded. */
GCM_HIDDEN int dispatch_choose_fused(const char *fused_name,
                                     const struct aes_impl *aes,
                                     const struct ghash_impl *ghash,
                                     const struct fused_impl **fused);

#endif /* LIBGCM_CRYPTO_GCM_DISPATCH_H */
