/*
 * crypto/dispatch/dispatch.h: the ordered backend lists and how a key picks from
 * them.
 *
 * Each list is best first and holds every descriptor on every build; one
 * whose architecture or CPU feature is missing reports unusable. The
 * default for a key is the first entry that is usable on this CPU and
 * constant-time. LIBGCM_AES / LIBGCM_GHASH (read once, backend_env.h) or an
 * explicit name select an entry by name instead; an unknown or unusable
 * name is a failure, never silently replaced.
 *
 * The fused AES-CTR + GHASH kernels form a third list. It is consulted
 * after the pair is fixed: a key gets the first usable, constant-time
 * entry that fits its pair, is not marked named_only and is preferred on
 * this CPU (fused.h), or the one named by the caller or LIBGCM_FUSED
 * ("none" asks for the two passes).
 *
 * The dispatcher only chooses. A failure is described in a struct
 * dispatch_failure; the API layer the user called turns it into the error
 * and its message (crypto/dispatch/backends.c, gcmi_backend_choice_error).
 */
#ifndef LIBGCM_CRYPTO_DISPATCH_DISPATCH_H
#define LIBGCM_CRYPTO_DISPATCH_DISPATCH_H

#include <stddef.h>

#include "../aes/aes.h"
#include "../fused/fused.h"
#include "../ghash/ghash.h"
#include "../internal.h"

enum dispatch_kind { DISPATCH_AES = 0, DISPATCH_GHASH, DISPATCH_FUSED };

/* What every list entry has, whatever its kind. */
struct dispatch_entry {
  const char *name;
  int constant_time;
  const char *requires;
  int (*usable)(void);
  /* 1 when this library has the entry's code (its kernels are built for
   * this architecture); an entry that is not built is never usable. */
  int built;
};

/* Entry i (0-based, best first) of one kind's list: 1 and *e filled, or 0
 * past the end. */
GCM_HIDDEN int gcmi_dispatch_entry_at(enum dispatch_kind kind, size_t i,
                                 struct dispatch_entry *e);

/* The descriptors themselves, entry i of each list, or NULL past the end:
 * for the suites that run every usable backend. */
GCM_HIDDEN const struct aes_impl *gcmi_dispatch_aes_at(size_t i);
GCM_HIDDEN const struct ghash_impl *gcmi_dispatch_ghash_at(size_t i);
GCM_HIDDEN const struct fused_impl *gcmi_dispatch_fused_at(size_t i);

/* Looks an implementation up by name, or by a deprecated spelling of its
 * name (dispatch.c: the '-' spellings of 1.0); NULL when there is none. */
GCM_HIDDEN const struct aes_impl *gcmi_dispatch_find_aes(const char *name);
GCM_HIDDEN const struct ghash_impl *gcmi_dispatch_find_ghash(const char *name);
GCM_HIDDEN const struct fused_impl *gcmi_dispatch_find_fused(const char *name);

/* 1 when fused kernel f can serve a key on the pair (aes, ghash): its own
 * aes and ghash are NULL (any pair) or those very descriptors. */
GCM_HIDDEN int gcmi_dispatch_fused_fits(const struct fused_impl *f,
                                   const struct aes_impl *aes,
                                   const struct ghash_impl *ghash);

/* Why a choice failed. */
enum dispatch_failure_reason {
  DISPATCH_UNKNOWN = 0, /* no entry of the kind has the name */
  DISPATCH_NOT_BUILT,   /* the entry's kernels are not in this build */
  DISPATCH_UNUSABLE,    /* this CPU (after its test mask) cannot run it */
  DISPATCH_NONE_RUNS,   /* no name given, and no constant-time entry runs */
  DISPATCH_WRONG_PAIR,  /* a named fused kernel does not fit the key's pair */
  DISPATCH_VARIABLE_TIME_ENV /* the environment names a variable-time entry
                              * and the build does not allow that
                              * (LIBGCM_ALLOW_VARIABLE_TIME_ENV) */
};

struct dispatch_failure {
  enum dispatch_failure_reason reason;
  enum dispatch_kind kind;
  const char *name;     /* the name asked for (NULL for NONE_RUNS) */
  int name_truncated;   /* 1: an environment value longer than name */
  const char *env_var;  /* the variable the name came from, or NULL when
                         * the caller passed it */
  const char *requires; /* NOT_BUILT, UNUSABLE: the entry's requirement */
  /* WRONG_PAIR: the kernel's pair (NULL: any) and the key's pair. */
  const char *fused_aes, *fused_ghash, *key_aes, *key_ghash;
};

/* Chooses the AES and GHASH implementations for a new key. A non-NULL name
 * selects by name; NULL means the environment's choice if LIBGCM_AES /
 * LIBGCM_GHASH is set, else the best usable constant-time entry. Returns
 * 1, or 0 with *why filled. */
GCM_HIDDEN int gcmi_dispatch_choose(const char *aes_name, const char *ghash_name,
                               const struct aes_impl **aes,
                               const struct ghash_impl **ghash,
                               struct dispatch_failure *why);

/* Chooses the fused kernel for a key on the pair (aes, ghash). fused_name
 * NULL means LIBGCM_FUSED if set, else automatic: the first entry of the
 * fused list that is usable, constant-time, not named_only, preferred on
 * this CPU (fused.h) and fits the pair, or none. "none" means the two
 * passes. Any other name must be a kernel that exists, fits the pair and
 * runs on this CPU. *fused is NULL
 * for the two passes. Returns 1, or 0 with *why filled. */
GCM_HIDDEN int gcmi_dispatch_choose_fused(const char *fused_name,
                                     const struct aes_impl *aes,
                                     const struct ghash_impl *ghash,
                                     const struct fused_impl **fused,
                                     struct dispatch_failure *why);

#endif /* LIBGCM_CRYPTO_DISPATCH_DISPATCH_H */
