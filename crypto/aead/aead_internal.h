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

#include "../error.h"
#include "../gcm/mode.h"
#include "../gcm/placement.h"
#include "../internal.h"
#include "../siv/siv_mode.h"
#include "../siv/siv_placement.h"

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

/* A buffer argument: NULL is fine only when empty. */
static inline int buf_ok(const void *p, size_t len) {
  return p != NULL || len == 0;
}

/* The aliasing rules of a one-shot call (gcm_seal, gcm_open, gcm_siv_seal,
 * gcm_siv_open): out is its own input or clear of it, and clear of the
 * AAD, the nonce and the tag; a tag that seal writes is an output too, so
 * it is also clear of every input. (Open only reads its tag, so there the
 * tag may share bytes with the other inputs.) */
static inline int one_shot_disjoint(int seal, const uint8_t *out,
                                    const uint8_t *tag, size_t tag_len,
                                    const uint8_t *nonce, size_t nonce_len,
                                    const uint8_t *in, size_t in_len,
                                    const uint8_t *aad, size_t aad_len) {
  if (!aead_inplace_or_disjoint(out, in, in_len) ||
      buffers_overlap(out, in_len, aad, aad_len) ||
      buffers_overlap(out, in_len, nonce, nonce_len) ||
      buffers_overlap(out, in_len, tag, tag_len)) {
    return 0;
  }
  return !seal || (!buffers_overlap(tag, tag_len, in, in_len) &&
                   !buffers_overlap(tag, tag_len, aad, aad_len) &&
                   !buffers_overlap(tag, tag_len, nonce, nonce_len));
}

/* The start of every key set-up call (gcm_key_init*, gcm_siv_key_init*):
 * the `size` bytes at k wiped, then the pointers and the key length
 * checked: 16 or 32 bytes, and 24 too for AES-GCM (`aes192`); AES-GCM-SIV
 * defines no 24-byte variant. 1, or 0 with the error recorded. */
static inline int aead_key_init_start(void *k, size_t size, const uint8_t *key,
                                      size_t key_len, int aes192) {
  if (k == NULL) return gcmi_error_set(GCM_ERR_NULL_POINTER);
  gcmi_secure_wipe(k, size);
  if (key == NULL) return gcmi_error_set(GCM_ERR_NULL_POINTER);
  if (key_len != 16 && key_len != 32 && !(aes192 && key_len == 24)) {
    return gcmi_error_setf(GCM_ERR_KEY_LENGTH,
                           aes192 ? "AES key must be 16, 24 or 32 bytes, got %zu"
                                  : "AES-GCM-SIV keys are 16 or 32 bytes, got %zu",
                           key_len);
  }
  return 1;
}

/* Zeroes an output after a failure, unless its extent is unknowable: a NULL
 * pointer, or a length the caller could not have allocated (over the
 * mode's limit), in which case nothing is written at all. */
static inline void wipe_output(void *p, size_t len, uint64_t limit) {
  if (p != NULL && (uint64_t)len <= limit) gcmi_secure_wipe(p, len);
}

/* Out of line, so the aligned room for a moved key takes stack only on the
 * path that needs it. */
#if defined(__GNUC__) || defined(__clang__)
#define AEAD_NOINLINE __attribute__((noinline))
#else
#define AEAD_NOINLINE
#endif

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

/* The internal key of a gcm_siv_key initialised and in place, else NULL
 * (as aead_valid_key). */
static inline const struct gcm_siv_key_st *aead_valid_siv_key(
    const gcm_siv_key *k) {
  return gcm_siv_key_placed(k);
}

/* gcm_siv_open after its checks have passed (a 16-byte tag): returns 1
 * when the tag is right; else 0 with GCM_ERR_AUTH recorded and out
 * (in_len bytes) zeroed. (gcm_siv_seal after its checks is the mode's
 * gcm_siv_mode_seal.) */
GCM_HIDDEN int gcmi_aead_siv_open_checked(const struct gcm_siv_key_st *ks,
                                          uint8_t *out, const uint8_t *nonce,
                                          const uint8_t *in, size_t in_len,
                                          const uint8_t *tag,
                                          const uint8_t *aad, size_t aad_len);

/* AES-GCM-SIV for the BoringSSL shim's calls (compat.c), over messages in
 * pieces as its vectored calls give them (struct crypto_iovec_st and
 * crypto_ivec_st, <openssl/aead.h>). The caller has checked the pointers,
 * that the piece lengths add up without overflow, and the aliasing rules;
 * these check the key, the 12-byte nonce and RFC 8452's 2^36-byte limits
 * and then run the mode, on the one-shot path when there is at most one
 * piece of each. Return 1, or 0 with the error recorded.
 *
 * gcmi_aead_siv_sealv writes each piece's ciphertext to its `out` and the
 * 16-byte tag to `tag`. gcmi_aead_siv_openv decrypts the first data_len
 * bytes of the pieces (any more is the tag, which the caller took out) and
 * checks `tag`; on a wrong tag those data_len bytes of output are zeroed
 * (GCM_ERR_AUTH). */
struct crypto_iovec_st;
struct crypto_ivec_st;
GCM_HIDDEN int gcmi_aead_siv_sealv(const gcm_siv_key *k,
                                   const struct crypto_iovec_st *iov,
                                   size_t n_iov, uint8_t tag[16],
                                   const uint8_t *nonce, size_t nonce_len,
                                   const struct crypto_ivec_st *aad,
                                   size_t n_aad);
GCM_HIDDEN int gcmi_aead_siv_openv(const gcm_siv_key *k,
                                   const struct crypto_iovec_st *iov,
                                   size_t n_iov, size_t data_len,
                                   const uint8_t *nonce, size_t nonce_len,
                                   const uint8_t tag[16],
                                   const struct crypto_ivec_st *aad,
                                   size_t n_aad);

#endif /* LIBGCM_CRYPTO_AEAD_AEAD_INTERNAL_H */
