/*
 * crypto/dispatch/backends.h: the messages of failed backend choices, for
 * the API layer (crypto/aead) that reports them.
 */
#ifndef LIBGCM_CRYPTO_DISPATCH_BACKENDS_H
#define LIBGCM_CRYPTO_DISPATCH_BACKENDS_H

#include "dispatch.h"
#include "../internal.h"

/* Records the error a failed gcmi_dispatch_choose / gcmi_dispatch_choose_fused
 * stands for, GCM_ERR_BACKEND_UNKNOWN or GCM_ERR_BACKEND_UNUSABLE, with a
 * message naming the backend and where the name came from: the
 * environment variable, or `api`, the public function the user called.
 * Returns 0. */
GCM_HIDDEN int gcmi_backend_choice_error(const struct dispatch_failure *why,
                                    const char *api);

#endif /* LIBGCM_CRYPTO_DISPATCH_BACKENDS_H */
