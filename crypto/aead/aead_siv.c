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
 *
 * The BoringSSL shim's EVP_aead_aes_*_gcm_siv (compat.c) comes in through
 * gcmi_aead_siv_sealv / openv at the end, with its own checks made and
 * messages that may be in pieces.
 */
#include <gcm/gcm.h>
#include <openssl/aead.h>

#include "../dispatch/backends.h"
#include "../dispatch/backend_env.h"
#include "../dispatch/dispatch.h"
#include "../error.h"
#include "aead_internal.h"

_Static_assert(GCM_KEY_PLACE_ALIGN + GCM_SIV_KEY_MAX_BYTES <= sizeof(gcm_siv_key),
               "gcm_siv_key too small for the largest key at an aligned "
               "offset");
_Static_assert(_Alignof(struct gcm_siv_key_st) <= GCM_KEY_PLACE_ALIGN,
               "the internal SIV key needs more alignment than it is placed "
               "at");

/* ---- keys ---------------------------------------------------------------- */

/* The fused kernel an AES-GCM-SIV key on (aes, ghash) gets by default: the
 * first of the dispatcher's list that a gcm_key on the pair could get
 * automatically (usable, constant-time, not named_only, preferred here)
 * and that has AES-GCM-SIV functions; NULL when none has. (A gcm_key's
 * own choice may be a kernel without them, e.g. armv8_pmull_eor3 ahead of
 * armv8_pmull.) */
static const struct fused_impl *siv_default_fused(const struct aes_impl *aes,
                                                  const struct ghash_impl *ghash) {
  const struct fused_impl *f;
  for (size_t i = 0; (f = gcmi_dispatch_fused_at(i)) != NULL; i++) {
    if (!f->named_only && f->constant_time &&
        gcmi_dispatch_fused_fits(f, aes, ghash) &&
        gcm_siv_fused_fits(f, aes, ghash) && f->usable() &&
        (f->preferred == NULL || f->preferred())) {
      return f;
    }
  }
  return NULL;
}

/* The backends a key gets for the names given (NULL: the default), and
 * the memory it takes, placement slack included. */
struct siv_key_choice {
  const struct aes_impl *aes;
  const struct ghash_impl *ghash;
  const struct fused_impl *fused;
  size_t bytes;
};

/* Fills *c, or returns 0 with the reason recorded for `api`. */
static int siv_key_choose(const char *aes_backend, const char *ghash_backend,
                          const char *fused_backend, struct siv_key_choice *c,
                          const char *api) {
  struct dispatch_failure why;
  if (!gcmi_dispatch_choose(aes_backend, ghash_backend, &c->aes, &c->ghash,
                            &why)) {
    return gcmi_backend_choice_error(&why, api);
  }
  /* The fused kernel: by default the first with AES-GCM-SIV functions
   * that a gcm_key on the pair could get; else as a gcm_key chooses it
   * (the name given or LIBGCM_FUSED's), where one without AES-GCM-SIV
   * functions leaves the key on the backends' hooks, unless the caller
   * named it. */
  if (fused_backend == NULL && !gcmi_backend_env()->fused.set) {
    c->fused = siv_default_fused(c->aes, c->ghash);
  } else if (!gcmi_dispatch_choose_fused(fused_backend, c->aes, c->ghash,
                                         &c->fused, &why)) {
    return gcmi_backend_choice_error(&why, api);
  }
  if (c->fused != NULL && !gcm_siv_fused_fits(c->fused, c->aes, c->ghash)) {
    if (fused_backend != NULL) {
      return gcmi_error_setf(GCM_ERR_BACKEND_UNUSABLE,
                             "%s: fused kernel '%s' has no AES-GCM-SIV "
                             "functions",
                             api, c->fused->name);
    }
    c->fused = NULL;
  }
  /* The fused kernels keep nothing of their own for AES-GCM-SIV
   * (gcm_siv_fused_fits): the key is its header and the AES schedule. */
  c->bytes = GCM_KEY_PLACE_ALIGN + gcm_siv_mode_key_bytes(c->aes);
  return 1;
}

/* The body of the key set-up calls, into the `size` bytes at k (a whole
 * gcm_siv_key, or memory of gcm_siv_key_size_for's size); `api` is the
 * one the user called, for the messages. */
static int siv_key_init(gcm_siv_key *k, size_t size, const uint8_t *key,
                        size_t key_len, const char *aes_backend,
                        const char *ghash_backend, const char *fused_backend,
                        const char *api) {
  if (!aead_key_init_start(k, size, key, key_len, 0)) return 0;
  struct siv_key_choice c;
  if (!siv_key_choose(aes_backend, ghash_backend, fused_backend, &c, api)) {
    return 0;
  }
  if (size < c.bytes) {
    return gcmi_error_setf(GCM_ERR_OUTPUT_TOO_SMALL,
                           "%s: an AES-GCM-SIV key on %s/%s/%s needs %zu "
                           "bytes (gcm_siv_key_size_for), got %zu",
                           api, c.aes->name, c.ghash->name,
                           c.fused != NULL ? c.fused->name : "none", c.bytes,
                           size);
  }
  struct gcm_siv_key_st *ks = gcm_siv_key_place(k);
  gcm_siv_mode_key_init(ks, c.aes, c.ghash, c.fused, key, key_len);
  /* Last: the placement byte is what makes the key initialised. */
  gcm_siv_key_bytes(k)[0] = (unsigned char)((const unsigned char *)(void *)ks -
                                            gcm_siv_key_bytes(k));
  return 1;
}

int gcm_siv_key_init(gcm_siv_key *k, const uint8_t *key, size_t key_len) {
  return siv_key_init(k, sizeof(*k), key, key_len, NULL, NULL, NULL,
                      "gcm_siv_key_init");
}

int gcm_siv_key_init_with_backends(gcm_siv_key *k, const uint8_t *key,
                                   size_t key_len, const char *aes_backend,
                                   const char *ghash_backend) {
  return siv_key_init(k, sizeof(*k), key, key_len, aes_backend, ghash_backend,
                      NULL, "gcm_siv_key_init_with_backends");
}

int gcm_siv_key_init_with_fused(gcm_siv_key *k, const uint8_t *key,
                                size_t key_len, const char *aes_backend,
                                const char *ghash_backend,
                                const char *fused_backend) {
  return siv_key_init(k, sizeof(*k), key, key_len, aes_backend, ghash_backend,
                      fused_backend, "gcm_siv_key_init_with_fused");
}

size_t gcm_siv_key_size_for(const char *aes_backend, const char *ghash_backend,
                            const char *fused_backend) {
  struct siv_key_choice c;
  return siv_key_choose(aes_backend, ghash_backend, fused_backend, &c,
                        "gcm_siv_key_size_for")
             ? c.bytes
             : 0;
}

int gcm_siv_key_init_sized(gcm_siv_key *k, size_t size, const uint8_t *key,
                           size_t key_len, const char *aes_backend,
                           const char *ghash_backend,
                           const char *fused_backend) {
  return siv_key_init(k, size, key, key_len, aes_backend, ghash_backend,
                      fused_backend, "gcm_siv_key_init_sized");
}

/* The header of a moved key (gcm_siv_key_moved: its struct is intact at
 * the old offset `off`, now misaligned), read as bytes: 1 and *h filled
 * when it is an initialised key, else 0. */
static int siv_moved_header(const gcm_siv_key *k, size_t off,
                            struct gcm_siv_key_st *h) {
  memcpy(h, gcm_siv_key_cbytes(k) + off, sizeof(*h));
  return h->magic == GCM_SIV_KEY_MAGIC;
}

/* How many bytes from the start of k its key occupies, placement slack
 * included: what cleanup wipes. Just the placement byte when k holds no
 * key (never initialised, failed, or cleaned up). */
static size_t siv_key_extent(const gcm_siv_key *k) {
  const struct gcm_siv_key_st *ks = gcm_siv_key_placed(k);
  if (ks != NULL) {
    return (size_t)((const unsigned char *)(const void *)ks -
                    gcm_siv_key_cbytes(k)) +
           gcm_siv_key_st_bytes(ks);
  }
  size_t off = gcm_siv_key_moved(k);
  struct gcm_siv_key_st h;
  if (off != 0 && siv_moved_header(k, off, &h)) {
    return off + gcm_siv_key_st_bytes(&h);
  }
  return 1;
}

void gcm_siv_key_cleanup(gcm_siv_key *k) {
  if (k != NULL) gcmi_secure_wipe(k, siv_key_extent(k));
}

/* Room for any AES-GCM-SIV key at an aligned place: a moved key's loan. */
union siv_key_room {
  struct gcm_siv_key_st h;
  GCM_ALIGNED(16) uint8_t bytes[GCM_SIV_KEY_MAX_BYTES];
};

/* Copies the internal key of a gcm_siv_key memcpy'd to an address of
 * another alignment to the aligned `tmp`: as many bytes as its header
 * says the key takes. Returns the copy, or NULL when `k` holds no
 * initialised key there. The caller wipes tmp (siv_key_return). */
static const struct gcm_siv_key_st *siv_key_lend(const gcm_siv_key *k,
                                                 union siv_key_room *tmp) {
  size_t off = gcm_siv_key_moved(k);
  struct gcm_siv_key_st h;
  if (off == 0 || !siv_moved_header(k, off, &h)) return NULL;
  memcpy(tmp->bytes, gcm_siv_key_cbytes(k) + off, gcm_siv_key_st_bytes(&h));
  return &tmp->h;
}

/* Wipes a loan of siv_key_lend. */
static void siv_key_return(union siv_key_room *tmp) {
  gcmi_secure_wipe(tmp, gcm_siv_key_st_bytes(&tmp->h));
}

/* The backends of a key in place or moved (read as bytes from the moved
 * struct, which is misaligned); 0 when not initialised. */
static int siv_key_backends(const gcm_siv_key *k, const struct aes_impl **aes,
                            const struct ghash_impl **ghash,
                            const struct fused_impl **fused) {
  if (k == NULL) return 0;
  const struct gcm_siv_key_st *ks = gcm_siv_key_placed(k);
  if (ks != NULL) {
    *aes = ks->aes;
    *ghash = ks->ghash;
    *fused = ks->fused;
    return 1;
  }
  size_t off = gcm_siv_key_moved(k);
  struct gcm_siv_key_st h;
  if (off == 0 || !siv_moved_header(k, off, &h)) return 0;
  *aes = h.aes;
  *ghash = h.ghash;
  *fused = h.fused;
  return 1;
}

const char *gcm_siv_key_aes_backend(const gcm_siv_key *k) {
  const struct aes_impl *aes;
  const struct ghash_impl *ghash;
  const struct fused_impl *fused;
  return siv_key_backends(k, &aes, &ghash, &fused) ? aes->name : NULL;
}

const char *gcm_siv_key_ghash_backend(const gcm_siv_key *k) {
  const struct aes_impl *aes;
  const struct ghash_impl *ghash;
  const struct fused_impl *fused;
  return siv_key_backends(k, &aes, &ghash, &fused) ? ghash->name : NULL;
}

const char *gcm_siv_key_fused_backend(const gcm_siv_key *k) {
  const struct aes_impl *aes;
  const struct ghash_impl *ghash;
  const struct fused_impl *fused;
  if (!siv_key_backends(k, &aes, &ghash, &fused)) return NULL;
  return fused != NULL ? fused->name : "none";
}

/* ---- seal and open --------------------------------------------------------- */

/* Every check gcm_siv_seal and gcm_siv_open make, in the order they report
 * them. *ks is the key in place, or NULL for a moved copy (which the
 * caller borrows). */
static int siv_check_args(const gcm_siv_key *k,
                          const struct gcm_siv_key_st **ks, int seal,
                          const uint8_t *out, const uint8_t *tag,
                          size_t tag_len, const uint8_t *nonce,
                          size_t nonce_len, const uint8_t *in, size_t in_len,
                          const uint8_t *aad, size_t aad_len) {
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
int gcmi_aead_siv_open_checked(const struct gcm_siv_key_st *ks, uint8_t *out,
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

/* The start of gcm_siv_seal (seal 1; sealed_tag: the tag it writes) and
 * gcm_siv_open (seal 0; sealed_tag NULL): siv_check_args, and when a check
 * fails, what the call would have written zeroed (out, and a seal's tag)
 * before 0 is returned. */
static int siv_checks(const gcm_siv_key *k, const struct gcm_siv_key_st **ks,
                      int seal, uint8_t *out, uint8_t *sealed_tag,
                      const uint8_t *tag, size_t tag_len, const uint8_t *nonce,
                      size_t nonce_len, const uint8_t *in, size_t in_len,
                      const uint8_t *aad, size_t aad_len) {
  if (siv_check_args(k, ks, seal, out, tag, tag_len, nonce, nonce_len, in,
                     in_len, aad, aad_len)) {
    return 1;
  }
  wipe_output(out, in_len, GCM_SIV_MAX_DATA_LEN);
  wipe_output(sealed_tag, tag_len, GCM_SIV_TAG_LEN);
  return 0;
}

static AEAD_NOINLINE int siv_seal_moved(const gcm_siv_key *k, uint8_t *out,
                                        uint8_t *tag, const uint8_t *nonce,
                                        const uint8_t *in, size_t in_len,
                                        const uint8_t *aad, size_t aad_len) {
  union siv_key_room tmp;
  const struct gcm_siv_key_st *ks = siv_key_lend(k, &tmp);
  if (ks == NULL) {
    wipe_output(out, in_len, GCM_SIV_MAX_DATA_LEN);
    wipe_output(tag, GCM_SIV_TAG_LEN, GCM_SIV_TAG_LEN);
    return gcmi_error_set(GCM_ERR_NOT_INITIALIZED);
  }
  gcm_siv_mode_seal(ks, nonce, in, in_len, aad, aad_len, out, tag);
  siv_key_return(&tmp);
  return 1;
}

static AEAD_NOINLINE int siv_open_moved(const gcm_siv_key *k, uint8_t *out,
                                        const uint8_t *nonce,
                                        const uint8_t *in, size_t in_len,
                                        const uint8_t *tag,
                                        const uint8_t *aad, size_t aad_len) {
  union siv_key_room tmp;
  const struct gcm_siv_key_st *ks = siv_key_lend(k, &tmp);
  if (ks == NULL) {
    wipe_output(out, in_len, GCM_SIV_MAX_DATA_LEN);
    return gcmi_error_set(GCM_ERR_NOT_INITIALIZED);
  }
  int ok = gcmi_aead_siv_open_checked(ks, out, nonce, in, in_len, tag, aad,
                                      aad_len);
  siv_key_return(&tmp);
  return ok;
}

int gcm_siv_seal(const gcm_siv_key *k, uint8_t *out, uint8_t *tag,
                 size_t tag_len, const uint8_t *nonce, size_t nonce_len,
                 const uint8_t *in, size_t in_len, const uint8_t *aad,
                 size_t aad_len) {
  const struct gcm_siv_key_st *ks = NULL;
  if (!siv_checks(k, &ks, 1, out, tag, tag, tag_len, nonce, nonce_len, in,
                  in_len, aad, aad_len)) {
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
  if (!siv_checks(k, &ks, 0, out, NULL, tag, tag_len, nonce, nonce_len, in,
                  in_len, aad, aad_len)) {
    return 0;
  }
  if (GCM_UNLIKELY(ks == NULL)) {
    return siv_open_moved(k, out, nonce, in, in_len, tag, aad, aad_len);
  }
  return gcmi_aead_siv_open_checked(ks, out, nonce, in, in_len, tag, aad,
                                    aad_len);
}

/* ---- the BoringSSL shim's calls (aead_internal.h) ---------------------------- */

/* The key of k, in place or lent into tmp (the caller wipes tmp), after
 * the checks the shim leaves to the mode's API: an initialised key, a
 * 12-byte nonce, data and AAD within 2^36 bytes. NULL with the error
 * recorded when one fails. */
static const struct gcm_siv_key_st *shim_checks(const gcm_siv_key *k,
                                                union siv_key_room *tmp,
                                                size_t nonce_len,
                                                uint64_t data_len,
                                                uint64_t aad_len) {
  if (nonce_len != GCM_SIV_NONCE_LEN) {
    gcmi_error_setf(GCM_ERR_NONCE_LENGTH,
                    "AES-GCM-SIV nonces are 12 bytes, got %zu", nonce_len);
    return NULL;
  }
  if (data_len > GCM_SIV_MAX_DATA_LEN || aad_len > GCM_SIV_MAX_AAD_LEN) {
    gcmi_error_setf(GCM_ERR_TOO_LONG,
                    "AES-GCM-SIV takes at most 2^36 bytes of plaintext and "
                    "of AAD");
    return NULL;
  }
  const struct gcm_siv_key_st *ks = gcm_siv_key_placed(k);
  if (ks == NULL) ks = siv_key_lend(k, tmp);
  if (ks == NULL) gcmi_error_set(GCM_ERR_NOT_INITIALIZED);
  return ks;
}

static uint64_t aad_total(const CRYPTO_IVEC *aad, size_t n_aad) {
  uint64_t total = 0;
  for (size_t i = 0; i < n_aad; i++) total += aad[i].len;
  return total;
}

int gcmi_aead_siv_sealv(const gcm_siv_key *k, const CRYPTO_IOVEC *iov,
                        size_t n_iov, uint8_t tag[16], const uint8_t *nonce,
                        size_t nonce_len, const CRYPTO_IVEC *aad,
                        size_t n_aad) {
  union siv_key_room tmp;
  uint64_t data_len = 0;
  for (size_t i = 0; i < n_iov; i++) data_len += iov[i].len;
  const struct gcm_siv_key_st *ks =
      shim_checks(k, &tmp, nonce_len, data_len, aad_total(aad, n_aad));
  if (ks == NULL) return 0;
  if (n_iov <= 1 && n_aad <= 1) {
    gcm_siv_mode_seal(ks, nonce, n_iov ? iov[0].in : NULL, (size_t)data_len,
                      n_aad ? aad[0].in : NULL, n_aad ? aad[0].len : 0,
                      n_iov ? iov[0].out : NULL, tag);
  } else {
    /* Hash the whole message, then encrypt it from the tag. */
    struct siv_message m;
    gcm_siv_message_start(&m, ks, nonce,
                          siv_polyval_blocks(aad_total(aad, n_aad), data_len));
    for (size_t i = 0; i < n_aad; i++) {
      gcm_siv_message_aad(&m, aad[i].in, aad[i].len);
    }
    for (size_t i = 0; i < n_iov; i++) {
      gcm_siv_message_hash_data(&m, iov[i].in, iov[i].len);
    }
    gcm_siv_message_tag(&m, tag);
    gcm_siv_message_crypt_from(&m, tag);
    for (size_t i = 0; i < n_iov; i++) {
      gcm_siv_message_crypt(&m, iov[i].out, iov[i].in, iov[i].len);
    }
    gcm_siv_message_wipe(&m);
  }
  if (ks == &tmp.h) siv_key_return(&tmp);
  return 1;
}

int gcmi_aead_siv_openv(const gcm_siv_key *k, const CRYPTO_IOVEC *iov,
                        size_t n_iov, size_t data_len, const uint8_t *nonce,
                        size_t nonce_len, const uint8_t tag[16],
                        const CRYPTO_IVEC *aad, size_t n_aad) {
  union siv_key_room tmp;
  const struct gcm_siv_key_st *ks =
      shim_checks(k, &tmp, nonce_len, data_len, aad_total(aad, n_aad));
  if (ks == NULL) return 0;
  int ok;
  if (n_aad <= 1 && (data_len == 0 || iov[0].len >= data_len)) {
    ok = gcmi_aead_siv_open_checked(
        ks, data_len ? iov[0].out : NULL, nonce, data_len ? iov[0].in : NULL,
        data_len, tag, n_aad ? aad[0].in : NULL, n_aad ? aad[0].len : 0);
  } else {
    /* Decrypt each piece from the received tag and hash its plaintext. */
    _Alignas(16) uint8_t received[16], expected[16];
    struct siv_message m;
    memcpy(received, tag, 16);
    gcm_siv_message_start(&m, ks, nonce,
                          siv_polyval_blocks(aad_total(aad, n_aad), data_len));
    for (size_t i = 0; i < n_aad; i++) {
      gcm_siv_message_aad(&m, aad[i].in, aad[i].len);
    }
    gcm_siv_message_crypt_from(&m, received);
    size_t left = data_len;
    for (size_t i = 0; i < n_iov && left > 0; i++) {
      size_t take = iov[i].len < left ? iov[i].len : left;
      gcm_siv_message_crypt(&m, iov[i].out, iov[i].in, take);
      gcm_siv_message_hash_data(&m, iov[i].out, take);
      left -= take;
    }
    gcm_siv_message_tag(&m, expected);
    gcm_siv_message_wipe(&m);
    ok = ct_memeq(expected, received, 16);
    secure_wipe_block(expected);
    if (!ok) {
      left = data_len;
      for (size_t i = 0; i < n_iov && left > 0; i++) {
        size_t take = iov[i].len < left ? iov[i].len : left;
        if (take > 0) gcmi_secure_wipe(iov[i].out, take);
        left -= take;
      }
      gcmi_error_set(GCM_ERR_AUTH);
    }
  }
  if (ks == &tmp.h) siv_key_return(&tmp);
  return ok;
}
