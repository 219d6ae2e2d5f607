/*
 * crypto/aead/aead_siv.c: the native AES-GCM-SIV API (include/gcm/gcm.h,
 * gcm_siv_*).
 *
 * As for AES-GCM (crypto/aead/aead.c), everything a caller can get wrong
 * is checked here before the mode (crypto/siv) runs: pointers, the key,
 * nonce and tag lengths RFC 8452 fixes, its 2^36-byte limits on plaintext
 * and AAD, and aliasing. Failures record the reason and zero the outputs;
 * a failed open leaves zeros where the plaintext would be, whether the
 * tag was wrong or an argument was.
 */
#include <gcm/gcm.h>

#include "../dispatch/backends.h"
#include "../dispatch/dispatch.h"
#include "../error.h"
#include "../siv/siv_mode.h"
#include "../siv/siv_placement.h"
#include "aead_internal.h"

_Static_assert(GCM_KEY_PLACE_ALIGN + sizeof(struct gcm_siv_key_st) <=
                   sizeof(gcm_siv_key),
               "gcm_siv_key too small for the internal key at an aligned "
               "offset");
_Static_assert(_Alignof(struct gcm_siv_key_st) <= GCM_KEY_PLACE_ALIGN,
               "the internal SIV key needs more alignment than it is placed "
               "at");

/* ---- keys ---------------------------------------------------------------- */

static int siv_key_init(gcm_siv_key *k, const uint8_t *key, size_t key_len,
                        const char *aes_backend, const char *ghash_backend,
                        const char *api) {
  if (k == NULL) return gcmi_error_set(GCM_ERR_NULL_POINTER);
  gcmi_secure_wipe(k, sizeof(*k));
  if (key == NULL) return gcmi_error_set(GCM_ERR_NULL_POINTER);
  if (key_len != 16 && key_len != 32) {
    return gcmi_error_setf(GCM_ERR_KEY_LENGTH,
                           "AES-GCM-SIV keys are 16 or 32 bytes, got %zu",
                           key_len);
  }
  const struct aes_impl *aes;
  const struct ghash_impl *ghash;
  struct dispatch_failure why;
  if (!gcmi_dispatch_choose(aes_backend, ghash_backend, &aes, &ghash, &why)) {
    return gcmi_backend_choice_error(&why, api);
  }
  struct gcm_siv_key_st *ks = gcm_siv_key_place(k);
  gcm_siv_mode_key_init(ks, aes, ghash, key, key_len);
  /* Last: the placement byte is what makes the key initialised. */
  gcm_siv_key_bytes(k)[0] = (unsigned char)((const unsigned char *)(void *)ks -
                                            gcm_siv_key_bytes(k));
  return 1;
}

int gcm_siv_key_init(gcm_siv_key *k, const uint8_t *key, size_t key_len) {
  return siv_key_init(k, key, key_len, NULL, NULL, "gcm_siv_key_init");
}

int gcm_siv_key_init_with_backends(gcm_siv_key *k, const uint8_t *key,
                                   size_t key_len, const char *aes_backend,
                                   const char *ghash_backend) {
  return siv_key_init(k, key, key_len, aes_backend, ghash_backend,
                      "gcm_siv_key_init_with_backends");
}

void gcm_siv_key_cleanup(gcm_siv_key *k) {
  if (k != NULL) gcmi_secure_wipe(k, sizeof(*k));
}

/* Copies the internal key of a gcm_siv_key memcpy'd to an address of
 * another alignment to the aligned `tmp`. Returns tmp, or NULL (tmp wiped)
 * when `k` holds no initialised key there. The caller wipes tmp. */
static const struct gcm_siv_key_st *siv_key_lend(const gcm_siv_key *k,
                                                 struct gcm_siv_key_st *tmp) {
  size_t off = gcm_siv_key_moved(k);
  if (off == 0) return NULL;
  memcpy(tmp, gcm_siv_key_cbytes(k) + off, sizeof(*tmp));
  if (tmp->magic != GCM_SIV_KEY_MAGIC) {
    gcmi_secure_wipe(tmp, sizeof(*tmp));
    return NULL;
  }
  return tmp;
}

/* The backends of a key in place or moved (read as bytes from the moved
 * struct, which is misaligned); 0 when not initialised. */
static int siv_key_backends(const gcm_siv_key *k, const struct aes_impl **aes,
                            const struct ghash_impl **ghash) {
  if (k == NULL) return 0;
  const struct gcm_siv_key_st *ks = gcm_siv_key_placed(k);
  if (ks != NULL) {
    *aes = ks->aes;
    *ghash = ks->ghash;
    return 1;
  }
  size_t off = gcm_siv_key_moved(k);
  uint32_t magic;
  if (off == 0) return 0;
  const unsigned char *b = gcm_siv_key_cbytes(k) + off;
  memcpy(&magic, b + offsetof(struct gcm_siv_key_st, magic), sizeof(magic));
  if (magic != GCM_SIV_KEY_MAGIC) return 0;
  memcpy(aes, b + offsetof(struct gcm_siv_key_st, aes), sizeof(*aes));
  memcpy(ghash, b + offsetof(struct gcm_siv_key_st, ghash), sizeof(*ghash));
  return 1;
}

const char *gcm_siv_key_aes_backend(const gcm_siv_key *k) {
  const struct aes_impl *aes;
  const struct ghash_impl *ghash;
  return siv_key_backends(k, &aes, &ghash) ? aes->name : NULL;
}

const char *gcm_siv_key_ghash_backend(const gcm_siv_key *k) {
  const struct aes_impl *aes;
  const struct ghash_impl *ghash;
  return siv_key_backends(k, &aes, &ghash) ? ghash->name : NULL;
}

/* ---- seal and open --------------------------------------------------------- */

/* Every check gcm_siv_seal and gcm_siv_open make, in the order they report
 * them. *ks is the key in place, or NULL for a moved copy (which the
 * caller borrows). */
static int siv_checks(const gcm_siv_key *k, const struct gcm_siv_key_st **ks,
                      int seal, const uint8_t *out, const uint8_t *tag,
                      size_t tag_len, const uint8_t *nonce, size_t nonce_len,
                      const uint8_t *in, size_t in_len, const uint8_t *aad,
                      size_t aad_len) {
  if (k == NULL) return gcmi_error_set(GCM_ERR_NULL_POINTER);
  *ks = gcm_siv_key_placed(k);
  if (*ks == NULL && gcm_siv_key_moved(k) == 0) {
    return gcmi_error_set(GCM_ERR_NOT_INITIALIZED);
  }
  if (tag_len != GCM_SIV_TAG_LEN) {
    return gcmi_error_setf(GCM_ERR_TAG_LENGTH,
                           "AES-GCM-SIV tags are 16 bytes, got %zu", tag_len);
  }
  if (nonce_len != GCM_SIV_NONCE_LEN) {
    return gcmi_error_setf(GCM_ERR_NONCE_LENGTH,
                           "AES-GCM-SIV nonces are 12 bytes, got %zu",
                           nonce_len);
  }
  if (nonce == NULL || tag == NULL || !buf_ok(out, in_len) ||
      !buf_ok(in, in_len) || !buf_ok(aad, aad_len)) {
    return gcmi_error_set(GCM_ERR_NULL_POINTER);
  }
  if (!length_within(in_len, GCM_SIV_MAX_DATA_LEN)) {
    return gcmi_error_setf(GCM_ERR_TOO_LONG,
                           "plaintext of %llu bytes exceeds AES-GCM-SIV's "
                           "limit of 2^36 bytes",
                           (unsigned long long)in_len);
  }
  if (!length_within(aad_len, GCM_SIV_MAX_AAD_LEN)) {
    return gcmi_error_setf(GCM_ERR_TOO_LONG,
                           "AAD of %llu bytes exceeds AES-GCM-SIV's limit of "
                           "2^36 bytes",
                           (unsigned long long)aad_len);
  }
  if (!one_shot_disjoint(seal, out, tag, tag_len, nonce, nonce_len, in, in_len,
                         aad, aad_len)) {
    return gcmi_error_set(GCM_ERR_OVERLAP);
  }
  return 1;
}

/* The open itself: the mode decrypts and recomputes the tag, and here the
 * two tags are compared in constant time; a wrong one wipes the output. */
static int siv_open_checked(const struct gcm_siv_key_st *ks, uint8_t *out,
                            const uint8_t *nonce, const uint8_t *in,
                            size_t in_len, const uint8_t *tag,
                            const uint8_t *aad, size_t aad_len) {
  _Alignas(16) uint8_t received[16], expected[16];
  /* A copy: the tag is the counter, and the caller's may be anywhere. */
  memcpy(received, tag, 16);
  gcm_siv_mode_open(ks, nonce, in, in_len, aad, aad_len, received, out,
                    expected);
  int ok = ct_memeq(expected, received, 16);
  secure_wipe_block(expected);
  if (!ok) {
    if (in_len > 0) gcmi_secure_wipe(out, in_len);
    return gcmi_error_set(GCM_ERR_AUTH);
  }
  return 1;
}

static AEAD_NOINLINE int siv_seal_moved(const gcm_siv_key *k, uint8_t *out,
                                        uint8_t *tag, const uint8_t *nonce,
                                        const uint8_t *in, size_t in_len,
                                        const uint8_t *aad, size_t aad_len) {
  struct gcm_siv_key_st tmp;
  const struct gcm_siv_key_st *ks = siv_key_lend(k, &tmp);
  if (ks == NULL) {
    wipe_output(out, in_len, GCM_SIV_MAX_DATA_LEN);
    wipe_output(tag, GCM_SIV_TAG_LEN, GCM_SIV_TAG_LEN);
    return gcmi_error_set(GCM_ERR_NOT_INITIALIZED);
  }
  gcm_siv_mode_seal(ks, nonce, in, in_len, aad, aad_len, out, tag);
  gcmi_secure_wipe(&tmp, sizeof(tmp));
  return 1;
}

static AEAD_NOINLINE int siv_open_moved(const gcm_siv_key *k, uint8_t *out,
                                        const uint8_t *nonce,
                                        const uint8_t *in, size_t in_len,
                                        const uint8_t *tag,
                                        const uint8_t *aad, size_t aad_len) {
  struct gcm_siv_key_st tmp;
  const struct gcm_siv_key_st *ks = siv_key_lend(k, &tmp);
  if (ks == NULL) {
    wipe_output(out, in_len, GCM_SIV_MAX_DATA_LEN);
    return gcmi_error_set(GCM_ERR_NOT_INITIALIZED);
  }
  int ok = siv_open_checked(ks, out, nonce, in, in_len, tag, aad, aad_len);
  gcmi_secure_wipe(&tmp, sizeof(tmp));
  return ok;
}

int gcm_siv_seal(const gcm_siv_key *k, uint8_t *out, uint8_t *tag,
                 size_t tag_len, const uint8_t *nonce, size_t nonce_len,
                 const uint8_t *in, size_t in_len, const uint8_t *aad,
                 size_t aad_len) {
  const struct gcm_siv_key_st *ks = NULL;
  if (!siv_checks(k, &ks, 1, out, tag, tag_len, nonce, nonce_len, in, in_len,
                  aad, aad_len)) {
    wipe_output(out, in_len, GCM_SIV_MAX_DATA_LEN);
    wipe_output(tag, tag_len, GCM_SIV_TAG_LEN);
    return 0;
  }
  if (GCM_UNLIKELY(ks == NULL)) {
    return siv_seal_moved(k, out, tag, nonce, in, in_len, aad, aad_len);
  }
  gcm_siv_mode_seal(ks, nonce, in, in_len, aad, aad_len, out, tag);
  return 1;
}

int gcm_siv_open(const gcm_siv_key *k, uint8_t *out, const uint8_t *nonce,
                 size_t nonce_len, const uint8_t *in, size_t in_len,
                 const uint8_t *tag, size_t tag_len, const uint8_t *aad,
                 size_t aad_len) {
  const struct gcm_siv_key_st *ks = NULL;
  if (!siv_checks(k, &ks, 0, out, tag, tag_len, nonce, nonce_len, in, in_len,
                  aad, aad_len)) {
    wipe_output(out, in_len, GCM_SIV_MAX_DATA_LEN);
    return 0;
  }
  if (GCM_UNLIKELY(ks == NULL)) {
    return siv_open_moved(k, out, nonce, in, in_len, tag, aad, aad_len);
  }
  return siv_open_checked(ks, out, nonce, in, in_len, tag, aad, aad_len);
}
