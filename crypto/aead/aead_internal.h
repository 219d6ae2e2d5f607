/*
 * crypto/aead/aead_internal.h: what the BoringSSL-compatible layer
 * (compat.c) needs of the native API (aead.c) beyond <gcm/gcm.h>, so that
 * no argument is checked twice on its way through.
 *
 * - The one-shot bodies without any checks (gcmi_aead_seal_checked,
 *   gcmi_aead_open_checked): compat.c checks a single-buffer EVP_AEAD_CTX_seal /
 *   _open once, with a test that covers everything gcm_seal / gcm_open would
 *   check as well, and then calls these directly: the compat call costs its
 *   own few compares over the native one, not a second pass over the
 *   arguments. Any call that fails the combined test takes the ordinary
 *   path, which reports the same errors as before.
 * - The native calls with their aliasing test optional (gcmi_aead_seal,
 *   gcmi_aead_open, gcmi_aead_stream_update): the ordinary compat path applies the
 *   aliasing rules to all of a call's pieces at once (a wider test than any
 *   one native call can make) and then hands each piece to these with
 *   AEAD_ALIASING_CHECKED, which check everything else exactly as gcm_seal,
 *   gcm_open and gcm_stream_update do.
 */
#ifndef LIBGCM_CRYPTO_AEAD_AEAD_INTERNAL_H
#define LIBGCM_CRYPTO_AEAD_AEAD_INTERNAL_H

#include <gcm/gcm.h>

#include "../gcm/mode.h"
#include "../gcm/placement.h"
#include "../internal.h"

/* The key inside a public gcm_key when it is initialised and in place,
 * else NULL (also for a memcpy copy at another alignment, which the
 * ordinary paths of aead.c handle: crypto/gcm/placement.h). */
static inline const struct gcm_key_st *aead_valid_key(const gcm_key *k) {
  return gcm_key_placed(k);
}

/* out (len bytes) against in: identical or disjoint, the one aliasing an
 * output may have with its own input. */
static inline int aead_inplace_or_disjoint(const void *out, const void *in,
                                           size_t len) {
  return out == in || !buffers_overlap(out, len, in, len);
}

/* gcm_seal, gcm_open and gcm_stream_update with a choice over the aliasing
 * test: AEAD_CHECK_ALIASING is the public calls exactly;
 * AEAD_ALIASING_CHECKED is for a caller that has already enforced the
 * aliasing rules on these buffers, and makes the same checks, reports the
 * same errors and wipes the same outputs, without the overlap test. */
enum aead_aliasing { AEAD_CHECK_ALIASING, AEAD_ALIASING_CHECKED };

GCM_HIDDEN int gcmi_aead_seal(enum aead_aliasing aliasing, const gcm_key *k,
                         uint8_t *out, uint8_t *tag, size_t tag_len,
                         const uint8_t *nonce, size_t nonce_len,
                         const uint8_t *in, size_t in_len, const uint8_t *aad,
                         size_t aad_len);
GCM_HIDDEN int gcmi_aead_open(enum aead_aliasing aliasing, const gcm_key *k,
                         uint8_t *out, const uint8_t *nonce, size_t nonce_len,
                         const uint8_t *in, size_t in_len, const uint8_t *tag,
                         size_t tag_len, const uint8_t *aad, size_t aad_len);
GCM_HIDDEN int gcmi_aead_stream_update(enum aead_aliasing aliasing, gcm_stream *s,
                                  uint8_t *out, const uint8_t *in, size_t len);

/* gcm_seal after its checks have passed: writes in_len bytes to out and
 * tag_len (1..16) bytes to tag. */
GCM_HIDDEN void gcmi_aead_seal_checked(const struct gcm_key_st *ks, uint8_t *out,
                                  uint8_t *tag, size_t tag_len,
                                  const uint8_t *nonce, size_t nonce_len,
                                  const uint8_t *in, size_t in_len,
                                  const uint8_t *aad, size_t aad_len);

/* gcm_open after its checks have passed: returns 1 when the tag is right;
 * else 0 with GCM_ERR_AUTH recorded and out (in_len bytes) zeroed. */
GCM_HIDDEN int gcmi_aead_open_checked(const struct gcm_key_st *ks, uint8_t *out,
                                 const uint8_t *nonce, size_t nonce_len,
                                 const uint8_t *in, size_t in_len,
                                 const uint8_t *tag, size_t tag_len,
                                 const uint8_t *aad, size_t aad_len);

#endif /* LIBGCM_CRYPTO_AEAD_AEAD_INTERNAL_H */
